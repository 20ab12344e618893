/*
 * analysis_compare.c: every non-baseline target against the baseline,
 * per mode, paired by round (hopsplit(1) COMPARISON), every other pair with
 * --compare all or when a profile check names it, the parts of the difference
 * that explain it, and drift of each target's totals over the rounds, with its
 * size.  Input: plan and results.  Output: the comparison[] and drift[]
 * parts of struct analysis.  Pure; the statistics are compare.c's.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xalloc.h"
#include "banned.h"

const char *const sample_part_names[PART_COUNT] = {
    "redirect",  "other",      "final.dns",  "final.connect",
    "final.tls", "final.send", "final.wait", "final.transfer"};

int64_t sample_part_value(const struct sample *s, enum sample_part part)
{
  const struct hop *last;
  static const enum phase ph[PART_COUNT] = {
      PHASE_COUNT, PHASE_COUNT, PHASE_DNS,  PHASE_CONNECT,
      PHASE_TLS,   PHASE_SEND,  PHASE_WAIT, PHASE_TRANSFER};

  if (part == PART_REDIRECT)
    return s->redirect_us;
  if (part == PART_OTHER)
    return s->other_us;
  if (!s->n_hops || (unsigned)part >= PART_COUNT)
    return 0;
  last = &s->hops[s->n_hops - 1];
  return last->phases[ph[part]];
}

static int64_t mag(int64_t v)
{
  return v < 0 ? -v : v;
}

/* The parts whose interval excludes 0, largest median move first. */
static void explain(struct comparison *c)
{
  int used[PART_COUNT] = {0};

  c->n_explained = 0;
  while (c->n_explained < COMPARISON_EXPLAINED_MAX) {
    int best = -1, k;

    for (k = 0; k < PART_COUNT; k++) {
      const struct compare_result *pr = &c->parts[k];

      if (used[k] || !pr->n_pairs || !pr->ci_available ||
          pr->verdict == COMPARE_NO_CLEAR_DIFFERENCE ||
          mag(pr->median_diff_us) < 100)
        continue;
      if (best < 0 ||
          mag(pr->median_diff_us) > mag(c->parts[best].median_diff_us))
        best = k;
    }
    if (best < 0)
      break;
    used[best] = 1;
    c->explained[c->n_explained++] = (unsigned char)best;
  }
}

/* The sample of (target, mode) in each round, or NULL: by[round - 1]. */
static void by_round(const struct results *r, size_t t, enum sample_mode m,
                     long rounds, const struct sample **by)
{
  size_t i;

  memset(by, 0, (size_t)rounds * sizeof(*by));
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target == t && s->mode == m && s->round >= 1 && s->round <= rounds)
      by[s->round - 1] = s;
  }
}

static void compare_one(const struct plan *p, const struct results *r,
                        size_t t, size_t b, enum sample_mode m,
                        struct comparison *c)
{
  long n = p->rounds;
  const struct sample **base = xcalloc((size_t)n, sizeof(*base));
  const struct sample **tgt = xcalloc((size_t)n, sizeof(*tgt));
  int64_t *bv = xcalloc((size_t)n, sizeof(*bv));
  int64_t *tv = xcalloc((size_t)n, sizeof(*tv));
  bool *valid = xcalloc((size_t)n, sizeof(*valid));
  long i;
  int ph;

  c->target = t;
  c->baseline = b;
  c->mode = m;
  by_round(r, b, m, n, base);
  by_round(r, t, m, n, tgt);
  for (i = 0; i < n; i++) {
    valid[i] = base[i] && tgt[i] &&
               sample_counted(base[i], p->opts->keep_interfered) &&
               sample_counted(tgt[i], p->opts->keep_interfered);
    if (valid[i] || (!base[i] && !tgt[i]))
      continue;
    /* Left out: a failure is said as one; a side that only interfered
     * is said as that, with how late its stamps may be. */
    if ((base[i] && !base[i]->ok) || (tgt[i] && !tgt[i]->ok) || !base[i] ||
        !tgt[i]) {
      c->n_left_failed++;
      continue;
    }
    c->n_left_interfered++;
    if (base[i]->interfered &&
        base[i]->interference_us > c->left_interfered_max_us)
      c->left_interfered_max_us = base[i]->interference_us;
    if (tgt[i]->interfered &&
        tgt[i]->interference_us > c->left_interfered_max_us)
      c->left_interfered_max_us = tgt[i]->interference_us;
  }
  for (ph = 0; ph < SUM_COUNT; ph++) {
    for (i = 0; i < n; i++) {
      bv[i] = valid[i] ? sample_phase_sum(base[i], (enum sum_phase)ph) : 0;
      tv[i] = valid[i] ? sample_phase_sum(tgt[i], (enum sum_phase)ph) : 0;
    }
    compare_paired(bv, tv, valid, (size_t)n, &c->phases[ph]);
  }
  for (ph = 0; ph < PART_COUNT; ph++) {
    for (i = 0; i < n; i++) {
      bv[i] = valid[i] ? sample_part_value(base[i], (enum sample_part)ph) : 0;
      tv[i] = valid[i] ? sample_part_value(tgt[i], (enum sample_part)ph) : 0;
    }
    compare_paired(bv, tv, valid, (size_t)n, &c->parts[ph]);
  }
  explain(c);
  /* Rounds that never ran (an interrupted run) are not "dropped". */
  for (ph = 0; ph < SUM_COUNT; ph++) {
    size_t missing = 0;

    for (i = 0; i < n; i++)
      if (!base[i] && !tgt[i])
        missing++;
    c->phases[ph].n_dropped -=
        missing < c->phases[ph].n_dropped ? missing : c->phases[ph].n_dropped;
  }
  free(base);
  free(tgt);
  free(bv);
  free(tv);
  free(valid);
}

