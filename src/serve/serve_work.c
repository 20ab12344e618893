/*
 * serve_work.c: the probes of "hopsplit serve" between the HTTP side and
 * the measurement.  Input: jobs (one /probe request each, its plan built)
 * handed over by serve_http.c from libmicrohttpd's event thread, whose
 * connection is suspended meanwhile.  Output: each job measured, or
 * refused, then its done callback, which resumes the connection.
 *
 * Every probe is measured on an engine (engine.h): a few loops, each one
 * thread running its own epoll loop, on which each probe's run
 * (runner_start) is a state machine beside the others; no thread per
 * probe.  The probes of one target and module (a stream) run on one loop
 * while any of them is in flight; a stream that has none goes to the
 * loop with the fewest probes.  So a burst of thousands of probes of one
 * target, or a target that hangs, keeps to its loop, and the other
 * targets' probes (a live target scraped meanwhile) are measured on a
 * loop that is not busy with it: their stamps are not late by its work.
 * On one loop, the origins (scheme, host and port) with probes to start
 * take turns, and within an origin its streams (run_pop): a burst of
 * probes of many URLs of one server (a fleet behind one host) does not
 * hold up another server's probe until the whole burst has started.
 *
 * At most --max-concurrent probes are in flight; a job over the limit
 * waits, first in first out, for a place until its deadline; one still
 * waiting then is refused (503), by the expiry thread, which sleeps until
 * the earliest deadline of the waiting jobs.  While the server drains,
 * the waiting jobs and new ones are refused and the jobs in flight finish.
 *
 * Each probe's strings are stored in its own results (their arena, which
 * the engine makes its thread's current one while a handler of that
 * probe's run runs), freed with the probe: nothing of a probe outlives
 * its answer, and no loop waits for others' answers to free memory.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hopsplit/hopsplit.h>

#include "clock.h"
#include "engine.h"
#include "serve_int.h"
#include "serve_msg.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* Probes started between two turns of a loop. */
#define START_BATCH 16
/* Loops: one per processor this process may run on, never more (a loop
 * more than processors waits for a CPU with its stamps late), at most
 * LOOPS_MAX. */
#define LOOPS_MAX 16
/* hand_back_finished keeps the loops to wake as bits of an unsigned. */
_Static_assert(LOOPS_MAX <= 32, "a loop's bit in an unsigned");

/* One engine and its thread. */
struct serve_loop {
  struct engine *e;
  pthread_t thread;
  int started;
  struct serve_host *ring_head, *ring_tail; /* origins with jobs to start */
  unsigned placed;                 /* jobs on it, to start or running */
  struct engine_lateness lateness; /* a copy, taken after each step */
  /* Jobs whose run ended in the current engine_step (its thread only):
   * handed back after the step, when the runner holds nothing of them. */
  struct serve_job *finished_head, *finished_tail;
};

/* The streams of one origin and module on one loop. */
struct serve_host {
  char *origin; /* url_origin, or the target when it has none */
  const struct serve_module *module;
  struct serve_loop *loop;
  unsigned streams;                           /* alive, of this origin */
  struct serve_stream *ring_head, *ring_tail; /* streams with jobs to start */
  int in_ring;
  struct serve_host *hnext; /* hash chain */
  struct serve_host *rnext; /* the loop's ring of origins to start */
};

/* The probes of one target and module on their loop. */
struct serve_stream {
  char *target;
  const struct serve_module *module;
  struct serve_host *host;       /* its origin on its loop (host->loop) */
  unsigned placed;               /* its jobs on the loop */
  struct serve_job *head, *tail; /* to start */
  int in_ring;
  struct serve_stream *hnext; /* hash chain */
  struct serve_stream *rnext; /* its origin's ring of streams to start */
};

static struct {
  const struct serve_config *cfg;
  pthread_mutex_t mu;
  pthread_cond_t cv_expiry; /* the waiting list changed */
  int cv_mono; /* cv_expiry waits on CLOCK_MONOTONIC (deadlines' clock) */
  struct serve_job *wait_head, *wait_tail; /* over the limit */
  unsigned in_flight, waiting;
  int draining, stopping;
  struct serve_loop loops[LOOPS_MAX];
  unsigned n_loops;
  pthread_t expiry;
  int expiry_started;
} W = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv_expiry = PTHREAD_COND_INITIALIZER};

