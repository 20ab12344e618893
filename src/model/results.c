/*
 * results.c: the growing list of measured samples.
 */
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

void results_init(struct results *r)
{
  memset(r, 0, sizeof(*r));
}

void results_release(struct results *r)
{
  size_t i;

  for (i = 0; i < r->n; i++)
    sample_release(&r->samples[i]);
  free(r->samples);
  for (i = 0; i < r->n_traces; i++) {
    free(r->traces[i].origin);
    free(r->traces[i].host);
    free(r->traces[i].body);
    free(r->traces[i].error);
  }
  free(r->traces);
  /* After the samples: their strings live in it. */
  arena_free(r->arena);
  results_init(r);
}

struct arena *results_arena(struct results *r)
{
  if (!r->arena)
    r->arena = arena_alloc();
  return r->arena;
}

struct arena *results_use(struct results *r)
{
  return strpool_use(results_arena(r));
}

void results_unuse(struct results *r, struct arena *prev)
{
  if (r->arena && strpool_current() == r->arena)
    strpool_use(prev);
}

void results_reserve(struct results *r, size_t n)
{
  if (n > r->cap) {
    r->samples = xrealloc(r->samples, n * sizeof(*r->samples));
    r->cap = n;
  }
}

void results_add(struct results *r, struct sample *s)
{
  r->samples = xgrow(r->samples, &r->cap, r->n + 1, sizeof(*r->samples));
  /* A finished sample's hops move into the pool's large blocks: they live
   * as long as the results, and small long-lived blocks among the
   * libraries' short-lived ones would fragment the heap. */
  if (s->n_hops && !s->hops_pooled) {
    struct hop *h = strpool_alloc(s->n_hops * sizeof(*s->hops));

    memcpy(h, s->hops, s->n_hops * sizeof(*s->hops));
    free(s->hops);
    s->hops = h;
    s->hops_pooled = 1;
  }
  r->samples[r->n++] = *s;
  sample_init(s);
}

struct trace_fetch *results_add_trace(struct results *r, const char *origin,
                                      const char *host)
{
  struct trace_fetch *t;

  r->traces = xrealloc(r->traces, (r->n_traces + 1) * sizeof(*r->traces));
  t = &r->traces[r->n_traces++];
  memset(t, 0, sizeof(*t));
  t->origin = xstrdup(origin);
  t->host = xstrdup(host);
  return t;
}

const struct trace_fetch *results_find_trace(const struct results *r,
                                             const char *origin)
{
  size_t i;

  for (i = 0; i < r->n_traces; i++)
    if (!strcmp(r->traces[i].origin, origin))
      return &r->traces[i];
  return NULL;
}
