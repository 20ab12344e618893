/*
 * test_units.c: unit tests of units.c: duration and integer parsing, the
 * formatting of times and byte sizes, and RFC 3339 timestamps.  Every case
 * is a row in a table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "arraysize.h"
#include "units.h"
#include "banned.h"

#define CHECK_STR(row, got, want)                                             \
  do {                                                                        \
    if (strcmp((got), (want))) {                                              \
      print_error("case %s: got '%s', want '%s'\n", (row), (got), (want));    \
      fail();                                                                 \
    }                                                                         \
  } while (0)

#define CHECK_I64(row, got, want)                                             \
  do {                                                                        \
    if ((got) != (want)) {                                                    \
      print_error("case %s: got %lld, want %lld\n", (row), (long long)(got),  \
                  (long long)(want));                                         \
      fail();                                                                 \
    }                                                                         \
  } while (0)

/* ---- units_parse_duration ---- */

static const struct {
  const char *in;
  int64_t us;
} duration_ok[] = {
    {"250ms", 250000},
    {"1s", 1000000},
    {"1.5", 1500000},
    {"1.5s", 1500000},
    {"0.25", 250000},
    {"10us", 10},
    {"0", 0},
    {"0s", 0},
    {"0ms", 0},
    {"30", 30000000},
    {".5", 500000},
    {"5.", 5000000},
    {"007ms", 7000},
    {"1.0000005", 1000001},  /* rounded half up */
    {"1.00000049", 1000000}, /* below half */
    {"0.0015ms", 2},
    {"0.0014ms", 1},
    {"2.5us", 3},
    {"2.4999us", 2},
    {"0.123456789s", 123457},
    {"9223372036854ms", 9223372036854000},
    {"9223372036854775807us", INT64_MAX},
    {"9223372036854.775807", INT64_MAX},
};

static void test_duration_ok(void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(duration_ok); i++) {
    int64_t us = -1;
    char err[128] = "";

    if (units_parse_duration(duration_ok[i].in, &us, err, sizeof(err))) {
      print_error("case %s: failed: %s\n", duration_ok[i].in, err);
      fail();
    }
    CHECK_I64(duration_ok[i].in, us, duration_ok[i].us);
  }
}

static const struct {
  const char *in;
  const char *err;
} duration_bad[] = {
    {"", "empty duration (use e.g. 250ms, 1.5s)"},
    {"-1s", "bad duration '-1s' (use e.g. 250ms, 1.5s)"},
    {"+1s", "bad duration '+1s' (use e.g. 250ms, 1.5s)"},
    {"1x", "bad duration '1x' (use e.g. 250ms, 1.5s)"},
    {"abc", "bad duration 'abc' (use e.g. 250ms, 1.5s)"},
    {"s", "bad duration 's' (use e.g. 250ms, 1.5s)"},
    {".", "bad duration '.' (use e.g. 250ms, 1.5s)"},
    {".ms", "bad duration '.ms' (use e.g. 250ms, 1.5s)"},
    {"1.2.3", "bad duration '1.2.3' (use e.g. 250ms, 1.5s)"},
    {"1m", "bad duration '1m' (use e.g. 250ms, 1.5s)"},
    {"1h", "bad duration '1h' (use e.g. 250ms, 1.5s)"},
    {"1 s", "bad duration '1 s' (use e.g. 250ms, 1.5s)"},
    {" 1s", "bad duration ' 1s' (use e.g. 250ms, 1.5s)"},
    {"1s ", "bad duration '1s ' (use e.g. 250ms, 1.5s)"},
    {"1MS", "bad duration '1MS' (use e.g. 250ms, 1.5s)"},
    {"1mss", "bad duration '1mss' (use e.g. 250ms, 1.5s)"},
    {"1e3", "bad duration '1e3' (use e.g. 250ms, 1.5s)"},
    {"0x10", "bad duration '0x10' (use e.g. 250ms, 1.5s)"},
    {"99999999999999999s", "duration '99999999999999999s' is too large"},
    {"9223372036855", "duration '9223372036855' is too large"},
    {"9223372036854775808us", "duration '9223372036854775808us' is too large"},
    {"9223372036854.7758075", "duration '9223372036854.7758075' is too large"},
    {"99999999999999999999999999us",
     "duration '99999999999999999999999999us' is too large"},
};

