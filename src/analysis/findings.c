/*
 * findings.c: why a target is slow, as a ranked list (hopsplit(1) FINDINGS).
 * Input: the plan, results and the rest of the analysis of one target. Output:
 * struct finding entries, each with the evidence in words and a saving
 * estimated from measured medians, largest saving first, and the groups
 * of findings whose savings overlap.  Pure.
 *
 * Savings that add up.  The median cold sample (its total is the median
 * cold total) is cut into parts that add up to its total exactly: each
 * phase of each hop, and the time between hops.  A finding says how much
 * of each part its change would remove (a redirect removes every part of
 * the hops before the final one; a distant edge a round trip's worth of
 * each part that waited for one; reused connections the DNS, connect and
 * TLS parts ...); its saving is the sum.  Findings that remove some of
 * the same part form a group (transitively), whose combined saving takes
 * per part the largest amount any member removes.  So the groups and the
 * findings alone never add up to more than the median total.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"
#include "buf.h"
#include "stats.h"
#include "transport.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

const char *const finding_kind_names[FINDING_COUNT] = {
    "redirect",       "cache",   "distant-edge", "connections",
    "tls-resumption", "payload", "server-wait",  "dns",
    "http-version",   "noise",   "warm-idle",    "loss"};

const char *const finding_basis_names[FINDING_BASIS_COUNT] = {
    NULL,        "measured",    "floor", "throughput",
    "uncertain", "repeat-view", "rounds"};

/* The parts of the median cold sample: PHASE_TOTAL of each hop stands for
 * nothing (never removed), the last cell is the time between hops. */
#define CELLS_PER_HOP PHASE_COUNT

/* Findings under construction: each with what it removes per part. */
struct fb {
  struct target_analysis *ta;
  const struct sample *rep;  /* median cold sample, or NULL */
  const struct analysis *an; /* the whole run's analysis */
  size_t n_cells;            /* rep->n_hops * CELLS_PER_HOP + 1 */
  int64_t **rm;              /* rm[i] for findings[i], or NULL */
  /* The transport's findings read every sample of the target. */
  const struct plan *plan;
  const struct results *res;
  size_t t;
};

static size_t cell(size_t hop, enum phase ph)
{
  return hop * CELLS_PER_HOP + (size_t)ph;
}

static int64_t cell_value(const struct fb *b, size_t c)
{
  size_t hop = c / CELLS_PER_HOP;

  if (!b->rep)
    return 0;
  if (c + 1 == b->n_cells)
    return b->rep->other_us > 0 ? b->rep->other_us : 0;
  if (c % CELLS_PER_HOP == PHASE_TOTAL)
    return 0;
  return b->rep->hops[hop].phases[c % CELLS_PER_HOP];
}

void finding_release(struct finding *f)
{
  free(f->title);
  free(f->detail);
  memset(f, 0, sizeof(*f));
}

static struct finding *add_finding(struct fb *b, enum finding_kind kind,
                                   int hop, int64_t saving, char *title,
                                   char *detail)
{
  struct target_analysis *ta = b->ta;
  struct finding *f;

  ta->findings =
      xrealloc(ta->findings, (ta->n_findings + 1) * sizeof(*ta->findings));
  b->rm = xrealloc(b->rm, (ta->n_findings + 1) * sizeof(*b->rm));
  b->rm[ta->n_findings] = NULL;
  f = &ta->findings[ta->n_findings++];
  memset(f, 0, sizeof(*f));
  f->kind = kind;
  f->hop = hop;
  f->saving_us = saving > 0 ? saving : 0;
  f->title = title;
  f->detail = detail;
  return f;
}

/* A finding without parts: its saving is not a part of the cold total. */
static void add(struct fb *b, enum finding_kind kind, int hop, int64_t saving,
                char *title, char *detail)
{
  add_finding(b, kind, hop, saving, title, detail);
}

/* A finding that removes rm[c] of each part c (rm is n_cells long, taken
 * over); its saving is their sum. */
static struct finding *add_parts(struct fb *b, enum finding_kind kind, int hop,
                                 int64_t *rm, char *title, char *detail)
{
  struct finding *f;
  int64_t sum = 0;
  size_t c;

  for (c = 0; c < b->n_cells; c++) {
    int64_t v = cell_value(b, c);

    if (rm[c] > v)
      rm[c] = v;
    if (rm[c] < 0)
      rm[c] = 0;
    sum += rm[c];
  }
  f = add_finding(b, kind, hop, sum, title, detail);
  f->of_total = 1;
  b->rm[b->ta->n_findings - 1] = rm;
  return f;
}

static int64_t *new_rm(const struct fb *b)
{
  return xcalloc(b->n_cells ? b->n_cells : 1, sizeof(int64_t));
}

static const char *d(char *buf, size_t len, int64_t us)
{
  units_format_us(us, buf, len);
  return buf;
}

static int pct(int64_t part, int64_t whole)
{
  if (whole <= 0)
    return 0;
  return (int)((part * 100 + whole / 2) / whole);
}

/* p50 of a hop phase in a mode, 0 when unknown. */
static int64_t hop_p50(const struct mode_summary *m, size_t k, enum phase ph)
{
  if (!m->present || m->n_hops <= k || !m->hops[k].phases[ph].n)
    return 0;
  return m->hops[k].phases[ph].p50;
}

/* The lowest cold connect p50 measured in this run to host (any target,
 * any hop index), 0 when none opened a connection to it. */
static int64_t host_connect_us(const struct analysis *a, const char *host)
{
  int64_t best = 0;
  size_t t, k;

  for (t = 0; host && t < a->n_targets; t++) {
    const struct target_analysis *o = &a->targets[t];
    const struct mode_summary *cold = &o->modes[MODE_COLD];

    for (k = 0; k < o->n_edge && k < cold->n_hops; k++) {
      int64_t c = hop_p50(cold, k, PHASE_CONNECT);

      if (c > 0 && o->edge[k].host && !strcmp(o->edge[k].host, host) &&
          (!best || c < best))
        best = c;
    }
  }
  return best;
}

static const char *hop_host(const struct fb *b, size_t k)
{
  if (k < b->ta->n_edge && b->ta->edge[k].host)
    return b->ta->edge[k].host;
  if (b->rep && k < b->rep->n_hops)
    return b->rep->hops[k].info->host;
  return NULL;
}

/* About one round trip to the server of hop k: its cold connect time;
 * when hop k reused a connection, the connect this run measured to the
 * same host (another target, a primed client's target without --prime),
 * else that of the first hop. */
static int64_t rtt_us(const struct fb *b, size_t k)
{
  const struct mode_summary *cold = &b->ta->modes[MODE_COLD];
  int64_t v = hop_p50(cold, k, PHASE_CONNECT);

  if (v <= 0)
    v = host_connect_us(b->an, hop_host(b, k));
  return v > 0 ? v : hop_p50(cold, 0, PHASE_CONNECT);
}

/* The cold connect p50 of every hop index of every target of the run
 * that opened a connection, with its host: the round trips this run
 * measured. */
static double nearest_measured(const struct analysis *a, const char *host,
                               const char **near_host)
{
  double best = (double)NAN;
  size_t t, k;

  *near_host = NULL;
  for (t = 0; t < a->n_targets; t++) {
    const struct target_analysis *o = &a->targets[t];
    const struct mode_summary *cold = &o->modes[MODE_COLD];

    for (k = 0; k < o->n_edge && k < cold->n_hops; k++) {
      const char *h = o->edge[k].host;
      int64_t c = hop_p50(cold, k, PHASE_CONNECT);

      if (c <= 0 || !h || (host && !strcmp(h, host)))
        continue;
      if (isnan(best) || (double)c / 1000.0 < best) {
        best = (double)c / 1000.0;
        *near_host = h;
      }
    }
  }
  return best;
}

static void redirect_finding(struct fb *b)
{
  const struct sample *rep = b->rep;
  const struct mode_summary *cold = &b->ta->modes[MODE_COLD];
  const struct mode_summary *warm = &b->ta->modes[MODE_WARM];
  char a[32], c[32];
  struct buf det;
  int64_t *rm, cost = 0;
  size_t k;
  int ph;

  if (!rep || rep->n_hops < 2)
    return;
  rm = new_rm(b);
  for (k = 0; k + 1 < rep->n_hops; k++)
    for (ph = 0; ph < PHASE_TOTAL; ph++) {
      rm[cell(k, (enum phase)ph)] = rep->hops[k].phases[ph];
      cost += rep->hops[k].phases[ph];
    }
  rm[b->n_cells - 1] = rep->other_us;
  cost += rep->other_us > 0 ? rep->other_us : 0;
  if (cost <= 0) {
    free(rm);
    return;
  }
  buf_init(&det, 0);
  for (k = 0; k + 1 < rep->n_hops; k++)
    buf_printf(&det, "%shop %zu answers %d from %s", k ? ", " : "", k + 1,
               (int)rep->hops[k].info->status,
               rep->hops[k].info->host ? rep->hops[k].info->host : "?");
  buf_printf(&det,
             "; the final hop %zu to %s can only start after it. Link or "
             "serve the final URL directly",
             (size_t)rep->n_hops,
             rep->hops[rep->n_hops - 1].info->host
                 ? rep->hops[rep->n_hops - 1].info->host
                 : "?");
  if (warm->present && warm->n_ok)
    buf_printf(&det, " (warm, the redirect still costs %s)",
               d(c, sizeof(c), warm->phases[SUM_REDIRECT].p50));
  add_parts(b, FINDING_REDIRECT, 1, rm,
            xasprintf("%s %s (%d %% of the cold total)",
                      rep->n_hops > 2 ? "the redirects cost"
                                      : "the redirect hop costs",
                      d(a, sizeof(a), cost),
                      pct(cost, cold->phases[SUM_TOTAL].p50)),
            buf_detach(&det));
}

