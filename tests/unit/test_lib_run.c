/*
 * test_lib_run.c: unit tests of libhopsplit's loops and runs
 * (hopsplit.h), through the public header alone, against a real HTTP
 * server on loopback that the test runs in a thread of its own: several
 * runs on one loop at once, each with its samples' and done callbacks;
 * a cancel that stops one run and not its neighbour (and not the next
 * run); a run's timeout; a loop woken from another thread.  Timings are
 * asserted only structurally (a step woken returns before its timeout).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <hopsplit/hopsplit.h>

#include "banned.h"

/* ---- the server: HTTP/1.1 on 127.0.0.1, one thread a connection;
 * GET /slow answers after 400 ms, anything else at once ---- */

static int srv_fd = -1;
static int srv_port;
static pthread_t srv_thread;

static void *conn_main(void *arg)
{
  int fd = (int)(intptr_t)arg;
  char req[4096];
  size_t got = 0;

  for (;;) {
    ssize_t n;
    char *end;
    static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain"
                                 "\r\nContent-Length: 3\r\n\r\nok\n";

    n = recv(fd, req + got, sizeof(req) - 1 - got, 0);
    if (n <= 0)
      break;
    got += (size_t)n;
    req[got] = '\0';
    end = strstr(req, "\r\n\r\n");
    if (!end) {
      if (got == sizeof(req) - 1)
        break;
      continue;
    }
    if (!strncmp(req, "GET /slow", 9)) {
      struct timespec ts = {0, 400 * 1000 * 1000};

      nanosleep(&ts, NULL);
    }
    if (send(fd, answer, sizeof(answer) - 1, MSG_NOSIGNAL) < 0)
      break;
    got -= (size_t)(end + 4 - req);
    memmove(req, end + 4, got);
  }
  close(fd);
  return NULL;
}

static void *srv_main(void *arg)
{
  (void)arg;
  for (;;) {
    pthread_t t;
    int fd = accept(srv_fd, NULL, NULL);

    if (fd < 0)
      return NULL;
    if (pthread_create(&t, NULL, conn_main, (void *)(intptr_t)fd) != 0) {
      close(fd);
      continue;
    }
    pthread_detach(t);
  }
}

static int setup(void **state)
{
  struct sockaddr_in a;
  socklen_t len = sizeof(a);

  (void)state;
  srv_fd = socket(AF_INET, SOCK_STREAM, 0);
  if (srv_fd < 0)
    return -1;
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(srv_fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
      listen(srv_fd, 64) < 0 ||
      getsockname(srv_fd, (struct sockaddr *)&a, &len) < 0)
    return -1;
  srv_port = ntohs(a.sin_port);
  if (pthread_create(&srv_thread, NULL, srv_main, NULL) != 0)
    return -1;
  return hs_global_init() == HS_OK ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  shutdown(srv_fd, SHUT_RDWR);
  close(srv_fd);
  pthread_join(srv_thread, NULL);
  hs_global_cleanup();
  return 0;
}

/* ---- helpers ---- */

static int64_t now_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A run of rounds cold samples of path on loop l (extra: NULL or one more
 * option name and value). */
static struct hs_run *new_run(struct hs_loop *l, const char *path,
                              const char *rounds, const char *opt,
                              const char *val)
{
  struct hs_options *o = hs_options_new();
  struct hs_run *r = NULL;
  char url[128];

  snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", srv_port, path);
  assert_int_equal(hs_options_set(o, "mode", "cold"), HS_OK);
  assert_int_equal(hs_options_set(o, "rounds", rounds), HS_OK);
  assert_int_equal(hs_options_set(o, "silent", NULL), HS_OK);
  if (opt)
    assert_int_equal(hs_options_set(o, opt, val), HS_OK);
  assert_int_equal(hs_options_add_target(o, url), HS_OK);
  assert_int_equal(hs_run_new(o, l, &r), HS_OK);
  hs_options_free(o);
  return r;
}

