/*
 * report_html.c: one self-contained HTML file (hopsplit(1) OUTPUT, html):
 * inline CSS and SVG, no script, nothing fetched.  Per target and mode: the
 * phase table, a waterfall of the median sample, and a strip plot per phase of
 * every successful sample with its p50 and p95 marked; then the
 * comparison to the baseline as bars with confidence intervals, and the
 * findings, cache and edge tables when the analysis has them.
 *
 * The page is for people: the first screen (#summary) says per target the
 * median total, where the time goes, the top findings with their savings
 * and, in a comparison, each target's verdict with its 95 % interval; a
 * profile run shows its name and every check as PASS or FAIL with what was
 * measured.  Values carry units (ms, s, KiB), column heads are words, and
 * nothing is wider than 960 px.  URLs and header values as received are
 * in <code>.
 *
 * Input: plan, results and analysis, the tables' words and units from the
 * field table (report_fields.h).  Renders only: positions are scaled
 * values, never new statistics.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report.h"
#include "report_fields.h"
#include "units.h"
#include "xalloc.h"
#include "report_projection.h"
#include "banned.h"

#define CHART_W 720 /* SVG width in px */
#define LABEL_W 150 /* left label column of the charts */
#define PLOT_W  (CHART_W - LABEL_W - 70)

static const char *const phase_fill[PHASE_TOTAL] = {
    "#4db6ac", "#ffb74d", "#ba68c8", "#64b5f6", "#81c784", "#1565c0"};

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:16px auto;padding:0 "
    "16px;max-width:928px;color:#222;background:#fff}\n"
    "h1{font-size:20px;margin:0 0 4px}h2{font-size:17px;margin-top:28px;"
    "border-bottom:1px solid #ccc;overflow-wrap:anywhere}h3{font-size:15px}"
    "\n"
    "table{border-collapse:collapse;margin:6px 0;max-width:100%}td,th{"
    "border:1px solid #ddd;padding:2px 6px;text-align:right;vertical-align:"
    "top;overflow-wrap:break-word}th{background:#f3f3f3;font-weight:600}\n"
    "td.l,th.l{text-align:left}.warn{color:#b00;font-weight:bold}\n"
    ".pass{color:#1b5e20;font-weight:bold}.fail{color:#b00;font-weight:"
    "bold}\n"
    ".muted{color:#666}svg{display:block;margin:6px 0;max-width:100%;"
    "height:auto}\n"
    "code{font:12px ui-monospace,monospace;overflow-wrap:anywhere}\n"
    "#summary{border:1px solid #bbb;background:#fafafa;padding:4px 10px;"
    "margin:8px 0}#summary h2{margin:4px 0;border:0}\n"
    "#summary table{width:100%}#summary td{font-size:13px}\n"
    "svg text{font:11px system-ui,sans-serif;fill:#333}\n"
    ".legend span{display:inline-block;width:10px;height:10px;"
    "margin:0 4px 0 12px}\n";

static void esc(struct buf *b, const char *s)
{
  buf_put_html(b, s);
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
  char t[64];
  size_t i;

  units_rfc3339_ms(c->results->started_at_ms, t, sizeof(t));
  buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
              "<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width\">\n"
              "<title>hopsplit report</title>\n<style>\n");
  buf_puts(b, css);
  buf_puts(b, "</style>\n</head>\n<body>\n");
  buf_puts(b, "<h1>hopsplit report");
  if (p->checks && p->checks->profile) {
    buf_puts(b, ": profile ");
    esc(b, p->checks->profile);
  }
  buf_puts(b, "</h1>\n<p class=\"muted\">");
  buf_printf(b, "%zu target%s, %ld round%s &times; ", p->n_targets,
             p->n_targets == 1 ? "" : "s", p->rounds,
             p->rounds == 1 ? "" : "s");
  for (i = 0; i < p->n_modes; i++)
    buf_printf(b, "%s%s", i ? " and " : "", sample_mode_names[p->modes[i]]);
  buf_printf(b, ", %zu sample%s (%zu failed), started %s", c->results->n,
             c->results->n == 1 ? "" : "s", c->analysis->n_failed, t);
  if (p->vantage) {
    buf_puts(b, ", measured at ");
    esc(b, p->vantage);
  }
  buf_printf(b, "; hopsplit %s", HOPSPLIT_VERSION);
  buf_puts(b, "</p>\n");
  if (p->opts->insecure)
    buf_puts(b, "<p class=\"warn\">TLS verification was OFF (-k)</p>\n");
  if (c->results->partial && c->results->cut)
    buf_printf(b,
               "<p class=\"warn\">partial: the run was stopped after %zu "
               "samples (no summary line: how many were planned is not "
               "known)</p>\n",
               c->results->n);
  else if (c->results->partial)
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

