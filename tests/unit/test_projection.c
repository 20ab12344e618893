/*
 * test_projection.c: unit tests of the projection (issue 37): the parser of
 * --project's networks (netprofile.c), the slow-start model of a body
 * (rounds and time never fall as the body grows; never faster than its
 * serialisation), the TLS round trips by version and resumption, and the
 * structure of a projected sample: its total is the sum of its hops and
 * never below its round trips x the network's RTT, each handshake counts
 * its round trips, a warm hop none of them.  Made-up samples, no network.
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

#include "check.h"
#include "fixture.h"
#include "netprofile.h"
#include "projection.h"

#include "banned.h"

static void parse_ok(const char *v, size_t want)
{
  struct net_profile n[NETPROFILES_MAX];
  size_t got = 0;
  char err[256] = "";

  if (netprofile_parse_list(v, n, &got, err, sizeof(err)) < 0) {
    print_error("'%s': %s\n", v, err);
    fail();
  }
  assert_int_equal(got, want);
}

/* v is refused with a message that contains part. */
static void parse_bad(const char *v, const char *part)
{
  struct net_profile n[NETPROFILES_MAX];
  size_t got = 0;
  char err[256] = "";

  assert_int_equal(netprofile_parse_list(v, n, &got, err, sizeof(err)), -1);
  if (!strstr(err, part)) {
    print_error("'%s': message '%s' does not name '%s'\n", v, err, part);
    fail();
  }
}

static void test_parse(void **state)
{
  struct net_profile n[NETPROFILES_MAX];
  size_t got = 0;
  char err[256], back[256];

  (void)state;
  assert_int_equal(netprofile_parse_list("slow-4g", n, &got, err, sizeof(err)),
                   0);
  assert_int_equal(got, 1);
  assert_int_equal(n[0].rtt_us, 150000);
  assert_int_equal(n[0].down_bps, 1600000);
  assert_int_equal(n[0].up_bps, 750000);
  assert_int_equal(n[0].loss_ppm, 0);
  assert_int_equal(
      netprofile_parse_list("rtt=150ms,down=1.6Mbit,up=750kbit,loss=1%,3g", n,
                            &got, err, sizeof(err)),
      0);
  assert_int_equal(got, 2);
  assert_string_equal(n[0].name, "custom-1");
  assert_int_equal(n[0].rtt_us, 150000);
  assert_int_equal(n[0].down_bps, 1600000);
  assert_int_equal(n[0].up_bps, 750000);
  assert_int_equal(n[0].loss_ppm, 10000);
  assert_string_equal(n[1].name, "3g");
  /* The recorded form reads back to the same network. */
  netprofile_format(&n[0], back, sizeof(back));
  assert_int_equal(netprofile_parse_list(back, n + 2, &got, err, sizeof(err)),
                   0);
  assert_int_equal(n[2].rtt_us, 150000);
  assert_int_equal(n[2].loss_ppm, 10000);
  parse_ok("slow-4g,fast-4g,3g,slow-3g", 4);
  /* A key given again starts the next custom network. */
  parse_ok("rtt=40ms,down=10Mbit/s,up=5Mbps,rtt=1s,down=100kbit,up=50kbit", 2);
  parse_ok("name=mine,rtt=40ms,down=10Mbit,up=5Mbit", 1);
  parse_bad("slow4g", "did you mean slow-4g");
  parse_bad("lte", "unknown network 'lte'");
  parse_bad("rtt=150,down=1Mbit,up=1Mbit", "bad part 'rtt=150'");
  parse_bad("rtt=150ms,down=1.6,up=1Mbit", "bad part 'down=1.6'");
  parse_bad("rtt=150ms,down=1.6Mbit,up=1Mbyte", "bad part 'up=1Mbyte'");
  parse_bad("rtt=150ms,down=1.6Mbit", "no up=");
  parse_bad("rtt=150ms,down=1.6Mbit,up=1Mbit,loss=1", "bad part 'loss=1'");
  parse_bad("rtt=150ms,down=1.6Mbit,up=1Mbit,loss=60%", "at most 50%");
  parse_bad("rtt=150ms,speed=1Mbit", "unknown part 'speed=1Mbit'");
  parse_bad("slow-4g,,3g", "empty part");
  parse_bad("slow-4g,", "empty part");
  parse_bad("3g,3g", "given twice");
  parse_bad("", "no network");
}

/* Through the option table: the flag and a profile's project: key are
 * one setter. */
static void test_option(void **state)
{
  struct options o;
  const struct opt_def *d = options_find("project");
  char err[256] = "";

  (void)state;
  assert_non_null(d);
  options_init(&o);
  assert_int_equal(options_set(&o, d, "slow-4g,fast-4g", err, sizeof(err)), 0);
  assert_int_equal(o.n_project, 2);
  assert_int_equal(options_set(&o, d, "3g", err, sizeof(err)), 0);
  assert_int_equal(o.n_project, 1); /* a list replaces the one before */
  assert_int_equal(options_set(&o, d, "4g", err, sizeof(err)), -1);
  assert_int_equal(o.n_project, 1); /* a bad list changes nothing */
  options_release(&o);
}

