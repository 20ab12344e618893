/*
 * report_text.c: the report for a person at a terminal (SPEC 5, text):
 * header, per target and mode a phase table, the hop chain of the median
 * cold sample, a waterfall of it in 80 columns, and the failures.
 * Input: plan, results, analysis.  Output: text, ANSI colours only when
 * the context says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"
#include "report_checks.h"
#include "strutil.h"
#include "url.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

#define WF_WIDTH 56 /* waterfall bar columns; label 20 + bar fits in 80 */

static const char *const phase_glyph[PHASE_TOTAL] = {"░", "▒", "▓",
                                                     "▌", "─", "█"};
static const char *const phase_color[PHASE_TOTAL] = {
    "\033[36m", "\033[33m", "\033[35m", "\033[34m", "\033[32m", "\033[94m"};

static const char *on(const struct report_ctx *c, const char *code)
{
  return c->color ? code : "";
}

static const char *off(const struct report_ctx *c)
{
  return c->color ? "\033[0m" : "";
}

/* A duration for a table cell: "0" when nothing happened, so that real
 * values stand out. */
static void dur(char *out, size_t len, int64_t us)
{
  if (us == 0)
    snprintf(out, len, "0");
  else
    units_format_us(us, out, len);
}

/* Milliseconds with two decimals, for the compact per-hop phase line. */
static void ms(char *out, size_t len, int64_t us)
{
  snprintf(out, len, "%lld.%02lld", (long long)(us / 1000),
           (long long)((us % 1000 + 5) / 10 > 99 ? 99 : (us % 1000 + 5) / 10));
}

static void header(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  char t[64];
  size_t i;

  units_rfc3339_ms(c->results->started_at_ms, t, sizeof(t));
  buf_printf(b, "%shopsplit %s%s  %zu target%s, %ld round%s x ",
             on(c, "\033[1m"), HOPSPLIT_VERSION, off(c), p->n_targets,
             p->n_targets == 1 ? "" : "s", p->rounds,
             p->rounds == 1 ? "" : "s");
  for (i = 0; i < p->n_modes; i++)
    buf_printf(b, "%s%s", i ? "," : "", sample_mode_names[p->modes[i]]);
  /* The start time on its own line keeps both within 80 columns. */
  buf_printf(b, ", %zu sample%s\nstarted %s\n", c->results->n,
             c->results->n == 1 ? "" : "s", t);
  if (p->vantage)
    buf_printf(b, "vantage: %s\n", p->vantage);
  if (p->opts->order == ORDER_SHUFFLE)
    buf_printf(b, "order shuffle, seed %llu (--seed to repeat it)\n",
               (unsigned long long)p->seed);
  if (c->analysis->client.source != EDGE_CLIENT_NONE) {
    const struct edge_client *cl = &c->analysis->client;

    buf_printf(b, "client: ");
    if (cl->country[0])
      buf_printf(b, "%s", cl->country);
    if (!isnan(cl->lat))
      buf_printf(b, "%s%.2f,%.2f", cl->country[0] ? " " : "", cl->lat,
                 cl->lon);
    buf_printf(b, " (from %s)%s\n",
               cl->source == EDGE_CLIENT_OPTION ? "--client-location"
                                                : "/cdn-cgi/trace loc",
               cl->hidden ? ", behind WARP/Gateway: location hidden" : "");
  }
  if (p->opts->insecure)
    buf_printf(b, "%sTLS verification is OFF (-k)%s\n", on(c, "\033[1;31m"),
               off(c));
  if (c->results->partial)
    buf_printf(b, "%spartial: interrupted after %zu of %ld samples%s\n",
               on(c, "\033[1;33m"), c->results->n,
               p->rounds * (long)p->n_items, off(c));
}

/* Whether any sample of target ta, in any mode, measured phase ph: a
 * row that is 0 everywhere (send, with libcurl before 8.10) is noise. */
static int phase_measured(const struct target_analysis *ta, int ph)
{
  int m;

  for (m = 0; m < MODE_COUNT; m++)
    if (ta->modes[m].present && ta->modes[m].n_ok &&
        ta->modes[m].phases[ph].max != 0)
      return 1;
  return 0;
}

/* Final statuses >= 400 of one mode, with their counts. */
static void error_statuses(const struct report_ctx *c, struct buf *b,
                           const struct mode_summary *m)
{
  size_t k;

  /* Under -f they are failures, said with the failures. */
  if (c->plan->opts->fail)
    return;
  for (k = 0; k < m->n_statuses; k++)
    if (m->statuses[k].status >= 400)
      buf_printf(b,
                 "    %sstatus %ld%s in %zu of %zu samples (-f fails them)\n",
                 on(c, "\033[31m"), m->statuses[k].status, off(c),
                 m->statuses[k].n, m->n_samples);
}

