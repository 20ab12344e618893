/*
 * analysis_unpaired.c: comparison[] of a merged document (hopsplit merge):
 * like with like: each target measured from another place against the
 * same target from the first place that measured it (TARGET@VANTAGE
 * against TARGET@FIRST; files of one target each: every place against the
 * first), unpaired (compare_unpaired), since samples taken in different
 * places at different times share no rounds.  Input: plan, results, the
 * analysis.  Output: a->comparisons replaced.  Pure.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "compare.h"
#include "xalloc.h"
#include "banned.h"

/* The value of phase ph of every successful sample of target t in mode m
 * into v (room for r->n); their number. */
static size_t values(const struct results *r, size_t t, enum sample_mode m,
                     enum sum_phase ph, int64_t *v)
{
  size_t i, n = 0;

  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target == t && s->mode == m && s->ok)
      v[n++] = sample_phase_sum(s, ph);
  }
  return n;
}

/* Which target of its place t is: its merged name less "@VANTAGE" (and
 * merge's "-N" of a repeated name); "" when the name is the place's own
 * (every file had one target).  Length into *len, from the name. */
static const char *identity(const struct target *t, size_t *len)
{
  const char *n = t->name ? t->name : "", *v = t->vantage;
  size_t vl = v ? strlen(v) : 0;
  const char *at;

  *len = 0;
  if (!v) {
    *len = strlen(n);
    return n;
  }
  if (!strncmp(n, v, vl) &&
      (!n[vl] || (n[vl] == '-' &&
                  strspn(n + vl + 1, "0123456789") == strlen(n + vl + 1))))
    return n;
  for (at = strrchr(n, '@'); at; at = NULL)
    if (!strncmp(at + 1, v, vl) && (!at[1 + vl] || at[1 + vl] == '-')) {
      *len = (size_t)(at - n);
      return n;
    }
  *len = strlen(n);
  return n;
}

/* The baseline of target t: the first target before it that is the same
 * target measured elsewhere, or t itself when none is. */
static size_t like_baseline(const struct plan *p, size_t t)
{
  size_t b, lt, lb;
  const char *it = identity(&p->targets[t], &lt);

  for (b = 0; b < t; b++) {
    const char *ib = identity(&p->targets[b], &lb);

    if (lb == lt && !strncmp(ib, it, lt))
      return b;
  }
  return t;
}

void analysis_compare_unpaired(const struct plan *p, const struct results *r,
                               struct analysis *a)
{
  int64_t *vb = xmalloc((r->n ? r->n : 1) * sizeof(*vb));
  int64_t *vt = xmalloc((r->n ? r->n : 1) * sizeof(*vt));
  size_t t, m, cap = 0;

  free(a->comparisons);
  a->comparisons = NULL;
  a->n_comparisons = 0;
  for (t = 1; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      enum sample_mode mode = p->modes[m];
      size_t base = like_baseline(p, t);
      struct comparison *c;
      int ph;

      if (base == t || !values(r, base, mode, SUM_TOTAL, vb) ||
          !values(r, t, mode, SUM_TOTAL, vt))
        continue;
      a->comparisons = xgrow(a->comparisons, &cap, a->n_comparisons + 1,
                             sizeof(*a->comparisons));
      c = &a->comparisons[a->n_comparisons++];
      /* No parts and nothing "explained by" without pairs. */
      memset(c, 0, sizeof(*c));
      c->target = t;
      c->baseline = base;
      c->mode = mode;
      for (ph = 0; ph < SUM_COUNT; ph++) {
        size_t nb = values(r, base, mode, (enum sum_phase)ph, vb);
        size_t nt = values(r, t, mode, (enum sum_phase)ph, vt);

        compare_unpaired(vb, nb, vt, nt, &c->phases[ph]);
      }
    }
  free(vb);
  free(vt);
  analysis_bodies(r, a);
  /* The projected verdicts rest on the comparisons: again, on these. */
  projections_release(&a->proj);
  projections_build(p, r, a);
}
