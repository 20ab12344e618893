/*
 * findings.c: why a target is slow, as a ranked list (SPEC 4.3).  Input:
 * the plan, results and the rest of the analysis of one target.  Output:
 * struct finding entries, each with the evidence in words and a saving
 * estimated from measured medians, largest saving first.  Pure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "buf.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

const char *const finding_kind_names[FINDING_COUNT] = {
    "redirect",       "cache",   "distant-edge", "connections",
    "tls-resumption", "payload", "server-wait",  "dns",
    "http-version",   "noise"};

void finding_release(struct finding *f)
{
  free(f->title);
  free(f->detail);
  memset(f, 0, sizeof(*f));
}

static void add(struct target_analysis *ta, enum finding_kind kind, int hop,
                int64_t saving, char *title, char *detail)
{
  struct finding *f;

  ta->findings =
      xrealloc(ta->findings, (ta->n_findings + 1) * sizeof(*ta->findings));
  f = &ta->findings[ta->n_findings++];
  f->kind = kind;
  f->hop = hop;
  f->saving_us = saving > 0 ? saving : 0;
  f->title = title;
  f->detail = detail;
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

/* About one round trip to the server of hop k: its cold connect time, or
 * that of the first hop when hop k reused a connection. */
static int64_t rtt_us(const struct mode_summary *cold, size_t k)
{
  int64_t v = hop_p50(cold, k, PHASE_CONNECT);

  return v > 0 ? v : hop_p50(cold, 0, PHASE_CONNECT);
}

static void redirect_finding(struct target_analysis *ta,
                             const struct sample *rep)
{
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  const struct mode_summary *warm = &ta->modes[MODE_WARM];
  int64_t cost = cold->phases[SUM_REDIRECT].p50;
  char a[32], b[32];
  struct buf det;
  size_t k;

  if (!rep || rep->n_hops < 2 || cost <= 0)
    return;
  buf_init(&det, 0);
  for (k = 0; k + 1 < rep->n_hops; k++)
    buf_printf(&det, "%shop %zu answers %ld from %s", k ? ", " : "", k + 1,
               rep->hops[k].status,
               rep->hops[k].host ? rep->hops[k].host : "?");
  buf_printf(&det,
             "; the final hop %zu to %s can only start after it. Link or "
             "serve the final URL directly",
             rep->n_hops,
             rep->hops[rep->n_hops - 1].host ? rep->hops[rep->n_hops - 1].host
                                             : "?");
  if (warm->present && warm->n_ok)
    buf_printf(&det, " (warm, the redirect still costs %s)",
               d(b, sizeof(b), warm->phases[SUM_REDIRECT].p50));
  add(ta, FINDING_REDIRECT, 1, cost,
      xasprintf("%s costs %s (%d %% of the cold total)",
                rep->n_hops > 2 ? "the redirects" : "the redirect hop",
                d(a, sizeof(a), cost), pct(cost, cold->phases[SUM_TOTAL].p50)),
      buf_detach(&det));
}

static void cache_findings(struct target_analysis *ta)
{
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  size_t k, i;

  for (k = 0; k < ta->n_cache; k++) {
    const struct cache_hop *ch = &ta->cache[k];
    enum cache_verdict v = ch->result.verdict;
    int64_t saving;
    struct buf det;
    char a[32];
    int served = 0, w;

    /* A MISS was stored (a later request may hit), and a hop that some
     * sample had from a cache is cached: neither is "not cached". */
    for (w = 0; w < CACHE_VERDICT_COUNT; w++)
      if (cache_verdict_served_from_cache((enum cache_verdict)w))
        served += ch->counts.n[w];
    if (!cache_verdict_not_cacheable(v) || served)
      continue;
    /* Served from the edge's cache, the wait would be about one round
     * trip to the edge instead of a trip on to the origin. */
    saving = hop_p50(cold, k, PHASE_WAIT) - rtt_us(cold, k);
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
    add(ta, FINDING_CACHE, (int)k + 1, saving,
        xasprintf("hop %zu (%s) is not cached at the edge: %s", k + 1,
                  ch->host ? ch->host : "?", cache_verdict_names[v]),
        buf_detach(&det));
  }
}

