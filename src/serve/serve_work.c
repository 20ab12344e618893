/*
 * serve_work.c: the probes of "hopsplit serve" between the HTTP side and
 * the measurement.  Input: jobs (one /probe request each, its plan built)
 * handed over by serve_http.c from libmicrohttpd's event thread, whose
 * connection is suspended meanwhile.  Output: each job measured, or
 * refused, then its done callback, which resumes the connection.
 *
 * Every probe is measured on one engine (engine.h): one thread runs its
 * epoll loop, on which each probe's run (runner_start) is a state machine
 * beside the others; no thread per probe.  At most --max-concurrent probes
 * are in flight on it; those with a place start in turn per target and
 * module (run_push, run_pop).  A job over the limit waits, first in first out,
 * for a place until its deadline; one still waiting then is refused (503),
 * by the expiry thread, which sleeps until the earliest deadline of the
 * waiting jobs.  While the server drains, the waiting jobs and new ones
 * are refused and the jobs in flight finish.
 *
 * The samples' strings are pooled on the engine's thread (strpool.h): the
 * pool is emptied when no probe is in flight and every measured job has
 * been rendered and released (serve_work_released); past POOL_HOLD_BYTES
 * new probes wait for that.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "engine.h"
#include "msg.h"
#include "serve_int.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/* Probes started between two turns of the engine's loop. */
#define START_BATCH 16
/* A server never idle would never empty the engine's string pool: past
 * this size no probe is started until the ones in flight are answered
 * and the pool emptied (their deadlines bound the pause). */
#define POOL_HOLD_BYTES ((size_t)64 << 20)

static struct {
  const struct serve_config *cfg;
  pthread_mutex_t mu;
  pthread_cond_t cv_expiry;                /* the waiting list changed */
  struct serve_job *wait_head, *wait_tail; /* over the limit */
  struct stream *ring_head, *ring_tail;    /* taken, for the engine */
  unsigned in_flight, waiting;
  unsigned unreleased; /* measured jobs whose samples are still read */
  int draining, stopping;
  struct engine *engine;
  struct engine_lateness lateness; /* a copy, taken after each step */
  pthread_t engine_thread, expiry;
  int engine_started, expiry_started;
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

/*
 * The jobs that have a place, for the engine's thread to start, in one
 * queue per target and module, taken in turn: a burst of thousands of
 * probes of one target does not hold up another target's probe (a live
 * target scraped meanwhile) until the whole burst has started.  The lock
 * is held for all of these.
 */
#define STREAM_BUCKETS 1024u

struct stream {
  char *target; /* streams live while they have jobs */
  const struct serve_module *module;
  struct serve_job *head, *tail;
  struct stream *hnext; /* hash chain */
  struct stream *rnext; /* ring of streams with jobs */
};

static struct stream *streams[STREAM_BUCKETS];

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

static void run_push(struct serve_job *j)
{
  const char *target = j->sp.target ? j->sp.target : "";
  unsigned b = stream_hash(target, j->sp.module);
  struct stream *st;

  for (st = streams[b]; st; st = st->hnext)
    if (st->module == j->sp.module && strcmp(st->target, target) == 0)
      break;
  if (!st) {
    st = xcalloc(1, sizeof(*st));
    st->target = xstrdup(target);
    st->module = j->sp.module;
    st->hnext = streams[b];
    streams[b] = st;
    if (W.ring_tail)
      W.ring_tail->rnext = st;
    else
      W.ring_head = st;
    W.ring_tail = st;
  }
  push(&st->head, &st->tail, j);
}

static struct serve_job *run_pop(void)
{
  struct stream *st = W.ring_head, **pp;
  struct serve_job *j;