static void push(struct serve_job **head, struct serve_job **tail,
                 struct serve_job *j)
{
  j->next = NULL;
  if (*tail)
    (*tail)->next = j;
  else
    *head = j;
  *tail = j;
}

static struct serve_job *pop(struct serve_job **head, struct serve_job **tail)
{
  struct serve_job *j = *head;

  if (j) {
    *head = j->next;
    if (!*head)
      *tail = NULL;
    j->next = NULL;
  }
  return j;
}

/* The streams with jobs placed, by target and module (the lock held for
 * all of these). */
#define STREAM_BUCKETS 1024u

static struct serve_stream *streams[STREAM_BUCKETS];
static struct serve_host *hosts[STREAM_BUCKETS];

static unsigned stream_hash(const char *target,
                            const struct serve_module *module)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  const unsigned char *c;

  for (c = (const unsigned char *)target; *c; c++)
    h = (h ^ *c) * 16777619u;
  h ^= (uint32_t)(uintptr_t)module;
  return (unsigned)(h % STREAM_BUCKETS);
}

/* The loop with the fewest jobs placed (the first of equals). */
static struct serve_loop *least_busy(void)
{
  struct serve_loop *best = &W.loops[0];
  unsigned i;

  for (i = 1; i < W.n_loops; i++)
    if (W.loops[i].placed < best->placed)
      best = &W.loops[i];
  return best;
}

/* The origin (url_origin of the target, parsed before the lock: the
 * HTTP thread parses nothing while it holds it) with module on loop l,
 * made if it has no stream there; a new one takes *origin over. */
static struct serve_host *
host_of(char **origin, const struct serve_module *module, struct serve_loop *l)
{
  unsigned b = stream_hash(*origin, module);
  struct serve_host *h;

  for (h = hosts[b]; h; h = h->hnext)
    if (h->module == module && h->loop == l && strcmp(h->origin, *origin) == 0)
      break;
  if (!h) {
    h = xcalloc(1, sizeof(*h));
    h->origin = *origin;
    *origin = NULL;
    h->module = module;
    h->loop = l;
    h->hnext = hosts[b];
    hosts[b] = h;
  }
  h->streams++;
  return h;
}

static void host_release(struct serve_host *h)
{
  struct serve_host **pp;

  if (--h->streams)
    return;
  for (pp = &hosts[stream_hash(h->origin, h->module)]; *pp; pp = &(*pp)->hnext)
    if (*pp == h) {
      *pp = h->hnext;
      break;
    }
  free(h->origin);
  free(h);
}

/* j's stream, made and placed on a loop if it has no job placed. */
static struct serve_stream *stream_of(struct serve_job *j)
{
  const char *target = j->sp.target ? j->sp.target : "";
  unsigned b = stream_hash(target, j->sp.module);
  struct serve_stream *st;

  for (st = streams[b]; st; st = st->hnext)
    if (st->module == j->sp.module && strcmp(st->target, target) == 0)
      return st;
  st = xcalloc(1, sizeof(*st));
  st->target = xstrdup(target);
  st->module = j->sp.module;
  st->host = host_of(&j->origin, st->module, least_busy());
  st->hnext = streams[b];
  streams[b] = st;
  return st;
}

static void stream_free(struct serve_stream *st)
{
  struct serve_stream **pp;

  for (pp = &streams[stream_hash(st->target, st->module)]; *pp;
       pp = &(*pp)->hnext)
    if (*pp == st) {
      *pp = st->hnext;
      break;
    }
  host_release(st->host);
  free(st->target);
  free(st);
}

/* st has a job to start: in its origin's ring, and the origin in its
 * loop's. */
static void ring_add(struct serve_stream *st)
{
  struct serve_host *h = st->host;
  struct serve_loop *l = h->loop;

  if (!st->in_ring) {
    st->rnext = NULL;
    st->in_ring = 1;
    if (h->ring_tail)
      h->ring_tail->rnext = st;
    else
      h->ring_head = st;
    h->ring_tail = st;
  }
  if (!h->in_ring) {
    h->rnext = NULL;
    h->in_ring = 1;
    if (l->ring_tail)
      l->ring_tail->rnext = h;
    else
      l->ring_head = h;
    l->ring_tail = h;
  }
}