/* What the callbacks saw of one run. */
struct seen {
  size_t each;       /* samples called back, in order */
  size_t each_ok;    /* of them ok, read in the callback */
  int mid_nulls;     /* cache.verdict was null while the run was in flight */
  int done;          /* done calls */
  enum hs_code code; /* done's */
  struct hs_run *cancel_at_first; /* cancel this one at the first sample */
};

static void on_each(struct hs_run *r, size_t i, void *ud)
{
  struct seen *s = ud;
  struct hs_results *res = hs_run_results(r);
  const struct hs_field *ok = hs_field_find(HS_FIELD_SAMPLE, "ok");
  const struct hs_field *total = hs_field_find(HS_FIELD_SAMPLE, "total_us");
  const struct hs_field *cache = hs_field_find(HS_FIELD_HOP, "cache.verdict");
  struct hs_value v;

  assert_int_equal(i, s->each);
  assert_int_equal(hs_results_samples(res), i + 1);
  s->each++;
  assert_int_equal(hs_results_get(res, i, 0, ok, &v), HS_OK);
  if (v.i) {
    s->each_ok++;
    assert_int_equal(hs_results_get(res, i, 0, total, &v), HS_OK);
    assert_false(v.null);
    assert_true(v.i > 0);
  }
  assert_non_null(cache);
  if (hs_results_hops(res, i)) {
    assert_int_equal(hs_results_get(res, i, 0, cache, &v), HS_OK);
    s->mid_nulls += v.null;
  }
  if (s->cancel_at_first && i == 0)
    hs_run_cancel(s->cancel_at_first);
}

static void on_done(struct hs_run *r, enum hs_code code, void *ud)
{
  struct seen *s = ud;

  (void)r;
  s->done++;
  s->code = code;
}

/* Step l until every one of the n done counts is 1. */
static void step_until_done(struct hs_loop *l, struct seen *s, size_t n)
{
  int64_t t0 = now_ms();

  for (;;) {
    size_t i, left = 0;

    for (i = 0; i < n; i++)
      left += s[i].done == 0;
    if (!left)
      break;
    hs_loop_step(l, 1000);
    /* A hang is a failure, not a figure. */
    assert_true(now_ms() - t0 < 60000);
  }
}

/* Two runs on one loop at once, each its callbacks: every sample once,
 * in order, readable in the callback; done once, HS_OK; then each run's
 * results complete and analysed. */
