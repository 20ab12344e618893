/*
 * test_schedule.c: unit tests of schedule.c, the order of the (target,
 * mode) pairs inside each round.  Checks that every order is a permutation
 * (each item exactly once per round), that rotate is a Latin square over n
 * rounds, and that shuffle is reproducible from its seed on any platform:
 * the expected permutations were computed by an independent implementation
 * (Python) of splitmix64 + xoshiro256** + Fisher-Yates as described in
 * schedule.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "arraysize.h"
#include "schedule.h"

#include "banned.h"

#define MAX_ITEMS 32

static void assert_permutation(const size_t *perm, size_t n)
{
  bool seen[MAX_ITEMS];
  size_t i;

  assert_true(n <= MAX_ITEMS);
  memset(seen, 0, sizeof(seen));
  for (i = 0; i < n; i++) {
    assert_in_range(perm[i], 0, n - 1);
    assert_false(seen[perm[i]]);
    seen[perm[i]] = true;
  }
}

static void test_names(void **state)
{
  unsigned i;

  (void)state;
  assert_string_equal(schedule_order_names[ORDER_ROTATE], "rotate");
  assert_string_equal(schedule_order_names[ORDER_SHUFFLE], "shuffle");
  assert_string_equal(schedule_order_names[ORDER_FIXED], "fixed");
  for (i = 0; i < ORDER_COUNT; i++) {
    enum schedule_order o = (enum schedule_order)i;

    assert_int_equal(schedule_order_from_name(schedule_order_name(o)), o);
  }
  assert_string_equal(schedule_order_name(ORDER_COUNT), "unknown");
  assert_int_equal(schedule_order_from_name("random"), ORDER_COUNT);
  assert_int_equal(schedule_order_from_name("Rotate"), ORDER_COUNT);
  assert_int_equal(schedule_order_from_name(""), ORDER_COUNT);
  assert_int_equal(schedule_order_from_name(NULL), ORDER_COUNT);
}

static void test_fixed(void **state)
{
  size_t perm[5];
  size_t i;
  int round;

  (void)state;
  for (round = 1; round <= 7; round++) {
    schedule_round(ORDER_FIXED, 5, round, 123, perm);
    for (i = 0; i < 5; i++)
      assert_int_equal(perm[i], i);
  }
}

static void test_rotate_rounds(void **state)
{
  /* Round r runs item (p + r - 1) mod n at position p. */
  static const size_t want[4][3] = {
      {0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 1, 2}};
  size_t perm[3];
  size_t i;
  int r;

  (void)state;
  for (r = 0; r < 4; r++) {
    schedule_round(ORDER_ROTATE, 3, r + 1, 0, perm);
    for (i = 0; i < 3; i++)
      assert_int_equal(perm[i], want[r][i]);
  }
}

/* Over n rounds each item runs exactly once at each position. */
static void test_rotate_latin_square(void **state)
{
  size_t n;

  (void)state;
  for (n = 1; n <= 9; n++) {
    unsigned at[MAX_ITEMS][MAX_ITEMS]; /* at[item][position] */
    size_t perm[MAX_ITEMS];
    size_t i;
    size_t p;
    int round;

    memset(at, 0, sizeof(at));
    for (round = 1; round <= (int)n; round++) {
      schedule_round(ORDER_ROTATE, n, round, 0, perm);
      assert_permutation(perm, n);
      for (p = 0; p < n; p++)
        at[perm[p]][p]++;
    }
    for (i = 0; i < n; i++) {
      for (p = 0; p < n; p++)
        assert_int_equal(at[i][p], 1);
    }
    /* And then it starts over. */
    schedule_round(ORDER_ROTATE, n, (int)n + 1, 0, perm);
    for (p = 0; p < n; p++)
      assert_int_equal(perm[p], p);
  }
}

static void test_shuffle_is_permutation(void **state)
{
  static const uint64_t seeds[] = {0, 1, 42, UINT64_MAX};
  size_t perm[MAX_ITEMS];
  size_t s;
  size_t n;
  int round;

  (void)state;
  for (s = 0; s < ARRAY_SIZE(seeds); s++) {
    for (n = 1; n <= 20; n++) {
      for (round = 1; round <= 50; round++) {
        schedule_round(ORDER_SHUFFLE, n, round, seeds[s], perm);
        assert_permutation(perm, n);
      }
    }
  }
}

