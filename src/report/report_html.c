/*
 * report_html.c: one self-contained HTML file (SPEC 5, html): inline CSS
 * and SVG, no script, nothing fetched.  Per target and mode: the phase
 * table, a waterfall of the median sample, and a strip plot per phase of
 * every successful sample with its p50 and p95 marked; then the
 * comparison to the baseline as bars with confidence intervals, and the
 * findings, cache and edge tables when the analysis has them.
 *
 * Input: plan, results and analysis (charts), and the hopsplit/1 document
 * (tables), so the page carries the same facts as the JSON.  Renders only:
 * positions are scaled values, never new statistics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jtree.h"
#include "report.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

#define CHART_W 720 /* SVG width in px */
#define LABEL_W 150 /* left label column of the charts */
#define PLOT_W  (CHART_W - LABEL_W - 70)

static const char *const phase_fill[PHASE_TOTAL] = {
    "#4db6ac", "#ffb74d", "#ba68c8", "#64b5f6", "#81c784", "#1565c0"};

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;"
    "background:#fff}\n"
    "h1{font-size:20px}h2{font-size:17px;margin-top:32px;border-bottom:"
    "1px solid #ccc}h3{font-size:15px}\n"
    "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid "
    "#ddd;padding:2px 8px;text-align:right}th{background:#f3f3f3}\n"
    "td.l,th.l{text-align:left;max-width:36em}.warn{color:#b00;"
    "font-weight:bold}\n"
    ".muted{color:#777}svg{display:block;margin:6px 0}\n"
    "ol.layers{margin:0;padding-left:1.4em}\n"
    "svg text{font:11px system-ui,sans-serif;fill:#333}\n"
    ".legend span{display:inline-block;width:10px;height:10px;"
    "margin:0 4px 0 12px}\n";

static void esc(struct buf *b, const char *s)
{
  for (; s && *s; s++) {
    switch (*s) {
    case '<':
      buf_puts(b, "&lt;");
      break;
    case '>':
      buf_puts(b, "&gt;");
      break;
    case '&':
      buf_puts(b, "&amp;");
      break;
    case '"':
      buf_puts(b, "&quot;");
      break;
    default:
      buf_putc(b, *s);
    }
  }
}

static void dur(struct buf *b, int64_t us)
{
  char t[32];

  units_format_us(us, t, sizeof(t));
  esc(b, t);
}

/* x of value v on a plot of PLOT_W px for [0, span]. */
static double xpos(int64_t v, int64_t span)
{
  if (span <= 0 || v <= 0)
    return LABEL_W;
  if (v >= span)
    return LABEL_W + PLOT_W;
  return LABEL_W + (double)v * PLOT_W / (double)span;
}

static void header(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  char t[64], f[64];
  size_t i;

  units_rfc3339_ms(c->results->started_at_ms, t, sizeof(t));
  units_rfc3339_ms(c->results->finished_at_ms, f, sizeof(f));
  buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
              "<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width\">\n"
              "<title>hopsplit report</title>\n<style>\n");
  buf_puts(b, css);
  buf_puts(b, "</style>\n</head>\n<body>\n");
  buf_printf(b, "<h1>hopsplit %s</h1>\n<p>", HOPSPLIT_VERSION);
  buf_printf(b, "%zu target%s, %ld round%s &times; ", p->n_targets,
             p->n_targets == 1 ? "" : "s", p->rounds,
             p->rounds == 1 ? "" : "s");
  for (i = 0; i < p->n_modes; i++)
    buf_printf(b, "%s%s", i ? "," : "", sample_mode_names[p->modes[i]]);
  buf_printf(b, ", %zu sample%s (%zu failed), order %s, seed %llu<br>\n",
             c->results->n, c->results->n == 1 ? "" : "s",
             c->analysis->n_failed, schedule_order_name(p->opts->order),
             (unsigned long long)p->seed);
  buf_printf(b, "from %s to %s", t, f);
  if (p->vantage) {
    buf_puts(b, ", measured at ");
    esc(b, p->vantage);
  }
  buf_puts(b, "<br>\n<span class=\"muted\">");
  esc(b, c->libraries);
  buf_puts(b, "</span></p>\n");
  if (p->opts->insecure)
    buf_puts(b, "<p class=\"warn\">TLS verification was OFF (-k)</p>\n");
  if (c->results->partial)
    buf_printf(b,
               "<p class=\"warn\">partial: interrupted after %zu of %ld "
               "samples</p>\n",
               c->results->n, p->rounds * (long)p->n_items);
}