static void test_two_runs(void **state)
{
  struct hs_loop *l;
  struct hs_run *a, *b;
  struct seen s[2];
  const struct hs_field *cache = hs_field_find(HS_FIELD_HOP, "cache.verdict");

  (void)state;
  memset(s, 0, sizeof(s));
  assert_int_equal(hs_loop_new(&l), HS_OK);
  a = new_run(l, "/a", "3", NULL, NULL);
  b = new_run(l, "/b", "2", NULL, NULL);
  hs_run_set_callbacks(a, on_each, on_done, &s[0]);
  hs_run_set_callbacks(b, on_each, on_done, &s[1]);
  assert_int_equal(hs_run_start(a), HS_OK);
  assert_int_equal(hs_run_start(b), HS_OK);
  assert_int_equal(hs_run_start(b), HS_E_STATE);
  step_until_done(l, s, 2);
  assert_int_equal(s[0].each, 3);
  assert_int_equal(s[0].each_ok, 3);
  assert_int_equal(s[1].each, 2);
  assert_int_equal(s[1].each_ok, 2);
  assert_int_equal(s[0].code, HS_OK);
  assert_int_equal(s[1].code, HS_OK);
  assert_int_equal(hs_results_samples(hs_run_results(a)), 3);
  assert_int_equal(hs_results_samples(hs_run_results(b)), 2);
  assert_int_equal(hs_results_failed(hs_run_results(a)), 0);
  assert_int_equal(hs_results_failed(hs_run_results(b)), 0);
  /* The analysis' fields were null mid-run, and are not once it ended. */
  {
    struct hs_value v;

    assert_int_equal(s[0].mid_nulls, 3);
    assert_int_equal(hs_results_get(hs_run_results(a), 0, 0, cache, &v),
                     HS_OK);
    assert_false(v.null);
  }
  /* Fields no document writes: found by name, never listed. */
  {
    struct hs_results *res = hs_run_results(a);
    const struct hs_field *cl = hs_field_find(HS_FIELD_HOP, "content_length");
    const struct hs_field *exp =
        hs_field_find(HS_FIELD_HOP, "tls.cert_expiry");
    const struct hs_field *scanned =
        hs_field_find(HS_FIELD_HOP, "body.scanned");
    const struct hs_field *f;
    struct hs_value v;
    size_t i;

    assert_non_null(cl);
    assert_non_null(exp);
    assert_non_null(scanned);
    assert_non_null(hs_field_find(HS_FIELD_HOP, "response_head"));
    assert_null(hs_field_find(HS_FIELD_SAMPLE, "content_length"));
    for (i = 0; (f = hs_field_at(HS_FIELD_HOP, i)) != NULL; i++)
      assert_true(f != cl && f != exp && f != scanned);
    assert_int_equal(hs_results_get(res, 0, 0, cl, &v), HS_OK);
    assert_false(v.null);
    assert_int_equal(v.i, 3); /* the server's Content-Length */
    assert_string_equal(v.s, "3");
    assert_int_equal(hs_results_get(res, 0, 0, exp, &v), HS_OK);
    assert_true(v.null); /* plain HTTP */
    assert_int_equal(hs_results_get(res, 0, 0, scanned, &v), HS_OK);
    assert_int_equal(v.i, 0);
  }
  hs_run_free(a);
  hs_run_free(b);
  hs_loop_free(l);
}

struct canceller {
  struct hs_run *r;
  int delay_ms;
};

static void *cancel_main(void *arg)
{
  struct canceller *c = arg;
  struct timespec ts = {0, (long)c->delay_ms * 1000 * 1000};

  nanosleep(&ts, NULL);
  hs_run_cancel(c->r);
  return NULL;
}

/* A cancel from another thread stops its run alone, in a pause between
 * samples: what was measured stays, the run ends HS_E_CANCELLED; its
 * neighbour on the loop, and a run after it, measure every sample. */