/* Whether a body of Content-Type ct is one a client would keep and show
 * again (images, media, fonts, style sheets, scripts, documents of static
 * types), by its media type without parameters. */
static int reusable_type(const char *ct)
{
  static const char *const prefixes[] = {"image/", "video/", "audio/",
                                         "font/"};
  static const char *const types[] = {"text/css",
                                      "text/javascript",
                                      "application/javascript",
                                      "application/pdf",
                                      "application/wasm",
                                      "application/font-woff",
                                      "application/font-woff2"};
  size_t i, n;

  if (!ct)
    return 0;
  while (*ct == ' ')
    ct++;
  n = strcspn(ct, "; ");
  for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
    if (!strncasecmp(ct, prefixes[i], strlen(prefixes[i])))
      return 1;
  for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
    if (n == strlen(types[i]) && !strncasecmp(ct, types[i], n))
      return 1;
  return 0;
}

/*
 * A body a client would want to reuse (reusable_type) that Cache-Control
 * forbids it to keep (no-store): every repeat view pays the whole request
 * again, so the saving is what a repeat view pays (basis repeat-view), the
 * warm median total (a view while the connections are open), else the
 * cold one.  It is no part of the cold total: the first view pays it
 * anyway.  private is not such a case: a browser may keep a private
 * response (RFC 9111 5.2.2.7), only shared caches may not, and the edge
 * finding says what that costs.  Returns whether it added one.
 */
static int reuse_finding(struct fb *b, size_t k, const struct cache_hop *ch)
{
  const struct sample *rep = b->rep;
  const struct target_analysis *ta = b->ta;
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  const struct mode_summary *warm = &ta->modes[MODE_WARM];
  const struct hop *h;
  struct cache_control cc;
  const char *ct, *ccv;
  char a[32], c2[32], sz[UNITS_FMT_SIZE], mt[64];
  int64_t repeat;
  struct finding *f;
  struct buf det;

  if (!rep || k + 1 != rep->n_hops)
    return 0;
  h = &rep->hops[k];
  ct = hop_header(h, "content-type");
  ccv = hop_header(h, "cache-control");
  if (!reusable_type(ct) || !ccv)
    return 0;
  memset(&cc, 0, sizeof(cc));
  cache_control_parse(ccv, &cc);
  if (!cc.no_store)
    return 0;
  repeat = warm->present && warm->phases[SUM_TOTAL].n
               ? warm->phases[SUM_TOTAL].p50
               : cold->phases[SUM_TOTAL].p50;
  if (repeat <= 0)
    return 0;
  while (*ct == ' ')
    ct++;
  snprintf(mt, sizeof(mt), "%.*s", (int)strcspn(ct, "; "), ct);
  units_format_bytes(h->info->size_download, sz, sizeof(sz));
  buf_init(&det, 0);
  buf_printf(&det,
             "Cache-Control: %s on a %s %s: a client may not keep it, so "
             "every view after the first pays the whole request again, ",
             ccv, sz, mt);
  if (warm->present && warm->phases[SUM_TOTAL].n)
    buf_printf(&det,
               "%s (the warm median, connections still open), %s (the cold "
               "median) after they closed",
               d(a, sizeof(a), warm->phases[SUM_TOTAL].p50),
               d(c2, sizeof(c2), cold->phases[SUM_TOTAL].p50));
  else
    buf_printf(&det, "%s (the cold median)",
               d(a, sizeof(a), cold->phases[SUM_TOTAL].p50));
  buf_puts(&det, ". Cache-Control: public, max-age=N (immutable for a "
                 "versioned URL) lets repeat views skip the network; a "
                 "signed URL can still be cached for as long as it is "
                 "valid");
  if (ch->result.vendor)
    buf_printf(&det, " (%s: %s)", cache_vendor_display(ch->result.vendor),
               cache_verdict_names[ch->result.verdict]);
  f = add_finding(b, FINDING_CACHE, (int)k + 1, repeat,
                  xasprintf("hop %zu (%s) forbids keeping its %s %s "
                            "(no-store): each repeat view pays %s again",
                            k + 1, ch->host ? ch->host : "?", sz, mt,
                            d(a, sizeof(a), repeat)),
                  buf_detach(&det));
  f->basis = FINDING_BASIS_REPEAT;
  return 1;
}

static void cache_findings(struct fb *b)
{
  struct target_analysis *ta = b->ta;
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  size_t k, i;

  for (k = 0; k < ta->n_cache; k++) {
    const struct cache_hop *ch = &ta->cache[k];
    enum cache_verdict v = ch->result.verdict;
    int64_t saving, *rm;
    struct buf det;
    char a[32];
    int served = 0, w;
    struct finding *f;

    /* A MISS was stored (a later request may hit), and a hop that some
     * sample had from a cache is cached: neither is "not cached". */
    for (w = 0; w < CACHE_VERDICT_COUNT; w++)
      if (cache_verdict_served_from_cache((enum cache_verdict)w))
        served += ch->counts.n[w];
    if (!cache_verdict_not_cacheable(v) || served)
      continue;
    if (reuse_finding(b, k, ch))
      continue;
    /* Served from the edge's cache, the wait would be about one round
     * trip to the edge instead of a trip on to the origin. */
    saving = hop_p50(cold, k, PHASE_WAIT) - rtt_us(b, k);
    rm = NULL;
    if (b->rep && k < b->rep->n_hops) {
      rm = new_rm(b);
      rm[cell(k, PHASE_WAIT)] =
          b->rep->hops[k].phases[PHASE_WAIT] - rtt_us(b, k);
      saving = rm[cell(k, PHASE_WAIT)];
    }
    buf_init(&det, 0);
    if (ch->result.vendor)
      buf_printf(&det, "%s: %s", cache_vendor_display(ch->result.vendor),
                 cache_verdict_names[v]);
    else
      buf_puts(&det, "no CDN in front");
    for (i = 0; i < ch->result.n_reasons; i++)
      buf_printf(&det, "%s%s", i ? "; " : ": ", ch->result.reasons[i]);
    if (cache_counts_total(&ch->counts) > 1)
      buf_printf(&det, " (%d of %d samples %s)", ch->counts.n[v],
                 cache_counts_total(&ch->counts), cache_verdict_names[v]);
    buf_printf(&det,
               ". A cached copy at the edge could save about %s of "
               "server wait",
               d(a, sizeof(a), saving > 0 ? saving : 0));
    if (rm)
      f = add_parts(b, FINDING_CACHE, (int)k + 1, rm,
                    xasprintf("hop %zu (%s) is not cached at the edge: %s",
                              k + 1, ch->host ? ch->host : "?",
                              cache_verdict_names[v]),
                    buf_detach(&det));
    else
      f = add_finding(b, FINDING_CACHE, (int)k + 1, saving,
                      xasprintf("hop %zu (%s) is not cached at the edge: %s",
                                k + 1, ch->host ? ch->host : "?",
                                cache_verdict_names[v]),
                      buf_detach(&det));
    (void)f;
  }
}

/*
 * A distant edge whose measured connect is below the fibre floor to it:
 * no round trip is faster than light in fibre, so the run contradicts the
 * distance the finding would rest on.  It says so, and estimates no
 * saving (hopsplit(1) FINDINGS).
 */
static void uncertain_edge(struct fb *b, const struct edge_result *e, size_t k)
{
  const struct edge_client *cl = &b->an->client;
  char where[64];
  struct finding *f;

  if (cl->country[0] && cl->source != EDGE_CLIENT_NONE)
    snprintf(where, sizeof(where), "%s, from %s", cl->country,
             cl->source == EDGE_CLIENT_OPTION ? "--client-location"
                                              : "the trace's loc");
  else
    snprintf(where, sizeof(where), "as given");

  f = add_finding(
      b, FINDING_DISTANT_EDGE, (int)k + 1, 0,
      xasprintf("hop %zu: where the edge is, is uncertain: %s (%s%s%s) is "
                "%.0f km away, yet its connect takes %.1f ms, below the "
                "%.1f ms fibre floor",
                k + 1, e->pop ? e->pop : "?", e->city ? e->city : "?",
                e->country ? ", " : "", e->country ? e->country : "",
                e->distance_km, e->connect_p50_ms, e->floor_rtt_ms),
      xasprintf("no round trip is faster than light in fibre, so either the "
                "client is not where its location (%s) says (a VPN, WARP, "
                "a wrong --client-location) or the answer came from nearer "
                "than the POP code says (a proxy in between); no saving is "
                "estimated. Give --client-location to settle it",
                where));
  f->basis = FINDING_BASIS_UNCERTAIN;
}

/* --- distant edges from the kernel's round trips (hopsplit(1) TRANSPORT) */

static int64_t v_min_rtt_any(const struct hop *h)
{
  return h->tcp_valid ? h->tcp.min_rtt_us : -1;
}

/* The median of the kernel's minimum round trip over every hop of the run
 * to host (any target, any mode), in ms; NAN when none was read. */
