/*
 * test_findings_groups.c: unit tests of findings.c (issue 14): findings whose
 * savings overlap form groups whose combined saving takes per part the
 * largest amount a member removes, so that the savings without overlaps
 * never exceed the median cold total; and the distant-edge saving, taken
 * from a round trip measured in the same run (basis measured) or from the
 * fibre floor (basis floor).  The samples are made up, with round numbers
 * worked out by hand in the comments; no network.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "analysis.h"
#include "option_table.h"
#include "options.h"
#include "plan.h"
#include "results.h"
#include "strpool.h"

#include "banned.h"

static struct finding fnd(enum finding_kind kind, int64_t saving, int of_total)
{
  struct finding f;

  memset(&f, 0, sizeof(f));
  f.kind = kind;
  f.saving_us = saving;
  f.of_total = of_total;
  return f;
}

/* Grouping on hand-made removals over 5 parts. */
static void test_group_by_overlap(void **state)
{
  /* A removes parts 0, 1; B parts 1, 2 (overlaps A); E part 2 only
   * (overlaps B, so joins A's group transitively); C part 3 alone;
   * D is not a part of the total (no removals). */
  int64_t a[5] = {100, 50, 0, 0, 0};
  int64_t b[5] = {0, 80, 20, 0, 0};
  int64_t c[5] = {0, 0, 0, 40, 0};
  int64_t e[5] = {0, 0, 30, 0, 0};
  int64_t *rm[5] = {a, b, c, NULL, e};
  struct target_analysis ta;
  struct finding f[5];

  (void)state;
  f[0] = fnd(FINDING_REDIRECT, 150, 1);
  f[1] = fnd(FINDING_CONNECTIONS, 100, 1);
  f[2] = fnd(FINDING_PAYLOAD, 40, 1);
  f[3] = fnd(FINDING_NOISE, 0, 0);
  f[4] = fnd(FINDING_DNS, 30, 1);
  memset(&ta, 0, sizeof(ta));
  ta.findings = f;
  ta.n_findings = 5;
  findings_group(&ta, rm, 5);
  CHECK_INT("A", f[0].group, 1);
  CHECK_INT("B", f[1].group, 1);
  CHECK_INT("C", f[2].group, 0);
  CHECK_INT("D", f[3].group, 0);
  CHECK_INT("E", f[4].group, 1);
  CHECK_INT("groups", ta.n_groups, 1);
  /* Per part the most any member removes: 100 + 80 + 30 = 210, less than
   * the sum of the members (280), more than the largest (150). */
  CHECK_INT("group saving", ta.groups[0].saving_us, 210);
  CHECK_INT("group members", ta.groups[0].n_members, 3);
  /* The group and C alone; D counts nothing. */
  CHECK_INT("nonoverlap", ta.nonoverlap_us, 250);
  free(ta.groups);
}

/* No overlap at all: every finding alone, the savings simply add up. */
static void test_group_none(void **state)
{
  int64_t a[3] = {10, 0, 0}, b[3] = {0, 20, 0}, c[3] = {0, 0, 0};
  int64_t *rm[3] = {a, b, c};
  struct target_analysis ta;
  struct finding f[3];

  (void)state;
  f[0] = fnd(FINDING_REDIRECT, 10, 1);
  f[1] = fnd(FINDING_PAYLOAD, 20, 1);
  f[2] = fnd(FINDING_CACHE, 0, 1);
  memset(&ta, 0, sizeof(ta));
  ta.findings = f;
  ta.n_findings = 3;
  findings_group(&ta, rm, 3);
  CHECK_INT("groups", ta.n_groups, 0);
  CHECK_INT("nonoverlap", ta.nonoverlap_us, 30);
  CHECK_INT("a", f[0].group, 0);
  CHECK_INT("c", f[2].group, 0);
}