/* Label and cells line up: 17 columns of label, then four of 11. */
static void phase_table(const struct report_ctx *c, struct buf *b,
                        enum sample_mode mode, const struct mode_summary *m,
                        const struct target_analysis *ta, int *low_conf)
{
  int ph;
  char n[16];

  snprintf(n, sizeof(n), "n=%zu", m->n_ok);
  /* The mark hangs after "p95", which ends where its numbers end. */
  buf_printf(b, "\n  %s%-7s%s %-7s %10s %10s%s%10s %10s\n", on(c, "\033[1m"),
             sample_mode_names[mode], off(c), n, "p50", "p95",
             m->n_ok && m->n_ok < 20 ? "*" : " ", "min", "max");
  if (m->n_ok && m->n_ok < 20)
    *low_conf = 1;
  if (!m->n_ok) {
    buf_printf(b, "    no successful sample\n");
    error_statuses(c, b, m);
    return;
  }
  for (ph = 0; ph < SUM_COUNT; ph++) {
    const struct stats *s = &m->phases[ph];
    char a[32], p95[32], mn[32], mx[32];

    if (ph == SUM_SEND && !phase_measured(ta, ph))
      continue;
    dur(a, sizeof(a), s->p50);
    dur(p95, sizeof(p95), s->p95);
    dur(mn, sizeof(mn), s->min);
    dur(mx, sizeof(mx), s->max);
    buf_printf(b, "    %-13s %10s %10s %10s %10s\n", sum_phase_names[ph], a,
               p95, mn, mx);
  }
  if (m->idle.n) {
    /* Not a phase: how long the connections sat idle before a sample,
     * which changes warm numbers (slow start after idle). */
    char a[32], p95[32], mn[32], mx[32];

    dur(a, sizeof(a), m->idle.p50);
    dur(p95, sizeof(p95), m->idle.p95);
    dur(mn, sizeof(mn), m->idle.min);
    dur(mx, sizeof(mx), m->idle.max);
    buf_printf(b, "    %-13s %10s %10s %10s %10s\n", "(idle before)", a, p95,
               mn, mx);
  }
  error_statuses(c, b, m);
}

/* Append text word-wrapped to 78 columns: the first line indented by
 * first spaces, the others by ind. */
static void wrap2(struct buf *b, const char *text, int first, int ind)
{
  const char *p = text;
  int col = 0;

  while (*p) {
    const char *w = p;
    int len;

    while (*w == ' ')
      w++;
    len = 0;
    while (w[len] && w[len] != ' ')
      len++;
    if (!len)
      break;
    if (col == 0) {
      buf_printf(b, "%*s", first, "");
      col = first;
    }
    else if (col + 1 + len > 78) {
      buf_printf(b, "\n%*s", ind, "");
      col = ind;
    }
    else {
      buf_putc(b, ' ');
      col++;
    }
    buf_add(b, w, (size_t)len);
    col += len;
    p = w + len;
  }
  if (col)
    buf_putc(b, '\n');
}

static void wrap(struct buf *b, const char *text, int ind)
{
  wrap2(b, text, ind, ind);
}

/* s as the run shows it: redacted unless --show-secrets (a Cache-Status
 * key= or a reason may quote the URL). */
static void put_shown(struct buf *b, const char *s, int show_secrets)
{
  char *shown = show_secrets ? xstrdup(s) : url_redact_text(s);

  buf_puts(b, shown);
  free(shown);
}

static void wrap_shown(struct buf *b, const char *s, size_t indent,
                       int show_secrets)
{
  char *shown = show_secrets ? xstrdup(s) : url_redact_text(s);

  wrap(b, shown, (int)indent);
  free(shown);
}

/* A hop's cache verdict, and with several caches one line per layer,
 * nearest the user first; every reason starts a line of its own (SPEC 5,
 * 80 columns).  An UNKNOWN verdict shows its reasons too: which headers
 * were looked for. */