/* The next job to start on l: the origins take turns, and within one its
 * streams, so a burst against one target, or against many URLs of one
 * server, does not hold up another's probe until the whole burst has
 * started. */
static struct serve_job *run_pop(struct serve_loop *l)
{
  struct serve_host *h = l->ring_head;
  struct serve_stream *st;
  struct serve_job *j;

  if (!h)
    return NULL;
  l->ring_head = h->rnext;
  if (!l->ring_head)
    l->ring_tail = NULL;
  h->rnext = NULL;
  h->in_ring = 0;
  st = h->ring_head;
  h->ring_head = st->rnext;
  if (!h->ring_head)
    h->ring_tail = NULL;
  st->rnext = NULL;
  st->in_ring = 0;
  j = pop(&st->head, &st->tail);
  /* What is left waits for the other streams' and origins' turn. */
  if (st->head)
    ring_add(st);
  else if (h->ring_head)
    ring_add(h->ring_head); /* the origin back in the loop's ring */
  return j;
}

/* Take a place for j (the lock held); its loop's thread starts it, once
 * the caller has woken it (engine_wake) after releasing the lock: a loop
 * woken while the lock is held would wake only to wait for it. */
static struct serve_loop *start_locked(struct serve_job *j)
{
  struct serve_stream *st = stream_of(j);
  struct serve_loop *l = st->host->loop;

  W.in_flight++;
  st->placed++;
  l->placed++;
  j->stream = st;
  j->loop = l;
  push(&st->head, &st->tail, j);
  ring_add(st);
  return l;
}

/* The origin of j's target, parsed before the lock is taken. */
static void origin_parse(struct serve_job *j)
{
  const char *target = j->sp.target ? j->sp.target : "";

  j->origin = url_origin(target);
  if (!j->origin)
    j->origin = xstrdup(target);
}

/* Refuse the jobs of the list (the lock not held). */
static void refuse(struct serve_job *gone, int draining)
{
  while (gone) {
    struct serve_job *j = gone;

    gone = j->next;
    free(j->origin);
    j->origin = NULL;
    j->rejected = 1;
    j->draining = draining;
    j->done(j);
  }
}

static void probe_done(struct serve_probe *sp)
{
  struct serve_job *j =
      (struct serve_job *)(void *)((char *)sp -
                                   offsetof(struct serve_job, sp));

  push(&j->loop->finished_head, &j->loop->finished_tail, j);
}

/* The probes of l whose run ended: each one's place goes to the next
 * waiting job whose deadline has not come; the others are refused.  One
 * hold of the lock for all of them (and, after a step, for the loop's
 * lateness: late), so a loop
 * queues on the lock the HTTP thread and the other loops share at most
 * once a turn besides its starts: a wait there delays the loop's other
 * probes' stamps.  Their done callbacks run after it is released. */
static void hand_back_finished(struct serve_loop *l, int late)
{
  struct serve_job *fin = l->finished_head, *j, *next, *gone = NULL;
  unsigned wake = 0, i; /* the loops to wake, by index */
  int64_t now;

  if (!fin && !late)
    return;
  l->finished_head = l->finished_tail = NULL;
  now = clock_mono_us();
  hs_mutex_lock(&W.mu);
  for (j = fin; j; j = j->next) {
    struct serve_stream *st = j->stream;

    W.in_flight--;
    l->placed--;
    j->stream = NULL;
    if (--st->placed == 0)
      stream_free(st);
    while (W.wait_head && !W.draining && W.in_flight < W.cfg->max_concurrent) {
      next = pop(&W.wait_head, &W.wait_tail);
      W.waiting--;
      if (next->sp.deadline_us > now) {
        wake |= 1u << (start_locked(next) - W.loops);
        break;
      }
      next->next = gone;
      gone = next;
    }
  }
  if (late)
    engine_lateness(l->e, &l->lateness);
  pthread_mutex_unlock(&W.mu);
  if (fin)
    pthread_cond_signal(&W.cv_expiry);
  for (i = 0; wake; i++, wake >>= 1)
    if (wake & 1u)
      engine_wake(W.loops[i].e);
  for (j = fin; j; j = next) {
    next = j->next; /* done may free j (its connection's answer) */
    j->next = NULL;
    free(j->origin); /* its stream's host took it, or another's had it */
    j->origin = NULL;
    j->measured = 1;
    j->done(j);
  }
  refuse(gone, 0);
}

