/*
 * cmd_run.c: "hopsplit run".  Input: the command line (options and
 * profile files).  Every profile is loaded and planned before anything
 * is measured, so a problem in any of them exits 2 with nothing
 * measured; then each runs in turn through the pipeline, its checks are
 * evaluated, its report printed and its outputs written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "cli.h"
#include "cmd_run.h"
#include "msg.h"
#include "pipeline.h"
#include "plan.h"
#include "probe.h"
#include "profile.h"
#include "units.h"
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

/* Create the missing directories above path (as mkdir -p); a failure is
 * left for report_check_path to report. */
static void make_parents(const char *path)
{
  char *d = xstrdup(path);
  char *p;

  for (p = strchr(d + 1, '/'); p; p = strchr(p + 1, '/')) {
    *p = '\0';
    if (mkdir(d, 0777) < 0 && errno != EEXIST) {
      *p = '/';
      break;
    }
    *p = '/';
  }
  free(d);
}

static int build_plan(struct plan *plan, struct profile *pr)
{
  struct plan_target_spec *specs;
  size_t i;
  int rc;

  specs = xcalloc(pr->n_targets, sizeof(*specs));
  for (i = 0; i < pr->n_targets; i++) {
    specs[i].name = pr->targets[i].name;
    specs[i].url = pr->targets[i].url;
    specs[i].opts = &pr->targets[i].opts;
  }
  rc = plan_build_targets(plan, &pr->opts, specs, pr->n_targets);
  free(specs);
  if (rc < 0)
    return msg_error("profile '%s' cannot be planned", pr->file);
  for (i = 0; i < pr->checks.n && pr->opts.parallel > 1; i++)
    if (pr->checks.v[i].kind == CHECK_COMPARE)
      return msg_error("profile '%s': a compare check needs paired rounds, "
                       "measured strictly one sample at a time: it cannot "
                       "run with --parallel (parallel: %ld)",
                       pr->file, pr->opts.parallel);
  plan->checks = &pr->checks;
  return 0;
}

static void print_dry_run(const struct profile *pr, const struct plan *plan)
{
  size_t i;

  printf("profile: %s (%s)\n", pr->name, pr->file);
  plan_print(plan, stdout);
  if (!pr->checks.n)
    return;
  printf("checks:\n");
  for (i = 0; i < pr->checks.n; i++) {
    const struct check *k = &pr->checks.v[i];
    char *what = check_describe_as(
        k, k->kind == CHECK_COMPARE ? plan->targets[k->baseline].name : NULL,
        units_format_setting);

    printf("  %-12s %-5s %s  (%s)\n", plan->targets[k->target].name,
           k->kind == CHECK_CACHE || k->mode == MODE_COUNT
               ? "all"
               : sample_mode_names[k->mode],
           what, k->where);
    free(what);
  }
}

/* Measure one planned profile; returns its exit status. */
static int run_one(struct profile *pr, struct plan *plan, int several)
{
  struct pipeline pl;
  size_t failed;
  int rc = EXIT_STATUS_SETUP, report_rc;

  msg_verbosity = options_verbosity(&pr->opts);
  if (several)
    msg_info("running profile '%s' (%s)", pr->name, pr->file);
  if (pipeline_measure(&pl, plan, NULL, NULL) == 0) {
    failed = check_evaluate(&pr->checks, plan, &pl.analysis);
    if (pr->opts.format == FORMAT_TEXT &&
        (!pr->opts.write_out || pipeline_format_given(&pr->opts))) {
      printf("%sprofile: %s (%s)\n", several ? "\n" : "", pr->name, pr->file);
    }
    report_rc = pipeline_report(&pl, &pr->opts);
    pipeline_say_failures(&pl);
    rc = pipeline_exit_status(&pl, report_rc, failed > 0);
  }
  pipeline_release(&pl);
  return rc;
}

int cmd_run(int argc, char **argv)
{
  struct cli cli;
  struct profile *profs = NULL;
  struct plan *plans = NULL;
  size_t n = 0, i, j;
  int rc = EXIT_STATUS_USAGE, bad = 0;

  if (cli_parse(&cli, OPT_CMD_MEASURE, argc, argv) < 0)
    goto out;
  msg_verbosity = options_verbosity(&cli.opts);
  if (cli.opts.help) {
    run_usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  if (cli.opts.version) {
    rc = EXIT_STATUS_SETUP;
    if (probe_global_init() == 0) {
      version_print(stdout);
      probe_global_cleanup();
      rc = EXIT_STATUS_OK;
    }
    goto out;
  }
  if (!cli.n_args) {
    msg_error("no profile given (usage: hopsplit run [OPTIONS] "
              "PROFILE.yaml ...)");
    goto out;
  }
  n = cli.n_args;
  profs = xcalloc(n, sizeof(*profs));
  plans = xcalloc(n, sizeof(*plans));
  for (i = 0; i < n; i++) {
    profile_init(&profs[i]);
    if (profile_load(&profs[i], cli.args[i], &cli.opts) < 0)
      bad = 1;
    else if (build_plan(&plans[i], &profs[i]) < 0)
      bad = 1;
  }
  if (bad)
    goto out;
  for (i = 0; i < n; i++)
    if (pipeline_preflight(&plans[i]) != EXIT_STATUS_OK)
      bad = 1;
  if (bad)
    goto out;
  if (cli.opts.dry_run) {
    /* The outputs as the run would check them, creating nothing. */
    rc = EXIT_STATUS_SETUP;
    for (i = 0; i < n; i++)
      if (pipeline_check_outputs_dry(&profs[i].opts) < 0)
        goto out;
    for (i = 0; i < n; i++) {
      if (i)
        putchar('\n');
      print_dry_run(&profs[i], &plans[i]);
    }
    rc = fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_SETUP;
    goto out;
  }
  /* Every output of every profile can be written, before anything is
   * measured. */
  rc = EXIT_STATUS_SETUP;
  for (i = 0; i < n; i++)
    for (j = 0; j < profs[i].opts.n_outputs; j++)
      make_parents(profs[i].opts.outputs[j].path);
  for (i = 0; i < n; i++)
    if (pipeline_check_outputs(&profs[i].opts) < 0)
      goto out;
  rc = EXIT_STATUS_OK;
  for (i = 0; i < n; i++) {
    int one = run_one(&profs[i], &plans[i], n > 1);

    if (severity(one) > severity(rc))
      rc = one;
    if (one == EXIT_STATUS_INTERRUPTED)
      break;
  }
out:
  for (i = 0; i < n; i++) {
    plan_release(&plans[i]);
    profile_release(&profs[i]);
  }
  free(plans);
  free(profs);
  cli_release(&cli);
  return rc;
}