static void test_duration_bad(void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(duration_bad); i++) {
    int64_t us = 42;
    char err[128] = "";

    CHECK_I64(duration_bad[i].in,
              units_parse_duration(duration_bad[i].in, &us, err, sizeof(err)),
              -1);
    CHECK_STR(duration_bad[i].in, err, duration_bad[i].err);
    CHECK_I64(duration_bad[i].in, us, 42); /* untouched on error */
  }
}

/* hopsplit's own durations (SPEC 2): a unit is required, except for 0;
 * the message says how to write the value. */
static const struct {
  const char *in;
  int64_t us; /* -1: an error with text err */
  const char *err;
} duration_unit[] = {
    {"200ms", 200000, NULL},
    {"1.5s", 1500000, NULL},
    {"10us", 10, NULL},
    {"0", 0, NULL},
    {"0.0", 0, NULL},
    {"200", -1, "'200' has no unit: write 200ms or 200s"},
    {"1.5", -1, "'1.5' has no unit: write 1.5ms or 1.5s"},
    {"5.", -1, "'5.' has no unit: write 5.ms or 5.s"},
    {"1x", -1, "bad duration '1x' (use e.g. 250ms, 1.5s)"},
    {"", -1, "empty duration (use e.g. 250ms, 1.5s)"},
};

static void test_duration_unit(void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(duration_unit); i++) {
    int64_t us = 42;
    char err[128] = "";
    int rc =
        units_parse_duration_unit(duration_unit[i].in, &us, err, sizeof(err));

    if (duration_unit[i].us >= 0) {
      CHECK_I64(duration_unit[i].in, rc, 0);
      CHECK_I64(duration_unit[i].in, us, duration_unit[i].us);
      continue;
    }
    CHECK_I64(duration_unit[i].in, rc, -1);
    CHECK_STR(duration_unit[i].in, err, duration_unit[i].err);
    CHECK_I64(duration_unit[i].in, us, 42); /* untouched on error */
  }
}

static void test_duration_null(void **state)
{
  int64_t us = 0;

  (void)state;
  assert_int_equal(units_parse_duration(NULL, &us, NULL, 0), -1);
  assert_int_equal(units_parse_duration("x", &us, NULL, 0), -1);
}

/* ---- units_parse_uint ---- */