static void drift_one(const struct plan *p, const struct results *r, size_t t,
                      enum sample_mode m, struct drift *d)
{
  long n = p->rounds, i;
  const struct sample **by = xcalloc((size_t)n, sizeof(*by));
  int64_t *v = xcalloc((size_t)n, sizeof(*v));
  bool *valid = xcalloc((size_t)n, sizeof(*valid));

  by_round(r, t, m, n, by);
  for (i = 0; i < n; i++) {
    valid[i] = by[i] && sample_counted(by[i], p->opts->keep_interfered);
    v[i] = valid[i] ? by[i]->total_us : 0;
  }
  d->target = t;
  d->mode = m;
  d->rho = compare_drift_rho(v, valid, (size_t)n, &d->n);
  d->significant = compare_drift_warning(d->rho, d->n);
  d->change_us = compare_drift_change(v, valid, (size_t)n, NULL);
  {
    int64_t *ok = xmalloc((size_t)n * sizeof(*ok));
    size_t k = 0;

    for (i = 0; i < n; i++)
      if (valid[i])
        ok[k++] = v[i];
    d->median_us = compare_median(ok, k);
    free(ok);
  }
  d->change_pct = d->median_us > 0
                      ? (double)d->change_us * 100.0 / (double)d->median_us
                      : (double)NAN;
  d->warning =
      d->significant && compare_drift_matters(d->change_us, d->median_us);
  free(by);
  free(v);
  free(valid);
}

static int has_pair(const struct analysis *a, size_t t, size_t b,
                    enum sample_mode m)
{
  size_t i;

  for (i = 0; i < a->n_comparisons; i++)
    if (a->comparisons[i].mode == m &&
        ((a->comparisons[i].target == t && a->comparisons[i].baseline == b) ||
         (a->comparisons[i].target == b && a->comparisons[i].baseline == t)))
      return 1;
  return 0;
}

static void add_pair(const struct plan *p, const struct results *r,
                     struct analysis *a, size_t t, size_t b,
                     enum sample_mode m)
{
  if (t == b || t >= p->n_targets || b >= p->n_targets || has_pair(a, t, b, m))
    return;
  a->comparisons = xrealloc(a->comparisons,
                            (a->n_comparisons + 1) * sizeof(*a->comparisons));
  memset(&a->comparisons[a->n_comparisons], 0, sizeof(*a->comparisons));
  compare_one(p, r, t, b, m, &a->comparisons[a->n_comparisons++]);
}

void analysis_compare_build(const struct plan *p, const struct results *r,
                            struct analysis *a)
{
  size_t t, u, i, k = 0;

  if (p->rounds < 1)
    return;
  /* First every target against the baseline, in target order; then,
   * with --compare all, every other pair (the later target against the
   * earlier one); then what a profile check asks for. */
  for (t = 0; t < p->n_targets; t++)
    for (i = 0; i < p->n_modes && t != p->baseline; i++)
      add_pair(p, r, a, t, p->baseline, p->modes[i]);
  if (p->compare_all)
    for (u = 0; u < p->n_targets; u++)
      for (t = u + 1; t < p->n_targets; t++)
        for (i = 0; i < p->n_modes; i++)
          add_pair(p, r, a, t, u, p->modes[i]);
  if (p->checks)
    for (k = 0; k < p->checks->n; k++) {
      const struct check *c = &p->checks->v[k];

      if (c->kind == CHECK_COMPARE && c->mode < MODE_COUNT)
        for (i = 0; i < p->n_modes; i++)
          if (p->modes[i] == c->mode)
            add_pair(p, r, a, c->target, c->baseline, c->mode);
    }
  a->n_drifts = p->n_targets * p->n_modes;
  a->drifts = xcalloc(a->n_drifts, sizeof(*a->drifts));
  k = 0;
  for (t = 0; t < p->n_targets; t++)
    for (i = 0; i < p->n_modes; i++)
      drift_one(p, r, t, p->modes[i], &a->drifts[k++]);
}

enum sum_phase analysis_largest_phase(const struct mode_summary *m,
                                      int *share_pct)
{
  int ph, best = -1;

  *share_pct = -1;
  for (ph = 0; ph < SUM_TOTAL; ph++)
    if (m->phases[ph].n &&
        (best < 0 || m->phases[ph].p50 > m->phases[best].p50))
      best = ph;
  if (best < 0 || !m->phases[best].p50)
    return SUM_COUNT;
  if (m->phases[SUM_TOTAL].p50 > 0)
    *share_pct = (int)(m->phases[best].p50 * 100 / m->phases[SUM_TOTAL].p50);
  return (enum sum_phase)best;
}

long analysis_baseline(const struct analysis *a, const struct plan *p)
{
  size_t i;

  if (!a->n_comparisons)
    return -1;
  for (i = 0; i < a->n_comparisons; i++)
    if (a->comparisons[i].baseline == p->baseline)
      return (long)p->baseline;
  return (long)a->comparisons[0].baseline;
}

const struct comparison *analysis_find_comparison(const struct analysis *a,
                                                  size_t t, size_t b,
                                                  enum sample_mode m,
                                                  int *flipped)
{
  size_t i;

  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *c = &a->comparisons[i];

    if (c->mode != m)
      continue;
    if (c->target == t && c->baseline == b) {
      if (flipped)
        *flipped = 0;
      return c;
    }
    if (c->target == b && c->baseline == t) {
      if (flipped)
        *flipped = 1;
      return c;
    }
  }
  return NULL;
}
