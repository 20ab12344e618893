/*
 * test_profile.c: the YAML profile loader (profile.c) and the checks
 * (check.c): ${VAR} expansion, options through the one setter with the
 * command line on top, per-target options, every problem with its place,
 * check parsing and evaluation against a made-up analysis.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "option_table.h"
#include "options.h"
#include "plan.h"
#include "profile.h"

static void test_expand(void **state)
{
  static const struct {
    const char *in;
    const char *out; /* NULL: error */
    const char *err;
    size_t at;
  } c[] = {
      {"plain", "plain", NULL, 0},
      {"a ${HS_UNIT_A} b", "a alpha b", NULL, 0},
      {"${HS_UNIT_A}${HS_UNIT_A}", "alphaalpha", NULL, 0},
      {"${HS_UNIT_UNSET:-dflt}", "dflt", NULL, 0},
      {"${HS_UNIT_EMPTY:-dflt}", "dflt", NULL, 0},
      {"${HS_UNIT_A:-dflt}", "alpha", NULL, 0},
      {"x${HS_UNIT_EMPTY}y", "xy", NULL, 0},
      {"$${HS_UNIT_A}", "${HS_UNIT_A}", NULL, 0},
      {"cost $5 and $", "cost $5 and $", NULL, 0},
      {"ab${HS_UNIT_UNSET}", NULL,
       "environment variable 'HS_UNIT_UNSET' is not set", 2},
      {"${OPEN", NULL, "'${' without a closing '}'", 0},
      {"x${}", NULL, "empty variable name in '${}'", 1},
      {"${1A}", NULL,
       "bad variable name '1A' (letters, digits and '_', not starting with a "
       "digit)",
       0},
      {"${A-B}", NULL,
       "bad variable name 'A-B' (letters, digits and '_', not starting with "
       "a digit)",
       0},
  };
  size_t i;

  (void)state;
  setenv("HS_UNIT_A", "alpha", 1);
  setenv("HS_UNIT_EMPTY", "", 1);
  unsetenv("HS_UNIT_UNSET");
  for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    char err[256] = "";
    size_t at = 99;
    char *got = profile_expand(c[i].in, err, sizeof(err), &at);

    if (c[i].out) {
      assert_non_null(got);
      assert_string_equal(got, c[i].out);
    }
    else {
      assert_null(got);
      assert_string_equal(err, c[i].err);
      assert_int_equal(at, c[i].at);
    }
    free(got);
  }
}

static int load(struct profile *p, const char *yaml, const struct options *cli)
{
  profile_init(p);
  return profile_load_buf(p, "t.yaml", yaml, strlen(yaml), cli);
}

