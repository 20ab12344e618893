/*
 * test_engine.c: the event loop's turns (engine.c).  Ready sockets are
 * handled a group (an origin) at a time in turn, so one origin's burst
 * does not hold up another's socket; a socket unwatched while it waits
 * for its turn is not handled; a step that spends its budget leaves the
 * rest for the next step, which does not wait for anything new first.
 * Real socket pairs on one engine; nothing is timed.  A job's lock waits
 * and the interference threshold (issue 35); each job's handlers store
 * into its own arena (issue 34).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"
#include "engine_int.h"
#include "sample.h"
#include "stall.h"
#include "strpool.h"
#include "banned.h"

#define BURST 40

struct pair {
  int fd[2];
  int group; /* the test's name for it: 'A' or 'B' */
  int handled;
};

static struct {
  struct engine *e;
  char order[BURST + 8]; /* groups in the order handled */
  size_t n;
  int sleep_us;              /* each handler's own work */
  struct pair *unwatch_also; /* the handler unwatches this one too */
} T;

static void on_ready(int fd, unsigned events, void *ud)
{
  struct pair *p = ud;
  char c;

  assert_true(events & ENGINE_IN);
  assert_int_equal(read(fd, &c, 1), 1);
  p->handled++;
  if (T.n < sizeof(T.order) - 1)
    T.order[T.n++] = (char)p->group;
  assert_int_equal(engine_watch(T.e, fd, 0, NULL, NULL), 0);
  if (T.unwatch_also) {
    assert_int_equal(engine_watch(T.e, T.unwatch_also->fd[0], 0, NULL, NULL),
                     0);
    T.unwatch_also = NULL;
  }
  if (T.sleep_us) {
    struct timespec ts = {0, (long)T.sleep_us * 1000L};

    nanosleep(&ts, NULL);
  }
}

/* A readable socket of job *owner's group, watched now. */
static void ready_pair(struct pair *p, int group,
                       struct engine_job *const *owner)
{
  memset(p, 0, sizeof(*p));
  p->group = group;
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, p->fd), 0);
  assert_int_equal(write(p->fd[1], "x", 1), 1);
  assert_int_equal(
      engine_watch_owned(T.e, p->fd[0], ENGINE_IN, on_ready, p, owner), 0);
}

static void close_pair(struct pair *p)
{
  close(p->fd[0]);
  close(p->fd[1]);
}

static int setup(void **state)
{
  char err[256];

  (void)state;
  memset(&T, 0, sizeof(T));
  T.e = engine_alloc(err, sizeof(err));
  return T.e ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  engine_free(T.e);
  T.e = NULL;
  return 0;
}

/* Steps until every pair is handled (at most 100 steps). */
static void run_until(struct pair *p, size_t n)
{
  size_t i, left = n;
  int steps;

  for (steps = 0; left && steps < 100; steps++) {
    engine_step(T.e, 0);
    for (left = 0, i = 0; i < n; i++)
      left += p[i].handled == 0;
  }
}

/* BURST sockets of origin A are ready before the one of origin B; B's is
 * handled second, not last. */
static void test_turns(void **state)
{
  struct engine_job ja, jb;
  struct engine_job *oa = &ja, *ob = &jb;
  struct pair p[BURST + 1];
  size_t i;

  (void)state;
  memset(&ja, 0, sizeof(ja));
  memset(&jb, 0, sizeof(jb));
  ja.group = engine_group_key("http://slow.test:8080/a?n=1");
  jb.group = engine_group_key("https://live.test/ok");
  assert_int_equal(engine_group_key("http://slow.test:8080/b?n=2"), ja.group);
  assert_int_not_equal(ja.group, jb.group);
  assert_int_not_equal(ja.group, 0);
  for (i = 0; i < BURST; i++)
    ready_pair(&p[i], 'A', &oa);
  ready_pair(&p[BURST], 'B', &ob);
  run_until(p, BURST + 1);
  assert_int_equal(T.n, BURST + 1);
  for (i = 0; i <= BURST; i++)
    assert_int_equal(p[i].handled, 1);
  T.order[T.n] = '\0';
  assert_ptr_not_equal(strchr(T.order, 'B'), NULL);
  assert_true(strchr(T.order, 'B') - T.order <= 1);
  for (i = 0; i <= BURST; i++)
    close_pair(&p[i]);
}