static void cache_lines(struct buf *b, const struct cache_hop *ch,
                        int show_secrets)
{
  const struct cache_result *r = &ch->result;
  size_t k, j;

  buf_printf(b, "      cache: %s%s%.24s", cache_verdict_names[r->verdict],
             r->vendor ? " at " : "", r->vendor ? r->vendor : "");
  if (r->n_layers > 1)
    buf_printf(b, " (%zu caches, nearest you first)\n", r->n_layers);
  else {
    if (r->raw) {
      char raw[40];

      snprintf(raw, sizeof(raw), "%.32s", r->raw);
      buf_printf(b, " (%.16s%s", r->source ? r->source : "",
                 r->source ? ": " : "");
      put_shown(b, raw, show_secrets);
      buf_putc(b, ')');
    }
    buf_putc(b, '\n');
    for (k = 0; k < r->n_reasons; k++)
      wrap_shown(b, r->reasons[k], 8, show_secrets);
    return;
  }
  for (k = 0; k < r->n_layers; k++) {
    const struct cache_layer *l = &r->layers[k];
    const char *who = l->vendor ? cache_vendor_display(l->vendor) : "a cache";

    buf_printf(b, "        %zu. %.20s", k + 1, who);
    if (l->name && (!l->vendor || strcasecmp(l->name, l->vendor)))
      buf_printf(b, " \"%.28s\"", l->name);
    buf_printf(b, ": %s\n", cache_verdict_names[l->verdict]);
    for (j = 0; j < l->n_reasons; j++)
      wrap_shown(b, l->reasons[j], 11, show_secrets);
  }
}

/* p50 of each phase per hop index, when samples have several hops; a
 * header row over aligned columns. */
static void hop_table(const struct report_ctx *c, struct buf *b,
                      enum sample_mode mode, const struct mode_summary *m,
                      const struct target_analysis *ta)
{
  size_t k;
  int ph, send = phase_measured(ta, SUM_SEND);

  if (m->n_hops < 2)
    return;
  buf_printf(b, "\n  %s%s p50 per hop (ms)%s\n    %-3s %4s", on(c, "\033[1m"),
             sample_mode_names[mode], off(c), "hop", "n");
  for (ph = 0; ph < PHASE_COUNT; ph++)
    if (ph != PHASE_SEND || send)
      buf_printf(b, " %8s", phase_names[ph]);
  buf_putc(b, '\n');
  for (k = 0; k < m->n_hops; k++) {
    buf_printf(b, "    %-3zu %4zu", m->hops[k].hop,
               m->hops[k].phases[PHASE_TOTAL].n);
    for (ph = 0; ph < PHASE_COUNT; ph++) {
      char t[32];

      if (ph == PHASE_SEND && !send)
        continue;
      ms(t, sizeof(t), m->hops[k].phases[ph].p50);
      buf_printf(b, " %8s", t);
    }
    buf_putc(b, '\n');
  }
}

static char *fit_url(const char *u, size_t width);

static void hop_chain(const struct report_ctx *c, struct buf *b,
                      const struct sample *s, const struct target_analysis *ta)
{
  char t[32];
  size_t i;
  int ph;

  dur(t, sizeof(t), s->total_us);
  buf_printf(b, "\n  median %s sample: round %d, %zu hop%s, total %s\n",
             sample_mode_names[s->mode], s->round, (size_t)s->n_hops,
             s->n_hops == 1 ? "" : "s", t);
  for (i = 0; i < s->n_primed; i++) {
    char *u = report_url(c, s->primed[i]);
    char *shown = fit_url(u, 80 - 16);

    buf_printf(b, "   primed first: %s\n", shown);
    free(shown);
    free(u);
  }
  if (s->prime_error) {
    char *e = xasprintf("%s (not measured)", s->prime_error);

    wrap2(b, e, 3, 5);
    free(e);
  }
  for (i = 0; i < s->n_hops; i++) {
    const struct hop *h = &s->hops[i];
    char addr[80], tls[64];

    if (h->remote_ip)
      snprintf(addr, sizeof(addr),
               strchr(h->remote_ip, ':') ? "[%s]:%d" : "%s:%d", h->remote_ip,
               h->remote_port);
    else
      snprintf(addr, sizeof(addr), "-");
    if (h->tls.version)
      snprintf(tls, sizeof(tls), "%s %s%s%s", h->tls.version,
               h->reused             ? ""
               : h->tls.resumed == 1 ? "resumed"
                                     : "full",
               h->tls.alpn ? " " : "", h->tls.alpn ? h->tls.alpn : "");
    else
      snprintf(tls, sizeof(tls), "no TLS");
    buf_printf(b, "  %2zu %3d %-20.20s %-21.21s %-6s %s\n", i + 1,
               (int)h->status, h->host ? h->host : "-", addr,
               h->reused ? "reused" : "new", tls);
    /* Phases that took no time are left out to fit in 80 columns. */
    buf_puts(b, "     ");
    for (ph = 0; ph < PHASE_TOTAL; ph++) {
      if (!h->phases[ph])
        continue;
      ms(t, sizeof(t), h->phases[ph]);
      buf_printf(b, " %s %s", phase_names[ph], t);
    }
    ms(t, sizeof(t), h->phases[PHASE_TOTAL]);
    buf_printf(b, " = %s ms\n", t);
    if (i < ta->n_cache)
      cache_lines(b, &ta->cache[i], c->plan->opts->show_secrets);
    if (i < ta->n_edge && (ta->edge[i].vendor || ta->edge[i].pop)) {
      const struct edge_result *e = &ta->edge[i];

      buf_printf(b, "      edge: %s%s%s", e->vendor ? e->vendor : "?",
                 e->pop ? " " : "", e->pop ? e->pop : "");
      if (e->city)
        buf_printf(b, " (%s%s%s)", e->city, e->country ? ", " : "",
                   e->country ? e->country : "");
      if (e->distant == 1)
        buf_printf(b, " %sdistant%s", on(c, "\033[1;31m"), off(c));
      if (e->hidden)
        buf_puts(b, " (WARP/Gateway: client location hidden)");
      buf_putc(b, '\n');
      if (!isnan(e->distance_km)) {
        buf_printf(b, "        %.0f km from the client, floor %.1f ms RTT",
                   e->distance_km, e->floor_rtt_ms);
        if (!isnan(e->connect_p50_ms))
          buf_printf(b, ", connect p50 %.1f ms", e->connect_p50_ms);
        buf_putc(b, '\n');
      }
    }
    if (h->dns.pinned || h->dns.cached || h->dns.literal || h->dns.server) {
      buf_printf(b, "      dns: %s",
                 h->dns.pinned    ? "pinned by --resolve"
                 : h->dns.cached  ? "cached answer"
                 : h->dns.literal ? "IP literal"
                                  : "from ");
      if (!h->dns.pinned && !h->dns.cached && !h->dns.literal)
        buf_puts(b, h->dns.server);
      if (h->dns.n_cnames)
        buf_printf(b, ", CNAME %s", h->dns.cnames[h->dns.n_cnames - 1]);
      if (h->dns.ttl >= 0 && !h->dns.pinned && !h->dns.literal)
        buf_printf(b, ", ttl %ds", (int)h->dns.ttl);
      buf_putc(b, '\n');
    }
  }
  if (s->other_us > 0) {
    dur(t, sizeof(t), s->other_us);
    buf_printf(b, "      other (set-up between and around hops): %s\n", t);
  }
}

