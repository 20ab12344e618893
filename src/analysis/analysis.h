/*
 * analysis.h: everything the reports print, computed from the plan and
 * the samples (step 4 of the pipeline, README.md Layout).  Pure: no I/O, no
 * library types.
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
#include "projection.h"
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
  /* Samples past the interference threshold (sample_is_interfered), the
   * largest interference_us among them (0 without any), and whether they
   * are in the statistics (--keep-interfered) or left out. */
  size_t n_interfered;
  int64_t interfered_max_us;
  int interfered_kept;
  /* Over those samples, the sum of each part of their interference
   * (enum interference_part; the unmeasured count as nothing), and the
   * largest of them (IP_COUNT without any): what disturbed them most. */
  int64_t interfered_parts_us[IP_COUNT];
  enum interference_part interfered_by;
  /* Samples whose thread waited for a CPU past the same threshold
   * (sample_cpu_waited: said, not left out) and the longest wait among
   * them (0 without any). */
  size_t n_cpu_waited;
  int64_t cpu_waited_max_us;
  /* --parallel: the serial control samples of this target and mode
   * (measured alone), their total, and the batch's median total less the
   * control's median (control.n 0: no control). */
  struct stats control;
  int64_t control_diff_us;
  double control_diff_pct; /* of the control's median; 0 when it is 0 */
  size_t failed_by_class[ERR_COUNT];
  struct stats phases[SUM_COUNT];
  /* Warm: the time the connections sat idle before each successful
   * sample (sample.idle_us); n is 0 in the other modes. */
  struct stats idle;
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

/* hopsplit(1) OUTPUT cache[]: one per hop index over every successful sample
 * of a target, all modes.  result is the classification of the most recent hop
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
  FINDING_WARM_IDLE,
  FINDING_LOSS,
  FINDING_COUNT
};
extern const char *const finding_kind_names[FINDING_COUNT];

/* What a saving rests on (hopsplit(1) FINDINGS).  A distant edge: a round trip
 * measured in the same run to another host (MEASURED), or the fibre floor
 * to the nearest POP (FLOOR, a lower bound).  A payload: the body's bytes
 * over the throughput measured for it (THROUGHPUT), or the rounds its
 * bytes arrived in on that connection (ROUNDS).  UNCERTAIN: the run
 * contradicts what the finding would rest on (a connect below the fibre
 * floor to the edge), so it estimates no saving and says why.  REPEAT: what
 * a repeat view of a body the client may not keep pays (not a part of the
 * cold total).
 * FINDING_BASIS_NONE for the other kinds: parts of the median sample. */
enum finding_basis {
  FINDING_BASIS_NONE,
  FINDING_BASIS_MEASURED,
  FINDING_BASIS_FLOOR,
  FINDING_BASIS_THROUGHPUT,
  FINDING_BASIS_UNCERTAIN,
  FINDING_BASIS_REPEAT,
  FINDING_BASIS_ROUNDS,
  FINDING_BASIS_COUNT
};

/* The floor below which a saving is not listed as a finding: under
 * FINDING_FLOOR_US or under FINDING_FLOOR_PCT % of the median cold total
 * (either).  Findings that estimate no saving by design (noise, warm-idle,
 * an uncertain basis) are listed whatever their size. */
#define FINDING_FLOOR_US  1000
#define FINDING_FLOOR_PCT 1
extern const char *const finding_basis_names[FINDING_BASIS_COUNT];

/* hopsplit(1) FINDINGS: one finding, with the evidence in words and the saving
 * estimated from measured medians. */
struct finding {
  enum finding_kind kind;
  char *title;  /* owned */
  char *detail; /* owned */
  int64_t saving_us;
  int hop; /* 1-based, 0 when the finding is about the whole request */
  /* 1-based id of the group of findings that remove some of the same
   * time (struct finding_group), 0 when it overlaps no other finding. */
  int group;
  enum finding_basis basis;
  int of_total; /* the saving is a part of the median cold total */
};

/* Findings that remove some of the same time: doing all of them removes
 * at most saving_us, per part of the median cold sample the largest
 * amount any member removes. */
struct finding_group {
  int id;            /* 1-based, in rank order of the first member */
  int64_t saving_us; /* combined */
  size_t n_members;
};