  if (!st)
    return NULL;
  j = pop(&st->head, &st->tail);
  W.ring_head = st->rnext;
  if (!W.ring_head)
    W.ring_tail = NULL;
  st->rnext = NULL;
  if (st->head) {
    /* Its next job waits for the other streams' turn. */
    if (W.ring_tail)
      W.ring_tail->rnext = st;
    else
      W.ring_head = st;
    W.ring_tail = st;
    return j;
  }
  /* Empty: it goes. */
  for (pp = &streams[stream_hash(st->target, st->module)]; *pp;
       pp = &(*pp)->hnext)
    if (*pp == st) {
      *pp = st->hnext;
      break;
    }
  free(st->target);
  free(st);
  return j;
}

/* Take a place for j (the lock held); the engine's thread starts it. */
static void start_locked(struct serve_job *j)
{
  W.in_flight++;
  W.unreleased++;
  run_push(j);
  engine_wake(W.engine);
}

/* Refuse the jobs of the list (the lock not held). */
static void refuse(struct serve_job *gone, int draining)
{
  while (gone) {
    struct serve_job *j = gone;

    gone = j->next;
    j->rejected = 1;
    j->draining = draining;
    j->done(j);
  }
}

/* Jobs whose run ended in the current engine_step (engine's thread
 * only): handed back after the step, when the runner holds nothing of
 * them any more. */
static struct serve_job *finished_head, *finished_tail;

static void probe_done(struct serve_probe *sp)
{
  struct serve_job *j =
      (struct serve_job *)(void *)((char *)sp -
                                   offsetof(struct serve_job, sp));

  push(&finished_head, &finished_tail, j);
}

/* A probe's run ended: its place goes to the next waiting job whose
 * deadline has not come; the others are refused. */
static void hand_back(struct serve_job *j)
{
  struct serve_job *next, *gone = NULL;
  int64_t now = clock_mono_us();

  pthread_mutex_lock(&W.mu);
  W.in_flight--;
  while (W.wait_head && !W.draining && W.in_flight < W.cfg->max_concurrent) {
    next = pop(&W.wait_head, &W.wait_tail);
    W.waiting--;
    if (next->sp.deadline_us > now) {
      start_locked(next);
      break;
    }
    next->next = gone;
    gone = next;
  }
  pthread_cond_signal(&W.cv_expiry);
  pthread_mutex_unlock(&W.mu);
  j->measured = 1;
  j->done(j);
  refuse(gone, 0);
}

static void *engine_main(void *arg)
{
  struct engine *e = arg;

  for (;;) {
    struct serve_job *list = NULL, *tail = NULL, *j;
    int stop, release, more, hold;
    unsigned n;

    /* A few starts at a time, then the sockets and timers that are
     * ready: a burst of thousands of probes does not hold up the ones in
     * flight for the whole burst. */
    hold = strpool_bytes() > POOL_HOLD_BYTES;
    pthread_mutex_lock(&W.mu);
    for (n = 0; !hold && n < START_BATCH && (j = run_pop()) != NULL; n++)
      push(&list, &tail, j);
    more = W.ring_head != NULL && !hold;
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
        push(&finished_head, &finished_tail, j);
        continue;
      }
      serve_probe_start(&j->sp, e, probe_done);
    }
    while ((j = pop(&finished_head, &finished_tail)) != NULL)
      hand_back(j);
    if (stop && !more && !engine_jobs(e))
      break;
    engine_step(e, more ? 0 : -1);
    while ((j = pop(&finished_head, &finished_tail)) != NULL)
      hand_back(j);
    pthread_mutex_lock(&W.mu);
    engine_lateness(e, &W.lateness);
    release = !W.unreleased && !W.ring_head;
    pthread_mutex_unlock(&W.mu);
    if (release && !engine_jobs(e) && strpool_count())
      strpool_release_all();
  }
  strpool_release_all();
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
      struct timespec ts = clock_wall_after_us(next - clock_mono_us());

      pthread_cond_timedwait(&W.cv_expiry, &W.mu, &ts);
    }
    else {
      pthread_cond_wait(&W.cv_expiry, &W.mu);
    }
  }
  pthread_mutex_unlock(&W.mu);
  return NULL;
}

int serve_work_start(const struct serve_config *c)
{
  char err[256];
  int rc;

  W.cfg = c;
  W.engine = engine_alloc(err, sizeof(err));
  if (!W.engine) {
    msg_error("serve: %s", err);
    errno = EINVAL;
    return -1;
  }
  rc = pthread_create(&W.engine_thread, NULL, engine_main, W.engine);
  if (rc != 0) {
    engine_free(W.engine);
    W.engine = NULL;
    errno = rc;
    return -1;
  }
  W.engine_started = 1;
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
  pthread_mutex_lock(&W.mu);
  if (W.draining) {
    pthread_mutex_unlock(&W.mu);
    j->next = NULL;
    refuse(j, 1);
    return;
  }
  if (W.in_flight < W.cfg->max_concurrent && !W.wait_head) {
    start_locked(j);
  }
  else {
    push(&W.wait_head, &W.wait_tail, j);
    W.waiting++;
    pthread_cond_signal(&W.cv_expiry);
  }
  pthread_mutex_unlock(&W.mu);
}

void serve_work_released(void)
{
  int wake;

  pthread_mutex_lock(&W.mu);
  W.unreleased--;
  wake = !W.unreleased;
  pthread_mutex_unlock(&W.mu);
  if (wake)
    engine_wake(W.engine);
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
  pthread_mutex_lock(&W.mu);
  W.stopping = 1;
  pthread_cond_broadcast(&W.cv_expiry);
  pthread_mutex_unlock(&W.mu);
  if (W.engine_started) {
    engine_wake(W.engine);
    pthread_join(W.engine_thread, NULL);
    W.engine_started = 0;
  }
  if (W.expiry_started)
    pthread_join(W.expiry, NULL);
  W.expiry_started = 0;
  if (W.engine)
    engine_free(W.engine);
  W.engine = NULL;
}

void serve_work_counts(unsigned *in_flight, unsigned *waiting)
{
  pthread_mutex_lock(&W.mu);
  *in_flight = W.in_flight;
  *waiting = W.waiting;
  pthread_mutex_unlock(&W.mu);
}

void serve_work_lateness(struct engine_lateness *out)
{
  pthread_mutex_lock(&W.mu);
  *out = W.lateness;
  pthread_mutex_unlock(&W.mu);
}