/* Columns of [from, to) on a bar of WF_WIDTH columns for span us. */
static size_t col(int64_t at, int64_t span)
{
  if (span <= 0 || at <= 0)
    return 0;
  if (at >= span)
    return WF_WIDTH;
  return (size_t)((at * WF_WIDTH + span / 2) / span);
}

static void waterfall(const struct report_ctx *c, struct buf *b,
                      const struct sample *s)
{
  int64_t span = s->total_us;
  char t[32];
  size_t i, k;
  int ph;

  dur(t, sizeof(t), span);
  buf_printf(b, "\n  waterfall %*s0%*s%s\n", 8, "",
             WF_WIDTH - 1 - (int)strlen(t), "", t);
  for (i = 0; i < s->n_hops; i++) {
    const struct hop *h = &s->hops[i];
    int64_t at = h->start_us;
    size_t pos = 0;
    char label[24];

    snprintf(label, sizeof(label), "%zu %s", i + 1, h->host ? h->host : "-");
    buf_printf(b, "  %-17.17s ", label);
    for (k = 0; k < col(at, span); k++, pos++)
      buf_putc(b, ' ');
    for (ph = 0; ph < PHASE_TOTAL; ph++) {
      size_t end;

      at += h->phases[ph];
      end = col(at, span);
      /* A phase that took time gets at least one column. */
      if (h->phases[ph] > 0 && end <= pos && pos < WF_WIDTH)
        end = pos + 1;
      if (end <= pos)
        continue;
      buf_puts(b, on(c, phase_color[ph]));
      for (; pos < end; pos++)
        buf_puts(b, phase_glyph[ph]);
      buf_puts(b, off(c));
    }
    buf_putc(b, '\n');
  }
  buf_puts(b, "  ");
  for (ph = 0; ph < PHASE_TOTAL; ph++) {
    int any = ph != PHASE_SEND;

    /* send only when a hop measured it, as in the tables. */
    for (i = 0; i < s->n_hops && !any; i++)
      any = s->hops[i].phases[ph] > 0;
    if (any)
      buf_printf(b, " %s%s%s %s", on(c, phase_color[ph]), phase_glyph[ph],
                 off(c), phase_names[ph]);
  }
  buf_putc(b, '\n');
}

/*
 * The failures of a target, each message said once with its counts: the
 * modes whose first failure of a class has the same words share a line
 * ("20 of 20 cold and 20 of 20 warm samples failed: tls: ...").
 */
