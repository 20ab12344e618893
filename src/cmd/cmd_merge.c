/*
 * cmd_merge.c: "hopsplit merge A.json B.json ...": runs saved in several
 * places (each with its --vantage) become one document whose comparison
 * runs across the vantage points (hs_results_merge), written as a run's
 * (hs_results_write).  No network.
 */
#include <stdio.h>

#include <hopsplit/hopsplit.h>

#include "cmd_cli.h"
#include "cmd_measure.h"
#include "cmd_merge.h"
#include "cmd_msg.h"
#include "banned.h"

static void usage(FILE *f)
{
  fputs("usage: hopsplit merge [--format F] [-o FILE]... A.json B.json ...\n"
        "one document from runs saved in several places (-o FILE.json, "
        "each with\nits --vantage): every target of every file, named "
        "VANTAGE (or TARGET@VANTAGE),\neach compared unpaired with the same "
        "target from the first place; no network\n"
        "\noptions:\n",
        f);
  cmd_cli_usage_options(f, HS_COMMAND_MERGE);
}

int cmd_merge(int argc, char **argv)
{
  struct cmd_cli cli;
  struct hs_results *res = NULL;
  enum hs_code c;
  size_t n;
  int rc = EXIT_STATUS_USAGE;

  if (cmd_cli_parse(&cli, HS_COMMAND_MERGE, argc, argv) < 0)
    goto out;
  n = cli.n_args;
  cmd_verbosity((int)hs_options_query(cli.opts, HS_QUERY_VERBOSITY));
  if (hs_options_query(cli.opts, HS_QUERY_HELP)) {
    usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  if (n < 2) {
    cmd_error("merge: give two or more RESULTS.json (%zu given)", n);
    usage(stderr);
    goto out;
  }
  rc = EXIT_STATUS_SETUP;
  if (hs_options_outputs(cli.opts, HS_OUTPUTS_WRITABLE) != HS_OK)
    goto out;
  c = hs_results_merge((const char *const *)cli.args, n, cli.opts, &res);
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
