/*
 * fixture.h: a plan, its results and their analysis built in memory for
 * the analysis unit tests (test_findings, test_analysis_cdn).  The plan
 * comes from real options (options_set) and plan_build; samples and hops
 * are filled field by field, headers from the captures in
 * tests/data/headers.  Include after <cmocka.h> and check.h.
 *
 *   fx_init(&fx, "cold,warm", rounds, urls...)   options and plan
 *   fx_option(&fx, "client-location", "52.52,13.405")   before fx_plan
 *   s = fx_sample(&fx, target, MODE_COLD, round)
 *   h = fx_hop(s, url, status, dns, connect, tls, send, wait, transfer)
 *   fx_capture(h, "cloudflare-hit.txt")         its headers
 *   fx_add(&fx, s, other_us)                    total = hops + other
 *   fx_build(&fx) ... fx_release(&fx)
 */
#ifndef HOPSPLIT_TEST_FIXTURE_H
#define HOPSPLIT_TEST_FIXTURE_H

#include <stdarg.h>
#include <string.h>

#include "analysis.h"
#include "option_table.h"
#include "options.h"
#include "plan.h"
#include "results.h"
#include "sample.h"
#include "strpool.h"
#include "xalloc.h"

#define FX_MAX_URLS 4

struct fx {
  struct options o;
  struct plan p;
  struct results r;
  struct analysis a;
  char *urls[FX_MAX_URLS];
  size_t n_urls;
  int planned, built;
};

/* Set one option by its long name, as the command line would. */
static inline void fx_option(struct fx *f, const char *name, const char *val)
{
  const struct opt_def *d = options_find(name);
  char err[256] = "";

  assert_non_null(d);
  if (options_set(&f->o, d, val, err, sizeof(err)) < 0) {
    print_error("option --%s %s: %s\n", name, val ? val : "", err);
    fail();
  }
}

/* Options with --mode modes and --rounds rounds, and the targets' URLs
 * ("name=url" names a target).  NULL ends the list.  The plan is built by
 * fx_plan, or by the first fx_sample. */
static inline void fx_init(struct fx *f, const char *modes, long rounds, ...)
{
  char n[32];
  va_list ap;
  const char *u;

  memset(f, 0, sizeof(*f));
  options_init(&f->o);
  fx_option(f, "mode", modes);
  snprintf(n, sizeof(n), "%ld", rounds);
  fx_option(f, "rounds", n);
  va_start(ap, rounds);
  while ((u = va_arg(ap, const char *)) != NULL) {
    assert_true(f->n_urls < FX_MAX_URLS);
    f->urls[f->n_urls++] = xstrdup(u);
  }
  va_end(ap);
}

static inline void fx_plan(struct fx *f)
{
  if (f->planned)
    return;
  assert_int_equal(plan_build(&f->p, &f->o, f->urls, f->n_urls), 0);
  results_init(&f->r);
  f->planned = 1;
}

/* A new sample (the caller adds hops, then fx_add); ok unless
 * fx_fail says otherwise. */
static inline struct sample *fx_sample(struct fx *f, size_t target,
                                       enum sample_mode mode, int round)
{
  static struct sample s;

  fx_plan(f);
  sample_init(&s);
  s.target = (uint32_t)target;
  s.mode = mode;
  s.round = round;
  s.position = 1;
  s.ok = 1;
  s.started_at_ms = 1700000000000 + (int64_t)round * 1000;
  return &s;
}

/* A failed sample of class err (its hops, if any, stay as added). */
static inline void fx_fail(struct sample *s, enum err_class err)
{
  s->ok = 0;
  s->err = (uint8_t)err;
  sample_set_err_message(s, strpool_intern(err_class_names[err]));
}

/* The host of "scheme://host[:port]/...", pooled (test URLs only). */
static inline const char *fx_host(const char *url)
{
  const char *b = strstr(url, "://"), *e;

  assert_non_null(b);
  b += 3;
  e = b + strcspn(b, ":/?#");
  return strpool_intern_n(b, (size_t)(e - b));
}

/* A hop of url with these phases (microseconds; PHASE_TOTAL is their
 * sum).  A hop with a TLS phase has TLSv1.3 over HTTP/2, one without none
 * over HTTP/1.1; a hop without connect time reused its connection. */