static void failures(const struct report_ctx *c, struct buf *b,
                     const struct target_analysis *ta)
{
  const struct plan *p = c->plan;
  int e, said[MODE_COUNT][ERR_COUNT];
  size_t i, j;

  memset(said, 0, sizeof(said));
  for (i = 0; i < p->n_modes; i++) {
    const struct mode_summary *m = &ta->modes[p->modes[i]];

    for (e = ERR_NONE + 1; e < ERR_COUNT; e++) {
      struct buf line;
      const char *msg = m->first_error[e];
      size_t more = 0;

      if (!m->failed_by_class[e] || said[p->modes[i]][e])
        continue;
      buf_init(&line, 0);
      buf_printf(&line, "%s%zu of %zu %s", on(c, "\033[31m"),
                 m->failed_by_class[e], m->n_samples,
                 sample_mode_names[p->modes[i]]);
      for (j = i + 1; j < p->n_modes; j++) {
        const struct mode_summary *o = &ta->modes[p->modes[j]];

        if (!o->failed_by_class[e] || !msg || !o->first_error[e] ||
            strcmp(msg, o->first_error[e]))
          continue;
        said[p->modes[j]][e] = 1;
        buf_printf(&line, " and %zu of %zu %s", o->failed_by_class[e],
                   o->n_samples, sample_mode_names[p->modes[j]]);
        more++;
      }
      buf_printf(&line, " samples failed%s: %s: %s", off(c),
                 err_class_names[e], msg ? msg : "no detail");
      wrap2(b, line.s, 2, 4);
      buf_release(&line);
      (void)more;
    }
  }
}

static void findings(const struct report_ctx *c, struct buf *b,
                     const struct target_analysis *ta)
{
  size_t k, j;

  if (!ta->n_findings)
    return;
  buf_printf(b, "\n  %sfindings%s (largest estimated saving first)\n",
             on(c, "\033[1m"), off(c));
  for (k = 0; k < ta->n_findings; k++) {
    const struct finding *f = &ta->findings[k];
    char t[32], g[32];
    struct buf ov;
    char *head, *body;

    dur(t, sizeof(t), f->saving_us);
    head = xasprintf("%zu. [%s] %s", k + 1, finding_kind_names[f->kind],
                     f->title);
    buf_init(&ov, 0);
    if (f->group) {
      /* Which others remove some of the same time, and what all of them
       * together would. */
      for (j = 0; j < ta->n_findings; j++)
        if (j != k && ta->findings[j].group == f->group)
          buf_printf(&ov, "%s%zu", ov.len ? ", " : "", j + 1);
      for (j = 0; j < ta->n_groups; j++)
        if (ta->groups[j].id == f->group)
          dur(g, sizeof(g), ta->groups[j].saving_us);
    }
    {
      struct buf bb;

      buf_init(&bb, 0);
      buf_printf(&bb, "saving up to %s",
                 f->saving_us ? t : "nothing measurable");
      if (f->basis || f->group) {
        buf_puts(&bb, " (");
        if (f->basis)
          buf_printf(&bb, "basis: %s", finding_basis_names[f->basis]);
        if (f->group)
          buf_printf(&bb, "%soverlaps %s: together %s", f->basis ? "; " : "",
                     ov.s, g);
        buf_putc(&bb, ')');
      }
      buf_printf(&bb, ". %s", f->detail);
      body = buf_detach(&bb);
    }
    wrap2(b, head, 2, 5);
    wrap(b, body, 5);
    buf_release(&ov);
    free(head);
    free(body);
  }
  if (ta->cold_total_us > 0) {
    char n[32], tot[32];

    dur(n, sizeof(n), ta->nonoverlap_us);
    dur(tot, sizeof(tot), ta->cold_total_us);
    buf_printf(b,
               "  savings without overlaps add up to %s of the cold median "
               "%s\n",
               n, tot);
  }
}

static void signed_ms(char *out, size_t len, int64_t us)
{
  char t[UNITS_FMT_SIZE];

  units_format_us(us < 0 ? -us : us, t, sizeof(t));
  snprintf(out, len, "%s%s", us < 0 ? "-" : us > 0 ? "+" : "", t);
}

/* A signed difference in milliseconds with two decimals, no unit. */
static void delta_ms(char *out, size_t len, int64_t us)
{
  int64_t a = us < 0 ? -us : us;

  snprintf(out, len, "%s%lld.%02lld",
           us < 0   ? "-"
           : us > 0 ? "+"
                    : "",
           (long long)(a / 1000), (long long)((a % 1000) / 10));
}

/* The matrix of every pair is shown for --compare all up to this many
 * targets; beyond, each further pair gets a line of its own. */
#define MATRIX_MAX 5

static int matrix_shown(const struct plan *p)
{
  return p->compare_all && p->n_targets > 2 && p->n_targets <= MATRIX_MAX;
}

/* With --compare all: per mode, row minus column, the median paired
 * difference in ms; in parentheses when its interval contains 0. */
