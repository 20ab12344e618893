/*
 * cmd_merge.c: "hopsplit merge A.json B.json ...": runs saved in several
 * places (each with its --vantage) become one document whose comparison
 * runs across the vantage points.  Input: the hopsplit/1 documents.
 * Output: one report in any format, through the same pipeline_report as a
 * run.  No network.
 *
 * Each target of each file becomes a target of the merged plan, named as
 * the vantage point when every file has one target, else TARGET@VANTAGE;
 * its samples keep their own settings, rounds and times.  The analysis is
 * built over the merged samples (summaries, p50 and p95 per phase, cache
 * verdicts), then each target takes its edges and findings from the
 * analysis of its own file, where the client's location is that vantage
 * point's.  The comparison is like with like and unpaired
 * (analysis_compare_unpaired): each target against the same target from
 * the first place that measured it, since samples from different places
 * and times share no rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli.h"
#include "cmd_int.h"
#include "cmd_merge.h"
#include "msg.h"
#include "pipeline.h"
#include "report_read.h"
#include "xalloc.h"
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
  cli_usage_options(f, OPT_CMD_MERGE, 0);
}

/* Where file f was measured: its vantage, else "fileN" (a document
 * written before --vantage, by its place in the list). */
static const char *place(const struct report_saved *sv, size_t f, char *buf,
                         size_t len)
{
  if (sv[f].plan.vantage)
    return sv[f].plan.vantage;
  snprintf(buf, len, "file%zu", f + 1);
  return buf;
}

/* The merged name of target t of file f; unique among the first k. */
static char *target_name(const struct report_saved *sv, size_t f, size_t t,
                         int single, const struct plan *mp, size_t k)
{
  char fallback[32];
  const char *v = place(sv, f, fallback, sizeof(fallback));
  char *base, *name;
  size_t i, n = 1;
  int taken;

  base =
      single ? xstrdup(v) : xasprintf("%s@%s", sv[f].plan.targets[t].name, v);
  name = xstrdup(base);
  do {
    taken = 0;
    for (i = 0; i < k; i++)
      if (!strcmp(mp->targets[i].name, name))
        taken = 1;
    if (taken) {
      free(name);
      name = xasprintf("%s-%zu", base, ++n);
    }
  } while (taken);
  free(base);
  return name;
}

/* The merged plan: every file's targets, borrowing each file's options. */
static void merge_plan(struct plan *mp, const struct report_saved *sv,
                       size_t n)
{
  size_t f, t, k = 0, total = 0, m, cap = 0;
  unsigned modes = 0;
  int single = 1, i;
  struct buf v;

  memset(mp, 0, sizeof(*mp));
  for (f = 0; f < n; f++) {
    total += sv[f].plan.n_targets;
    if (sv[f].plan.n_targets != 1)
      single = 0;
    for (m = 0; m < sv[f].plan.n_modes; m++)
      modes |= 1u << sv[f].plan.modes[m];
    if (sv[f].plan.rounds > mp->rounds)
      mp->rounds = sv[f].plan.rounds;
  }
  mp->opts = &sv[0].opts;
  mp->seed = sv[0].plan.seed;
  mp->targets = xcalloc(total, sizeof(*mp->targets));
  for (i = 0; i < MODE_COUNT; i++)
    if (modes & (1u << i))
      mp->modes[mp->n_modes++] = (enum sample_mode)i;
  buf_init(&v, 0);
  for (f = 0; f < n; f++) {
    char fallback[32];
    const char *where = place(sv, f, fallback, sizeof(fallback));

    if (f)
      buf_puts(&v, ", ");
    buf_puts(&v, where);
    for (t = 0; t < sv[f].plan.n_targets; t++, k++) {
      struct target *mt = &mp->targets[k];

      mt->name = target_name(sv, f, t, single, mp, k);
      mt->url = xstrdup(sv[f].plan.targets[t].url);
      mt->vantage = xstrdup(where);
      mt->opts = sv[f].plan.targets[t].opts;
      mp->n_targets = k + 1;
      /* The modes this file measured, for this target. */
      for (m = 0; m < sv[f].plan.n_modes; m++) {
        mp->items =
            xgrow(mp->items, &cap, mp->n_items + 1, sizeof(*mp->items));
        mp->items[mp->n_items].target = k;
        mp->items[mp->n_items].mode = sv[f].plan.modes[m];
        mp->n_items++;
      }
    }
  }
  mp->vantage = buf_detach(&v);
}

