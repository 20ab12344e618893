/*
 * analysis_cdn.c: cache verdicts and edge locations per hop index of each
 * target, and where the client is (hopsplit(1) CACHE AND EDGE).  Input: plan,
 * results (samples and the raw /cdn-cgi/trace bodies).  Output: the cache[],
 * edge[] and client parts of struct analysis.  Pure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"
#include "arraysize.h"
#include "url.h"
#include "strpool.h"
#include "strutil.h"
#include "xalloc.h"
#include "banned.h"

/* What hop k of a sample of target t carried (CACHE_REQ_*): the user gave
 * an Authorization or Cookie header, and it was not dropped on a
 * cross-origin hop (hopsplit(1) Redaction). */
static int hop_request_flags(const struct target *t, const struct sample *s,
                             size_t k)
{
  const struct options *o = t->opts;
  size_t i;
  int given = 0;

  for (i = 0; i < o->n_headers; i++) {
    if (!strncasecmp(o->headers[i], "authorization:", 14))
      given |= CACHE_REQ_AUTH;
    else if (!strncasecmp(o->headers[i], "cookie:", 7))
      given |= CACHE_REQ_COOKIE;
  }
  if (!given)
    return 0;
  if (k == 0 || o->location_trusted)
    return given;
  return url_same_origin(s->hops[0].info->url, s->hops[k].info->url) ? given
                                                                     : 0;
}

static void fact_layers(struct hop_fact *f, const struct cache_result *cr)
{
  struct hop_fact_layer v[HOP_FACT_LAYERS];
  size_t l;

  /* Zeroed padding too: the pool stores equal bytes once. */
  memset(v, 0, sizeof(v));
  f->verdict = (unsigned char)cr->verdict;
  f->inferred = (unsigned char)cr->inferred;
  for (l = 0; l < cr->n_layers && l < HOP_FACT_LAYERS; l++) {
    v[l].vendor =
        strpool_intern(cr->layers[l].vendor ? cr->layers[l].vendor : "");
    v[l].verdict = (unsigned char)cr->layers[l].verdict;
  }
  f->n_layers = (unsigned char)l;
  f->layers = strpool_intern_blob(v, l * sizeof(v[0]));
}

/* What inference across samples needs of one classified hop of one
 * sample: its verdicts (those it has now, and those it had alone, to
 * start the inference again from), whether a cache named itself and
 * whether an Age above 0 came.  16 bytes, where a whole classified
 * result took 80 (and its vendors' strings): cache_build keeps one per
 * sample of a target while it classifies a hop index (SPEC 8's
 * footprint). */
struct cache_seen {
  uint32_t at; /* the sample's index in the results */
  unsigned char verdict, inferred, l0_verdict, l0_inferred;
  unsigned char alone_verdict, alone_inferred, alone_l0_verdict,
      alone_l0_inferred;
  unsigned char named; /* n_layers > 0 */
  unsigned char aged;  /* age > 0 */
};

static void seen_from(struct cache_seen *c, const struct cache_result *cr,
                      size_t at)
{
  memset(c, 0, sizeof(*c));
  c->at = (uint32_t)at;
  c->verdict = c->alone_verdict = (unsigned char)cr->verdict;
  c->inferred = c->alone_inferred = (unsigned char)cr->inferred;
  c->named = cr->n_layers > 0;
  if (c->named) {
    c->l0_verdict = c->alone_l0_verdict = (unsigned char)cr->layers[0].verdict;
    c->l0_inferred = c->alone_l0_inferred =
        (unsigned char)cr->layers[0].inferred;
  }
  c->aged = cr->age > 0;
}

/* Put why at the front of r's reasons (none when NULL) and mark r (and
 * its nearest layer) inferred with verdict v. */
static void infer(struct cache_result *r, enum cache_verdict v, char *why)
{
  size_t j;

  r->verdict = v;
  r->inferred = 1;
  if (r->n_layers) {
    r->layers[0].verdict = v;
    r->layers[0].inferred = 1;
  }
  if (!why)
    return;
  r->reasons = xrealloc(r->reasons, (r->n_reasons + 1) * sizeof(char *));
  for (j = r->n_reasons; j > 0; j--)
    r->reasons[j] = r->reasons[j - 1];
  r->reasons[0] = why;
  r->n_reasons++;
}

