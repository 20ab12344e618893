/*
 * engine.c: the event loop of the probe (engine.h).  Input: descriptors,
 * timers and deferred tasks registered by libcurl multi handles (one per
 * client), c-ares channels and the caller.  Output: their handlers run
 * when ready, and the loop's account of its own lateness: for every
 * socket event and every timer, how late its handling began, the largest
 * of them per sample (sample.interference_us).
 *
 * One epoll descriptor, an eventfd for wake-ups, a binary heap of timers
 * (one per multi handle and per lookup under way: thousands in serve) and
 * a queue of tasks.
 *
 * Lateness.  A timer is late by its handling's start minus its due time.
 * A socket's readiness is not stamped by the kernel, so the loop bounds
 * it: each step first polls without waiting; what that returns may have
 * become ready at any moment since the previous poll that returned
 * everything ready (fewer than EVENTS_MAX events), or since its events
 * were asked for if that is later, so its lateness is counted from
 * there.  When nothing was ready, the loop waits, and what wakes it
 * became ready during the wait: counted from the wait's return.  The
 * wait is timed to the microsecond (epoll_pwait2) with the thread's timer
 * slack at 1 us, so that a quiet loop is not late by its own rounding.
 * Ready descriptors wait in one queue per group (engine_job.group: the
 * origin of the sample's target), and the groups with some take turns,
 * one descriptor each, for at most STEP_BUDGET_US a step: one origin's
 * burst does not hold up another's socket.  A descriptor waiting for its
 * turn keeps the earliest moment it may have become ready.
 * A sample's figure counts from the later of that moment and the end of
 * its own previous handler (socket, timer or deferred task): its own
 * work delays its stamps as it would in any one-at-a-time client, and is
 * not interference.  Deferred tasks are the samples' next steps, not
 * stamps: their own lateness is not measured.
 *
 * For tests only: HOPSPLIT_TEST_INTERFERENCE_US=N (a whole number of
 * microseconds, read when an engine is made) adds N to every sample's
 * figure, so that what follows a flagged sample (--parallel's cap) can be
 * checked without a machine that is busy on cue.  hopsplit(1) documents
 * it under ENVIRONMENT; any other value is ignored.
 */
#include <curl/curl.h>
#include <sys/prctl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "curl_api_int.h"
#include "url.h"
#include "engine_int.h"
#include "msg.h"
#include "probe.h"
#include "sample.h"
#include "stall.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

struct engine *volatile engine_current;

/* What the loop knows of a descriptor it watches. */
struct watch {
  engine_fd_cb cb;
  void *ud;
  struct engine_job *const *owner;
  unsigned events;
  int64_t since; /* when these events were asked for */
  /* Ready, waiting for its group's turn (kept when it is unwatched: the
   * queue is walked past it). */
  unsigned pending; /* ENGINE_* bits seen ready, 0: nothing to handle */
  int64_t ready;    /* the earliest it may have become ready */
  int queued;       /* in its group's queue */
  int qnext;        /* the next descriptor of that queue, -1 none */
};

/* The ready descriptors of one group, first in first out; the groups
 * with some take turns (a ring).  Slots are reused through a free list;
 * indexes, since the table grows. */
struct group_q {
  uint64_t key;
  int head, tail; /* descriptors, -1 none */
  int hnext;      /* hash chain, or the free list */
  int rnext;      /* the ring */
};
#define GROUP_BUCKETS 256u

