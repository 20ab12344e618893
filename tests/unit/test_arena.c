/*
 * test_arena.c: the arena of one set of results (arena.c): a stored
 * string never moves, whatever is stored after it; inside a sample
 * (between arena_sample_begin and arena_sample_end) no table rehashes and,
 * for a sample of ordinary size, no block is allocated; strings met when
 * a table is full inside a sample are stored aside and deduplicated when
 * the table next grows, between samples; overlapping samples never grow
 * a table; results own their arena; an arena that expects little
 * starts small and keeps every promise past it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "results.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/* A header value that differs from sample to sample (a Date, an ETag, a
 * request id), as the probe stores them. */
static void value(char *s, size_t size, size_t i)
{
  snprintf(s, size, "req-%zu-0123456789abcdef0123456789abcdef", i);
}

/* Stores n_samples samples of per distinct strings each and checks, after
 * each sample, that every string stored so far is where it was and reads
 * the same; no table grows inside a sample. */
static void test_no_move(void **state)
{
  enum { SAMPLES = 400, PER = 300, N = SAMPLES * PER };
  struct arena *a = arena_alloc();
  const char **p = xmalloc(N * sizeof(*p));
  struct arena_stats st;
  size_t i, k, n = 0;
  char s[64];

  (void)state;
  for (k = 0; k < SAMPLES; k++) {
    arena_sample_begin(a);
    for (i = 0; i < PER; i++, n++) {
      value(s, sizeof(s), n);
      p[n] = arena_intern(a, s);
      /* Names repeat: the same pointer every sample. */
      assert_ptr_equal(arena_intern(a, "content-type"),
                       arena_intern(a, "content-type"));
    }
    arena_sample_end(a);
    if (k % 50 == 49)
      for (i = 0; i < n; i++) {
        value(s, sizeof(s), i);
        assert_string_equal(p[i], s);
        assert_ptr_equal(arena_intern(a, s), p[i]);
      }
  }
  arena_get_stats(a, &st);
  assert_int_equal(st.rehashes_in_sample, 0);
  assert_int_equal(st.blocks_in_sample, 0);
  assert_int_equal(st.side_stored, 0);
  assert_true(st.rehashes >= 9); /* 120,001 strings from 256 slots */
  assert_int_equal(arena_count(a), N + 1);
  free(p);
  arena_free(a);
}

/* A sample far bigger than the room made for it: no rehash inside it,
 * the strings past the table's limit stored aside (and readable), taken
 * into the table by the next sample's begin. */
static void test_side_store(void **state)
{
  enum { N = 5000 };
  struct arena *a = arena_alloc();
  const char **p = xmalloc(N * sizeof(*p));
  struct arena_stats st;
  size_t i;
  char s[64];

  (void)state;
  arena_sample_begin(a);
  for (i = 0; i < N; i++) {
    value(s, sizeof(s), i);
    p[i] = arena_intern(a, s);
  }
  arena_get_stats(a, &st);
  assert_int_equal(st.rehashes_in_sample, 0);
  assert_true(st.side_stored > 0);
  assert_int_equal(arena_count(a), N);
  arena_sample_end(a);
  arena_sample_begin(a); /* grows, and takes the side strings in */
  arena_get_stats(a, &st);
  assert_int_equal(st.rehashes_in_sample, 0);
  for (i = 0; i < N; i++) {
    value(s, sizeof(s), i);
    assert_string_equal(p[i], s);
    assert_ptr_equal(arena_intern(a, s), p[i]);
  }
  arena_get_stats(a, &st);
  assert_int_equal(arena_count(a), N);
  arena_sample_end(a);
  free(p);
  arena_free(a);
}

/* Overlapping samples (a loop's concurrent transfers): a begin while
 * another sample is in flight never rehashes. */
static void test_overlap(void **state)
{
  struct arena *a = arena_alloc();
  struct arena_stats st, st2;
  size_t i;
  char s[64];

  (void)state;
  arena_sample_begin(a);
  for (i = 0; i < 3000; i++) {
    value(s, sizeof(s), i);
    arena_intern(a, s);
  }
  arena_get_stats(a, &st);
  arena_sample_begin(a); /* the first is still in flight */
  arena_get_stats(a, &st2);
  assert_int_equal(st2.rehashes, st.rehashes);
  arena_sample_end(a);
  arena_sample_end(a);
  arena_sample_begin(a);
  arena_get_stats(a, &st2);
  assert_true(st2.rehashes > st.rehashes);
  assert_int_equal(st2.rehashes_in_sample, 0);
  arena_sample_end(a);
  arena_free(a);
}

