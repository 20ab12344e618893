/*
 * check_eval.c: the checks of a profile decided from the analysis alone
 * (see check.h): pass or fail for each, with what was measured in words.
 * Pure: no I/O; the analysis is read, never recomputed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "buf.h"
#include "check.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

static int64_t stat_value(const struct stats *s, enum check_stat st)
{
  switch (st) {
  case CHECK_STAT_P50:
    return s->p50;
  case CHECK_STAT_P95:
    return s->p95;
  case CHECK_STAT_MIN:
    return s->min;
  case CHECK_STAT_MAX:
    return s->max;
  case CHECK_STAT_MEAN:
    return s->mean;
  case CHECK_STAT_COUNT:
    break;
  }
  BUG("check statistic %d", (int)st);
}

static void eval_metric(struct check *c, const struct analysis *a)
{
  const struct mode_summary *m = &a->targets[c->target].modes[c->mode];
  const struct stats *s = &m->phases[c->phase];
  char t[UNITS_FMT_SIZE];

  if (!m->present || s->n == 0) {
    c->pass = 0;
    c->measured = xstrdup("no successful sample");
    return;
  }
  c->value_us = stat_value(s, c->stat);
  c->has_value = 1;
  c->pass = (!c->has_max || c->value_us <= c->max_us) &&
            (!c->has_min || c->value_us >= c->min_us);
  units_format_us(c->value_us, t, sizeof(t));
  c->measured = xasprintf("%s (n=%zu)", t, s->n);
}

/* Verdict counts of one hop, "BYPASS x10, HIT x2", into b. */
static void put_counts(struct buf *b, const struct cache_counts *k)
{
  size_t v;
  int first = 1;

  for (v = 0; v < CACHE_VERDICT_COUNT; v++)
    if (k->n[v] > 0) {
      buf_printf(b, "%s%s x%d", first ? "" : ", ", cache_verdict_names[v],
                 k->n[v]);
      first = 0;
    }
}

static void eval_cache(struct check *c, const struct analysis *a)
{
  const struct target_analysis *ta = &a->targets[c->target];
  struct buf b;
  size_t i, last = 0, seen = 0;
  int bad = 0;

  for (i = 0; i < ta->n_cache; i++)
    if (ta->cache[i].hop > last)
      last = ta->cache[i].hop;
  buf_init(&b, 0);
  for (i = 0; i < ta->n_cache; i++) {
    const struct cache_hop *h = &ta->cache[i];
    size_t v;

    if (c->hop == CHECK_HOP_LAST && h->hop != last)
      continue;
    if (c->hop > 0 && h->hop != (size_t)c->hop)
      continue;
    if (cache_counts_total(&h->counts) <= 0)
      continue;
    for (v = 0; v < CACHE_VERDICT_COUNT; v++) {
      int listed = (c->verdicts >> v) & 1u;

      if (h->counts.n[v] > 0 && listed != c->cache_is)
        bad = 1;
    }
    buf_printf(&b, "%shop %zu (", seen ? ", " : "", h->hop);
    put_counts(&b, &h->counts);
    buf_putc(&b, ')');
    seen++;
  }
  if (!seen) {
    buf_release(&b);
    c->pass = 0;
    if (c->hop > 0 && last)
      c->measured = xasprintf("no hop %ld in any successful sample", c->hop);
    else
      c->measured = xstrdup("no successful sample");
    return;
  }
  c->pass = !bad;
  c->measured = buf_detach(&b);
}

static void eval_compare(struct check *c, const struct analysis *a)
{
  const struct compare_result *r = NULL;
  struct compare_result flip;
  char d[UNITS_FMT_SIZE], lo[UNITS_FMT_SIZE], hi[UNITS_FMT_SIZE];
  const struct comparison *k;
  int flipped = 0;

  k = analysis_find_comparison(a, c->target, c->baseline, c->mode, &flipped);
  if (k && flipped) {
    compare_result_flip(&k->phases[SUM_TOTAL], &flip);
    r = &flip;
  }
  else if (k)
    r = &k->phases[SUM_TOTAL];
  if (!r || r->n_pairs == 0) {
    c->pass = 0;
    c->measured = xstrdup("no pair of successful samples");
    return;
  }
  c->value_us = r->median_diff_us;
  c->has_value = 1;
  c->pass = (c->verdicts >> r->verdict) & 1u;
  units_format_us(r->median_diff_us, d, sizeof(d));
  units_format_us(r->ci_low_us, lo, sizeof(lo));
  units_format_us(r->ci_high_us, hi, sizeof(hi));
  c->measured = xasprintf(
      "%s, %s%s [%s, %s], %zu pairs", compare_verdict_name(r->verdict),
      r->median_diff_us > 0 ? "+" : "", d, lo, hi, r->n_pairs);
}

static int status_allowed(const struct check *c, long status)
{
  size_t i;

  for (i = 0; i < c->n_status; i++)
    if (status >= c->status_lo[i] && status <= c->status_hi[i])
      return 1;
  return 0;
}

/* Every sample's final status (the counts of the mode summaries) is one
 * the check allows; measured lists them all. */
static void eval_status(struct check *c, const struct analysis *a)
{
  const struct target_analysis *ta = &a->targets[c->target];
  struct buf b;
  size_t n = 0, k;
  int m, bad = 0;

  buf_init(&b, 0);
  for (m = 0; m < MODE_COUNT; m++) {
    const struct mode_summary *ms = &ta->modes[m];

    if (!ms->present || (c->mode != MODE_COUNT && (int)c->mode != m))
      continue;
    for (k = 0; k < ms->n_statuses; k++) {
      const struct status_count *sc = &ms->statuses[k];

      if (sc->status)
        buf_printf(&b, "%s%ld x%zu", b.len ? ", " : "", sc->status, sc->n);
      else
        buf_printf(&b, "%sno response x%zu", b.len ? ", " : "", sc->n);
      if (c->mode == MODE_COUNT)
        buf_printf(&b, " (%s)", sample_mode_names[m]);
      if (!status_allowed(c, sc->status))
        bad = 1;
      n += sc->n;
    }
  }
  if (!n) {
    buf_release(&b);
    c->pass = 0;
    c->measured = xstrdup("no sample");
    return;
  }
  c->pass = !bad;
  c->measured = buf_detach(&b);
}

size_t check_evaluate(struct check_set *cs, const struct plan *p,
                      const struct analysis *a)
{
  size_t i;

  cs->n_failed = 0;
  for (i = 0; i < cs->n; i++) {
    struct check *c = &cs->v[i];

    FREE_AND_NULL(c->measured);
    c->has_value = 0;
    c->value_us = 0;
    if (c->target >= p->n_targets || c->target >= a->n_targets)
      BUG("check target %zu of %zu", c->target, a->n_targets);
    switch (c->kind) {
    case CHECK_METRIC:
      eval_metric(c, a);
      break;
    case CHECK_CACHE:
      eval_cache(c, a);
      break;
    case CHECK_COMPARE:
      eval_compare(c, a);
      break;
    case CHECK_STATUS:
      eval_status(c, a);
      break;
    case CHECK_KIND_COUNT:
      BUG("check kind %d", (int)c->kind);
    }
    if (!c->pass)
      cs->n_failed++;
  }
  cs->evaluated = 1;
  return cs->n_failed;
}
