/*
 * test_analysis_cdn.c: cache[], edge[], the per-hop facts and client of
 * the analysis (analysis_cdn.c, SPEC 4.1, 4.2, 5), through analysis_build
 * over results built in memory (fixture.h).  The headers are the captures
 * of tests/data/headers, and what each says about itself ("# vendor:",
 * "# verdict:", "# pop:" ...) is the expected value:
 *
 *   - per hop index, the verdicts of every successful sample of the
 *     target (all modes) are counted, failed samples and other targets
 *     are not; the verdict is the most frequent one (the earliest in enum
 *     order on a tie), its details those of the most recent sample with
 *     it;
 *   - a hop had Authorization when the user gave one and it was not
 *     dropped on a cross-origin hop (SPEC 7: kept with --location-trusted);
 *   - edge[k] describes hop k of the median cold sample, or of the first
 *     successful sample that has a hop k; its connect p50 is the cold
 *     mode's, NAN when no cold sample has that hop;
 *   - a /cdn-cgi/trace of the hop's origin gives a Cloudflare POP when the
 *     headers name none; the client comes from --client-location, else
 *     from the first trace that parses, and WARP hides it.
 * Distances come from edge.c (test_edge checks them against city pairs).
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

#include "analysis.h"
#include "edge.h"
#include "strpool.h"
#include "banned.h"

#include "check.h"
#include "fixture.h"

static void check_counts(const char *row, const struct cache_counts *c,
                         const int want[CACHE_VERDICT_COUNT])
{
  int v;

  for (v = 0; v < CACHE_VERDICT_COUNT; v++)
    if (c->n[v] != want[v]) {
      print_error("case %s: %s counted %d times, want %d\n", row,
                  cache_verdict_names[v], c->n[v], want[v]);
      fail();
    }
}

static void check_fact(const char *row, const struct hop_fact *h,
                       const char *verdict, const struct fx_truth *t)
{
  CHECK_STR(row, cache_verdict_names[h->verdict], verdict);
  CHECK_OPT(row, h->vendor, t->edge_vendor[0] ? t->edge_vendor : "null");
  CHECK_STR(row, h->pop ? h->pop : "", t->pop);
}

/*
 * Target a.test, two rounds of cold and warm, then z.test:
 *   0 cold r1   a.test 302, b1.test cloudflare-hit     (HIT)
 *   1 warm r1   a.test 302, b2.test cloudfront-miss    (MISS)
 *   2 cold r2   a.test 302, b3.test cloudfront-hit     (HIT)
 *   3 warm r2   failed: a.test, b4.test cloudflare-dynamic, b5.test fastly
 *   4 cold r1   z.test cloudflare-dynamic (DYNAMIC), the other target
 * a.test: hop 1 UNKNOWN x3; hop 2 HIT 2, MISS 1 -> HIT, as sample 2 says
 * it (cloudfront, host b3.test); two hop indexes (the failed sample's
 * third hop does not count).  z.test: DYNAMIC x1.
 */
