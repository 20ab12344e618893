/*
 * test_json.c: the JSON writer of json.h against RFC 8259: string escapes
 * (quote, backslash, every control character, DEL), UTF-8 kept when valid
 * and each invalid byte replaced by U+FFFD (overlong forms, surrogates,
 * code points past U+10FFFF, truncated and stray bytes), numbers (int64
 * limits, fixed decimals, NaN and infinity as null), and the structure in
 * compact and pretty form.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "banned.h"

#include "check.h"

static void check_quote(const char *row, const char *in, const char *want)
{
  struct buf b;

  buf_init(&b, 0);
  json_quote(&b, in);
  CHECK_STR(row, b.s, want);
  buf_release(&b);
}

static void test_escapes(void **state)
{
  static const struct {
    const char *row, *in, *want;
  } c[] = {
      {"plain", "abc", "\"abc\""},
      {"empty", "", "\"\""},
      {"quote", "a\"b", "\"a\\\"b\""},
      {"backslash", "a\\b", "\"a\\\\b\""},
      {"slash kept", "a/b</script>", "\"a/b</script>\""},
      {"newline", "a\nb", "\"a\\nb\""},
      {"return", "a\rb", "\"a\\rb\""},
      {"tab", "a\tb", "\"a\\tb\""},
      {"backspace", "a\bb", "\"a\\u0008b\""},
      {"form feed", "a\fb", "\"a\\u000cb\""},
      {"escape", "\033[31mred", "\"\\u001b[31mred\""},
      {"unit sep", "\x1f", "\"\\u001f\""},
      {"DEL", "a\x7f", "\"a\\u007f\""},
      {"space kept", " ~", "\" ~\""},
      {"all", "\"\\\n\r\t\x01", "\"\\\"\\\\\\n\\r\\t\\u0001\""},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(c); i++)
    check_quote(c[i].row, c[i].in, c[i].want);
}

/* Every byte 0x01..0x1f is escaped: the short forms for \n \r \t, the
 * \u00XX form (lower-case hex) for the rest. */
static void test_every_control(void **state)
{
  int ch;

  (void)state;
  for (ch = 1; ch < 0x20; ch++) {
    char in[2] = {(char)ch, 0}, want[16], row[16];

    if (ch == '\n')
      snprintf(want, sizeof(want), "\"\\n\"");
    else if (ch == '\r')
      snprintf(want, sizeof(want), "\"\\r\"");
    else if (ch == '\t')
      snprintf(want, sizeof(want), "\"\\t\"");
    else
      snprintf(want, sizeof(want), "\"\\u%04x\"", (unsigned)ch);
    snprintf(row, sizeof(row), "0x%02x", (unsigned)ch);
    check_quote(row, in, want);
  }
}