/* infer on the record c, and on full (the whole result of the same hop,
 * with its words) when it is not NULL. */
static void infer_seen(struct cache_seen *c, struct cache_result *full,
                       enum cache_verdict v, char *why)
{
  c->verdict = (unsigned char)v;
  c->inferred = 1;
  if (c->named) {
    c->l0_verdict = (unsigned char)v;
    c->l0_inferred = 1;
  }
  if (full)
    infer(full, v, why);
  else
    free(why);
}

/*
 * Verdicts inferred across the samples of one hop index, in the order
 * they ran, when the cache says nothing of itself (hopsplit(1) CACHE AND EDGE;
 * stock Apache Traffic Server sends no status header, and Age: 0 on a miss and
 * on a hit within the same second).  A response is the stored copy of an
 * earlier one when it carries that one's Date although it was answered a
 * second or more later, or a larger Age (RFC 9111 5.1, 4.2.3): a hit, and
 * the earlier one was stored, a MISS.  When a cache is seen (it named
 * itself in Server or Via) and each of several responses a second or more
 * apart is new (a new Date, no Age above 0), it stored none: BYPASS.
 * Verdicts a cache said, and the RFC 9111 ones (UNCACHEABLE), stay.
 */
/* When the server may have written hop k's Date, on the run's clock in
 * microseconds: after the request began to leave (hop start, DNS, connect,
 * TLS) and before its first byte came back (then also send and wait). */
static int64_t date_earliest_us(const struct sample *s, size_t k)
{
  const struct hop *h = &s->hops[k];

  return s->started_at_ms * 1000 + h->start_us + h->phases[PHASE_DNS] +
         h->phases[PHASE_CONNECT] + h->phases[PHASE_TLS];
}

static int64_t date_latest_us(const struct sample *s, size_t k)
{
  const struct hop *h = &s->hops[k];

  return date_earliest_us(s, k) + h->phases[PHASE_SEND] +
         h->phases[PHASE_WAIT];
}

/* The order infer_across scans same-Date samples in: by Date, then as they
 * ran.  qsort's comparator reads the samples through sort_by, one per
 * thread (serve analyses on several; qsort_r is not POSIX). */
struct date_order {
  const struct results *r;
  const struct cache_seen *cs;
  size_t k;
};

static const char *date_of(const struct date_order *o, uint32_t i)
{
  return hop_header(&o->r->samples[o->cs[i].at].hops[o->k], "date");
}

static _Thread_local const struct date_order *sort_by;

static int cmp_date(const void *a, const void *b)
{
  const struct date_order *o = sort_by;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  int c = strcmp(date_of(o, x), date_of(o, y));

  return c ? c : (x > y) - (x < y);
}

/* cs[0..n): every sample of a hop index k, in the order they ran; keep:
 * the index of the one whose words are wanted (SIZE_MAX: none), whose
 * whole result is full. */
static void infer_across(struct cache_seen *cs, size_t n,
                         const struct results *r, size_t k, size_t keep,
                         struct cache_result *full)
{
  size_t i, j, g, unknown = 0, named = 0, fresh = 0, n_dated = 0;
  struct date_order o = {r, cs, k};
  uint32_t *by_date;

