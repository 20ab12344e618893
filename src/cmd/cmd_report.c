/*
 * cmd_report.c: "hopsplit report": read a saved hopsplit/1 document into
 * libhopsplit's results (hs_results_open: plan and samples rebuilt, the
 * analysis made again) and write them as a run would have
 * (hs_results_write), so every format comes out as the run would have
 * written it.  No network, no libraries set up.
 */
#include <stdio.h>

#include <hopsplit/hopsplit.h>

#include "cmd_cli.h"
#include "cmd_measure.h"
#include "cmd_msg.h"
#include "cmd_report.h"
#include "cmd_signals.h"
#include "banned.h"

static void usage(FILE *f)
{
  fputs("usage: hopsplit report [--format F] [-o FILE]... RESULTS.json\n"
        "re-render results saved with -o FILE.json, without the network\n"
        "\noptions:\n",
        f);
  cmd_cli_usage_options(f, HS_COMMAND_REPORT);
}

int cmd_report(int argc, char **argv)
{
  struct cmd_cli cli;
  struct hs_results *res = NULL;
  const char *file = NULL;
  enum hs_code c;
  int rc = EXIT_STATUS_USAGE;

  if (cmd_cli_parse(&cli, HS_COMMAND_REPORT, argc, argv) < 0)
    goto out;
  if (cli.n_args > 1) {
    cmd_error("%s: one RESULTS.json at a time ('%s' and '%s')", argv[0],
              cli.args[0], cli.args[1]);
    goto out;
  }
  file = cli.n_args ? cli.args[0] : NULL;
  cmd_verbosity((int)hs_options_query(cli.opts, HS_QUERY_VERBOSITY));
  if (hs_options_query(cli.opts, HS_QUERY_HELP)) {
    usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  if (!file) {
    cmd_error("report: no RESULTS.json given");
    usage(stderr);
    goto out;
  }
  rc = EXIT_STATUS_SETUP;
  cmd_signals_catch();
  if (hs_options_outputs(cli.opts, HS_OUTPUTS_WRITABLE) != HS_OK)
    goto out;
  /* The saved results with --project and --payload-size of this command
   * line, analysed again. */
  c = hs_results_open(file, cli.opts, &res);
  if (c != HS_OK) {
    rc = c == HS_E_IO ? EXIT_STATUS_SETUP : EXIT_STATUS_USAGE;
    goto out;
  }
  rc = hs_results_write(res, cli.opts) == HS_OK ? EXIT_STATUS_OK
                                                : EXIT_STATUS_SETUP;
out:
  hs_results_free(res);
  cmd_cli_release(&cli);
  return rc;
}
