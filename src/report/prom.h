/*
 * prom.h: the one writer of the Prometheus text exposition format (0.0.4)
 * for both outputs that speak it: --format prom (report_prom.c) and
 * hopsplit serve's /probe and /metrics (serve_metrics.c, serve_http.c).
 * HELP and TYPE lines, label escaping, seconds written exactly from
 * integer microseconds, and the families both outputs write, so that a
 * fact has one name and one set of labels wherever it is exposed.
 *
 * Label values are names (targets, modes, hosts, verdicts, POP codes),
 * never free text.  Everything is appended to out; nothing is allocated
 * that the caller frees.
 */
#ifndef HOPSPLIT_PROM_H
#define HOPSPLIT_PROM_H

#include <stdint.h>

#include "analysis.h"
#include "buf.h"

/* "# HELP name help" and "# TYPE name type". */
void prom_family(struct buf *out, const char *name, const char *type,
                 const char *help);
/* name="v" (escaped), preceded by a comma unless first. */
void prom_label(struct buf *out, const char *name, const char *v, int first);
/* us microseconds as seconds, exactly ("-0.000150"). */
void prom_seconds(struct buf *out, int64_t us);
/* A family's HELP and TYPE before its first series only (*done is set):
 * a family with no series is left out. */
void prom_family_once(struct buf *out, int *done, const char *name,
                      const char *type, const char *help);

/* hopsplit_cache_verdict{[target,]hop,host,verdict}: how many of the
 * samples had each cache verdict at each hop of ta, every verdict (0 for
 * the others, so series do not come and go).  target NULL leaves the label
 * out (serve: the scrape's instance names it).  *done as prom_family_once. */
void prom_cache_verdict(struct buf *out, int *done, const char *target,
                        const struct target_analysis *ta);
/* hopsplit_edge_distance_km{[target,]hop,host,pop}: great-circle distance
 * from the client to the edge of each hop of ta, when known. */
void prom_edge_distance(struct buf *out, int *done, const char *target,
                        const struct target_analysis *ta);

/* One sample whose hops' transport prom_transport writes: its target
 * (NULL: no target label, as serve's /probe), its mode. */
struct prom_hop_src {
  const char *target;
  const char *mode;
  const struct sample *s;
};
/* The hops' transport facts (hopsplit(1) TRANSPORT) of the samples
 * v[0..n), family by family: hopsplit_hop_server_seconds,
 * hopsplit_hop_network_seconds, hopsplit_hop_tcp_min_rtt_seconds,
 * hopsplit_hop_tcp_rtt_seconds, hopsplit_hop_tcp_retransmits,
 * hopsplit_hop_tcp_out_of_order_segments, hopsplit_hop_tcp_rounds
 * {[target,]mode,hop,host}; a value not measured has no series. */
void prom_transport(struct buf *out, const struct prom_hop_src *v, size_t n);

#endif