/* One hop of a made-up sample. */
static void hop(struct sample *s, const char *url, const char *host,
                long status, int64_t dns, int64_t connect, int64_t tls,
                int64_t wait, int64_t transfer, const char *ray)
{
  struct hop *h = sample_add_hop(s);

  hop_info_edit(h)->url = strpool_intern(url);
  hop_info_edit(h)->host = strpool_intern(host);
  hop_info_edit(h)->method = strpool_intern("GET");
  hop_info_edit(h)->status = (int32_t)status;
  h->phases[PHASE_DNS] = dns;
  h->phases[PHASE_CONNECT] = connect;
  h->phases[PHASE_TLS] = tls;
  h->phases[PHASE_WAIT] = wait;
  h->phases[PHASE_TRANSFER] = transfer;
  h->phases[PHASE_TOTAL] = dns + connect + tls + wait + transfer;
  hop_tls_edit(h)->version = strpool_intern("TLSv1.3");
  h->reused = connect == 0;
  hop_add_header(h, "cf-ray", ray);
  hop_add_header(h, "cf-cache-status", status == 302 ? "DYNAMIC" : "BYPASS");
  if (status == 302)
    hop_info_edit(h)->location =
        strpool_intern("https://storage.test/b/42.jpg");
}

/*
 * The photo case in round numbers: hop 1 to an HKG edge with 56 ms round
 * trips (DNS 14, TCP 56, TLS 56, wait 56), hop 2 to an ICN host with
 * 14 ms (DNS 14, TCP 14, TLS 14, wait 14, transfer 100).  Each round
 * jitters the connect by k us (round k + 1) so that the median sample is
 * round 4.  A second target fetches the ICN host directly.
 */
static void photo(struct results *r, size_t n_targets, int rounds)
{
  int k;
  size_t t;

  for (k = 0; k < rounds; k++) {
    for (t = 0; t < n_targets; t++) {
      struct sample s;
      int64_t j = k;

      sample_init(&s);
      s.target = (uint32_t)t;
      s.mode = MODE_COLD;
      s.round = k + 1;
      s.position = (int)t + 1;
      if (t == 0) {
        hop(&s, "https://api.test/files/42.jpg", "api.test", 302, 14000,
            56000 + j, 56000, 56000, 100, "8f1c2d3e4a5b6c7d-HKG");
        hop(&s, "https://storage.test/b/42.jpg", "storage.test", 200, 14000,
            14000 + j, 14000, 14000, 100000, "8f1c2d3e4a5b6c80-ICN");
      }
      else
        hop(&s, "https://storage.test/b/42.jpg", "storage.test", 200, 14000,
            14000 + j, 14000, 14000, 100000, "8f1c2d3e4a5b6c80-ICN");
      s.total_us = 0;
      {
        size_t h;

        for (h = 0; h < s.n_hops; h++)
          s.total_us += s.hops[h].phases[PHASE_TOTAL];
      }
      sample_close_accounts(&s);
      results_add(r, &s);
    }
  }
}

static const struct finding *find_kind(const struct target_analysis *ta,
                                       enum finding_kind k)
{
  size_t i;

  for (i = 0; i < ta->n_findings; i++)
    if (ta->findings[i].kind == k)
      return &ta->findings[i];
  return NULL;
}

/* The finding of kind k of ta, which must exist. */
static const struct finding *need(const struct target_analysis *ta,
                                  enum finding_kind k)
{
  const struct finding *f = find_kind(ta, k);

  if (!f) {
    print_error("no %s finding\n", finding_kind_names[k]);
    abort();
  }
  return f;
}

static void check_adds_up(const char *row, const struct target_analysis *ta)
{
  int64_t alone = 0, groups = 0;
  size_t i;

  for (i = 0; i < ta->n_findings; i++)
    if (ta->findings[i].of_total && !ta->findings[i].group)
      alone += ta->findings[i].saving_us;
  for (i = 0; i < ta->n_groups; i++)
    groups += ta->groups[i].saving_us;
  CHECK_INT(row, alone + groups, ta->nonoverlap_us);
  if (ta->nonoverlap_us > ta->cold_total_us) {
    print_error("case %s: savings without overlaps %ld exceed the total "
                "%ld\n",
                row, (long)ta->nonoverlap_us, (long)ta->cold_total_us);
    fail();
  }
}