/* The same seed gives the same schedule on every platform. */
static void test_shuffle_golden(void **state)
{
  static const struct {
    uint64_t seed;
    int round;
    size_t perm[8];
  } cases[] = {
      {42, 1, {2, 3, 6, 4, 1, 0, 5, 7}},
      {42, 2, {7, 6, 0, 5, 4, 2, 3, 1}},
      {42, 3, {6, 1, 0, 2, 4, 5, 7, 3}},
      {0, 1, {1, 2, 4, 0, 7, 5, 6, 3}},
      {0, 2, {5, 2, 1, 3, 0, 4, 7, 6}},
      {UINT64_C(0xdeadbeefcafef00d), 1, {4, 2, 3, 1, 0, 6, 5, 7}},
      {UINT64_C(0xdeadbeefcafef00d), 3, {2, 1, 3, 0, 6, 5, 4, 7}},
  };
  size_t c;

  (void)state;
  for (c = 0; c < ARRAY_SIZE(cases); c++) {
    size_t perm[8];
    size_t i;

    schedule_round(ORDER_SHUFFLE, 8, cases[c].round, cases[c].seed, perm);
    for (i = 0; i < 8; i++) {
      if (perm[i] != cases[c].perm[i]) {
        print_error("seed %llu round %d position %zu: item %zu, "
                    "expected %zu\n",
                    (unsigned long long)cases[c].seed, cases[c].round, i,
                    perm[i], cases[c].perm[i]);
        fail();
      }
    }
  }
}

static bool same_schedule(uint64_t seed_a, uint64_t seed_b, size_t n,
                          int rounds)
{
  size_t a[MAX_ITEMS];
  size_t b[MAX_ITEMS];
  int round;

  for (round = 1; round <= rounds; round++) {
    schedule_round(ORDER_SHUFFLE, n, round, seed_a, a);
    schedule_round(ORDER_SHUFFLE, n, round, seed_b, b);
    if (memcmp(a, b, n * sizeof(a[0])))
      return false;
  }
  return true;
}

static void test_shuffle_seeded(void **state)
{
  size_t a[6];
  size_t b[6];
  uint64_t seed;
  int round;
  int differ = 0;

  (void)state;
  /* Reproducible: the same (seed, round) always gives the same order. */
  assert_true(same_schedule(7, 7, 6, 30));
  assert_true(same_schedule(UINT64_MAX, UINT64_MAX, 12, 30));
  /* Different seeds give different schedules.  Over 10 rounds of 6 items
   * a coincidence has probability 720^-10. */
  for (seed = 0; seed < 50; seed++)
    assert_false(same_schedule(seed, seed + 1, 6, 10));
  assert_false(same_schedule(1, UINT64_C(1) << 63, 6, 10));
  /* Different rounds of one seed differ too (not one order repeated). */
  for (round = 2; round <= 30; round++) {
    schedule_round(ORDER_SHUFFLE, 6, 1, 99, a);
    schedule_round(ORDER_SHUFFLE, 6, round, 99, b);
    if (memcmp(a, b, sizeof(a)))
      differ++;
  }
  assert_true(differ >= 25);
}

/* Unbiased: over 6000 rounds each of the 6 orders of 3 items should come
 * up about 1000 times (binomial sd ~29; the bounds are 5 sd), and each item
 * about 2000 times at each position.  Deterministic, since the seed is. */
static void test_shuffle_uniform(void **state)
{
  unsigned perm_count[3][3][3];
  unsigned pos_count[3][3];
  size_t perm[3];
  size_t i;
  size_t j;
  int round;

  (void)state;
  memset(perm_count, 0, sizeof(perm_count));
  memset(pos_count, 0, sizeof(pos_count));
  for (round = 1; round <= 6000; round++) {
    schedule_round(ORDER_SHUFFLE, 3, round, 2024, perm);
    perm_count[perm[0]][perm[1]][perm[2]]++;
    for (i = 0; i < 3; i++)
      pos_count[perm[i]][i]++;
  }
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 3; j++) {
      assert_in_range(pos_count[i][j], 1800, 2200);
      /* The third item of a permutation of 0, 1, 2 is 3 - i - j. */
      if (i != j)
        assert_in_range(perm_count[i][j][3 - i - j], 855, 1145);
    }
  }
}

static void test_zero_items(void **state)
{
  size_t sentinel = 12345;
  unsigned i;

  (void)state;
  for (i = 0; i < ORDER_COUNT; i++) {
    schedule_round((enum schedule_order)i, 0, 1, 1, &sentinel);
    assert_int_equal(sentinel, 12345);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_fixed),
      cmocka_unit_test(test_rotate_rounds),
      cmocka_unit_test(test_rotate_latin_square),
      cmocka_unit_test(test_shuffle_is_permutation),
      cmocka_unit_test(test_shuffle_golden),
      cmocka_unit_test(test_shuffle_seeded),
      cmocka_unit_test(test_shuffle_uniform),
      cmocka_unit_test(test_zero_items),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