static void test_good(void **state)
{
  static const char yaml[] =
      "name: unit\n"
      "rounds: 7\n"
      "modes: [cold, warm]\n"
      "order: fixed\n"
      "seed: 3\n"
      "pause: 5ms\n"
      "defaults:\n"
      "  max-time: 2s\n"
      "  insecure: true\n"
      "  headers: {Accept: 'image/*', X-Env: '${HS_UNIT_A}'}\n"
      "targets:\n"
      "  - name: api\n"
      "    url: api.test/x\n"
      "    method: HEAD\n"
      "    insecure: false\n"
      "    resolve: api.test:443:192.0.2.1\n"
      "  - url: https://cdn.test/y\n"
      "    max-redirs: 0\n"
      "    header: 'X-Env: target'\n"
      "checks:\n"
      "  - {metric: total.p95, max: 800ms}\n"
      "  - {target: t2, metric: wait.p50, mode: warm, min: 1us, max: 1s}\n"
      "  - {target: api, cache: {is: [hit, MISS], hop: last}}\n"
      "  - {target: t2, compare: api, verdict: [faster, no clear "
      "difference]}\n"
      "outputs: [out/a.json, out/a.txt]\n";
  struct profile p;
  const struct check *k;

  (void)state;
  setenv("HS_UNIT_A", "alpha", 1);
  assert_int_equal(load(&p, yaml, NULL), 0);
  assert_int_equal(p.n_errors, 0);
  assert_string_equal(p.name, "unit");
  assert_int_equal(p.opts.rounds, 7);
  assert_int_equal(p.opts.modes, (1u << MODE_COLD) | (1u << MODE_WARM));
  assert_int_equal(p.opts.order, ORDER_FIXED);
  assert_int_equal(p.opts.seed, 3);
  assert_int_equal(p.opts.pause_us, 5000);
  assert_int_equal(p.opts.max_time_us, 2000000);
  assert_int_equal(p.opts.n_outputs, 2);
  assert_int_equal(p.opts.outputs[0].format, FORMAT_JSON);
  assert_int_equal(p.opts.outputs[1].format, FORMAT_TEXT);
  assert_int_equal(p.n_targets, 2);
  assert_string_equal(p.targets[0].name, "api");
  assert_string_equal(p.targets[0].url, "api.test/x");
  assert_string_equal(p.targets[0].opts.method, "HEAD");
  assert_int_equal(p.targets[0].opts.insecure, 0); /* undone */
  assert_int_equal(p.targets[0].opts.n_resolve, 1);
  assert_int_equal(p.targets[0].opts.n_headers, 2);
  assert_string_equal(p.targets[0].opts.headers[1], "X-Env: alpha");
  assert_int_equal(p.targets[0].opts.max_time_us, 2000000);
  assert_string_equal(p.targets[1].name, "t2");
  assert_int_equal(p.targets[1].opts.insecure, 1);
  assert_int_equal(p.targets[1].opts.max_redirs, 0);
  assert_int_equal(p.targets[1].opts.n_headers, 3);
  assert_string_equal(p.targets[1].opts.method, "GET");
  /* One check without target becomes one per target. */
  assert_int_equal(p.checks.n, 5);
  k = &p.checks.v[0];
  assert_int_equal(k->kind, CHECK_METRIC);
  assert_int_equal(k->target, 0);
  assert_int_equal(k->phase, SUM_TOTAL);
  assert_int_equal(k->stat, CHECK_STAT_P95);
  assert_int_equal(k->mode, MODE_COLD);
  assert_true(k->has_max && !k->has_min);
  assert_int_equal(k->max_us, 800000);
  assert_string_equal(k->where, "t.yaml:21:5");
  assert_int_equal(p.checks.v[1].target, 1);
  k = &p.checks.v[2];
  assert_int_equal(k->target, 1);
  assert_int_equal(k->phase, SUM_WAIT);
  assert_int_equal(k->mode, MODE_WARM);
  assert_true(k->has_min && k->min_us == 1);
  k = &p.checks.v[3];
  assert_int_equal(k->kind, CHECK_CACHE);
  assert_int_equal(k->cache_is, 1);
  assert_int_equal(k->verdicts, (1u << CACHE_HIT) | (1u << CACHE_MISS));
  assert_int_equal(k->hop, CHECK_HOP_LAST);
  k = &p.checks.v[4];
  assert_int_equal(k->kind, CHECK_COMPARE);
  assert_int_equal(k->target, 1);
  assert_int_equal(k->baseline, 0);
  assert_int_equal(k->verdicts, (1u << COMPARE_FASTER) |
                                    (1u << COMPARE_NO_CLEAR_DIFFERENCE));
  profile_release(&p);
}