static void run_photo(size_t n_targets, struct analysis *a, struct plan *p,
                      struct options *o, struct results *r)
{
  char t0[] = "base=https://api.test/files/42.jpg";
  char t1[] = "direct=https://storage.test/b/42.jpg";
  char *args[] = {t0, t1};
  char err[256];

  options_init(o);
  assert_int_equal(
      options_set(o, options_find("client-location"), "KR", err, sizeof(err)),
      0);
  assert_int_equal(
      options_set(o, options_find("mode"), "cold", err, sizeof(err)), 0);
  assert_int_equal(plan_build(p, o, args, n_targets), 0);
  results_init(r);
  photo(r, n_targets, 7);
  analysis_build(a, p, r);
}

static void test_distant_edge_measured(void **state)
{
  struct analysis a;
  struct plan p;
  struct options o;
  struct results r;
  const struct target_analysis *ta;
  const struct finding *de, *rd, *cn;

  (void)state;
  run_photo(2, &a, &p, &o, &r);
  ta = &a.targets[0];
  de = need(ta, FINDING_DISTANT_EDGE);
  CHECK_INT("distant-edge hop", de->hop, 1);
  CHECK_INT("distant-edge basis", de->basis, FINDING_BASIS_MEASURED);
  /* Connect p50s: 56003 to api.test, 14003 to storage.test (the median of
   * 7 rounds jittered by 0..6 us); delta 42000 us per round trip.  The
   * median cold sample (round 4, jitter 3) made three round trips on hop
   * 1: TCP (56003), TLS (56000: one round trip), the request (56000).
   * Each part removes min(part, delta): 3 x 42000. */
  CHECK_INT("distant-edge saving", de->saving_us, 126000);
  rd = need(ta, FINDING_REDIRECT);
  cn = need(ta, FINDING_CONNECTIONS);
  /* Hop 1 of the median sample: 14000 + 56003 + 56000 + 56000 + 100. */
  CHECK_INT("redirect saving", rd->saving_us, 182103);
  /* DNS + TCP + TLS of hop 1 only (issue 38): a pool that holds api.test
   * saves its 126003; storage.test's own 42003 remains for any client
   * that has not connected to it. */
  CHECK_INT("connections saving", cn->saving_us, 126003);
  CHECK_INT("one group",
            rd->group != 0 && rd->group == de->group && rd->group == cn->group,
            1);
  /* The group: all of hop 1 (182103), each part at the most any member
   * removes; hop 2's set-up is no member's now. */
  {
    size_t i;
    int64_t g = -1;

    for (i = 0; i < ta->n_groups; i++)
      if (ta->groups[i].id == rd->group)
        g = ta->groups[i].saving_us;
    CHECK_INT("group saving", g, 182103);
  }
  /* The median cold total: 182103 + 156003. */
  CHECK_INT("cold total", ta->cold_total_us, 338106);
  check_adds_up("base", ta);
  check_adds_up("direct", &a.targets[1]);
  /* explained by: the redirect part, not the phases it is made of. */
  CHECK_INT("comparisons", a.n_comparisons, 1);
  CHECK_INT("explained", a.comparisons[0].n_explained, 1);
  CHECK_STR("explained by", sample_part_names[a.comparisons[0].explained[0]],
            "redirect");
  analysis_release(&a);
  results_release(&r);
  plan_release(&p);
  options_release(&o);
}

