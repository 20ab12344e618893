/*
 * test_report_read.c: the JSON reader behind "hopsplit report" (jtree.c)
 * and the time parser of report_read.c, against hand-written cases.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "jtree.h"
#include "report_read.h"
#include "units.h"

static void test_round_trip(void **state)
{
  /* Compact JSON comes back byte for byte: numbers keep their text,
   * members their order. */
  static const char *const docs[] = {
      "{\"a\":1,\"b\":[true,false,null],\"c\":\"x\"}",
      "[0.000123,-5,1e3,\"\\\"q\\\\\",{}]",
      "{\"z\":{\"y\":{\"x\":[[],{}]}},\"a\":0.500}",
      "\"caf\xc3\xa9\"",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
    struct jt v;
    struct buf b;
    char err[128];

    assert_int_equal(jt_parse(&v, docs[i], strlen(docs[i]), err, 128), 0);
    buf_init(&b, 0);
    jt_write(&b, &v);
    if (strcmp(b.s, docs[i]))
      print_error("got %s want %s\n", b.s, docs[i]);
    assert_string_equal(b.s, docs[i]);
    buf_release(&b);
    jt_release(&v);
  }
}

static void test_lookups(void **state)
{
  const char *doc =
      " {\"s\": [ {\"n\": 42, \"t\": \"\\u00e9\\ud83d\\ude00\"} ],"
      "\n \"f\": 1.5, \"x\": null}\n";
  struct jt v;
  char err[128];
  int64_t n = 0;
  double d = 0;

  (void)state;
  assert_int_equal(jt_parse(&v, doc, strlen(doc), err, sizeof(err)), 0);
  assert_int_equal(jt_int(jt_path(&v, "s.0.n"), &n), 0);
  assert_int_equal(n, 42);
  assert_string_equal(jt_str(jt_path(&v, "s.0.t")),
                      "\xc3\xa9\xf0\x9f\x98\x80");
  assert_int_equal(jt_int(jt_get(&v, "f"), &n), -1);
  assert_int_equal(jt_num(jt_get(&v, "f"), &d), 0);
  assert_true(d == 1.5);
  assert_int_equal(jt_get(&v, "x")->type, JT_NULL);
  assert_null(jt_get(&v, "nope"));
  assert_null(jt_path(&v, "s.1"));
  assert_null(jt_path(&v, "s.0.n.q"));
  assert_int_equal(jt_len(jt_get(&v, "s")), 1);
  jt_release(&v);
}

static void test_errors(void **state)
{
  static const struct {
    const char *doc;
    const char *err;
  } c[] = {
      {"", "line 1: unexpected end of input"},
      {"{\"a\":1} x", "line 1: text after the JSON value"},
      {"{\"a\" 1}", "line 1: expected ':'"},
      {"[1,\n2,\n]", "line 3: unexpected text"},
      {"\"\\x\"", "line 1: bad escape"},
      {"\"\\ud800\"", "line 1: lone surrogate"},
      {"\"a\nb\"", "line 2: control character in string"},
      {"[01x]", "line 1: expected ',' or ']'"},
      {"-", "line 1: bad number"},
      {"[1.]", "line 1: bad number"},
      {"{\"a\":tru}", "line 1: unexpected text"},
      {"\"\\u0000\"", "line 1: NUL in string"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    struct jt v;
    char err[128] = "";

    if (jt_parse(&v, c[i].doc, strlen(c[i].doc), err, sizeof(err)) == 0) {
      print_error("parsed %s\n", c[i].doc);
      fail();
    }
    assert_string_equal(err, c[i].err);
    assert_int_equal(v.type, JT_NULL);
  }
}

static void test_depth(void **state)
{
  char doc[200];
  struct jt v;
  char err[128];

  (void)state;
  memset(doc, '[', 100);
  memset(doc + 100, ']', 100);
  assert_int_equal(jt_parse(&v, doc, 200, err, sizeof(err)), -1);
  assert_string_equal(err, "line 1: nested more than 64 levels deep");
}

static void test_time(void **state)
{
  static const struct {
    const char *s;
    int64_t ms;
  } c[] = {
      {"1970-01-01T00:00:00.000Z", 0},
      {"2000-03-01T00:00:00.001Z", 951868800001LL},
      {"2024-02-29T23:59:59.999Z", 1709251199999LL},
      {"1969-12-31T23:59:59.999Z", -1},
  };
  static const char *const bad[] = {
      "2024-02-29T23:59:59Z", "2024-13-01T00:00:00.000Z",
      "2024-01-01 00:00:00.000Z", "2024-01-01T00:00:00.000Zx", ""};
  size_t i;
  int64_t ms;

  (void)state;
  for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    assert_int_equal(units_parse_rfc3339_ms(c[i].s, &ms), 0);
    assert_int_equal(ms, c[i].ms);
  }
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    assert_int_equal(units_parse_rfc3339_ms(bad[i], &ms), -1);
  assert_int_equal(units_parse_rfc3339_ms(NULL, &ms), -1);
}