/* A value of a field for a person: units for durations and sizes. */
static void human(struct buf *b, const struct field *f,
                  const struct field_row *r)
{
  struct field_value v;
  struct buf t;

  buf_init(&t, 0);
  field_get(f, r, &v);
  field_human(f, &v, &t);
  esc(b, t.s);
  field_value_release(&v);
  buf_release(&t);
}

/* Phases of a mode: one row per phase, one column per statistic, heads
 * and units from the field table. */
static void phase_table(struct buf *b, const struct mode_summary *m)
{
  const struct field *f;
  struct field_row r;
  int ph;

  memset(&r, 0, sizeof(r));
  buf_puts(b, "<table>\n<tr><th class=\"l\">phase</th>");
  for (f = report_stat_fields; f->name; f++)
    if (strcmp(f->name, "mad_us"))
      buf_printf(b, "<th>%s</th>", f->label);
  buf_puts(b, "</tr>\n");
  for (ph = 0; ph < SUM_COUNT; ph++) {
    r.st = &m->phases[ph];
    buf_printf(b, "<tr><td class=\"l\">%s</td>", sum_phase_names[ph]);
    for (f = report_stat_fields; f->name; f++) {
      if (!strcmp(f->name, "mad_us"))
        continue;
      buf_puts(b, "<td>");
      human(b, f, &r);
      if (!strcmp(f->name, "p95_us") && r.st->n < 20)
        buf_putc(b, '*');
      buf_puts(b, "</td>");
    }
    buf_puts(b, "</tr>\n");
  }
  buf_puts(b, "</table>\n");
  if (m->n_ok < 20)
    buf_puts(b, "<p class=\"muted\">* 95th percentile of fewer than 20 "
                "samples: low confidence</p>\n");
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
    char *u = report_url(c, h->info->url);

    buf_printf(b, "<text x=\"4\" y=\"%d\">%zu %d ", y + 13, i + 1,
               (int)h->info->status);
    esc(b, h->info->host ? h->info->host : "-");
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

/* A signed duration: "+1.20 ms", "-0.35 ms". */
static void signed_dur(struct buf *b, int64_t us)
{
  char t[UNITS_FMT_SIZE];

  units_format_us(us < 0 ? -us : us, t, sizeof(t));
  buf_printf(b, "%s%s", us < 0 ? "&minus;" : us > 0 ? "+" : "", t);
}

/* A count, thousands apart by a thin space ("10 000"). */
static void count(struct buf *b, size_t n)
{
  if (n >= 1000) {
    count(b, n / 1000);
    buf_printf(b, "&#x202F;%03zu", n % 1000);
  }
  else {
    buf_printf(b, "%zu", n);
  }
}

/* The comparison of target t with the run's baseline base in mode m (not
 * a pair of --compare all with another target), or NULL. */
static const struct comparison *comparison_of(const struct report_ctx *c,
                                              long base, size_t t,
                                              enum sample_mode m)
{
  const struct analysis *a = c->analysis;
  size_t i;

  for (i = 0; base >= 0 && i < a->n_comparisons; i++)
    if (a->comparisons[i].target == t && a->comparisons[i].mode == m &&
        a->comparisons[i].baseline == (size_t)base)
      return &a->comparisons[i];
  return NULL;
}

/* "no clear difference, -2.54 ms [-2.74, -2.20]" of one comparison. */
static void verdict_words(struct buf *b, const struct comparison *cmp)
{
  const struct compare_result *tot = &cmp->phases[SUM_TOTAL];
  const char *cls = tot->verdict == COMPARE_FASTER   ? "pass"
                    : tot->verdict == COMPARE_SLOWER ? "fail"
                                                     : "muted";

  if (!tot->n_pairs) {
    buf_puts(b, "<span class=\"muted\">not compared: no round where both "
                "succeeded</span>");
    return;
  }
  buf_printf(b, "<span class=\"%s\">%s</span>", cls,
             compare_verdict_names[tot->verdict]);
  buf_puts(b, " ");
  signed_dur(b, tot->median_diff_us);
  buf_puts(b, " [");
  signed_dur(b, tot->ci_low_us);
  buf_puts(b, ", ");
  signed_dur(b, tot->ci_high_us);
  buf_puts(b, "]");
  if (!tot->ci_available)
    buf_printf(b,
               " <span class=\"muted\">(min to max of %zu pairs, too "
               "few for 95&#x202F;%%)</span>",
               tot->n_pairs);
}

/* The phase of a mode with the largest median (the analysis picks it),
 * as "tls 2.89 ms (65 %)". */
static void largest_phase(struct buf *b, const struct mode_summary *m)
{
  int pct;
  enum sum_phase ph = analysis_largest_phase(m, &pct);

  if (ph == SUM_COUNT) {
    buf_puts(b, "-");
    return;
  }
  buf_printf(b, "%s ", sum_phase_names[ph]);
  dur(b, m->phases[ph].p50);
  if (pct >= 0)
    buf_printf(b, " (%d&#x202F;%%)", pct);
}

/* The first screen: per target and mode the median total and where the
 * time goes; per target its top findings; per comparison the verdict. */
static void summary(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  const struct analysis *a = c->analysis;
  const struct check_set *cs = p->checks;
  long base = analysis_baseline(a, p);
  size_t t, i, k;

  buf_puts(b, "<section id=\"summary\">\n<h2>summary</h2>\n");
  if (cs && cs->n) {
    buf_puts(b, "<p>profile <b>");
    esc(b, cs->profile);
    if (!cs->evaluated)
      buf_printf(b, "</b>: %zu checks not evaluated</p>\n", cs->n);
    else
      buf_printf(b, "</b>: %zu of %zu checks passed%s</p>\n",
                 cs->n - cs->n_failed, cs->n,
                 cs->n_failed ? ", <span class=\"fail\">FAIL</span>"
                              : ", <span class=\"pass\">PASS</span>");
  }
  buf_puts(b, "<table>\n<tr><th class=\"l\">target</th><th class=\"l\">"
              "mode</th><th>median total</th><th class=\"l\">largest phase"
              "</th>");
  if (base >= 0)
    buf_puts(b, "<th class=\"l\">against the baseline (median difference, "
                "95&#x202F;% interval)</th>");
  buf_puts(b, "</tr>\n");
  for (t = 0; t < p->n_targets; t++)
    for (i = 0; i < p->n_modes; i++) {
      const struct mode_summary *m = &a->targets[t].modes[p->modes[i]];
      const struct comparison *cmp = comparison_of(c, base, t, p->modes[i]);

      buf_puts(b, "<tr><td class=\"l\">");
      if (i == 0) {
        esc(b, p->targets[t].name);
        if ((long)t == base)
          buf_puts(b, " (baseline)");
      }
      buf_printf(b, "</td><td class=\"l\">%s</td><td>",
                 sample_mode_names[p->modes[i]]);
      if (m->n_ok)
        dur(b, m->phases[SUM_TOTAL].p50);
      else
        buf_puts(b, "<span class=\"fail\">no sample succeeded</span>");
      if (m->n_failed)
        buf_printf(b, " <span class=\"warn\">(%zu failed)</span>",
                   m->n_failed);
      buf_puts(b, "</td><td class=\"l\">");
      largest_phase(b, m);
      if (base >= 0) {
        buf_puts(b, "</td><td class=\"l\">");
        if (cmp)
          verdict_words(b, cmp);
        else
          buf_puts(b, (long)t == base ? "baseline" : "-");
      }
      buf_puts(b, "</td></tr>\n");
    }
  buf_puts(b, "</table>\n");
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &a->targets[t];

    if (!ta->n_findings)
      continue;
    buf_puts(b, "<p><b>");
    esc(b, p->targets[t].name);
    buf_puts(b, "</b>: ");
    for (k = 0; k < ta->n_findings && k < 2; k++) {
      buf_puts(b, k ? "; " : "");
      esc(b, ta->findings[k].title);
      if (ta->findings[k].saving_us) {
        buf_puts(b, " (saves up to ");
        dur(b, ta->findings[k].saving_us);
        buf_puts(b, ")");
      }
    }
    buf_puts(b, "</p>\n");
  }
  buf_puts(b, "</section>\n");
}

