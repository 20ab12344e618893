/*
 * main.c: the command line entry.  "run", "report", "merge" and "serve" are
 * subcommands only as the first argument; otherwise cli -> plan -> pipeline
 * (probe -> analysis -> report), and the outcome becomes the exit status (SPEC
 * 2). Nothing else happens here.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_merge.h"
#include "cmd_run.h"
#include "cmd_report.h"
#include "msg.h"
#include "pipeline.h"
#include "plan.h"
#include "probe.h"
#include "serve.h"
#include "strpool.h"
#include "banned.h"

static int measure_urls(int argc, char **argv)
{
  struct cli cli;
  struct plan plan;
  struct pipeline pl;
  int rc = EXIT_STATUS_USAGE;

  memset(&plan, 0, sizeof(plan));
  if (cli_parse(&cli, argc, argv) < 0)
    goto out_cli;
  msg_verbosity = options_verbosity(&cli.opts);
  if (cli.opts.help) {
    cli_usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out_cli;
  }
  if (cli.opts.version) {
    /* The version calls need no library set-up: -V starts fast. */
    cli_version(stdout);
    rc = EXIT_STATUS_OK;
    goto out_cli;
  }
  if (plan_build(&plan, &cli.opts, cli.args, cli.n_args) < 0)
    goto out_cli;
  /* Every check a run makes before it measures, --dry-run included: the
   * files options name, then the outputs (an output that cannot be
   * written is found before anything is measured, not after). */
  rc = pipeline_preflight(&plan);
  if (rc != EXIT_STATUS_OK)
    goto out_plan;
  rc = EXIT_STATUS_SETUP;
  if (pipeline_check_outputs(&cli.opts) < 0)
    goto out_plan;
  if (cli.opts.dry_run) {
    plan_print(&plan, stdout);
    rc = fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_SETUP;
    goto out_plan;
  }
  if (pipeline_measure(&pl, &plan, NULL, NULL) == 0)
    rc = pipeline_exit_status(&pl, pipeline_report(&pl, &cli.opts), 0);
  pipeline_release(&pl);
out_plan:
  plan_release(&plan);
out_cli:
  cli_release(&cli);
  return rc;
}

int main(int argc, char **argv)
{
  int rc;

  if (argc > 1 && !strcmp(argv[1], "report"))
    rc = cmd_report(argc - 1, argv + 1);
  else if (argc > 1 && !strcmp(argv[1], "run"))
    rc = cmd_run(argc - 1, argv + 1);
  else if (argc > 1 && !strcmp(argv[1], "merge"))
    rc = cmd_merge(argc - 1, argv + 1);
  else if (argc > 1 && !strcmp(argv[1], "serve"))
    rc = cmd_serve(argc - 1, argv + 1);
  else
    rc = measure_urls(argc, argv);
  /* The samples' strings: everything that pointed into the pool is gone. */
  strpool_release_all();
  return rc;
}