  for (i = 0; i < n; i++) {
    unknown += cs[i].verdict == CACHE_UNKNOWN;
    named += cs[i].named;
  }
  if (!unknown)
    return;
  /* For each sample j, in the order they ran, the first earlier sample i
   * with the same Date that was answered a second or more before it.
   * Only samples with that Date can be i, so they are found by sorting
   * once by Date (n log n) instead of comparing every pair (n squared:
   * 1.4 s of 2.8 at 10,000 warm samples). */
  by_date = xcalloc(n ? n : 1, sizeof(*by_date)); /* n: < 2^32 samples */
  for (i = 0; i < n; i++)
    if (date_of(&o, (uint32_t)i))
      by_date[n_dated++] = (uint32_t)i;
  sort_by = &o;
  qsort(by_date, n_dated, sizeof(*by_date), cmp_date);
  sort_by = NULL;
  for (g = 0; g < n_dated;) {
    size_t end = g + 1, x, y;

    while (end < n_dated &&
           !strcmp(date_of(&o, by_date[g]), date_of(&o, by_date[end])))
      end++;
    /* by_date[g..end) share one Date, in the order they ran. */
    for (y = g + 1; y < end; y++) {
      j = by_date[y];
      for (x = g; x < y; x++) {
        const char *di;
        /* In milliseconds, the least time that can have passed between
         * the two responses being written (a busy client's slow sample
         * must not look like a stored copy), less 1 ms for the start
         * stamps' ms. */
        int64_t apart;

        i = by_date[x];
        apart = (date_earliest_us(&r->samples[cs[j].at], k) -
                 date_latest_us(&r->samples[cs[i].at], k)) /
                    1000 -
                1;
        if (apart < 1000)
          continue;
        di = date_of(&o, (uint32_t)i);
        /* j is i's stored copy. */
        if (cs[j].verdict == CACHE_UNKNOWN)
          infer_seen(&cs[j], j == keep ? full : NULL, CACHE_HIT,
                     j != keep
                         ? NULL
                         : xasprintf("inferred across samples: it carries "
                                     "the Date of sample %d (%s) although it "
                                     "was answered %.1f s or more later, "
                                     "so a cache served that stored copy "
                                     "(Age: %ld)",
                                     (int)cs[i].at, di, (double)apart / 1000.0,
                                     full->age));
        if (cs[i].verdict == CACHE_UNKNOWN)
          infer_seen(&cs[i], i == keep ? full : NULL, CACHE_MISS,
                     i != keep
                         ? NULL
                         : xasprintf("inferred across samples: sample %d, "
                                     "%.1f s later, was this response's "
                                     "stored copy (same Date), so this one "
                                     "was stored",
                                     (int)cs[j].at, (double)apart / 1000.0));
        break;
      }
    }
    g = end;
  }
  free(by_date);
  for (i = 0; i + 1 < n; i++) {
    const struct sample *a = &r->samples[cs[i].at];
    const struct sample *b = &r->samples[cs[i + 1].at];
    const char *da = hop_header(&a->hops[k], "date");
    const char *db = hop_header(&b->hops[k], "date");

    if (da && db && strcmp(da, db) && !cs[i + 1].aged &&
        b->started_at_ms - a->started_at_ms >= 1000)
      fresh++;
  }
  if (n >= 2 && named == n && fresh + 1 == n && !cs[0].aged)
    for (i = 0; i < n; i++)
      if (cs[i].verdict == CACHE_UNKNOWN)
        infer_seen(
            &cs[i], i == keep ? full : NULL, CACHE_BYPASS,
            i != keep
                ? NULL
                : xasprintf("inferred across samples: %s sent no cache "
                            "status, and each of the %zu responses, a "
                            "second or more apart, was new (a new Date, no "
                            "Age above 0), so it stored none of them",
                            cache_vendor_display(full->layers[0].vendor), n));
}

/* A reason that says the response was stored for later requests. */
static int says_stored_now(const char *why)
{
  return why && strstr(why, "stored it now: a later request may hit");
}

static void reword_all_missed(char **reasons, size_t n_reasons, size_t n,
                              const char *vendor, int no_cache)
{
  size_t i;

  for (i = 0; i < n_reasons; i++)
    if (says_stored_now(reasons[i])) {
      free(reasons[i]);
      reasons[i] = xasprintf(
          "%s did not have it in any of the %zu samples (a MISS each time): "
          "it went to the origin for the whole response every time and "
          "never served a stored copy%s",
          vendor, n,
          no_cache ? " (the response's Cache-Control: no-cache makes every "
                     "reuse ask the origin first)"
                   : "");
    }
}

/*
 * A MISS says "stored it now: a later request may hit"; when every one of
 * several samples of a hop missed, no later request did: each says so
 * instead (Apache mod_cache and a no-cache response without validators:
 * its log says "cache miss: attempting entity save" every time).  Only
 * the reasons of c, the whole result of one of cs[0..n), are reworded:
 * the others keep none.
 */
static void all_missed(const struct cache_seen *cs, size_t n,
                       const struct results *r, size_t k,
                       struct cache_result *c)
{
  size_t i, l;
  const char *cc, *who;
  int no_cache;