static void checks(const struct report_ctx *c, struct buf *b)
{
  const struct check_set *cs = c->plan->checks;
  size_t i;

  if (!cs || !cs->n)
    return;
  buf_puts(b, "<h2>checks of profile ");
  esc(b, cs->profile);
  buf_puts(b, "</h2>\n<table>\n<tr><th class=\"l\">result</th><th "
              "class=\"l\">target</th><th class=\"l\">mode</th><th "
              "class=\"l\">check</th><th class=\"l\">measured</th></tr>\n");
  for (i = 0; i < cs->n; i++) {
    const struct check *k = &cs->v[i];
    char *what = check_describe(k);

    buf_printf(b, "<tr><td class=\"l %s\">%s</td><td class=\"l\">",
               !cs->evaluated ? "muted"
               : k->pass      ? "pass"
                              : "fail",
               !cs->evaluated ? "not evaluated"
               : k->pass      ? "PASS"
                              : "FAIL");
    esc(b, c->plan->targets[k->target].name);
    buf_printf(b, "</td><td class=\"l\">%s</td><td class=\"l\">",
               check_mode_word(k));
    esc(b, what);
    buf_puts(b, "</td><td class=\"l\">");
    esc(b, k->measured ? k->measured : "nothing");
    buf_puts(b, "</td></tr>\n");
    free(what);
  }
  buf_puts(b, "</table>\n");
}