struct engine {
  int ep;
  int wake_fd;
  int woken;             /* the wake-up descriptor was read in this step */
  struct watch *watches; /* by descriptor */
  size_t n_watches;
  struct engine_timer **timers;
  size_t n_timers, cap_timers;
  struct engine_task *head, *tail;
  struct engine_hook hooks; /* list head */
  int interrupt_seen;
  size_t holds;
  /* The return of the last poll that gave every ready descriptor: what
   * a poll without waiting finds ready became so after it. */
  int64_t ready_ref;
  int no_pwait2; /* epoll_pwait2 is not in this kernel */
  /* The job whose handler runs now (NULL: none, or it ended meanwhile),
   * and the owner pointer it was reached through. */
  struct engine_job *cur;
  struct engine_job *const *cur_owner;
  /* The thread's arena before the current handler's job set its own. */
  struct arena *arena_was;
  int arena_set;
  struct engine_lateness late;
  int64_t test_extra_us; /* HOPSPLIT_TEST_INTERFERENCE_US */
  int64_t test_own_us;   /* HOPSPLIT_TEST_HANDLER_US */
  /* /proc/thread-self/schedstat of the loop's thread (ss_thread: the
   * thread that made the engine, then the one that runs its steps), -1
   * not readable. */
  int ss_fd;
  pthread_t ss_thread;
  struct group_q *groups;
  size_t n_groups, cap_groups;
  int group_free;                  /* free slots, chained by hnext */
  int group_bucket[GROUP_BUCKETS]; /* -1 empty */
  int ring_head, ring_tail;        /* groups with ready descriptors */
};

struct engine_multi {
  struct engine *e;
  const struct curl_api *api; /* the library m belongs to */
  CURLM *m;
  struct engine_timer timer;
  struct engine_job *const *owner;
  engine_done_fn done;
  void *ud;
  struct engine_hook hook;
};

/* The engine whose loop runs on this thread (set by engine_step). */
static _Thread_local struct engine *engine_here;

/* A test hook as test_extra reads one: a whole number from 0 to 10^9 in
 * the variable name, else 0. */
static int64_t test_env(const char *name);

/* HOPSPLIT_TEST_INTERFERENCE_US, or 0 when unset or not a whole number
 * from 0 to 10^9. */
static int64_t test_extra(void)
{
  return test_env("HOPSPLIT_TEST_INTERFERENCE_US");
}

static int64_t test_env(const char *name)
{
  const char *v = getenv(name);
  char *end;
  long long n;

  if (!v || !*v)
    return 0;
  errno = 0;
  n = strtoll(v, &end, 10);
  if (errno || *end || n < 0 || n > 1000000000LL)
    return 0;
  return (int64_t)n;
}

struct engine *engine_alloc(char *err, size_t errlen)
{
  struct engine *e = xcalloc(1, sizeof(*e));
  struct epoll_event ev;
  size_t i;

  e->test_extra_us = test_extra();
  e->test_own_us = test_env("HOPSPLIT_TEST_HANDLER_US");
  e->ss_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  e->ss_thread = pthread_self();
  e->hooks.next = e->hooks.prev = &e->hooks;
  e->group_free = e->ring_head = e->ring_tail = -1;
  for (i = 0; i < GROUP_BUCKETS; i++)
    e->group_bucket[i] = -1;
  e->ready_ref = clock_mono_us();
  e->ep = epoll_create1(EPOLL_CLOEXEC);
  e->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (e->ep < 0 || e->wake_fd < 0) {
    snprintf(err, errlen, "cannot create the event loop: %s", strerror(errno));
    goto fail;
  }
  memset(&ev, 0, sizeof(ev));
  ev.events = EPOLLIN;
  ev.data.fd = e->wake_fd;
  if (epoll_ctl(e->ep, EPOLL_CTL_ADD, e->wake_fd, &ev) < 0) {
    snprintf(err, errlen, "cannot watch the wake-up descriptor: %s",
             strerror(errno));
    goto fail;
  }
  return e;
fail:
  if (e->ss_fd >= 0)
    close(e->ss_fd);
  if (e->ep >= 0)
    close(e->ep);
  if (e->wake_fd >= 0)
    close(e->wake_fd);
  free(e);
  return NULL;
}

void engine_free(struct engine *e)
{
  if (!e)
    return;
  if (e->ss_fd >= 0)
    close(e->ss_fd);
  if (engine_here == e)
    engine_here = NULL;
  if (engine_current == e)
    engine_current = NULL;
  close(e->ep);
  close(e->wake_fd);
  free(e->watches);
  free(e->timers);
  free(e->groups);
  free(e);
}

void engine_wake(struct engine *e)
{
  uint64_t one = 1;
  ssize_t n;

  n = write(e->wake_fd, &one, sizeof(one));
  (void)n; /* a full counter wakes the loop all the same */
}

size_t engine_jobs(const struct engine *e)
{
  return e->holds;
}