static void test_body_rounds(void **state)
{
  int64_t bytes, prev_t = -1, w;
  int32_t rounds, prev_r = 0;

  (void)state;
  /* Ten segments go in one window, one byte more needs a second. */
  projection_body_us(10 * PROJ_MSS, 0, 150000, 1600000, 10 * PROJ_MSS, NULL,
                     &rounds, &w);
  assert_int_equal(rounds, 1);
  projection_body_us(10 * PROJ_MSS + 1, 0, 150000, 1600000, 10 * PROJ_MSS,
                     NULL, &rounds, &w);
  assert_int_equal(rounds, 2);
  assert_int_equal(w, 20 * PROJ_MSS);
  /* 10 + 20 + 40 + 80 segments: four windows. */
  projection_body_us(150 * PROJ_MSS, 0, 150000, 1600000000, 10 * PROJ_MSS,
                     NULL, &rounds, NULL);
  assert_int_equal(rounds, 4);
  for (bytes = 1000; bytes <= 4000000; bytes += 7919) {
    int64_t first = 0;
    int64_t t = projection_body_us(bytes, 16384, 150000, 1600000,
                                   10 * PROJ_MSS, &first, &rounds, NULL);
    /* The bytes on the wire: each segment with its IP and TCP headers. */
    double wire = (double)bytes +
                  (double)((bytes + PROJ_MSS - 1) / PROJ_MSS * PROJ_HEADER);

    assert_true(rounds >= prev_r); /* monotone in size */
    assert_true(t >= prev_t);
    /* Never faster than the bytes at the rate, never slower than a round
     * trip per window on top of it; the first record no later than all. */
    assert_true(t >= (int64_t)(wire * 8e6 / 1600000.0) - 1);
    assert_true(t <= (int64_t)(wire * 8e6 / 1600000.0) +
                         (int64_t)rounds * (150000 + 10000));
    assert_true(first <= t);
    prev_r = rounds;
    prev_t = t;
  }
  /* A window the size of the body: one round, the serialisation only
   * (450000 bytes in 311 segments, 16172 bytes of headers). */
  assert_int_equal(projection_body_us(450000, 0, 150000, 1600000, 1 << 20,
                                      NULL, &rounds, NULL),
                   2330860);
  assert_int_equal(rounds, 1);
}

static void test_tls_rounds(void **state)
{
  struct hop h;

  (void)state;
  hop_init(&h);
  assert_int_equal(projection_tls_rounds(&h), -1);
  hop_tls_edit(&h)->version = "TLSv1.3";
  hop_tls_edit(&h)->resumed = 0;
  assert_int_equal(projection_tls_rounds(&h), 1);
  hop_tls_edit(&h)->version = "TLSv1.2";
  assert_int_equal(projection_tls_rounds(&h), 2);
  hop_tls_edit(&h)->resumed = 1;
  assert_int_equal(projection_tls_rounds(&h), 1);
  hop_tls_edit(&h)->version = "TLSv1.3";
  hop_info_edit(&h)->http_version = "3";
  hop_tls_edit(&h)->resumed = 0;
  assert_int_equal(projection_tls_rounds(&h), 0);
  hop_release(&h);
}

/* A two-hop cold sample (redirect to another host) and a warm one, as
 * measured on a fast link: each round trip 0.2 ms. */
static void sample_pair(struct fx *f, size_t t, int round, int64_t body)
{
  struct sample *s = fx_sample(f, t, MODE_COLD, round);
  struct hop *h;

  h = fx_hop(s, "https://a.test/x", 302, 300, 200, 400, 10, 1200, 5);
  h->dns_us = 300;
  hop_info_edit(h)->size_header = 200;
  hop_info_edit(h)->size_download = 150;
  h = fx_hop(s, "https://b.test/x", 200, 250, 200, 400, 10, 700, 900);
  h->dns_us = 250;
  hop_tls_edit(h)->version = "TLSv1.2";
  hop_info_edit(h)->size_header = 250;
  hop_info_edit(h)->size_download = body;
  fx_add(f, s, 50);
  s = fx_sample(f, t, MODE_WARM, round);
  h = fx_hop(s, "https://a.test/x", 302, 0, 0, 0, 10, 1100, 5);
  hop_info_edit(h)->size_header = 200;
  hop_info_edit(h)->size_download = 150;
  h = fx_hop(s, "https://b.test/x", 200, 0, 0, 0, 10, 650, 880);
  hop_info_edit(h)->size_header = 250;
  hop_info_edit(h)->size_download = body;
  s->idle_us = 1000;
  fx_add(f, s, 40);
}

