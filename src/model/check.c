/*
 * check.c: the checks of a profile as data: the set, the parsers of their
 * parts (profile.c and report_read.c call them) and their description in
 * words.  Deciding them is the analysis' (src/analysis/check_eval.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "verdict.h"
#include "units.h"
#include "strutil.h"
#include "xalloc.h"
#include "banned.h"

const char *const check_kind_names[CHECK_KIND_COUNT] = {"metric", "cache",
                                                        "compare", "status"};
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

  cs->v = xgrow(cs->v, &cs->cap, cs->n + 1, sizeof(*cs->v));
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
  const char *hint = str_closest(val, names, n);
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

void check_format_us(int64_t us, char *out, size_t len)
{
  if (us < 1000)
    snprintf(out, len, "%lld us", (long long)us);
  else
    units_format_us(us, out, len);
}

int check_parse_status(const char *s, struct check *c, char *err,
                       size_t errlen)
{
  long lo, hi;

  if (strlen(s) == 3 && s[0] >= '1' && s[0] <= '5' &&
      (s[1] == 'x' || s[1] == 'X') && (s[2] == 'x' || s[2] == 'X')) {
    lo = (s[0] - '0') * 100;
    hi = lo + 99;
  }
  else if (strlen(s) == 3 && s[0] >= '1' && s[0] <= '5' && s[1] >= '0' &&
           s[1] <= '9' && s[2] >= '0' && s[2] <= '9') {
    lo = hi = (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
  }
  else {
    snprintf(err, errlen,
             "bad status '%s' (expected a code such as 200 or a class such "
             "as 2xx)",
             s);
    return -1;
  }
  if (c->n_status == CHECK_STATUS_MAX) {
    snprintf(err, errlen, "more than %d statuses", CHECK_STATUS_MAX);
    return -1;
  }
  c->status_lo[c->n_status] = lo;
  c->status_hi[c->n_status] = hi;
  c->n_status++;
  return 0;
}

/* The statuses of a status check as given: "200", "2xx". */
static void put_statuses(struct buf *b, const struct check *c)
{
  size_t i;

  for (i = 0; i < c->n_status; i++) {
    if (i)
      buf_puts(b, i + 1 == c->n_status ? " or " : ", ");
    if (c->status_lo[i] == c->status_hi[i])
      buf_printf(b, "%ld", c->status_lo[i]);
    else
      buf_printf(b, "%ldxx", c->status_lo[i] / 100);
  }
}

char *check_describe_as(const struct check *c, const char *against,
                        void (*fmt)(int64_t, char *, size_t))
{
  struct buf b;
  char t1[UNITS_FMT_SIZE], t2[UNITS_FMT_SIZE];

  buf_init(&b, 0);
  switch (c->kind) {
  case CHECK_METRIC:
    fmt(c->min_us, t1, sizeof(t1));
    fmt(c->max_us, t2, sizeof(t2));
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
    if (against)
      buf_printf(&b, " against %s", against);
    else
      buf_puts(&b, " against the baseline");
    break;
  case CHECK_STATUS:
    buf_puts(&b, "final status ");
    put_statuses(&b, c);
    break;
  case CHECK_KIND_COUNT:
    BUG("check kind %d", (int)c->kind);
  }
  return buf_detach(&b);
}

char *check_describe_against(const struct check *c, const char *against)
{
  return check_describe_as(c, against, check_format_us);
}

const char *check_mode_word(const struct check *c)
{
  if (c->kind == CHECK_CACHE || c->mode >= MODE_COUNT)
    return "all";
  return sample_mode_names[c->mode];
}

char *check_describe(const struct check *c)
{
  return check_describe_against(c, NULL);
}