static void edge_findings(struct target_analysis *ta)
{
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  size_t k;

  for (k = 0; k < ta->n_edge; k++) {
    const struct edge_result *e = &ta->edge[k];
    double near_floor = 0, per_rtt;
    int rtts;
    int64_t saving;
    struct buf det;

    if (e->distant != 1)
      continue;
    if (!isnan(e->nearest_km))
      near_floor = edge_floor_rtt_ms(e->nearest_km);
    /* A round trip costs at least the floor to this edge; served from the
     * nearest edge it would cost about the floor to that one. */
    per_rtt = !isnan(e->floor_rtt_ms) ? e->floor_rtt_ms : 0;
    if (!isnan(e->connect_p50_ms) && e->connect_p50_ms > per_rtt)
      per_rtt = e->connect_p50_ms;
    per_rtt -= near_floor;
    /* A cold hop waits for TCP, for TLS and for the response: about three
     * round trips over TLS, two without. */
    rtts = hop_p50(cold, k, PHASE_TLS) > 0 ? 3 : 2;
    saving = (int64_t)llround(per_rtt * rtts * 1000.0);
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
    if (e->nearest)
      buf_printf(&det, "; %s is %.0f km from the client", e->nearest,
                 e->nearest_km);
    buf_printf(&det,
               ". Served from a nearby edge, about %d round trips of "
               "a cold request get shorter",
               rtts);
    add(ta, FINDING_DISTANT_EDGE, (int)k + 1, saving,
        xasprintf("hop %zu is served from a distant edge: %s (%s%s%s), "
                  "%.0f km away",
                  k + 1, e->pop ? e->pop : "?", e->city ? e->city : "?",
                  e->country ? ", " : "", e->country ? e->country : "",
                  e->distance_km),
        buf_detach(&det));
  }
}

static void connection_finding(struct target_analysis *ta,
                               const struct sample *rep)
{
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  const struct mode_summary *warm = &ta->modes[MODE_WARM];
  size_t k, j, conns = 0, hosts = 0;
  int64_t saving;
  char a[32], b[32];
  struct buf det;

  if (!rep || rep->mode != MODE_COLD || !warm->present || !warm->n_ok)
    return;
  for (k = 0; k < rep->n_hops; k++) {
    int seen = 0;

    if (rep->hops[k].reused)
      continue;
    conns++;
    for (j = 0; j < k; j++)
      if (!rep->hops[j].reused && rep->hops[j].host && rep->hops[k].host &&
          !strcmp(rep->hops[j].host, rep->hops[k].host))
        seen = 1;
    if (!seen)
      hosts++;
  }
  saving = cold->phases[SUM_TOTAL].p50 - warm->phases[SUM_TOTAL].p50;
  if (!conns || saving <= 0)
    return;
  buf_init(&det, 0);
  buf_printf(&det, "cold, DNS + TCP + TLS take %s of %s",
             d(a, sizeof(a),
               cold->phases[SUM_DNS].p50 + cold->phases[SUM_CONNECT].p50 +
                   cold->phases[SUM_TLS].p50),
             d(b, sizeof(b), cold->phases[SUM_TOTAL].p50));
  buf_puts(&det, "; keep connections open and reuse them");
  if (hosts > 1)
    buf_puts(&det, ", e.g. share one connection pool between the hosts of "
                   "this request (or serve them from one host name)");
  add(ta, FINDING_CONNECTIONS, 0, saving,
      xasprintf("cold requests open %zu connection%s to %zu host%s; warm "
                "ones reuse them and are %s faster",
                conns, conns == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s",
                d(a, sizeof(a), saving)),
      buf_detach(&det));
}

/*
 * Resumption that does not happen (issue 17): the hops say whether the
 * client offered a session (tls.offered) and, when not, why
 * (tls.not_offered); a session offered and not resumed is the server's
 * refusal.  Runs read back from an older document have no offer facts:
 * then the finding cannot tell the two apart and says so.
 */
static void resumption_finding(struct target_analysis *ta, size_t t,
                               const struct results *r)
{
  const struct mode_summary *res = &ta->modes[MODE_RESUMED];
  size_t i, k, tls_hops = 0, resumed = 0, offered = 0, refused = 0;
  size_t unknown = 0;
  const char *why = NULL;
  int64_t saving;
  char a[32];
  struct buf det;

  if (!res->present || !res->n_ok)
    return;
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->target != t || s->mode != MODE_RESUMED || !s->ok)
      continue;
    for (k = 0; k < s->n_hops; k++) {
      const struct hop *h = &s->hops[k];

      if (h->reused || !h->tls.version)
        continue;
      tls_hops++;
      resumed += h->tls.resumed == 1;
      if (h->tls.offered < 0) {
        unknown++;
        continue;
      }
      offered += h->tls.offered == 1;
      refused += h->tls.offered == 1 && h->tls.resumed != 1;
      if (h->tls.offered == 0 && h->tls.not_offered && !why)
        why = h->tls.not_offered;
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
  add(ta, FINDING_TLS_RESUMPTION, 0, saving,
      xasprintf("TLS sessions are not resumed: %zu of %zu new TLS "
                "connections resumed (%zu offered a session)",
                resumed, tls_hops, offered),
      buf_detach(&det));
}

static void payload_finding(struct target_analysis *ta,
                            const struct sample *rep)
{
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  int64_t xfer = cold->phases[SUM_TRANSFER].p50;
  int64_t total = cold->phases[SUM_TOTAL].p50;
  const struct hop *last;
  char a[32], sz[32];
  int share;

  if (!rep || rep->mode != MODE_COLD || !cold->n_ok || total <= 0)
    return;
  last = &rep->hops[rep->n_hops - 1];
  units_format_bytes(last->size_download, sz, sizeof(sz));
  share = pct(xfer, total);
  if (share >= 50)
    add(ta, FINDING_PAYLOAD, (int)rep->n_hops, xfer,
        xasprintf("the body transfer is %d %% of the cold total (%s)", share,
                  d(a, sizeof(a), xfer)),
        xasprintf("%s received; compress or shrink the body, or send it "
                  "from closer to the client",
                  sz));
  else
    add(ta, FINDING_PAYLOAD, (int)rep->n_hops, xfer,
        xasprintf("the body transfer is only %d %% of the cold total: "
                  "shrinking it saves at most %s",
                  share, d(a, sizeof(a), xfer)),
        xasprintf("%s received in %s; the time goes to the phases before "
                  "the first byte",
                  sz, d(a, sizeof(a), xfer)));
}

