/*
 * results.h: the samples of a run in the order they were measured, with
 * the run's wall-clock bounds.  Filled by the runner (runner.c), read by
 * analysis and reports.  results_release frees every sample.
 */
#ifndef HOPSPLIT_RESULTS_H
#define HOPSPLIT_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct results {
  struct sample *samples;
  size_t n;
  size_t cap;
  int64_t started_at_ms;
  int64_t finished_at_ms;
  int partial; /* interrupted before every sample ran */
};

void results_init(struct results *r);
void results_release(struct results *r);
/* Append a sample (moved: *s is re-initialised). */
void results_add(struct results *r, struct sample *s);

#endif