static double host_min_rtt_ms(const struct fb *b, const char *host)
{
  const struct results *r = b->res;
  int64_t *v, med;
  size_t i, k, n = 0, cap = 0;

  if (!r || !host)
    return (double)NAN;
  for (i = 0; i < r->n; i++)
    cap += r->samples[i].n_hops;
  if (!cap)
    return (double)NAN;
  v = xmalloc(cap * sizeof(*v));
  for (i = 0; i < r->n; i++)
    for (k = 0; k < r->samples[i].n_hops; k++) {
      const struct hop *h = &r->samples[i].hops[k];
      int64_t x = v_min_rtt_any(h);

      if (x > 0 && h->info->host && !strcmp(h->info->host, host))
        v[n++] = x;
    }
  if (!n) {
    free(v);
    return (double)NAN;
  }
  stats_sort(v, n);
  med = stats_percentile(v, n, 50);
  free(v);
  return (double)med / 1000.0;
}

/* This edge's round trip from the kernel, when its connections were read:
 * the connect time holds a SYN's processing and a loaded loop's lateness,
 * the minimum RTT only the path. */
static void edge_kernel_rtt(const struct fb *b, const char *host, double *rtt,
                            const char **src)
{
  double k = host_min_rtt_ms(b, host);

  if (!isnan(k) && k > 0) {
    *rtt = k;
    *src = "the kernel's minimum round trip of its connections";
  }
}

/* The nearest other host this run measured: by the kernel's minimum round
 * trips when any connection was read, else by cold connect p50s.  The
 * excess over it is this edge's own: the access link's round trip, common
 * to every host, cancels. */
static double edge_nearest(const struct fb *b, const struct analysis *an,
                           const char *host, const char **near_host)
{
  const struct results *r = b->res;
  double best = (double)NAN;
  size_t i, k;

  *near_host = NULL;
  for (i = 0; r && i < r->n; i++)
    for (k = 0; k < r->samples[i].n_hops; k++) {
      const struct hop *h = &r->samples[i].hops[k];
      double m;

      if (!h->info->host || v_min_rtt_any(h) <= 0 ||
          (host && !strcmp(h->info->host, host)))
        continue;
      m = host_min_rtt_ms(b, h->info->host);
      if (!isnan(m) && (isnan(best) || m < best)) {
        best = m;
        *near_host = h->info->host;
      }
    }
  if (!isnan(best))
    return best;
  return nearest_measured(an, host, near_host);
}

/*
 * No nearer host was measured.  The fibre floors to this edge and to the
 * CDN's nearest POP differ by what distance alone costs (the access
 * link's share left out): when that is at least 1 ms, each round trip
 * saves that much at least (*rtt and *near become the two floors; basis:
 * floor; *near is rtt less that).  Else the edge is near and only the
 * round trip is high: the
 * path (the access link, a route) is slow, not necessarily the edge;
 * an uncertain finding says so and estimates no saving.  Returns whether
 * a floor-based saving stands.
 */
static int edge_floor_only(struct fb *b, const struct edge_result *e, size_t k,
                           double rtt, double *near)
{
  double nf = !isnan(e->nearest_km) ? edge_floor_rtt_ms(e->nearest_km) : 0;
  struct finding *f;

  if (!isnan(e->floor_rtt_ms) && e->floor_rtt_ms - nf >= 1.0) {
    *near = rtt - (e->floor_rtt_ms - nf);
    return 1;
  }
  f = add_finding(
      b, FINDING_DISTANT_EDGE, (int)k + 1, 0,
      xasprintf("hop %zu: the path is slow, not necessarily the edge: its "
                "round trip is %.1f ms, far above the %.1f ms fibre floor "
                "to %s (%s%s%s, %.0f km)",
                k + 1, rtt, e->floor_rtt_ms, e->pop ? e->pop : "?",
                e->city ? e->city : "?", e->country ? ", " : "",
                e->country ? e->country : "", e->distance_km),
      xasprintf("the edge is near the client, so distance does not explain "
                "the round trip: the access link (a mobile or satellite "
                "link, a busy Wi-Fi) or the route adds it, and it is common "
                "to every host. No nearer host was measured in this run to "
                "tell the edge's share from the path's, so no saving is "
                "estimated; measure a host known to be near beside it"));
  f->basis = FINDING_BASIS_UNCERTAIN;
  return 0;
}

/*
 * A distant edge: every round trip the hop really made would be shorter
 * by the difference between its round trip and that of a nearer edge,
 * taken from the run (the lowest cold connect to another host) when one
 * is lower, else from the fibre floor to the nearest POP.  The round
 * trips are counted in the median cold sample: one for TCP when it opened
 * a connection, TLS as its time in round trips (1 for TLS 1.3, 2 for
 * 1.2), one for the request, and one per round trip of the transfer.
 */
static void edge_findings(struct fb *b, const struct analysis *an)
{
  struct target_analysis *ta = b->ta;
  const struct sample *rep = b->rep;
  size_t k;

  for (k = 0; k < ta->n_edge; k++) {
    const struct edge_result *e = &ta->edge[k];
    const struct hop *h;
    const char *near_host = NULL, *rtt_src;
    double rtt, near, delta, m;
    enum finding_basis basis;
    int64_t *rm, dus;
    long n_tcp = 0, n_tls = 0, n_req = 0, n_xfer = 0;
    struct buf det;
    struct finding *f;

    if (e->distant != 1 || !rep || k >= rep->n_hops)
      continue;
    h = &rep->hops[k];
    if (!isnan(e->connect_p50_ms) && !isnan(e->floor_rtt_ms) &&
        e->connect_p50_ms < e->floor_rtt_ms) {
      uncertain_edge(b, e, k);
      continue;
    }
    /* This edge's round trip: the hop's own connect, else one this run
     * measured to the same host; never below the floor to this edge (a
     * connect below it means the client's location is wrong, and the
     * detail says so). */
    rtt = e->connect_p50_ms;
    rtt_src = "its own connect";
    if (isnan(rtt) && host_connect_us(an, e->host) > 0) {
      rtt = (double)host_connect_us(an, e->host) / 1000.0;
      rtt_src = "the round trip this run measured to the same host";
    }
    edge_kernel_rtt(b, e->host, &rtt, &rtt_src);
    if (isnan(rtt) || (!isnan(e->floor_rtt_ms) && rtt < e->floor_rtt_ms)) {
      rtt = e->floor_rtt_ms;
      rtt_src = "the floor to this edge";
    }
    if (isnan(rtt) || rtt <= 0)
      continue;
    m = edge_nearest(b, an, e->host, &near_host);
    if (!isnan(m) && m < rtt) {
      near = m;
      basis = FINDING_BASIS_MEASURED;
    }
    else if (edge_floor_only(b, e, k, rtt, &near)) {
      basis = FINDING_BASIS_FLOOR;
      near_host = e->nearest;
    }
    else {
      continue;
    }
    delta = rtt - near;
    if (delta <= 0)
      continue;
    dus = (int64_t)llround(delta * 1000.0);
    if (!h->reused && h->phases[PHASE_CONNECT] > 0)
      n_tcp = 1;
    if (h->phases[PHASE_TLS] > 0) {
      n_tls = lround((double)h->phases[PHASE_TLS] / (rtt * 1000.0));
      n_tls = n_tls < 1 ? 1 : n_tls > 3 ? 3 : n_tls;
    }
    if (h->phases[PHASE_WAIT] > 0)
      n_req = 1;
    n_xfer = (long)((double)h->phases[PHASE_TRANSFER] / (rtt * 1000.0));
    rm = new_rm(b);
    rm[cell(k, PHASE_CONNECT)] = n_tcp * dus;
    rm[cell(k, PHASE_TLS)] = n_tls * dus;
    rm[cell(k, PHASE_WAIT)] = n_req * dus;
    rm[cell(k, PHASE_TRANSFER)] = n_xfer * dus;
    buf_init(&det, 0);
    if (e->distant_why)
      buf_puts(&det, e->distant_why);
    if (!isnan(e->floor_rtt_ms))
      buf_printf(&det, "; the physical floor is %.1f ms per round trip",
                 e->floor_rtt_ms);
    if (!isnan(e->connect_p50_ms))
      buf_printf(&det, ", the measured TCP connect %.1f ms%s",
                 e->connect_p50_ms,
                 !isnan(e->floor_rtt_ms) && e->connect_p50_ms < e->floor_rtt_ms
                     ? " (below the floor: the client is nearer the edge than "
                       "its location says, e.g. a VPN or a wrong "
                       "--client-location)"
                     : "");
    if (isnan(e->connect_p50_ms))
      buf_printf(&det,
                 "; the hop opened no connection of its own, so its round "
                 "trip is %s, %.1f ms",
                 rtt_src, rtt);
    buf_printf(&det,
               ". The hop made %ld round trip%s (TCP %ld, TLS %ld, request "
               "%ld, transfer %ld)",
               n_tcp + n_tls + n_req + n_xfer,
               n_tcp + n_tls + n_req + n_xfer == 1 ? "" : "s", n_tcp, n_tls,
               n_req, n_xfer);
    if (basis == FINDING_BASIS_MEASURED)
      buf_printf(&det,
                 "; this run measured %.1f ms round trips to %s, so each "
                 "would be about %.1f ms shorter from an edge that near "
                 "(basis: measured)",
                 near, near_host ? near_host : "another host", delta);
    else
      buf_printf(&det,
                 "; no nearer host was measured in this run, so only what "
                 "distance costs is counted: the fibre floors to this edge "
                 "(%.1f ms) and to the nearest POP%s%s (%.1f ms) differ by "
                 "%.1f ms a round trip, the access link's share (common to "
                 "every host) left out: a lower bound (basis: floor)",
                 e->floor_rtt_ms, near_host ? ", " : "",
                 near_host ? near_host : "", e->floor_rtt_ms - delta, delta);
    f = add_parts(b, FINDING_DISTANT_EDGE, (int)k + 1, rm,
                  xasprintf("hop %zu is served from a distant edge: %s "
                            "(%s%s%s), %.0f km away",
                            k + 1, e->pop ? e->pop : "?",
                            e->city ? e->city : "?", e->country ? ", " : "",
                            e->country ? e->country : "", e->distance_km),
                  buf_detach(&det));
    f->basis = basis;
  }
}

