/*
 * verdict.c: names of the cache and comparison verdicts, and cache verdict
 * counts (see verdict.h).
 */
#include <string.h>
#include <strings.h>

#include "verdict.h"
#include "banned.h"

const char *const cache_verdict_names[CACHE_VERDICT_COUNT] = {
    "HIT",    "MISS",    "EXPIRED",     "STALE",  "REVALIDATED",
    "BYPASS", "DYNAMIC", "UNCACHEABLE", "UNKNOWN"};

enum cache_verdict cache_verdict_from_name(const char *name)
{
  int i;

  if (!name)
    return CACHE_VERDICT_COUNT;
  for (i = 0; i < CACHE_VERDICT_COUNT; i++)
    if (!strcasecmp(name, cache_verdict_names[i]))
      return (enum cache_verdict)i;
  return CACHE_VERDICT_COUNT;
}

int cache_verdict_served_from_cache(enum cache_verdict v)
{
  return v == CACHE_HIT || v == CACHE_STALE || v == CACHE_REVALIDATED;
}

int cache_verdict_not_cacheable(enum cache_verdict v)
{
  return v == CACHE_BYPASS || v == CACHE_DYNAMIC || v == CACHE_UNCACHEABLE;
}

/* ---- counts across samples ---- */

void cache_counts_init(struct cache_counts *c)
{
  memset(c, 0, sizeof(*c));
}

void cache_counts_add(struct cache_counts *c, enum cache_verdict v)
{
  if ((int)v < 0 || v >= CACHE_VERDICT_COUNT)
    v = CACHE_UNKNOWN;
  c->n[v]++;
}

int cache_counts_total(const struct cache_counts *c)
{
  int i, t = 0;

  for (i = 0; i < CACHE_VERDICT_COUNT; i++)
    t += c->n[i];
  return t;
}

enum cache_verdict cache_counts_mode(const struct cache_counts *c)
{
  int i, best = -1;

  /* Strictly greater: the earliest verdict wins a tie. */
  for (i = 0; i < CACHE_VERDICT_COUNT; i++)
    if (c->n[i] > (best < 0 ? 0 : c->n[best]))
      best = i;
  return best < 0 ? CACHE_UNKNOWN : (enum cache_verdict)best;
}

/* ---- comparison verdicts ---- */

const char *const compare_verdict_names[COMPARE_VERDICT_COUNT] = {
    [COMPARE_FASTER] = "faster",
    [COMPARE_SLOWER] = "slower",
    [COMPARE_NO_CLEAR_DIFFERENCE] = "no clear difference",
};

const char *compare_verdict_name(enum compare_verdict v)
{
  if ((unsigned)v >= COMPARE_VERDICT_COUNT)
    return "unknown";
  return compare_verdict_names[v];
}

enum compare_verdict compare_verdict_from_name(const char *name)
{
  unsigned i;

  if (!name)
    return COMPARE_VERDICT_COUNT;
  for (i = 0; i < COMPARE_VERDICT_COUNT; i++) {
    if (!strcmp(name, compare_verdict_names[i]))
      return (enum compare_verdict)i;
  }
  return COMPARE_VERDICT_COUNT;
}
