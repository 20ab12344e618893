/*
 * check.h: the checks of a profile (hopsplit-profile(5)) and their outcome.  A
 * profile (profile.c) parses them into a struct check_set; after the analysis,
 * check_evaluate (analysis.h) decides each one from the analysis alone and
 * keeps the measured value, and report_checks.c prints them.  A failed check
 * makes the exit status 1 (hopsplit(1)).
 *
 * Three kinds:
 *   metric   PHASE.STAT of a target in one mode against max and/or min;
 *   cache    the cache verdicts of a target's hops: none of a list (not)
 *            or only those of a list (is), on one hop or on every hop;
 *   compare  the paired comparison of a target with the baseline in one
 *            mode has one of the given verdicts;
 *   status   every sample of a target (in one mode, or in every mode) has
 *            a final status among the given codes or classes (2xx).
 *
 * The check set owns every string it points to; check_set_release frees
 * them.  Only pointers to later-stage types appear here.
 */
#ifndef HOPSPLIT_CHECK_H
#define HOPSPLIT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct analysis;
struct plan;

enum check_kind {
  CHECK_METRIC,
  CHECK_CACHE,
  CHECK_COMPARE,
  CHECK_STATUS,
  CHECK_KIND_COUNT
};

#define CHECK_STATUS_MAX 16
extern const char *const check_kind_names[CHECK_KIND_COUNT];

enum check_stat {
  CHECK_STAT_P50,
  CHECK_STAT_P95,
  CHECK_STAT_MIN,
  CHECK_STAT_MAX,
  CHECK_STAT_MEAN,
  CHECK_STAT_COUNT
};
extern const char *const check_stat_names[CHECK_STAT_COUNT];

/* hop of a cache check: a 1-based hop index, or one of these. */
#define CHECK_HOP_EVERY 0
#define CHECK_HOP_LAST  (-1)

struct check {
  enum check_kind kind;
  char *where;   /* "FILE:LINE:COL" of the check in its profile */
  size_t target; /* index into the plan's targets */
  enum sample_mode mode;
  /* metric */
  unsigned phase; /* enum sum_phase of analysis.h */
  enum check_stat stat;
  int has_max, has_min;
  int64_t max_us, min_us;
  /* cache: verdicts is a bit set of enum cache_verdict */
  int cache_is; /* 1: only these verdicts; 0: none of these */
  unsigned verdicts;
  long hop; /* 1-based, CHECK_HOP_EVERY or CHECK_HOP_LAST */
  /* compare: verdicts is a bit set of enum compare_verdict */
  size_t baseline; /* index into the plan's targets */
  /* status: ranges [lo, hi] of allowed final statuses (2xx is 200-299);
   * mode is MODE_COUNT when every mode counts */
  long status_lo[CHECK_STATUS_MAX], status_hi[CHECK_STATUS_MAX];
  size_t n_status;
  /* outcome, set by check_evaluate */
  int pass;
  int has_value;    /* value_us holds the measured value (metric) */
  int64_t value_us; /* metric: the value; compare: the median difference */
  char *measured;   /* what was measured, in words */
};

struct check_set {
  char *profile; /* the profile's name */
  char *file;    /* the profile's file, as given */
  struct check *v;
  size_t n, cap;
  int evaluated;
  size_t n_failed;
};

void check_set_init(struct check_set *cs);
void check_set_release(struct check_set *cs);
/* Append a zeroed check (mode cold) and return it; the set owns it. */
struct check *check_set_add(struct check_set *cs);

/*
 * Parse "PHASE.STAT" (e.g. "total.p95"): PHASE one of sum_phase_names,
 * STAT one of check_stat_names.  Returns 0, or -1 with a message in err.
 */
int check_parse_metric(const char *s, unsigned *phase, enum check_stat *stat,
                       char *err, size_t errlen);
/* Add the cache verdict named name (any case) to *bits; -1 with a
 * message in err when there is no such verdict. */
int check_parse_cache_verdict(const char *name, unsigned *bits, char *err,
                              size_t errlen);
/* Add the comparison verdict named name to *bits; -1 with a message. */
int check_parse_compare_verdict(const char *name, unsigned *bits, char *err,
                                size_t errlen);

/* Add the status spec s ("404", "2xx") to c's ranges; -1 with a message
 * in err when it is neither a code 100-599 nor a class 1xx-5xx. */
int check_parse_status(const char *s, struct check *c, char *err,
                       size_t errlen);

/* A threshold or a measured value as checks say them: microseconds below
 * 1 ms ("1 us"), else as every report (units_format_us). */
void check_format_us(int64_t us, char *out, size_t len);

/* What a check asks, in words ("total.p95 <= 800 ms"); caller frees. */
char *check_describe(const struct check *c);
/* The mode a check is about, as reports name it: "all" for a cache or
 * status check (every mode), else the mode's name; never NULL. */
const char *check_mode_word(const struct check *c);
/* As check_describe, naming the target a compare check is made against
 * ("verdict faster against base"); against NULL says "the baseline". */
char *check_describe_against(const struct check *c, const char *against);
/* As check_describe_against, with the thresholds written by fmt
 * (units_format_setting for --dry-run, which lists them as a profile
 * takes them, "total.p95 <= 800ms"). */
char *check_describe_as(const struct check *c, const char *against,
                        void (*fmt)(int64_t, char *, size_t));

#endif