/*
 * New connections.  What a change removes depends on the host: sharing
 * one pool (or one host name) removes the set-up of the connections to
 * hosts a client already talks to (the API host of an app that has just
 * called it: --prime measures that), never the final host's, whose own
 * set-up remains for any client that has not connected to it yet.  So
 * the saving, as parts of the cold total, is the DNS, connect and TLS of
 * the hops to other hosts than the final one; when every hop is on the
 * final host, only a repeat request on a kept connection saves its set-up,
 * and the finding says so as a repeat saving (basis repeat-view), no part
 * of the cold total.
 */
static void connection_finding(struct fb *b)
{
  const struct sample *rep = b->rep;
  const struct mode_summary *cold = &b->ta->modes[MODE_COLD];
  const struct mode_summary *warm = &b->ta->modes[MODE_WARM];
  size_t k, j, conns = 0, hosts = 0;
  int64_t setup = 0, other = 0, *rm;
  const char *final_host;
  char a[32], c[32], e[32];
  struct buf det, others;

  if (!rep || rep->mode != MODE_COLD)
    return;
  final_host = rep->hops[rep->n_hops - 1].info->host;
  rm = new_rm(b);
  buf_init(&others, 0);
  for (k = 0; k < rep->n_hops; k++) {
    const struct hop *h = &rep->hops[k];
    int64_t hs =
        h->phases[PHASE_DNS] + h->phases[PHASE_CONNECT] + h->phases[PHASE_TLS];
    int seen = 0, on_final = h->info->host && final_host &&
                             !strcmp(h->info->host, final_host);

    setup += hs;
    if (!on_final) {
      rm[cell(k, PHASE_DNS)] = h->phases[PHASE_DNS];
      rm[cell(k, PHASE_CONNECT)] = h->phases[PHASE_CONNECT];
      rm[cell(k, PHASE_TLS)] = h->phases[PHASE_TLS];
      other += hs;
    }
    if (h->reused)
      continue;
    conns++;
    for (j = 0; j < k; j++)
      if (!rep->hops[j].reused && rep->hops[j].info->host && h->info->host &&
          !strcmp(rep->hops[j].info->host, h->info->host))
        seen = 1;
    if (!seen) {
      hosts++;
      if (!on_final)
        buf_printf(&others, "%s%s", others.len ? ", " : "",
                   h->info->host ? h->info->host : "?");
    }
  }
  if (!conns || setup <= 0) {
    free(rm);
    buf_release(&others);
    return;
  }
  buf_init(&det, 0);
  buf_printf(&det, "in the median cold sample, DNS + TCP + TLS take %s of %s",
             d(a, sizeof(a), setup), d(c, sizeof(c), rep->total_us));
  if (warm->present && warm->n_ok)
    buf_printf(&det, "; warm samples, which reuse them, are %s faster",
               d(a, sizeof(a),
                 cold->phases[SUM_TOTAL].p50 - warm->phases[SUM_TOTAL].p50));
  if (other > 0) {
    buf_printf(&det,
               "; a client whose pool already holds %s (share one "
               "connection pool between the hosts of this request, or serve "
               "them from one host name; --prime measures it) saves their "
               "%s, while %s's own set-up (%s) remains for any client that "
               "has not connected to it",
               others.s, d(a, sizeof(a), other),
               final_host ? final_host : "the final host",
               d(e, sizeof(e), setup - other));
    add_parts(b, FINDING_CONNECTIONS, 0, rm,
              xasprintf("cold requests open %zu connection%s to %zu host%s: "
                        "a pool that holds %s saves %s of set-up",
                        conns, conns == 1 ? "" : "s", hosts,
                        hosts == 1 ? "" : "s", others.s,
                        d(c, sizeof(c), other)),
              buf_detach(&det));
  }
  else {
    struct finding *f;

    free(rm);
    buf_puts(&det, "; every hop is on the final host, so only a repeat "
                   "request on a kept connection saves it (keep connections "
                   "open and reuse them): a first request pays it whatever "
                   "the client does");
    f = add_finding(b, FINDING_CONNECTIONS, 0, setup,
                    xasprintf("cold requests open %zu connection%s to %zu "
                              "host%s: %s of set-up a repeat request saves",
                              conns, conns == 1 ? "" : "s", hosts,
                              hosts == 1 ? "" : "s", d(a, sizeof(a), setup)),
                    buf_detach(&det));
    f->basis = FINDING_BASIS_REPEAT;
  }
  buf_release(&others);
}

/*
 * Resumption that does not happen: the hops say whether the
 * client offered a session (tls.offered) and, when not, why
 * (tls.not_offered); a session offered and not resumed is the server's
 * refusal.  Runs read back from an older document have no offer facts:
 * then the finding cannot tell the two apart and says so.
 */
static void resumption_finding(struct fb *b, size_t t, const struct results *r)
{
  struct target_analysis *ta = b->ta;
  const struct mode_summary *res = &ta->modes[MODE_RESUMED];
  size_t i, k, tls_hops = 0, resumed = 0, offered = 0, refused = 0;
  size_t unknown = 0;
  const char *why = NULL;
  int64_t saving;
  char a[32];
  struct buf det;
  char *title;

  if (!res->present || !res->n_ok)
    return;
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target != t || s->mode != MODE_RESUMED || !s->ok)
      continue;
    for (k = 0; k < s->n_hops; k++) {
      const struct hop *h = &s->hops[k];

      if (h->reused || !h->tls->version)
        continue;
      tls_hops++;
      resumed += h->tls->resumed == 1;
      if (h->tls->offered < 0) {
        unknown++;
        continue;
      }
      offered += h->tls->offered == 1;
      refused += h->tls->offered == 1 && h->tls->resumed != 1;
      if (h->tls->offered == 0 && h->tls->not_offered && !why)
        why = h->tls->not_offered;
    }
  }
  if (!tls_hops || resumed * 2 > tls_hops)
    return;
  saving = res->phases[SUM_TLS].p50 - res->phases[SUM_CONNECT].p50;
  buf_init(&det, 0);
  buf_printf(&det,
             "the resumed samples still pay a full handshake (TLS p50 %s)",
             d(a, sizeof(a), res->phases[SUM_TLS].p50));
  if (refused)
    buf_printf(&det,
               "; %zu session%s offered by the client and refused by the "
               "server (no session cache or ticket key it still accepts)",
               refused, refused == 1 ? "" : "s");
  if (tls_hops - unknown > offered)
    buf_printf(&det,
               "; %zu connection%s offered no session, not the "
               "server's fault: %s",
               tls_hops - unknown - offered,
               tls_hops - unknown - offered == 1 ? "" : "s",
               why ? why : "the client had none for that host");
  if (unknown)
    buf_printf(&det,
               "; for %zu connection%s the document does not say "
               "whether a session was offered",
               unknown, unknown == 1 ? "" : "s");
  title = xasprintf("TLS sessions are not resumed: %zu of %zu new TLS "
                    "connections resumed (%zu offered a session)",
                    resumed, tls_hops, offered);
  if (b->rep) {
    /* A resumed handshake still takes a round trip (without 0-RTT): what
     * resumption removes is the TLS time beyond one. */
    int64_t *rm = new_rm(b);

    for (k = 0; k < b->rep->n_hops; k++)
      if (!b->rep->hops[k].reused && b->rep->hops[k].phases[PHASE_TLS] > 0)
        rm[cell(k, PHASE_TLS)] =
            b->rep->hops[k].phases[PHASE_TLS] - rtt_us(b, k);
    add_parts(b, FINDING_TLS_RESUMPTION, 0, rm, title, buf_detach(&det));
  }
  else
    add(b, FINDING_TLS_RESUMPTION, 0, saving, title, buf_detach(&det));
}

#define PAYLOAD_ONE_FLIGHT (10 * 1460)

/*
 * The body: its bytes over the throughput measured for them (bytes on the
 * wire / transfer time of the final hop of the median cold sample).  The
 * saving is what a body half that size would take less at that
 * throughput (basis: throughput); the detail also gives the time per
 * 100 KiB (per 10 KiB for a body under 100 KiB: never a step larger than
 * the body), so a reader can scale it to the change they have in mind.  A
 * body that fits in one flight of TCP's initial window gets no finding.
 */
