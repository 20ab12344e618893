/*
 * arena_pause.c: the longest pause a sample sees from the string arena
 * (tests/bench/arena_pause builds and runs it).  N distinct header values
 * (a Date, an ETag, a request id: each sample brings new ones) are stored
 * in samples of PER strings each, with the header names that repeat; the
 * figure is the longest single store inside a sample (what a libcurl
 * header callback waits for) and, with the arena, the longest
 * arena_sample_begin (between samples, before the next one's clock), in
 * the thread's CPU time.
 *
 * Built two ways: -DBEFORE against the thread-local pool of strpool.c
 * before the arena (git show 864855b:src/util/strpool.c), which grows its
 * table by rehashing inside whichever store finds it half full; and
 * against arena.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef BEFORE
#include "strpool.h"
#else
#include "arena.h"
#endif

/* The thread's CPU time: the work a store does, without the time the
 * thread was preempted on a busy machine (which would hide it). */
static int64_t now_ns(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
  size_t per = argc > 2 ? strtoul(argv[2], NULL, 10) : 100;
  int64_t worst = 0, worst_begin = 0, t0, t;
  size_t i = 0;
  char s[96];
#ifndef BEFORE
  struct arena *a = arena_alloc();
  struct arena_stats st;
#endif

  while (i < n) {
    size_t k;

#ifndef BEFORE
    t0 = now_ns();
    arena_sample_begin(a);
    t = now_ns() - t0;
    if (t > worst_begin)
      worst_begin = t;
#endif
    for (k = 0; k < per && i < n; k++, i++) {
      snprintf(s, sizeof(s), "req-%zu-0123456789abcdef0123456789abcdef", i);
      t0 = now_ns();
#ifdef BEFORE
      strpool_intern(s);
      strpool_intern("content-type");
#else
      arena_intern(a, s);
      arena_intern(a, "content-type");
#endif
      t = now_ns() - t0;
      if (t > worst)
        worst = t;
    }
#ifndef BEFORE
    arena_sample_end(a);
#endif
  }
#ifdef BEFORE
  printf("before: %zu strings, %zu a sample: longest store inside a sample "
         "%.3f ms\n",
         n, per, (double)worst / 1e6);
  strpool_release_all();
#else
  arena_get_stats(a, &st);
  printf("arena:  %zu strings, %zu a sample: longest store inside a sample "
         "%.3f ms; longest arena_sample_begin (between samples) %.3f ms; "
         "rehashes %zu (inside samples %zu), blocks %zu (inside samples "
         "%zu), stored aside %zu\n",
         n, per, (double)worst / 1e6, (double)worst_begin / 1e6, st.rehashes,
         st.rehashes_in_sample, st.blocks, st.blocks_in_sample,
         st.side_stored);
  arena_free(a);
#endif
  return 0;
}