static void test_cancel_one(void **state)
{
  struct hs_loop *l;
  struct hs_run *a, *b, *c;
  struct seen s[2];
  struct canceller k;
  pthread_t t;
  size_t n;

  (void)state;
  memset(s, 0, sizeof(s));
  assert_int_equal(hs_loop_new(&l), HS_OK);
  /* a: 50 samples 1 s apart (about 50 s uncancelled). */
  a = new_run(l, "/a", "50", "pause", "1s");
  b = new_run(l, "/b", "4", "pause", "50ms");
  hs_run_set_callbacks(a, on_each, on_done, &s[0]);
  hs_run_set_callbacks(b, on_each, on_done, &s[1]);
  assert_int_equal(hs_run_start(a), HS_OK);
  assert_int_equal(hs_run_start(b), HS_OK);
  k.r = a;
  k.delay_ms = 300;
  assert_int_equal(pthread_create(&t, NULL, cancel_main, &k), 0);
  step_until_done(l, s, 2);
  pthread_join(t, NULL);
  assert_int_equal(s[0].code, HS_E_CANCELLED);
  n = hs_results_samples(hs_run_results(a));
  assert_true(n >= 1 && n < 50);
  assert_int_equal(s[0].each, n);
  assert_int_equal(s[1].code, HS_OK);
  assert_int_equal(s[1].each, 4);
  assert_int_equal(s[1].each_ok, 4);
  /* hs_run_step says so too, and the run stays ended. */
  {
    int running = 1;

    assert_int_equal(hs_run_step(a, 0, &running), HS_E_CANCELLED);
    assert_int_equal(running, 0);
    assert_int_equal(hs_run_step(b, 0, &running), HS_OK);
  }
  /* The cancel was a's: a later run on the loop measures everything. */
  memset(s, 0, sizeof(s));
  c = new_run(l, "/c", "2", NULL, NULL);
  hs_run_set_callbacks(c, on_each, on_done, &s[0]);
  assert_int_equal(hs_run_start(c), HS_OK);
  step_until_done(l, s, 1);
  assert_int_equal(s[0].code, HS_OK);
  assert_int_equal(s[0].each_ok, 2);
  /* A cancel after the end changes nothing: the code was fixed then. */
  hs_run_cancel(c);
  {
    int running = 1;

    assert_int_equal(hs_run_step(c, 0, &running), HS_OK);
    assert_int_equal(running, 0);
  }
  hs_run_free(a);
  hs_run_free(b);
  hs_run_free(c);

  /* A cancel from a callback (the loop's own thread) at the first sample,
   * and one before the start: both end with what they had. */
  memset(s, 0, sizeof(s));
  a = new_run(l, "/a", "20", "pause", "1s");
  s[0].cancel_at_first = a;
  hs_run_set_callbacks(a, on_each, on_done, &s[0]);
  b = new_run(l, "/b", "3", NULL, NULL);
  hs_run_set_callbacks(b, on_each, on_done, &s[1]);
  hs_run_cancel(b);
  assert_int_equal(hs_run_start(a), HS_OK);
  assert_int_equal(hs_run_start(b), HS_OK);
  step_until_done(l, s, 2);
  assert_int_equal(s[0].code, HS_E_CANCELLED);
  assert_int_equal(s[0].each, 1);
  assert_int_equal(s[1].code, HS_E_CANCELLED);
  assert_int_equal(s[1].each, 0);
  hs_run_free(a);
  hs_run_free(b);

  /* A run freed while in flight ends first, its done not called, and no
   * callback of it runs after (ASan sees any use of it); its neighbour
   * goes on to its end. */
  memset(s, 0, sizeof(s));
  a = new_run(l, "/a", "20", "pause", "1s");
  hs_run_set_callbacks(a, on_each, on_done, &s[0]);
  b = new_run(l, "/b", "4", "pause", "200ms");
  hs_run_set_callbacks(b, on_each, on_done, &s[1]);
  assert_int_equal(hs_run_start(a), HS_OK);
  assert_int_equal(hs_run_start(b), HS_OK);
  while (!s[0].each)
    hs_loop_step(l, 1000);
  hs_run_free(a);
  {
    size_t each = s[0].each;

    assert_true(each >= 1 && each < 20);
    while (!s[1].done)
      hs_loop_step(l, 1000);
    assert_int_equal(s[0].each, each);
  }
  assert_int_equal(s[0].done, 0);
  assert_int_equal(s[1].code, HS_OK);
  assert_int_equal(s[1].each_ok, 4);
  hs_run_free(b);
  hs_loop_free(l);
}

/* A run's timeout: a slow answer (400 ms) past it fails as a timeout,
 * and the samples after it fail at once; a neighbour without one is
 * measured whole. */
/* A cancel from another thread stops a run measured by hs_run_perform on
 * a loop of its own (the process's interrupt): it ends HS_E_CANCELLED
 * with what was measured, far short of its 50 samples 1 s apart. */
static void test_cancel_perform(void **state)
{
  struct hs_run *a;
  struct seen s;
  struct canceller k;
  pthread_t t;
  size_t n;

  (void)state;
  memset(&s, 0, sizeof(s));
  a = new_run(NULL, "/p", "50", "pause", "1s");
  hs_run_set_callbacks(a, on_each, on_done, &s);
  k.r = a;
  k.delay_ms = 300;
  assert_int_equal(pthread_create(&t, NULL, cancel_main, &k), 0);
  assert_int_equal(hs_run_perform(a), HS_E_CANCELLED);
  pthread_join(t, NULL);
  n = hs_results_samples(hs_run_results(a));
  assert_true(n >= 1 && n < 50);
  assert_int_equal(s.each, n);
  assert_int_equal(s.done, 1);
  assert_int_equal(s.code, HS_E_CANCELLED);
  hs_run_free(a);
}

