/*
 * verdict.h: the vocabulary of verdicts every stage speaks: a cache's
 * verdict on a hop (hopsplit(1) CACHE AND EDGE) with counts across samples,
 * and a comparison's verdict (hopsplit(1) COMPARISON).  Names are the ones
 * hopsplit(1) OUTPUT prints. Model stage: plain enums and name tables
 * (src/model/verdict.c).
 */
#ifndef HOPSPLIT_VERDICT_H
#define HOPSPLIT_VERDICT_H

enum cache_verdict {
  CACHE_HIT,         /* served from a cache */
  CACHE_MISS,        /* not in cache, fetched from the origin */
  CACHE_EXPIRED,     /* in cache but expired, fetched again */
  CACHE_STALE,       /* a stale copy was served */
  CACHE_REVALIDATED, /* cached copy served after the origin said 304 */
  CACHE_BYPASS,      /* the origin, request or a rule said do not cache */
  CACHE_DYNAMIC,     /* the CDN does not consider it eligible (default or
                        configuration) */
  CACHE_UNCACHEABLE, /* no CDN verdict; origin forbids shared caching */
  CACHE_UNKNOWN,     /* no cache signal */
  CACHE_VERDICT_COUNT
};

/* "HIT", "MISS", ... indexed by verdict. */
extern const char *const cache_verdict_names[CACHE_VERDICT_COUNT];
/* Case-insensitive; CACHE_VERDICT_COUNT when the name is unknown. */
enum cache_verdict cache_verdict_from_name(const char *name);
/* 1 for verdicts where a cache answered (HIT, STALE, REVALIDATED). */
int cache_verdict_served_from_cache(enum cache_verdict v);
/* 1 for verdicts that mean "not cacheable at the edge" (BYPASS, DYNAMIC,
 * UNCACHEABLE): what a finding reports. */
int cache_verdict_not_cacheable(enum cache_verdict v);

/* Verdict counts across samples (hopsplit(1) OUTPUT cache[].counts). */
struct cache_counts {
  int n[CACHE_VERDICT_COUNT];
};

void cache_counts_init(struct cache_counts *c);
void cache_counts_add(struct cache_counts *c, enum cache_verdict v);
int cache_counts_total(const struct cache_counts *c);
/* The most frequent verdict (the earliest in enum order on a tie), or
 * CACHE_UNKNOWN when empty. */
enum cache_verdict cache_counts_mode(const struct cache_counts *c);

enum compare_verdict {
  COMPARE_FASTER,
  COMPARE_SLOWER,
  COMPARE_NO_CLEAR_DIFFERENCE,
  COMPARE_VERDICT_COUNT
};

/* "faster", "slower", "no clear difference", indexed by the verdict. */
extern const char *const compare_verdict_names[COMPARE_VERDICT_COUNT];

/* The name of a verdict, a static string; "unknown" for an invalid value. */
const char *compare_verdict_name(enum compare_verdict v);

/* The verdict named name, or COMPARE_VERDICT_COUNT when none is (or NULL). */
enum compare_verdict compare_verdict_from_name(const char *name);

#endif