void engine_hold(struct engine *e)
{
  e->holds++;
}

void engine_unhold(struct engine *e)
{
  if (!e->holds)
    BUG("engine_unhold without a hold");
  e->holds--;
}

void engine_lateness(const struct engine *e, struct engine_lateness *out)
{
  *out = e->late;
}

/* The loop thread's time waiting on a run queue so far (schedstat's
 * second field, ns), or -1 off the loop's thread or without it. */
static int64_t runq_ns(struct engine *e)
{
  char b[96];
  ssize_t n;
  unsigned long long run, wait;

  if (e->ss_fd < 0 || !pthread_equal(e->ss_thread, pthread_self()))
    return -1;
  n = pread(e->ss_fd, b, sizeof(b) - 1, 0);
  if (n <= 0)
    return -1;
  b[n] = '\0';
  if (sscanf(b, "%llu %llu", &run, &wait) != 2)
    return -1;
  return (int64_t)wait;
}

int64_t engine_own_begin(void)
{
  struct engine *e = engine_here;

  return e && e->cur ? clock_mono_us() : 0;
}

void engine_own_end(int64_t t0)
{
  struct engine *e = engine_here;
  int64_t now;

  if (!t0 || !e || !e->cur)
    return;
  now = clock_mono_us();
  if (e->test_own_us) {
    /* The test hook: this much more own work, spent here. */
    int64_t until = now + e->test_own_us;

    while ((now = clock_mono_us()) < until)
      ;
  }
  e->cur->own_us += now - t0;
}

void engine_job_begin(struct engine *e, struct engine_job *j)
{
  j->max_late_us = 0;
  j->own_end_us = clock_mono_us();
  j->late_us = 0;
  j->own_us = 0;
  j->runq_us = -1;
  j->lock_us = -1;
  j->output_us = -1;
  j->output_bytes = 0;
  j->runq0_ns = runq_ns(e);
  j->thread = pthread_self();
  j->lock0_ns = stall_lock_ns();
  j->outt0_ns = stall_output_ns();
  j->out0 = msg_written_total();
  j->active = 1;
  /* Begun inside a handler of its own: that handler is its work. */
  if (e->cur_owner && *e->cur_owner == j)
    e->cur = j;
}

int64_t engine_job_end(struct engine *e, struct engine_job *j)
{
  if (!j->active)
    return 0;
  j->active = 0;
  if (j->runq0_ns >= 0) {
    int64_t now = runq_ns(e);

    j->runq_us = now >= j->runq0_ns ? (now - j->runq0_ns) / 1000 : -1;
  }
  j->output_bytes = (int64_t)(msg_written_total() - j->out0);
  /* The thread's own figures, when it began on this thread (a loop's
   * jobs begin and end on its thread). */
  if (pthread_equal(j->thread, pthread_self())) {
    j->lock_us = (stall_lock_ns() - j->lock0_ns) / 1000;
    j->output_us = (stall_output_ns() - j->outt0_ns) / 1000;
  }
  j->late_us = j->max_late_us + e->test_extra_us;
  /* Ending inside its own handler: nothing of it is read afterwards (the
   * job may be freed). */
  if (e->cur == j) {
    e->cur = NULL;
    e->cur_owner = NULL;
  }
  return sample_interference_sum(j->late_us, j->own_us, j->lock_us,
                                 j->output_us);
}

/* The handler that follows is j's (or no job's): j's strings go to its
 * own arena until handler_end. */
static void arena_enter(struct engine *e, const struct engine_job *j)
{
  if (j && j->arena) {
    e->arena_was = strpool_use(j->arena);
    e->arena_set = 1;
  }
}

/* A socket event or timer of owner that was ready (due) at ready is
 * handled now: its lateness goes to the loop's figures and, while its
 * job is in flight, to the job's largest, counted from the end of the
 * job's own previous handling if that is later (its own work is not
 * interference).  The handler that follows is the job's work. */
