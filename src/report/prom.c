/*
 * prom.c: the Prometheus text writer shared by --format prom and hopsplit
 * serve (see prom.h).  Input: names, values and the analysis of a target.
 * Output: exposition text appended to a struct buf.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "cache.h"
#include "edge.h"
#include "prom.h"
#include "banned.h"

void prom_family(struct buf *out, const char *name, const char *type,
                 const char *help)
{
  /* Per probe, a few dozen times: copies, no format to parse. */
  buf_puts(out, "# HELP ");
  buf_puts(out, name);
  buf_putc(out, ' ');
  buf_puts(out, help);
  buf_puts(out, "\n# TYPE ");
  buf_puts(out, name);
  buf_putc(out, ' ');
  buf_puts(out, type);
  buf_putc(out, '\n');
}

void prom_label(struct buf *out, const char *name, const char *v, int first)
{
  /* Per probe, dozens of times: copies, no format to parse. */
  if (!first)
    buf_putc(out, ',');
  buf_puts(out, name);
  buf_add(out, "=\"", 2);
  buf_put_prom(out, v);
  buf_putc(out, '"');
}

void prom_seconds(struct buf *out, int64_t us)
{
  /* Digits written by hand (a probe writes dozens). */
  buf_put_us_seconds(out, us);
}

void prom_family_once(struct buf *out, int *done, const char *name,
                      const char *type, const char *help)
{
  if (!*done)
    prom_family(out, name, type, help);
  *done = 1;
}

/* "NAME{[target="T",]hop="K",host="H"" (the rest and the value are the
 * caller's). */
static void hop_series(struct buf *out, const char *name, const char *target,
                       size_t hop, const char *host)
{
  char h[32];

  snprintf(h, sizeof(h), "%zu", hop);
  buf_puts(out, name);
  buf_putc(out, '{');
  if (target)
    prom_label(out, "target", target, 1);
  prom_label(out, "hop", h, !target);
  prom_label(out, "host", host ? host : "", 0);
}

void prom_cache_verdict(struct buf *out, int *done, const char *target,
                        const struct target_analysis *ta)
{
  static const char name[] = "hopsplit_cache_verdict";
  size_t k;
  int v;

  for (k = 0; k < ta->n_cache; k++) {
    const struct cache_hop *ch = &ta->cache[k];

    prom_family_once(out, done, name, "gauge",
                     "Samples per cache verdict of a hop (0 for the "
                     "verdicts no sample had).");
    for (v = 0; v < CACHE_VERDICT_COUNT; v++) {
      hop_series(out, name, target, ch->hop, ch->host);
      prom_label(out, "verdict", cache_verdict_names[v], 0);
      buf_printf(out, "} %d\n", ch->counts.n[v]);
    }
  }
}

void prom_edge_distance(struct buf *out, int *done, const char *target,
                        const struct target_analysis *ta)
{
  static const char name[] = "hopsplit_edge_distance_km";
  size_t k;

  for (k = 0; k < ta->n_edge; k++) {
    const struct edge_result *e = &ta->edge[k];

    if (isnan(e->distance_km))
      continue;
    prom_family_once(out, done, name, "gauge",
                     "Great-circle distance from the client to the edge of "
                     "a hop, in km.");
    hop_series(out, name, target, (size_t)e->hop, e->host);
    prom_label(out, "pop", e->pop ? e->pop : "", 0);
    buf_printf(out, "} %.0f\n", e->distance_km);
  }
}

/* The value of transport family f of hop h, -1 when not measured. */
static int64_t transport_value(int f, const struct hop *h)
{
  int64_t srv = hop_server_us(h);

  switch (f) {
  case 0:
    return srv;
  case 1:
    return srv < 0 ? -1 : h->phases[PHASE_TOTAL] - srv;
  case 2:
    return h->tcp_valid ? h->tcp.min_rtt_us : -1;
  case 3:
    return h->tcp_valid ? h->tcp.rtt_us : -1;
  case 4:
    return h->tcp_valid ? h->tcp.retransmits : -1;
  case 5:
    return h->tcp_valid ? h->tcp.rcv_ooopack : -1;
  default:
    return h->tcp_valid && h->tcp.flow->n_rounds
               ? (int64_t)h->tcp.flow->n_rounds
               : -1;
  }
}

void prom_transport(struct buf *out, const struct prom_hop_src *v, size_t n)
{
  static const struct {
    const char *name, *help;
    int seconds;
  } fam[] = {
      {"hopsplit_hop_server_seconds",
       "Server time of a hop: its wait less one minimum round trip of its "
       "connection (hopsplit(1) TRANSPORT).",
       1},
      {"hopsplit_hop_network_seconds",
       "Network time of a hop: its total less its server time.", 1},
      {"hopsplit_hop_tcp_min_rtt_seconds",
       "Minimum round trip of a hop's TCP connection (Linux TCP_INFO).", 1},
      {"hopsplit_hop_tcp_rtt_seconds",
       "Smoothed round trip of a hop's TCP connection at its last byte.", 1},
      {"hopsplit_hop_tcp_retransmits",
       "Segments the client sent again on a hop's connection during the "
       "hop.",
       0},
      {"hopsplit_hop_tcp_out_of_order_segments",
       "Segments a hop's connection received out of order (loss on the way "
       "in) during the hop.",
       0},
      {"hopsplit_hop_tcp_rounds",
       "Round trips the body of a hop arrived in (slow-start rounds).", 0},
  };
  size_t f, i, k;

  for (f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
    int done = 0;

    for (i = 0; i < n; i++)
      for (k = 0; v[i].s && k < v[i].s->n_hops; k++) {
        const struct hop *h = &v[i].s->hops[k];
        int64_t x = transport_value((int)f, h);
        char hop[32];

        if (x < 0)
          continue;
        prom_family_once(out, &done, fam[f].name, "gauge", fam[f].help);
        snprintf(hop, sizeof(hop), "%zu", k + 1);
        buf_puts(out, fam[f].name);
        buf_putc(out, '{');
        if (v[i].target)
          prom_label(out, "target", v[i].target, 1);
        prom_label(out, "mode", v[i].mode, !v[i].target);
        prom_label(out, "hop", hop, 0);
        prom_label(out, "host", h->info->host ? h->info->host : "", 0);
        buf_puts(out, "} ");
        if (fam[f].seconds)
          prom_seconds(out, x);
        else
          buf_printf(out, "%lld", (long long)x);
        buf_putc(out, '\n');
      }
  }
}