  if (n < 2)
    return;
  for (i = 0; i < n; i++)
    if (cs[i].verdict != CACHE_MISS)
      return;
  cc = hop_header(&r->samples[cs[n - 1].at].hops[k], "cache-control");
  no_cache = cc && str_ci_find(cc, "no-cache") != NULL;
  who = c->n_layers && c->layers[0].vendor
            ? cache_vendor_display(c->layers[0].vendor)
            : "the cache";
  reword_all_missed(c->reasons, c->n_reasons, n, who, no_cache);
  for (l = 0; l < c->n_layers; l++)
    reword_all_missed(c->layers[l].reasons, c->layers[l].n_reasons, n,
                      c->layers[l].vendor
                          ? cache_vendor_display(c->layers[l].vendor)
                          : "the cache",
                      no_cache);
}

/* The fact f of a hop classified alone, after inference across samples
 * gave it the record c's verdicts: its layer list is pooled, so a changed
 * nearest layer is a new list (pooled too). */
static void fact_across(struct hop_fact *f, const struct cache_seen *c)
{
  f->across = c->alone_verdict != c->verdict;
  if (c->verdict == c->alone_verdict && c->inferred == c->alone_inferred &&
      c->l0_verdict == c->alone_l0_verdict)
    return;
  f->verdict = c->verdict;
  f->inferred = c->inferred;
  if (f->n_layers && f->layers[0].verdict != c->l0_verdict) {
    struct hop_fact_layer v[HOP_FACT_LAYERS];

    memcpy(v, f->layers, f->n_layers * sizeof(v[0]));
    v[0].verdict = c->l0_verdict;
    f->layers = strpool_intern_blob(v, f->n_layers * sizeof(v[0]));
  }
}

/* Sample i's facts (a pooled array of s->n_hops) with hop k's replaced by
 * *f: the pool's copy of the changed array (the array's bytes compared,
 * padding included: every fact starts as a memset one, fact_identify). */
static void fact_put(struct analysis *a, const struct sample *s, size_t i,
                     size_t k, const struct hop_fact *f)
{
  struct hop_fact few[4], *v;

  if (!memcmp(&a->facts[i][k], f, sizeof(*f)))
    return;
  v = s->n_hops <= ARRAY_SIZE(few) ? few : xcalloc(s->n_hops, sizeof(*v));
  memcpy(v, a->facts[i], s->n_hops * sizeof(*v));
  memcpy(&v[k], f, sizeof(*f));
  a->facts[i] = strpool_intern_blob(v, s->n_hops * sizeof(*v));
  if (v != few)
    free(v);
}

static void cache_build(const struct plan *p, const struct results *r,
                        struct analysis *a, size_t t)
{
  struct target_analysis *ta = &a->targets[t];
  size_t max_hops = 0, i, k;