static void check_structure(const struct projection *pj,
                            const struct net_profile *np)
{
  int64_t sum = pj->other_us;
  int32_t rt = 0;
  size_t k;

  assert_true(pj->present);
  for (k = 0; k < pj->n_hops; k++) {
    const struct proj_hop *h = &pj->hops[k];
    int64_t hs = 0;
    int ph;

    for (ph = 0; ph < PHASE_TOTAL; ph++) {
      assert_true(h->phases[ph] >= 0);
      hs += h->phases[ph];
    }
    assert_int_equal(hs, h->phases[PHASE_TOTAL]);
    sum += hs;
    rt += h->round_trips;
    /* Each hop: never below its own round trips x the RTT. */
    assert_true(h->phases[PHASE_TOTAL] >=
                (int64_t)h->round_trips * np->rtt_us);
  }
  assert_int_equal(sum, pj->total_us);
  assert_int_equal(rt, pj->round_trips);
  assert_int_equal(pj->floor_us, (int64_t)pj->round_trips * np->rtt_us);
  assert_true(pj->total_us >= pj->floor_us);
}

static void test_structure(void **state)
{
  struct fx f;
  size_t k, t;
  int round;

  (void)state;
  fx_init(&f, "cold,warm", 3, "big=https://a.test/x", "small=https://a.test/x",
          NULL);
  fx_option(&f, "project", "slow-4g,rtt=40ms,down=10Mbit,up=5Mbit,loss=1%");
  for (round = 1; round <= 3; round++) {
    sample_pair(&f, 0, round, 2000000);
    sample_pair(&f, 1, round, 20000);
  }
  fx_build(&f);
  assert_int_equal(f.a.proj.n_nets, 2);
  for (t = 0; t < 2; t++)
    for (k = 0; k < 2; k++) {
      const struct target_projection *tp = &f.a.proj.targets[t * 2 + k];
      const struct projection *cold = &tp->modes[MODE_COLD];
      const struct projection *warm = &tp->modes[MODE_WARM];

      check_structure(cold, &f.o.project[k]);
      check_structure(warm, &f.o.project[k]);
      /* Cold hop 1: DNS, TCP, TLS 1.3 and the request; hop 2 the same
       * with TLS 1.2's two, and the body's rounds after its first. */
      assert_int_equal(cold->hops[0].round_trips, 4);
      assert_int_equal(cold->hops[1].round_trips,
                       5 + cold->hops[1].body_rounds - 1);
      assert_true(cold->hops[0].phases[PHASE_CONNECT] >=
                  f.o.project[k].rtt_us);
      assert_true(cold->hops[1].phases[PHASE_TLS] >=
                  2 * f.o.project[k].rtt_us);
      /* Warm: no handshakes, and a window the connection kept. */
      assert_int_equal(warm->hops[0].phases[PHASE_DNS], 0);
      assert_int_equal(warm->hops[0].phases[PHASE_CONNECT], 0);
      assert_int_equal(warm->hops[0].phases[PHASE_TLS], 0);
      assert_true(warm->hops[1].window_bytes >= cold->hops[1].window_bytes);
      assert_true(warm->total_us < cold->total_us);
      /* Every finding has a saving on the network, ranked. */
      assert_int_equal(tp->n_findings, f.a.targets[t].n_findings);
      for (size_t i = 1; i < tp->n_findings; i++)
        assert_true(tp->findings[i - 1].saving_us >=
                    tp->findings[i].saving_us);
    }
  /* A 2 MB body takes longer than a 20 KB one on every network; each
   * round's pair is projected and compared: the interval holds the median
   * difference, and the verdict follows the interval. */
  for (k = 0; k < 2; k++)
    assert_true(f.a.proj.targets[0 * 2 + k].modes[MODE_COLD].total_us >
                f.a.proj.targets[1 * 2 + k].modes[MODE_COLD].total_us);
  assert_true(f.a.proj.n_comparisons >= 2);
  for (k = 0; k < f.a.proj.n_comparisons; k++) {
    const struct proj_comparison *pc = &f.a.proj.comparisons[k];

    assert_true(pc->ci_low_us <= pc->median_diff_us);
    assert_true(pc->median_diff_us <= pc->ci_high_us);
    assert_true(pc->median_diff_us < 0); /* small against big: faster */
    /* Three rounds give no 95 % interval: no clear difference. */
    assert_int_equal(pc->verdict, COMPARE_NO_CLEAR_DIFFERENCE);
  }
  fx_release(&f);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse),       cmocka_unit_test(test_option),
      cmocka_unit_test(test_body_rounds), cmocka_unit_test(test_tls_rounds),
      cmocka_unit_test(test_structure),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);

  strpool_release_all();
  return rc;
}