static void legend(struct buf *b)
{
  int ph;

  buf_puts(b, "<p class=\"legend\">");
  for (ph = 0; ph < PHASE_TOTAL; ph++)
    buf_printf(b, "<span style=\"background:%s\"></span>%s", phase_fill[ph],
               phase_names[ph]);
  buf_puts(b, "</p>\n");
}

static void phase_table(struct buf *b, const struct mode_summary *m)
{
  int ph;

  buf_puts(b, "<table>\n<tr><th class=\"l\">phase</th><th>n</th><th>p50</th>"
              "<th>p95</th><th>min</th><th>max</th><th>mean</th>"
              "<th>stddev</th></tr>\n");
  for (ph = 0; ph < SUM_COUNT; ph++) {
    const struct stats *s = &m->phases[ph];

    buf_printf(b, "<tr><td class=\"l\">%s</td><td>%zu</td><td>",
               sum_phase_names[ph], s->n);
    dur(b, s->p50);
    buf_puts(b, "</td><td>");
    dur(b, s->p95);
    buf_printf(b, "%s</td><td>", s->n < 20 ? "*" : "");
    dur(b, s->min);
    buf_puts(b, "</td><td>");
    dur(b, s->max);
    buf_puts(b, "</td><td>");
    dur(b, s->mean);
    buf_puts(b, "</td><td>");
    dur(b, s->stddev);
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n");
  if (m->n_ok < 20)
    buf_puts(b, "<p class=\"muted\">* p95 of fewer than 20 samples: low "
                "confidence</p>\n");
}

/* The median sample, one row per hop, phases as coloured bars placed at
 * the time they happened. */
static void waterfall(const struct report_ctx *c, struct buf *b,
                      const struct sample *s)
{
  int64_t span = s->total_us;
  int h_px = 22, height = (int)s->n_hops * h_px + 30;
  size_t i;
  int ph;

  buf_printf(b, "<h3>waterfall of the median %s sample (round %d, ",
             sample_mode_names[s->mode], s->round);
  dur(b, s->total_us);
  buf_puts(b, ")</h3>\n");
  buf_printf(b,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
             "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
             CHART_W, height, CHART_W, height);
  buf_printf(b,
             "<line x1=\"%d\" y1=\"4\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
             "\n",
             LABEL_W, LABEL_W, height - 20);
  for (i = 0; i < s->n_hops; i++) {
    const struct hop *h = &s->hops[i];
    int64_t at = h->start_us;
    int y = (int)i * h_px + 6;
    char *u = report_url(c, h->url);

    buf_printf(b, "<text x=\"4\" y=\"%d\">%zu %ld ", y + 13, i + 1, h->status);
    esc(b, h->host ? h->host : "-");
    buf_puts(b, h->reused ? " (reused)" : "");
    buf_puts(b, "</text>\n<g><title>");
    esc(b, u);
    buf_puts(b, "</title>\n");
    free(u);
    for (ph = 0; ph < PHASE_TOTAL; ph++) {
      double x0 = xpos(at, span), x1;

      at += h->phases[ph];
      if (!h->phases[ph])
        continue;
      x1 = xpos(at, span);
      if (x1 - x0 < 1.0)
        x1 = x0 + 1.0;
      buf_printf(b,
                 "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" "
                 "fill=\"%s\"><title>%s ",
                 x0, y, x1 - x0, phase_fill[ph], phase_names[ph]);
      dur(b, h->phases[ph]);
      buf_puts(b, "</title></rect>\n");
    }
    buf_puts(b, "</g>\n");
    buf_printf(b, "<text x=\"%.1f\" y=\"%d\">", xpos(at, span) + 4, y + 13);
    dur(b, h->phases[PHASE_TOTAL]);
    buf_puts(b, "</text>\n");
  }
  buf_printf(b, "<text x=\"%d\" y=\"%d\">0</text>", LABEL_W, height - 6);
  buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
             LABEL_W + PLOT_W, height - 6);
  dur(b, span);
  buf_puts(b, "</text>\n</svg>\n");
}

