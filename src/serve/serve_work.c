/*
 * serve_work.c: the probes of "hopsplit serve" between the HTTP side and
 * the measurement.  Input: jobs (one /probe request each) handed over by
 * serve_http.c from libmicrohttpd's event thread, whose connection is
 * suspended meanwhile.  Output: each job's answer (the metrics text, or a
 * 503), then its done callback, which resumes the connection.
 *
 * At most --max-concurrent probes measure at once.  A job over the limit
 * waits, first in first out, for a place until its deadline; one still
 * waiting then is answered 503 (by the expiry thread, which sleeps until
 * the earliest deadline of the waiting jobs).  While the server drains,
 * the waiting jobs and new ones are answered 503 and the jobs under way
 * finish.
 *
 * The measuring itself runs on a small fixed pool of threads, each probe
 * measured and rendered on one of them (the string pool is per thread and
 * emptied after each probe).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msg.h"
#include "serve_int.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

#define POOL_MAX 32

static struct {
  const struct serve_config *cfg;
  pthread_mutex_t mu;
  pthread_cond_t cv_run;                   /* a job is ready for the pool */
  pthread_cond_t cv_expiry;                /* the waiting list changed */
  struct serve_job *wait_head, *wait_tail; /* over the limit */
  struct serve_job *run_head, *run_tail;   /* taken, for the pool */
  unsigned in_flight, waiting;
  int draining, stopping;
  pthread_t pool[POOL_MAX], expiry;
  unsigned n_pool;
  int expiry_started;
} W = {.mu = PTHREAD_MUTEX_INITIALIZER,
       .cv_run = PTHREAD_COND_INITIALIZER,
       .cv_expiry = PTHREAD_COND_INITIALIZER};

static int64_t mono_us(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* An answer that is not a measurement: text/plain with status. */
static void answer_text(struct serve_job *j, unsigned status, const char *text,
                        int close)
{
  j->status = status;
  j->ctype = SERVE_CT_TEXT;
  j->body = xstrdup(text);
  j->len = strlen(text);
  j->close = close;
}

static void reject(struct serve_job *j, int draining)
{
  char msg[160];

  if (draining) {
    answer_text(j, 503, "hopsplit serve is shutting down\n", 1);
    return;
  }
  snprintf(msg, sizeof(msg),
           "too many probes under way (--max-concurrent %u) until the "
           "deadline\n",
           W.cfg->max_concurrent);
  answer_text(j, 503, msg, 0);
  j->rejected = 1;
}

/* Measure j and render its answer (on a pool thread). */
static void measure(struct serve_job *j)
{
  const struct serve_config *c = W.cfg;
  struct serve_probe sp;
  struct buf out;

  serve_probe_run(&sp, c, j->module, j->target,
                  (double)(j->deadline_us - mono_us()) / 1e6, j->debug);
  buf_init(&out, 0);
  if (j->debug)
    serve_probe_debug(&sp, c, &out);
  else
    serve_probe_metrics(&sp, c, &out);
  j->measured = 1;
  j->success = sp.success;
  j->unknown_module = !sp.module;
  j->duration_us = sp.duration_us;
  if (msg_verbosity > 0) {
    char *shown = url_redact(sp.target);

    if (sp.success)
      msg_info("probe %s (module %s, budget %.3f s): success in %.3f s", shown,
               sp.module_name, sp.budget_s, (double)sp.duration_us / 1e6);
    else
      msg_info("probe %s (module %s, budget %.3f s): failed in %.3f s: %s",
               shown, sp.module_name, sp.budget_s,
               (double)sp.duration_us / 1e6, sp.reason ? sp.reason : "");
    free(shown);
  }
  serve_probe_release(&sp);
  j->status = 200;
  j->ctype = j->debug ? SERVE_CT_TEXT : SERVE_CT_PROM;
  j->len = out.len;
  j->body = buf_detach(&out);
}

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

/* Take a place for j (the lock held). */
static void start_locked(struct serve_job *j)
{
  W.in_flight++;
  push(&W.run_head, &W.run_tail, j);
  pthread_cond_signal(&W.cv_run);
}

static void *pool_main(void *arg)
{
  (void)arg;
  for (;;) {
    struct serve_job *j, *next, *gone;

    pthread_mutex_lock(&W.mu);
    while (!W.run_head && !W.stopping)
      pthread_cond_wait(&W.cv_run, &W.mu);
    j = pop(&W.run_head, &W.run_tail);
    pthread_mutex_unlock(&W.mu);
    if (!j)
      return NULL;
    measure(j);
    pthread_mutex_lock(&W.mu);
    W.in_flight--;
    /* The place goes to the next waiting job whose deadline has not
     * come; the others are answered 503 here. */
    gone = NULL;
    while (W.wait_head && !W.draining && W.in_flight < W.cfg->max_concurrent) {
      next = pop(&W.wait_head, &W.wait_tail);
      W.waiting--;
      if (next->deadline_us > mono_us()) {
        start_locked(next);
        break;
      }
      next->next = gone;
      gone = next;
    }
    pthread_cond_signal(&W.cv_expiry);
    pthread_mutex_unlock(&W.mu);
    j->done(j);
    while (gone) {
      next = gone;
      gone = next->next;
      reject(next, 0);
      next->done(next);
    }
  }
}

/* Answer 503 to the waiting jobs whose deadline has come (all of them
 * when draining). */
static void *expiry_main(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&W.mu);
  while (!W.stopping) {
    struct serve_job *j, *prev = NULL, *gone = NULL;
    int64_t now = mono_us(), next = 0;

    for (j = W.wait_head; j;) {
      struct serve_job *after = j->next;

      if (W.draining || j->deadline_us <= now) {
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
        if (!next || j->deadline_us < next)
          next = j->deadline_us;
        prev = j;
      }
      j = after;
    }
    if (gone) {
      int draining = W.draining;

      pthread_mutex_unlock(&W.mu);
      while (gone) {
        j = gone;
        gone = j->next;
        reject(j, draining);
        j->done(j);
      }
      pthread_mutex_lock(&W.mu);
      continue;
    }
    if (next) {
      struct timespec ts;
      int64_t left = next - mono_us();

      if (left < 0)
        left = 0;
      clock_gettime(CLOCK_REALTIME, &ts);
      ts.tv_sec += (time_t)(left / 1000000);
      ts.tv_nsec += (long)(left % 1000000) * 1000;
      if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
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

int serve_work_start(const struct serve_config *c)
{
  unsigned i;

  W.cfg = c;
  W.n_pool = c->max_concurrent < POOL_MAX ? c->max_concurrent : POOL_MAX;
  for (i = 0; i < W.n_pool; i++)
    if (pthread_create(&W.pool[i], NULL, pool_main, NULL) != 0) {
      W.n_pool = i;
      serve_work_stop();
      return -1;
    }
  if (pthread_create(&W.expiry, NULL, expiry_main, NULL) != 0) {
    serve_work_stop();
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
    reject(j, 1);
    j->done(j);
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
  pthread_cond_broadcast(&W.cv_run);
  pthread_cond_broadcast(&W.cv_expiry);
  pthread_mutex_unlock(&W.mu);
  for (i = 0; i < W.n_pool; i++)
    pthread_join(W.pool[i], NULL);
  W.n_pool = 0;
  if (W.expiry_started)
    pthread_join(W.expiry, NULL);
  W.expiry_started = 0;
}

void serve_work_counts(unsigned *in_flight, unsigned *waiting)
{
  pthread_mutex_lock(&W.mu);
  *in_flight = W.in_flight;
  *waiting = W.waiting;
  pthread_mutex_unlock(&W.mu);
}