static inline struct hop *fx_hop(struct sample *s, const char *url,
                                 long status, int64_t dns, int64_t connect,
                                 int64_t tls, int64_t send, int64_t wait,
                                 int64_t transfer)
{
  struct hop *h = sample_add_hop(s);
  int ph;

  hop_info_edit(h)->url = strpool_intern(url);
  hop_info_edit(h)->method = strpool_intern("GET");
  hop_info_edit(h)->host = fx_host(url);
  hop_info_edit(h)->status = (int32_t)status;
  h->phases[PHASE_DNS] = dns;
  h->phases[PHASE_CONNECT] = connect;
  h->phases[PHASE_TLS] = tls;
  h->phases[PHASE_SEND] = send;
  h->phases[PHASE_WAIT] = wait;
  h->phases[PHASE_TRANSFER] = transfer;
  for (ph = 0; ph < PHASE_TOTAL; ph++)
    h->phases[PHASE_TOTAL] += h->phases[ph];
  h->reused = connect == 0;
  if (tls > 0) {
    hop_tls_edit(h)->version = strpool_intern("TLSv1.3");
    hop_tls_edit(h)->resumed = 0;
    hop_info_edit(h)->http_version = strpool_intern("2");
  }
  else {
    hop_info_edit(h)->http_version = strpool_intern("1.1");
  }
  return h;
}

static inline void fx_capture_key(const char *key, char *val, void *ud)
{
  (void)key;
  (void)val;
  (void)ud;
}

/* The response headers of the capture tests/data/headers/file (its status
 * line is ignored: the hop keeps its own status). */
static inline void fx_capture(struct hop *h, const char *file)
{
  long status = h->info->status;
  char *text;

  check_capture_read(file, h, &text, fx_capture_key, NULL);
  free(text);
  hop_info_edit(h)->status = (int32_t)status;
}

/* What the capture's "# key: value" lines say (tests/data/headers). */
struct fx_truth {
  char vendor[32], edge_vendor[32], verdict[16], pop[16], city[48], country[8];
};

static inline void fx_truth_key(const char *key, char *val, void *ud)
{
  struct fx_truth *t = ud;

  if (!strcmp(key, "vendor"))
    snprintf(t->vendor, sizeof(t->vendor), "%s", val);
  else if (!strcmp(key, "edge-vendor"))
    snprintf(t->edge_vendor, sizeof(t->edge_vendor), "%s", val);
  else if (!strcmp(key, "verdict"))
    snprintf(t->verdict, sizeof(t->verdict), "%s", val);
  else if (!strcmp(key, "pop"))
    snprintf(t->pop, sizeof(t->pop), "%s", val);
  else if (!strcmp(key, "city"))
    snprintf(t->city, sizeof(t->city), "%s", val);
  else if (!strcmp(key, "country"))
    snprintf(t->country, sizeof(t->country), "%s", val);
}

/* As fx_capture, and what the capture says about itself in *t (the edge
 * vendor is the vendor unless it says otherwise). */
static inline void fx_capture_truth(struct hop *h, const char *file,
                                    struct fx_truth *t)
{
  long status = h->info->status;
  char *text;

  memset(t, 0, sizeof(*t));
  check_capture_read(file, h, &text, fx_truth_key, t);
  free(text);
  hop_info_edit(h)->status = (int32_t)status;
  if (!t->edge_vendor[0])
    memcpy(t->edge_vendor, t->vendor, sizeof(t->vendor));
}

/* Append the sample: its total is the sum of its hops plus other_us. */
static inline void fx_add(struct fx *f, struct sample *s, int64_t other_us)
{
  size_t k;

  s->total_us = other_us;
  for (k = 0; k < s->n_hops; k++)
    s->total_us += s->hops[k].phases[PHASE_TOTAL];
  sample_close_accounts(s);
  results_add(&f->r, s);
}

static inline void fx_build(struct fx *f)
{
  fx_plan(f);
  analysis_build(&f->a, &f->p, &f->r);
  f->built = 1;
}

static inline void fx_release(struct fx *f)
{
  size_t i;

  if (f->built)
    analysis_release(&f->a);
  if (f->planned) {
    results_release(&f->r);
    plan_release(&f->p);
  }
  for (i = 0; i < f->n_urls; i++)
    free(f->urls[i]);
  options_release(&f->o);
  memset(f, 0, sizeof(*f));
}

#endif
