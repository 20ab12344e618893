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

#include "plan.h"
#include "results.h"
#include "sample.h"
#include "stats.h"

/* Phases of a whole sample: hop phases summed over hops, plus the
 * sample's redirect and other time. */
enum sum_phase {
  SUM_DNS,
  SUM_CONNECT,
  SUM_TLS,
  SUM_SEND,
  SUM_WAIT,
  SUM_TRANSFER,
  SUM_REDIRECT,
  SUM_OTHER,
  SUM_TOTAL,
  SUM_COUNT
};
extern const char *const sum_phase_names[SUM_COUNT];

struct hop_summary {
  size_t hop; /* 1-based hop index */
  struct stats phases[PHASE_COUNT];
};

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
};

struct target_analysis {
  struct mode_summary modes[MODE_COUNT];
};

struct analysis {
  struct target_analysis *targets;
  size_t n_targets;
  size_t n_samples;
  size_t n_failed;
};

/* Value of a sample-level phase of one sample. */
int64_t analysis_sample_phase(const struct sample *s, enum sum_phase ph);

void analysis_build(struct analysis *a, const struct plan *p,
                    const struct results *r);
void analysis_release(struct analysis *a);

#endif
