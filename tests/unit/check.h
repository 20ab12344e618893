/*
 * check.h: assertions for table-driven unit tests that name the failing
 * row and print both values (uv ASSERT_EQ), and a file reader for the
 * captured data in tests/data.  Include after <cmocka.h>.
 */
#ifndef HOPSPLIT_TEST_CHECK_H
#define HOPSPLIT_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "sample.h"
#include "xalloc.h"

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

/*
 * Read a captured header block from tests/data/headers/FILE into hop: the
 * status line sets hop->status and each "Name: value" line is added as a
 * header until a blank line.  Lines "# key: value" before the status line
 * go to on_key (val points into *text, which the caller frees).
 */
static inline void
check_capture_read(const char *file, struct hop *hop, char **text,
                   void (*on_key)(const char *key, char *val, void *ud),
                   void *ud)
{
  char path[512];
  char *line, *next;
  int in_headers = 0;

  snprintf(path, sizeof(path), "%s/headers/%s", HOPSPLIT_TEST_DATA, file);
  *text = slurp(path, NULL);
  for (line = *text; line; line = next) {
    char *colon;
    size_t len;

    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    len = strlen(line);
    if (len && line[len - 1] == '\r')
      line[--len] = '\0';
    if (!in_headers && !strncmp(line, "# ", 2)) {
      char *key = line + 2, *val = strstr(key, ": ");

      if (!val)
        continue; /* a comment */
      *val = '\0';
      on_key(key, val + 2, ud);
      continue;
    }
    if (!in_headers) {
      /* The status line: "HTTP/2 302" or "HTTP/1.1 200 OK". */
      char *sp = strchr(line, ' ');

      assert_non_null(sp);
      hop_info_edit(hop)->status = (int32_t)strtol(sp + 1, NULL, 10);
      in_headers = 1;
      continue;
    }
    if (!*line)
      break;
    colon = strchr(line, ':');
    assert_non_null(colon);
    *colon = '\0';
    hop_add_header(hop, line, colon + 1 + strspn(colon + 1, " \t"));
  }
}

#endif