/* A strip per phase: a dot per successful sample, p50 and p95 as ticks;
 * each phase on its own scale, [0, max]. */
static void strips(const struct report_ctx *c, struct buf *b, size_t target,
                   enum sample_mode mode, const struct mode_summary *m)
{
  int row = 26, height = SUM_COUNT * row + 10, ph;
  size_t i;

  buf_puts(b, "<h3>distribution per phase (dots: samples; red: p50, "
              "black: p95; each row scaled to its maximum)</h3>\n");
  buf_printf(b,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
             "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
             CHART_W, height, CHART_W, height);
  for (ph = 0; ph < SUM_COUNT; ph++) {
    const struct stats *st = &m->phases[ph];
    int y = ph * row + 14;
    int64_t span = st->max;

    buf_printf(b, "<text x=\"4\" y=\"%d\">%s</text>\n", y + 4,
               sum_phase_names[ph]);
    buf_printf(b,
               "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
               "stroke=\"#ccc\"/>\n",
               LABEL_W, y, LABEL_W + PLOT_W, y);
    for (i = 0; i < c->results->n; i++) {
      const struct sample *s = &c->results->samples[i];

      if (s->target != target || s->mode != mode || !s->ok)
        continue;
      buf_printf(b,
                 "<circle cx=\"%.1f\" cy=\"%d\" r=\"3\" fill=\"%s\" "
                 "fill-opacity=\"0.55\"/>\n",
                 xpos(sample_phase_sum(s, (enum sum_phase)ph), span), y,
                 ph < PHASE_TOTAL ? phase_fill[ph] : "#555");
    }
    if (st->n) {
      buf_printf(b,
                 "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                 "stroke=\"#d32f2f\" stroke-width=\"2\"/>\n",
                 xpos(st->p50, span), y - 8, xpos(st->p50, span), y + 8);
      buf_printf(b,
                 "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                 "stroke=\"#000\" stroke-width=\"2\"/>\n",
                 xpos(st->p95, span), y - 8, xpos(st->p95, span), y + 8);
    }
    buf_printf(b, "<text x=\"%d\" y=\"%d\">", LABEL_W + PLOT_W + 6, y + 4);
    dur(b, span);
    buf_puts(b, "</text>\n");
  }
  buf_puts(b, "</svg>\n");
}

static void failures(struct buf *b, const struct mode_summary *m)
{
  int e;

  if (!m->n_failed)
    return;
  buf_printf(b, "<p class=\"warn\">%zu of %zu samples failed:", m->n_failed,
             m->n_samples);
  for (e = ERR_NONE + 1; e < ERR_COUNT; e++)
    if (m->failed_by_class[e])
      buf_printf(b, " %s %zu", err_class_names[e], m->failed_by_class[e]);
  buf_puts(b, "</p>\n<ul>\n");
  for (e = ERR_NONE + 1; e < ERR_COUNT; e++)
    if (m->first_error[e]) {
      buf_printf(b, "<li>%s: ", err_class_names[e]);
      esc(b, m->first_error[e]);
      buf_puts(b, "</li>\n");
    }
  buf_puts(b, "</ul>\n");
}

/* A cell from any value of the document: strings and numbers as they
 * are, arrays joined with "; ", objects as "k: v" pairs. */
static void cell(struct buf *b, const struct jt *v)
{
  size_t i;

  if (!v || v->type == JT_NULL) {
    buf_puts(b, "<span class=\"muted\">-</span>");
    return;
  }
  if (v->type == JT_ARRAY || v->type == JT_OBJECT) {
    for (i = 0; i < v->n; i++) {
      if (i)
        buf_puts(b, "; ");
      if (v->type == JT_OBJECT) {
        esc(b, v->k[i]);
        buf_puts(b, ": ");
      }
      cell(b, &v->v[i]);
    }
    return;
  }
  {
    struct buf t;

    buf_init(&t, 0);
    jt_write_plain(&t, v);
    esc(b, t.s);
    buf_release(&t);
  }
}

/* A hop's cache layers (SPEC 4.1), nearest the user first: one list item
 * per cache with its verdict, evidence and reasons. */