static void wait_finding(struct target_analysis *ta, const struct sample *rep)
{
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  size_t k;
  int64_t wait, server, total = cold->phases[SUM_TOTAL].p50;
  const char *st;
  char a[32];

  if (!rep || rep->mode != MODE_COLD || !cold->n_ok)
    return;
  k = rep->n_hops - 1;
  wait = hop_p50(cold, k, PHASE_WAIT);
  server = wait - rtt_us(cold, k);
  if (server < 5000 || pct(server, total) < 30)
    return;
  st = hop_header(&rep->hops[k], "server-timing");
  add(ta, FINDING_SERVER_WAIT, (int)k + 1, server,
      xasprintf("server wait dominates: %s beyond one round trip (%d %% of "
                "the cold total)",
                d(a, sizeof(a), server), pct(server, total)),
      st ? xasprintf("hop %zu waits %s for its first byte; Server-Timing: %s",
                     k + 1, d(a, sizeof(a), wait), st)
         : xasprintf("hop %zu waits %s for its first byte and sends no "
                     "Server-Timing to say where it goes",
                     k + 1, d(a, sizeof(a), wait)));
}

static void dns_finding(struct target_analysis *ta, const struct sample *rep)
{
  const struct mode_summary *cold = &ta->modes[MODE_COLD];
  int64_t dns = cold->phases[SUM_DNS].p50;
  int64_t total = cold->phases[SUM_TOTAL].p50;
  char a[32];
  long ttl = -1;
  size_t k;

  if (!rep || !cold->n_ok || dns < 10000 || pct(dns, total) < 10)
    return;
  for (k = 0; k < rep->n_hops; k++)
    if (rep->hops[k].dns.ttl >= 0 && (ttl < 0 || rep->hops[k].dns.ttl < ttl))
      ttl = rep->hops[k].dns.ttl;
  add(ta, FINDING_DNS, 0, dns,
      xasprintf("DNS takes %s of the cold total (%d %%)", d(a, sizeof(a), dns),
                pct(dns, total)),
      ttl >= 0 ? xasprintf("the answers live %ld s (TTL); clients re-resolve "
                           "that often. A nearer or faster resolver, a longer "
                           "TTL or dns-prefetch helps",
                           ttl)
               : xstrdup("a nearer or faster resolver, a longer TTL or "
                         "dns-prefetch helps"));
}

static void noise_finding(struct target_analysis *ta, const struct analysis *a,
                          size_t t)
{
  size_t i;
  int m;

  for (i = 0; i < a->n_drifts; i++) {
    const struct drift *dr = &a->drifts[i];

    if (dr->target == t && dr->warning) {
      add(ta, FINDING_NOISE, 0, 0,
          xasprintf("the network changed during the run: %s totals trend "
                    "with the round (Spearman rho %.2f)",
                    sample_mode_names[dr->mode], dr->rho),
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
      add(ta, FINDING_NOISE, 0, 0,
          xasprintf("%s measurements are noisy: p95 is %.1fx p50",
                    sample_mode_names[m], (double)s->p95 / (double)s->p50),
          xasprintf("p50 and its comparison hold, p95 from %zu samples does "
                    "not: run more rounds (-n 30 or more)",
                    s->n));
      return;
    }
  }
}

static int cmp_finding(const void *x, const void *y)
{
  const struct finding *a = x, *b = y;

  if (a->saving_us != b->saving_us)
    return a->saving_us > b->saving_us ? -1 : 1;
  return (int)a->kind - (int)b->kind;
}

void findings_build(const struct plan *p, const struct results *r,
                    struct analysis *a, size_t t)
{
  struct target_analysis *ta = &a->targets[t];
  const struct sample *rep = NULL;

  (void)p;
  /* The median sample stands for the target; one without hops (a saved
   * document may hold one) stands for nothing. */
  if (ta->modes[MODE_COLD].median_sample >= 0)
    rep = &r->samples[ta->modes[MODE_COLD].median_sample];
  if (rep && !rep->n_hops)
    rep = NULL;
  redirect_finding(ta, rep);
  cache_findings(ta);
  edge_findings(ta);
  connection_finding(ta, rep);
  resumption_finding(ta, t, r);
  wait_finding(ta, rep);
  dns_finding(ta, rep);
  payload_finding(ta, rep);
  noise_finding(ta, a, t);
  if (ta->n_findings > 1)
    qsort(ta->findings, ta->n_findings, sizeof(*ta->findings), cmp_finding);
}