static void payload_finding(struct fb *b)
{
  const struct sample *rep = b->rep;
  const struct mode_summary *cold = &b->ta->modes[MODE_COLD];
  const struct hop *last;
  int64_t xfer, bytes, total, saving, per100k, step, *rm;
  char a[32], sv[32], sz[UNITS_FMT_SIZE], rate[UNITS_FMT_SIZE], p1[32];
  double bps;
  int share;
  struct finding *f;

  if (!rep || rep->mode != MODE_COLD || !cold->n_ok || rep->total_us <= 0)
    return;
  last = &rep->hops[rep->n_hops - 1];
  xfer = last->phases[PHASE_TRANSFER];
  bytes = last->info->size_download;
  total = rep->total_us;
  /* A body within TCP's initial window (10 segments) arrives in one
   * flight: its transfer time says nothing of its size, and shrinking it
   * saves nothing. */
  if (xfer <= 0 || bytes <= PAYLOAD_ONE_FLIGHT)
    return;
  bps = (double)bytes * 1e6 / (double)xfer;
  units_format_bytes(bytes, sz, sizeof(sz));
  units_format_bytes((int64_t)llround(bps), rate, sizeof(rate));
  /* (bytes / 2) / throughput, and a step / throughput, the step never
   * larger than the body (100 KiB, else 10 KiB: a body over one flight is
   * over 14 KiB). */
  saving = (int64_t)llround((double)bytes / 2.0 / bps * 1e6);
  step = bytes >= 102400 ? 102400 : 10240;
  per100k = (int64_t)llround((double)step / bps * 1e6);
  share = pct(xfer, total);
  rm = new_rm(b);
  rm[cell(rep->n_hops - 1, PHASE_TRANSFER)] = saving;
  f = add_parts(
      b, FINDING_PAYLOAD, (int)rep->n_hops, rm,
      xasprintf("the body, %s at %s/s, takes %s (%d %% of the cold total): "
                "half the bytes would save about %s",
                sz, rate, d(a, sizeof(a), xfer), share,
                d(sv, sizeof(sv), saving)),
      xasprintf("%s on the wire in %s of transfer is %s/s; at that "
                "throughput every %d KiB less saves about %s. %s",
                sz, d(a, sizeof(a), xfer), rate, (int)(step / 1024),
                d(p1, sizeof(p1), per100k),
                share >= 50 ? "Compress or shrink the body, or send it from "
                              "closer to the client"
                            : "Most of the time goes to the phases before "
                              "the first byte"));
  f->basis = FINDING_BASIS_THROUGHPUT;
}

static void wait_finding(struct fb *b)
{
  const struct sample *rep = b->rep;
  const struct mode_summary *cold = &b->ta->modes[MODE_COLD];
  size_t k;
  int64_t wait, server, total, *rm;
  const char *st;
  char a[32];

  if (!rep || rep->mode != MODE_COLD || !cold->n_ok)
    return;
  total = rep->total_us;
  k = rep->n_hops - 1;
  wait = rep->hops[k].phases[PHASE_WAIT];
  server = wait - rtt_us(b, k);
  if (server < 5000 || pct(server, total) < 30)
    return;
  st = hop_header(&rep->hops[k], "server-timing");
  rm = new_rm(b);
  rm[cell(k, PHASE_WAIT)] = server;
  add_parts(b, FINDING_SERVER_WAIT, (int)k + 1, rm,
            xasprintf("server wait dominates: %s beyond one round trip (%d %% "
                      "of the cold total)",
                      d(a, sizeof(a), server), pct(server, total)),
            st ? xasprintf("hop %zu waits %s for its first byte; "
                           "Server-Timing: %s",
                           k + 1, d(a, sizeof(a), wait), st)
               : xasprintf("hop %zu waits %s for its first byte and sends no "
                           "Server-Timing to say where it goes",
                           k + 1, d(a, sizeof(a), wait)));
}

static void dns_finding(struct fb *b)
{
  const struct sample *rep = b->rep;
  const struct mode_summary *cold = &b->ta->modes[MODE_COLD];
  int64_t dns = 0, total, *rm;
  char a[32], cause[160];
  long ttl = -1;
  size_t k, i;
  char *detail;

  if (!rep || !cold->n_ok)
    return;
  total = rep->total_us;
  for (k = 0; k < rep->n_hops; k++)
    dns += rep->hops[k].phases[PHASE_DNS];
  if (dns < 10000 || pct(dns, total) < 10)
    return;
  rm = new_rm(b);
  for (k = 0; k < rep->n_hops; k++) {
    rm[cell(k, PHASE_DNS)] = rep->hops[k].phases[PHASE_DNS];
    if (rep->hops[k].dns->ttl >= 0 && (ttl < 0 || rep->hops[k].dns->ttl < ttl))
      ttl = rep->hops[k].dns->ttl;
  }
  /* A resolver that refused or failed on the way is the first cause to
   * name: its answer was waited for. */
  cause[0] = '\0';
  for (k = 0; k < rep->n_hops && !cause[0]; k++)
    for (i = 0; i < rep->hops[k].dns->n_failed && !cause[0]; i++) {
      const struct dns_failure *f = &rep->hops[k].dns->failed[i];

      snprintf(cause, sizeof(cause), "%s%s%s %s %s", f->query ? f->query : "",
               f->query ? " " : "", f->rcode,
               strcmp(f->rcode, "unreachable") ? "by" : "at", f->server);
    }
  detail = ttl >= 0 ? xasprintf("the answers live %ld s (TTL); clients "
                                "re-resolve that often. A nearer or faster "
                                "resolver, a longer TTL or dns-prefetch helps",
                                ttl)
                    : xstrdup("a nearer or faster resolver, a longer TTL or "
                              "dns-prefetch helps");
  if (cause[0]) {
    char *t = xasprintf("the resolver did not answer every query (%s): a "
                        "client whose resolver asks again (c-ares 1.18 "
                        "does) or waits for the next server pays more "
                        "round trips; a resolver that answers A and AAAA "
                        "alike avoids them. %s",
                        cause, detail);

    free(detail);
    detail = t;
  }
  add_parts(b, FINDING_DNS, 0, rm,
            cause[0] ? xasprintf("DNS takes %s of the cold total (%d %%); "
                                 "%s",
                                 d(a, sizeof(a), dns), pct(dns, total), cause)
                     : xasprintf("DNS takes %s of the cold total (%d %%)",
                                 d(a, sizeof(a), dns), pct(dns, total)),
            detail);
}

static void noise_finding(struct fb *b, const struct analysis *a, size_t t)
{
  struct target_analysis *ta = b->ta;
  size_t i;
  int m;

  for (i = 0; i < a->n_drifts; i++) {
    const struct drift *dr = &a->drifts[i];
    char ch[32];

    if (dr->target == t && dr->warning) {
      units_format_us(dr->change_us < 0 ? -dr->change_us : dr->change_us, ch,
                      sizeof(ch));
      add(b, FINDING_NOISE, 0, 0,
          xasprintf("the network changed during the run: %s totals %s by "
                    "%s (%.1f %%) from the first round to the last "
                    "(Spearman rho %.2f)",
                    sample_mode_names[dr->mode],
                    dr->change_us < 0 ? "fell" : "rose", ch,
                    dr->change_pct < 0 ? -dr->change_pct : dr->change_pct,
                    dr->rho),
          xstrdup("compare targets only in interleaved rounds (as hopsplit "
                  "does) and repeat the run at another time"));
      return;
    }
  }
  for (m = 0; m < MODE_COUNT; m++) {
    const struct stats *s = &ta->modes[m].phases[SUM_TOTAL];

    if (!ta->modes[m].present || s->n < 5 || s->p50 <= 0)
      continue;
    if (s->p95 > 2 * s->p50 && s->p95 - s->p50 > 5000) {
      add(b, FINDING_NOISE, 0, 0,
          xasprintf("%s measurements are noisy: p95 is %.1fx p50",
                    sample_mode_names[m], (double)s->p95 / (double)s->p50),
          xasprintf("p50 and its comparison hold, p95 from %zu samples does "
                    "not: run more rounds (-n 30 or more)",
                    s->n));
      return;
    }
  }
}

/*
 * Warm idle: TCP restarts slow start after a connection sat idle for
 * longer than its retransmission timeout (Linux
 * net.ipv4.tcp_slow_start_after_idle), so a warm sample after a longer
 * gap can take more round trips for the same body.  Said when the warm
 * totals rise with the idle time (Spearman rho significant by the drift
 * rule) and the samples idle longer than the median idle are slower than
 * the others by at least 5 % and 1 ms.
 */
/* Whether target u of p is the HTTP/3 leg of the same URL as target t. */
static int h3_leg_of(const struct plan *p, size_t u, size_t t)
{
  const struct options *o = p->targets[u].opts;

  return u != t && !strcmp(p->targets[u].url, p->targets[t].url) &&
         (o->http == HTTP_PREF_3 || o->http == HTTP_PREF_3_ONLY);
}

/*
 * An edge that offers HTTP/3 (Alt-Svc h3 on a hop of the median cold
 * sample that did not use it): whether this run measured HTTP/3 of the
 * same URL faster (a paired comparison of the two, --protocols h2,h3, in
 * cold mode first), or that it did not measure it.  The saving is the
 * median paired difference when h3 was faster, else nothing.
 */