static void matrix(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  const struct analysis *a = c->analysis;
  size_t m, i, j;

  if (!p->compare_all || p->n_targets < 3)
    return;
  if (!matrix_shown(p)) {
    buf_printf(b, "\n  %sother pairs%s (median paired difference, ms)\n",
               on(c, "\033[1m"), off(c));
    for (i = 0; i < a->n_comparisons; i++) {
      const struct comparison *k = &a->comparisons[i];
      const struct compare_result *t = &k->phases[SUM_TOTAL];
      char md[48], lo[48], hi[48];

      if (k->baseline == p->baseline || !t->n_pairs)
        continue;
      delta_ms(md, sizeof(md), t->median_diff_us);
      delta_ms(lo, sizeof(lo), t->ci_low_us);
      delta_ms(hi, sizeof(hi), t->ci_high_us);
      buf_printf(b, "  %-7s %s - %s: %s [%s, %s] %s\n",
                 sample_mode_names[k->mode], p->targets[k->target].name,
                 p->targets[k->baseline].name, md, lo, hi,
                 compare_verdict_names[t->verdict]);
    }
    return;
  }
  for (m = 0; m < p->n_modes; m++) {
    enum sample_mode mode = p->modes[m];

    buf_printf(b,
               "\n  %s%s%s, every pair: row minus column, median paired ms"
               "\n  (in parentheses: no clear difference)\n  %-9s",
               on(c, "\033[1m"), sample_mode_names[mode], off(c), "");
    for (j = 0; j < p->n_targets; j++)
      buf_printf(b, " %9.9s", p->targets[j].name);
    buf_putc(b, '\n');
    for (i = 0; i < p->n_targets; i++) {
      buf_printf(b, "  %-9.9s", p->targets[i].name);
      for (j = 0; j < p->n_targets; j++) {
        const struct comparison *k;
        struct compare_result fl;
        const struct compare_result *t;
        char md[48], cellv[64];
        int flipped = 0;

        if (i == j) {
          buf_printf(b, " %9s", ".");
          continue;
        }
        k = analysis_find_comparison(a, i, j, mode, &flipped);
        if (!k || !k->phases[SUM_TOTAL].n_pairs) {
          buf_printf(b, " %9s", "-");
          continue;
        }
        t = &k->phases[SUM_TOTAL];
        if (flipped) {
          compare_result_flip(t, &fl);
          t = &fl;
        }
        delta_ms(md, sizeof(md), t->median_diff_us);
        if (t->verdict == COMPARE_NO_CLEAR_DIFFERENCE)
          snprintf(cellv, sizeof(cellv), "(%s)", md);
        else
          snprintf(cellv, sizeof(cellv), "%s", md);
        buf_printf(b, " %9s", cellv);
      }
      buf_putc(b, '\n');
    }
  }
}