/* Which other findings (by rank) remove some of the same time as finding
 * k, and what the group saves together. */
static void overlap_note(struct buf *b, const struct target_analysis *ta,
                         size_t k)
{
  const struct finding *f = &ta->findings[k];
  size_t i, shown = 0;

  buf_puts(b, "<br>overlaps ");
  for (i = 0; i < ta->n_findings; i++) {
    if (i == k || ta->findings[i].group != f->group)
      continue;
    buf_printf(b, "%s%zu", shown++ ? ", " : "", i + 1);
  }
  for (i = 0; i < ta->n_groups; i++) {
    if (ta->groups[i].id == f->group) {
      buf_puts(b, ": together ");
      dur(b, ta->groups[i].saving_us);
    }
  }
}

static void findings_table(struct buf *b, const struct target_analysis *ta)
{
  size_t k;

  if (!ta->n_findings)
    return;
  buf_puts(b, "<h3>findings, largest estimated saving first</h3>\n<table>\n"
              "<tr><th class=\"l\">finding</th><th>saving up to</th><th>hop"
              "</th><th class=\"l\">evidence and what to do</th></tr>\n");
  for (k = 0; k < ta->n_findings; k++) {
    const struct finding *f = &ta->findings[k];

    buf_printf(b, "<tr><td class=\"l\">%zu. ", k + 1);
    esc(b, f->title);
    buf_puts(b, "</td><td>");
    if (f->saving_us)
      dur(b, f->saving_us);
    else
      buf_puts(b, "-");
    buf_puts(b, "</td><td>");
    if (f->hop)
      buf_printf(b, "%d", f->hop);
    else
      buf_puts(b, "all");
    buf_puts(b, "</td><td class=\"l\">");
    esc(b, f->detail);
    if (f->group)
      overlap_note(b, ta, k);
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n");
  if (ta->n_groups || ta->nonoverlap_us) {
    buf_puts(b, "<p>Savings without overlaps add up to ");
    dur(b, ta->nonoverlap_us);
    if (ta->cold_total_us) {
      buf_puts(b, " of the median cold total ");
      dur(b, ta->cold_total_us);
    }
    buf_puts(b, ".</p>\n");
  }
}

static void cache_table(struct buf *b, const struct target_analysis *ta)
{
  size_t k, i;

  if (!ta->n_cache)
    return;
  buf_puts(b, "<h3>cache per hop</h3>\n<table>\n<tr><th>hop</th><th "
              "class=\"l\">host</th><th class=\"l\">verdict</th><th "
              "class=\"l\">cache</th><th class=\"l\">from header</th><th>"
              "age</th><th class=\"l\">why</th><th class=\"l\">caches on "
              "the way, nearest you first</th></tr>\n");
  for (k = 0; k < ta->n_cache; k++) {
    const struct cache_hop *ch = &ta->cache[k];

    buf_printf(b, "<tr><td>%zu</td><td class=\"l\">", ch->hop);
    esc(b, ch->host);
    buf_printf(b, "</td><td class=\"l\">%s%s</td><td class=\"l\">",
               cache_verdict_names[ch->result.verdict],
               ch->result.inferred ? " <span class=\"muted\">inferred</span>"
                                   : "");
    esc(b, ch->result.vendor ? ch->result.vendor : "-");
    buf_puts(b, "</td><td class=\"l\">");
    if (ch->result.source) {
      buf_puts(b, "<code>");
      esc(b, ch->result.source);
      if (ch->result.raw) {
        buf_puts(b, ": ");
        esc(b, ch->result.raw);
      }
      buf_puts(b, "</code>");
    }
    else {
      buf_puts(b, "-");
    }
    buf_puts(b, "</td><td>");
    if (ch->result.age >= 0)
      buf_printf(b, "%ld&#x202F;s", ch->result.age);
    else
      buf_puts(b, "-");
    buf_puts(b, "</td><td class=\"l\">");
    for (i = 0; i < ch->result.n_reasons; i++) {
      buf_puts(b, i ? "; " : "");
      esc(b, ch->result.reasons[i]);
    }
    buf_puts(b, "</td><td class=\"l\">");
    for (i = 0; i < ch->result.n_layers; i++) {
      const struct cache_layer *cl = &ch->result.layers[i];

      buf_puts(b, i ? "<br>" : "");
      esc(b, cl->vendor ? cl->vendor : "cache");
      if (cl->name) {
        buf_puts(b, " <code>");
        esc(b, cl->name);
        buf_puts(b, "</code>");
      }
      buf_printf(b, ": %s%s", cache_verdict_names[cl->verdict],
                 cl->inferred ? " (inferred)" : "");
    }
    if (!ch->result.n_layers)
      buf_puts(b, "-");
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n");
}

static void km(struct buf *b, double v)
{
  if (isnan(v))
    buf_puts(b, "-");
  else
    buf_printf(b, "%.0f&#x202F;km", v);
}

static void msd(struct buf *b, double v)
{
  if (isnan(v))
    buf_puts(b, "-");
  else
    buf_printf(b, "%.1f&#x202F;ms", v);
}

static void edge_table(struct buf *b, const struct target_analysis *ta)
{
  size_t k;
  int any = 0;

  for (k = 0; k < ta->n_edge; k++)
    if (ta->edge[k].vendor || ta->edge[k].pop)
      any = 1;
  if (!any)
    return;
  buf_puts(b, "<h3>edge per hop</h3>\n<table>\n<tr><th>hop</th><th "
              "class=\"l\">host</th><th class=\"l\">CDN</th><th class=\"l\">"
              "edge location</th><th>distance</th><th>round trip at "
              "least</th><th>median connect</th><th class=\"l\">distant?"
              "</th></tr>\n");
  for (k = 0; k < ta->n_edge; k++) {
    const struct edge_result *e = &ta->edge[k];

    buf_printf(b, "<tr><td>%zu</td><td class=\"l\">", k + 1);
    esc(b, e->host ? e->host : "-");
    buf_puts(b, "</td><td class=\"l\">");
    esc(b, e->vendor ? e->vendor : "-");
    buf_puts(b, "</td><td class=\"l\">");
    esc(b, e->pop ? e->pop : "-");
    if (e->city) {
      buf_puts(b, " (");
      esc(b, e->city);
      if (e->country) {
        buf_puts(b, ", ");
        esc(b, e->country);
      }
      buf_puts(b, ")");
    }
    buf_puts(b, "</td><td>");
    km(b, e->distance_km);
    buf_puts(b, "</td><td>");
    msd(b, e->floor_rtt_ms);
    buf_puts(b, "</td><td>");
    msd(b, e->connect_p50_ms);
    buf_puts(b, "</td><td class=\"l\">");
    if (e->distant == 1) {
      buf_puts(b, "<span class=\"warn\">yes</span>");
      if (e->distant_why) {
        buf_puts(b, ": ");
        esc(b, e->distant_why);
      }
    }
    else {
      buf_puts(b, e->distant == 0 ? "no" : "unknown");
    }
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n");
}

/* The comparison: per target and mode a bar for the median paired
 * difference and a whisker for its 95 % interval, on one scale centred
 * at 0; then a table with the numbers and the phases that explain it. */
static void comparison(const struct report_ctx *c, struct buf *b)
{
  const struct analysis *a = c->analysis;
  long base = analysis_baseline(a, c->plan);
  int64_t scale = 1;
  int row = 24, height, mid = LABEL_W + PLOT_W / 2, differ = 0;
  size_t i;

  if (!a->n_comparisons)
    return;
  for (i = 0; i < a->n_comparisons; i++) {
    const struct compare_result *r = &a->comparisons[i].phases[SUM_TOTAL];
    int64_t v[3] = {r->median_diff_us, r->ci_low_us, r->ci_high_us};
    int k;

    for (k = 0; k < 3 && r->n_pairs; k++) {
      if (v[k] > scale)
        scale = v[k];
      if (-v[k] > scale)
        scale = -v[k];
    }
  }
  height = (int)a->n_comparisons * row + 24;
  buf_puts(b, "<section id=\"comparison\">\n<h2>comparison to the baseline "
              "</h2>\n<p>");
  if (a->comparisons[0].phases[SUM_TOTAL].unpaired)
    buf_puts(b, "unpaired (runs from different places): Hodges&ndash;Lehmann "
                "shift of totals; whiskers: its 95&#x202F;% Mann&ndash;"
                "Whitney interval; left of 0 is faster than the baseline ");
  else
    buf_puts(b, "median paired difference of totals per round; whiskers: "
                "its 95&#x202F;% interval; left of 0 is faster than the "
                "baseline ");
  esc(b, c->plan->targets[base].name);
  buf_puts(b, "</p>\n");
  buf_printf(b,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
             "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
             CHART_W, height, CHART_W, height);
  buf_printf(b,
             "<line x1=\"%d\" y1=\"2\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
             "\n",
             mid, mid, height - 18);
  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *cmp = &a->comparisons[i];
    const struct compare_result *r = &cmp->phases[SUM_TOTAL];
    double half = PLOT_W / 2.0;
    double x = mid + (double)r->median_diff_us * half / (double)scale;
    double lo = mid + (double)r->ci_low_us * half / (double)scale;
    double hi = mid + (double)r->ci_high_us * half / (double)scale;
    int y = (int)i * row + 6;

    buf_printf(b, "<text x=\"4\" y=\"%d\">", y + 12);
    esc(b, c->plan->targets[cmp->target].name);
    /* The pairs of --compare all besides those with the baseline name
     * what they are compared with. */
    if ((long)cmp->baseline != base) {
      buf_puts(b, " vs ");
      esc(b, c->plan->targets[cmp->baseline].name);
    }
    buf_printf(b, " %s</text>\n", sample_mode_names[cmp->mode]);
    if (!r->n_pairs) {
      buf_printf(b, "<text x=\"%d\" y=\"%d\">no pairs</text>\n", mid + 6,
                 y + 12);
      continue;
    }
    buf_printf(b,
               "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" "
               "fill=\"%s\"><title>%s</title></rect>\n",
               x < mid ? x : (double)mid, y, x < mid ? mid - x : x - mid,
               r->verdict == COMPARE_FASTER   ? "#66bb6a"
               : r->verdict == COMPARE_SLOWER ? "#ef5350"
                                              : "#bdbdbd",
               compare_verdict_names[r->verdict]);
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
    signed_dur(b, r->median_diff_us);
    buf_puts(b, "</text>\n");
  }
  buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">0</text>\n",
             mid, height - 4);
  /* Every row names its baseline (with --compare all the rows are
   * against several); bodies that differ get a size column and a note. */
  for (i = 0; i < a->n_comparisons; i++)
    differ |= a->comparisons[i].bodies_differ;
  buf_printf(b,
             "</svg>\n<table>\n<tr><th class=\"l\">target</th><th "
             "class=\"l\">baseline</th><th class=\"l\">mode</th>%s"
             "<th>pairs</th><th class=\"l\">verdict, median difference "
             "[95&#x202F;%% interval]</th><th>change</th><th class=\"l\">"
             "explained by</th></tr>\n",
             differ ? "<th>size</th>" : "");
  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *cmp = &a->comparisons[i];
    const struct compare_result *r = &cmp->phases[SUM_TOTAL];
    size_t w;

    buf_puts(b, "<tr><td class=\"l\">");
    esc(b, c->plan->targets[cmp->target].name);
    buf_puts(b, "</td><td class=\"l\">");
    esc(b, c->plan->targets[cmp->baseline].name);
    buf_printf(b, "</td><td class=\"l\">%s</td>",
               sample_mode_names[cmp->mode]);
    if (differ) {
      char sz[UNITS_FMT_SIZE];

      if (cmp->body_bytes[0] >= 0)
        units_format_bytes(cmp->body_bytes[0], sz, sizeof(sz));
      else
        snprintf(sz, sizeof(sz), "-");
      buf_printf(b, "<td>%s</td>", sz);
    }
    buf_printf(b, "<td>%zu</td><td class=\"l\">", r->n_pairs);
    verdict_words(b, cmp);
    if (r->n_pairs && !r->ci_available)
      buf_printf(b, " <span class=\"muted\">(%.0f&#x202F;%% coverage)</span>",
                 r->ci_level * 100.0);
    if (r->n_dropped) {
      struct buf why;

      buf_init(&why, 0);
      report_left_out(&why, cmp);
      buf_puts(b, " <span class=\"muted\">(");
      esc(b, why.s);
      buf_puts(b, ")</span>");
      buf_release(&why);
    }
    buf_puts(b, "</td><td>");
    if (isnan(r->change_pct))
      buf_puts(b, "-");
    else
      buf_printf(b, "%+.1f&#x202F;%%", r->change_pct);
    buf_puts(b, "</td><td class=\"l\">");
    /* The parts the analysis chose (as text and JSON say them): the
     * redirect, the time between hops and the final hop's phases, which
     * do not overlap. */
    for (w = 0; w < cmp->n_explained; w++) {
      buf_printf(b, "%s%s ", w ? ", " : "",
                 sample_part_names[cmp->explained[w]]);
      signed_dur(b, cmp->parts[cmp->explained[w]].median_diff_us);
    }
    if (!cmp->n_explained)
      buf_puts(b, "-");
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n");
  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *cmp = &a->comparisons[i];
    char s0[UNITS_FMT_SIZE], s1[UNITS_FMT_SIZE];
    size_t j;

    if (!cmp->bodies_differ)
      continue;
    /* Once per pair, whatever the modes. */
    for (j = 0; j < i; j++)
      if (a->comparisons[j].bodies_differ &&
          a->comparisons[j].target == cmp->target &&
          a->comparisons[j].baseline == cmp->baseline)
        break;
    if (j < i)
      continue;
    units_format_bytes(cmp->body_bytes[0], s0, sizeof(s0));
    units_format_bytes(cmp->body_bytes[1], s1, sizeof(s1));
    buf_puts(b, "<p class=\"note\">");
    esc(b, c->plan->targets[cmp->target].name);
    buf_puts(b, " against ");
    esc(b, c->plan->targets[cmp->baseline].name);
    buf_printf(b, ": the bodies differ: %s ", s0);
    esc(b, cmp->body_type[0][0] ? cmp->body_type[0] : "(no type)");
    buf_printf(b, " against %s ", s1);
    esc(b, cmp->body_type[1][0] ? cmp->body_type[1] : "(no type)");
    buf_puts(b, "</p>\n");
  }
  buf_puts(b, "</section>\n");
}