static void http_version_finding(struct fb *b, const struct plan *p, size_t t)
{
  const struct hop *h = NULL;
  const struct comparison *best = NULL;
  char port[32], ma[48], a1[32], a2[32], a3[32];
  size_t k, i;
  int hop = 0;

  if (!b->rep)
    return;
  for (k = 0; k < b->rep->n_hops && !h; k++) {
    const struct hop *x = &b->rep->hops[k];

    if (x->info->alt_svc && !strcmp(x->info->alt_svc, "h3") &&
        (!x->info->http_version || strcmp(x->info->http_version, "3"))) {
      h = x;
      hop = (int)k + 1;
    }
  }
  if (!h)
    return;
  for (i = 0; i < b->an->n_comparisons; i++) {
    const struct comparison *c = &b->an->comparisons[i];

    if (c->baseline == t && h3_leg_of(p, c->target, t) &&
        (!best || (c->mode == MODE_COLD && best->mode != MODE_COLD)))
      best = c;
  }
  snprintf(port, sizeof(port), h->info->alt_svc_port ? " on port %u" : "",
           (unsigned)h->info->alt_svc_port);
  if (h->info->alt_svc_ma >= 0)
    snprintf(ma, sizeof(ma), ", max-age %lld s",
             (long long)h->info->alt_svc_ma);
  else
    ma[0] = '\0';
  if (!best) {
    add(b, FINDING_HTTP_VERSION, hop, 0,
        xasprintf("%s offers HTTP/3 (Alt-Svc h3%s%s) that this run did "
                  "not measure",
                  h->info->host ? h->info->host : "the server", port, ma),
        xasprintf("the hop used HTTP/%s; measure both with --protocols "
                  "h2,h3 (paired, interleaved): QUIC sets up a new "
                  "connection in one round trip less than TCP and TLS 1.3",
                  h->info->http_version ? h->info->http_version : "?"));
    return;
  }
  {
    const struct compare_result *v = &best->phases[SUM_TOTAL];
    const char *who = p->targets[best->target].name;
    int faster = v->verdict == COMPARE_FASTER;

    add(b, FINDING_HTTP_VERSION, hop, faster ? -v->median_diff_us : 0,
        xasprintf("%s offers HTTP/3 (Alt-Svc h3%s%s); measured in %s mode, "
                  "%s is %s",
                  h->info->host ? h->info->host : "the server", port, ma,
                  sample_mode_names[best->mode], who,
                  faster                         ? "faster"
                  : v->verdict == COMPARE_SLOWER ? "slower"
                                                 : "not clearly faster"),
        h->tls->library
            ? xasprintf("%s against %s: %s median paired difference over "
                        "%zu rounds (95 %% interval %s to %s); both legs' "
                        "TLS is GnuTLS (%s): like for like",
                        who, p->targets[t].name,
                        d(a1, sizeof(a1), v->median_diff_us), v->n_pairs,
                        d(a2, sizeof(a2), v->ci_low_us),
                        d(a3, sizeof(a3), v->ci_high_us), h->tls->library)
            : xasprintf("%s against %s: %s median paired difference over "
                        "%zu rounds (95 %% interval %s to %s); the TLS of "
                        "%s is GnuTLS (libcurl-gnutls), of %s OpenSSL (the "
                        "linked libcurl), whose local handshake costs "
                        "differ",
                        who, p->targets[t].name,
                        d(a1, sizeof(a1), v->median_diff_us), v->n_pairs,
                        d(a2, sizeof(a2), v->ci_low_us),
                        d(a3, sizeof(a3), v->ci_high_us), who,
                        p->targets[t].name));
  }
}

static void warm_idle_finding(struct fb *b, size_t t, const struct results *r)
{
  int64_t *idle, *tot, *lo, *hi, med_idle, dlo, dhi;
  size_t i, n = 0, nl = 0, nh = 0;
  double rho;
  char a[32], c[32], e[32], f[32];

  for (i = 0; i < r->n; i++)
    if (r->samples[i].target == t && r->samples[i].mode == MODE_WARM &&
        r->samples[i].ok && r->samples[i].idle_us >= 0)
      n++;
  if (n < COMPARE_DRIFT_MIN_N)
    return;
  idle = xmalloc(n * sizeof(*idle));
  tot = xmalloc(n * sizeof(*tot));
  lo = xmalloc(n * sizeof(*lo));
  hi = xmalloc(n * sizeof(*hi));
  n = 0;
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target == t && s->mode == MODE_WARM && s->ok && s->idle_us >= 0) {
      idle[n] = s->idle_us;
      tot[n] = s->total_us;
      n++;
    }
  }
  rho = compare_spearman(idle, tot, n);
  med_idle = compare_median(idle, n);
  for (i = 0; i < n; i++) {
    if (idle[i] > med_idle)
      hi[nh++] = tot[i];
    else
      lo[nl++] = tot[i];
  }
  if (nl && nh && rho > 0 && compare_drift_warning(rho, n)) {
    dlo = compare_median(lo, nl);
    dhi = compare_median(hi, nh);
    if (compare_drift_matters(dhi - dlo, dlo))
      add(b, FINDING_WARM_IDLE, 0, 0,
          xasprintf("warm totals depend on how long the connection sat "
                    "idle: %s after idling more than %s, %s after less "
                    "(Spearman rho %.2f)",
                    d(a, sizeof(a), dhi), d(c, sizeof(c), med_idle),
                    d(e, sizeof(e), dlo), rho),
          xasprintf(
              "TCP restarts slow start on a connection idle for "
              "longer than its retransmission timeout (Linux: "
              "net.ipv4.tcp_slow_start_after_idle), so the body takes "
              "more round trips after a pause; the idle time grows "
              "with --pause and with the number of targets and modes "
              "in a round. The warm median (%s) describes a client "
              "that reuses connections after about that idle time",
              d(f, sizeof(f), b->ta->modes[MODE_WARM].phases[SUM_TOTAL].p50)));
  }
  free(idle);
  free(tot);
  free(lo);
  free(hi);
}

/* --- the transport's findings (hopsplit(1) TRANSPORT) ------------------- */

/* The median (nearest rank) of fn(hop k) over the target's samples of mode
 * m that go into the statistics, where fn knows it; -1 when none does.
 * *n is how many did. */
static int64_t hop_median(const struct fb *b, enum sample_mode m, size_t k,
                          int64_t (*fn)(const struct fb *, const struct hop *),
                          size_t *n)
{
  const struct results *r = b->res;
  int keep = b->plan && b->plan->opts ? b->plan->opts->keep_interfered : 0;
  int64_t *v, med = -1;
  size_t i, c = 0;

  *n = 0;
  if (!r || !r->n)
    return -1;
  v = xmalloc(r->n * sizeof(*v));
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];
    int64_t x;

    if (s->target != b->t || s->mode != m || !sample_counted(s, keep) ||
        k >= s->n_hops)
      continue;
    x = fn(b, &s->hops[k]);
    if (x >= 0)
      v[c++] = x;
  }
  if (c) {
    stats_sort(v, c);
    med = stats_percentile(v, c, 50);
  }
  free(v);
  *n = c;
  return med;
}

static int64_t v_server(const struct fb *b, const struct hop *h)
{
  (void)b;
  return hop_server_us(h);
}

static int64_t v_min_rtt(const struct fb *b, const struct hop *h)
{
  (void)b;
  return h->tcp_valid ? h->tcp.min_rtt_us : -1;
}

/* The median sample of mode m, or NULL. */
static const struct sample *mode_rep(const struct fb *b, enum sample_mode m)
{
  const struct mode_summary *ms = &b->ta->modes[m];

  if (!b->res || !ms->present || ms->median_sample < 0 ||
      (size_t)ms->median_sample >= b->res->n)
    return NULL;
  return &b->res->samples[ms->median_sample];
}

/*
 * Server wait, in every mode: per hop, the median server_us (its wait less
 * the kernel's minimum round trip of its connection) of each mode; a hop
 * whose server time is at least 5 ms and 30 % of a mode's median total is
 * a finding (basis: measured).  Cold first: then it removes that part of
 * the median cold sample's wait; in warm or resumed alone it is not a part
 * of the cold total.  Returns whether any hop had a server time, so the
 * connect-based estimate stands in for runs without TCP facts (QUIC).
 */
static int transport_wait_finding(struct fb *b)
{
  static const enum sample_mode order[] = {MODE_COLD, MODE_WARM, MODE_RESUMED};
  const struct sample *shape = b->rep;
  int any = 0;
  size_t k, i;

  for (i = 0; !shape && i < 3; i++)
    shape = mode_rep(b, order[i]);
  for (k = 0; shape && k < shape->n_hops; k++) {
    int64_t srv[MODE_COUNT], tot[MODE_COUNT], rtt = -1;
    size_t n[MODE_COUNT], nr = 0;
    int pick = -1;
    struct buf det;
    const char *st = NULL;
    char a[32], c[32];
    struct finding *f;

    for (i = 0; i < 3; i++) {
      enum sample_mode m = order[i];
      const struct mode_summary *ms = &b->ta->modes[m];

      srv[m] = ms->present ? hop_median(b, m, k, v_server, &n[m]) : -1;
      tot[m] = ms->present && ms->n_ok ? ms->phases[SUM_TOTAL].p50 : 0;
      if (srv[m] >= 0)
        any = 1;
      if (pick < 0 && srv[m] >= 5000 && pct(srv[m], tot[m]) >= 30)
        pick = (int)m;
      if (rtt < 0 && srv[m] >= 0)
        rtt = hop_median(b, m, k, v_min_rtt, &nr);
    }
    if (pick < 0)
      continue;
    buf_init(&det, 0);
    buf_printf(&det,
               "hop %zu's server time is its wait less one minimum round "
               "trip of its connection, as the kernel measured it (%s): "
               "median",
               k + 1, d(c, sizeof(c), rtt));
    for (i = 0; i < 3; i++)
      if (srv[order[i]] >= 0)
        buf_printf(&det, "%s %s %s over %zu %s sample%s",
                   i && srv[order[0]] >= 0 ? "," : "",
                   d(a, sizeof(a), srv[order[i]]), sample_mode_names[order[i]],
                   n[order[i]], sample_mode_names[order[i]],
                   n[order[i]] == 1 ? "" : "s");
    if (k < shape->n_hops)
      st = hop_header(&shape->hops[k], "server-timing");
    if (st)
      buf_printf(&det, "; the server says (Server-Timing): %s", st);
    else
      buf_puts(&det, "; it sends no Server-Timing to say where it goes");
    if (pick == MODE_COLD && b->rep && k < b->rep->n_hops) {
      int64_t *rm = new_rm(b);

      rm[cell(k, PHASE_WAIT)] = srv[MODE_COLD];
      f = add_parts(b, FINDING_SERVER_WAIT, (int)k + 1, rm,
                    xasprintf("server wait dominates: hop %zu's server takes "
                              "%s (%d %% of the cold total)",
                              k + 1, d(a, sizeof(a), srv[MODE_COLD]),
                              pct(srv[MODE_COLD], tot[MODE_COLD])),
                    buf_detach(&det));
    }
    else {
      f = add_finding(b, FINDING_SERVER_WAIT, (int)k + 1, srv[pick],
                      xasprintf("server wait dominates: hop %zu's server "
                                "takes %s (%d %% of the %s total)",
                                k + 1, d(a, sizeof(a), srv[pick]),
                                pct(srv[pick], tot[pick]),
                                sample_mode_names[pick]),
                      buf_detach(&det));
    }
    f->basis = FINDING_BASIS_MEASURED;
  }
  return any;
}

