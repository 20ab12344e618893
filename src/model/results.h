/*
 * results.h: the samples of a run in the order they were measured, with
 * the run's wall-clock bounds.  Filled by the runner (runner.c), read by
 * analysis and reports.  results_release frees every sample.
 *
 * The results own the arena their samples' strings live in (arena.h):
 * results_arena makes it on first use, the run makes it its thread's
 * current arena (strpool_use) while it measures and analyses, and
 * results_release frees it with the samples.  Results that never asked
 * for one (a saved document read back, a merge) keep the strings in the
 * thread's default arena, as before.
 */
#ifndef HOPSPLIT_RESULTS_H
#define HOPSPLIT_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
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
  /* Read back from NDJSON whose run was stopped before its summary line:
   * the plan (its rounds, the total planned) is only what the samples
   * say (report_read.c). */
  int cut;
  struct trace_fetch *traces;
  size_t n_traces;
  struct arena *arena; /* owned; NULL until results_arena */
};

void results_init(struct results *r);
void results_release(struct results *r);
/* The arena of r, made on first use; freed by results_release.  Make it
 * no thread's current arena (strpool_use) past that. */
struct arena *results_arena(struct results *r);
/* Make r's arena the thread's current one (strpool_use) and return the
 * one current before, which results_unuse puts back. */
struct arena *results_use(struct results *r);
void results_unuse(struct results *r, struct arena *prev);
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