static void *engine_main(void *arg)
{
  struct serve_loop *l = arg;
  struct engine *e = l->e;

  for (;;) {
    struct serve_job *list = NULL, *tail = NULL, *j;
    int stop, more;
    unsigned n;

    /* A few starts at a time, then the sockets and timers that are
     * ready: a burst of thousands of probes does not hold up the ones in
     * flight for the whole burst. */
    hs_mutex_lock(&W.mu);
    for (n = 0; n < START_BATCH && (j = run_pop(l)) != NULL; n++)
      push(&list, &tail, j);
    more = l->ring_head != NULL;
    stop = W.stopping;
    pthread_mutex_unlock(&W.mu);
    while (list) {
      j = list;
      list = j->next;
      j->next = NULL;
      /* One whose deadline passed while it waited to start costs nothing
       * more: it is answered as such. */
      if (j->sp.deadline_us <= clock_mono_us()) {
        serve_probe_expired(&j->sp);
        push(&l->finished_head, &l->finished_tail, j);
        continue;
      }
      serve_probe_start(&j->sp, e, probe_done);
    }
    hand_back_finished(l, 0);
    if (stop && !more && !engine_jobs(e))
      break;
    engine_step(e, more ? 0 : -1);
    hand_back_finished(l, 1);
  }
  return NULL;
}

/* Refuse the waiting jobs whose deadline has come (all of them when
 * draining). */
static void *expiry_main(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&W.mu);
  while (!W.stopping) {
    struct serve_job *j, *prev = NULL, *gone = NULL;
    int64_t now = clock_mono_us(), next = 0;

    for (j = W.wait_head; j;) {
      struct serve_job *after = j->next;

      if (W.draining || j->sp.deadline_us <= now) {
        if (prev)
          prev->next = after;
        else
          W.wait_head = after;
        if (W.wait_tail == j)
          W.wait_tail = prev;
        W.waiting--;
        j->next = gone;
        gone = j;
      }
      else {
        if (!next || j->sp.deadline_us < next)
          next = j->sp.deadline_us;
        prev = j;
      }
      j = after;
    }
    if (gone) {
      int draining = W.draining;

      pthread_mutex_unlock(&W.mu);
      refuse(gone, draining);
      pthread_mutex_lock(&W.mu);
      continue;
    }
    if (next) {
      struct timespec ts;

      if (W.cv_mono) {
        ts.tv_sec = (time_t)(next / 1000000);
        ts.tv_nsec = (long)(next % 1000000) * 1000;
      }
      else {
        ts = clock_wall_after_us(next - clock_mono_us());
      }
      pthread_cond_timedwait(&W.cv_expiry, &W.mu, &ts);
    }
    else {
      pthread_cond_wait(&W.cv_expiry, &W.mu);
    }
  }
  pthread_mutex_unlock(&W.mu);
  return NULL;
}

/* How many processors this process may run on (its affinity: taskset, a
 * cgroup's cpuset), from /proc/self/status's Cpus_allowed_list ("0-3,6");
 * 0 when unknown. */
static long cpus_allowed(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  char line[4096];
  long n = 0;

  if (!f)
    return 0;
  while (fgets(line, sizeof(line), f)) {
    char *p = line + 18;

    if (strncmp(line, "Cpus_allowed_list:", 18))
      continue;
    while (*p) {
      char *end;
      long a, b;

      while (*p == ' ' || *p == '\t' || *p == ',')
        p++;
      if (*p < '0' || *p > '9')
        break;
      a = strtol(p, &end, 10);
      b = a;
      if (*end == '-')
        b = strtol(end + 1, &end, 10);
      if (b >= a && b - a < 65536)
        n += b - a + 1;
      p = end;
    }
    break;
  }
  fclose(f);
  return n;
}

