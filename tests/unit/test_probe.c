/*
 * test_probe.c: probe_phases, the one function that turns libcurl's
 * cumulative offsets into phases, with made-up offsets (STYLE 5.6).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "probe.h"

struct phase_case {
  const char *name;
  struct curl_times t; /* namelookup connect appconnect pretransfer
                          posttransfer starttransfer total */
  int64_t dns;
  int tls;
  int reused;
  int64_t want[PHASE_COUNT]; /* dns connect tls send wait transfer total */
};

static const struct phase_case cases[] = {
    /* https, new connection: every milestone present (libcurl 7.88 has
     * no posttransfer, so send is 0 and wait starts when the connection
     * is ready, at appconnect, not at the late pretransfer). */
    {"https new",
     {30, 1030, 6030, 6100, -1, 16100, 16600},
     500,
     1,
     0,
     {500, 1000, 5000, 0, 10070, 500, 17070}},
    /* with posttransfer (libcurl >= 8.10) send is its own phase, from
     * the ready connection to the request written */
    {"https new posttransfer",
     {30, 1030, 6030, 6100, 6300, 16100, 16600},
     0,
     1,
     0,
     {0, 1000, 5000, 270, 9800, 500, 16570}},
    /* plain http: no TLS phase even if appconnect is 0 */
    {"http new",
     {20, 520, 0, 530, -1, 2530, 2600},
     0,
     0,
     0,
     {0, 500, 0, 0, 2010, 70, 2580}},
    /* reused connection: libcurl reports connect/appconnect 0, and its
     * pretransfer comes after the response arrived (seen with 7.88 and
     * HTTP/1.1): the whole wait is from the start of the transfer */
    {"https reused",
     {5, 0, 0, 40, -1, 46, 50},
     0,
     1,
     1,
     {0, 0, 0, 0, 41, 4, 45}},
    /* connection refused: the whole time is connect */
    {"refused",
     {25, 0, 0, 0, -1, 0, 425},
     700,
     1,
     0,
     {700, 400, 0, 0, 0, 0, 1100}},
    /* TLS handshake failed: the rest is tls */
    {"tls failed",
     {25, 1025, 0, 0, -1, 0, 3025},
     0,
     1,
     0,
     {0, 1000, 2000, 0, 0, 0, 3000}},
    /* timeout waiting for the first byte: the rest is wait */
    {"no first byte",
     {10, 110, 0, 120, -1, 0, 1000120},
     0,
     0,
     0,
     {0, 100, 0, 0, 1000010, 0, 1000110}},
    /* offsets out of order (clock granularity): never negative */
    {"non-monotonic",
     {50, 40, 30, 20, -1, 10, 5},
     0,
     1,
     0,
     {0, 0, 0, 0, 0, 0, 0}},
};

static void test_phase_cases(void **state)
{
  size_t i;
  int ph;

  (void)state;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    int64_t got[PHASE_COUNT];
    int64_t sum = 0;

    probe_phases(&cases[i].t, cases[i].dns, cases[i].tls, cases[i].reused,
                 got);
    for (ph = 0; ph < PHASE_COUNT; ph++) {
      if (got[ph] != cases[i].want[ph])
        print_error("case '%s' phase %s: got %lld want %lld\n", cases[i].name,
                    phase_names[ph], (long long)got[ph],
                    (long long)cases[i].want[ph]);
      assert_int_equal(got[ph], cases[i].want[ph]);
      assert_true(got[ph] >= 0);
      if (ph != PHASE_TOTAL)
        sum += got[ph];
    }
    assert_int_equal(sum, got[PHASE_TOTAL]);
  }
}

/* The sample books close: hops + other == total, redirect = all hops but
 * the last. */
static void test_close_accounts(void **state)
{
  struct sample s;
  struct hop *h;

  (void)state;
  sample_init(&s);
  h = sample_add_hop(&s);
  h->phases[PHASE_TOTAL] = 3000;
  h = sample_add_hop(&s);
  h->phases[PHASE_TOTAL] = 5000;
  s.total_us = 8500;
  sample_close_accounts(&s);
  assert_int_equal(s.redirect_us, 3000);
  assert_int_equal(s.other_us, 500);
  /* hops claiming more than the wall clock grow the total, never a
   * negative other */
  s.total_us = 7000;
  sample_close_accounts(&s);
  assert_int_equal(s.other_us, 0);
  assert_int_equal(s.total_us, 8000);
  sample_release(&s);
}

static void test_diagnostic_headers(void **state)
{
  (void)state;
  assert_true(sample_header_is_diagnostic("cf-cache-status"));
  assert_true(sample_header_is_diagnostic("CF-Ray"));
  assert_true(sample_header_is_diagnostic("Cache-Control"));
  assert_true(sample_header_is_diagnostic("x-amz-cf-pop"));
  assert_true(sample_header_is_diagnostic("Server-Timing"));
  assert_false(sample_header_is_diagnostic("x-request-nonsense"));
  assert_false(sample_header_is_diagnostic("Accept-Ranges"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_phase_cases),
      cmocka_unit_test(test_close_accounts),
      cmocka_unit_test(test_diagnostic_headers),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