static void handler_begin(struct engine *e, struct engine_job *const *owner,
                          int64_t ready)
{
  struct engine_job *j = owner ? *owner : NULL;
  int64_t now = clock_mono_us(), late = now - ready;

  if (late < 0)
    late = 0;
  e->late.sum_us += late;
  if (late > e->late.max_us)
    e->late.max_us = late;
  e->late.count++;
  e->cur = j && j->active ? j : NULL;
  e->cur_owner = owner;
  arena_enter(e, j);
  if (e->cur) {
    late = now - (ready > j->own_end_us ? ready : j->own_end_us);
    if (late > j->max_late_us)
      j->max_late_us = late;
  }
}

/* The handler ended: when its job is still in flight, its own work ends
 * now.  A deferred task is handled the same way, without lateness (it is
 * the job's next step, not a stamp). */
static void handler_end(struct engine *e)
{
  if (e->cur)
    e->cur->own_end_us = clock_mono_us();
  e->cur = NULL;
  e->cur_owner = NULL;
  if (e->arena_set) {
    strpool_use(e->arena_was);
    e->arena_set = 0;
  }
}

/* ---- timers: a binary heap on due, slot = index + 1 ---- */

static void heap_put(struct engine *e, size_t i, struct engine_timer *t)
{
  e->timers[i] = t;
  t->slot = i + 1;
}

/* Move the timer at i towards the root, then towards the leaves, to its
 * place. */
static void heap_fix(struct engine *e, size_t i)
{
  struct engine_timer *t = e->timers[i];

  while (i > 0) {
    size_t up = (i - 1) / 2;

    if (e->timers[up]->due <= t->due)
      break;
    heap_put(e, i, e->timers[up]);
    i = up;
  }
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    int64_t d = t->due;

    if (l < e->n_timers && e->timers[l]->due < d) {
      m = l;
      d = e->timers[l]->due;
    }
    if (r < e->n_timers && e->timers[r]->due < d)
      m = r;
    if (m == i)
      break;
    heap_put(e, i, e->timers[m]);
    i = m;
  }
  heap_put(e, i, t);
}

void engine_timer_set(struct engine *e, struct engine_timer *t, int64_t due,
                      void (*fn)(void *), void *ud,
                      struct engine_job *const *owner)
{
  t->due = due;
  t->fn = fn;
  t->ud = ud;
  t->owner = owner;
  if (!t->slot) {
    e->timers =
        xgrow(e->timers, &e->cap_timers, e->n_timers + 1, sizeof(*e->timers));
    heap_put(e, e->n_timers++, t);
  }
  heap_fix(e, t->slot - 1);
}

void engine_timer_stop(struct engine *e, struct engine_timer *t)
{
  size_t i = t->slot;

  if (!i)
    return;
  t->slot = 0;
  if (--e->n_timers == i - 1)
    return;
  heap_put(e, i - 1, e->timers[e->n_timers]);
  heap_fix(e, i - 1);
}

/* The earliest due time, or -1 when no timer is armed. */
static int64_t next_due(const struct engine *e)
{
  return e->n_timers ? e->timers[0]->due : -1;
}

/* ---- deferred tasks ---- */

void engine_defer(struct engine *e, struct engine_task *t, void (*fn)(void *),
                  void *ud, struct engine_job *const *owner)
{
  if (t->queued)
    return;
  t->fn = fn;
  t->ud = ud;
  t->owner = owner;
  t->next = NULL;
  t->queued = 1;
  if (e->tail)
    e->tail->next = t;
  else
    e->head = t;
  e->tail = t;
}

void engine_cancel(struct engine *e, struct engine_task *t)
{
  struct engine_task **pp, *prev = NULL;

  if (!t->queued)
    return;
  for (pp = &e->head; *pp; prev = *pp, pp = &(*pp)->next) {
    if (*pp == t) {
      *pp = t->next;
      if (e->tail == t)
        e->tail = prev;
      break;
    }
  }
  t->queued = 0;
}

/* Run every queued task, also those queued meanwhile.  Bounded by the work
 * of the state machines: each task moves one of them on. */
static void run_tasks(struct engine *e)
{
  while (e->head) {
    struct engine_task *t = e->head;

    e->head = t->next;
    if (!e->head)
      e->tail = NULL;
    t->queued = 0;
    /* t may be gone after fn: nothing of it is read then. */
    {
      struct engine_job *j = t->owner ? *t->owner : NULL;

      e->cur = j && j->active ? j : NULL;
      e->cur_owner = t->owner;
      arena_enter(e, j);
    }
    t->fn(t->ud);
    handler_end(e);
  }
}