static void test_cli_override(void **state)
{
  static const char yaml[] = "rounds: 7\n"
                             "defaults:\n"
                             "  headers: {Accept: 'a/b', X-Keep: k}\n"
                             "  resolve: ['h.test:443:192.0.2.1']\n"
                             "  no-follow: true\n"
                             "targets:\n"
                             "  - url: https://h.test/\n"
                             "    max-time: 3s\n";
  struct options cli;
  struct profile p;
  char err[256];

  (void)state;
  options_init(&cli);
  assert_int_equal(
      options_set(&cli, options_find("rounds"), "2", err, sizeof(err)), 0);
  assert_int_equal(options_set(&cli, options_find("header"), "accept: c/d",
                               err, sizeof(err)),
                   0);
  assert_int_equal(options_set(&cli, options_find("resolve"),
                               "H.test:443:192.0.2.9", err, sizeof(err)),
                   0);
  assert_int_equal(
      options_set(&cli, options_find("max-time"), "9s", err, sizeof(err)), 0);
  assert_int_equal(
      options_set(&cli, options_find("max-redirs"), "4", err, sizeof(err)), 0);
  assert_int_equal(load(&p, yaml, &cli), 0);
  assert_int_equal(p.opts.rounds, 2);
  assert_int_equal(p.targets[0].opts.max_time_us, 9000000);
  assert_int_equal(p.targets[0].opts.follow, 1);
  assert_int_equal(p.targets[0].opts.max_redirs, 4);
  assert_int_equal(p.targets[0].opts.n_headers, 2);
  assert_string_equal(p.targets[0].opts.headers[0], "X-Keep: k");
  assert_string_equal(p.targets[0].opts.headers[1], "accept: c/d");
  assert_int_equal(p.targets[0].opts.n_resolve, 1);
  assert_string_equal(p.targets[0].opts.resolve[0], "H.test:443:192.0.2.9");
  profile_release(&p);
  options_release(&cli);
}

/* options_copy is deep: the copy outlives the original. */
static void test_options_copy(void **state)
{
  struct options a, b;
  char err[256];

  (void)state;
  options_init(&a);
  assert_int_equal(
      options_set(&a, options_find("header"), "X-A: 1", err, sizeof(err)), 0);
  assert_int_equal(
      options_set(&a, options_find("output"), "r.json", err, sizeof(err)), 0);
  assert_int_equal(
      options_set(&a, options_find("cacert"), "ca.pem", err, sizeof(err)), 0);
  options_copy(&b, &a);
  options_release(&a);
  assert_int_equal(b.n_headers, 1);
  assert_string_equal(b.headers[0], "X-A: 1");
  assert_string_equal(b.outputs[0].path, "r.json");
  assert_string_equal(b.cacert, "ca.pem");
  assert_string_equal(b.method, "GET");
  assert_int_equal(b.n_given, 3);
  assert_string_equal(b.given[2].val, "ca.pem");
  options_release(&b);
}

static void test_errors(void **state)
{
  static const struct {
    const char *yaml;
    const char *const errors[4];
  } c[] = {
      {"round: 3\ntargets: [{url: a.test}]\n",
       {"t.yaml:1:1: unknown key 'round' (did you mean 'rounds'?)"}},
      {"targets:\n  - url: a.test\n    rounds: 2\n  - {url: b.test, name: "
       "x}\n  - {url: c.test, name: x}\n",
       {"t.yaml:3:5: 'rounds' applies to the whole run, not to one target: "
        "set it under 'defaults'",
        "t.yaml:5:25: target name 'x' is used twice (first at line 4)"}},
      {"targets: [{url: a.test, name: a}]\nchecks:\n  - {target: b, metric: "
       "total.p95, max: 1s}\n  - {target: a, metric: total.p95, max: 2x}\n",
       {"t.yaml:3:14: unknown target 'b' (did you mean 'a'?)",
        "t.yaml:4:41: max: bad duration '2x' (use e.g. 250ms, 1.5s)"}},
      {"targets:\n  - url: x\n bad\n",
       {"t.yaml:3:2: did not find expected key (while parsing a block "
        "mapping at line 1)"}},
      {"", {"t.yaml:1:1: empty profile (it needs at least 'targets')"}},
      {"defaults: {header: [1, [2]]}\ntargets: [{url: a.test}]\n",
       {"t.yaml:1:21: header: bad header '1' (expected \"Name: value\")",
        "t.yaml:1:24: expected a single value in the list of 'header', not "
        "a list"}},
  };
  size_t i, j;

  (void)state;
  for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    struct profile p;
    size_t want = 0;

    while (want < 4 && c[i].errors[want])
      want++;
    assert_int_equal(load(&p, c[i].yaml, NULL), -1);
    for (j = 0; j < p.n_errors && j < want; j++)
      assert_string_equal(p.errors[j], c[i].errors[j]);
    assert_int_equal(p.n_errors, want);
    profile_release(&p);
  }
}