/* Move every file's samples and traces into mr, target indices shifted. */
static void merge_results(struct results *mr, struct report_saved *sv,
                          size_t n)
{
  size_t f, i, off = 0;

  results_init(mr);
  for (f = 0; f < n; f++) {
    struct results *r = &sv[f].results;

    if (!f || r->started_at_ms < mr->started_at_ms)
      mr->started_at_ms = r->started_at_ms;
    if (r->finished_at_ms > mr->finished_at_ms)
      mr->finished_at_ms = r->finished_at_ms;
    mr->partial |= r->partial;
    for (i = 0; i < r->n; i++) {
      struct sample s = r->samples[i];

      s.target = (uint32_t)(s.target + off);
      results_add(mr, &s);
    }
    /* The samples moved: only the array is left to free. */
    r->n = 0;
    if (r->n_traces) {
      mr->traces = xrealloc(mr->traces, (mr->n_traces + r->n_traces) *
                                            sizeof(*mr->traces));
      memcpy(mr->traces + mr->n_traces, r->traces,
             r->n_traces * sizeof(*r->traces));
      mr->n_traces += r->n_traces;
      free(r->traces);
      r->traces = NULL;
      r->n_traces = 0;
    }
    off += sv[f].plan.n_targets;
  }
}

/* Swap the edges and findings of the merged targets of file f with those
 * of the file's own analysis af (whose client is that vantage point's);
 * analysis_release of af then frees the merged ones. */
static void take_edges(struct analysis *ma, struct analysis *af, size_t off)
{
  size_t t;

  for (t = 0; t < af->n_targets; t++) {
    struct target_analysis *a = &ma->targets[off + t], *b = &af->targets[t];
    struct edge_result *e = a->edge;
    struct finding *fi = a->findings;
    size_t ne = a->n_edge, nf = a->n_findings;

    a->edge = b->edge;
    a->n_edge = b->n_edge;
    a->findings = b->findings;
    a->n_findings = b->n_findings;
    b->edge = e;
    b->n_edge = ne;
    b->findings = fi;
    b->n_findings = nf;
  }
}

int cmd_merge(int argc, char **argv)
{
  struct cli cli;
  struct report_saved *sv = NULL;
  struct analysis *af = NULL;
  struct plan mp;
  struct pipeline pl;
  char **files;
  size_t n = 0, f, off;
  int rc = EXIT_STATUS_USAGE, have_plan = 0;

  memset(&pl, 0, sizeof(pl));
  if (cli_parse(&cli, OPT_CMD_MERGE, argc, argv) < 0)
    goto out;
  files = cli.args;
  n = cli.n_args;
  msg_verbosity = cli.opts.verbosity;
  if (cli.opts.help) {
    usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  if (n < 2) {
    msg_error("merge: give two or more RESULTS.json (%zu given)", n);
    usage(stderr);
    goto out;
  }
  rc = EXIT_STATUS_SETUP;
  if (pipeline_check_outputs(&cli.opts) < 0)
    goto out;
  sv = xcalloc(n, sizeof(*sv));
  for (f = 0; f < n; f++) {
    size_t len = 0;
    int too_large = 0;
    char *text = cmd_report_slurp(files[f], &len, &too_large);

    if (!text) {
      if (too_large)
        rc = EXIT_STATUS_USAGE;
      goto out;
    }
    if (report_read(&sv[f], text, len, files[f]) < 0) {
      free(text);
      rc = EXIT_STATUS_USAGE;
      goto out;
    }
    free(text);
    if (sv[f].unpaired) {
      msg_error("'%s' is a merged document already: merge the runs it "
                "came from",
                files[f]);
      rc = EXIT_STATUS_USAGE;
      goto out;
    }
  }
  /* Each file on its own first: its edges and findings, with its client. */
  af = xcalloc(n, sizeof(*af));
  for (f = 0; f < n; f++)
    analysis_build(&af[f], &sv[f].plan, &sv[f].results);
  /* --project on merge: the merged samples onto these networks (the
   * merged plan takes the first file's settings). */
  if (cli.opts.n_project) {
    memcpy(sv[0].opts.project, cli.opts.project, sizeof(sv[0].opts.project));
    sv[0].opts.n_project = cli.opts.n_project;
  }
  merge_plan(&mp, sv, n);
  have_plan = 1;
  merge_results(&pl.results, sv, n);
  pl.plan = &mp;
  pl.libraries = sv[0].libraries;
  analysis_build(&pl.analysis, &mp, &pl.results);
  for (f = 0, off = 0; f < n; f++) {
    take_edges(&pl.analysis, &af[f], off);
    off += sv[f].plan.n_targets;
  }
  analysis_compare_unpaired(&mp, &pl.results, &pl.analysis);
  rc =
      pipeline_report(&pl, &cli.opts) < 0 ? EXIT_STATUS_SETUP : EXIT_STATUS_OK;
  analysis_release(&pl.analysis);
  results_release(&pl.results);
out:
  for (f = 0; af && f < n; f++)
    analysis_release(&af[f]);
  free(af);
  if (have_plan)
    plan_release(&mp);
  for (f = 0; sv && f < n; f++)
    report_saved_release(&sv[f]);
  free(sv);
  cli_release(&cli);
  return rc;
}
