/*
 * test_transport.c: unit tests of transport.c: a body's arrivals merged
 * into fixed storage and grouped into rounds (slow start at a 50 ms RTT,
 * a link that never goes quiet, a burst cut by TLS records), the time of
 * a smaller body from the rounds, and Server-Timing's durations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "transport.h"
#include "banned.h"

/* Slow start from 10 segments of 1448 bytes, doubling every 50 ms, each
 * round's segments 100 us apart: 460,800 bytes take 6 rounds. */
static void test_slow_start(void **state)
{
  static struct tcp_arrivals t;
  struct hop_round r[HOP_ROUNDS_MAX];
  int64_t now, left = 460800, seg = 10, t0 = 1000000;
  size_t n, i;

  (void)state;
  tcp_arrivals_init(&t, 6250);
  for (i = 0; left > 0; i++) {
    int64_t k;

    now = t0 + (int64_t)i * 50000;
    for (k = 0; k < seg && left > 0; k++) {
      int64_t b = left < 1448 ? left : 1448;

      tcp_arrivals_add(&t, now + k * 100, b);
      left -= b;
    }
    seg *= 2;
  }
  n = tcp_rounds_group(t.a, t.n, t0, 50000, r, HOP_ROUNDS_MAX);
  assert_int_equal(n, 6);
  assert_int_equal(r[0].start_us, 0);
  assert_int_equal(r[0].bytes, 14480);
  assert_int_equal(r[1].start_us, 50000);
  assert_int_equal(r[1].bytes, 28960);
  assert_int_equal(r[5].start_us, 250000);
  /* 14,480 bytes arrive in the first round: 900 us after it starts. */
  assert_int_equal(tcp_rounds_time_for(r, n, 14480), 900);
  assert_true(tcp_rounds_time_for(r, n, 20000) > 50000);
  assert_int_equal(tcp_rounds_time_for(r, n, 460801), -1);
  assert_int_equal(tcp_rounds_group(t.a, t.n, t0, 0, r, HOP_ROUNDS_MAX), 0);
}

/* A link that never goes quiet (a segment every 1 ms for 500 ms) at a
 * 50 ms RTT: a window per round trip, 10 rounds; the storage, far smaller
 * than the arrivals, keeps them apart by squeezing. */
static void test_saturated(void **state)
{
  static struct tcp_arrivals t;
  struct hop_round r[HOP_ROUNDS_MAX];
  int64_t i, sum = 0;
  size_t n, k;

  (void)state;
  tcp_arrivals_init(&t, 50);
  for (i = 0; i < 500; i++)
    tcp_arrivals_add(&t, 2000000 + i * 1000, 1448);
  assert_true(t.n <= TCP_ARRIVALS_MAX);
  n = tcp_rounds_group(t.a, t.n, 2000000, 50000, r, HOP_ROUNDS_MAX);
  assert_true(n >= 10 && n <= 11);
  for (k = 0; k < n; k++)
    sum += r[k].bytes;
  assert_int_equal(sum, 500 * 1448);
  /* Only the first HOP_ROUNDS_MAX are kept: the rest goes to the last. */
  n = tcp_rounds_group(t.a, t.n, 2000000, 50000, r, 3);
  assert_true(n >= 10);
  assert_int_equal(r[0].bytes + r[1].bytes + r[2].bytes, 500 * 1448);
}

/* TLS records: a 16 KB record of the first round completes 52 ms after
 * the first byte, the next 21 ms later, the third after a silence of
 * 33 ms: three rounds, the first two a round trip apart. */
static void test_records(void **state)
{
  static const int64_t at[] = {52000, 72800, 105500, 122800, 139500};
  static struct tcp_arrivals t;
  struct hop_round r[HOP_ROUNDS_MAX];
  size_t i, n;

  (void)state;
  tcp_arrivals_init(&t, 2000);
  for (i = 0; i < 5; i++)
    tcp_arrivals_add(&t, 1000000 + at[i], 16384);
  n = tcp_rounds_group(t.a, t.n, 1000000, 50000, r, HOP_ROUNDS_MAX);
  assert_int_equal(n, 3);
  assert_int_equal(r[0].start_us, 0);
  assert_int_equal(r[0].bytes, 16384);
  assert_int_equal(r[1].start_us, 72800);
  assert_int_equal(r[2].bytes, 3 * 16384);
}

static void test_server_timing(void **state)
{
  (void)state;
  assert_int_equal(transport_server_timing_us("db;dur=53, app;dur=47.2"),
                   100200);
  assert_int_equal(
      transport_server_timing_us("cache;desc=\"Cache Read\";dur=23.2, "
                                 "total;dur=150"),
      150000);
  assert_int_equal(transport_server_timing_us("miss, db;desc=x"), -1);
  assert_int_equal(transport_server_timing_us("a;dur=\"12\""), 12000);
  assert_int_equal(transport_server_timing_us(NULL), -1);
  assert_int_equal(transport_server_timing_us(""), -1);
  assert_int_equal(transport_server_timing_us("x;dur=-5, y;dur=abc"), -1);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slow_start),
      cmocka_unit_test(test_saturated),
      cmocka_unit_test(test_records),
      cmocka_unit_test(test_server_timing),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