static void test_verdicts_per_hop(void **state)
{
  static const char *const file[4] = {
      "cloudflare-hit.txt", "cloudfront-miss.txt", "cloudfront-hit.txt",
      "cloudflare-dynamic.txt"};
  static const enum sample_mode mode[4] = {MODE_COLD, MODE_WARM, MODE_COLD,
                                           MODE_WARM};
  int want0[CACHE_VERDICT_COUNT] = {0}, want1[CACHE_VERDICT_COUNT] = {0};
  int want_z[CACHE_VERDICT_COUNT] = {0};
  struct fx_truth t[4], tf, tz, none;
  const struct target_analysis *ta;
  char url[64];
  struct fx f;
  struct sample *s;
  struct hop *h;
  int i;

  (void)state;
  memset(&none, 0, sizeof(none));
  fx_init(&f, "cold,warm", 2, "https://a.test/", "https://z.test/", NULL);
  for (i = 0; i < 4; i++) {
    s = fx_sample(&f, 0, mode[i], i / 2 + 1);
    fx_hop(s, "https://a.test/", 302, 1000, 2000, 3000, 100, 4000, 0);
    snprintf(url, sizeof(url), "https://b%d.test/img", i + 1);
    h = fx_hop(s, url, 200, 1000, 2000, 3000, 100, 4000, 500);
    fx_capture_truth(h, file[i], &t[i]);
    if (i == 3) {
      h = fx_hop(s, "https://b5.test/", 200, 0, 2000, 3000, 100, 4000, 0);
      fx_capture_truth(h, "fastly-hit.txt", &tf);
      fx_fail(s, ERR_HTTP);
    }
    fx_add(&f, s, 0);
  }
  s = fx_sample(&f, 1, MODE_COLD, 1);
  h = fx_hop(s, "https://z.test/", 200, 1000, 2000, 3000, 100, 4000, 500);
  fx_capture_truth(h, "cloudflare-dynamic.txt", &tz);
  fx_add(&f, s, 0);
  fx_build(&f);

  /* The captures say what this test relies on. */
  CHECK_STR("captures", t[0].verdict, "HIT");
  CHECK_STR("captures", t[1].verdict, "MISS");
  CHECK_STR("captures", t[2].verdict, "HIT");
  CHECK_STR("captures", t[3].verdict, "DYNAMIC");
  CHECK_STR("captures", t[2].vendor, "cloudfront");

  ta = &f.a.targets[0];
  CHECK_INT("a.test", ta->n_cache, 2);
  CHECK_INT("hop 1", ta->cache[0].hop, 1);
  want0[CACHE_UNKNOWN] = 3;
  check_counts("hop 1", &ta->cache[0].counts, want0);
  CHECK_STR("hop 1", cache_verdict_names[ta->cache[0].result.verdict],
            "UNKNOWN");
  CHECK_STR("hop 1", ta->cache[0].host, "a.test");

  CHECK_INT("hop 2", ta->cache[1].hop, 2);
  want1[CACHE_HIT] = 2;
  want1[CACHE_MISS] = 1;
  check_counts("hop 2", &ta->cache[1].counts, want1);
  CHECK_STR("hop 2", cache_verdict_names[ta->cache[1].result.verdict], "HIT");
  CHECK_STR("hop 2", ta->cache[1].result.vendor, t[2].vendor);
  CHECK_STR("hop 2", ta->cache[1].host, "b3.test");

  ta = &f.a.targets[1];
  CHECK_INT("z.test", ta->n_cache, 1);
  want_z[CACHE_DYNAMIC] = 1;
  check_counts("z.test", &ta->cache[0].counts, want_z);
  CHECK_STR("z.test", cache_verdict_names[ta->cache[0].result.verdict],
            tz.verdict);

  /* Facts: every hop of every sample; a failed one keeps UNKNOWN but
   * still names its edge. */
  CHECK_INT("facts", f.a.n_samples, 5);
  for (i = 0; i < 4; i++) {
    char row[32];

    snprintf(row, sizeof(row), "fact %d/1", i);
    check_fact(row, &f.a.facts[i][0], "UNKNOWN", &none);
    snprintf(row, sizeof(row), "fact %d/2", i);
    check_fact(row, &f.a.facts[i][1], i == 3 ? "UNKNOWN" : t[i].verdict,
               &t[i]);
  }
  check_fact("fact 3/3", &f.a.facts[3][2], "UNKNOWN", &tf);
  check_fact("fact 4/1", &f.a.facts[4][0], tz.verdict, &tz);
  fx_release(&f);
}

/* A tie (one HIT, one MISS, MISS last): HIT, the earlier in enum order,
 * described by the sample that had it. */
