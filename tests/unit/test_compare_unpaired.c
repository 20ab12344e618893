/*
 * test_compare_unpaired.c: unit tests of compare_unpaired (compare.h), the
 * comparison across vantage points.  Expected values are worked out by
 * hand in the comments: the differences t[j] - b[i] sorted, their
 * nearest-rank median, and the Mann-Whitney interval [D(w+1), D(N-w)] for
 * the largest w with P(U <= w) <= 2.5 %, P(U <= u) being the number of
 * arrangements of the two samples with at most u inversions over
 * C(nb + nt, nb).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "arraysize.h"
#include "compare.h"

#include "banned.h"

static void check_i64(int64_t got, int64_t want, const char *what)
{
  if (got != want) {
    print_error("%s is %lld, expected %lld\n", what, (long long)got,
                (long long)want);
    fail();
  }
}

static void check_near(double got, double want, double eps, const char *what)
{
  if (!(fabs(got - want) <= eps)) {
    print_error("%s is %.6f, expected %.6f\n", what, got, want);
    fail();
  }
}

/* 4 and 4, every target value 1000 above: the 16 differences are 1000
 * plus {-30, -20 x2, -10 x3, 0 x4, 10 x3, 20 x2, 30}; the 8th smallest is
 * 1000.  C(8, 4) = 70 arrangements, one with U = 0 and one with U = 1:
 * P(U <= 0) = 1/70 <= 2.5 % < P(U <= 1) = 2/70, so w = 0 and the interval
 * is [D(1), D(16)] = [970, 1030], coverage 1 - 2/70.  The baseline's
 * median (2nd of 4) is 20: +5000 %. */
static void test_shift(void **state)
{
  static const int64_t b[] = {40, 10, 30, 20}, t[] = {1010, 1040, 1020, 1030};
  struct compare_result r;

  (void)state;
  compare_unpaired(b, ARRAY_SIZE(b), t, ARRAY_SIZE(t), &r);
  assert_true(r.unpaired);
  check_i64((int64_t)r.n_base, 4, "n_base");
  check_i64((int64_t)r.n_target, 4, "n_target");
  check_i64((int64_t)r.n_pairs, 16, "n_pairs");
  check_i64(r.median_diff_us, 1000, "median_diff_us");
  assert_true(r.ci_available);
  check_i64(r.ci_low_us, 970, "ci_low_us");
  check_i64(r.ci_high_us, 1030, "ci_high_us");
  check_near(r.ci_level, 1.0 - 2.0 / 70.0, 1e-9, "ci_level");
  check_near(r.change_pct, 5000.0, 1e-9, "change_pct");
  assert_int_equal(r.verdict, COMPARE_SLOWER);
  /* The other way round: faster, the same interval negated. */
  compare_unpaired(t, ARRAY_SIZE(t), b, ARRAY_SIZE(b), &r);
  check_i64(r.median_diff_us, -1000, "median_diff_us (reversed)");
  check_i64(r.ci_low_us, -1030, "ci_low_us (reversed)");
  check_i64(r.ci_high_us, -970, "ci_high_us (reversed)");
  assert_int_equal(r.verdict, COMPARE_FASTER);
}

/* 3 and 3: P(U <= 0) = 1/C(6, 3) = 5 % > 2.5 %: no 95 % interval.  The
 * range of the differences [80, 120] with coverage 90 %, and no verdict
 * although every difference is positive. */
static void test_too_few(void **state)
{
  static const int64_t b[] = {10, 20, 30}, t[] = {110, 120, 130};
  struct compare_result r;

  (void)state;
  compare_unpaired(b, 3, t, 3, &r);
  check_i64(r.median_diff_us, 100, "median_diff_us");
  assert_false(r.ci_available);
  check_i64(r.ci_low_us, 80, "ci_low_us");
  check_i64(r.ci_high_us, 120, "ci_high_us");
  check_near(r.ci_level, 0.9, 1e-9, "ci_level");
  assert_int_equal(r.verdict, COMPARE_NO_CLEAR_DIFFERENCE);
}

/* The same values on both sides: shift 0, an interval around it, no
 * difference.  10 and 10 (C(20, 10) = 184756): the exact 2.5 % point is
 * w = 23 (P(U <= 23) = 0.0216, P(U <= 24) = 0.0262), close to the normal
 * approximation's floor(50 - 1.96 * 13.23) = 24. */
static void test_same(void **state)
{
  int64_t v[10];
  struct compare_result r;
  size_t i;

  (void)state;
  for (i = 0; i < 10; i++)
    v[i] = (int64_t)(i + 1) * 100;
  compare_unpaired(v, 10, v, 10, &r);
  check_i64(r.median_diff_us, 0, "median_diff_us");
  assert_true(r.ci_available);
  assert_true(r.ci_low_us < 0 && r.ci_high_us > 0);
  check_near(r.ci_level, 1.0 - 2.0 * 0.0216, 0.001, "ci_level");
  assert_int_equal(r.verdict, COMPARE_NO_CLEAR_DIFFERENCE);
}

/* Nothing on one side: nothing compared, no verdict. */
static void test_empty(void **state)
{
  static const int64_t b[] = {1, 2, 3};
  struct compare_result r;

  (void)state;
  compare_unpaired(b, 3, NULL, 0, &r);
  check_i64((int64_t)r.n_pairs, 0, "n_pairs");
  assert_true(isnan(r.change_pct));
  assert_int_equal(r.verdict, COMPARE_NO_CLEAR_DIFFERENCE);
}

/* Large sides are thinned and use the normal approximation: 3000 and 3000
 * values, the target 500 above: the shift is found, the coverage is close
 * to 95 %. */
static void test_large(void **state)
{
  int64_t *b = malloc(3000 * sizeof(*b)), *t = malloc(3000 * sizeof(*t));
  struct compare_result r;
  size_t i;

  (void)state;
  assert_non_null(b);
  assert_non_null(t);
  for (i = 0; i < 3000; i++) {
    b[i] = (int64_t)((i * 7919) % 3000);
    t[i] = b[i] + 500;
  }
  compare_unpaired(b, 3000, t, 3000, &r);
  check_i64((int64_t)r.n_base, 3000, "n_base");
  assert_true(r.n_pairs <= 1000000);
  assert_true(r.median_diff_us >= 490 && r.median_diff_us <= 510);
  assert_true(r.ci_available);
  assert_true(r.ci_low_us > 0);
  check_near(r.ci_level, 0.95, 0.005, "ci_level");
  assert_int_equal(r.verdict, COMPARE_SLOWER);
  free(b);
  free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shift), cmocka_unit_test(test_too_few),
      cmocka_unit_test(test_same),  cmocka_unit_test(test_empty),
      cmocka_unit_test(test_large),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
