/*
 * test_compare.c: unit tests of compare.c, the paired comparison and drift
 * of the analysis stage.  Every expected interval below is worked out by
 * hand in a comment: sort the differences d(1) <= ... <= d(n), find the
 * largest k with P(B <= k-1) <= 2.5 % for B ~ Binomial(n, 1/2) (P(B <= j)
 * is the sum of C(n, i) for i <= j, divided by 2^n), and read off
 * [d(k), d(n-k+1)] with coverage 1 - 2 P(B <= k-1).  Verdicts on noisy data
 * come from recorded sample sets, never from a live run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "compare.h"

#include "banned.h"

/* Assertions that print both values, signed (uv ASSERT_EQ). */
#define assert_i64(got, want)                                                 \
  check_i64((got), (want), #got, __FILE__, __LINE__)
#define assert_near(got, want, eps)                                           \
  check_near((got), (want), (eps), #got, __FILE__, __LINE__)

static void check_i64(int64_t got, int64_t want, const char *expr,
                      const char *file, int line)
{
  if (got != want) {
    print_error("%s is %" PRId64 ", expected %" PRId64 "\n", expr, got, want);
    _fail(file, line);
  }
}

static void check_near(double got, double want, double eps, const char *expr,
                       const char *file, int line)
{
  if (!(fabs(got - want) <= eps)) {
    print_error("%s is %.15g, expected %.15g (+- %g)\n", expr, got, want, eps);
    _fail(file, line);
  }
}

static void assert_verdict(enum compare_verdict got, enum compare_verdict want)
{
  assert_string_equal(compare_verdict_name(got), compare_verdict_name(want));
}

/* ------------------------------------------------------------------ */
/* Names */

static void test_verdict_names(void **state)
{
  (void)state;
  assert_string_equal(compare_verdict_names[COMPARE_FASTER], "faster");
  assert_string_equal(compare_verdict_names[COMPARE_SLOWER], "slower");
  assert_string_equal(compare_verdict_names[COMPARE_NO_CLEAR_DIFFERENCE],
                      "no clear difference");
  assert_string_equal(compare_verdict_name(COMPARE_VERDICT_COUNT), "unknown");
  assert_int_equal(compare_verdict_from_name("slower"), COMPARE_SLOWER);
  assert_int_equal(compare_verdict_from_name("no clear difference"),
                   COMPARE_NO_CLEAR_DIFFERENCE);
  assert_int_equal(compare_verdict_from_name("Faster"), COMPARE_VERDICT_COUNT);
  assert_int_equal(compare_verdict_from_name(NULL), COMPARE_VERDICT_COUNT);
}

/* ------------------------------------------------------------------ */
/* Nearest-rank percentiles */

static void test_percentile_nearest_rank(void **state)
{
  /* Unsorted on purpose: sorted it is 10, 20, ..., 100. */
  static const int64_t v[] = {70, 10, 100, 40, 30, 90, 20, 60, 50, 80};
  int64_t thirty[30];
  size_t i;

  (void)state;
  /* p50 of 10 is the ceil(5)-th = 5th smallest; p95 the ceil(9.5)-th =
   * 10th; p10 the 1st; p0 the minimum by convention. */
  assert_i64(compare_median(v, 10), 50);
  assert_i64(compare_percentile(v, 10, 95), 100);
  assert_i64(compare_percentile(v, 10, 10), 10);
  assert_i64(compare_percentile(v, 10, 11), 20);
  assert_i64(compare_percentile(v, 10, 0), 10);
  assert_i64(compare_percentile(v, 10, 100), 100);
  /* Odd n: the first 9 are 10..100 without 80; the 5th is 50. */
  assert_i64(compare_median(v, 9), 50);
  assert_i64(compare_median(v, 1), 70);
  assert_i64(compare_median(v, 0), 0);
  /* SPEC 3.5: p95 of 30 samples is the 29th smallest. */
  for (i = 0; i < 30; i++)
    thirty[i] = (int64_t)(30 - i);
  assert_i64(compare_percentile(thirty, 30, 95), 29);
  assert_i64(compare_median(thirty, 30), 15);
  /* The input is not modified. */
  assert_i64(v[0], 70);
  assert_i64(thirty[0], 30);
}

/* ------------------------------------------------------------------ */
/* The rank k of the sign-test interval */

/* Exact k by integer arithmetic, for n <= 62: C(n, i) from Pascal's
 * triangle, and P(B <= k-1) <= 1/40  <=>  40 * sum <= 2^n. */
static size_t exact_rank(size_t n, uint64_t *tail)
{
  uint64_t row[64];
  uint64_t sum = 0;
  size_t i;
  size_t j;
  size_t k = 0;

  row[0] = 1;
  for (i = 1; i <= n; i++) {
    row[i] = 1;
    for (j = i - 1; j > 0; j--)
      row[j] += row[j - 1];
  }
  for (i = 0; i <= n / 2; i++) {
    if (40 * (sum + row[i]) > (UINT64_C(1) << n))
      break;
    sum += row[i];
    k = i + 1;
  }
  *tail = sum;
  return k;
}

static void test_ci_rank_exact_small_n(void **state)
{
  size_t n;

  (void)state;
  for (n = 1; n <= 62; n++) {
    uint64_t tail;
    size_t want = exact_rank(n, &tail);
    double cov;
    size_t got = compare_ci_rank(n, &cov);

    if (got != want) {
      print_error("n = %zu: rank %zu, expected %zu\n", n, got, want);
      fail();
    }
    if (want)
      assert_near(cov, 1.0 - 2.0 * (double)tail / ldexp(1.0, (int)n), 1e-12);
    else
      assert_near(cov, 1.0 - ldexp(1.0, 1 - (int)n), 1e-15);
  }
}

static void test_ci_rank_table(void **state)
{
  /* Ranks of the 95 % sign-test interval, checked against exact rational
   * arithmetic (Python integers) when this test was written; n = 100 also
   * matches the published tables ([d(40), d(61)]). */
  static const struct {
    size_t n;
    size_t k;
    double coverage;
  } cases[] = {
      {0, 0, 0.0},
      {1, 0, 0.0},
      {5, 0, 0.9375},
      {6, 1, 0.96875},
      {10, 2, 0.978515625},
      {20, 6, 0.958610534668},
      {30, 10, 0.957226054743},
      {50, 18, 0.967160862436},
      {100, 40, 0.964799799782},
      {1000, 469, 0.953708802640},
      {5000, 2431, 0.950684141896},
      {10000, 4902, 0.951167050104},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    double cov = -1;
    size_t k = compare_ci_rank(cases[i].n, &cov);

    if (k != cases[i].k) {
      print_error("n = %zu: rank %zu, expected %zu\n", cases[i].n, k,
                  cases[i].k);
      fail();
    }
    assert_near(cov, cases[i].coverage, 1e-11);
  }
  assert_int_equal(compare_ci_rank(30, NULL), 10);
}

/* ------------------------------------------------------------------ */
/* Paired comparison: hand-computed intervals.  The baseline is 100 ms in
 * every round and target = baseline + d, so the differences are exactly the
 * listed d and change_pct is median / 100 000 * 100. */

#define MAX_ROUNDS 40
#define BASE_US    100000

struct paired_case {
  const char *name;
  size_t n;
  int64_t d[MAX_ROUNDS];
  int64_t median;
  int64_t low;
  int64_t high;
  int ci_available;
  double ci_level;
  enum compare_verdict verdict;
};

static const struct paired_case paired_cases[] = {
    /* n = 5: no interval reaches 95 %: [d(1), d(5)] misses the median only
     * when all five differences are on one side, 2/32, so its coverage is
     * 30/32 = 93.75 %.  Reported as [min, max] = [-5000, -1000] with
     * ci_available 0, and "no clear difference" although every difference is
     * negative.  Median: ceil(5/2) = 3rd smallest = -3000. */
    {"n5 all negative",
     5,
     {-1000, -5000, -3000, -2000, -4000},
     -3000,
     -5000,
     -1000,
     0,
     0.9375,
     COMPARE_NO_CLEAR_DIFFERENCE},
    /* n = 6: P(B <= 0) = 1/64 <= 2.5 %, P(B <= 1) = 7/64 > 2.5 %, so k = 1:
     * [d(1), d(6)] = [-6000, -1000], coverage 1 - 2/64 = 96.875 %, entirely
     * below 0: faster.  Median: 3rd smallest = -4000. */
    {"n6 all negative",
     6,
     {-3000, -1000, -6000, -2000, -5000, -4000},
     -4000,
     -6000,
     -1000,
     1,
     0.96875,
     COMPARE_FASTER},
    /* n = 6 with one positive difference: sorted -6 -5 -4 -3 -2 +0.5
     * (ms); [d(1), d(6)] = [-6000, 500] contains 0.  Median: 3rd smallest
     * = -4000. */
    {"n6 one positive",
     6,
     {-3000, 500, -6000, -2000, -5000, -4000},
     -4000,
     -6000,
     500,
     1,
     0.96875,
     COMPARE_NO_CLEAR_DIFFERENCE},
    /* n = 10: P(B <= 1) = (1 + 10)/1024 = 1.07 %, P(B <= 2) = 56/1024 =
     * 5.5 %, so k = 2: [d(2), d(9)], coverage 1 - 22/1024 = 97.85 %.
     * Sorted: -8 -7 -6 -4 -3 -2 -1 2 3 5 (ms): [d(2), d(9)] = [-7000, 3000]
     * contains 0.  Median: 5th smallest = -3000. */
    {"n10 mixed",
     10,
     {5000, -1000, -8000, 3000, -2000, -7000, -4000, -6000, 2000, -3000},
     -3000,
     -7000,
     3000,
     1,
     0.978515625,
     COMPARE_NO_CLEAR_DIFFERENCE},
    /* n = 10 with one outlier: sorted -10 -9 -8 -7 -6 -5 -4 -3 -2 +50 (ms);
     * [d(2), d(9)] = [-9000, -2000] ignores the outlier: faster.  Median:
     * 5th smallest = -6000. */
    {"n10 outlier",
     10,
     {-2000, 50000, -10000, -4000, -9000, -3000, -8000, -5000, -7000, -6000},
     -6000,
     -9000,
     -2000,
     1,
     0.978515625,
     COMPARE_FASTER},
    /* n = 30: the sum of C(30, i) for i <= 9 is 22 964 087, so P(B <= 9)
     * = 22 964 087 / 2^30 = 2.14 % <= 2.5 %; adding C(30, 10) = 30 045 015
     * gives P(B <= 10) = 4.94 % > 2.5 %.  So k = 10: [d(10), d(21)],
     * coverage 1 - 2 * 2.14 % = 95.72 %.  Differences -19 .. +10 ms
     * (shuffled): d(10) = -10 ms, d(21) = +1 ms, contains 0.  Median: 15th
     * smallest = -5 ms. */
    {"n30 straddles zero",
     30,
     {3000,  -7000, -19000, 10000, -1000,  -12000, 6000,  -15000,
      0,     -4000, -9000,  8000,  -17000, 2000,   -6000, -13000,
      4000,  -2000, -11000, 9000,  -18000, -3000,  7000,  -14000,
      -8000, 1000,  -16000, 5000,  -10000, -5000},
     -5000,
     -10000,
     1000,
     1,
     0.957226054743,
     COMPARE_NO_CLEAR_DIFFERENCE},
    /* n = 30, the same shifted by -6 ms: -25 .. +4 ms; d(10) = -16 ms,
     * d(21) = -5 ms: faster.  Median: 15th smallest = -11 ms. */
    {"n30 faster",
     30,
     {-3000,  -13000, -25000, 4000,  -7000,  -18000, 0,      -21000,
      -6000,  -10000, -15000, 2000,  -23000, -4000,  -12000, -19000,
      -2000,  -8000,  -17000, 3000,  -24000, -9000,  1000,   -20000,
      -14000, -5000,  -22000, -1000, -16000, -11000},
     -11000,
     -16000,
     -5000,
     1,
     0.957226054743,
     COMPARE_FASTER},
    /* Ties, n = 10: sorted -2 -2 -2 0 0 1 1 1 1 3 (ms).  [d(2), d(9)] =
     * [-2000, 1000]; median d(5) = 0. */
    {"n10 ties",
     10,
     {1000, -2000, 0, 1000, -2000, 3000, 1000, 0, -2000, 1000},
     0,
     -2000,
     1000,
     1,
     0.978515625,
     COMPARE_NO_CLEAR_DIFFERENCE},
    /* Ties at the edge, n = 10: sorted -3 x6, -1 -1 0 0 (ms).  [d(2), d(9)]
     * = [-3000, 0] touches 0, so it contains 0: no clear difference. */
    {"n10 ties touching zero",
     10,
     {-3000, 0, -3000, -1000, -3000, -3000, 0, -3000, -1000, -3000},
     -3000,
     -3000,
     0,
     1,
     0.978515625,
     COMPARE_NO_CLEAR_DIFFERENCE},
    /* All equal: every order statistic is the same value x, so the
     * interval is [x, x] and the verdict follows the sign of x. */
    {"all equal negative",
     8,
     {-5000, -5000, -5000, -5000, -5000, -5000, -5000, -5000},
     -5000,
     -5000,
     -5000,
     1,
     0.9921875, /* n = 8: k = 1, 1 - 2/256 */
     COMPARE_FASTER},
    {"all equal positive",
     8,
     {250, 250, 250, 250, 250, 250, 250, 250},
     250,
     250,
     250,
     1,
     0.9921875,
     COMPARE_SLOWER},
    {"all zero",
     8,
     {0, 0, 0, 0, 0, 0, 0, 0},
     0,
     0,
     0,
     1,
     0.9921875,
     COMPARE_NO_CLEAR_DIFFERENCE},
    /* n = 1: [d(1), d(1)] has coverage 1 - 2/2 = 0. */
    {"single pair",
     1,
     {-7000},
     -7000,
     -7000,
     -7000,
     0,
     0.0,
     COMPARE_NO_CLEAR_DIFFERENCE},
};

static void test_paired_hand_computed(void **state)
{
  size_t c;

  (void)state;
  for (c = 0; c < ARRAY_SIZE(paired_cases); c++) {
    const struct paired_case *pc = &paired_cases[c];
    int64_t base[MAX_ROUNDS];
    int64_t target[MAX_ROUNDS];
    struct compare_result res;
    size_t i;

    for (i = 0; i < pc->n; i++) {
      base[i] = BASE_US;
      target[i] = BASE_US + pc->d[i];
    }
    compare_paired(base, target, NULL, pc->n, &res);
    print_message("case %s\n", pc->name);
    assert_int_equal(res.n_pairs, pc->n);
    assert_int_equal(res.n_dropped, 0);
    assert_i64(res.median_diff_us, pc->median);
    assert_i64(res.ci_low_us, pc->low);
    assert_i64(res.ci_high_us, pc->high);
    assert_int_equal(res.ci_available, pc->ci_available);
    assert_near(res.ci_level, pc->ci_level, 1e-11);
    assert_verdict(res.verdict, pc->verdict);
    assert_near(res.change_pct, (double)pc->median / BASE_US * 100.0, 1e-12);
  }
}

/* Rounds where either side failed are left out and counted.  The invalid
 * rounds carry wild values that would flip the verdict if they were
 * used. */
static void test_paired_dropped_rounds(void **state)
{
  /* Valid differences (ms): -1 -2 -3 -4 -5 -6 -7 -8 -9 -10, n = 10;
   * k = 2: [d(2), d(9)] = [-9000, -2000]: faster.  Median d(5) = -6000. */
  static const int64_t base[12] = {100000, 100000, 100000, 100000,
                                   100000, 999999, 100000, 100000,
                                   100000, 100000, 0,      100000};
  static const int64_t target[12] = {99000, 98000, 97000,   96000,
                                     95000, 0,     94000,   93000,
                                     92000, 91000, 9999999, 90000};
  static const bool valid[12] = {true, true, true, true, true,  false,
                                 true, true, true, true, false, true};
  static const bool none[3] = {false, false, false};
  struct compare_result res;

  (void)state;
  compare_paired(base, target, valid, 12, &res);
  assert_int_equal(res.n_pairs, 10);
  assert_int_equal(res.n_dropped, 2);
  assert_i64(res.median_diff_us, -6000);
  assert_i64(res.ci_low_us, -9000);
  assert_i64(res.ci_high_us, -2000);
  assert_int_equal(res.ci_available, 1);
  assert_verdict(res.verdict, COMPARE_FASTER);
  /* The baseline median is taken over the paired rounds only: 100 ms. */
  assert_near(res.change_pct, -6.0, 1e-12);

  /* Every round dropped: nothing to compare. */
  compare_paired(base, target, none, 3, &res);
  assert_int_equal(res.n_pairs, 0);
  assert_int_equal(res.n_dropped, 3);
  assert_i64(res.median_diff_us, 0);
  assert_int_equal(res.ci_available, 0);
  assert_near(res.ci_level, 0.0, 0.0);
  assert_true(isnan(res.change_pct));
  assert_verdict(res.verdict, COMPARE_NO_CLEAR_DIFFERENCE);

  /* No rounds at all. */
  compare_paired(base, target, NULL, 0, &res);
  assert_int_equal(res.n_pairs, 0);
  assert_int_equal(res.n_dropped, 0);
  assert_verdict(res.verdict, COMPARE_NO_CLEAR_DIFFERENCE);
}

static void test_paired_change_pct(void **state)
{
  /* Baseline sorted 80 90 100 110 120 (ms): median = 3rd = 100 ms.
   * Differences -20 -10 -30 -10 -20 (ms): sorted -30 -20 -20 -10 -10,
   * median = 3rd = -20 ms.  change = -20 / 100 * 100 = -20 %. */
  static const int64_t base[] = {100000, 80000, 120000, 90000, 110000};
  static const int64_t target[] = {80000, 70000, 90000, 80000, 90000};
  static const int64_t zero[] = {0, 0, 0};
  static const int64_t one[] = {1, 1, 1};
  struct compare_result res;

  (void)state;
  compare_paired(base, target, NULL, 5, &res);
  assert_i64(res.median_diff_us, -20000);
  assert_near(res.change_pct, -20.0, 1e-12);

  /* A baseline median of 0 has no percentage. */
  compare_paired(zero, one, NULL, 3, &res);
  assert_true(isnan(res.change_pct));
}

/* ------------------------------------------------------------------ */
/* Verdicts on recorded sample sets.  Totals (us) of 30 interleaved rounds,
 * generated once and frozen here: each round shares a round effect (the
 * network of that moment: a slow trend plus noise with a 15 ms spread),
 * each sample adds its own 2.5 ms noise and, now and then, a long tail.
 * The round effect dwarfs the 5 ms shift: the unpaired ranges overlap
 * almost completely (89-172 ms against 84-181 ms), but pairing by round
 * cancels it. */

static const int64_t rec_base[30] = {
    102999, 103157, 121881, 127063, 117188, 89211,  120623, 131198,
    105671, 96588,  129938, 162464, 114944, 131580, 123425, 119476,
    141285, 128801, 171669, 137635, 122320, 131031, 149155, 129254,
    127015, 114864, 154530, 120394, 124608, 155532};

/* The same distribution as the baseline (same centre, same round effect,
 * fresh sample noise). */
static const int64_t rec_same[30] = {
    99749,  105098, 121116, 129548, 116644, 88970,  117751, 168539,
    110189, 96483,  130248, 125962, 111987, 137502, 115548, 121800,
    140056, 126857, 130205, 141367, 118789, 131207, 146152, 127706,
    129063, 113576, 154563, 122792, 128261, 154643};

/* Centred 5 ms below the baseline. */
static const int64_t rec_fast[30] = {
    95955,  94444,  134624, 125324, 111565, 83670,  112657, 158678,
    103253, 88792,  123110, 123728, 107915, 130121, 114583, 117243,
    130536, 120924, 122629, 135797, 114521, 124609, 144062, 122230,
    118966, 108421, 180733, 111872, 126853, 150062};

static void test_recorded_verdicts(void **state)
{
  struct compare_result res;

  (void)state;
  /* Expected values from an independent implementation (exact integer
   * binomial, Python) over the same arrays: k = 10, [d(10), d(21)]. */
  compare_paired(rec_base, rec_same, NULL, 30, &res);
  assert_int_equal(res.n_pairs, 30);
  assert_i64(res.median_diff_us, -544);
  assert_i64(res.ci_low_us, -1548);
  assert_i64(res.ci_high_us, 1941);
  assert_verdict(res.verdict, COMPARE_NO_CLEAR_DIFFERENCE);
  assert_near(res.change_pct, -544.0 / 124608.0 * 100.0, 1e-12);

  compare_paired(rec_base, rec_fast, NULL, 30, &res);
  assert_i64(res.median_diff_us, -6828);
  assert_i64(res.ci_low_us, -7799);
  assert_i64(res.ci_high_us, -5093);
  assert_verdict(res.verdict, COMPARE_FASTER);
  assert_near(res.change_pct, -5.479583975346687, 1e-9);

  /* Roles swapped: the baseline is 5 ms slower than rec_fast. */
  compare_paired(rec_fast, rec_base, NULL, 30, &res);
  assert_i64(res.ci_low_us, 5093);
  assert_i64(res.ci_high_us, 7799);
  assert_verdict(res.verdict, COMPARE_SLOWER);

  /* A target against itself: all differences 0. */
  compare_paired(rec_base, rec_base, NULL, 30, &res);
  assert_i64(res.ci_low_us, 0);
  assert_i64(res.ci_high_us, 0);
  assert_verdict(res.verdict, COMPARE_NO_CLEAR_DIFFERENCE);
}

/* ------------------------------------------------------------------ */
/* Spearman and drift */

static void test_spearman_perfect(void **state)
{
  int64_t x[10];
  int64_t sq[10];
  int64_t neg[10];
  int64_t i;

  (void)state;
  for (i = 0; i < 10; i++) {
    x[i] = i + 1;
    sq[i] = (i + 1) * (i + 1) * 1000; /* monotone, not linear */
    neg[i] = -(i * i * i);
  }
  assert_near(compare_spearman(x, sq, 10), 1.0, 1e-15);
  assert_near(compare_spearman(x, neg, 10), -1.0, 1e-15);
  assert_near(compare_spearman(sq, neg, 10), -1.0, 1e-15);
}

static void test_spearman_known(void **state)
{
  /* Wikipedia's example (IQ against hours of TV per week), no ties:
   * sum d^2 = 194, rho = 1 - 6 * 194 / (10 * 99) = -29/165. */
  static const int64_t iq[] = {106, 100, 86, 101, 99, 103, 97, 113, 112, 110};
  static const int64_t tv[] = {7, 27, 2, 50, 28, 29, 20, 12, 6, 17};
  /* Ties in x.  Ranks of x: 1 2.5 2.5 4 5; of y: 1 3 2 5 4; both means 3.
   * Centred: x -2 -.5 -.5 1 2, y -2 0 -1 2 1.  Sxy = 4 + 0 + .5 + 2 + 2 =
   * 8.5, Sxx = 4 + .25 + .25 + 1 + 4 = 9.5, Syy = 10: rho = 8.5 /
   * sqrt(95) = 0.8720816. (1 - 6 sum d^2 / (n(n^2-1)) would give 0.875:
   * with ties it is not Spearman's rho.) */
  static const int64_t tx[] = {10, 20, 20, 30, 40};
  static const int64_t ty[] = {1, 3, 2, 5, 4};
  /* Ties on both sides.  Ranks of x: 1 2.5 2.5 4 6 6 6 8; of y: 1.5 1.5 4
   * 3 7 5.5 5.5 8; means 4.5.  Twice centred: x -7 -4 -4 -1 3 3 3 7, y -6
   * -6 -1 -3 5 2 2 7.  Sxy = 42 + 24 + 4 + 3 + 15 + 6 + 6 + 49 = 149, Sxx =
   * 49 + 16 + 16 + 1 + 9 + 9 + 9 + 49 = 158, Syy = 36 + 36 + 1 + 9 + 25 +
   * 4 + 4 + 49 = 164: rho = 149 / sqrt(158 * 164) = 0.9256265. */
  static const int64_t bx[] = {2, 4, 4, 6, 8, 8, 8, 10};
  static const int64_t by[] = {1, 1, 3, 2, 5, 4, 4, 6};

  (void)state;
  assert_near(compare_spearman(iq, tv, 10), -29.0 / 165.0, 1e-14);
  assert_near(compare_spearman(tx, ty, 5), 8.5 / sqrt(95.0), 1e-14);
  assert_near(compare_spearman(bx, by, 8), 149.0 / sqrt(158.0 * 164.0), 1e-14);
  /* Symmetric. */
  assert_near(compare_spearman(by, bx, 8), 149.0 / sqrt(158.0 * 164.0), 1e-14);
}

static void test_spearman_undefined(void **state)
{
  static const int64_t x[] = {1, 2, 3, 4};
  static const int64_t c[] = {5, 5, 5, 5};

  (void)state;
  assert_true(isnan(compare_spearman(x, x, 2)));
  assert_true(isnan(compare_spearman(x, x, 0)));
  assert_true(isnan(compare_spearman(x, c, 4)));
  assert_true(isnan(compare_spearman(c, x, 4)));
  assert_near(compare_spearman(x, x, 3), 1.0, 1e-15);
}

static void test_drift(void **state)
{
  int64_t trend[30];
  bool valid[30];
  size_t n_used = 99;
  double rho;
  size_t i;

  (void)state;
  /* The recorded baseline has a mild trend: rho = 0.4603 (computed
   * independently), below the warning threshold. */
  rho = compare_drift_rho(rec_base, NULL, 30, &n_used);
  assert_int_equal(n_used, 30);
  assert_near(rho, 0.46028921023359287, 1e-12);
  assert_false(compare_drift_warning(rho, n_used));

  /* Add 3 ms per round: the network got slower during the run.  rho =
   * 0.9092; warned.  Over the first 10 rounds only, rho = 0.4788. */
  for (i = 0; i < 30; i++)
    trend[i] = rec_base[i] + 3000 * (int64_t)i;
  rho = compare_drift_rho(trend, NULL, 30, &n_used);
  assert_near(rho, 0.9092324805339266, 1e-12);
  assert_true(compare_drift_warning(rho, n_used));
  assert_near(compare_drift_rho(trend, NULL, 10, NULL), 0.47878787878787876,
              1e-12);

  /* Failed rounds are skipped: their values do not count, and the others
   * keep their order. */
  for (i = 0; i < 30; i++) {
    valid[i] = i % 3 != 0;
    trend[i] = valid[i] ? (int64_t)(1000 - i) : 1000000;
  }
  rho = compare_drift_rho(trend, valid, 30, &n_used);
  assert_int_equal(n_used, 20);
  assert_near(rho, -1.0, 1e-15);
  assert_true(compare_drift_warning(rho, n_used));

  /* Too few values. */
  rho = compare_drift_rho(trend, valid, 3, &n_used);
  assert_int_equal(n_used, 2);
  assert_true(isnan(rho));
  assert_true(isnan(compare_drift_rho(trend, NULL, 0, &n_used)));
  assert_int_equal(n_used, 0);
}

static void test_drift_warning_threshold(void **state)
{
  (void)state;
  /* n = 10: sqrt(7/1.06) * atanh(|rho|) >= 2.576 from |rho| = 0.763
   * (the exact 1 % critical value of Spearman's rho is 0.794).  Under no
   * trend, |rho| >= 0.5 happens in about 14 % of runs of 10 rounds: the
   * old rule warned that often on a quiet network. */
  assert_false(compare_drift_warning(0.5, 10));
  assert_false(compare_drift_warning(-0.75, 10));
  assert_true(compare_drift_warning(0.77, 10));
  assert_true(compare_drift_warning(-0.8, 10));
  /* n = 25 needs 0.512, n = 30 only the floor of 0.5. */
  assert_false(compare_drift_warning(0.5, 25));
  assert_true(compare_drift_warning(0.53, 25));
  assert_true(compare_drift_warning(0.5, 30));
  assert_true(compare_drift_warning(-0.5, 30));
  assert_true(compare_drift_warning(1.0, 10));
  assert_true(compare_drift_warning(1.0, 1000));
  /* The floor holds whatever n: a weak trend is no warning. */
  assert_false(compare_drift_warning(0.4999, 10000));
  assert_false(compare_drift_warning(-0.4999, 100));
  assert_false(compare_drift_warning(0.9, 9));
  assert_false(compare_drift_warning(1.0, 9));
  assert_false(compare_drift_warning((double)NAN, 100));
}

/* The size of a drift: Theil-Sen's median slope times the rounds from the
 * first valid one to the last, worked out by hand. */
static void test_drift_change(void **state)
{
  int64_t v[400];
  bool valid[30];
  double slope = -1;
  size_t i;

  (void)state;
  /* A straight line: 100 us + 3 us per round over 10 rounds: every slope
   * is 3, the change over rounds 0..9 is 27. */
  for (i = 0; i < 10; i++)
    v[i] = 100 + 3 * (int64_t)i;
  assert_i64(compare_drift_change(v, NULL, 10, &slope), 27);
  assert_near(slope, 3.0, 1e-12);
  /* One wild round does not move the fit: 2 us per round, round 4 at
   * 50 ms.  Of the 45 slopes 9 involve round 4 (4 of them huge, 5 hugely
   * negative); the other 36 are 2, so the median (the 23rd) is 2. */
  for (i = 0; i < 10; i++)
    v[i] = 1000 + 2 * (int64_t)i;
  v[4] = 50000;
  assert_i64(compare_drift_change(v, NULL, 10, &slope), 18);
  assert_near(slope, 2.0, 1e-12);
  /* Invalid rounds are left out; the run spans valid rounds 1..28. */
  for (i = 0; i < 30; i++) {
    valid[i] = i != 0 && i != 29 && i % 7 != 3;
    v[i] = valid[i] ? 5000 - 10 * (int64_t)i : 999999;
  }
  assert_i64(compare_drift_change(v, valid, 30, &slope), -270);
  assert_near(slope, -10.0, 1e-12);
  /* An even number of slopes takes the mean of the middle two: values
   * 0, 10, 0 over rounds 0..2 give slopes 10, 0, -10 (odd: median 0);
   * values 0, 10, 10, 40 give slopes 10, 5, 13.33, 0, 15, 30 -> sorted
   * 0, 5, 10, 13.33, 15, 30 -> (10 + 13.33) / 2 = 11.67, times 3 = 35. */
  v[0] = 0, v[1] = 10, v[2] = 0;
  assert_i64(compare_drift_change(v, NULL, 3, NULL), 0);
  v[0] = 0, v[1] = 10, v[2] = 10, v[3] = 40;
  assert_i64(compare_drift_change(v, NULL, 4, &slope), 35);
  assert_near(slope, 35.0 / 3.0, 1e-12);
  /* Above 300 rounds, the pairs half the run apart: still exact on a
   * line, 5 us per round over 400 rounds. */
  for (i = 0; i < 400; i++)
    v[i] = 7 + 5 * (int64_t)i;
  assert_i64(compare_drift_change(v, NULL, 400, &slope), 1995);
  /* Nothing to fit. */
  assert_i64(compare_drift_change(v, NULL, 1, &slope), 0);
  assert_near(slope, 0.0, 0);
  for (i = 0; i < 30; i++)
    valid[i] = i == 5;
  assert_i64(compare_drift_change(v, valid, 30, NULL), 0);
}

/* A drift warns only when it is unlikely by chance and large enough. */
static void test_drift_matters(void **state)
{
  int64_t v[30];
  size_t i, n;
  double rho;

  (void)state;
  /* 5 % of the median and 1 ms, both inclusive. */
  assert_true(compare_drift_matters(15000, 300000));
  assert_true(compare_drift_matters(-15000, 300000));
  assert_false(compare_drift_matters(14999, 300000));
  assert_false(compare_drift_matters(999, 10000)); /* 10 %, below 1 ms */
  assert_true(compare_drift_matters(1000, 20000));
  assert_false(compare_drift_matters(5000, 0));
  /* The case: a steady trend of 1.5 ms on 300 ms (0.5 %) over 30
   * rounds is as significant as can be (rho = 1) and still no warning. */
  for (i = 0; i < 30; i++)
    v[i] = 300000 + 50 * (int64_t)i;
  rho = compare_drift_rho(v, NULL, 30, &n);
  assert_near(rho, 1.0, 1e-12);
  assert_true(compare_drift_warning(rho, n));
  assert_i64(compare_drift_change(v, NULL, 30, NULL), 1450);
  assert_false(compare_drift_matters(1450, compare_median(v, 30)));
  /* 1 ms per round on 300 ms: 29 ms, 9.7 %: a warning. */
  for (i = 0; i < 30; i++)
    v[i] = 300000 + 1000 * (int64_t)i;
  assert_true(compare_drift_matters(compare_drift_change(v, NULL, 30, NULL),
                                    compare_median(v, 30)));
}

/* The comparison the other way round. */
static void test_result_flip(void **state)
{
  struct compare_result r, f;

  (void)state;
  memset(&r, 0, sizeof(r));
  r.n_pairs = 10;
  r.median_diff_us = -5000;
  r.ci_low_us = -7000;
  r.ci_high_us = -1000;
  r.change_pct = -10.0;
  r.verdict = COMPARE_FASTER;
  r.ci_available = 1;
  r.ci_level = 0.9785;
  compare_result_flip(&r, &f);
  assert_i64(f.median_diff_us, 5000);
  assert_i64(f.ci_low_us, 1000);
  assert_i64(f.ci_high_us, 7000);
  assert_verdict(f.verdict, COMPARE_SLOWER);
  assert_true(isnan(f.change_pct));
  assert_int_equal(f.n_pairs, 10);
  assert_near(f.ci_level, 0.9785, 0);
  r.verdict = COMPARE_NO_CLEAR_DIFFERENCE;
  compare_result_flip(&r, &f);
  assert_verdict(f.verdict, COMPARE_NO_CLEAR_DIFFERENCE);
  compare_result_flip(&f, &r);
  assert_i64(r.ci_low_us, -7000);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_verdict_names),
      cmocka_unit_test(test_percentile_nearest_rank),
      cmocka_unit_test(test_ci_rank_exact_small_n),
      cmocka_unit_test(test_ci_rank_table),
      cmocka_unit_test(test_paired_hand_computed),
      cmocka_unit_test(test_paired_dropped_rounds),
      cmocka_unit_test(test_paired_change_pct),
      cmocka_unit_test(test_recorded_verdicts),
      cmocka_unit_test(test_spearman_perfect),
      cmocka_unit_test(test_spearman_known),
      cmocka_unit_test(test_spearman_undefined),
      cmocka_unit_test(test_drift),
      cmocka_unit_test(test_drift_warning_threshold),
      cmocka_unit_test(test_drift_change),
      cmocka_unit_test(test_drift_matters),
      cmocka_unit_test(test_result_flip),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