/* ---- interrupt hooks ---- */

void engine_hook_add(struct engine *e, struct engine_hook *h,
                     void (*fn)(void *), void *ud)
{
  h->fn = fn;
  h->ud = ud;
  h->next = e->hooks.next;
  h->prev = &e->hooks;
  e->hooks.next->prev = h;
  e->hooks.next = h;
}

void engine_hook_remove(struct engine *e, struct engine_hook *h)
{
  (void)e;
  if (!h->next)
    return;
  h->prev->next = h->next;
  h->next->prev = h->prev;
  h->next = h->prev = NULL;
}

static void run_hooks(struct engine *e)
{
  struct engine_hook *h = e->hooks.next;

  /* A hook may remove itself (and only itself) from the list. */
  while (h != &e->hooks) {
    struct engine_hook *next = h->next;

    h->fn(h->ud);
    h = next;
  }
}

/* ---- descriptors ---- */

int engine_watch_owned(struct engine *e, int fd, unsigned events,
                       engine_fd_cb cb, void *ud,
                       struct engine_job *const *owner)
{
  struct epoll_event ev;
  struct watch *w;
  int was;

  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  if ((size_t)fd >= e->n_watches) {
    size_t n = (size_t)fd + 64;

    e->watches = xrealloc(e->watches, n * sizeof(*e->watches));
    memset(e->watches + e->n_watches, 0,
           (n - e->n_watches) * sizeof(*e->watches));
    e->n_watches = n;
  }
  w = &e->watches[fd];
  was = w->events != 0;
  memset(&ev, 0, sizeof(ev));
  ev.data.fd = fd;
  if (!events) {
    int queued = w->queued, qnext = w->qnext;

    if (was)
      (void)epoll_ctl(e->ep, EPOLL_CTL_DEL, fd, &ev);
    memset(w, 0, sizeof(*w));
    w->queued = queued;
    w->qnext = qnext;
    return 0;
  }
  ev.events = ((events & ENGINE_IN) ? EPOLLIN : 0u) |
              ((events & ENGINE_OUT) ? EPOLLOUT : 0u);
  /* The table may be stale: a descriptor closed without being unwatched
   * leaves epoll by itself, and its number comes back for a new one. */
  if (epoll_ctl(e->ep, was ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &ev) < 0) {
    if (!(was && errno == ENOENT &&
          epoll_ctl(e->ep, EPOLL_CTL_ADD, fd, &ev) == 0) &&
        !(!was && errno == EEXIST &&
          epoll_ctl(e->ep, EPOLL_CTL_MOD, fd, &ev) == 0))
      return -1;
  }
  w->cb = cb;
  w->ud = ud;
  w->owner = owner;
  w->events = events;
  w->since = clock_mono_us();
  return 0;
}

int engine_watch(struct engine *e, int fd, unsigned events, engine_fd_cb cb,
                 void *ud)
{
  return engine_watch_owned(e, fd, events, cb, ud, NULL);
}

/* ---- groups: ready descriptors handled in turn ---- */

uint64_t engine_group_key(const char *url)
{
  char *origin = url_origin(url);
  const unsigned char *c = (const unsigned char *)(origin ? origin : url);
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */

  for (; c && *c; c++)
    h = (h ^ *c) * 1099511628211ULL;
  free(origin);
  return h ? h : 1;
}

/* The slot of group key, made (not in the ring) if it has none. */
static int group_get(struct engine *e, uint64_t key)
{
  unsigned b = (unsigned)(key % GROUP_BUCKETS);
  int g;

  for (g = e->group_bucket[b]; g >= 0; g = e->groups[g].hnext)
    if (e->groups[g].key == key)
      return g;
  if (e->group_free >= 0) {
    g = e->group_free;
    e->group_free = e->groups[g].hnext;
  }
  else {
    e->groups =
        xgrow(e->groups, &e->cap_groups, e->n_groups + 1, sizeof(*e->groups));
    g = (int)e->n_groups++;
  }
  e->groups[g].key = key;
  e->groups[g].head = e->groups[g].tail = -1;
  e->groups[g].rnext = -1;
  e->groups[g].hnext = e->group_bucket[b];
  e->group_bucket[b] = g;
  return g;
}

