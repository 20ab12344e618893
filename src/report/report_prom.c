/*
 * report_prom.c: Prometheus text exposition format (0.0.4) for
 * node_exporter's textfile collector (SPEC 5, prom).  Every family has
 * HELP and TYPE lines; durations are in seconds (the base unit), written
 * exactly from integer microseconds.  quantile "0" is the minimum and
 * "1" the maximum.
 *
 * The values come from the hopsplit/1 document (report_json_tree):
 * summaries per target and mode, failures by class, and the cache, edge
 * and comparison entries when the analysis has them.
 */
#include <stdlib.h>
#include <string.h>

#include "jtree.h"
#include "report.h"
#include "banned.h"

static const struct {
  const char *stat;
  const char *quantile;
} quantiles[] = {
    {"min_us", "0"}, {"p50_us", "0.5"}, {"p95_us", "0.95"}, {"max_us", "1"}};

static void family(struct buf *out, const char *name, const char *type,
                   const char *help)
{
  buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value, escaped as the format requires. */
static void label(struct buf *out, const char *name, const char *v, int first)
{
  buf_printf(out, "%s%s=\"", first ? "" : ",", name);
  for (; v && *v; v++) {
    if (*v == '\\' || *v == '"')
      buf_putc(out, '\\');
    if (*v == '\n')
      buf_puts(out, "\\n");
    else
      buf_putc(out, *v);
  }
  buf_putc(out, '"');
}

/* Microseconds as seconds, exactly. */
static void seconds(struct buf *out, int64_t us)
{
  int64_t a = us < 0 ? -us : us;

  buf_printf(out, "%s%lld.%06lld", us < 0 ? "-" : "", (long long)(a / 1000000),
             (long long)(a % 1000000));
}

static void phases(struct buf *out, const struct jt *targets)
{
  size_t t, m, p, q;

  family(out, "hopsplit_phase_seconds", "summary",
         "Phase duration per target and mode over successful samples "
         "(quantile 0 is the minimum, 1 the maximum; no _sum).");
  for (t = 0; t < jt_len(targets); t++) {
    const struct jt *tg = jt_at(targets, t);
    const struct jt *summ = jt_get(tg, "summary");

    for (m = 0; m < jt_len(summ); m++) {
      const struct jt *ph = jt_get(&summ->v[m], "phases");

      for (p = 0; p < jt_len(ph); p++) {
        for (q = 0; q < sizeof(quantiles) / sizeof(quantiles[0]); q++) {
          int64_t us;

          if (jt_int(jt_get(&ph->v[p], quantiles[q].stat), &us) < 0)
            continue;
          buf_puts(out, "hopsplit_phase_seconds{");
          label(out, "target", jt_str(jt_get(tg, "name")), 1);
          label(out, "mode", summ->k[m], 0);
          label(out, "phase", ph->k[p], 0);
          label(out, "quantile", quantiles[q].quantile, 0);
          buf_puts(out, "} ");
          seconds(out, us);
          buf_putc(out, '\n');
        }
        buf_puts(out, "hopsplit_phase_seconds_count{");
        label(out, "target", jt_str(jt_get(tg, "name")), 1);
        label(out, "mode", summ->k[m], 0);
        label(out, "phase", ph->k[p], 0);
        buf_puts(out, "} ");
        jt_write_plain(out, jt_get(&ph->v[p], "n"));
        buf_putc(out, '\n');
      }
    }
  }
}

/* A per target and mode integer of the summary, such as "n". */
static void counts(struct buf *out, const struct jt *targets, const char *name,
                   const char *help, const char *key)
{
  size_t t, m;

  family(out, name, "counter", help);
  for (t = 0; t < jt_len(targets); t++) {
    const struct jt *tg = jt_at(targets, t);
    const struct jt *summ = jt_get(tg, "summary");

    for (m = 0; m < jt_len(summ); m++) {
      buf_printf(out, "%s{", name);
      label(out, "target", jt_str(jt_get(tg, "name")), 1);
      label(out, "mode", summ->k[m], 0);
      buf_puts(out, "} ");
      jt_write_plain(out, jt_get(&summ->v[m], key));
      buf_putc(out, '\n');
    }
  }
}

static void failures(struct buf *out, const struct jt *targets)
{
  static const char *const classes[] = {
      "dns", "connect", "tls", "timeout", "http", "redirect", "http-status"};
  size_t t, m, e;

  family(out, "hopsplit_sample_failures_total", "counter",
         "Failed samples per target, mode and error class.");
  for (t = 0; t < jt_len(targets); t++) {
    const struct jt *tg = jt_at(targets, t);
    const struct jt *summ = jt_get(tg, "summary");

    for (m = 0; m < jt_len(summ); m++) {
      const struct jt *f = jt_get(&summ->v[m], "failures");

      for (e = 0; e < sizeof(classes) / sizeof(classes[0]); e++) {
        const struct jt *n = jt_get(f, classes[e]);

        buf_puts(out, "hopsplit_sample_failures_total{");
        label(out, "target", jt_str(jt_get(tg, "name")), 1);
        label(out, "mode", summ->k[m], 0);
        label(out, "class", classes[e], 0);
        buf_puts(out, "} ");
        if (n)
          jt_write_plain(out, n);
        else
          buf_putc(out, '0');
        buf_putc(out, '\n');
      }
    }
  }
}

/* hopsplit_final_status_total: samples per final HTTP status ("0" when
 * no response came), per target and mode. */
static void statuses(struct buf *out, const struct jt *targets)
{
  size_t t, m, k;

  family(out, "hopsplit_final_status_total", "counter",
         "Samples per final HTTP status (0: no response), target and mode.");
  for (t = 0; t < jt_len(targets); t++) {
    const struct jt *tg = jt_at(targets, t);
    const struct jt *summ = jt_get(tg, "summary");

    for (m = 0; m < jt_len(summ); m++) {
      const struct jt *st = jt_get(&summ->v[m], "statuses");

      for (k = 0; k < jt_len(st); k++) {
        buf_puts(out, "hopsplit_final_status_total{");
        label(out, "target", jt_str(jt_get(tg, "name")), 1);
        label(out, "mode", summ->k[m], 0);
        label(out, "status", st->k[k], 0);
        buf_puts(out, "} ");
        jt_write_plain(out, &st->v[k]);
        buf_putc(out, '\n');
      }
    }
  }
}

/* hopsplit_cache_verdict: samples per verdict of each hop index. */
static void cache(struct buf *out, const struct jt *targets)
{
  size_t t, i, v;
  int any = 0;

  for (t = 0; t < jt_len(targets); t++) {
    const struct jt *tg = jt_at(targets, t);
    const struct jt *cl = jt_get(tg, "cache");

    for (i = 0; i < jt_len(cl); i++) {
      const struct jt *e = jt_at(cl, i);
      const struct jt *cnt = jt_get(e, "counts");
      struct buf hop;

      buf_init(&hop, 0);
      jt_write_plain(&hop, jt_get(e, "hop"));
      for (v = 0; v < jt_len(cnt); v++) {
        if (!any++)
          family(out, "hopsplit_cache_verdict", "gauge",
                 "Samples per cache verdict of a hop.");
        buf_puts(out, "hopsplit_cache_verdict{");
        label(out, "target", jt_str(jt_get(tg, "name")), 1);
        label(out, "hop", hop.s, 0);
        label(out, "verdict", cnt->k[v], 0);
        buf_puts(out, "} ");
        jt_write_plain(out, &cnt->v[v]);
        buf_putc(out, '\n');
      }
      buf_release(&hop);
    }
  }
}

/* hopsplit_edge_distance_km: distance to the edge of each hop index,
 * when known. */
static void edge(struct buf *out, const struct jt *targets)
{
  size_t t, i;
  int any = 0;

  for (t = 0; t < jt_len(targets); t++) {
    const struct jt *tg = jt_at(targets, t);
    const struct jt *el = jt_get(tg, "edge");

    for (i = 0; i < jt_len(el); i++) {
      const struct jt *e = jt_at(el, i);
      const struct jt *d = jt_get(e, "distance_km");
      struct buf hop;

      if (!d || d->type != JT_NUMBER)
        continue;
      if (!any++)
        family(out, "hopsplit_edge_distance_km", "gauge",
               "Great-circle distance from the client to the edge of a "
               "hop, in km.");
      buf_init(&hop, 0);
      jt_write_plain(&hop, jt_get(e, "hop"));
      buf_puts(out, "hopsplit_edge_distance_km{");
      label(out, "target", jt_str(jt_get(tg, "name")), 1);
      label(out, "hop", hop.s, 0);
      label(out, "pop", jt_str(jt_get(e, "pop")), 0);
      buf_puts(out, "} ");
      jt_write_plain(out, d);
      buf_putc(out, '\n');
      buf_release(&hop);
    }
  }
}

/* The paired comparison to the baseline, when there are several
 * targets. */
static void comparison(struct buf *out, const struct jt *doc)
{
  const struct jt *cl = jt_get(doc, "comparison");
  size_t i;
  int any = 0;

  for (i = 0; i < jt_len(cl); i++) {
    const struct jt *e = jt_at(cl, i);
    int64_t us;

    if (jt_int(jt_get(e, "median_diff_us"), &us) < 0)
      continue;
    if (!any++)
      family(out, "hopsplit_comparison_median_diff_seconds", "gauge",
             "Median paired difference of totals to the baseline "
             "(negative: faster).");
    buf_puts(out, "hopsplit_comparison_median_diff_seconds{");
    label(out, "target", jt_str(jt_get(e, "target")), 1);
    label(out, "baseline", jt_str(jt_get(e, "baseline")), 0);
    label(out, "mode", jt_str(jt_get(e, "mode")), 0);
    label(out, "verdict", jt_str(jt_get(e, "verdict")), 0);
    if (jt_get(e, "paired"))
      label(out, "paired", "false", 0);
    buf_puts(out, "} ");
    seconds(out, us);
    buf_putc(out, '\n');
  }
}

void report_prom(const struct report_ctx *c, struct buf *out)
{
  struct jt doc;
  const struct jt *targets;

  report_json_tree(c, &doc);
  targets = jt_get(&doc, "targets");
  phases(out, targets);
  counts(out, targets, "hopsplit_samples_total",
         "Samples measured per target and mode.", "n");
  failures(out, targets);
  statuses(out, targets);
  cache(out, targets);
  edge(out, targets);
  comparison(out, &doc);
  family(out, "hopsplit_tls_verify_disabled", "gauge",
         "1 when TLS certificates were not verified (-k).");
  buf_printf(out, "hopsplit_tls_verify_disabled %d\n",
             c->plan->opts->insecure ? 1 : 0);
  if (c->plan->vantage) {
    family(out, "hopsplit_run_info", "gauge",
           "Where the run measured (--vantage, else the host name).");
    buf_puts(out, "hopsplit_run_info{");
    label(out, "vantage", c->plan->vantage, 1);
    buf_puts(out, "} 1\n");
  }
  family(out, "hopsplit_partial", "gauge",
         "1 when the run was interrupted before every sample ran.");
  buf_printf(out, "hopsplit_partial %d\n", c->results->partial ? 1 : 0);
  family(out, "hopsplit_run_finished_timestamp_seconds", "gauge",
         "When the run finished, seconds since the epoch.");
  buf_printf(out, "hopsplit_run_finished_timestamp_seconds %lld.%03lld\n",
             (long long)(c->results->finished_at_ms / 1000),
             (long long)(c->results->finished_at_ms % 1000));
  jt_release(&doc);
}
