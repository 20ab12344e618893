/*
 * test_stats.c: nearest-rank percentiles and spread against values worked
 * out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "stats.h"

static void test_rank(void **state)
{
  static const struct {
    size_t n;
    unsigned p;
    size_t want;
  } c[] = {
      {1, 50, 1},    {1, 95, 1},    {2, 50, 1},   {3, 50, 2},
      {4, 50, 2},    {10, 50, 5},   {10, 95, 10}, {19, 95, 19},
      {20, 95, 19},  {21, 95, 20},  {30, 95, 29}, {30, 50, 15},
      {100, 95, 95}, {101, 95, 96}, {7, 100, 7},  {0, 50, 0},
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    size_t got = stats_rank(c[i].n, c[i].p);

    if (got != c[i].want)
      print_error("rank n=%zu p=%u: got %zu want %zu\n", c[i].n, c[i].p, got,
                  c[i].want);
    assert_int_equal(got, c[i].want);
  }
}

static void test_known_values(void **state)
{
  /* 1..10 shuffled: p50 = 5 (5th), p95 = 10, mean 5.5 -> 6 (rounded half
   * away from zero), sample stddev = sqrt(82.5/9) = 3.0277 -> 3, MAD: the
   * deviations from 5 are 4 3 2 1 0 1 2 3 4 5, sorted 0 1 1 2 2 3 3 4 4 5,
   * 5th = 2. */
  int64_t v[] = {7, 3, 10, 1, 5, 9, 2, 8, 4, 6};
  struct stats s;

  (void)state;
  stats_compute(v, 10, &s);
  assert_int_equal(s.n, 10);
  assert_int_equal(s.min, 1);
  assert_int_equal(s.max, 10);
  assert_int_equal(s.p50, 5);
  assert_int_equal(s.p95, 10);
  assert_int_equal(s.mean, 6);
  assert_int_equal(s.stddev, 3);
  assert_int_equal(s.mad, 2);
}

static void test_edge_cases(void **state)
{
  int64_t one[] = {42};
  int64_t same[] = {5, 5, 5, 5};
  int64_t big[30];
  struct stats s;
  int i;

  (void)state;
  stats_compute(one, 1, &s);
  assert_int_equal(s.p50, 42);
  assert_int_equal(s.p95, 42);
  assert_int_equal(s.stddev, 0);
  assert_int_equal(s.mad, 0);
  stats_compute(same, 4, &s);
  assert_int_equal(s.p50, 5);
  assert_int_equal(s.stddev, 0);
  assert_int_equal(s.mad, 0);
  stats_compute(NULL, 0, &s);
  assert_int_equal(s.n, 0);
  assert_int_equal(s.p50, 0);
  /* p95 of 30 samples is the 29th smallest */
  for (i = 0; i < 30; i++)
    big[i] = (int64_t)(30 - i) * 1000;
  stats_compute(big, 30, &s);
  assert_int_equal(s.p95, 29000);
  assert_int_equal(s.p50, 15000);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rank),
      cmocka_unit_test(test_known_values),
      cmocka_unit_test(test_edge_cases),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
