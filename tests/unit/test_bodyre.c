/*
 * test_bodyre.c: probe_body_scan, the search of a response body as it
 * streams: every case gives the same answer whatever the chunks the body
 * arrives in (one byte at a time up to the whole body), including matches
 * across chunk boundaries, anchors, word boundaries, a UTF-8 character
 * split between chunks and a partial match longer than the window.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probe.h"

struct re_case {
  const char *pattern;
  const char *body;
  int want;
};

static const struct re_case cases[] = {
    {"Could not connect to database",
     "<p>Error: Could not connect to "
     "database</p>",
     1},
    {"Could not connect to database", "<p>Could not connect</p>", 0},
    {"^abc", "abcdef", 1},
    {"^abc", "xabcdef", 0},
    {"abc$", "zzzabc", 1},
    {"abc$", "abcz", 0},
    {"abc$", "abc\n", 0}, /* Go's $ is the end of the text only */
    {"(?m)^line2$", "line1\nline2\nline3", 1},
    {"(?m)^ine2", "line1\nline2\n", 0},
    {"\\bword\\b", "swordfish word.", 1},
    {"\\bword\\b", "swordfish wordy", 0},
    {"^caf.$", "caf\xc3\xa9", 1}, /* "." is one UTF-8 character */
    {"^caf..$", "caf\xc3\xa9", 0},
    {"abc",
     "\xff\xfe"
     "abc",
     1}, /* invalid UTF-8 in the body */
    {"Download the (latest|newest) version",
     "... Download the newest "
     "version here",
     1},
    {"^$", "", 1},
    {"a", "", 0},
    {"abc", "ab", 0},
    {"(?i)HELLO", "well, hello there", 1},
};

static void feed(struct body_scan *s, const char *body, size_t len,
                 size_t chunk)
{
  size_t at;

  for (at = 0; at < len; at += chunk)
    probe_body_scan_feed(s, body + at, len - at < chunk ? len - at : chunk);
}

static void every_chunking(void **state)
{
  static const size_t chunks[] = {1, 2, 3, 5, 16, 4096};
  size_t i, k;

  (void)state;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    const char *pat = cases[i].pattern;
    size_t bad = 0, len = strlen(cases[i].body);
    char err[256];
    struct body_regexps *re =
        probe_body_regexps_new(&pat, 1, &bad, err, sizeof(err));

    assert_non_null(re);
    for (k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
      struct body_scan *s = probe_body_scan_new(re);
      uint32_t got;

      feed(s, cases[i].body, len, chunks[k]);
      got = probe_body_scan_end(s);
      probe_body_scan_free(s);
      if ((int)(got & 1u) != cases[i].want)
        fail_msg("pattern '%s' on body %zu bytes in chunks of %zu: %u, "
                 "want %d",
                 pat, len, chunks[k], got, cases[i].want);
    }
    probe_body_regexps_free(re);
  }
}

/* Several patterns at once: bit i for pattern i. */
static void several(void **state)
{
  const char *pats[] = {"nope", "mid+le", "end$"};
  const char *body = "begin middle end";
  size_t bad = 0;
  char err[256];
  struct body_regexps *re =
      probe_body_regexps_new(pats, 3, &bad, err, sizeof(err));
  struct body_scan *s;

  (void)state;
  assert_non_null(re);
  s = probe_body_scan_new(re);
  feed(s, body, strlen(body), 4);
  assert_int_equal(probe_body_scan_end(s), 6u);
  probe_body_scan_free(s);
  probe_body_regexps_free(re);
}

/* A partial match longer than the window (64 KiB) is given up at its
 * start: a match that begins later is still found. */
static void long_partial(void **state)
{
  const char *pat = "a[^z]*z|x";
  size_t n = 200 * 1024, bad = 0, chunk;
  char *body = malloc(n), err[256];
  struct body_regexps *re =
      probe_body_regexps_new(&pat, 1, &bad, err, sizeof(err));

  (void)state;
  assert_non_null(body);
  assert_non_null(re);
  body[0] = 'a';
  memset(body + 1, 'b', n - 2);
  body[n - 1] = 'x';
  for (chunk = 1000; chunk <= 16384; chunk *= 4) {
    struct body_scan *s = probe_body_scan_new(re);

    feed(s, body, n, chunk);
    assert_int_equal(probe_body_scan_end(s), 1u);
    probe_body_scan_free(s);
  }
  probe_body_regexps_free(re);
  free(body);
}

static void bad_pattern(void **state)
{
  const char *pats[] = {"fine", "un(closed"};
  size_t bad = 0;
  char err[256] = "";

  (void)state;
  assert_null(probe_body_regexps_new(pats, 2, &bad, err, sizeof(err)));
  assert_int_equal(bad, 1);
  assert_true(strstr(err, "missing closing parenthesis") != NULL);
  assert_null(probe_body_scan_new(NULL));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_chunking),
      cmocka_unit_test(several),
      cmocka_unit_test(long_partial),
      cmocka_unit_test(bad_pattern),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