static void comparison(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  const struct analysis *a = c->analysis;
  size_t i, m;
  char *ci_note = NULL;

  if (!a->n_comparisons)
    return;
  if (a->comparisons[0].phases[SUM_TOTAL].unpaired)
    buf_printf(b,
               "\n%scomparison%s against %s (unpaired: different places and "
               "times; Hodges-Lehmann shift, 95 %% Mann-Whitney interval)\n",
               on(c, "\033[1m"), off(c), p->targets[p->baseline].name);
  else
    buf_printf(b,
               "\n%scomparison%s against %s (paired by round; 95 %% "
               "sign-test interval)\n",
               on(c, "\033[1m"), off(c), p->targets[p->baseline].name);
  for (m = 0; m < p->n_modes; m++) {
    enum sample_mode mode = p->modes[m];
    const struct mode_summary *bs = &a->targets[p->baseline].modes[mode];
    char p50[32], p95[32];

    buf_printf(b, "\n  %s%-9s%s %7s  %7s  %-21s %6s  %s\n", on(c, "\033[1m"),
               sample_mode_names[mode], off(c), "p50", "p95",
               "delta ms [95% CI]", "%", "verdict");
    dur(p50, sizeof(p50), bs->phases[SUM_TOTAL].p50);
    dur(p95, sizeof(p95), bs->phases[SUM_TOTAL].p95);
    buf_printf(b, "  %-9.9s %7s  %7s  %s\n", p->targets[p->baseline].name, p50,
               p95, "(baseline)");
    for (i = 0; i < a->n_comparisons; i++) {
      const struct comparison *cmp = &a->comparisons[i];
      const struct compare_result *tot = &cmp->phases[SUM_TOTAL];
      const struct mode_summary *ts = &a->targets[cmp->target].modes[mode];
      char md[48], lo[48], hi[48], delta[160], pc[16];

      /* Other pairs (--compare all) go to the matrix. */
      if (cmp->mode != mode || cmp->baseline != p->baseline)
        continue;
      dur(p50, sizeof(p50), ts->phases[SUM_TOTAL].p50);
      dur(p95, sizeof(p95), ts->phases[SUM_TOTAL].p95);
      if (tot->n_pairs) {
        delta_ms(md, sizeof(md), tot->median_diff_us);
        delta_ms(lo, sizeof(lo), tot->ci_low_us);
        delta_ms(hi, sizeof(hi), tot->ci_high_us);
        snprintf(delta, sizeof(delta), "%s [%s, %s]%s", md, lo, hi,
                 tot->ci_available ? "" : "*");
        if (isnan(tot->change_pct))
          snprintf(pc, sizeof(pc), "-");
        else
          snprintf(pc, sizeof(pc), "%+.1f", tot->change_pct);
      }
      else {
        snprintf(delta, sizeof(delta), "no pairs");
        snprintf(pc, sizeof(pc), "-");
      }
      buf_printf(b, "  %-9.9s %7s  %7s  %-21s %6s  %s%s%s\n",
                 p->targets[cmp->target].name, p50, p95, delta, pc,
                 on(c, tot->verdict == COMPARE_FASTER   ? "\033[32m"
                       : tot->verdict == COMPARE_SLOWER ? "\033[31m"
                                                        : ""),
                 compare_verdict_names[tot->verdict], off(c));
      if (tot->n_dropped)
        buf_printf(b, "    %zu round%s left out: a side failed\n",
                   tot->n_dropped, tot->n_dropped == 1 ? "" : "s");
      /* The interval's mark, explained once after the table. */
      if (!tot->ci_available && tot->n_pairs && !ci_note && tot->unpaired)
        ci_note = xasprintf("* %zu and %zu samples: the interval is [min, "
                            "max] with %.1f %% coverage",
                            tot->n_base, tot->n_target, tot->ci_level * 100.0);
      else if (!tot->ci_available && tot->n_pairs && !ci_note)
        ci_note = xasprintf("* %zu pairs: the interval is [min, max] with "
                            "%.1f %% coverage; 6 or more pairs give 95 %%",
                            tot->n_pairs, tot->ci_level * 100.0);
      /* The parts that explain the difference, computed in the analysis:
       * the redirect, the time between hops and the final hop's phases,
       * which do not overlap. */
      if (cmp->n_explained) {
        struct buf ex;

        buf_init(&ex, 0);
        for (size_t ph = 0; ph < cmp->n_explained; ph++) {
          const struct compare_result *pr = &cmp->parts[cmp->explained[ph]];

          signed_ms(md, sizeof(md), pr->median_diff_us);
          buf_printf(&ex, "%s%s %s", ph ? ", " : "explained by: ",
                     sample_part_names[cmp->explained[ph]], md);
        }
        wrap2(b, ex.s, 4, 6);
        buf_release(&ex);
      }
    }
  }
  /* The interval mark, explained once. */
  if (ci_note) {
    wrap2(b, ci_note, 2, 4);
    free(ci_note);
  }
  matrix(c, b);
}

static void drift_warnings(const struct report_ctx *c, struct buf *b)
{
  const struct analysis *a = c->analysis;
  size_t i;

  int first = 1;

  for (i = 0; i < a->n_drifts; i++) {
    const struct drift *d = &a->drifts[i];

    if (d->warning && first) {
      buf_putc(b, '\n');
      first = 0;
    }
    if (d->warning) {
      char ch[32], *line;

      units_format_us(d->change_us < 0 ? -d->change_us : d->change_us, ch,
                      sizeof(ch));
      line = xasprintf(
          "%swarning%s: %s %s totals drift over the rounds: %s "
          "by %s (%.1f %% of the median) from the first round "
          "to the last (Theil-Sen fit; Spearman rho %.2f, "
          "n=%zu): the network changed during the run",
          on(c, "\033[33m"), off(c), c->plan->targets[d->target].name,
          sample_mode_names[d->mode], d->change_us < 0 ? "down" : "up", ch,
          d->change_pct < 0 ? -d->change_pct : d->change_pct, d->rho, d->n);
      wrap2(b, line, 0, 2);
      free(line);
    }
  }
}

/* A URL in at most width columns: the middle of a longer one becomes
 * "...", so that every line of the report fits in 80 columns (the JSON
 * keeps it whole).  Caller frees. */
static char *fit_url(const char *u, size_t width)
{
  size_t len = strlen(u), head;

  if (len <= width || width < 20)
    return xstrdup(u);
  head = (width - 3) * 2 / 3;
  return xasprintf("%.*s...%s", (int)head, u, u + len - (width - 3 - head));
}

