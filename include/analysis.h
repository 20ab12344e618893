/*
 * analysis.h: everything the reports print, computed from the plan and
 * the samples (STYLE 5.1 step 4).  Pure: no I/O, no library types.
 *
 * analysis_build allocates; analysis_release frees.  Reports read it
 * through const pointers and never compute.
 */
#ifndef HOPSPLIT_ANALYSIS_H
#define HOPSPLIT_ANALYSIS_H

#include <stddef.h>

#include "cache.h"
#include "check.h"
#include "compare.h"
#include "edge.h"
#include "plan.h"
#include "results.h"
#include "sample.h"
#include "stats.h"

/* Phases of a whole sample: hop phases summed over hops, plus the
 * sample's redirect and other time. */

struct hop_summary {
  size_t hop; /* 1-based hop index */
  struct stats phases[PHASE_COUNT];
};

/* How many samples ended with one final status. */
struct status_count {
  long status; /* 0: no response */
  size_t n;
};
#define STATUS_KINDS_MAX 16

struct mode_summary {
  int present; /* this mode was planned for the target */
  size_t n_samples;
  size_t n_ok;
  size_t n_failed;
  size_t failed_by_class[ERR_COUNT];
  struct stats phases[SUM_COUNT];
  struct hop_summary *hops;
  size_t n_hops;
  /* Index into results of the sample whose total is the median of the
   * successful ones (nearest rank), or -1 when none succeeded. */
  long median_sample;
  /* First error message seen per class, for the text report. */
  const char *first_error[ERR_COUNT];
  /* Final statuses of every sample, ok or not, by status ascending; the
   * statuses past STATUS_KINDS_MAX distinct ones are not counted. */
  struct status_count statuses[STATUS_KINDS_MAX];
  size_t n_statuses;
};

/* SPEC 5 cache[]: one per hop index over every successful sample of a
 * target, all modes.  result is the classification of the most recent hop
 * with the most frequent verdict. */
struct cache_hop {
  size_t hop; /* 1-based */
  char *host; /* owned */
  struct cache_result result;
  struct cache_counts counts;
};

enum finding_kind {
  FINDING_REDIRECT,
  FINDING_CACHE,
  FINDING_DISTANT_EDGE,
  FINDING_CONNECTIONS,
  FINDING_TLS_RESUMPTION,
  FINDING_PAYLOAD,
  FINDING_SERVER_WAIT,
  FINDING_DNS,
  FINDING_HTTP_VERSION,
  FINDING_NOISE,
  FINDING_COUNT
};
extern const char *const finding_kind_names[FINDING_COUNT];

/* SPEC 4.3: one finding, with the evidence in words and the saving
 * estimated from measured medians. */
struct finding {
  enum finding_kind kind;
  char *title;  /* owned */
  char *detail; /* owned */
  int64_t saving_us;
  int hop; /* 1-based, 0 when the finding is about the whole request */
};

struct target_analysis {
  struct mode_summary modes[MODE_COUNT];
  struct cache_hop *cache;
  size_t n_cache;
  struct edge_result *edge; /* one per hop index */
  size_t n_edge;
  struct finding *findings; /* ranked by saving, largest first */
  size_t n_findings;
};

/* SPEC 5 comparison[]: a target against the baseline in one mode, paired
 * by round. */
struct comparison {
  size_t target;
  size_t baseline;
  enum sample_mode mode;
  struct compare_result phases[SUM_COUNT]; /* SUM_TOTAL is the verdict */
};

/* SPEC 5 drift[]: rank correlation of a target's totals with the round. */
struct drift {
  size_t target;
  enum sample_mode mode;
  double rho; /* NAN when it cannot be computed */
  size_t n;
  int warning;
};

/* What each hop of each sample says on its own: its cache verdict and the
 * edge that served it (for per-hop rows in csv and JSON). */
#define HOP_FACT_LAYERS 4

struct hop_fact {
  unsigned char verdict; /* enum cache_verdict */
  const char *vendor;    /* static, or NULL */
  char pop[16];          /* "" when unknown */
  /* The first cache layers of this sample's hop, nearest the user first
   * (SPEC 4.1): vendor ("" when unnamed) and verdict. */
  unsigned char n_layers;
  struct {
    char vendor[16];
    unsigned char verdict; /* enum cache_verdict */
  } layers[HOP_FACT_LAYERS];
};

struct analysis {
  /* facts[i] has results->samples[i].n_hops entries, or is NULL. */
  struct hop_fact **facts;
  struct target_analysis *targets;
  size_t n_targets;
  size_t n_samples;
  size_t n_failed;
  struct edge_client client; /* SPEC 5 client{} */
  struct comparison *comparisons;
  size_t n_comparisons;
  struct drift *drifts;
  size_t n_drifts;
};

/* Value of a sample-level phase of one sample. */

/* Parts of analysis_build, each in its own file: cache[], edge[] and
 * client (analysis_cdn.c); comparison[] and drift[]
 * (analysis_compare.c). */
void analysis_cdn_build(const struct plan *p, const struct results *r,
                        struct analysis *a);
/* Replace a's comparisons with unpaired ones (compare_unpaired): every
 * target against the first, in each mode where both have successful
 * samples, for runs merged from several places (hopsplit merge), whose
 * rounds do not pair.  Drift is left as it is (within each target). */
void analysis_compare_unpaired(const struct plan *p, const struct results *r,
                               struct analysis *a);
void analysis_compare_build(const struct plan *p, const struct results *r,
                            struct analysis *a);

/* Findings of target t (findings.c), from the rest of the analysis. */
void findings_build(const struct plan *p, const struct results *r,
                    struct analysis *a, size_t t);
void finding_release(struct finding *f);

/* The facts of every hop of sample s (an array of s->n_hops the caller
 * gives): its edge, and its cache verdict when the sample succeeded, as
 * analysis_build would record them, without an analysis of the run (for
 * streaming ndjson). */
void analysis_hop_facts(const struct plan *p, const struct sample *s,
                        struct hop_fact *facts);

/* The phases that explain a comparison's difference of totals: those
 * whose interval excludes 0 and whose median difference is at least
 * 100 us, largest first, at most max of them, into out; returns how
 * many. */
size_t analysis_explaining_phases(const struct comparison *cmp,
                                  enum sum_phase *out, size_t max);

/* The phase (dns .. other, not total) with the largest median in m, and
 * its share of the median total in whole percent (-1 when the total is
 * 0); SUM_COUNT when no phase took time. */
enum sum_phase analysis_largest_phase(const struct mode_summary *m,
                                      int *share_pct);

void analysis_build(struct analysis *a, const struct plan *p,
                    const struct results *r);
void analysis_release(struct analysis *a);

/*
 * Decide every check of cs from the analysis a of plan p; sets pass and
 * measured of each and cs->n_failed, which it also returns.  A check
 * without data (no successful sample, no such hop) fails.
 */
size_t check_evaluate(struct check_set *cs, const struct plan *p,
                      const struct analysis *a);

#endif