/* A socket unwatched by another's handler while it waits is not
 * handled. */
static void test_unwatched_while_queued(void **state)
{
  struct engine_job j;
  struct engine_job *o = &j;
  struct pair p[2];

  (void)state;
  memset(&j, 0, sizeof(j));
  j.group = engine_group_key("http://one.test/");
  ready_pair(&p[0], 'A', &o);
  ready_pair(&p[1], 'A', &o);
  T.unwatch_also = &p[1];
  engine_step(T.e, 0);
  engine_step(T.e, 0);
  assert_int_equal(p[0].handled, 1);
  assert_int_equal(p[1].handled, 0);
  assert_int_equal(T.n, 1);
  close_pair(&p[0]);
  close_pair(&p[1]);
}

/* Handlers longer than a step's budget: one per step, and a step with
 * sockets still waiting does not wait for anything new (a wait without
 * limit here would never end: ctest's timeout would fail the test). */
static void test_budget(void **state)
{
  struct engine_job j;
  struct engine_job *o = &j;
  struct pair p[3];
  int i;

  (void)state;
  memset(&j, 0, sizeof(j));
  j.group = engine_group_key("http://one.test/");
  for (i = 0; i < 3; i++)
    ready_pair(&p[i], 'A', &o);
  T.sleep_us = 3000; /* more than the 2 ms budget */
  engine_step(T.e, -1);
  assert_int_equal(T.n, 1);
  engine_step(T.e, -1);
  assert_int_equal(T.n, 2);
  engine_step(T.e, -1);
  assert_int_equal(T.n, 3);
  for (i = 0; i < 3; i++)
    close_pair(&p[i]);
}

/* A wake-up written before the step (serve's stop, between the loop's
 * look at its flags and its wait) makes the step return: the step's first,
 * non-waiting poll reads the wake-up descriptor, and the wait after it
 * must not begin.  Before, the step then waited for ever (serve hung at
 * its exit in about 4 % of runs).  alarm() ends the test if it waits. */
static void test_wake_before_step(void **state)
{
  int64_t t0;

  (void)state;
  alarm(10);
  engine_wake(T.e);
  t0 = clock_mono_us();
  engine_step(T.e, -1);
  assert_true(clock_mono_us() - t0 < 5000000);
  /* Consumed: a step after it with a timeout waits that long. */
  t0 = clock_mono_us();
  engine_step(T.e, 20000);
  assert_true(clock_mono_us() - t0 >= 19000);
  alarm(0);
}

/* A job's lock waits (stall_lock, issue 35): a lock another thread holds
 * while the job is in flight is waited for and recorded in its lock_us; an
 * uncontended one adds nothing; the job's interference is the sum of its
 * parts that are times.  Only the structure is checked: the wait is some
 * time, at most the job's flight. */
static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;
static volatile int holder_has_it;

static void *holder(void *arg)
{
  struct timespec ts = {0, 20 * 1000000L};

  (void)arg;
  pthread_mutex_lock(&held_mu);
  holder_has_it = 1;
  nanosleep(&ts, NULL);
  pthread_mutex_unlock(&held_mu);
  return NULL;
}

static void test_lock_wait(void **state)
{
  struct engine_job j;
  pthread_t th;
  int64_t t0, flight, got;

  (void)state;
  memset(&j, 0, sizeof(j));
  engine_job_begin(T.e, &j);
  stall_lock(&held_mu); /* uncontended */
  pthread_mutex_unlock(&held_mu);
  got = engine_job_end(T.e, &j);
  assert_int_equal(j.lock_us, 0);
  assert_true(j.output_us >= 0);
  assert_int_equal(got, sample_interference_sum(j.late_us, j.own_us, j.lock_us,
                                                j.output_us));

  holder_has_it = 0;
  assert_int_equal(pthread_create(&th, NULL, holder, NULL), 0);
  while (!holder_has_it)
    ;
  memset(&j, 0, sizeof(j));
  t0 = clock_mono_us();
  engine_job_begin(T.e, &j);
  stall_lock(&held_mu); /* the holder keeps it a while */
  pthread_mutex_unlock(&held_mu);
  got = engine_job_end(T.e, &j);
  flight = clock_mono_us() - t0;
  pthread_join(th, NULL);
  assert_true(j.lock_us > 0);
  assert_true(j.lock_us <= flight);
  assert_true(got >= j.lock_us);
  assert_int_equal(got, sample_interference_sum(j.late_us, j.own_us, j.lock_us,
                                                j.output_us));
}