static void target_line(const struct report_ctx *c, struct buf *b, size_t t)
{
  const struct plan *p = c->plan;
  char *u = report_url(c, p->targets[t].url);
  size_t used = strlen(p->targets[t].name) + 2;
  char *shown = fit_url(u, used < 60 ? 80 - used : 78);

  if (used < 60)
    buf_printf(b, "\n%s%s%s  %s\n", on(c, "\033[1m"), p->targets[t].name,
               off(c), shown);
  else
    buf_printf(b, "\n%s%.78s%s\n  %s\n", on(c, "\033[1m"), p->targets[t].name,
               off(c), shown);
  free(shown);
  free(u);
}

/*
 * --brief: one line per target and mode (p50, p95 and max of the total,
 * samples, failures and error statuses), then the findings' titles; the
 * short form hyperfine's summary gives, for people who want a number.
 */
static void report_brief(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  size_t t, i, k;
  int low_conf = 0;

  buf_printf(b, "%-12s %-7s %5s %10s %10s %10s  %s\n", "target", "mode", "n",
             "p50", "p95", "max", "notes");
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];

    for (i = 0; i < p->n_modes; i++) {
      const struct mode_summary *m = &ta->modes[p->modes[i]];
      const struct stats *tot = &m->phases[SUM_TOTAL];
      char a[32] = "-", p95[32] = "-", mx[32] = "-";
      struct buf notes;

      buf_init(&notes, 0);
      if (m->n_ok) {
        dur(a, sizeof(a), tot->p50);
        dur(p95, sizeof(p95), tot->p95);
        dur(mx, sizeof(mx), tot->max);
        if (m->n_ok < 20) {
          snprintf(p95 + strlen(p95), sizeof(p95) - strlen(p95), "*");
          low_conf = 1;
        }
      }
      if (m->n_failed)
        buf_printf(&notes, "%zu failed", m->n_failed);
      for (k = 0; k < m->n_statuses; k++)
        if (m->statuses[k].status >= 400)
          buf_printf(&notes, "%s%zu x %ld", notes.len ? ", " : "",
                     m->statuses[k].n, m->statuses[k].status);
      buf_printf(b, "%-12.12s %-7s %5zu %10s %10s %10s%s%s\n",
                 p->targets[t].name, sample_mode_names[p->modes[i]],
                 m->n_samples, a, p95, mx, notes.len ? "  " : "", notes.s);
      buf_release(&notes);
    }
  }
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];

    for (k = 0; k < ta->n_findings; k++) {
      char *line = xasprintf("%s: [%s] %s", p->targets[t].name,
                             finding_kind_names[ta->findings[k].kind],
                             ta->findings[k].title);

      wrap2(b, line, 0, 2);
      free(line);
    }
  }
  if (low_conf)
    buf_puts(b, "* p95 of fewer than 20 samples: low confidence\n");
  report_checks_text(c, b);
}

static void render(const struct report_ctx *c, struct buf *b);

/* The report, then written to out with every control character escaped
 * (issue 16): names, header values, error texts and trace bodies come
 * from the network, and an ESC or OSC of a server's X-Cache must not
 * reach the terminal.  Only the colours of on() and off() pass. */
void report_text(const struct report_ctx *c, struct buf *out)
{
  struct buf b;

  buf_init(&b, 0);
  render(c, &b);
  str_escape_ctl(out, b.s ? b.s : "", b.len,
                 STR_KEEP_NL | (c->color ? STR_KEEP_SGR : 0u));
  buf_release(&b);
}

static void render(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  size_t t, i;
  int low_conf = 0;

  if (c->brief) {
    report_brief(c, b);
    return;
  }
  header(c, b);
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];
    const struct mode_summary *cold = &ta->modes[MODE_COLD];
    const struct sample *med = NULL;

    target_line(c, b, t);
    for (i = 0; i < p->n_modes; i++)
      phase_table(c, b, p->modes[i], &ta->modes[p->modes[i]], ta, &low_conf);
    for (i = 0; i < p->n_modes; i++)
      hop_table(c, b, p->modes[i], &ta->modes[p->modes[i]], ta);
    if (cold->present && cold->median_sample >= 0)
      med = &c->results->samples[cold->median_sample];
    else
      for (i = 0; i < p->n_modes && !med; i++)
        if (ta->modes[p->modes[i]].median_sample >= 0)
          med = &c->results->samples[ta->modes[p->modes[i]].median_sample];
    if (med) {
      hop_chain(c, b, med, ta);
      waterfall(c, b, med);
    }
    failures(c, b, ta);
    findings(c, b, ta);
  }
  comparison(c, b);
  drift_warnings(c, b);
  report_checks_text(c, b);
  /* The mark is explained once, where a reader ends up. */
  if (low_conf)
    buf_puts(b, "\n* p95 of fewer than 20 samples: low confidence\n");
}
