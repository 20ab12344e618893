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

#include "cmd_int.h"
#include "cmd_report.h"
#include "msg.h"
#include "check.h"
#include "option_table.h"
#include "pipeline.h"
#include "report_read.h"
#include "xalloc.h"
#include "banned.h"

/* Options "report" takes: the rest belong to measuring. */
static const char *const report_opts[] = {"brief",  "color", "format", "help",
                                          "output", "quiet", "verbose"};

static void usage(FILE *f)
{
  fputs("usage: hopsplit report [--format F] [-o FILE]... RESULTS.json\n"
        "re-render results saved with -o FILE.json, without the network\n"
        "  --format text|json|ndjson|csv|har|html|prom   stdout (text)\n"
        "  -o, --output FILE   also write FILE, format from its extension\n"
        "                      (.summary.csv: the summary CSV)\n"
        "  --brief             text: one line per target and mode\n"
        "  --color auto|always|never\n"
        "  -q, --quiet / -v, --verbose\n",
        f);
}

static int allowed(const struct opt_def *d)
{
  size_t i;

  for (i = 0; i < sizeof(report_opts) / sizeof(report_opts[0]); i++)
    if (!strcmp(d->name, report_opts[i]))
      return 1;
  return 0;
}

int cmd_report_parse(struct options *o, int argc, char **argv,
                     const char **files, size_t max, size_t *n_files)
{
  int i;
  char err[512];

  *n_files = 0;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *val = NULL, *eq;
    const struct opt_def *d = NULL;
    char name[64];

    if (a[0] != '-' || !a[1]) {
      if (*n_files == max)
        return msg_error("%s: one RESULTS.json at a time ('%s' and "
                         "'%s')",
                         argv[0], files[0], a);
      files[(*n_files)++] = a;
      continue;
    }
    if (a[1] == '-') {
      eq = strchr(a + 2, '=');
      snprintf(name, sizeof(name), "%.*s",
               (int)(eq ? (size_t)(eq - a - 2) : strlen(a + 2)), a + 2);
      d = options_find(name);
      if (eq)
        val = eq + 1;
    }
    else if (!a[2]) {
      d = options_find_short(a[1]);
    }
    if (!d || !allowed(d))
      return msg_error("%s: unknown option '%s' (see hopsplit %s --help)",
                       argv[0], a, argv[0]);
    if (d->arg == OPT_ARG_REQUIRED && !val) {
      if (i + 1 >= argc)
        return msg_error("option --%s: needs a value", d->name);
      val = argv[++i];
    }
    else if (d->arg == OPT_ARG_NONE && val) {
      return msg_error("option --%s: takes no value", d->name);
    }
    if (options_set(o, d, val, err, sizeof(err)) < 0)
      return msg_error("option --%s: %s", d->name, err);
  }
  if (options_finish(o, NULL, err, sizeof(err)) < 0)
    return msg_error("option -o: %s", err);
  return 0;
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
   * reading, a pipe when it grows past it (issue 16). */
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
  struct options o;
  struct report_saved saved;
  struct pipeline pl;
  const char *file = NULL;
  FILE *f = NULL;
  size_t n_files = 0;
  int rc = EXIT_STATUS_USAGE;

  options_init(&o);
  memset(&saved, 0, sizeof(saved));
  if (cmd_report_parse(&o, argc, argv, &file, 1, &n_files) < 0)
    goto out;
  msg_verbosity = o.verbosity;
  if (o.help) {
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
  if (pipeline_check_outputs(&o) < 0)
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
  analysis_build(&pl.analysis, &saved.plan, &pl.results);
  if (saved.unpaired)
    analysis_compare_unpaired(&saved.plan, &pl.results, &pl.analysis);
  if (saved.has_checks)
    check_evaluate(&saved.checks, &saved.plan, &pl.analysis);
  rc = pipeline_report(&pl, &o) < 0 ? EXIT_STATUS_SETUP : EXIT_STATUS_OK;
  analysis_release(&pl.analysis);
out:
  if (f)
    fclose(f);
  report_saved_release(&saved);
  options_release(&o);
  return rc;
}