/* The savings checked against an alternative of the same body measured
 * in the same run (hopsplit(1) FINDINGS, "Checked against the run"): the
 * target whose final body has the same size and type and that the cold
 * paired comparison shows removing the most; what it removed (this
 * target's median less the alternative's, with its 95 % interval), and
 * what the findings that keep the body (all but payload) remove together
 * without overlaps. */
struct finding_check {
  int present;
  size_t alternative; /* target index */
  int64_t measured_us;
  int64_t ci_low_us, ci_high_us;
  int64_t savings_us;
  int64_t body_bytes;
  int agrees; /* savings within the interval widened by 20 % and 1 ms */
};

struct target_analysis {
  struct mode_summary modes[MODE_COUNT];
  struct finding_check check;
  struct cache_hop *cache;
  size_t n_cache;
  struct edge_result *edge; /* one per hop index */
  size_t n_edge;
  struct finding *findings; /* ranked by saving, largest first */
  size_t n_findings;
  struct finding_group *groups; /* groups of two or more findings */
  size_t n_groups;
  /* The savings that do not overlap: each group's combined saving plus
   * the findings alone, never more than cold_total_us, the median cold
   * total they are parts of (0 and 0 without a cold sample). */
  int64_t nonoverlap_us;
  int64_t cold_total_us;
  /* What each finding removes of each part of the median cold sample
   * (findings.c: n_cells = its hops x PHASE_COUNT + 1, the last the time
   * between hops; a NULL row for a finding outside the cold total), kept
   * for the projection's re-ranking (projection.c).  Owned. */
  int64_t **removes;
  size_t n_removes;
  size_t n_cells;
};

/* Parts of a sample's total that do not overlap and add up to it
 * exactly: the hops before the final one (redirect), the time between
 * hops (other), and the phases of the final hop.  "explained by" uses
 * these, so that a redirect is not counted again in its own phases. */
enum sample_part {
  PART_REDIRECT,
  PART_OTHER,
  PART_DNS,
  PART_CONNECT,
  PART_TLS,
  PART_SEND,
  PART_WAIT,
  PART_TRANSFER,
  PART_COUNT
};
/* "redirect", "other", "final.dns" ... "final.transfer" */
extern const char *const sample_part_names[PART_COUNT];
int64_t sample_part_value(const struct sample *s, enum sample_part part);

/* hopsplit(1) OUTPUT comparison[]: a target against the baseline (or, with
 * --compare all or a profile check, against another target) in one mode,
 * paired by round. */
struct comparison {
  size_t target;
  size_t baseline;
  enum sample_mode mode;
  struct compare_result phases[SUM_COUNT]; /* SUM_TOTAL is the verdict */
  struct compare_result parts[PART_COUNT];
  /* The parts that explain the difference: those whose interval excludes
   * 0 and whose median moves by 0.1 ms or more, largest first (at most
   * COMPARISON_EXPLAINED_MAX). */
  unsigned char explained[PART_COUNT];
  size_t n_explained;
  /* Why rounds were left out (phases[SUM_TOTAL].n_dropped is their sum):
   * a side failed, or a side was interfered with (and not kept), with the
   * largest interference_us of those sides. */
  size_t n_left_failed;
  size_t n_left_interfered;
  int64_t left_interfered_max_us;
  /* The final body of each side's median sample in this mode, [0] the
   * target's, [1] the baseline's (analysis_bodies): its bytes (-1 when
   * unknown) and its media type ("" without a Content-Type); differ is 1
   * when the sizes differ by more than 1 % or the types differ, so the
   * comparison is of different resources. */
  int64_t body_bytes[2];
  char body_type[2][64];
  int bodies_differ;
};
#define COMPARISON_EXPLAINED_MAX 4

/* hopsplit(1) OUTPUT drift[]: rank correlation of a target's totals with the
 * round. */
struct drift {
  size_t target;
  enum sample_mode mode;
  double rho; /* NAN when it cannot be computed */
  size_t n;
  int significant; /* compare_drift_warning: unlikely by chance */
  /* The size: the Theil-Sen fitted change of the totals from the first
   * to the last round (compare_drift_change), the median total, and the
   * change in percent of it (NAN when the median is 0). */
  int64_t change_us;
  int64_t median_us;
  double change_pct;
  int warning; /* significant and large enough (compare_drift_matters) */
};

/* What each hop of each sample says on its own: its cache verdict and the
 * edge that served it (for per-hop rows in csv and JSON). */
#define HOP_FACT_LAYERS 4