/* The threshold (hopsplit(1) INTERFERENCE): past 1 ms and 1 % of the
 * total, from every part but the run-queue delay; unmeasured parts (-1)
 * count as nothing.  A wait for a CPU past the same threshold is said
 * (sample_cpu_waited), not left out. */
static void test_threshold(void **state)
{
  struct sample s;

  (void)state;
  assert_int_equal(sample_interference_sum(-1, -1, -1, -1), 0);
  assert_int_equal(sample_interference_sum(10, 3, 0, 2), 15);
  /* Own work alone flags a short sample ... */
  assert_true(
      sample_is_interfered(sample_interference_sum(5, 2500, 0, 0), 3000));
  /* ... not a long one (1 % of 440 ms is 4.4 ms) ... */
  assert_false(
      sample_is_interfered(sample_interference_sum(5, 2500, 0, 0), 440000));
  /* ... nor a quiet one. */
  assert_false(sample_is_interfered(sample_interference_sum(5, 3, 0, 0), 200));
  assert_false(sample_is_interfered(1000, 0));
  assert_true(sample_is_interfered(1001, 0));
  sample_init(&s);
  s.total_us = 3000;
  assert_false(sample_cpu_waited(&s)); /* runq unknown */
  s.runq_us = 2500;
  assert_true(sample_cpu_waited(&s));
  s.total_us = 440000;
  assert_false(sample_cpu_waited(&s));
}

/* Each job's handlers store into its own arena: the jobs of several runs
 * on one loop (hopsplit serve's probes) fill their own results, whichever
 * arena the loop's thread had, which is back after each handler. */
struct arena_job {
  struct engine_job ej;
  struct engine_job *self;
  struct engine_timer timer;
  struct engine_task task;
  const char *stored; /* what its handler stored */
  struct arena *seen; /* the thread's arena then */
};

static void arena_job_store(void *ud)
{
  struct arena_job *j = ud;

  j->seen = strpool_current();
  j->stored = strpool_intern("x-served-by");
}

static void test_job_arena(void **state)
{
  struct arena *a = arena_alloc(), *b = arena_alloc(), *mine = arena_alloc();
  struct arena_job ja, jb, jn;
  struct arena *was;

  (void)state;
  memset(&ja, 0, sizeof(ja));
  memset(&jb, 0, sizeof(jb));
  memset(&jn, 0, sizeof(jn));
  ja.self = &ja.ej;
  ja.ej.arena = a;
  jb.self = &jb.ej;
  jb.ej.arena = b;
  jn.self = &jn.ej; /* no arena: the thread's */
  was = strpool_use(mine);
  engine_timer_set(T.e, &ja.timer, clock_mono_us(), arena_job_store, &ja,
                   &ja.self);
  engine_defer(T.e, &jb.task, arena_job_store, &jb, &jb.self);
  engine_timer_set(T.e, &jn.timer, clock_mono_us(), arena_job_store, &jn,
                   &jn.self);
  engine_step(T.e, 0);
  assert_ptr_equal(ja.seen, a);
  assert_ptr_equal(jb.seen, b);
  assert_ptr_equal(jn.seen, mine);
  assert_ptr_equal(ja.stored, arena_intern(a, "x-served-by"));
  assert_ptr_equal(jb.stored, arena_intern(b, "x-served-by"));
  assert_ptr_equal(jn.stored, arena_intern(mine, "x-served-by"));
  assert_int_equal(arena_count(a), 1);
  assert_int_equal(arena_count(b), 1);
  /* Back to the thread's own after the handlers. */
  assert_ptr_equal(strpool_current(), mine);
  strpool_use(was);
  arena_free(a);
  arena_free(b);
  arena_free(mine);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_turns, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unwatched_while_queued, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_budget, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wake_before_step, setup, teardown),
      cmocka_unit_test_setup_teardown(test_lock_wait, setup, teardown),
      cmocka_unit_test_setup_teardown(test_threshold, setup, teardown),
      cmocka_unit_test_setup_teardown(test_job_arena, setup, teardown),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
