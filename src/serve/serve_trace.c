/*
 * serve_trace.c: the /cdn-cgi/trace cache of "hopsplit serve" (hopsplit(1)
 * SERVE).  Input: the hops of a probe whose run has ended.  Output: the
 * traces the cache holds, copied into a later probe's results before its
 * analysis.
 *
 * A probe never waits for a trace and never sends one inside its
 * deadline: when its run has ended (on its engine's thread), each origin
 * its module asks a trace of (--trace always, or auto and the hop looks
 * Cloudflare-fronted; never for a blackbox_exporter module) whose cached
 * trace is older than SERVE_TRACE_INTERVAL_S, or missing, and that has no
 * fetch under way, gets one fetch on that engine (runner_trace_start).  Its
 * answer, or its failure, is kept for the interval; the probes that end
 * meanwhile use it and start none.  So an origin is sent at most one
 * trace request per interval, however often it is probed.
 *
 * Threads: the table is shared by every engine's thread (which start
 * fetches and store their answers) and libmicrohttpd's (which copies
 * traces into probes): one mutex.  Entries live until serve_trace_clear.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <hopsplit/hopsplit.h>

#include "clock.h"
#include "edge.h"
#include "runner.h"
#include "serve_int.h"
#include "serve_msg.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

struct trace_entry {
  char *origin;
  struct trace_fetch t; /* the last answer (fetched_us > 0), or none yet */
  struct trace_fetch pending; /* the fetch under way */
  int64_t fetched_us;         /* monotonic, when the last fetch ended */
  int in_flight;
};

static struct {
  pthread_mutex_t mu;
  struct trace_entry **v;
  size_t n;
} T = {PTHREAD_MUTEX_INITIALIZER, NULL, 0};

static void fetch_release(struct trace_fetch *t)
{
  free(t->origin);
  free(t->host);
  free(t->body);
  free(t->error);
  memset(t, 0, sizeof(*t));
}

/* Under T.mu. */
static struct trace_entry *find(const char *origin, int make)
{
  size_t i;

  for (i = 0; i < T.n; i++)
    if (!strcmp(T.v[i]->origin, origin))
      return T.v[i];
  if (!make)
    return NULL;
  T.v = xrealloc(T.v, (T.n + 1) * sizeof(*T.v));
  T.v[T.n] = xcalloc(1, sizeof(**T.v));
  T.v[T.n]->origin = xstrdup(origin);
  return T.v[T.n++];
}

/* Whether the module of sp asks a trace of hop h. */
static int wanted(const struct serve_probe *sp, const struct hop *h)
{
  if (!h->info->status || sp->trace == TRACE_NEVER)
    return 0;
  return sp->trace == TRACE_ALWAYS || edge_wants_trace(h);
}

static void on_fetched(struct trace_fetch *t, void *ud)
{
  struct trace_entry *en = ud;

  if (t->error)
    serve_info("trace of %s unavailable: %s", t->origin, t->error);
  hs_mutex_lock(&T.mu);
  fetch_release(&en->t);
  en->t = *t;
  memset(t, 0, sizeof(*t));
  en->fetched_us = clock_mono_us();
  en->in_flight = 0;
  pthread_mutex_unlock(&T.mu);
}

unsigned serve_trace_after(struct serve_probe *sp, struct engine *e)
{
  unsigned started = 0;
  size_t i, k;
  int64_t now = clock_mono_us();

  for (i = 0; i < sp->results->n; i++) {
    const struct sample *s = &sp->results->samples[i];

    for (k = 0; k < s->n_hops; k++) {
      const struct hop *h = &s->hops[k];
      struct trace_entry *en;
      char *origin;
      int start = 0;

      if (!wanted(sp, h) || (origin = url_origin(h->info->url)) == NULL)
        continue;
      hs_mutex_lock(&T.mu);
      en = find(origin, 1);
      if (!en->in_flight &&
          (!en->fetched_us || now - en->fetched_us >=
                                  (int64_t)SERVE_TRACE_INTERVAL_S * 1000000)) {
        en->in_flight = 1;
        start = 1;
      }
      pthread_mutex_unlock(&T.mu);
      if (start) {
        started++;
        /* en->pending is written only by this fetch while in_flight. */
        en->pending.origin = xstrdup(origin);
        en->pending.host = xstrdup(h->info->host ? h->info->host : "");
        if (runner_trace_start(e, sp->opts, h, &en->pending, on_fetched, en) <
            0)
          on_fetched(&en->pending, en);
      }
      free(origin);
    }
  }
  return started;
}

unsigned serve_trace_copy(struct serve_probe *sp)
{
  unsigned copied = 0;
  size_t i, k;

  for (i = 0; i < sp->results->n; i++) {
    const struct sample *s = &sp->results->samples[i];

    for (k = 0; k < s->n_hops; k++) {
      const struct hop *h = &s->hops[k];
      const struct trace_entry *en;
      struct trace_fetch *t;
      char *origin;

      if (!wanted(sp, h) || (origin = url_origin(h->info->url)) == NULL)
        continue;
      if (results_find_trace(sp->results, origin)) {
        free(origin);
        continue;
      }
      hs_mutex_lock(&T.mu);
      en = find(origin, 0);
      if (en && en->fetched_us) {
        t = results_add_trace(sp->results, origin, en->t.host);
        t->status = en->t.status;
        if (en->t.body) {
          t->body = xmalloc(en->t.len + 1);
          memcpy(t->body, en->t.body, en->t.len);
          t->body[en->t.len] = '\0';
          t->len = en->t.len;
        }
        if (en->t.error)
          t->error = xstrdup(en->t.error);
        copied++;
      }
      pthread_mutex_unlock(&T.mu);
      free(origin);
    }
  }
  return copied;
}

void serve_trace_clear(void)
{
  size_t i;

  hs_mutex_lock(&T.mu);
  for (i = 0; i < T.n; i++) {
    fetch_release(&T.v[i]->t);
    fetch_release(&T.v[i]->pending);
    free(T.v[i]->origin);
    free(T.v[i]);
  }
  free(T.v);
  T.v = NULL;
  T.n = 0;
  pthread_mutex_unlock(&T.mu);
}
