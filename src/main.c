/*
 * main.c: initialise the libraries, then cli -> plan -> probe -> analysis
 * -> report, and map the outcome to the exit status (SPEC 2).  Nothing
 * else happens here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "cli.h"
#include "msg.h"
#include "plan.h"
#include "probe.h"
#include "report.h"
#include "results.h"
#include "runner.h"
#include "banned.h"

enum {
  EXIT_OK = 0,
  EXIT_CHECK = 1,
  EXIT_USAGE = 2,
  EXIT_SAMPLES = 3,
  EXIT_SETUP = 4,
  EXIT_INTERRUPTED = 130
};

static int want_color(const struct options *o)
{
  const char *nc = getenv("NO_COLOR");

  if (o->color == TRI_ALWAYS)
    return 1;
  if (o->color == TRI_NEVER || (nc && *nc))
    return 0;
  return isatty(STDOUT_FILENO) && o->format == FORMAT_TEXT;
}

static int write_outputs(const struct report_ctx *ctx, const struct options *o)
{
  struct buf b;
  size_t i;
  int rc = 0;

  buf_init(&b, 0);
  for (i = 0; i < o->n_outputs; i++) {
    struct report_ctx fc = *ctx;

    fc.color = 0;
    buf_reset(&b);
    report_render(&fc, o->outputs[i].format, &b);
    if (report_write_file(o->outputs[i].path, b.s, b.len) < 0)
      rc = -1;
  }
  buf_release(&b);
  return rc;
}

int main(int argc, char **argv)
{
  struct cli cli;
  struct plan plan;
  struct results results;
  struct analysis analysis;
  struct report_ctx ctx;
  struct buf out, libs;
  int rc = EXIT_USAGE, run_rc;
  size_t i;

  memset(&plan, 0, sizeof(plan));
  if (argc > 1 && (!strcmp(argv[1], "run") || !strcmp(argv[1], "report"))) {
    msg_error("'hopsplit %s' is not part of this version yet; "
              "measure URLs directly: hopsplit [OPTIONS] URL ...",
              argv[1]);
    return EXIT_USAGE;
  }
  if (cli_parse(&cli, argc, argv) < 0)
    goto out_cli;
  msg_verbosity = cli.opts.verbosity;
  if (cli.opts.help) {
    cli_usage(stdout);
    rc = EXIT_OK;
    goto out_cli;
  }
  if (cli.opts.version) {
    if (probe_global_init() < 0) {
      rc = EXIT_SETUP;
      goto out_cli;
    }
    cli_version(stdout);
    probe_global_cleanup();
    rc = EXIT_OK;
    goto out_cli;
  }
  if (plan_build(&plan, &cli.opts, cli.args, cli.n_args) < 0)
    goto out_cli;
  if (cli.opts.dry_run) {
    plan_print(&plan, stdout);
    rc = EXIT_OK;
    goto out_plan;
  }
  /* An output that cannot be written is found before anything is
   * measured, not after. */
  for (i = 0; i < cli.opts.n_outputs; i++)
    if (report_check_path(cli.opts.outputs[i].path) < 0) {
      rc = EXIT_SETUP;
      goto out_plan;
    }
  if (probe_global_init() < 0) {
    msg_error("cannot initialise libcurl or c-ares");
    rc = EXIT_SETUP;
    goto out_plan;
  }
  if (cli.opts.insecure)
    msg_warn("TLS verification is off (-k): results say so");
  runner_signals();
  results_init(&results);
  run_rc = runner_run(&plan, &results, NULL, NULL);
  analysis_build(&analysis, &plan, &results);
  buf_init(&libs, 0);
  probe_versions(&libs);
  memset(&ctx, 0, sizeof(ctx));
  ctx.plan = &plan;
  ctx.results = &results;
  ctx.analysis = &analysis;
  ctx.libraries = libs.s;
  ctx.color = want_color(&cli.opts);
  buf_init(&out, 0);
  report_render(&ctx, cli.opts.format, &out);
  fwrite(out.s, 1, out.len, stdout);
  if (fflush(stdout) != 0) {
    msg_error("cannot write the report to stdout");
    rc = EXIT_SETUP;
  }
  else if (write_outputs(&ctx, &cli.opts) < 0)
    rc = EXIT_SETUP;
  else if (run_rc == 1)
    rc = EXIT_INTERRUPTED;
  else if (analysis.n_failed)
    rc = EXIT_SAMPLES;
  else
    rc = EXIT_OK;
  if (run_rc == 1 && rc == EXIT_SETUP)
    rc = EXIT_INTERRUPTED;
  buf_release(&out);
  buf_release(&libs);
  analysis_release(&analysis);
  results_release(&results);
  probe_global_cleanup();
out_plan:
  plan_release(&plan);
out_cli:
  cli_release(&cli);
  return rc;
}