static void test_utf8(void **state)
{
  static const struct {
    const char *row, *in, *want;
  } c[] = {
      /* Valid sequences pass unchanged, up to U+10FFFF. */
      {"2 bytes", "caf\xc3\xa9", "\"caf\xc3\xa9\""},
      {"3 bytes", "\xe2\x82\xac 5", "\"\xe2\x82\xac 5\""},
      {"4 bytes", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},
      {"U+10FFFF", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""},
      {"U+FFFD itself", "\xef\xbf\xbd", "\"\xef\xbf\xbd\""},
      /* U+2028 and U+2029 are valid JSON (RFC 8259) and kept: no report
       * puts JSON inside a script. */
      {"U+2028", "a\xe2\x80\xa8z", "\"a\xe2\x80\xa8z\""},
      {"U+2029", "a\xe2\x80\xa9z", "\"a\xe2\x80\xa9z\""},
      /* Each byte that starts no valid sequence becomes U+FFFD; the scan
       * goes on at the next byte. */
      {"stray continuation", "a\x80z", "\"a\\ufffdz\""},
      {"latin-1", "caf\xe9", "\"caf\\ufffd\""},
      {"truncated at end", "a\xc3", "\"a\\ufffd\""},
      {"truncated 3", "\xe2\x82", "\"\\ufffd\\ufffd\""},
      {"truncated 3 then ascii", "\xe2\x82z", "\"\\ufffd\\ufffdz\""},
      {"lead then ascii", "\xc3(", "\"\\ufffd(\""},
      {"overlong /", "\xc0\xaf", "\"\\ufffd\\ufffd\""},
      {"overlong NUL", "\xc0\x80", "\"\\ufffd\\ufffd\""},
      {"overlong 3", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""},
      {"overlong 4", "\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},
      {"surrogate D800", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},
      {"surrogate DFFF", "\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\""},
      {"past U+10FFFF", "\xf4\x90\x80\x80",
       "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},
      {"F8 lead", "\xf8\x88\x80\x80\x80",
       "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\""},
      {"FF", "\xff", "\"\\ufffd\""},
      {"valid after invalid", "\xff\xc3\xa9", "\"\\ufffd\xc3\xa9\""},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(c); i++)
    check_quote(c[i].row, c[i].in, c[i].want);
}

static void test_numbers(void **state)
{
  static const struct {
    const char *row;
    double v;
    int decimals;
    const char *want;
  } d[] = {
      {"zero", 0.0, 0, "0"},
      {"one decimal", 1.26, 1, "1.3"},
      {"three", 3.14159, 3, "3.142"},
      {"negative", -2.5, 2, "-2.50"},
      {"big", 1e15, 0, "1000000000000000"},
      {"NaN", NAN, 2, "null"},
      {"inf", INFINITY, 1, "null"},
      {"-inf", -INFINITY, 1, "null"},
  };
  static const struct {
    const char *row;
    int64_t v;
    const char *want;
  } n[] = {
      {"0", 0, "0"},
      {"-1", -1, "-1"},
      {"max", INT64_MAX, "9223372036854775807"},
      {"min", INT64_MIN, "-9223372036854775808"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(d); i++) {
    struct buf b;
    struct json j;

    buf_init(&b, 0);
    json_init(&j, &b, 0);
    json_double(&j, NULL, d[i].v, d[i].decimals);
    CHECK_STR(d[i].row, b.s, d[i].want);
    buf_release(&b);
  }
  for (i = 0; i < ARRAY_SIZE(n); i++) {
    struct buf b;
    struct json j;

    buf_init(&b, 0);
    json_init(&j, &b, 0);
    json_int(&j, NULL, n[i].v);
    CHECK_STR(n[i].row, b.s, n[i].want);
    buf_release(&b);
  }
}

/* The writers' shortcuts (json_double and json_us_seconds without printf,
 * json_quote 8 bytes at a time) write exactly what printf and the byte by
 * byte scan write: numbers of every magnitude and rounding, halves and
 * near-halves, and strings with each special byte at every position of
 * the word. */
static void test_same_as_printf(void **state)
{
  static const double edge[] = {
      0.0,       -0.0, 0.5,   1.5,      2.5,         0.125,     0.0000005,
      0.0000015, 1e-7, -1e-9, 123.4565, 4294.967295, 4294.9673, 1e9,
      0.05,      0.15, 0.25,  0.35,     2.675,       1.005};
  static const int64_t us[] = {0,
                               1,
                               -1,
                               999999,
                               1000000,
                               -1234567,
                               ((int64_t)1 << 40) - 1,
                               (int64_t)1 << 40,
                               -((int64_t)1 << 40),
                               INT64_MAX / 2};
  static const char special[] = {'"',    '\\',   '\n',  '\x1f',
                                 '\x7f', '\x80', '\xc3'};
  char want[128], in[48], row[64];
  unsigned seed = 1;
  size_t i, k, len, pos;
  int d;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(edge) + 20000; i++) {
    double v;

    if (i < ARRAY_SIZE(edge)) {
      v = edge[i];
    }
    else {
      seed = seed * 1103515245u + 12345u;
      /* Whole microseconds, halves of the last place and anything. */
      v = (double)(seed % 100000000u) / (i % 3 ? 1e6 : 2e6);
      if (i % 7 == 0)
        v = (double)seed / 3.0e5;
    }
    for (d = 0; d <= 9; d++) {
      struct buf b;
      struct json j;

      buf_init(&b, 0);
      json_init(&j, &b, 0);
      json_double(&j, NULL, v, d);
      snprintf(want, sizeof(want), "%.*f", d, v);
      snprintf(row, sizeof(row), "%.17g with %d", v, d);
      CHECK_STR(row, b.s, want);
      buf_release(&b);
    }
  }
  for (i = 0; i < ARRAY_SIZE(us) + 20000; i++) {
    int64_t u =
        i < ARRAY_SIZE(us) ? us[i] : (int64_t)(i * 7919 % 5000000) - 10;
    struct buf b;
    struct json j;

    buf_init(&b, 0);
    json_init(&j, &b, 0);
    json_us_seconds(&j, NULL, u);
    snprintf(want, sizeof(want), "%.6f", (double)u / 1e6);
    snprintf(row, sizeof(row), "%lld us", (long long)u);
    CHECK_STR(row, b.s, want);
    buf_release(&b);
  }
  for (len = 1; len < 40; len++)
    for (pos = 0; pos < len; pos++)
      for (k = 0; k < ARRAY_SIZE(special); k++) {
        struct buf b;
        size_t o = 0;

        memset(in, 'a', len);
        in[len] = '\0';
        in[pos] = special[k];
        /* The expected form, written out by hand. */
        want[o++] = '"';
        for (i = 0; i < len; i++) {
          if (i != pos)
            want[o++] = 'a';
          else if (special[k] == '"' || special[k] == '\\')
            o += (size_t)snprintf(want + o, sizeof(want) - o, "\\%c",
                                  special[k]);
          else if (special[k] == '\n')
            o += (size_t)snprintf(want + o, sizeof(want) - o, "\\n");
          else if ((unsigned char)special[k] < 0x20 || special[k] == 0x7f)
            o += (size_t)snprintf(want + o, sizeof(want) - o, "\\u%04x",
                                  (unsigned)(unsigned char)special[k]);
          else
            o += (size_t)snprintf(want + o, sizeof(want) - o, "\\ufffd");
        }
        want[o++] = '"';
        want[o] = '\0';
        snprintf(row, sizeof(row), "byte %#x at %zu of %zu",
                 (unsigned)(unsigned char)special[k], pos, len);
        buf_init(&b, 0);
        json_quote(&b, in);
        CHECK_STR(row, b.s, want);
        buf_release(&b);
      }
}

static void write_doc(struct json *j)
{
  json_object_begin(j, NULL);
  json_string(j, "s", "x\"y");
  json_string(j, "null", NULL);
  json_int(j, "n", -3);
  json_double(j, "d", 0.5, 1);
  json_bool(j, "t", 1);
  json_bool(j, "f", 0);
  json_null(j, "z");
  json_array_begin(j, "a");
  json_int(j, NULL, 1);
  json_string(j, NULL, "two");
  json_object_begin(j, NULL);
  json_object_end(j);
  json_array_begin(j, NULL);
  json_array_end(j);
  json_array_end(j);
  json_object_begin(j, "k\ney");
  json_int(j, "deep", 1);
  json_object_end(j);
  json_object_end(j);
}

static void test_structure(void **state)
{
  static const char compact[] =
      "{\"s\":\"x\\\"y\",\"null\":null,\"n\":-3,\"d\":0.5,\"t\":true,"
      "\"f\":false,\"z\":null,\"a\":[1,\"two\",{},[]],"
      "\"k\\ney\":{\"deep\":1}}";
  static const char pretty[] = "{\n"
                               "  \"s\": \"x\\\"y\",\n"
                               "  \"null\": null,\n"
                               "  \"n\": -3,\n"
                               "  \"d\": 0.5,\n"
                               "  \"t\": true,\n"
                               "  \"f\": false,\n"
                               "  \"z\": null,\n"
                               "  \"a\": [\n"
                               "    1,\n"
                               "    \"two\",\n"
                               "    {},\n"
                               "    []\n"
                               "  ],\n"
                               "  \"k\\ney\": {\n"
                               "    \"deep\": 1\n"
                               "  }\n"
                               "}\n";
  struct buf b;
  struct json j;

  (void)state;
  buf_init(&b, 0);
  json_init(&j, &b, 0);
  write_doc(&j);
  CHECK_STR("compact", b.s, compact);
  CHECK_INT("compact depth", j.depth, 0);
  buf_reset(&b);
  json_init(&j, &b, 1);
  write_doc(&j);
  CHECK_STR("pretty", b.s, pretty);
  buf_release(&b);

  /* Empty containers at the top. */
  buf_init(&b, 0);
  json_init(&j, &b, 0);
  json_array_begin(&j, NULL);
  json_array_end(&j);
  CHECK_STR("empty array", b.s, "[]");
  buf_release(&b);
}

/* Into a capped buffer the writer stops growing at the cap and the buffer
 * says it was truncated (json.h writes into struct buf as it comes). */
static void test_capped(void **state)
{
  struct buf b;
  struct json j;
  int i;

  (void)state;
  buf_init(&b, 32);
  json_init(&j, &b, 0);
  json_array_begin(&j, NULL);
  for (i = 0; i < 100; i++)
    json_string(&j, NULL, "0123456789");
  json_array_end(&j);
  assert_true(b.len <= 32);
  CHECK_INT("capped", b.truncated, 1);
  CHECK_INT("capped", b.s[b.len], '\0');
  buf_release(&b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_escapes),
      cmocka_unit_test(test_every_control),
      cmocka_unit_test(test_utf8),
      cmocka_unit_test(test_numbers),
      cmocka_unit_test(test_structure),
      cmocka_unit_test(test_capped),
      cmocka_unit_test(test_same_as_printf),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