/* The body size the payload finding prices for hop h: --payload-size,
 * else what arrived in its first round; 0 when h has no rounds. */
static int64_t payload_size(const struct fb *b, const struct hop *h)
{
  if (!h->tcp_valid || hop_rounds_kept(h) < 2)
    return 0;
  if (b->plan && b->plan->opts && b->plan->opts->payload_size > 0)
    return b->plan->opts->payload_size;
  return h->tcp.flow->rounds[0].bytes;
}

/* What a body of payload_size bytes would have saved on this hop: the
 * time from when that many bytes had arrived to the last byte. */
static int64_t v_payload(const struct fb *b, const struct hop *h)
{
  int64_t x = payload_size(b, h), at, end;
  size_t n = hop_rounds_kept(h);

  if (x <= 0)
    return -1;
  at = tcp_rounds_time_for(h->tcp.flow->rounds, n, x);
  end = h->tcp.flow->rounds[n - 1].start_us + h->tcp.flow->rounds[n - 1].us;
  if (at < 0)
    return 0; /* the body is that small already */
  return end > at ? end - at : 0;
}

/*
 * The body, from its rounds: what a body of the chosen size (--payload-size,
 * default what arrived in the first round) would take on this very
 * connection, from when that many bytes had arrived (its round trips and
 * its window's growth as measured) to the last byte; the saving is the
 * median of that over the cold samples (basis: rounds).  Returns 0 when the
 * final hop has no rounds, so the throughput estimate stands in.
 */
static int rounds_payload_finding(struct fb *b)
{
  const struct sample *rep = b->rep;
  const struct hop *last;
  size_t k, n = 0;
  int64_t saving, xfer, size, x, *rm;
  char a[32], sv[32], sz[UNITS_FMT_SIZE], xs[UNITS_FMT_SIZE], rt[32];
  char fr[UNITS_FMT_SIZE];
  struct finding *f;

  if (!rep || rep->mode != MODE_COLD || rep->total_us <= 0)
    return 0;
  k = rep->n_hops - 1;
  last = &rep->hops[k];
  x = payload_size(b, last);
  if (x <= 0)
    return 0;
  saving = hop_median(b, MODE_COLD, k, v_payload, &n);
  if (saving < 0 || !n)
    return 0;
  xfer = last->phases[PHASE_TRANSFER];
  size = last->info->size_download;
  if (x >= size)
    return 1; /* as small as asked already: nothing to save */
  units_format_bytes(size, sz, sizeof(sz));
  units_format_bytes(x, xs, sizeof(xs));
  units_format_bytes(last->tcp.flow->rounds[0].bytes, fr, sizeof(fr));
  rm = new_rm(b);
  rm[cell(k, PHASE_TRANSFER)] = saving;
  f = add_parts(
      b, FINDING_PAYLOAD, (int)k + 1, rm,
      xasprintf("the body, %s in %u round%s, takes %s (%d %% of the cold "
                "total): a body of %s would save about %s",
                sz, (unsigned)last->tcp.flow->n_rounds,
                last->tcp.flow->n_rounds == 1 ? "" : "s",
                d(a, sizeof(a), xfer), pct(xfer, rep->total_us), xs,
                d(sv, sizeof(sv), saving)),
      xasprintf("on this connection (minimum RTT %s) the first %s arrived "
                "in the first round; a body of %s%s would arrive when that "
                "many bytes of this one had, %s before its last byte "
                "(median over %zu cold sample%s): its cost is its round "
                "trips, not its bytes at the last round's rate. %s",
                d(rt, sizeof(rt), last->tcp.min_rtt_us), fr, xs,
                b->plan && b->plan->opts && b->plan->opts->payload_size > 0
                    ? " (--payload-size)"
                    : " (what fits the first round; --payload-size chooses "
                      "another)",
                d(sv, sizeof(sv), saving), n, n == 1 ? "" : "s",
                pct(xfer, rep->total_us) >= 50
                    ? "Compress or shrink the body (a thumbnail, a smaller "
                      "format), or send it from closer to the client"
                    : "Most of the time goes to the phases before the first "
                      "byte"));
  f->basis = FINDING_BASIS_ROUNDS;
  return 1;
}

/* Round trips in which nothing of the body arrived: each gap between two
 * rounds' starts of more than 1.5 round trips holds round(gap / rtt) - 1
 * (a lost flight waits for its retransmission). */
static uint32_t silent_rounds(const struct hop *h, int64_t rtt)
{
  size_t i, n = hop_rounds_kept(h);
  uint32_t extra = 0;

  for (i = 1; i < n; i++) {
    int64_t gap =
        h->tcp.flow->rounds[i].start_us - h->tcp.flow->rounds[i - 1].start_us;

    if (2 * gap > 3 * rtt)
      extra += (uint32_t)((gap + rtt / 2) / rtt - 1);
  }
  return extra;
}

/*
 * Loss that cost rounds: a hop of the median cold sample whose connection
 * retransmitted or received segments out of order, and whose body had
 * round trips in which nothing arrived (its rounds more than 1.5 minimum
 * RTTs apart): each such round trip is one minimum RTT of its transfer.
 */
static void loss_finding(struct fb *b)
{
  const struct sample *rep = b->rep;
  size_t k;

  for (k = 0; rep && k < rep->n_hops; k++) {
    const struct hop *h = &rep->hops[k];
    const struct hop_tcp *t = &h->tcp;
    int64_t retr, ooo, cost, *rm;
    uint32_t extra;
    char a[32], r[32];
    struct finding *f;

    if (!h->tcp_valid || t->min_rtt_us <= 0 || hop_rounds_kept(h) < 2)
      continue;
    retr = t->retransmits > 0 ? t->retransmits : 0;
    ooo = t->rcv_ooopack > 0 ? t->rcv_ooopack : 0;
    if (!retr && !ooo)
      continue;
    extra = silent_rounds(h, t->min_rtt_us);
    if (!extra)
      continue;
    cost = (int64_t)extra * t->min_rtt_us;
    rm = new_rm(b);
    rm[cell(k, PHASE_TRANSFER)] = cost;
    f = add_parts(
        b, FINDING_LOSS, (int)k + 1, rm,
        xasprintf("hop %zu lost segments: %lld retransmitted, %lld out of "
                  "order, %u round trip%s with nothing of the body",
                  k + 1, (long long)retr, (long long)ooo, (unsigned)extra,
                  extra == 1 ? "" : "s"),
        xasprintf("the kernel counted %lld segment%s sent again (loss on "
                  "the way out) and %lld received out of order (loss on "
                  "the way in); the body's rounds had %u round trip%s of %s "
                  "in which nothing arrived, about %s. Loss on the path "
                  "(Wi-Fi, a congested link) costs round trips, not bytes",
                  (long long)retr, retr == 1 ? "" : "s", (long long)ooo,
                  (unsigned)extra, extra == 1 ? "" : "s",
                  d(r, sizeof(r), t->min_rtt_us), d(a, sizeof(a), cost)));
    f->basis = FINDING_BASIS_ROUNDS;
  }
}

/* A finding that estimates no saving by design: listed whatever its
 * size. */
static int informational(const struct finding *f)
{
  return f->kind == FINDING_NOISE || f->kind == FINDING_WARM_IDLE ||
         f->kind == FINDING_HTTP_VERSION ||
         f->basis == FINDING_BASIS_UNCERTAIN;
}

/* Leave out the savings below the documented floor (hopsplit(1) FINDINGS):
 * under FINDING_FLOOR_US or under FINDING_FLOOR_PCT % of the median cold
 * total (of the median total of the first mode without a cold one): a
 * 1.4 ms saving in a 4.2 s request is not worth a line. */
static void drop_below_floor(struct fb *b)
{
  struct target_analysis *ta = b->ta;
  int64_t total = ta->cold_total_us;
  size_t i, n = 0;
  int m;

  for (m = 0; m < MODE_COUNT && total <= 0; m++)
    if (ta->modes[m].present && ta->modes[m].n_ok)
      total = ta->modes[m].phases[SUM_TOTAL].p50;
  for (i = 0; i < ta->n_findings; i++) {
    struct finding *f = &ta->findings[i];

    if (!informational(f) &&
        (f->saving_us < FINDING_FLOOR_US ||
         f->saving_us * 100 < total * FINDING_FLOOR_PCT)) {
      finding_release(f);
      free(b->rm[i]);
      continue;
    }
    b->rm[n] = b->rm[i];
    ta->findings[n++] = *f;
  }
  ta->n_findings = n;
}

