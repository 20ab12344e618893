/*
 * cmd_run.c: "hopsplit run".  Input: the command line (options and
 * profile files).  Every profile is loaded and planned before anything
 * is measured, so a problem in any of them exits 2 with nothing
 * measured; then each runs in turn through libhopsplit, its checks are
 * evaluated, its report printed and its outputs written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hopsplit/hopsplit.h>

#include "cmd_cli.h"
#include "cmd_measure.h"
#include "cmd_msg.h"
#include "cmd_run.h"
#include "version.h"
#include "xalloc.h"
#include "banned.h"

static void run_usage(FILE *f)
{
  fputs("usage: hopsplit run [OPTIONS] PROFILE.yaml ...\n"
        "\n"
        "Run YAML profiles one after another: their targets, rounds, "
        "checks and\noutputs (see hopsplit-profile(5)).  OPTIONS are "
        "those of hopsplit --help;\ngiven here, they override the "
        "profiles.  --dry-run prints each plan.\n"
        "\n"
        "Exit status: 0 ok, 1 a check failed, 2 usage or profile error, "
        "3 a sample\nfailed, 4 setup error, 130 interrupted.\n",
        f);
}

/* Severity of an exit status, to combine those of several profiles. */
static int severity(int rc)
{
  switch (rc) {
  case EXIT_STATUS_INTERRUPTED:
    return 5;
  case EXIT_STATUS_SETUP:
    return 4;
  case EXIT_STATUS_USAGE:
    return 3;
  case EXIT_STATUS_CHECK:
    return 2;
  case EXIT_STATUS_SAMPLES:
    return 1;
  default:
    return 0;
  }
}

/* hs_write_fn to a FILE. */
static int put(const char *data, size_t len, void *ud)
{
  return fwrite(data, 1, len, ud) == len ? 0 : -1;
}

/* Measure one planned profile; returns its exit status. */
static int run_one(struct hs_options *pr, struct hs_run *run, int several)
{
  const char *file, *name = hs_options_profile(pr, &file);
  char *heading;
  int rc;

  cmd_verbosity((int)hs_options_query(pr, HS_QUERY_VERBOSITY));
  if (several)
    cmd_info("running profile '%s' (%s)", name, file);
  heading = xasprintf("%sprofile: %s (%s)\n", several ? "\n" : "", name, file);
  rc = cmd_measure(run, pr, heading);
  free(heading);
  return rc;
}

int cmd_run(int argc, char **argv)
{
  struct cmd_cli cli;
  struct hs_options **profs = NULL;
  struct hs_run **runs = NULL;
  size_t n = 0, i;
  int rc = EXIT_STATUS_USAGE, bad = 0;

  if (cmd_cli_parse(&cli, HS_COMMAND_MEASURE, argc, argv) < 0)
    goto out;
  cmd_verbosity((int)hs_options_query(cli.opts, HS_QUERY_VERBOSITY));
  if (hs_options_query(cli.opts, HS_QUERY_HELP)) {
    run_usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  if (hs_options_query(cli.opts, HS_QUERY_VERSION)) {
    rc = EXIT_STATUS_SETUP;
    if (hs_global_init() == HS_OK) {
      version_print(stdout);
      hs_global_cleanup();
      rc = EXIT_STATUS_OK;
    }
    goto out;
  }
  if (!cli.n_args) {
    cmd_error("no profile given (usage: hopsplit run [OPTIONS] "
              "PROFILE.yaml ...)");
    goto out;
  }
  n = cli.n_args;
  profs = xcalloc(n, sizeof(*profs));
  runs = xcalloc(n, sizeof(*runs));
  for (i = 0; i < n; i++) {
    profs[i] = hs_options_new();
    if (hs_options_load_profile(profs[i], cli.args[i], cli.opts) != HS_OK)
      bad = 1;
    else if (hs_run_new(profs[i], NULL, &runs[i]) != HS_OK)
      bad = 1;
  }
  if (bad)
    goto out;
  for (i = 0; i < n; i++)
    if (hs_run_preflight(runs[i]) != HS_OK)
      bad = 1;
  if (bad)
    goto out;
  if (hs_options_query(cli.opts, HS_QUERY_DRY_RUN)) {
    /* The outputs as the run would check them, creating nothing. */
    rc = EXIT_STATUS_SETUP;
    for (i = 0; i < n; i++)
      if (hs_options_outputs(profs[i], HS_OUTPUTS_CREATABLE) != HS_OK)
        goto out;
    for (i = 0; i < n; i++) {
      if (i)
        putchar('\n');
      hs_run_describe(runs[i], put, stdout);
    }
    rc = fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_SETUP;
    goto out;
  }
  /* Every output of every profile can be written, before anything is
   * measured. */
  rc = EXIT_STATUS_SETUP;
  for (i = 0; i < n; i++)
    hs_options_outputs(profs[i], HS_OUTPUTS_MAKE_DIRS);
  for (i = 0; i < n; i++)
    if (hs_options_outputs(profs[i], HS_OUTPUTS_WRITABLE) != HS_OK)
      goto out;
  rc = EXIT_STATUS_OK;
  for (i = 0; i < n; i++) {
    int one = run_one(profs[i], runs[i], n > 1);

    if (severity(one) > severity(rc))
      rc = one;
    if (one == EXIT_STATUS_INTERRUPTED)
      break;
  }
out:
  for (i = 0; i < n; i++) {
    hs_run_free(runs[i]);
    hs_options_free(profs[i]);
  }
  free(runs);
  free(profs);
  cmd_cli_release(&cli);
  return rc;
}
