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

/* A /cdn-cgi/trace fetched once per Cloudflare-fronted origin, outside the
 * measured samples (hopsplit(1) CACHE AND EDGE).  body is NULL when the fetch
 * failed; error then says why.  The analysis parses it. */
struct trace_fetch {
  char *origin; /* "https://host:port" */
  char *host;
  char *body;
  size_t len;
  long status;
  char *error;
};

struct results {
  struct sample *samples;
  size_t n;
  size_t cap;
  int64_t started_at_ms;
  int64_t finished_at_ms;
  int partial; /* interrupted before every sample ran */
  struct trace_fetch *traces;
  size_t n_traces;
};

void results_init(struct results *r);
void results_release(struct results *r);
/* Make room for n samples in all, so that a run of known size allocates
 * once. */
void results_reserve(struct results *r, size_t n);
/* Append a sample (moved: *s is re-initialised). */
void results_add(struct results *r, struct sample *s);
/* Append an empty trace record for origin and return it. */
struct trace_fetch *results_add_trace(struct results *r, const char *origin,
                                      const char *host);
/* The trace fetched for origin, or NULL. */
const struct trace_fetch *results_find_trace(const struct results *r,
                                             const char *origin);

#endif