static int cmp_rank(const void *x, const void *y, const struct finding *v)
{
  const struct finding *a = &v[*(const size_t *)x],
                       *b = &v[*(const size_t *)y];

  if (a->saving_us != b->saving_us)
    return a->saving_us > b->saving_us ? -1 : 1;
  if (a->kind != b->kind)
    return (int)a->kind - (int)b->kind;
  return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* Ranks findings[] by saving (stable, insertion sort: there are few),
 * keeping rm[] in step. */
static void rank(struct fb *b)
{
  struct target_analysis *ta = b->ta;
  size_t n = ta->n_findings, i, j;
  size_t *ord = xcalloc(n ? n : 1, sizeof(*ord));
  struct finding *f = xcalloc(n ? n : 1, sizeof(*f));
  int64_t **rm = xcalloc(n ? n : 1, sizeof(*rm));

  for (i = 0; i < n; i++)
    ord[i] = i;
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && cmp_rank(&ord[j - 1], &ord[j], ta->findings) > 0;
         j--) {
      size_t tmp = ord[j];

      ord[j] = ord[j - 1];
      ord[j - 1] = tmp;
    }
  for (i = 0; i < n; i++) {
    f[i] = ta->findings[ord[i]];
    rm[i] = b->rm[ord[i]];
  }
  free(ta->findings);
  free(b->rm);
  ta->findings = f;
  b->rm = rm;
  free(ord);
}

static size_t uf_find(size_t *parent, size_t i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

void findings_group(struct target_analysis *ta, int64_t **rm, size_t n_cells)
{
  size_t n = ta->n_findings, i, j, c;
  size_t *parent = xcalloc(n ? n : 1, sizeof(*parent));
  int *id = xcalloc(n ? n : 1, sizeof(*id));
  size_t *size = xcalloc(n ? n : 1, sizeof(*size));
  int next = 0;

  for (i = 0; i < n; i++)
    parent[i] = i;
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      if (!rm[i] || !rm[j])
        continue;
      for (c = 0; c < n_cells; c++)
        if (rm[i][c] > 0 && rm[j][c] > 0)
          break;
      if (c < n_cells) {
        size_t a = uf_find(parent, i), b = uf_find(parent, j);

        if (a != b)
          parent[a < b ? b : a] = a < b ? a : b;
      }
    }
  for (i = 0; i < n; i++)
    size[uf_find(parent, i)]++;
  ta->nonoverlap_us = 0;
  for (i = 0; i < n; i++) {
    size_t root = uf_find(parent, i);
    struct finding_group *g;

    if (!ta->findings[i].of_total)
      continue;
    if (size[root] < 2) {
      ta->nonoverlap_us += ta->findings[i].saving_us;
      continue;
    }
    if (!id[root]) {
      id[root] = ++next;
      ta->groups =
          xrealloc(ta->groups, (ta->n_groups + 1) * sizeof(*ta->groups));
      g = &ta->groups[ta->n_groups++];
      g->id = id[root];
      g->n_members = size[root];
      g->saving_us = 0;
      /* Per part, the most any member removes. */
      for (c = 0; c < n_cells; c++) {
        int64_t best = 0;

        for (j = 0; j < n; j++)
          if (rm[j] && uf_find(parent, j) == root && rm[j][c] > best)
            best = rm[j][c];
        g->saving_us += best;
      }
      ta->nonoverlap_us += g->saving_us;
    }
    ta->findings[i].group = id[root];
  }
  free(parent);
  free(id);
  free(size);
}

/* The media type of a hop's Content-Type without parameters, into out
 * ("" without one). */
static void media_type(const struct hop *h, char *out, size_t len)
{
  const char *ct = hop_header(h, "content-type");

  while (ct && *ct == ' ')
    ct++;
  snprintf(out, len, "%.*s", ct ? (int)strcspn(ct, "; ") : 0, ct ? ct : "");
}

/*
 * Savings that can be had together, checked against the run: among the
 * other targets whose median cold sample ends in a body of the same size
 * (within 1 %) and type, the one the cold paired comparison shows
 * removing the most from this target, when that is faster at all.  It
 * kept the body, so what it
 * removed is comparable with what the findings that keep it too (all but
 * payload) remove together: per part of the median sample the most any
 * of them removes.  They agree when that is within the alternative's
 * interval, widened by 20 % (SPEC 8's bound for savings) and 1 ms; where
 * not, the first such finding says so.
 */
static void alternative_check(struct fb *b, const struct plan *p,
                              const struct results *r, size_t t)
{
  struct target_analysis *ta = b->ta;
  struct finding_check *ck = &ta->check;
  const struct hop *last;
  char mt[64], a1[32], a2[32], a3[32], a4[32];
  size_t u, i, c;
  int64_t sum = 0;

  memset(ck, 0, sizeof(*ck));
  if (!b->rep)
    return;
  last = &b->rep->hops[b->rep->n_hops - 1];
  media_type(last, mt, sizeof(mt));
  for (u = 0; u < b->an->n_targets; u++) {
    const struct mode_summary *uc = &b->an->targets[u].modes[MODE_COLD];
    const struct comparison *cmp;
    const struct sample *us;
    const struct hop *ul;
    char umt[64];
    int flipped = 0;
    int64_t saving, lo, hi, diff;

    if (u == t || !uc->present || uc->median_sample < 0)
      continue;
    us = &r->samples[uc->median_sample];
    if (!us->n_hops)
      continue;
    ul = &us->hops[us->n_hops - 1];
    media_type(ul, umt, sizeof(umt));
    diff = ul->info->size_download - last->info->size_download;
    if (last->info->size_download <= 0 || strcasecmp(umt, mt) ||
        (diff < 0 ? -diff : diff) * 100 > last->info->size_download)
      continue;
    cmp = analysis_find_comparison(b->an, u, t, MODE_COLD, &flipped);
    if (!cmp || !cmp->phases[SUM_TOTAL].n_pairs)
      continue;
    /* cmp is u - t, or t - u when flipped: the saving is t - u. */
    if (flipped) {
      saving = cmp->phases[SUM_TOTAL].median_diff_us;
      lo = cmp->phases[SUM_TOTAL].ci_low_us;
      hi = cmp->phases[SUM_TOTAL].ci_high_us;
    }
    else {
      saving = -cmp->phases[SUM_TOTAL].median_diff_us;
      lo = -cmp->phases[SUM_TOTAL].ci_high_us;
      hi = -cmp->phases[SUM_TOTAL].ci_low_us;
    }
    if (!ck->present || saving > ck->measured_us) {
      ck->present = 1;
      ck->alternative = u;
      ck->measured_us = saving;
      ck->ci_low_us = lo;
      ck->ci_high_us = hi;
    }
  }
  /* An alternative that is not faster shows nothing a change could
   * remove: no check. */
  if (!ck->present || ck->measured_us <= 0) {
    memset(ck, 0, sizeof(*ck));
    return;
  }
  for (c = 0; c < b->n_cells; c++) {
    int64_t m = 0;

    for (i = 0; i < ta->n_findings; i++)
      if (b->rm[i] && ta->findings[i].of_total &&
          ta->findings[i].kind != FINDING_PAYLOAD && b->rm[i][c] > m)
        m = b->rm[i][c];
    sum += m;
  }
  ck->savings_us = sum;
  ck->body_bytes = last->info->size_download;
  ck->agrees = sum >= ck->ci_low_us - ck->ci_low_us / 5 - 1000 &&
               sum <= ck->ci_high_us + ck->ci_high_us / 5 + 1000;
  if (ck->agrees)
    return;
  /* The first finding that keeps the body says so. */
  for (i = 0; i < ta->n_findings; i++) {
    struct finding *f = &ta->findings[i];
    char *more;

    if (!f->of_total || f->kind == FINDING_PAYLOAD)
      continue;
    more = xasprintf(
        "%s. Checked against the run: %s, the same body, removed %s (95 %% "
        "interval %s to %s), while the findings that keep the body remove "
        "%s together: %s",
        f->detail, p->targets[ck->alternative].name,
        d(a1, sizeof(a1), ck->measured_us), d(a2, sizeof(a2), ck->ci_low_us),
        d(a3, sizeof(a3), ck->ci_high_us), d(a4, sizeof(a4), sum),
        sum > ck->ci_high_us
            ? "they promise more than that alternative delivered, so part of "
              "it rests on a change no alternative of this run made"
            : "the alternative removed more than they explain");
    free(f->detail);
    f->detail = more;
    break;
  }
}

void findings_build(const struct plan *p, const struct results *r,
                    struct analysis *a, size_t t)
{
  struct target_analysis *ta = &a->targets[t];
  struct fb b;

  memset(&b, 0, sizeof(b));
  b.ta = ta;
  b.an = a;
  if (ta->modes[MODE_COLD].present && ta->modes[MODE_COLD].median_sample >= 0)
    b.rep = &r->samples[ta->modes[MODE_COLD].median_sample];
  /* A median sample without hops (a saved document may hold one) stands
   * for nothing. */
  if (b.rep && !b.rep->n_hops)
    b.rep = NULL;
  b.n_cells = b.rep ? b.rep->n_hops * CELLS_PER_HOP + 1 : 0;
  b.plan = p;
  b.res = r;
  b.t = t;
  ta->cold_total_us = b.rep ? b.rep->total_us : 0;
  redirect_finding(&b);
  cache_findings(&b);
  edge_findings(&b, a);
  connection_finding(&b);
  resumption_finding(&b, t, r);
  if (!transport_wait_finding(&b))
    wait_finding(&b);
  dns_finding(&b);
  if (!rounds_payload_finding(&b))
    payload_finding(&b);
  loss_finding(&b);
  noise_finding(&b, a, t);
  warm_idle_finding(&b, t, r);
  http_version_finding(&b, p, t);
  drop_below_floor(&b);
  rank(&b);
  findings_group(ta, b.rm, b.n_cells);
  alternative_check(&b, p, r, t);
  /* Kept for the projection (projection.c), freed with the analysis. */
  ta->removes = b.rm;
  ta->n_removes = ta->n_findings;
  ta->n_cells = b.n_cells;
}