/* How many loops: one per processor the process may run on, never more,
 * within LOOPS_MAX. */
static unsigned loops_wanted(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN), allowed = cpus_allowed();

  if (allowed > 0 && (n < 1 || allowed < n))
    n = allowed;
  if (n < 1)
    return 1;
  return n > LOOPS_MAX ? LOOPS_MAX : (unsigned)n;
}

int serve_work_start(const struct serve_config *c)
{
  unsigned want = loops_wanted(), i;
  char err[256];
  int rc;

  W.cfg = c;
  {
    /* The waiting jobs' deadlines are monotonic: so is the expiry's wait
     * (a wall clock stepped back would hold an expired job). */
    pthread_condattr_t ca;

    if (pthread_condattr_init(&ca) == 0) {
      if (pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0) {
        pthread_cond_destroy(&W.cv_expiry);
        pthread_cond_init(&W.cv_expiry, &ca);
        W.cv_mono = 1;
      }
      pthread_condattr_destroy(&ca);
    }
  }
  for (i = 0; i < want; i++) {
    struct serve_loop *l = &W.loops[i];

    l->e = engine_alloc(err, sizeof(err));
    if (!l->e) {
      serve_error("serve: %s", err);
      serve_work_stop();
      errno = EINVAL;
      return -1;
    }
    W.n_loops = i + 1;
    rc = pthread_create(&l->thread, NULL, engine_main, l);
    if (rc != 0) {
      serve_work_stop();
      errno = rc;
      return -1;
    }
    l->started = 1;
  }
  rc = pthread_create(&W.expiry, NULL, expiry_main, NULL);
  if (rc != 0) {
    serve_work_stop();
    errno = rc;
    return -1;
  }
  W.expiry_started = 1;
  return 0;
}

void serve_work_submit(struct serve_job *j)
{
  origin_parse(j);
  pthread_mutex_lock(&W.mu);
  if (W.draining) {
    pthread_mutex_unlock(&W.mu);
    j->next = NULL;
    refuse(j, 1);
    return;
  }
  if (W.in_flight < W.cfg->max_concurrent && !W.wait_head) {
    struct serve_loop *l = start_locked(j);

    pthread_mutex_unlock(&W.mu);
    engine_wake(l->e);
    return;
  }
  push(&W.wait_head, &W.wait_tail, j);
  W.waiting++;
  pthread_mutex_unlock(&W.mu);
  pthread_cond_signal(&W.cv_expiry);
}

void serve_work_drain(void)
{
  pthread_mutex_lock(&W.mu);
  W.draining = 1;
  pthread_cond_signal(&W.cv_expiry);
  pthread_mutex_unlock(&W.mu);
}

void serve_work_stop(void)
{
  unsigned i;

  pthread_mutex_lock(&W.mu);
  W.stopping = 1;
  pthread_cond_broadcast(&W.cv_expiry);
  pthread_mutex_unlock(&W.mu);
  for (i = 0; i < W.n_loops; i++) {
    struct serve_loop *l = &W.loops[i];

    if (l->started) {
      engine_wake(l->e);
      pthread_join(l->thread, NULL);
      l->started = 0;
    }
  }
  if (W.expiry_started)
    pthread_join(W.expiry, NULL);
  W.expiry_started = 0;
  for (i = 0; i < W.n_loops; i++) {
    engine_free(W.loops[i].e);
    W.loops[i].e = NULL;
  }
  W.n_loops = 0;
}

void serve_work_counts(unsigned *in_flight, unsigned *waiting)
{
  pthread_mutex_lock(&W.mu);
  *in_flight = W.in_flight;
  *waiting = W.waiting;
  pthread_mutex_unlock(&W.mu);
}

void serve_work_lateness(struct serve_lateness *out)
{
  unsigned i;

  memset(out, 0, sizeof(*out));
  pthread_mutex_lock(&W.mu);
  for (i = 0; i < W.n_loops; i++) {
    const struct engine_lateness *x = &W.loops[i].lateness;

    out->sum_us += x->sum_us;
    out->count += x->count;
    if (x->max_us > out->max_us)
      out->max_us = x->max_us;
  }
  pthread_mutex_unlock(&W.mu);
}