static void test_metric_names(void **state)
{
  static const struct {
    const char *in;
    int ok;
    unsigned phase;
    enum check_stat stat;
  } c[] = {
      {"total.p95", 1, SUM_TOTAL, CHECK_STAT_P95},
      {"dns.min", 1, SUM_DNS, CHECK_STAT_MIN},
      {"redirect.mean", 1, SUM_REDIRECT, CHECK_STAT_MEAN},
      {"other.max", 1, SUM_OTHER, CHECK_STAT_MAX},
      {"transfer.p50", 1, SUM_TRANSFER, CHECK_STAT_P50},
      {"total", 0, 0, 0},
      {"total.", 0, 0, 0},
      {".p95", 0, 0, 0},
      {"total.p95.x", 0, 0, 0},
      {"total.p99", 0, 0, 0},
      {"ttfb.p50", 0, 0, 0},
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    unsigned ph = 99;
    enum check_stat st = CHECK_STAT_COUNT;
    char err[256];

    assert_int_equal(check_parse_metric(c[i].in, &ph, &st, err, sizeof(err)),
                     c[i].ok ? 0 : -1);
    if (c[i].ok) {
      assert_int_equal(ph, c[i].phase);
      assert_int_equal(st, c[i].stat);
    }
  }
}

/* A plan of two targets and an analysis made up by hand. */
static void test_evaluate(void **state)
{
  struct target targets[2];
  struct plan plan;
  struct target_analysis ta[2];
  struct cache_hop hops[2];
  struct comparison cmp;
  struct analysis a;
  struct check_set cs;
  struct check *k;

  (void)state;
  memset(targets, 0, sizeof(targets));
  memset(&plan, 0, sizeof(plan));
  memset(ta, 0, sizeof(ta));
  memset(hops, 0, sizeof(hops));
  memset(&cmp, 0, sizeof(cmp));
  memset(&a, 0, sizeof(a));
  plan.targets = targets;
  plan.n_targets = 2;
  a.targets = ta;
  a.n_targets = 2;
  ta[0].modes[MODE_COLD].present = 1;
  ta[0].modes[MODE_COLD].phases[SUM_TOTAL].n = 30;
  ta[0].modes[MODE_COLD].phases[SUM_TOTAL].p95 = 900000;
  ta[0].modes[MODE_COLD].phases[SUM_TOTAL].p50 = 500000;
  ta[0].cache = hops;
  ta[0].n_cache = 2;
  hops[0].hop = 1;
  hops[0].counts.n[CACHE_UNKNOWN] = 30;
  hops[1].hop = 2;
  hops[1].counts.n[CACHE_HIT] = 29;
  hops[1].counts.n[CACHE_MISS] = 1;
  a.comparisons = &cmp;
  a.n_comparisons = 1;
  cmp.target = 1;
  cmp.baseline = 0;
  cmp.mode = MODE_COLD;
  cmp.phases[SUM_TOTAL].n_pairs = 30;
  cmp.phases[SUM_TOTAL].median_diff_us = -120000;
  cmp.phases[SUM_TOTAL].verdict = COMPARE_FASTER;

  check_set_init(&cs);
  k = check_set_add(&cs); /* 0: p95 900 ms > 800 ms: fail */
  k->kind = CHECK_METRIC;
  k->phase = SUM_TOTAL;
  k->stat = CHECK_STAT_P95;
  k->has_max = 1;
  k->max_us = 800000;
  k = check_set_add(&cs); /* 1: p50 500 ms in [100 ms, 800 ms]: pass */
  k->kind = CHECK_METRIC;
  k->phase = SUM_TOTAL;
  k->stat = CHECK_STAT_P50;
  k->has_max = k->has_min = 1;
  k->max_us = 800000;
  k->min_us = 100000;
  k = check_set_add(&cs); /* 2: target 1 has no samples: fail */
  k->kind = CHECK_METRIC;
  k->target = 1;
  k = check_set_add(&cs); /* 3: last hop is HIT or MISS: pass */
  k->kind = CHECK_CACHE;
  k->cache_is = 1;
  k->verdicts = (1u << CACHE_HIT) | (1u << CACHE_MISS);
  k->hop = CHECK_HOP_LAST;
  k = check_set_add(&cs); /* 4: every hop HIT: fail */
  k->kind = CHECK_CACHE;
  k->cache_is = 1;
  k->verdicts = 1u << CACHE_HIT;
  k = check_set_add(&cs); /* 5: no hop BYPASS: pass */
  k->kind = CHECK_CACHE;
  k->verdicts = 1u << CACHE_BYPASS;
  k = check_set_add(&cs); /* 6: hop 3 does not exist: fail */
  k->kind = CHECK_CACHE;
  k->verdicts = 1u << CACHE_BYPASS;
  k->hop = 3;
  k = check_set_add(&cs); /* 7: faster: pass */
  k->kind = CHECK_COMPARE;
  k->target = 1;
  k->verdicts = 1u << COMPARE_FASTER;
  k = check_set_add(&cs); /* 8: slower: fail */
  k->kind = CHECK_COMPARE;
  k->target = 1;
  k->verdicts = 1u << COMPARE_SLOWER;
  k = check_set_add(&cs); /* 9: warm has no comparison: fail */
  k->kind = CHECK_COMPARE;
  k->target = 1;
  k->mode = MODE_WARM;
  k->verdicts = 1u << COMPARE_FASTER;

  assert_int_equal(check_evaluate(&cs, &plan, &a), 6);
  assert_int_equal(cs.n_failed, 6);
  assert_int_equal(cs.v[0].pass, 0);
  assert_int_equal(cs.v[0].value_us, 900000);
  assert_string_equal(cs.v[0].measured, "900 ms (n=30)");
  assert_int_equal(cs.v[1].pass, 1);
  assert_int_equal(cs.v[2].pass, 0);
  assert_string_equal(cs.v[2].measured, "no successful sample");
  assert_int_equal(cs.v[3].pass, 1);
  assert_string_equal(cs.v[3].measured, "hop 2 (HIT x29, MISS x1)");
  assert_int_equal(cs.v[4].pass, 0);
  assert_string_equal(cs.v[4].measured,
                      "hop 1 (UNKNOWN x30), hop 2 (HIT x29, MISS x1)");
  assert_int_equal(cs.v[5].pass, 1);
  assert_int_equal(cs.v[6].pass, 0);
  assert_string_equal(cs.v[6].measured, "no hop 3 in any successful sample");
  assert_int_equal(cs.v[7].pass, 1);
  assert_int_equal(cs.v[7].value_us, -120000);
  assert_int_equal(cs.v[8].pass, 0);
  assert_int_equal(cs.v[9].pass, 0);
  {
    char *d = check_describe(&cs.v[1]);

    assert_string_equal(d, "100 ms <= total.p50 <= 800 ms");
    free(d);
    d = check_describe(&cs.v[3]);
    assert_string_equal(d, "cache is HIT or MISS on the last hop");
    free(d);
    d = check_describe(&cs.v[7]);
    assert_string_equal(d, "verdict faster against the baseline");
    free(d);
  }
  check_set_release(&cs);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_expand),       cmocka_unit_test(test_good),
      cmocka_unit_test(test_cli_override), cmocka_unit_test(test_options_copy),
      cmocka_unit_test(test_errors),       cmocka_unit_test(test_metric_names),
      cmocka_unit_test(test_evaluate),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