static void layers_cell(struct buf *b, const struct jt *v)
{
  size_t i, k;

  if (!jt_len(v)) {
    buf_puts(b, "<span class=\"muted\">-</span>");
    return;
  }
  buf_puts(b, "<ol class=\"layers\">");
  for (i = 0; i < jt_len(v); i++) {
    const struct jt *l = jt_at(v, i), *why = jt_get(l, "reasons");

    buf_puts(b, "<li><b>");
    cell(b, jt_get(l, "vendor"));
    if (jt_get(l, "name") && jt_get(l, "name")->type == JT_STRING) {
      buf_puts(b, " &ldquo;");
      cell(b, jt_get(l, "name"));
      buf_puts(b, "&rdquo;");
    }
    buf_puts(b, "</b> ");
    cell(b, jt_get(l, "verdict"));
    buf_puts(b, "<br><span class=\"muted\">");
    cell(b, jt_get(l, "raw"));
    buf_puts(b, "</span>");
    for (k = 0; k < jt_len(why); k++) {
      buf_puts(b, "<br>");
      cell(b, jt_at(why, k));
    }
    buf_puts(b, "</li>");
  }
  buf_puts(b, "</ol>");
}

/* A table of an array of objects, columns from the first object. */
static void table(struct buf *b, const char *title, const struct jt *list)
{
  const struct jt *first = jt_at(list, 0);
  size_t i, k;

  if (!first || first->type != JT_OBJECT)
    return;
  buf_printf(b, "<h3>%s</h3>\n<table>\n<tr>", title);
  for (k = 0; k < first->n; k++) {
    buf_puts(b, "<th class=\"l\">");
    esc(b, first->k[k]);
    buf_puts(b, "</th>");
  }
  buf_puts(b, "</tr>\n");
  for (i = 0; i < jt_len(list); i++) {
    buf_puts(b, "<tr>");
    for (k = 0; k < first->n; k++) {
      buf_puts(b, "<td class=\"l\">");
      if (!strcmp(first->k[k], "layers"))
        layers_cell(b, jt_get(jt_at(list, i), first->k[k]));
      else
        cell(b, jt_get(jt_at(list, i), first->k[k]));
      buf_puts(b, "</td>");
    }
    buf_puts(b, "</tr>\n");
  }
  buf_puts(b, "</table>\n");
}

static int64_t num(const struct jt *v, const char *key)
{
  int64_t n = 0;

  jt_int(jt_get(v, key), &n);
  return n;
}

/* The comparison: per target and mode a bar for the median paired
 * difference and a whisker for its confidence interval, on one scale
 * centred at 0. */