/* Group g has nothing ready any more: its slot is free. */
static void group_drop(struct engine *e, int g)
{
  int *pp = &e->group_bucket[e->groups[g].key % GROUP_BUCKETS];

  while (*pp >= 0 && *pp != g)
    pp = &e->groups[*pp].hnext;
  if (*pp == g)
    *pp = e->groups[g].hnext;
  e->groups[g].hnext = e->group_free;
  e->group_free = g;
}

static void ring_push(struct engine *e, int g)
{
  e->groups[g].rnext = -1;
  if (e->ring_tail >= 0)
    e->groups[e->ring_tail].rnext = g;
  else
    e->ring_head = g;
  e->ring_tail = g;
}

/* fd was seen ready for got, at the earliest at ready: it waits for its
 * group's turn (once, however often it is seen before). */
static void enqueue(struct engine *e, int fd, unsigned got, int64_t ready)
{
  struct watch *w = &e->watches[fd];
  const struct engine_job *j = w->owner ? *w->owner : NULL;
  int g;

  if (w->pending && ready > w->ready)
    ready = w->ready;
  w->pending |= got;
  w->ready = ready;
  if (w->queued)
    return;
  g = group_get(e, j ? j->group : 0);
  w->queued = 1;
  w->qnext = -1;
  if (e->groups[g].tail >= 0) {
    e->watches[e->groups[g].tail].qnext = fd;
  }
  else {
    e->groups[g].head = fd;
    ring_push(e, g);
  }
  e->groups[g].tail = fd;
}

/* The next ready descriptor in turn, or -1: the first of the group whose
 * turn it is, and that group to the end of the ring. */
static int dequeue(struct engine *e)
{
  int g = e->ring_head, fd;
  struct group_q *q;

  if (g < 0)
    return -1;
  q = &e->groups[g];
  e->ring_head = q->rnext;
  if (e->ring_head < 0)
    e->ring_tail = -1;
  fd = q->head;
  q->head = e->watches[fd].qnext;
  e->watches[fd].queued = 0;
  if (q->head >= 0) {
    ring_push(e, g);
  }
  else {
    q->tail = -1;
    group_drop(e, g);
  }
  return fd;
}

/* ---- the loop ---- */

#define EVENTS_MAX 256
/* A step handles ready descriptors for at most this long, then looks
 * again for what became ready (another group's turn may have come). */
#define STEP_BUDGET_US 2000

/* Wait for events at most timeout_us (negative: no limit), to the
 * microsecond where the kernel can. */
static int poll_wait(struct engine *e, struct epoll_event *evs,
                     int64_t timeout_us)
{
  int ms;

#ifdef HAVE_EPOLL_PWAIT2
  if (!e->no_pwait2) {
    struct timespec ts;
    int n;

    ts.tv_sec = (time_t)(timeout_us / 1000000);
    ts.tv_nsec = (long)(timeout_us % 1000000) * 1000;
    n = epoll_pwait2(e->ep, evs, EVENTS_MAX, timeout_us < 0 ? NULL : &ts,
                     NULL);
    if (n >= 0 || errno != ENOSYS)
      return n;
    e->no_pwait2 = 1;
  }
#endif
  /* epoll_wait counts milliseconds: round up, so that a timer is never
   * handled early (libcurl would find nothing due and ask again). */
  ms = timeout_us < 0 ? -1 : (int)((timeout_us + 999) / 1000);
  return epoll_wait(e->ep, evs, EVENTS_MAX, ms);
}

/* Queue what evs[0..n) reports, each ready since ref at the earliest. */
static void take(struct engine *e, const struct epoll_event *evs, int n,
                 int64_t ref)
{
  int i;

  for (i = 0; i < n; i++) {
    int fd = evs[i].data.fd;
    unsigned got = 0;

    if (fd == e->wake_fd) {
      uint64_t v;

      while (read(e->wake_fd, &v, sizeof(v)) > 0)
        ;
      e->woken = 1;
      continue;
    }
    if ((size_t)fd >= e->n_watches || !e->watches[fd].cb)
      continue;
    if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP))
      got |= ENGINE_IN;
    if (evs[i].events & EPOLLOUT)
      got |= ENGINE_OUT;
    if (evs[i].events & EPOLLERR)
      got |= ENGINE_ERR;
    enqueue(e, fd, got, ref);
  }
}

