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
  /* "-S.UUUUUU": digits written by hand (a probe writes dozens). */
  uint64_t a = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;
  uint64_t sec = a / 1000000;
  unsigned frac = (unsigned)(a % 1000000);
  char t[32], *p = t + sizeof(t);
  int i;

  for (i = 0; i < 6; i++) {
    *--p = (char)('0' + frac % 10);
    frac /= 10;
  }
  *--p = '.';
  do {
    *--p = (char)('0' + sec % 10);
    sec /= 10;
  } while (sec);
  if (us < 0)
    *--p = '-';
  buf_add(out, p, (size_t)(t + sizeof(t) - p));
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