struct hop_fact_layer {
  const char *vendor;    /* pooled; "" when unnamed */
  unsigned char verdict; /* enum cache_verdict */
};

/* One per hop of every sample of the run, so small (the performance budget of
 * tests/bench): strings and the layer list live in the string pool, where the
 * equal lists of other samples are stored once. */
struct hop_fact {
  const char *vendor; /* static, or NULL */
  const char *pop;    /* pooled, NULL when unknown */
  /* The first cache layers of this sample's hop, nearest the user first
   * (hopsplit(1) CACHE AND EDGE), at most HOP_FACT_LAYERS; pooled. */
  const struct hop_fact_layer *layers;
  unsigned char n_layers;
  unsigned char verdict;  /* enum cache_verdict */
  unsigned char inferred; /* the verdict is inferred, not said */
  /* The verdict was inferred from other samples of the run (later ones
   * too), so a line streamed when this sample ended could not say it. */
  unsigned char across;
};

struct analysis {
  /* facts[i] has results->samples[i].n_hops entries, or is NULL: an
   * array in the string pool, stored once for the equal facts of every
   * sample (8 bytes a sample, not 32 a hop: SPEC 8's footprint). */
  const struct hop_fact **facts;
  struct target_analysis *targets;
  size_t n_targets;
  size_t n_samples;
  size_t n_failed;
  struct edge_client client; /* hopsplit(1) OUTPUT client{} */
  /* The first edge POP of the run when the client's location is unknown
   * (no --client-location, no trace loc), else NULL: the reports say how
   * to give it.  Points into targets[].edge[]. */
  const char *client_hint_pop;
  struct comparison *comparisons;
  size_t n_comparisons;
  struct drift *drifts;
  size_t n_drifts;
  /* --project: each target on each network (projection.h). */
  struct projections proj;
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

/* The target the others were compared with, or -1 when nothing was
 * compared (one target, --parallel, no successful pair of modes): the
 * plan's baseline when a comparison is against it, else the baseline of
 * the first comparison (hopsplit merge compares every target with the
 * first, whatever --baseline the runs had).  Renderers ask this rather
 * than read plan->baseline, so that they mark the baseline the numbers
 * are against. */
long analysis_baseline(const struct analysis *a, const struct plan *p);

/* The comparison of target t with target b in mode m, or NULL; *flipped
 * (when not NULL) is set to 1 when the one found is b against t, whose
 * differences are then the negated ones. */
const struct comparison *analysis_find_comparison(const struct analysis *a,
                                                  size_t t, size_t b,
                                                  enum sample_mode m,
                                                  int *flipped);

/* Findings of target t (findings.c), from the rest of the analysis. */
void findings_build(const struct plan *p, const struct results *r,
                    struct analysis *a, size_t t);
void finding_release(struct finding *f);
/*
 * Group the ranked findings of ta whose removals overlap: rm[i] (n_cells
 * long, NULL for a finding that is not part of the cold total) is what
 * finding i removes of each part of the median cold sample.  Sets each
 * finding's group, fills ta->groups (owned by ta) and ta->nonoverlap_us.
 * Exposed for the unit tests.
 */
void findings_group(struct target_analysis *ta, int64_t **rm, size_t n_cells);

/* The facts of every hop of sample s (an array of s->n_hops the caller
 * gives): its edge, and its cache verdict when the sample succeeded, as
 * analysis_build would record them, without an analysis of the run (for
 * streaming ndjson). */
void analysis_hop_facts(const struct plan *p, const struct sample *s,
                        struct hop_fact *facts);

/* The phase (dns .. other, not total) with the largest median in m, and
 * its share of the median total in whole percent (-1 when the total is
 * 0); SUM_COUNT when no phase took time. */
enum sum_phase analysis_largest_phase(const struct mode_summary *m,
                                      int *share_pct);

void analysis_build(struct analysis *a, const struct plan *p,
                    const struct results *r);
/* Fill each comparison's body facts (struct comparison body_*) from the
 * median samples of r; analysis_build and analysis_compare_unpaired call
 * it. */
void analysis_bodies(const struct results *r, struct analysis *a);
void analysis_release(struct analysis *a);

/*
 * Decide every check of cs from the analysis a of plan p; sets pass and
 * measured of each and cs->n_failed, which it also returns.  A check
 * without data (no successful sample, no such hop) fails.
 */
size_t check_evaluate(struct check_set *cs, const struct plan *p,
                      const struct analysis *a);

#endif