size_t engine_step(struct engine *e, int64_t timeout_us)
{
  static _Thread_local int slack_set;
  struct epoll_event evs[EVENTS_MAX];
  int64_t now, due, wake, ref, start;
  size_t polls;
  int n, fd;

  if (engine_here != e) {
    /* A loop run by another thread than the one that made it (serve's
     * engine threads): its own schedstat. */
    engine_here = e;
    if (!pthread_equal(e->ss_thread, pthread_self())) {
      if (e->ss_fd >= 0)
        close(e->ss_fd);
      e->ss_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
      e->ss_thread = pthread_self();
    }
  }
  if (!slack_set) {
    /* Timers are woken up to 50 us late by default (timer slack). */
    (void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    slack_set = 1;
  }
  run_tasks(e);
  if (probe_interrupted && !e->interrupt_seen) {
    e->interrupt_seen = 1;
    run_hooks(e);
    run_tasks(e);
  }
  now = clock_mono_us();
  due = next_due(e);
  if (e->head || e->ring_head >= 0)
    timeout_us = 0;
  if (due >= 0 && (timeout_us < 0 || due - now < timeout_us))
    timeout_us = due - now > 0 ? due - now : 0;
  /* Everything ready now, in as many polls as it takes (each descriptor
   * is queued once, however often it is seen): what a poll without
   * waiting finds may have become ready at any time since the last poll
   * that found everything.  When nothing is ready or queued, wait: what
   * wakes the wait became ready during it. */
  ref = e->ready_ref;
  e->woken = 0;
  polls = e->n_watches / EVENTS_MAX + 2;
  do {
    n = epoll_wait(e->ep, evs, EVENTS_MAX, 0);
    wake = clock_mono_us();
    if (n < 0 && errno != EINTR)
      BUG("epoll_wait failed");
    if (n > 0)
      take(e, evs, n, ref);
  } while (n == EVENTS_MAX && --polls > 0);
  if (n < EVENTS_MAX)
    e->ready_ref = wake;
  /* A wake-up read by the polls above is the caller's to see (serve's
   * stop, new work): the step returns without waiting, else the wake-up
   * would be lost and the loop wait for nothing. */
  if (e->ring_head < 0 && timeout_us != 0 && !e->woken) {
    n = poll_wait(e, evs, timeout_us);
    wake = clock_mono_us();
    if (n < 0 && errno != EINTR)
      BUG("epoll_wait failed");
    if (n > 0)
      take(e, evs, n, wake);
    e->ready_ref = wake;
  }
  /* The groups take turns, one descriptor each, for at most the step's
   * budget: a burst of one origin's ready sockets does not hold up
   * another's, which is handled within a descriptor or so of each other
   * group's. */
  start = clock_mono_us();
  while ((fd = dequeue(e)) >= 0) {
    struct watch *w = &e->watches[fd];
    unsigned got = w->pending;

    w->pending = 0;
    /* Unwatched since it was seen ready: nothing to handle. */
    if (!got || !w->cb)
      continue;
    handler_begin(e, w->owner, w->since > w->ready ? w->since : w->ready);
    w->cb(fd, got, w->ud);
    handler_end(e);
    run_tasks(e);
    if (clock_mono_us() - start >= STEP_BUDGET_US)
      break;
  }
  /* Timers due by now, at most as many as were armed: one re-armed by its
   * handler for "now" may wait for the next step. */
  now = clock_mono_us();
  for (n = (int)e->n_timers; n > 0 && e->n_timers; n--) {
    struct engine_timer *t = e->timers[0];

    if (t->due > now)
      break;
    engine_timer_stop(e, t);
    handler_begin(e, t->owner, t->due);
    t->fn(t->ud);
    handler_end(e);
    run_tasks(e);
  }
  if (probe_interrupted && !e->interrupt_seen) {
    e->interrupt_seen = 1;
    run_hooks(e);
    run_tasks(e);
  }
  return e->holds;
}

void engine_run(struct engine *e)
{
  while (engine_step(e, -1) > 0)
    ;
}

/* ---- libcurl multi handles ---- */

static void multi_drain(struct engine_multi *m)
{
  CURLMsg *msg;
  int left;

  while ((msg = m->api->multi_info_read(m->m, &left)) != NULL) {
    CURL *easy;
    CURLcode rc;

    if (msg->msg != CURLMSG_DONE)
      continue;
    easy = msg->easy_handle;
    rc = msg->data.result;
    m->api->multi_remove_handle(m->m, easy);
    m->done(easy, (int)rc, m->ud);
  }
}

static void on_curl_fd(int fd, unsigned events, void *ud)
{
  struct engine_multi *m = ud;
  int flags = 0, running = 0;

  if (events & ENGINE_IN)
    flags |= CURL_CSELECT_IN;
  if (events & ENGINE_OUT)
    flags |= CURL_CSELECT_OUT;
  if (events & ENGINE_ERR)
    flags |= CURL_CSELECT_ERR;
  m->api->multi_socket_action(m->m, fd, flags, &running);
  multi_drain(m);
}

static void on_curl_timer(void *ud)
{
  struct engine_multi *m = ud;
  int running = 0;

  m->api->multi_socket_action(m->m, CURL_SOCKET_TIMEOUT, 0, &running);
  multi_drain(m);
}

static int curl_socket_cb(CURL *easy, curl_socket_t s, int what, void *userp,
                          void *socketp)
{
  struct engine_multi *m = userp;
  unsigned ev = 0;

  (void)easy;
  (void)socketp;
  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT)
    ev |= ENGINE_IN;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT)
    ev |= ENGINE_OUT;
  if (engine_watch_owned(m->e, (int)s, ev, on_curl_fd, m, m->owner) < 0 && ev)
    return -1;
  return 0;
}