  for (i = 0; i < r->n; i++)
    if (r->samples[i].target == t && r->samples[i].ok &&
        r->samples[i].n_hops > max_hops)
      max_hops = r->samples[i].n_hops;
  if (!max_hops)
    return;
  ta->cache = xcalloc(max_hops, sizeof(*ta->cache));
  ta->n_cache = max_hops;
  for (k = 0; k < max_hops; k++) {
    struct cache_hop *ch = &ta->cache[k];
    enum cache_verdict mode;
    struct cache_seen *cs = xcalloc(r->n ? r->n : 1, sizeof(*cs));
    struct hop_fact f;
    size_t n = 0, j, pick = SIZE_MAX;

    ch->hop = k + 1;
    cache_result_init(&ch->result);
    cache_counts_init(&ch->counts);
    /* Every sample of the target with this hop, in the order they ran:
     * its fact as classified alone, and the few verdicts inference across
     * samples needs.  Only the one result kept below needs its words, and
     * it is classified again for them. */
    for (i = 0; i < r->n; i++) {
      const struct sample *s = &r->samples[i];
      struct cache_result cr;

      if (s->target != t || !s->ok || s->n_hops <= k)
        continue;
      cache_result_init(&cr);
      cache_classify_hop(&s->hops[k], hop_request_flags(&p->targets[t], s, k),
                         &cr);
      seen_from(&cs[n], &cr, i);
      memcpy(&f, &a->facts[i][k], sizeof(f));
      fact_layers(&f, &cr);
      fact_put(a, s, i, k, &f);
      cache_result_release(&cr);
      n++;
    }
    infer_across(cs, n, r, k, SIZE_MAX, NULL);
    for (j = 0; j < n; j++) {
      cache_counts_add(&ch->counts, (enum cache_verdict)cs[j].verdict);
      memcpy(&f, &a->facts[cs[j].at][k], sizeof(f));
      fact_across(&f, &cs[j]);
      fact_put(a, &r->samples[cs[j].at], cs[j].at, k, &f);
    }
    /* The most frequent verdict, as the latest sample with it says it:
     * that sample classified again with its words, and the inference
     * across samples made again from the verdicts alone, with words for
     * that sample only (the same verdicts as above). */
    mode = cache_counts_mode(&ch->counts);
    for (j = n; j-- > 0;)
      if (cs[j].verdict == mode) {
        pick = j;
        break;
      }
    if (pick != SIZE_MAX) {
      const struct sample *s = &r->samples[cs[pick].at];

      for (j = 0; j < n; j++) {
        cs[j].verdict = cs[j].alone_verdict;
        cs[j].inferred = cs[j].alone_inferred;
        cs[j].l0_verdict = cs[j].alone_l0_verdict;
        cs[j].l0_inferred = cs[j].alone_l0_inferred;
      }
      cache_classify_hop(&s->hops[k], hop_request_flags(&p->targets[t], s, k),
                         &ch->result);
      infer_across(cs, n, r, k, pick, &ch->result);
      all_missed(cs, n, r, k, &ch->result);
      ch->host = xstrdup(s->hops[k].info->host ? s->hops[k].info->host : "");
    }
    free(cs);
  }
}

/* The sample whose hops represent the target: the median cold sample,
 * else the median of the first mode with one. */
static const struct sample *representative(const struct plan *p,
                                           const struct results *r,
                                           const struct analysis *a, size_t t)
{
  const struct target_analysis *ta = &a->targets[t];
  size_t i;

  if (ta->modes[MODE_COLD].median_sample >= 0)
    return &r->samples[ta->modes[MODE_COLD].median_sample];
  for (i = 0; i < p->n_modes; i++)
    if (ta->modes[p->modes[i]].median_sample >= 0)
      return &r->samples[ta->modes[p->modes[i]].median_sample];
  return NULL;
}

/* Hop k as seen in the representative sample, or in the first successful
 * sample that has that many hops. */
static const struct hop *hop_at(const struct results *r, size_t t,
                                const struct sample *rep, size_t k)
{
  size_t i;

  if (rep && rep->n_hops > k)
    return &rep->hops[k];
  for (i = 0; i < r->n; i++)
    if (r->samples[i].target == t && r->samples[i].ok &&
        r->samples[i].n_hops > k)
      return &r->samples[i].hops[k];
  return NULL;
}

static int parse_trace(const struct trace_fetch *tf, struct edge_trace *out)
{
  edge_trace_init(out);
  if (!tf || !tf->body)
    return -1;
  return edge_trace_parse(tf->body, tf->len, out);
}

static void client_build(const struct plan *p, const struct results *r,
                         struct analysis *a)
{
  struct edge_client opt;
  struct edge_trace tr;
  char *err = NULL;
  size_t i;
  int have = 0;

  edge_client_init(&opt);
  edge_client_init(&a->client);
  if (p->opts->client_location &&
      edge_client_parse(p->opts->client_location, &opt, &err) < 0) {
    /* plan_build validated it already; keep unknown if it changed. */
    free(err);
    edge_client_init(&opt);
  }
  for (i = 0; i < r->n_traces && !have; i++) {
    if (parse_trace(&r->traces[i], &tr) == 0) {
      edge_client_resolve(&opt, &tr, &a->client);
      have = 1;
    }
    edge_trace_release(&tr);
  }
  if (!have)
    edge_client_resolve(&opt, NULL, &a->client);
}

static void edge_build(const struct plan *p, const struct results *r,
                       struct analysis *a, size_t t)
{
  struct target_analysis *ta = &a->targets[t];
  const struct sample *rep = representative(p, r, a, t);
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  size_t k, n = ta->n_cache;