static void test_distant_edge_floor(void **state)
{
  struct analysis a;
  struct plan p;
  struct options o;
  struct results r;
  const struct finding *de;

  (void)state;
  /* Only base: storage.test is still measured (hop 2), so the basis is
   * measured too; the floor is the basis only when no other host was
   * measured lower.  Then make hop 2's connect slower than hop 1's. */
  run_photo(1, &a, &p, &o, &r);
  de = need(&a.targets[0], FINDING_DISTANT_EDGE);
  CHECK_INT("basis with storage measured", de->basis, FINDING_BASIS_MEASURED);
  analysis_release(&a);
  {
    size_t i;

    for (i = 0; i < r.n; i++) {
      struct hop *h = &r.samples[i].hops[1];

      h->phases[PHASE_CONNECT] += 60000;
      h->phases[PHASE_TOTAL] += 60000;
      r.samples[i].total_us += 60000;
    }
  }
  analysis_build(&a, &p, &r);
  {
    size_t i;

    de = NULL;
    for (i = 0; i < a.targets[0].n_findings; i++)
      if (a.targets[0].findings[i].kind == FINDING_DISTANT_EDGE &&
          a.targets[0].findings[i].hop == 1)
        de = &a.targets[0].findings[i];
  }
  if (!de) {
    print_error("no distant-edge finding of hop 1\n");
    abort();
  }
  CHECK_INT("basis", de->basis, FINDING_BASIS_FLOOR);
  /* No host nearer than HKG was measured: only what distance costs is
   * counted, the floor to HKG (about 2,000 km from the KR centroid:
   * 20 ms) less the floor to the nearest Cloudflare colo (ICN, 210 km:
   * 2.1 ms) per round trip, the access link's share left out (issue 36):
   * a saving above nothing and below the measured basis's 126 ms. */
  if (de->saving_us <= 0 || de->saving_us >= 126000) {
    print_error("floor saving %ld should be in (0, 126000)\n",
                (long)de->saving_us);
    fail();
  }
  check_adds_up("floor", &a.targets[0]);
  analysis_release(&a);
  results_release(&r);
  plan_release(&p);
  options_release(&o);
}

/* Warm totals that rise with the idle time before the sample: 12 warm
 * samples alternately idle 200 ms (150 ms total) and 1.5 s (350 ms):
 * Spearman rho 1, the long-idle half 200 ms slower: a warm-idle finding.
 * The same idle times with equal totals: none. */
static void test_warm_idle(void **state)
{
  char t0[] = "a=https://origin.test/big";
  char *args[] = {t0};
  struct options o;
  struct plan p;
  struct results r;
  struct analysis a;
  char err[256];
  int k, pass;

  (void)state;
  for (pass = 0; pass < 2; pass++) {
    options_init(&o);
    assert_int_equal(
        options_set(&o, options_find("mode"), "warm", err, sizeof(err)), 0);
    assert_int_equal(plan_build(&p, &o, args, 1), 0);
    results_init(&r);
    for (k = 0; k < 12; k++) {
      struct sample s;
      int64_t total = pass == 0 && k % 2 ? 350000 : 150000;

      sample_init(&s);
      s.target = 0;
      s.mode = MODE_WARM;
      s.round = k + 1;
      s.position = 1;
      s.idle_us = k % 2 ? 1500000 : 200000;
      hop(&s, "https://origin.test/big", "origin.test", 200, 0, 0, 0, 100000,
          total - 100000, "8f1c2d3e4a5b6c81-ICN");
      s.total_us = total;
      sample_close_accounts(&s);
      results_add(&r, &s);
    }
    analysis_build(&a, &p, &r);
    if (pass == 0) {
      const struct finding *f = need(&a.targets[0], FINDING_WARM_IDLE);

      CHECK_INT("warm-idle saving", f->saving_us, 0);
      CHECK_INT("warm-idle part of total", f->of_total, 0);
      if (!strstr(f->title, "350 ms after idling more than 200 ms, 150 ms "
                            "after less")) {
        print_error("warm-idle title: %s\n", f->title);
        fail();
      }
    }
    else if (find_kind(&a.targets[0], FINDING_WARM_IDLE)) {
      print_error("warm-idle finding without a difference\n");
      fail();
    }
    analysis_release(&a);
    results_release(&r);
    plan_release(&p);
    options_release(&o);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_group_by_overlap),
      cmocka_unit_test(test_group_none),
      cmocka_unit_test(test_distant_edge_measured),
      cmocka_unit_test(test_distant_edge_floor),
      cmocka_unit_test(test_warm_idle),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);

  strpool_release_all();
  return rc;
}
