/*
 * check.h: assertions for table-driven unit tests that name the failing
 * row and print both values (uv ASSERT_EQ), and a file reader for the
 * captured data in tests/data.  Include after <cmocka.h>.
 */
#ifndef HOPSPLIT_TEST_CHECK_H
#define HOPSPLIT_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xalloc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define CHECK_STR(row, got, want)                                             \
  do {                                                                        \
    if (!(got) || strcmp((got), (want))) {                                    \
      print_error("case %s: %s is '%s', want '%s'\n", (row), #got,            \
                  (got) ? (got) : "(null)", (want));                          \
      fail();                                                                 \
    }                                                                         \
  } while (0)

#define CHECK_INT(row, got, want)                                             \
  do {                                                                        \
    if ((long)(got) != (long)(want)) {                                        \
      print_error("case %s: %s is %ld, want %ld\n", (row), #got, (long)(got), \
                  (long)(want));                                              \
      fail();                                                                 \
    }                                                                         \
  } while (0)

/* want "null" means got must be NULL. */
#define CHECK_OPT(row, got, want)                                             \
  do {                                                                        \
    if (strcmp((want), "null"))                                               \
      CHECK_STR(row, got, want);                                              \
    else if (got) {                                                           \
      print_error("case %s: %s is '%s', want null\n", (row), #got, (got));    \
      fail();                                                                 \
    }                                                                         \
  } while (0)

/* |got - want| <= tol, printing both. */
#define CHECK_NEAR(row, got, want, tol)                                       \
  do {                                                                        \
    if (!(fabs((got) - (want)) <= (tol))) {                                   \
      print_error("case %s: %s is %.3f, want %.3f +- %.3f\n", (row), #got,    \
                  (double)(got), (double)(want), (double)(tol));              \
      fail();                                                                 \
    }                                                                         \
  } while (0)

/* The whole file at path, NUL-terminated; the length in *lenp if not NULL.
 * Fails the test when the file cannot be read.  Caller frees. */
static inline char *slurp(const char *path, size_t *lenp)
{
  FILE *f = fopen(path, "rb");
  char *s;
  long len;

  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  len = ftell(f);
  assert_true(len >= 0);
  rewind(f);
  s = xmalloc((size_t)len + 1);
  assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
  s[len] = '\0';
  fclose(f);
  if (lenp)
    *lenp = (size_t)len;
  return s;
}

#endif