static int curl_timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
  struct engine_multi *m = userp;

  (void)multi;
  if (timeout_ms < 0)
    engine_timer_stop(m->e, &m->timer);
  else
    engine_timer_set(m->e, &m->timer, clock_mono_us() + timeout_ms * 1000,
                     on_curl_timer, m, m->owner);
  return 0;
}

/* The user interrupted: let libcurl run its progress callbacks now, which
 * abandon every transfer (probe_on_progress, probe_hops.c). */
static void multi_interrupt(void *ud)
{
  on_curl_timer(ud);
}

struct engine_multi *engine_multi_new(struct engine *e,
                                      const struct curl_api *api,
                                      struct engine_job *const *owner,
                                      engine_done_fn done, void *ud)
{
  struct engine_multi *m = xcalloc(1, sizeof(*m));

  m->e = e;
  m->api = api;
  m->owner = owner;
  m->done = done;
  m->ud = ud;
  m->m = api->multi_init();
  if (!m->m)
    msg_die(4, "cannot create a %s multi handle", api->name);
  api->multi_setopt(m->m, CURLMOPT_SOCKETFUNCTION, curl_socket_cb);
  api->multi_setopt(m->m, CURLMOPT_SOCKETDATA, m);
  api->multi_setopt(m->m, CURLMOPT_TIMERFUNCTION, curl_timer_cb);
  api->multi_setopt(m->m, CURLMOPT_TIMERDATA, m);
  engine_hook_add(e, &m->hook, multi_interrupt, m);
  return m;
}

void engine_multi_free(struct engine_multi *m)
{
  if (!m)
    return;
  /* Closing its connections unwatches their sockets through the socket
   * callback, and stops the timer. */
  m->api->multi_cleanup(m->m);
  engine_timer_stop(m->e, &m->timer);
  engine_hook_remove(m->e, &m->hook);
  free(m);
}

int engine_multi_add(struct engine_multi *m, void *easy)
{
  return m->api->multi_add_handle(m->m, easy) == CURLM_OK ? 0 : -1;
}

void engine_multi_remove(struct engine_multi *m, void *easy)
{
  m->api->multi_remove_handle(m->m, easy);
}
