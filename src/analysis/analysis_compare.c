/*
 * analysis_compare.c: every non-baseline target against the baseline,
 * per mode, paired by round (SPEC 3.5), and drift of each target's totals
 * over the rounds.  Input: plan and results.  Output: the comparison[] and
 * drift[] parts of struct analysis.  Pure; the statistics are compare.c's.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "xalloc.h"
#include "banned.h"

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
                        size_t t, enum sample_mode m, struct comparison *c)
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
  c->baseline = 0;
  c->mode = m;
  by_round(r, 0, m, n, base);
  by_round(r, t, m, n, tgt);
  for (i = 0; i < n; i++)
    valid[i] = base[i] && tgt[i] && base[i]->ok && tgt[i]->ok;
  for (ph = 0; ph < SUM_COUNT; ph++) {
    for (i = 0; i < n; i++) {
      bv[i] = valid[i] ? sample_phase_sum(base[i], (enum sum_phase)ph) : 0;
      tv[i] = valid[i] ? sample_phase_sum(tgt[i], (enum sum_phase)ph) : 0;
    }
    compare_paired(bv, tv, valid, (size_t)n, &c->phases[ph]);
  }
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
    valid[i] = by[i] && by[i]->ok;
    v[i] = valid[i] ? by[i]->total_us : 0;
  }
  d->target = t;
  d->mode = m;
  d->rho = compare_drift_rho(v, valid, (size_t)n, &d->n);
  d->warning = compare_drift_warning(d->rho, d->n);
  free(by);
  free(v);
  free(valid);
}

void analysis_compare_build(const struct plan *p, const struct results *r,
                            struct analysis *a)
{
  size_t t, i, k = 0;

  if (p->rounds < 1)
    return;
  if (p->n_targets > 1) {
    a->n_comparisons = (p->n_targets - 1) * p->n_modes;
    a->comparisons = xcalloc(a->n_comparisons, sizeof(*a->comparisons));
    for (t = 1; t < p->n_targets; t++)
      for (i = 0; i < p->n_modes; i++)
        compare_one(p, r, t, p->modes[i], &a->comparisons[k++]);
  }
  a->n_drifts = p->n_targets * p->n_modes;
  a->drifts = xcalloc(a->n_drifts, sizeof(*a->drifts));
  k = 0;
  for (t = 0; t < p->n_targets; t++)
    for (i = 0; i < p->n_modes; i++)
      drift_one(p, r, t, p->modes[i], &a->drifts[k++]);
}

static int64_t magnitude(int64_t v)
{
  return v < 0 ? -v : v;
}

size_t analysis_explaining_phases(const struct comparison *cmp,
                                  enum sum_phase *out, size_t max)
{
  int used[SUM_COUNT] = {0};
  size_t shown = 0;
  int ph;

  while (shown < max) {
    int best = -1;

    for (ph = 0; ph < SUM_COUNT; ph++) {
      const struct compare_result *pr = &cmp->phases[ph];

      if (ph == SUM_TOTAL || used[ph] || !pr->n_pairs || !pr->ci_available ||
          pr->verdict == COMPARE_NO_CLEAR_DIFFERENCE ||
          magnitude(pr->median_diff_us) < 100)
        continue;
      if (best < 0 || magnitude(pr->median_diff_us) >
                          magnitude(cmp->phases[best].median_diff_us))
        best = ph;
    }
    if (best < 0)
      break;
    used[best] = 1;
    out[shown++] = (enum sum_phase)best;
  }
  return shown;
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