static void test_timeout(void **state)
{
  struct hs_loop *l;
  struct hs_run *a, *b;
  struct seen s[2];
  const struct hs_field *cls = hs_field_find(HS_FIELD_SAMPLE, "error.class");
  struct hs_value v;
  size_t i;

  (void)state;
  memset(s, 0, sizeof(s));
  assert_int_equal(hs_loop_new(&l), HS_OK);
  a = new_run(l, "/slow", "3", NULL, NULL);
  /* Out of range: said, and nothing set. */
  assert_int_equal(hs_run_set_timeout(a, -1), HS_E_BAD_VALUE);
  assert_int_equal(hs_run_set_timeout(a, LONG_MAX), HS_E_BAD_VALUE);
  assert_int_equal(hs_run_set_timeout(a, 150), HS_OK);
  b = new_run(l, "/slow", "2", NULL, NULL);
  hs_run_set_callbacks(a, on_each, on_done, &s[0]);
  hs_run_set_callbacks(b, on_each, on_done, &s[1]);
  assert_int_equal(hs_run_start(a), HS_OK);
  assert_int_equal(hs_run_start(b), HS_OK);
  /* Started: too late, said. */
  assert_int_equal(hs_run_set_timeout(b, 10), HS_E_STATE);
  step_until_done(l, s, 2);
  assert_int_equal(s[0].code, HS_OK);
  assert_int_equal(hs_results_samples(hs_run_results(a)), 3);
  assert_int_equal(s[0].each_ok, 0);
  for (i = 0; i < 3; i++) {
    assert_int_equal(hs_results_get(hs_run_results(a), i, 0, cls, &v), HS_OK);
    assert_string_equal(v.s, "timeout");
  }
  assert_int_equal(hs_results_failed(hs_run_results(a)), 3);
  assert_int_equal(s[1].each_ok, 2);
  assert_int_equal(hs_results_failed(hs_run_results(b)), 0);
  hs_run_free(a);
  hs_run_free(b);
  hs_loop_free(l);
}

struct waker {
  struct hs_loop *l;
  atomic_int stepping;
};

static void *wake_main(void *arg)
{
  struct waker *w = arg;
  struct timespec ts = {0, 20 * 1000 * 1000};

  while (!atomic_load(&w->stepping))
    nanosleep(&ts, NULL);
  nanosleep(&ts, NULL);
  hs_loop_wake(w->l);
  return NULL;
}

/* A step waiting for nothing returns, woken by another thread, before
 * its 20 s timeout; a wake before the step makes it return at once. */
static void test_loop_wake(void **state)
{
  struct waker w;
  pthread_t t;
  int64_t t0;

  (void)state;
  assert_int_equal(hs_loop_new(&w.l), HS_OK);
  atomic_init(&w.stepping, 0);
  assert_int_equal(pthread_create(&t, NULL, wake_main, &w), 0);
  atomic_store(&w.stepping, 1);
  t0 = now_ms();
  assert_int_equal(hs_loop_step(w.l, 20000), 0);
  assert_true(now_ms() - t0 < 20000);
  pthread_join(t, NULL);
  hs_loop_wake(w.l);
  t0 = now_ms();
  hs_loop_step(w.l, 20000);
  assert_true(now_ms() - t0 < 20000);
  hs_loop_free(w.l);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_runs),       cmocka_unit_test(test_cancel_one),
      cmocka_unit_test(test_cancel_perform), cmocka_unit_test(test_timeout),
      cmocka_unit_test(test_loop_wake),
  };

  return cmocka_run_group_tests(tests, setup, teardown);
}
