/*
 * check.c: the checks of a profile.  Input: check definitions (parsed by
 * profile.c with the helpers here) and, after measuring, the analysis.
 * Output: pass or fail for each check, with what was measured in words.
 * Pure: no I/O; the analysis is read, never recomputed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "buf.h"
#include "check.h"
#include "options.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

const char *const check_kind_names[CHECK_KIND_COUNT] = {"metric", "cache",
                                                        "compare"};
const char *const check_stat_names[CHECK_STAT_COUNT] = {"p50", "p95", "min",
                                                        "max", "mean"};

void check_set_init(struct check_set *cs)
{
  memset(cs, 0, sizeof(*cs));
}

void check_set_release(struct check_set *cs)
{
  size_t i;

  for (i = 0; i < cs->n; i++) {
    free(cs->v[i].where);
    free(cs->v[i].measured);
  }
  free(cs->v);
  free(cs->profile);
  free(cs->file);
  check_set_init(cs);
}

struct check *check_set_add(struct check_set *cs)
{
  struct check *c;

  cs->v = xrealloc(cs->v, (cs->n + 1) * sizeof(*cs->v));
  c = &cs->v[cs->n++];
  memset(c, 0, sizeof(*c));
  c->mode = MODE_COLD;
  return c;
}

/* "a, b or c" for an error message. */
static void list_names(char *out, size_t len, const char *const *names,
                       size_t n)
{
  size_t i, l;

  out[0] = '\0';
  for (i = 0; i < n; i++) {
    l = strlen(out);
    snprintf(out + l, len - l, "%s%s",
             i == 0       ? ""
             : i == n - 1 ? " or "
                          : ", ",
             names[i]);
  }
}

/* "unknown WHAT 'x' (did you mean 'y'?)" or "(expected a, b or c)". */
static int unknown(const char *what, const char *val, const char *in,
                   const char *const *names, size_t n, char *err,
                   size_t errlen)
{
  const char *hint = options_closest(val, names, n);
  char where[160] = "";

  if (in)
    snprintf(where, sizeof(where), " in '%.100s'", in);
  if (hint) {
    snprintf(err, errlen, "unknown %s '%s'%s (did you mean '%s'?)", what, val,
             where, hint);
  }
  else {
    char list[256];

    list_names(list, sizeof(list), names, n);
    snprintf(err, errlen, "unknown %s '%s'%s (expected %s)", what, val, where,
             list);
  }
  return -1;
}

int check_parse_metric(const char *s, unsigned *phase, enum check_stat *stat,
                       char *err, size_t errlen)
{
  const char *dot = strchr(s, '.');
  char name[32];
  size_t len, i;

  if (!dot || dot == s || !dot[1] || strchr(dot + 1, '.')) {
    snprintf(err, errlen,
             "bad metric '%s' (expected PHASE.STAT, e.g. "
             "total.p95)",
             s);
    return -1;
  }
  len = (size_t)(dot - s);
  if (len >= sizeof(name))
    len = sizeof(name) - 1;
  memcpy(name, s, len);
  name[len] = '\0';
  for (i = 0; i < SUM_COUNT; i++)
    if (!strcmp(name, sum_phase_names[i]))
      break;
  if (i == SUM_COUNT)
    return unknown("phase", name, s, sum_phase_names, SUM_COUNT, err, errlen);
  *phase = (unsigned)i;
  for (i = 0; i < CHECK_STAT_COUNT; i++)
    if (!strcmp(dot + 1, check_stat_names[i]))
      break;
  if (i == CHECK_STAT_COUNT)
    return unknown("statistic", dot + 1, s, check_stat_names, CHECK_STAT_COUNT,
                   err, errlen);
  *stat = (enum check_stat)i;
  return 0;
}

int check_parse_cache_verdict(const char *name, unsigned *bits, char *err,
                              size_t errlen)
{
  enum cache_verdict v = cache_verdict_from_name(name);

  if (v == CACHE_VERDICT_COUNT)
    return unknown("cache verdict", name, NULL, cache_verdict_names,
                   CACHE_VERDICT_COUNT, err, errlen);
  *bits |= 1u << v;
  return 0;
}

int check_parse_compare_verdict(const char *name, unsigned *bits, char *err,
                                size_t errlen)
{
  enum compare_verdict v = compare_verdict_from_name(name);

  if (v == COMPARE_VERDICT_COUNT)
    return unknown("verdict", name, NULL, compare_verdict_names,
                   COMPARE_VERDICT_COUNT, err, errlen);
  *bits |= 1u << v;
  return 0;
}

/* Names of the bits set in bits, joined by sep. */
static void put_bits(struct buf *b, unsigned bits, const char *const *names,
                     size_t n, const char *sep)
{
  size_t i;
  int first = 1;

  for (i = 0; i < n; i++)
    if (bits & (1u << i)) {
      buf_printf(b, "%s%s", first ? "" : sep, names[i]);
      first = 0;
    }
}

/* A threshold: microseconds below 1 ms, else as everywhere. */
static void threshold(int64_t us, char *out, size_t len)
{
  if (us < 1000)
    snprintf(out, len, "%lld us", (long long)us);
  else
    units_format_us(us, out, len);
}

char *check_describe(const struct check *c)
{
  struct buf b;
  char t1[UNITS_FMT_SIZE], t2[UNITS_FMT_SIZE];

  buf_init(&b, 0);
  switch (c->kind) {
  case CHECK_METRIC:
    threshold(c->min_us, t1, sizeof(t1));
    threshold(c->max_us, t2, sizeof(t2));
    if (c->has_min && c->has_max)
      buf_printf(&b, "%s <= %s.%s <= %s", t1, sum_phase_names[c->phase],
                 check_stat_names[c->stat], t2);
    else
      buf_printf(&b, "%s.%s %s %s", sum_phase_names[c->phase],
                 check_stat_names[c->stat],
                 c->has_max ? "<=" : ">=", c->has_max ? t2 : t1);
    break;
  case CHECK_CACHE:
    buf_puts(&b, c->cache_is ? "cache is " : "cache not ");
    put_bits(&b, c->verdicts, cache_verdict_names, CACHE_VERDICT_COUNT,
             c->cache_is ? " or " : ", ");
    if (c->hop == CHECK_HOP_EVERY)
      buf_puts(&b, " on every hop");
    else if (c->hop == CHECK_HOP_LAST)
      buf_puts(&b, " on the last hop");
    else
      buf_printf(&b, " on hop %ld", c->hop);
    break;
  case CHECK_COMPARE:
    buf_puts(&b, "verdict ");
    put_bits(&b, c->verdicts, compare_verdict_names, COMPARE_VERDICT_COUNT,
             " or ");
    buf_puts(&b, " against the baseline");
    break;
  case CHECK_KIND_COUNT:
    BUG("check kind %d", (int)c->kind);
  }
  return buf_detach(&b);
}

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
  char d[UNITS_FMT_SIZE], lo[UNITS_FMT_SIZE], hi[UNITS_FMT_SIZE];
  size_t i;

  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *k = &a->comparisons[i];

    if (k->target == c->target && k->baseline == c->baseline &&
        k->mode == c->mode)
      r = &k->phases[SUM_TOTAL];
  }
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
    case CHECK_KIND_COUNT:
      BUG("check kind %d", (int)c->kind);
    }
    if (!c->pass)
      cs->n_failed++;
  }
  cs->evaluated = 1;
  return cs->n_failed;
}