static void test_verdict_tie(void **state)
{
  struct fx_truth th, tm;
  struct fx f;
  struct sample *s;
  struct hop *h;
  const struct cache_hop *ch;

  (void)state;
  fx_init(&f, "cold", 2, "https://a.test/", NULL);
  s = fx_sample(&f, 0, MODE_COLD, 1);
  h = fx_hop(s, "https://hit.test/", 200, 0, 2000, 3000, 0, 4000, 0);
  fx_capture_truth(h, "cloudflare-hit.txt", &th);
  fx_add(&f, s, 0);
  s = fx_sample(&f, 0, MODE_COLD, 2);
  h = fx_hop(s, "https://miss.test/", 200, 0, 2000, 3000, 0, 4000, 0);
  fx_capture_truth(h, "cloudfront-miss.txt", &tm);
  fx_add(&f, s, 0);
  fx_build(&f);
  ch = &f.a.targets[0].cache[0];
  CHECK_INT("tie", ch->counts.n[CACHE_HIT], 1);
  CHECK_INT("tie", ch->counts.n[CACHE_MISS], 1);
  CHECK_STR("tie", cache_verdict_names[ch->result.verdict], th.verdict);
  CHECK_STR("tie", ch->result.vendor, th.vendor);
  CHECK_STR("tie", ch->host, "hit.test");
  fx_release(&f);
}

static int has_reason(const struct cache_result *r, const char *part)
{
  size_t i;

  for (i = 0; i < r->n_reasons; i++)
    if (strstr(r->reasons[i], part))
      return 1;
  return 0;
}

/*
 * Authorization per hop: a.test/ -> a.test/b (same origin) ->
 * other.test/c (cross-origin) -> a.test:8443/d (another port: another
 * origin), each "Cache-Control: max-age=60" (neither public nor
 * s-maxage, so a request with Authorization is not stored by a shared
 * cache, RFC 9111 3.5; cache.c gives the reason).
 */
static void test_authorization_per_hop(void **state)
{
  static const struct {
    const char *row, *header;
    int trusted;
    int want[4];
  } c[] = {
      {"no header", NULL, 0, {0, 0, 0, 0}},
      {"other header", "X-Auth: Bearer t", 0, {0, 0, 0, 0}},
      {"authorization", "Authorization: Bearer t", 0, {1, 1, 0, 0}},
      {"lower case", "authorization: Bearer t", 0, {1, 1, 0, 0}},
      {"trusted", "Authorization: Bearer t", 1, {1, 1, 1, 1}},
  };
  static const char *const urls[4] = {"https://a.test/", "https://a.test/b",
                                      "https://other.test/c",
                                      "https://a.test:8443/d"};
  size_t i, k;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(c); i++) {
    struct fx f;
    struct sample *s;

    fx_init(&f, "cold", 1, "https://a.test/", NULL);
    if (c[i].header)
      fx_option(&f, "header", c[i].header);
    if (c[i].trusted)
      fx_option(&f, "location-trusted", NULL);
    s = fx_sample(&f, 0, MODE_COLD, 1);
    for (k = 0; k < 4; k++) {
      struct hop *h =
          fx_hop(s, urls[k], k < 3 ? 302 : 200, 0, 1000, 0, 0, 1000, 0);

      hop_add_header(h, "cache-control", "max-age=60");
    }
    fx_add(&f, s, 0);
    fx_build(&f);
    CHECK_INT(c[i].row, f.a.targets[0].n_cache, 4);
    for (k = 0; k < 4; k++) {
      char row[64];

      snprintf(row, sizeof(row), "%s, hop %zu", c[i].row, k + 1);
      CHECK_INT(row,
                has_reason(&f.a.targets[0].cache[k].result,
                           "request carried Authorization"),
                c[i].want[k]);
    }
    fx_release(&f);
  }
}

static void check_place(const char *row, const struct edge_result *e,
                        const struct edge_client *cl)
{
  const struct edge_pop *pop = edge_pop_lookup(e->pop);
  double d;

  assert_non_null(pop);
  d = edge_distance_km(cl->lat, cl->lon, pop->lat, pop->lon);
  CHECK_NEAR(row, e->lat, pop->lat, 1e-9);
  CHECK_NEAR(row, e->lon, pop->lon, 1e-9);
  CHECK_NEAR(row, e->distance_km, d, 1e-6);
  CHECK_NEAR(row, e->floor_rtt_ms, d / 100.0, 1e-6);
}