static void test_read_rejects(void **state)
{
  static const char *const docs[] = {
      "{\"schema\":\"hopsplit/2\"}",
      "{\"schema\":\"hopsplit/1\",\"settings\":{}}",
      "[]",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
    struct report_saved s;

    assert_int_equal(report_read(&s, docs[i], strlen(docs[i]), "t.json"), -1);
    assert_int_equal(s.results.n, 0);
  }
}

/* Every JSON number form, exactly, scaled and bounded (issue 16). */
static void test_scaled(void **state)
{
  static const struct {
    const char *num;
    int scale;
    int64_t max;
    int rc;
    int64_t want;
    int inexact;
  } cases[] = {
      {"9e-06", 6, 1000000, 0, 9, 0},
      {"1.2e-05", 6, 1000000, 0, 12, 0},
      {"0.002424", 6, 1000000, 0, 2424, 0},
      {"2.0e2", 0, 1000, 0, 200, 0},
      {"200", 0, 1000, 0, 200, 0},
      {"1E+3", 0, 1000, 0, 1000, 0},
      {"1001", 0, 1000, -2, 0, 0},
      {"-5", 0, 1000, 0, -5, 0},
      {"200.5", 0, 1000, 0, 200, 1},
      {"1.5e-7", 6, 1000, 0, 0, 1},
      {"0", 6, 1000, 0, 0, 0},
      {"0.0e99999999999999", 0, 10, 0, 0, 0},
      {"1e99999999999999", 0, INT64_MAX, -2, 0, 0},
      {"1e-99999999999999", 0, 10, 0, 0, 1},
      {"9223372036854775807", 0, INT64_MAX, 0, INT64_MAX, 0},
      {"9223372036854775808", 0, INT64_MAX, -2, 0, 0},
      {"00000000000000000000000000001", 0, 10, 0, 1, 0},
      {"100000000000000000000000000000e-28", 0, 1000, 0, 10, 0},
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct jt v;
    char err[128];
    int64_t got = 0;
    int inexact = 0, rc;

    assert_int_equal(
        jt_parse(&v, cases[i].num, strlen(cases[i].num), err, sizeof(err)), 0);
    rc = jt_scaled(&v, cases[i].scale, cases[i].max, &got, &inexact);
    if (rc != cases[i].rc ||
        (rc == 0 && (got != cases[i].want || inexact != cases[i].inexact)))
      print_error("%s: rc %d got %lld inexact %d\n", cases[i].num, rc,
                  (long long)got, inexact);
    assert_int_equal(rc, cases[i].rc);
    if (rc == 0) {
      assert_int_equal(got, cases[i].want);
      assert_int_equal(inexact, cases[i].inexact);
    }
    jt_release(&v);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),   cmocka_unit_test(test_scaled),
      cmocka_unit_test(test_lookups),      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_depth),        cmocka_unit_test(test_time),
      cmocka_unit_test(test_read_rejects),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
