/*
 * test_prom.c: the number and label writers of prom.h, written by hand
 * rather than with printf (serve writes dozens per probe): seconds from
 * microseconds (sign, six decimals, the extremes of int64_t) and labels
 * (the comma between them, values escaped as buf_put_prom does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "prom.h"
#include "banned.h"

#include "check.h"

static void test_seconds(void **state)
{
  static const struct {
    int64_t us;
    const char *want;
  } rows[] = {
      {0, "0.000000"},
      {1, "0.000001"},
      {999999, "0.999999"},
      {1000000, "1.000000"},
      {1234567, "1.234567"},
      {120000000, "120.000000"},
      {-1, "-0.000001"},
      {-1500000, "-1.500000"},
      {INT64_MAX, "9223372036854.775807"},
      {INT64_MIN, "-9223372036854.775808"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(rows); i++) {
    struct buf b;
    char row[64];

    snprintf(row, sizeof(row), "%" PRId64, rows[i].us);
    buf_init(&b, 0);
    prom_seconds(&b, rows[i].us);
    CHECK_STR(row, b.s, rows[i].want);
    buf_release(&b);
  }
}

static void test_labels(void **state)
{
  struct buf b;

  (void)state;
  buf_init(&b, 0);
  buf_puts(&b, "x{");
  prom_label(&b, "phase", "connect", 1);
  prom_label(&b, "host", "a\"b\\c\nd", 0);
  buf_puts(&b, "} 1");
  CHECK_STR("labels", b.s,
            "x{phase=\"connect\",host=\"a\\\"b\\\\c\\\\x0ad\"} 1");
  buf_release(&b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seconds),
      cmocka_unit_test(test_labels),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