/*
 * edge[] of e.test, client at 52.52,13.405 (Berlin, no country):
 *   cold x1  e.test 302, cdn.test cloudflare-dynamic (NRT)
 *   cold x3  e.test 302, cdn.test cloudflare-dynamic (NRT)
 *   cold x2  e.test 302, cdn.test cloudflare-hit (ICN)   <- the median
 *   warm     e.test, cdn.test (reused), f.test fastly-hit (NRT)
 * Connects: hop 1 2000 x, hop 2 10000 x: p50 4 and 20 ms.
 *   edge[0] hop 1: e.test, no CDN, unknown (-1), connect 4 ms
 *   edge[1] hop 2: the median's ICN, Seoul KR, 20 ms, distant
 *   edge[2] hop 3: only the warm sample has it: NRT, connect NAN
 */
static void test_edge_per_hop(void **state)
{
  static const int64_t m[3] = {1, 3, 2};
  struct fx_truth t[3], tf;
  const struct target_analysis *ta;
  const struct edge_result *e;
  const struct edge_pop *near;
  struct fx f;
  struct sample *s;
  struct hop *h;
  int i;

  (void)state;
  fx_init(&f, "cold,warm", 3, "https://e.test/", NULL);
  fx_option(&f, "client-location", "52.52,13.405");
  for (i = 0; i < 3; i++) {
    s = fx_sample(&f, 0, MODE_COLD, i + 1);
    fx_hop(s, "https://e.test/", 302, 0, 2000 * m[i], 3000, 0, 1000, 0);
    h = fx_hop(s, "https://cdn.test/x", 200, 0, 10000 * m[i], 3000, 0, 1000,
               100);
    fx_capture_truth(
        h, i == 2 ? "cloudflare-hit.txt" : "cloudflare-dynamic.txt", &t[i]);
    fx_add(&f, s, 0);
  }
  s = fx_sample(&f, 0, MODE_WARM, 1);
  fx_hop(s, "https://e.test/", 302, 0, 0, 0, 0, 1000, 0);
  fx_hop(s, "https://cdn.test/x", 302, 0, 0, 0, 0, 1000, 0);
  h = fx_hop(s, "https://f.test/css", 200, 0, 5000, 3000, 0, 1000, 100);
  fx_capture_truth(h, "fastly-hit.txt", &tf);
  fx_add(&f, s, 0);
  fx_build(&f);

  CHECK_INT("median", f.a.targets[0].modes[MODE_COLD].median_sample, 2);
  CHECK_INT("client", f.a.client.source, EDGE_CLIENT_OPTION);
  CHECK_NEAR("client", f.a.client.lat, 52.52, 1e-9);
  CHECK_STR("client", f.a.client.country, "");
  ta = &f.a.targets[0];
  CHECK_INT("edges", ta->n_edge, 3);

  e = &ta->edge[0];
  CHECK_INT("hop 1", e->hop, 1);
  CHECK_STR("hop 1", e->host, "e.test");
  CHECK_OPT("hop 1", e->vendor, "null");
  CHECK_OPT("hop 1", e->pop, "null");
  CHECK_INT("hop 1", e->distant, -1);
  CHECK_NEAR("hop 1", e->connect_p50_ms, 4.0, 1e-9);

  e = &ta->edge[1];
  CHECK_INT("hop 2", e->hop, 2);
  CHECK_STR("hop 2", e->host, "cdn.test");
  CHECK_STR("hop 2", e->vendor, t[2].edge_vendor);
  CHECK_STR("hop 2", e->pop, t[2].pop);
  CHECK_STR("hop 2", e->city, t[2].city);
  CHECK_STR("hop 2", e->country, t[2].country);
  CHECK_STR("hop 2", edge_source_names[e->source], "header");
  CHECK_NEAR("hop 2", e->connect_p50_ms, 20.0, 1e-9);
  check_place("hop 2", e, &f.a.client);
  CHECK_INT("hop 2", e->distant, 1); /* 8,100 km, another country */
  assert_non_null(e->distant_why);
  near = edge_pop_nearest(EDGE_POP_CLOUDFLARE, 52.52, 13.405, "");
  assert_non_null(near);
  CHECK_STR("hop 2", e->nearest, near->code);

  e = &ta->edge[2];
  CHECK_INT("hop 3", e->hop, 3);
  CHECK_STR("hop 3", e->host, "f.test");
  CHECK_STR("hop 3", e->vendor, tf.edge_vendor);
  CHECK_STR("hop 3", e->pop, tf.pop);
  assert_true(isnan(e->connect_p50_ms));
  check_place("hop 3", e, &f.a.client);
  CHECK_OPT("hop 3", e->nearest, "null"); /* only for Cloudflare */

  /* The facts of the other cold samples name their own edge. */
  CHECK_STR("fact 0/2", f.a.facts[0][1].pop, t[0].pop);
  CHECK_STR("fact 2/2", f.a.facts[2][1].pop, t[2].pop);
  fx_release(&f);
}