static void test_uint(void **state)
{
  static const struct {
    const char *in;
    long min, max;
    int rc;
    long want;
    const char *err;
  } cases[] = {
      {"10", 1, 100, 0, 10, ""},
      {"0", 0, 10, 0, 0, ""},
      {"007", 0, 10, 0, 7, ""},
      {"100", 1, 100, 0, 100, ""},
      {"101", 1, 100, -1, 0, "'101' is out of range (1..100)"},
      {"0", 1, 100, -1, 0, "'0' is out of range (1..100)"},
      {"", 1, 100, -1, 0, "empty number"},
      {"-1", 0, 100, -1, 0, "bad number '-1'"},
      {"+1", 0, 100, -1, 0, "bad number '+1'"},
      {" 1", 0, 100, -1, 0, "bad number ' 1'"},
      {"1 ", 0, 100, -1, 0, "bad number '1 '"},
      {"1.0", 0, 100, -1, 0, "bad number '1.0'"},
      {"0x10", 0, 100, -1, 0, "bad number '0x10'"},
      {"1e3", 0, 10000, -1, 0, "bad number '1e3'"},
      {"99999999999999999999999", 0, LONG_MAX, -1, 0,
       "'99999999999999999999999' is out of range (0..9223372036854775807)"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    long v = -7;
    char err[128] = "";
    int rc = units_parse_uint(cases[i].in, cases[i].min, cases[i].max, &v, err,
                              sizeof(err));

    CHECK_I64(cases[i].in, rc, cases[i].rc);
    CHECK_STR(cases[i].in, err, cases[i].err);
    CHECK_I64(cases[i].in, v, rc ? -7 : cases[i].want);
  }
  {
    long v = 0;

    /* LONG_MAX itself parses when allowed. */
    char buf[32];

    snprintf(buf, sizeof(buf), "%ld", LONG_MAX);
    assert_int_equal(units_parse_uint(buf, 0, LONG_MAX, &v, NULL, 0), 0);
    assert_true(v == LONG_MAX);
  }
}

/* ---- formatting ---- */

/* Settings as options take them: each parses back to the same value. */
static void test_format_setting(void **state)
{
  static const struct {
    int64_t us;
    const char *want;
  } cases[] = {
      {0, "0"},
      {1, "1us"},
      {999, "999us"},
      {1000, "1ms"},
      {250000, "250ms"},
      {1001000, "1001ms"},
      {1500000, "1.5s"},
      {5000000, "5s"},
      {10000000, "10s"},
      {30000000, "30s"},
      {1234567, "1234567us"},
      {-250000, "-250ms"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[UNITS_FMT_SIZE];
    int64_t back = -1;

    units_format_setting(cases[i].us, out, sizeof(out));
    CHECK_STR(cases[i].want, out, cases[i].want);
    if (cases[i].us >= 0) {
      assert_int_equal(units_parse_duration_unit(out, &back, NULL, 0), 0);
      assert_true(back == cases[i].us);
    }
  }
}

static void test_format_us(void **state)
{
  static const struct {
    int64_t us;
    const char *want;
  } cases[] = {
      {0, "0.00 ms"},
      {4, "0.00 ms"},
      {5, "0.01 ms"},
      {850, "0.85 ms"},
      {1234, "1.23 ms"},
      {9994, "9.99 ms"},
      {9995, "10.0 ms"},
      {12345, "12.3 ms"},
      {99949, "99.9 ms"},
      {99950, "100 ms"},
      {123456, "123 ms"},
      {2500000, "2500 ms"},
      {9999499, "9999 ms"},
      {9999500, "10.0 s"},
      {12345678, "12.3 s"},
      {3600000000, "3600.0 s"},
      {-850, "-0.85 ms"},
      {-123456, "-123 ms"},
      {-12345678, "-12.3 s"},
      {INT64_MAX, "9223372036854.8 s"},
      {INT64_MIN, "-9223372036854.8 s"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[UNITS_FMT_SIZE];

    units_format_us(cases[i].us, out, sizeof(out));
    CHECK_STR(cases[i].want, out, cases[i].want);
  }
  {
    char small[4];

    units_format_us(123456, small, sizeof(small));
    assert_string_equal(small, "123");
  }
}

static void test_format_bytes(void **state)
{
  static const struct {
    int64_t b;
    const char *want;
  } cases[] = {
      {0, "0 B"},
      {850, "850 B"},
      {1023, "1023 B"},
      {1024, "1.0 KiB"},
      {1536, "1.5 KiB"},
      {10188, "9.9 KiB"},
      {10189, "10 KiB"},
      {464896, "454 KiB"},
      {1048063, "1023 KiB"},
      {1048064, "1.0 MiB"},
      {12582912, "12 MiB"},
      {1073741824, "1.0 GiB"},
      {5497558138880, "5.0 TiB"},
      {INT64_MAX, "8388608 TiB"},
      {-1536, "-1.5 KiB"},
      {-5, "-5 B"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[UNITS_FMT_SIZE];

    units_format_bytes(cases[i].b, out, sizeof(out));
    CHECK_STR(cases[i].want, out, cases[i].want);
  }
}

static void test_rfc3339(void **state)
{
  static const struct {
    int64_t ms;
    const char *want;
  } cases[] = {
      {0, "1970-01-01T00:00:00.000Z"},
      {1, "1970-01-01T00:00:00.001Z"},
      {-1, "1969-12-31T23:59:59.999Z"},
      {-1000, "1969-12-31T23:59:59.000Z"},
      {951782400000, "2000-02-29T00:00:00.000Z"},
      {1796010956123, "2026-11-30T03:55:56.123Z"},
      {4102444799999, "2099-12-31T23:59:59.999Z"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[UNITS_FMT_SIZE];

    units_rfc3339_ms(cases[i].ms, out, sizeof(out));
    CHECK_STR(cases[i].want, out, cases[i].want);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_duration_ok),
      cmocka_unit_test(test_duration_bad),
      cmocka_unit_test(test_duration_unit),
      cmocka_unit_test(test_duration_null),
      cmocka_unit_test(test_uint),
      cmocka_unit_test(test_format_setting),
      cmocka_unit_test(test_format_us),
      cmocka_unit_test(test_format_bytes),
      cmocka_unit_test(test_rfc3339),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