/* Blobs and raw memory: aligned, never moved, blobs deduplicated. */
static void test_blob_mem(void **state)
{
  struct arena *a = arena_alloc();
  const char *v[3] = {"a", "b", "c"};
  const void *b1, *b2;
  void *m;

  (void)state;
  b1 = arena_intern_blob(a, v, sizeof(v));
  b2 = arena_intern_blob(a, v, sizeof(v));
  assert_ptr_equal(b1, b2);
  assert_int_equal((uintptr_t)b1 % sizeof(void *), 0);
  assert_null(arena_intern_blob(a, v, 0));
  m = arena_mem(a, 40);
  assert_int_equal((uintptr_t)m % (2 * sizeof(void *)), 0);
  memset(m, 1, 40);
  assert_memory_equal(b1, v, sizeof(v));
  arena_clear(a);
  assert_int_equal(arena_count(a), 0);
  assert_int_equal(arena_bytes(a), 0);
  arena_free(a);
  arena_free(NULL);
}

/* Results own their arena; the thread's current arena is where the
 * strpool calls store. */
static void test_results_own(void **state)
{
  struct results r;
  struct arena *was, *mine;
  const char *p;

  (void)state;
  results_init(&r);
  assert_null(r.arena);
  mine = results_arena(&r);
  assert_ptr_equal(results_arena(&r), mine);
  was = strpool_use(mine);
  p = strpool_intern("x-cache");
  assert_ptr_equal(arena_intern(mine, "x-cache"), p);
  assert_int_equal(strpool_count(), 1);
  assert_ptr_equal(strpool_use(was), mine);
  /* The default arena is another one. */
  assert_ptr_not_equal(strpool_intern("x-cache"), p);
  strpool_release_all();
  results_release(&r);
  assert_null(r.arena);
}

/* An arena that expects little (a probe of hopsplit serve: one sample)
 * starts small: one block of about what it expects and tables for it;
 * a sample past that still never rehashes inside itself nor moves a
 * string, and the arena grows back to the usual sizes between samples;
 * the sizes outlive arena_clear. */
static void test_expect(void **state)
{
  enum { BIG = 3000 };
  struct arena *a = arena_alloc();
  const char **p = xmalloc(BIG * sizeof(*p));
  struct arena_stats st;
  size_t i, k;
  char s[64];

  (void)state;
  arena_expect(a, 64, 4096);
  for (k = 0; k < 2; k++) {
    arena_sample_begin(a);
    for (i = 0; i < 50; i++) {
      value(s, sizeof(s), i);
      p[i] = arena_intern(a, s);
    }
    assert_non_null(arena_intern_blob(a, p, 8 * sizeof(*p)));
    arena_sample_end(a);
    arena_get_stats(a, &st);
    /* 50 strings of 42 bytes: one 4 KiB block, both tables made once. */
    assert_int_equal(st.blocks, 1);
    assert_int_equal(st.rehashes, 2);
    assert_int_equal(st.side_stored, 0);
    assert_int_equal(arena_count(a), 50);
    arena_clear(a);
  }
  /* A sample far past what it expected. */
  arena_sample_begin(a);
  for (i = 0; i < BIG; i++) {
    value(s, sizeof(s), i);
    p[i] = arena_intern(a, s);
  }
  arena_sample_end(a);
  arena_get_stats(a, &st);
  assert_int_equal(st.rehashes_in_sample, 0);
  assert_true(st.side_stored > 0);
  arena_sample_begin(a);
  arena_sample_end(a);
  for (i = 0; i < BIG; i++) {
    value(s, sizeof(s), i);
    assert_string_equal(p[i], s);
    assert_ptr_equal(arena_intern(a, s), p[i]);
  }
  assert_int_equal(arena_count(a), BIG);
  arena_get_stats(a, &st);
  /* Blocks doubled from 4 KiB (126 KiB of strings: not one per string). */
  assert_true(st.blocks < 12);
  free(p);
  arena_free(a);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_move),     cmocka_unit_test(test_side_store),
      cmocka_unit_test(test_overlap),     cmocka_unit_test(test_blob_mem),
      cmocka_unit_test(test_results_own), cmocka_unit_test(test_expect),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