/* One cold sample: t.test (server: cloudflare, no cf-ray, so no POP in
 * the headers) and u.test (no trace, no headers); a trace of t.test's
 * origin with the body given, or none (body NULL: the fetch failed). */
static void trace_run(struct fx *f, const char *client, const char *body)
{
  struct sample *s;
  struct hop *h;

  fx_init(f, "cold", 1, "https://t.test/", NULL);
  if (client)
    fx_option(f, "client-location", client);
  fx_plan(f);
  {
    struct trace_fetch *tf =
        results_add_trace(&f->r, "https://t.test:443", "t.test");

    if (body) {
      tf->body = xstrdup(body);
      tf->len = strlen(body);
      tf->status = 200;
    }
    else {
      tf->error = xstrdup("connection refused");
    }
  }
  s = fx_sample(f, 0, MODE_COLD, 1);
  h = fx_hop(s, "https://t.test/", 302, 0, 3000, 3000, 0, 1000, 0);
  hop_add_header(h, "server", "cloudflare");
  fx_hop(s, "https://u.test/", 200, 0, 3000, 3000, 0, 1000, 0);
  fx_add(f, s, 0);
  fx_build(f);
}

/*
 * Traces and the client:
 *   trace colo=FRA loc=DE     hop 1: cloudflare FRA from the trace; the
 *                             client is Germany's centroid (source trace),
 *                             same country, 3 ms connect: not distant
 *   + --client-location FR    the option wins (source option, FR)
 *   trace warp=on             the client is hidden, so is the edge's
 *                             distance verdict (-1)
 *   trace garbage / failed    no client, no POP (vendor from the headers)
 * u.test has no trace: never a POP.
 */