static void comparison(struct buf *b, const struct jt *cmp)
{
  int64_t scale = 1;
  int row = 24, height, mid = LABEL_W + PLOT_W / 2;
  size_t i;
  const char *run_base;

  if (!jt_len(cmp))
    return;
  run_base = jt_str(jt_get(jt_at(cmp, 0), "baseline"));
  for (i = 0; i < jt_len(cmp); i++) {
    const struct jt *e = jt_at(cmp, i);
    int64_t v[3];
    int k;

    v[0] = num(e, "median_diff_us");
    v[1] = num(e, "ci_low_us");
    v[2] = num(e, "ci_high_us");
    for (k = 0; k < 3; k++) {
      if (v[k] > scale)
        scale = v[k];
      if (-v[k] > scale)
        scale = -v[k];
    }
  }
  height = (int)jt_len(cmp) * row + 24;
  if (jt_get(jt_at(cmp, 0), "paired"))
    buf_puts(b, "<h2>comparison to the baseline</h2>\n<p>unpaired (runs "
                "from different places): Hodges&ndash;Lehmann shift of "
                "totals, whiskers: 95&#x202F;% Mann&ndash;Whitney interval; "
                "left of 0 is faster</p>\n");
  else
    buf_puts(b, "<h2>comparison to the baseline</h2>\n<p>median paired "
                "difference of totals per round, whiskers: 95&#x202F;% "
                "confidence interval; left of 0 is faster</p>\n");
  buf_printf(b,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
             "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
             CHART_W, height, CHART_W, height);
  buf_printf(b,
             "<line x1=\"%d\" y1=\"2\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
             "\n",
             mid, mid, height - 18);
  for (i = 0; i < jt_len(cmp); i++) {
    const struct jt *e = jt_at(cmp, i);
    int64_t d = num(e, "median_diff_us");
    double half = PLOT_W / 2.0;
    double x = mid + (double)d * half / (double)scale;
    double lo = mid + (double)num(e, "ci_low_us") * half / (double)scale;
    double hi = mid + (double)num(e, "ci_high_us") * half / (double)scale;
    const char *verdict = jt_str(jt_get(e, "verdict"));
    int y = (int)i * row + 6;

    buf_printf(b, "<text x=\"4\" y=\"%d\">", y + 12);
    esc(b, jt_str(jt_get(e, "target")));
    /* The pairs of --compare all after those with the baseline (which
     * come first) name what they are compared with. */
    if (run_base && jt_str(jt_get(e, "baseline")) &&
        strcmp(run_base, jt_str(jt_get(e, "baseline")))) {
      buf_puts(b, " vs ");
      esc(b, jt_str(jt_get(e, "baseline")));
    }
    buf_puts(b, " ");
    esc(b, jt_str(jt_get(e, "mode")));
    buf_puts(b, "</text>\n");
    buf_printf(b,
               "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" "
               "fill=\"%s\"><title>",
               x < mid ? x : (double)mid, y, x < mid ? mid - x : x - mid,
               verdict && !strcmp(verdict, "faster")   ? "#66bb6a"
               : verdict && !strcmp(verdict, "slower") ? "#ef5350"
                                                       : "#bdbdbd");
    esc(b, verdict);
    buf_puts(b, "</title></rect>\n");
    buf_printf(b,
               "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
               "stroke=\"#000\"/>\n",
               lo, y + 7, hi, y + 7);
    buf_printf(b,
               "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
               "stroke=\"#000\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
               "y2=\"%d\" stroke=\"#000\"/>\n",
               lo, y + 2, lo, y + 12, hi, y + 2, hi, y + 12);
    buf_printf(b, "<text x=\"%d\" y=\"%d\">", LABEL_W + PLOT_W + 6, y + 12);
    dur(b, d);
    buf_puts(b, "</text>\n");
  }
  buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">0</text>\n",
             mid, height - 4);
  buf_puts(b, "</svg>\n");
  table(b, "comparison table", cmp);
}

void report_html(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  struct jt doc;
  const struct jt *targets;
  size_t t, i;

  report_json_tree(c, &doc);
  targets = jt_get(&doc, "targets");
  header(c, b);
  legend(b);
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];
    const struct jt *jtg = jt_at(targets, t);
    char *u = report_url(c, p->targets[t].url);

    buf_puts(b, "<h2>");
    esc(b, p->targets[t].name);
    buf_puts(b, t == 0 && p->n_targets > 1 ? " (baseline)" : "");
    buf_puts(b, " <span class=\"muted\">");
    esc(b, u);
    buf_puts(b, "</span></h2>\n");
    free(u);
    for (i = 0; i < p->n_modes; i++) {
      const struct mode_summary *m = &ta->modes[p->modes[i]];

      buf_printf(b, "<h3>%s: %zu of %zu samples ok</h3>\n",
                 sample_mode_names[p->modes[i]], m->n_ok, m->n_samples);
      phase_table(b, m);
      if (m->median_sample >= 0)
        waterfall(c, b, &c->results->samples[m->median_sample]);
      if (m->n_ok)
        strips(c, b, t, p->modes[i], m);
      failures(b, m);
    }
    table(b, "findings", jt_get(jtg, "findings"));
    /* Findings that remove some of the same time, and what all of each
     * group saves together (the members are ranks in the table above). */
    table(b, "overlapping findings", jt_get(jtg, "finding_groups"));
    table(b, "cache", jt_get(jtg, "cache"));
    table(b, "edge", jt_get(jtg, "edge"));
  }
  comparison(b, jt_get(&doc, "comparison"));
  table(b, "drift", jt_get(&doc, "drift"));
  buf_puts(b, "<p class=\"muted\">made by hopsplit; no script, nothing "
              "fetched</p>\n</body>\n</html>\n");
  jt_release(&doc);
}
