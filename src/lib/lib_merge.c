/*
 * lib_merge.c: hs_results_merge, "hopsplit merge A.json B.json ...": runs
 * saved in several places (each with its --vantage) become one document
 * whose comparison runs across the vantage points.  Input: the hopsplit/1
 * documents.  Output: results that render as any other (hs_results_write,
 * hs_results_render).  No network.
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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "analysis.h"
#include "buf.h"
#include "lib_int.h"
#include "msg.h"
#include "report_read.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/* The whole file at path, malloc'd (caller frees), its size in *len;
 * NULL after a message when it cannot be read, or when it is larger than
 * REPORT_MAX_SIZE (then *too_large is set). */
static char *slurp(const char *path, size_t *len, int *too_large)
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

/* The files read and checked into m (n of them); HS_OK, or the code of
 * the first that cannot be taken (logged). */
static enum hs_code read_all(struct lib_merge *m, const char *const *files)
{
  size_t f;

  for (f = 0; f < m->n; f++) {
    size_t len = 0;
    int too_large = 0;
    char *text = slurp(files[f], &len, &too_large);

    if (!text)
      return too_large ? HS_E_READ : HS_E_IO;
    if (report_read(&m->sv[f], text, len, files[f]) < 0) {
      free(text);
      return HS_E_READ;
    }
    free(text);
    if (m->sv[f].unpaired) {
      msg_error("'%s' is a merged document already: merge the runs it "
                "came from",
                files[f]);
      return HS_E_READ;
    }
  }
  return HS_OK;
}

enum hs_code hs_results_merge(const char *const *files, size_t n,
                              const struct hs_options *o,
                              struct hs_results **out)
{
  struct hs_results *r;
  struct lib_merge *m;
  struct report_saved *sv;
  struct arena *was;
  enum hs_code c;
  size_t f, off;

  *out = NULL;
  if (n < 2)
    return HS_E_RANGE;
  r = xcalloc(1, sizeof(*r));
  m = r->merge = xcalloc(1, sizeof(*m));
  m->n = n;
  results_init(&m->mr);
  sv = m->sv = xcalloc(n, sizeof(*sv));
  was = strpool_use(lib_arena(r));
  c = read_all(m, files);
  if (c != HS_OK) {
    strpool_use(was);
    lib_results_release(r);
    free(r);
    return c;
  }
  /* Each file on its own first: its edges and findings, with its client. */
  m->af = xcalloc(n, sizeof(*m->af));
  for (f = 0; f < n; f++)
    analysis_build(&m->af[f], &sv[f].plan, &sv[f].results);
  /* --project on merge: the merged samples onto these networks (the
   * merged plan takes the first file's settings). */
  lib_reanalyse_options(&sv[0].opts, o ? lib_opts(o) : NULL, 0);
  merge_plan(&m->mp, sv, n);
  m->have_plan = 1;
  results_release(&m->mr);
  merge_results(&m->mr, sv, n);
  r->libraries = sv[0].libraries ? xstrdup(sv[0].libraries) : NULL;
  analysis_build(&r->analysis, &m->mp, &m->mr);
  for (f = 0, off = 0; f < n; f++) {
    take_edges(&r->analysis, &m->af[f], off);
    off += sv[f].plan.n_targets;
  }
  analysis_compare_unpaired(&m->mp, &m->mr, &r->analysis);
  r->analysed = 1;
  strpool_use(was);
  *out = r;
  return HS_OK;
}