static void test_trace_and_client(void **state)
{
  static const char good[] =
      "fl=123f45\nh=t.test\nip=198.51.100.7\n"
      "ts=1736824366.123\nvisit_scheme=https\n"
      "uag=hopsplit\ncolo=FRA\nsliver=none\n"
      "http=http/2\nloc=DE\ntls=TLSv1.3\nsni=plaintext\n"
      "warp=off\ngateway=off\nrbi=off\nkex=X25519\n";
  static const char warp[] = "colo=FRA\nloc=DE\nwarp=on\n";
  const struct edge_country *de = edge_country_lookup("DE");
  const struct edge_country *fr = edge_country_lookup("FR");
  const struct edge_result *e;
  struct fx f;

  (void)state;
  assert_non_null(de);
  assert_non_null(fr);

  trace_run(&f, NULL, good);
  CHECK_STR("trace", edge_client_source_names[f.a.client.source], "trace");
  CHECK_STR("trace", f.a.client.country, "DE");
  CHECK_NEAR("trace", f.a.client.lat, de->lat, 1e-9);
  CHECK_NEAR("trace", f.a.client.lon, de->lon, 1e-9);
  CHECK_INT("trace", f.a.client.hidden, 0);
  e = &f.a.targets[0].edge[0];
  CHECK_STR("trace hop 1", e->vendor, "cloudflare");
  CHECK_STR("trace hop 1", e->pop, "FRA");
  CHECK_STR("trace hop 1", e->country, "DE");
  CHECK_STR("trace hop 1", edge_source_names[e->source], "trace");
  check_place("trace hop 1", e, &f.a.client);
  CHECK_INT("trace hop 1", e->distant, 0);
  CHECK_NEAR("trace hop 1", e->connect_p50_ms, 3.0, 1e-9);
  e = &f.a.targets[0].edge[1];
  CHECK_OPT("trace hop 2", e->pop, "null");
  CHECK_OPT("trace hop 2", e->vendor, "null");
  fx_release(&f);

  trace_run(&f, "fr", good);
  CHECK_STR("option", edge_client_source_names[f.a.client.source], "option");
  CHECK_STR("option", f.a.client.country, "FR");
  CHECK_NEAR("option", f.a.client.lat, fr->lat, 1e-9);
  check_place("option hop 1", &f.a.targets[0].edge[0], &f.a.client);
  fx_release(&f);

  trace_run(&f, NULL, warp);
  CHECK_INT("warp", f.a.client.hidden, 1);
  e = &f.a.targets[0].edge[0];
  CHECK_STR("warp", e->pop, "FRA");
  CHECK_INT("warp", e->hidden, 1);
  CHECK_INT("warp", e->distant, -1);
  fx_release(&f);

  trace_run(&f, NULL, "<html>not a trace</html>");
  CHECK_STR("garbage", edge_client_source_names[f.a.client.source], "none");
  assert_true(isnan(f.a.client.lat));
  e = &f.a.targets[0].edge[0];
  CHECK_STR("garbage", e->vendor, "cloudflare");
  CHECK_OPT("garbage", e->pop, "null");
  fx_release(&f);

  trace_run(&f, NULL, NULL);
  CHECK_INT("failed fetch", f.a.client.source, EDGE_CLIENT_NONE);
  CHECK_OPT("failed fetch", f.a.targets[0].edge[0].pop, "null");
  fx_release(&f);
}

/* No successful sample: no cache[] or edge[] at all, the client still
 * from the option; the failed sample's facts are UNKNOWN. */
static void test_nothing_succeeded(void **state)
{
  struct fx f;
  struct sample *s;
  struct hop *h;

  (void)state;
  fx_init(&f, "cold", 1, "https://a.test/", NULL);
  fx_option(&f, "client-location", "JP");
  s = fx_sample(&f, 0, MODE_COLD, 1);
  h = fx_hop(s, "https://a.test/", 200, 0, 1000, 0, 0, 0, 0);
  hop_add_header(h, "cf-cache-status", "HIT");
  fx_fail(s, ERR_TIMEOUT);
  fx_add(&f, s, 0);
  fx_build(&f);
  CHECK_INT("failed", f.a.targets[0].n_cache, 0);
  CHECK_INT("failed", f.a.targets[0].n_edge, 0);
  assert_null(f.a.targets[0].cache);
  assert_null(f.a.targets[0].edge);
  CHECK_STR("failed", f.a.client.country, "JP");
  CHECK_STR("failed", cache_verdict_names[f.a.facts[0][0].verdict], "UNKNOWN");
  fx_release(&f);
}

static int teardown(void **state)
{
  (void)state;
  strpool_release_all();
  return 0;
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_verdicts_per_hop, teardown),
      cmocka_unit_test_teardown(test_verdict_tie, teardown),
      cmocka_unit_test_teardown(test_authorization_per_hop, teardown),
      cmocka_unit_test_teardown(test_edge_per_hop, teardown),
      cmocka_unit_test_teardown(test_trace_and_client, teardown),
      cmocka_unit_test_teardown(test_nothing_succeeded, teardown),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
