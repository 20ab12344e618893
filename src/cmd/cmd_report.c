/*
 * cmd_report.c: "hopsplit report": read a saved hopsplit/1 document,
 * rebuild plan and results (report_read.c), run the analysis again and
 * render through the same pipeline_report as a run, so every format comes
 * out as the run would have written it.  No network, no libraries set up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli.h"
#include "cmd_int.h"
#include "cmd_report.h"
#include "msg.h"
#include "check.h"
#include "pipeline.h"
#include "report_read.h"
#include "xalloc.h"
#include "banned.h"

static void usage(FILE *f)
{
  fputs("usage: hopsplit report [--format F] [-o FILE]... RESULTS.json\n"
        "re-render results saved with -o FILE.json, without the network\n"
        "\noptions:\n",
        f);
  cli_usage_options(f, OPT_CMD_REPORT, 0);
}

char *cmd_report_slurp(const char *path, size_t *len, int *too_large)
{
  FILE *f = fopen(path, "rb");
  struct buf b;
  char chunk[65536];
  struct stat st;
  size_t n;

  if (!f) {
    msg_error("cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  /* At most REPORT_MAX_SIZE bytes: a regular file larger is refused before
   * reading, a pipe when it grows past it. */
  buf_init(&b, (size_t)REPORT_MAX_SIZE);
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size > (off_t)REPORT_MAX_SIZE)
    b.truncated = 1;
  while (!b.truncated && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    if (buf_add(&b, chunk, n) < 0)
      break;
  if (b.truncated) {
    msg_error("'%s' is larger than %d MiB", path, REPORT_MAX_SIZE >> 20);
    fclose(f);
    buf_release(&b);
    if (too_large)
      *too_large = 1;
    return NULL;
  }
  if (ferror(f)) {
    msg_error("cannot read '%s': %s", path, strerror(errno));
    fclose(f);
    buf_release(&b);
    return NULL;
  }
  fclose(f);
  *len = b.len;
  return buf_detach(&b);
}

int cmd_report(int argc, char **argv)
{
  struct cli cli;
  struct report_saved saved;
  struct pipeline pl;
  const char *file = NULL;
  FILE *f = NULL;
  int rc = EXIT_STATUS_USAGE;

  memset(&saved, 0, sizeof(saved));
  if (cli_parse(&cli, OPT_CMD_REPORT, argc, argv) < 0)
    goto out;
  if (cli.n_args > 1) {
    msg_error("%s: one RESULTS.json at a time ('%s' and '%s')", argv[0],
              cli.args[0], cli.args[1]);
    goto out;
  }
  file = cli.n_args ? cli.args[0] : NULL;
  msg_verbosity = cli.opts.verbosity;
  if (cli.opts.help) {
    usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  if (!file) {
    msg_error("report: no RESULTS.json given");
    usage(stderr);
    goto out;
  }
  rc = EXIT_STATUS_SETUP;
  report_out_catch_signals();
  if (pipeline_check_outputs(&cli.opts) < 0)
    goto out;
  /* Read one sample at a time: a large file is never held whole. */
  f = fopen(file, "rb");
  if (!f) {
    msg_error("cannot read '%s': %s", file, strerror(errno));
    goto out;
  }
  {
    struct stat st;

    /* The same limit as merge's: a regular file larger is refused before
     * it is read (it is read one sample at a time, never whole). */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size > (off_t)REPORT_MAX_SIZE) {
      msg_error("'%s' is larger than %d MiB", file, REPORT_MAX_SIZE >> 20);
      rc = EXIT_STATUS_USAGE;
      goto out;
    }
  }
  if (report_read_file(&saved, f, file) < 0) {
    rc = ferror(f) ? EXIT_STATUS_SETUP : EXIT_STATUS_USAGE;
    goto out;
  }
  /* The pipeline as the run had it, the saved results in place of
   * measured ones; the analysis is built again from them. */
  memset(&pl, 0, sizeof(pl));
  pl.plan = &saved.plan;
  pl.results = saved.results;
  pl.libraries = saved.libraries;
  /* --project on report: the saved samples onto these networks. */
  if (cli.opts.n_project) {
    memcpy(saved.opts.project, cli.opts.project, sizeof(saved.opts.project));
    saved.opts.n_project = cli.opts.n_project;
  }
  /* --payload-size on report: the body size the payload finding prices. */
  if (cli.opts.payload_size > 0)
    saved.opts.payload_size = cli.opts.payload_size;
  analysis_build(&pl.analysis, &saved.plan, &pl.results);
  if (saved.unpaired)
    analysis_compare_unpaired(&saved.plan, &pl.results, &pl.analysis);
  if (saved.has_checks)
    check_evaluate(&saved.checks, &saved.plan, &pl.analysis);
  rc =
      pipeline_report(&pl, &cli.opts) < 0 ? EXIT_STATUS_SETUP : EXIT_STATUS_OK;
  analysis_release(&pl.analysis);
out:
  if (f)
    fclose(f);
  report_saved_release(&saved);
  cli_release(&cli);
  return rc;
}