  if (!n)
    return;
  ta->edge = xcalloc(n, sizeof(*ta->edge));
  ta->n_edge = n;
  for (k = 0; k < n; k++) {
    const struct hop *h = hop_at(r, t, rep, k);
    struct edge_trace tr;
    const struct trace_fetch *tf = NULL;
    double connect_ms = (double)NAN;
    char *origin;
    int have_trace;

    edge_result_init(&ta->edge[k]);
    if (!h)
      continue;
    origin = url_origin(h->info->url);
    if (origin)
      tf = results_find_trace(r, origin);
    free(origin);
    have_trace = parse_trace(tf, &tr) == 0;
    /* The connect time of a new connection is about one round trip;
     * only cold samples are sure to have one. */
    if (cold->present && cold->n_hops > k &&
        cold->hops[k].phases[PHASE_CONNECT].n &&
        cold->hops[k].phases[PHASE_CONNECT].p50 > 0)
      connect_ms = (double)cold->hops[k].phases[PHASE_CONNECT].p50 / 1000.0;
    edge_locate(h, (int)k + 1, have_trace ? &tr : NULL, &a->client, connect_ms,
                &ta->edge[k]);
    edge_trace_release(&tr);
  }
}

/* The edge hop h names; its cache verdict UNKNOWN until classified. */
static void fact_identify(const struct hop *h, struct hop_fact *f)
{
  struct edge_id id;

  memset(f, 0, sizeof(*f));
  f->verdict = CACHE_UNKNOWN;
  edge_identify(h->info->headers, h->info->n_headers, h->dns->cnames,
                h->dns->n_cnames, &id);
  f->vendor = id.vendor;
  f->pop = id.pop[0] ? strpool_intern(id.pop) : NULL;
}

/* Per sample hop: the edge it names, and UNKNOWN until cache_build
 * classifies it (failed samples stay UNKNOWN).  Each sample's array is
 * pooled: the equal ones of a run (most) are stored once. */
static void facts_build(const struct results *r, struct analysis *a)
{
  size_t i, k, max = 0;
  struct hop_fact *v;

  for (i = 0; i < r->n; i++)
    if (r->samples[i].n_hops > max)
      max = r->samples[i].n_hops;
  a->facts = xcalloc(r->n ? r->n : 1, sizeof(*a->facts));
  v = xcalloc(max ? max : 1, sizeof(*v));
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (!s->n_hops)
      continue;
    for (k = 0; k < s->n_hops; k++)
      fact_identify(&s->hops[k], &v[k]);
    a->facts[i] = strpool_intern_blob(v, s->n_hops * sizeof(*v));
  }
  free(v);
}

void analysis_hop_facts(const struct plan *p, const struct sample *s,
                        struct hop_fact *facts)
{
  size_t k;

  for (k = 0; k < s->n_hops; k++) {
    const struct hop *h = &s->hops[k];

    fact_identify(h, &facts[k]);
    if (s->ok) {
      struct cache_result cr;

      cache_result_init(&cr);
      cache_classify_hop(h, hop_request_flags(&p->targets[s->target], s, k),
                         &cr);
      fact_layers(&facts[k], &cr);
      cache_result_release(&cr);
    }
  }
}

void analysis_cdn_build(const struct plan *p, const struct results *r,
                        struct analysis *a)
{
  size_t t;

  facts_build(r, a);
  client_build(p, r, a);
  for (t = 0; t < p->n_targets; t++) {
    cache_build(p, r, a, t);
    edge_build(p, r, a, t);
  }
  /* An edge whose POP is known while the client's location is not: its
   * distance cannot be judged, and the reports say once how to give the
   * location (hopsplit(1) CACHE AND EDGE). */
  a->client_hint_pop = NULL;
  for (t = 0; t < a->n_targets && a->client.source == EDGE_CLIENT_NONE &&
              !a->client_hint_pop;
       t++) {
    size_t k;

    for (k = 0; k < a->targets[t].n_edge && !a->client_hint_pop; k++)
      if (a->targets[t].edge[k].pop)
        a->client_hint_pop = a->targets[t].edge[k].pop;
  }
}