static void drift(const struct report_ctx *c, struct buf *b)
{
  const struct analysis *a = c->analysis;
  size_t i;
  int any = 0;

  for (i = 0; i < a->n_drifts; i++)
    if (a->drifts[i].warning)
      any = 1;
  if (!any)
    return;
  buf_puts(b, "<h2>drift over the rounds</h2>\n<table>\n<tr><th class=\"l\">"
              "target</th><th class=\"l\">mode</th><th>Spearman rho</th><th>"
              "samples</th></tr>\n");
  for (i = 0; i < a->n_drifts; i++) {
    const struct drift *d = &a->drifts[i];

    if (!d->warning)
      continue;
    buf_puts(b, "<tr><td class=\"l\">");
    esc(b, c->plan->targets[d->target].name);
    buf_printf(b, "</td><td class=\"l\">%s</td><td>%.2f</td><td>",
               sample_mode_names[d->mode], d->rho);
    count(b, d->n);
    buf_puts(b, "</td></tr>\n");
  }
  buf_puts(b, "</table>\n<p class=\"muted\">totals that rise or fall with "
              "the round: the network changed during the run</p>\n");
}

void report_html(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  long base = analysis_baseline(c->analysis, p);
  size_t t, i;

  header(c, b);
  summary(c, b);
  checks(c, b);
  comparison(c, b);
  drift(c, b);
  legend(b);
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];
    char *u = report_url(c, p->targets[t].url);

    buf_puts(b, "<h2>");
    esc(b, p->targets[t].name);
    buf_puts(b, (long)t == base ? " (baseline)" : "");
    buf_puts(b, " <code class=\"muted\">");
    esc(b, u);
    buf_puts(b, "</code></h2>\n");
    free(u);
    findings_table(b, ta);
    report_projection_html(c, b, t);
    for (i = 0; i < p->n_modes; i++) {
      const struct mode_summary *m = &ta->modes[p->modes[i]];

      buf_printf(b, "<h3>%s: ", sample_mode_names[p->modes[i]]);
      count(b, m->n_ok);
      buf_puts(b, " of ");
      count(b, m->n_samples);
      buf_puts(b, " samples succeeded</h3>\n");
      if (m->n_ok)
        phase_table(b, m);
      if (m->median_sample >= 0)
        waterfall(c, b, &c->results->samples[m->median_sample]);
      if (m->n_ok)
        strips(c, b, t, p->modes[i], m);
      failures(b, m);
    }
    cache_table(b, ta);
    edge_table(b, ta);
  }
  buf_puts(b, "<p class=\"muted\">made by hopsplit; no script, nothing "
              "fetched</p>\n</body>\n</html>\n");
}
