/*
 * test_probe.c: probe_phases, the one function that turns libcurl's
 * cumulative offsets into phases, with made-up offsets (STYLE 5.6).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "probe.h"

struct phase_case {
  const char *name;
  struct curl_times t; /* namelookup connect appconnect pretransfer
                          posttransfer starttransfer total queue
                          final_response */
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
     {30, 1030, 6030, 6100, -1, 16100, 16600, -1, -1},
     500,
     1,
     0,
     {500, 1000, 5000, 0, 10070, 500, 17070}},
    /* with posttransfer (libcurl >= 8.10) send is its own phase, from
     * the ready connection to the request written */
    {"https new posttransfer",
     {30, 1030, 6030, 6100, 6300, 16100, 16600, -1, -1},
     0,
     1,
     0,
     {0, 1000, 5000, 270, 9800, 500, 16570}},
    /* plain http: no TLS phase even if appconnect is 0 */
    {"http new",
     {20, 520, 0, 530, -1, 2530, 2600, -1, -1},
     0,
     0,
     0,
     {0, 500, 0, 0, 2010, 70, 2580}},
    /* reused connection: libcurl reports connect/appconnect 0, and its
     * pretransfer comes after the response arrived (seen with 7.88 and
     * HTTP/1.1): the whole wait is from the start of the transfer */
    {"https reused",
     {5, 0, 0, 40, -1, 46, 50, -1, -1},
     0,
     1,
     1,
     {0, 0, 0, 0, 41, 4, 45}},
    /* connection refused: the whole time is connect */
    {"refused",
     {25, 0, 0, 0, -1, 0, 425, -1, -1},
     700,
     1,
     0,
     {700, 400, 0, 0, 0, 0, 1100}},
    /* TLS handshake failed: the rest is tls */
    {"tls failed",
     {25, 1025, 0, 0, -1, 0, 3025, -1, -1},
     0,
     1,
     0,
     {0, 1000, 2000, 0, 0, 0, 3000}},
    /* timeout waiting for the first byte: the rest is wait */
    {"no first byte",
     {10, 110, 0, 120, -1, 0, 1000120, -1, -1},
     0,
     0,
     0,
     {0, 100, 0, 0, 1000010, 0, 1000110}},
    /* offsets out of order (clock granularity): never negative */
    {"non-monotonic",
     {50, 40, 30, 20, -1, 10, 5, -1, -1},
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

/* probe_phases_checked with fabricated stamps in and out of order (issue
 * 17): the anomalies counted and named, the phases measured from a point
 * that is consistent, never from a stamp that came too late. */
struct checked_case {
  const char *name;
  struct curl_times t;
  int tls;
  int reused;
  int anomalies;
  const char *named; /* in the description, or NULL */
  int64_t want[PHASE_COUNT];
};

static const struct checked_case checked[] = {
    /* in order: nothing flagged, the same phases as probe_phases */
    {"in order",
     {30, 1030, 6030, 6100, -1, 16100, 16600, -1, -1},
     1,
     0,
     0,
     NULL,
     {0, 1000, 5000, 0, 10070, 500, 16570}},
    {"reused in order",
     {5, 0, 0, 40, -1, 46, 50, -1, -1},
     1,
     1,
     0,
     NULL,
     {0, 0, 0, 0, 41, 4, 45}},
    /* a new connection after the server closed an idle one: libcurl's
     * namelookup stamp (260) after its connect stamp (210).  Unchecked,
     * connect would be 0 and tls counted from the lookup; checked,
     * connect runs from the start of the transfer. */
    {"namelookup after connect",
     {260, 210, 5210, 5300, -1, 6210, 6300, -1, -1},
     1,
     0,
     1,
     "time_namelookup",
     {0, 210, 5000, 0, 1000, 90, 6300}},
    /* plain http, the same inversion */
    {"namelookup after connect, http",
     {300, 120, 0, 130, -1, 2120, 2200, -1, -1},
     0,
     0,
     1,
     "time_namelookup",
     {0, 120, 0, 0, 2000, 80, 2200}},
    /* connect stamped after the handshake ended: the handshake is
     * counted as connect, tls 0 */
    {"connect after appconnect",
     {10, 3000, 2000, 3100, -1, 4000, 4100, -1, -1},
     1,
     0,
     1,
     "time_appconnect",
     {0, 1990, 0, 0, 2000, 100, 4090}},
    /* the first byte before the connection was ready: wait 0 */
    {"first byte before ready",
     {10, 100, 500, 510, -1, 400, 600, -1, -1},
     1,
     0,
     1,
     "time_starttransfer",
     {0, 90, 400, 0, 0, 100, 590}},
    /* the first byte after the end: transfer 0 */
    {"first byte after total",
     {10, 100, 500, 510, -1, 900, 800, -1, -1},
     1,
     0,
     1,
     "time_total",
     {0, 90, 400, 0, 400, 0, 890}},
    /* several at once are all counted */
    {"two inversions",
     {260, 210, 5210, 5300, -1, 6210, 6000, -1, -1},
     1,
     0,
     2,
     "time_namelookup",
     {0, 210, 5000, 0, 1000, 0, 6210}},
};

static void test_checked_stamps(void **state)
{
  size_t i;
  int ph;

  (void)state;
  for (i = 0; i < sizeof(checked) / sizeof(checked[0]); i++) {
    const struct checked_case *c = &checked[i];
    int64_t got[PHASE_COUNT];
    char why[300];
    int n = probe_phases_checked(&c->t, 0, c->tls, c->reused, got, why,
                                 sizeof(why));
    int64_t sum = 0;

    if (n != c->anomalies)
      print_error("case '%s': %d anomalies (%s), want %d\n", c->name, n, why,
                  c->anomalies);
    assert_int_equal(n, c->anomalies);
    if (!n)
      assert_string_equal(why, "");
    if (c->named)
      assert_non_null(strstr(why, c->named));
    for (ph = 0; ph < PHASE_COUNT; ph++) {
      if (got[ph] != c->want[ph])
        print_error("case '%s' phase %s: got %lld want %lld\n", c->name,
                    phase_names[ph], (long long)got[ph],
                    (long long)c->want[ph]);
      assert_int_equal(got[ph], c->want[ph]);
      assert_true(got[ph] >= 0);
      if (ph != PHASE_TOTAL)
        sum += got[ph];
    }
    assert_int_equal(sum, got[PHASE_TOTAL]);
  }
}

/* libcurl 8 stamps: an upload answered "100 Continue" (libcurl's first
 * byte) is sent until posttransfer and waits until the final response;
 * a posttransfer after the first byte (HTTP/2 on a fast path) cannot
 * say when the request went: send is counted in wait. */
static void test_checked_send(void **state)
{
  /* namelookup connect appconnect pretransfer posttransfer starttransfer
   * total queue final_response */
  const struct curl_times upload = {10,    300,     0, 400,    2680000,
                                    13000, 3014000, 5, 3013900};
  const struct curl_times late = {10, 300, 0, 400, 900, 800, 1000, 5, -1};
  int64_t got[PHASE_COUNT];
  char why[200];

  (void)state;
  assert_int_equal(
      probe_phases_checked(&upload, 0, 0, 0, got, why, sizeof(why)), 0);
  assert_int_equal(got[PHASE_CONNECT], 290);
  assert_int_equal(got[PHASE_SEND], 2680000 - 300);
  assert_int_equal(got[PHASE_WAIT], 3013900 - 2680000);
  assert_int_equal(got[PHASE_TRANSFER], 100);
  assert_int_equal(got[PHASE_TOTAL], 3014000 - 10);

  assert_int_equal(probe_phases_checked(&late, 0, 0, 0, got, why, sizeof(why)),
                   0);
  assert_int_equal(got[PHASE_SEND], 0);
  assert_int_equal(got[PHASE_WAIT], 800 - 300);
  assert_int_equal(got[PHASE_TOTAL], 1000 - 10);
}

/* A description longer than the buffer is cut, never overrun. */
static void test_checked_short_buffer(void **state)
{
  const struct curl_times t = {260, 210, 5210, 5300, -1, 6210, 6000, -1, -1};
  int64_t got[PHASE_COUNT];
  char why[16];

  (void)state;
  memset(why, 'x', sizeof(why));
  assert_int_equal(probe_phases_checked(&t, 0, 1, 0, got, why, sizeof(why)),
                   2);
  assert_true(strlen(why) < sizeof(why));
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
      cmocka_unit_test(test_checked_stamps),
      cmocka_unit_test(test_checked_send),
      cmocka_unit_test(test_checked_short_buffer),
      cmocka_unit_test(test_close_accounts),
      cmocka_unit_test(test_diagnostic_headers),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
