/*
 * report_text.c: the report for a person at a terminal (hopsplit(1) OUTPUT,
 * text): header, per target and mode a phase table, the hop chain of the
 * median cold sample, a waterfall of it in 80 columns, and the failures.
 * Input: plan, results, analysis.  Output: text, ANSI colours only when
 * the context says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "report.h"
#include "report_checks_int.h"
#include "report_fields.h"
#include "strutil.h"
#include "url.h"
#include "units.h"
#include "xalloc.h"
#include "report_projection.h"
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

/* Every string from the network or a saved document is placed through
 * vis(): its control characters visible, so that only on() and off() ever
 * put an ESC into the report (see report_text). */
static const char *vis(const char *s)
{
  return report_vis(s);
}

/* A duration without a row in the field table (findings, drift): "0"
 * when nothing happened, as human() writes it. */
static void dur(char *out, size_t len, int64_t us)
{
  if (us == 0)
    snprintf(out, len, "0");
  else
    units_format_us(us, out, len);
}

/* Milliseconds with two decimals and no unit, for the per-hop tables
 * and lines and the differences of comparisons: rounded half up as
 * units_format_us rounds, so that a value reads the same in every table;
 * "+" before a positive value when sign. */
static void ms(char *out, size_t len, int64_t us, int sign)
{
  uint64_t m = us < 0 ? (uint64_t)(-(us + 1)) + 1 : (uint64_t)us;
  uint64_t v = m / 10 + (m % 10 >= 5 ? 1 : 0); /* hundredths of a ms */

  snprintf(out, len, "%s%llu.%02llu",
           us < 0           ? "-"
           : us > 0 && sign ? "+"
                            : "",
           (unsigned long long)(v / 100), (unsigned long long)(v % 100));
}

/*
 * The numbers and words of the tables come from the field table
 * (report_fields.h), the accessors JSON and CSV write; only their form is
 * chosen here.  A row is named by its identifier (&report_hop_fields[FH_X]),
 * so a misspelt one does not compile.
 */

/* The value of row f for r; release it. */
static const struct field *
get(const struct field *f, const struct field_row *r, struct field_value *v)
{
  field_get(f, r, v);
  return f;
}

/* How human() writes a value. */
#define TX_SIGN 1u /* "+" before a positive value */
#define TX_MS   2u /* ms with two decimals and no unit (the head says ms) */

/* Row f for r as a person reads it, into out:
 * field_human (units, "-" when there is none), but "0" for a duration
 * of nothing, so that real values stand out in a table. */
static void human(char *out, size_t len, const struct field *f,
                  const struct field_row *r, unsigned how)
{
  struct field_value v;

  get(f, r, &v);

  if (v.null)
    snprintf(out, len, "-");
  else if (how & TX_MS)
    ms(out, len, v.i, (int)(how & TX_SIGN));
  else if (f->type == FIELD_US && v.i == 0 && !(how & TX_SIGN))
    snprintf(out, len, "0");
  else {
    struct buf h;

    buf_init(&h, 0);
    /* As printf's "%+" for decimals; a difference of nothing unsigned. */
    if ((how & TX_SIGN) && (f->type == FIELD_DOUBLE ? !signbit(v.d) : v.i > 0))
      buf_putc(&h, '+');
    field_human(f, &v, &h);
    snprintf(out, len, "%s", vis(h.s));
    buf_release(&h);
  }
  field_value_release(&v);
}

/* A row of the statistics of st, of the comparison cr. */
static const struct field_row *stat_row(struct field_row *r,
                                        const struct stats *st)
{
  memset(r, 0, sizeof(*r));
  r->st = st;
  return r;
}

static const struct field_row *cmp_row(struct field_row *r,
                                       const struct compare_result *cr)
{
  memset(r, 0, sizeof(*r));
  r->cr = cr;
  return r;
}

/* A statistic of st, as human() writes it. */
static void stat(char *out, size_t len, enum field_stat_id id,
                 const struct stats *st)
{
  struct field_row r;

  human(out, len, &report_stat_fields[id], stat_row(&r, st), 0);
}

/* The head of a statistic's column: its name without the unit
 * ("p50_us": p50). */
static const char *stat_head(char *out, size_t len, enum field_stat_id id)
{
  const struct field *f = &report_stat_fields[id];
  size_t n = strlen(f->name);

  if (f->type == FIELD_US && n > 3 && !strcmp(f->name + n - 3, "_us"))
    n -= 3;
  snprintf(out, len, "%.*s", (int)n, f->name);
  return out;
}

/* An integer row (a count) f for r. */
static int64_t count(const struct field *f, const struct field_row *r)
{
  struct field_value v;
  int64_t i;

  get(f, r, &v);
  i = v.null ? 0 : v.i;
  field_value_release(&v);
  return i;
}

static void wrap2(struct buf *b, const char *text, int first, int ind);

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
    buf_printf(b, "vantage: %s\n", vis(p->vantage));
  if (p->opts->order == ORDER_SHUFFLE)
    buf_printf(b, "order shuffle, seed %llu (--seed to repeat it)\n",
               (unsigned long long)p->seed);
  if (c->analysis->client.source != EDGE_CLIENT_NONE) {
    const struct edge_client *cl = &c->analysis->client;

    buf_printf(b, "client: ");
    if (cl->country[0])
      buf_printf(b, "%s", vis(cl->country));
    if (!isnan(cl->lat))
      buf_printf(b, "%s%.2f,%.2f", cl->country[0] ? " " : "", cl->lat,
                 cl->lon);
    buf_printf(b, " (from %s)%s\n",
               cl->source == EDGE_CLIENT_OPTION ? "--client-location"
                                                : "/cdn-cgi/trace loc",
               cl->hidden ? ", behind WARP/Gateway: location hidden" : "");
  }
  if (c->analysis->client_hint_pop) {
    char *hint = xasprintf(
        "client: location unknown (give --client-location CC or LAT,LON), "
        "so the distance to edge %s is not judged (hopsplit(1), CACHE AND "
        "EDGE)",
        vis(c->analysis->client_hint_pop));

    wrap2(b, hint, 0, 2);
    free(hint);
  }
  if (p->opts->insecure)
    buf_printf(b, "%sTLS verification is OFF (-k)%s\n", on(c, "\033[1;31m"),
               off(c));
  if (c->results->partial && c->results->cut)
    buf_printf(b,
               "%spartial: the run was stopped after %zu samples (no summary "
               "line: how many were planned is not known)%s\n",
               on(c, "\033[1;33m"), c->results->n, off(c));
  else if (c->results->partial)
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

/* The statistics of a phase table, in the order of its columns. */
static const enum field_stat_id stat_cols[] = {FT_P50_US, FT_P95_US, FT_MIN_US,
                                               FT_MAX_US};
#define N_STAT_COLS (ARRAY_SIZE(stat_cols))

/* A row of a phase table: the label, then the statistics of st (only
 * the first, p50, when one: the value of a single sample). */
static void stat_line(struct buf *b, const char *label, const struct stats *st,
                      size_t n_cols)
{
  size_t i;

  buf_printf(b, "    %-13s", label);
  for (i = 0; i < n_cols; i++) {
    char t[32];

    stat(t, sizeof(t), stat_cols[i], st);
    buf_printf(b, " %10s", t);
  }
  buf_putc(b, '\n');
}

/* Label and cells line up: 17 columns of label, then four of 11. */
static void wrap(struct buf *b, const char *text, int ind);

/* Samples measured on a busy loop, and the serial control of --parallel:
 * what the numbers above stand on. */
static void interference_note(struct buf *b, const struct mode_summary *m)
{
  char d[32], ctl[32];
  struct buf t;

  buf_init(&t, 0);
  if (m->n_interfered) {
    /* How late, past what, and what disturbed them most (the largest
     * part of their interference_us). */
    buf_printf(&t,
               "%zu sample%s %s: interfered, %s%.1f ms late (stamps can be "
               "later than %d ms and %d %% of the sample's total, "
               "interference_us; mostly %s)%s",
               m->n_interfered, m->n_interfered == 1 ? "" : "s",
               m->interfered_kept ? "kept" : "left out",
               m->n_interfered > 1 ? "up to " : "",
               (double)m->interfered_max_us / 1000.0,
               SAMPLE_INTERFERENCE_MAX_US / 1000, SAMPLE_INTERFERENCE_MAX_PCT,
               m->interfered_by < IP_COUNT
                   ? interference_part_says[m->interfered_by]
                   : "the loop busy with other work",
               m->interfered_kept ? " (--keep-interfered)"
                                  : "; --keep-interfered keeps them");
    wrap(b, t.s, 4);
  }
  if (m->n_cpu_waited) {
    /* Said, not left out: on a loaded machine every sample waits. */
    buf_reset(&t);
    buf_printf(&t,
               "%zu sample%s waited for a CPU, %s%.1f ms (more than %d ms "
               "and %d %% of the sample's total, interference_runq_us): "
               "the machine was busy; kept",
               m->n_cpu_waited, m->n_cpu_waited == 1 ? "" : "s",
               m->n_cpu_waited > 1 ? "up to " : "",
               (double)m->cpu_waited_max_us / 1000.0,
               SAMPLE_INTERFERENCE_MAX_US / 1000, SAMPLE_INTERFERENCE_MAX_PCT);
    wrap(b, t.s, 4);
  }
  if (m->control.n && m->phases[SUM_TOTAL].n) {
    ms(ctl, sizeof(ctl), m->control.p50, 0);
    ms(d, sizeof(d), m->control_diff_us, 1);
    buf_reset(&t);
    buf_printf(&t,
               "serial control: total p50 %s ms over %zu sample%s alone; "
               "the parallel p50 differs by %s ms (%+.0f %%)",
               ctl, (size_t)m->control.n, m->control.n == 1 ? "" : "s", d,
               m->control_diff_pct);
    wrap(b, t.s, 4);
  }
  else if (m->control.n) {
    ms(ctl, sizeof(ctl), m->control.p50, 0);
    buf_reset(&t);
    buf_printf(&t,
               "serial control: total p50 %s ms over %zu sample%s alone; no "
               "parallel sample counts, so no difference",
               ctl, (size_t)m->control.n, m->control.n == 1 ? "" : "s");
    wrap(b, t.s, 4);
  }
  buf_release(&t);
}

static void phase_table(const struct report_ctx *c, struct buf *b,
                        enum sample_mode mode, const struct mode_summary *m,
                        const struct target_analysis *ta, int *low_conf)
{
  struct field_row r;
  int64_t n_ok =
      count(&report_stat_fields[FT_N], stat_row(&r, &m->phases[SUM_TOTAL]));
  /* One sample: its value in one column, not four equal ones, and no
   * mark on a p95 that is not shown. */
  size_t n_cols = n_ok == 1 ? 1 : N_STAT_COLS;
  int low = n_ok > 1 && n_ok < 20;
  int ph;
  size_t i;
  struct buf zero;

  buf_printf(b, "\n  %s%-7s%s n=%-5lld", on(c, "\033[1m"),
             sample_mode_names[mode], off(c), (long long)n_ok);
  if (n_cols == 1)
    buf_printf(b, " %10s", "value");
  /* The mark hangs after "p95", which ends where its numbers end. */
  for (i = 0; n_cols > 1 && i < N_STAT_COLS; i++) {
    char h[16];

    buf_printf(b, "%s%10s",
               low && i && stat_cols[i - 1] == FT_P95_US ? "*" : " ",
               stat_head(h, sizeof(h), stat_cols[i]));
  }
  buf_putc(b, '\n');
  if (low)
    *low_conf = 1;
  if (!n_ok) {
    buf_printf(b, "    no successful sample%s\n",
               m->n_interfered && !m->interfered_kept ? " counted" : "");
    error_statuses(c, b, m);
    interference_note(b, m);
    return;
  }
  /* A phase that is 0 in every sample (warm's DNS, connect and TLS, the
   * redirect of a URL that does not redirect) is named on one line after
   * the others instead of a row of zeros. */
  buf_init(&zero, 0);
  for (ph = 0; ph < SUM_COUNT; ph++) {
    const struct stats *st = &m->phases[ph];

    if (ph == SUM_SEND && !phase_measured(ta, ph))
      continue;
    if (ph != SUM_TOTAL && st->n && !st->min && !st->max) {
      buf_printf(&zero, "%s%s", zero.len ? ", " : "", sum_phase_names[ph]);
      continue;
    }
    stat_line(b, sum_phase_names[ph], st, n_cols);
  }
  /* Not a phase: how long the connections sat idle before a sample,
   * which changes warm numbers (slow start after idle). */
  if (count(&report_stat_fields[FT_N], stat_row(&r, &m->idle)))
    stat_line(b, "(idle before)", &m->idle, m->idle.n == 1 ? 1 : N_STAT_COLS);
  if (zero.len)
    buf_printf(b, "    0 in every sample: %s\n", zero.s);
  buf_release(&zero);
  error_statuses(c, b, m);
  interference_note(b, m);
}

/* Columns a UTF-8 string of len bytes takes (one per character). */
static int u8cols(const char *s, int len)
{
  int i, n = 0;

  for (i = 0; i < len; i++)
    n += ((unsigned char)s[i] & 0xc0) != 0x80;
  return n;
}

/* s padded with spaces to width columns, right-aligned when right; never
 * cut. */
static void pad(struct buf *b, const char *s, int width, int right)
{
  int w = u8cols(s, (int)strlen(s));

  if (right && w < width)
    buf_printf(b, "%*s", width - w, "");
  buf_puts(b, s);
  if (!right && w < width)
    buf_printf(b, "%*s", width - w, "");
}

/* The length of the unit that starts at s ("%", "ms", "KiB" ... with the
 * punctuation after it), 0 when s starts no unit: a number and its unit
 * are one word for wrap2, so that no line starts with a lone "%". */
static int unit_len(const char *s)
{
  static const char *const units[] = {"%",   "ms",  "us",  "s",  "B",
                                      "KiB", "MiB", "GiB", "km", "x"};
  size_t i;

  for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    size_t n = strlen(units[i]);

    if (!strncmp(s, units[i], n)) {
      while (s[n] && strchr("),.;:]*", s[n]))
        n++;
      if (!s[n] || s[n] == ' ')
        return (int)n;
    }
  }
  return 0;
}

/* Append text word-wrapped to 78 columns: the first line indented by
 * first spaces, the others by ind.  A number and its unit ("97 %",
 * "6.74 ms") stay on one line.  A word longer than a line (a long header
 * value) is broken where the line ends, never cut. */
static void wrap2(struct buf *b, const char *text, int first, int ind)
{
  const char *p = text;
  int col = 0;

  while (*p) {
    const char *w = p;
    int len, cols;

    while (*w == ' ')
      w++;
    len = 0;
    while (w[len] && w[len] != ' ')
      len++;
    if (!len)
      break;
    /* "97 %", "(12.3 ms)": the unit goes with its number; a "%" with any
     * word before it. */
    if (w[len] == ' ' && (w[len + 1] == '%' ||
                          (len && ((w[len - 1] >= '0' && w[len - 1] <= '9') ||
                                   w[len - 1] == ']'))))
      len += unit_len(w + len + 1) ? 1 + unit_len(w + len + 1) : 0;
    cols = u8cols(w, len);
    if (col == 0) {
      buf_printf(b, "%*s", first, "");
      col = first;
    }
    else if (col + 1 + cols > 78 && (cols <= 78 - ind || col + 9 > 78)) {
      buf_printf(b, "\n%*s", ind, "");
      col = ind;
    }
    else {
      buf_putc(b, ' ');
      col++;
    }
    /* What fits of the word (all of it, unless it is longer than a line),
     * then the rest on the next lines. */
    while (len) {
      int k = 0, used = 0;

      while (k < len && (used < 78 - col || col + cols <= 78)) {
        k++;
        while (k < len && ((unsigned char)w[k] & 0xc0) == 0x80)
          k++;
        used++;
      }
      if (!k) { /* no room at all: one character, so the loop ends */
        k = 1;
        while (k < len && ((unsigned char)w[k] & 0xc0) == 0x80)
          k++;
        used = 1;
      }
      buf_add(b, w, (size_t)k);
      col += used;
      cols -= used;
      w += k;
      len -= k;
      if (len) {
        buf_printf(b, "\n%*s", ind, "");
        col = ind;
      }
    }
    p = w;
  }
  if (col)
    buf_putc(b, '\n');
}

static void wrap(struct buf *b, const char *text, int ind)
{
  wrap2(b, text, ind, ind);
}

/* s as the run shows it: redacted unless --show-secrets (a Cache-Status
 * key= or a reason may quote the URL), wrapped. */
static void wrap_shown(struct buf *b, const char *s, size_t indent,
                       int show_secrets)
{
  char *shown = show_secrets ? xstrdup(s) : url_redact_text(s);

  wrap(b, vis(shown), (int)indent);
  free(shown);
}

/* A raw value as the text shows it: redacted unless --show-secrets, its
 * controls made visible, whole up to CACHE_RAW_TEXT_MAX characters and
 * cut with "…" past that (the JSON keeps it whole).  Caller frees. */
#define CACHE_RAW_TEXT_MAX 240

static char *raw_shown(const char *raw, int show_secrets)
{
  char *r = show_secrets ? xstrdup(raw) : url_redact_text(raw);
  const char *v = vis(r);
  size_t n = 0, k = 0;
  char *out;

  while (v[k] && n < CACHE_RAW_TEXT_MAX) {
    k++;
    while (v[k] && ((unsigned char)v[k] & 0xc0) == 0x80)
      k++;
    n++;
  }
  out = v[k] ? xasprintf("%.*s…", (int)k, v) : xstrdup(v);
  free(r);
  return out;
}

/* A hop's cache verdict, and with several caches one line per layer,
 * nearest the user first; every reason starts a
 * line of its own (hopsplit(1) OUTPUT, 80 columns: long values wrap, never cut
 * below CACHE_RAW_TEXT_MAX).  An UNKNOWN verdict shows its reasons too: which
 * headers were looked for. */
static void cache_lines(struct buf *b, const struct cache_hop *ch,
                        int show_secrets)
{
  const struct cache_result *r = &ch->result;
  struct buf l;
  size_t k, j;

  buf_init(&l, 0);
  buf_printf(&l, "cache: %s%s%s%s", cache_verdict_names[r->verdict],
             r->inferred ? " (inferred)" : "", r->vendor ? " at " : "",
             r->vendor ? vis(r->vendor) : "");
  if (r->n_layers > 1)
    buf_printf(&l, " (%zu caches, nearest you first)", r->n_layers);
  else if (r->raw) {
    char *raw = raw_shown(r->raw, show_secrets);

    buf_printf(&l, " (%s%s%s)", r->source ? vis(r->source) : "",
               r->source ? ": " : "", raw);
    free(raw);
  }
  wrap2(b, l.s, 6, 8);
  buf_release(&l);
  if (r->n_layers <= 1) {
    for (k = 0; k < r->n_reasons; k++)
      wrap_shown(b, r->reasons[k], 8, show_secrets);
    return;
  }
  for (k = 0; k < r->n_layers; k++) {
    const struct cache_layer *cl = &r->layers[k];
    const char *who =
        cl->vendor ? vis(cache_vendor_display(cl->vendor)) : "a cache";

    buf_init(&l, 0);
    buf_printf(&l, "%zu. %s", k + 1, who);
    if (cl->name && (!cl->vendor || strcasecmp(cl->name, cl->vendor)))
      buf_printf(&l, " \"%s\"", vis(cl->name));
    buf_printf(&l, ": %s%s", cache_verdict_names[cl->verdict],
               cl->inferred ? " (inferred)" : "");
    wrap2(b, l.s, 8, 11);
    buf_release(&l);
    for (j = 0; j < cl->n_reasons; j++)
      wrap_shown(b, cl->reasons[j], 11, show_secrets);
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
  char h[16];

  if (m->n_hops < 2)
    return;
  buf_printf(b, "\n  %s%s%s%s per hop (ms)%s\n    %-3s %4s", on(c, "\033[1m"),
             sample_mode_names[mode], m->n_ok == 1 ? "" : " ",
             m->n_ok == 1 ? "" : stat_head(h, sizeof(h), FT_P50_US), off(c),
             "hop", "n");
  for (ph = 0; ph < PHASE_COUNT; ph++)
    if (ph != PHASE_SEND || send)
      buf_printf(b, " %8s", phase_names[ph]);
  buf_putc(b, '\n');
  for (k = 0; k < m->n_hops; k++) {
    struct field_row r;

    buf_printf(
        b, "    %-3zu %4lld", m->hops[k].hop,
        (long long)count(&report_stat_fields[FT_N],
                         stat_row(&r, &m->hops[k].phases[PHASE_TOTAL])));
    for (ph = 0; ph < PHASE_COUNT; ph++) {
      char t[32];

      if (ph == PHASE_SEND && !send)
        continue;
      human(t, sizeof(t), &report_stat_fields[FT_P50_US],
            stat_row(&r, &m->hops[k].phases[ph]), TX_MS);
      buf_printf(b, " %8s", t);
    }
    buf_putc(b, '\n');
  }
}

static char *fit_url(const char *u, size_t width);

/* The DNS line of the hop of r, when it says more than a lookup: how the
 * address was known (in the words of the field table) or the resolver,
 * the last CNAME and the TTL. */
static void dns_line(struct buf *b, const struct field_row *r)
{
  int pinned = (int)count(&report_hop_fields[FH_DNS_PINNED], r);
  int cached = (int)count(&report_hop_fields[FH_DNS_CACHED], r);
  int literal = (int)count(&report_hop_fields[FH_DNS_LITERAL], r);
  const struct field *known = pinned    ? &report_hop_fields[FH_DNS_PINNED]
                              : cached  ? &report_hop_fields[FH_DNS_CACHED]
                              : literal ? &report_hop_fields[FH_DNS_LITERAL]
                                        : NULL;
  struct field_value server, v;

  get(&report_hop_fields[FH_DNS_SERVER], r, &server);
  if (known || server.s) {
    buf_printf(b, "      dns: %s", known ? known->label : "from ");
    if (!known)
      buf_put_vis(b, server.s);
    get(&report_hop_fields[FH_DNS_CNAMES], r, &v);
    if (v.n)
      buf_printf(b, ", CNAME %s", vis(v.v[v.n - 1]));
    field_value_release(&v);
    get(&report_hop_fields[FH_DNS_TTL], r, &v);
    if (!v.null && !pinned && !literal)
      buf_printf(b, ", ttl %llds", (long long)v.i);
    field_value_release(&v);
    buf_putc(b, '\n');
  }
  /* The resolvers that refused or failed on the way: their answers are
   * part of the DNS time above. */
  if (r->h) {
    size_t i;

    for (i = 0; i < r->h->dns->n_failed; i++) {
      const struct dns_failure *f = &r->h->dns->failed[i];
      char t[32];

      units_format_us(f->us, t, sizeof(t));
      buf_printf(b, "      dns: %s%s", f->query ? f->query : "",
                 f->query ? " " : "");
      buf_put_vis(b, f->rcode);
      buf_printf(b, " %s ", strcmp(f->rcode, "unreachable") ? "by" : "at");
      buf_put_vis(b, f->server);
      buf_printf(b, " after %s", t);
      if (f->query && r->h->dns->n_addresses)
        buf_printf(b, " (the %s answer was used)",
                   strcmp(f->query, "A") ? "A" : "AAAA");
      buf_putc(b, '\n');
    }
  }
  field_value_release(&server);
}

/* The hop line of the hop of r: number, status, host, address, new or
 * reused, TLS; then its phases that took time, in ms. */
static void hop_line(struct buf *b, const struct field_row *r)
{
  struct field_value ip, ver, alpn;
  char st[16], host[32], addr[80], tls[64], t[32];
  int reused = (int)count(&report_hop_fields[FH_REUSED], r);
  struct buf line;
  int col;
  size_t over;
  int ph, hw;

  human(st, sizeof(st), &report_hop_fields[FH_STATUS], r, 0);
  human(host, sizeof(host), &report_hop_fields[FH_HOST], r, 0);
  get(&report_hop_fields[FH_REMOTE_IP], r, &ip);
  if (ip.s)
    snprintf(addr, sizeof(addr), strchr(ip.s, ':') ? "[%s]:%lld" : "%s:%lld",
             vis(ip.s),
             (long long)count(&report_hop_fields[FH_REMOTE_PORT], r));
  else
    snprintf(addr, sizeof(addr), "-");
  field_value_release(&ip);
  get(&report_hop_fields[FH_TLS_VERSION], r, &ver);
  get(&report_hop_fields[FH_TLS_ALPN], r, &alpn);
  if (ver.s) {
    struct field_value res;

    /* Resumption unknown (a QUIC connection of libcurl-gnutls): no word. */
    get(&report_hop_fields[FH_TLS_RESUMED], r, &res);
    if (!reused && res.null)
      snprintf(tls, sizeof(tls), "%s%s%s", vis(ver.s), alpn.s ? " " : "",
               alpn.s ? vis(alpn.s) : "");
    else
      snprintf(tls, sizeof(tls), "%s %s%s%s", vis(ver.s),
               reused  ? ""
               : res.i ? "resumed"
                       : "full",
               alpn.s ? " " : "", alpn.s ? vis(alpn.s) : "");
    field_value_release(&res);
  }
  else
    snprintf(tls, sizeof(tls), "no TLS");
  field_value_release(&ver);
  field_value_release(&alpn);
  /* 21 columns are left for the TLS words; a longer one ("TLSv1.3
   * resumed http/1.1") takes them from the host, to fit in 80. */
  over = strlen(tls) > 21 ? strlen(tls) - 21 : 0;
  hw = 20 - (int)(over > 10 ? 10 : over);
  buf_printf(b, "  %2lld %3s %-*.*s %-21.21s %-6s %s\n",
             (long long)count(&report_hop_fields[FH_HOP], r), st, hw, hw, host,
             addr, reused ? "reused" : "new", tls);
  /* Phases that took no time are left out; a line too long for 80
   * columns (large values) goes on after a break between two phases. */
  buf_init(&line, 0);
  buf_puts(b, "     ");
  col = 5;
  for (ph = 0; ph <= PHASE_TOTAL; ph++) {
    const struct field *f = &report_hop_fields[FH_PHASES_US_DNS + ph];

    if (ph < PHASE_TOTAL && !count(f, r))
      continue;
    human(t, sizeof(t), f, r, TX_MS);
    buf_reset(&line);
    if (ph < PHASE_TOTAL)
      buf_printf(&line, "%s %s", phase_names[ph], t);
    else
      buf_printf(&line, "= %s ms", t);
    if (col + 1 + (int)line.len > 80) {
      buf_puts(b, "\n       ");
      col = 7;
    }
    buf_printf(b, " %s", line.s);
    col += 1 + (int)line.len;
  }
  buf_putc(b, '\n');
  buf_release(&line);
}

/* The transport line of the hop of r (hopsplit(1) TRANSPORT): the kernel's
 * minimum RTT of its connection, its retransmits and out-of-order
 * arrivals, the body's rounds, and the server's time beside what its
 * Server-Timing says; or why there is none. */
static void tcp_line(struct buf *out, const struct field_row *r)
{
  struct field_value v;
  struct buf line, *b = &line;
  char t[32];
  int64_t n;

  get(&report_hop_fields[FH_TCP_MIN_RTT_US], r, &v);
  if (v.null) {
    field_value_release(&v);
    get(&report_hop_fields[FH_TCP_MISSING], r, &v);
    if (v.s) {
      char *w = xasprintf("tcp: none (%s)", vis(v.s));

      wrap2(out, w, 6, 8);
      free(w);
    }
    field_value_release(&v);
    return;
  }
  units_format_us(v.i, t, sizeof(t));
  field_value_release(&v);
  buf_init(&line, 0);
  buf_printf(b, "rtt %s min", t);
  n = count(&report_hop_fields[FH_TCP_RETRANSMITS], r);
  get(&report_hop_fields[FH_TCP_RETRANSMITS], r, &v);
  if (!v.null)
    buf_printf(b, ", %lld retransmit%s", (long long)n, n == 1 ? "" : "s");
  field_value_release(&v);
  n = count(&report_hop_fields[FH_TCP_RCV_OOOPACK], r);
  if (n > 0)
    buf_printf(b, ", %lld out of order", (long long)n);
  n = count(&report_hop_fields[FH_TCP_ROUNDS], r);
  if (n > 0)
    buf_printf(b, ", body in %lld round%s", (long long)n, n == 1 ? "" : "s");
  get(&report_hop_fields[FH_SERVER_US], r, &v);
  if (!v.null) {
    dur(t, sizeof(t), v.i);
    buf_printf(b, "; server %s", t);
  }
  field_value_release(&v);
  get(&report_hop_fields[FH_SERVER_TIMING_US], r, &v);
  if (!v.null) {
    dur(t, sizeof(t), v.i);
    buf_printf(b, " (Server-Timing %s)", t);
  }
  field_value_release(&v);
  wrap2(out, line.s, 6, 8);
  buf_release(&line);
}

/* The median sample, index-th of the run: its hops, each with the
 * verdicts of the analysis. */
static void hop_chain(const struct report_ctx *c, struct buf *b, size_t index,
                      const struct target_analysis *ta)
{
  const struct sample *s = &c->results->samples[index];
  struct field_row r;
  struct field_value v;
  char t[32], rd[32];
  size_t i;

  field_row_sample(&r, c, s, index, field_facts(c, index));
  human(t, sizeof(t), &report_sample_fields[FS_TOTAL_US], &r, 0);
  human(rd, sizeof(rd), &report_sample_fields[FS_ROUND], &r, 0);
  get(&report_sample_fields[FS_MODE], &r, &v);
  buf_printf(b, "\n  median %s sample: round %s, %zu hop%s, total %s\n", v.s,
             rd, (size_t)s->n_hops, s->n_hops == 1 ? "" : "s", t);
  field_value_release(&v);
  get(&report_sample_fields[FS_PRIMED], &r, &v);
  for (i = 0; i < v.n; i++) {
    char *shown = fit_url(vis(v.v[i]), 80 - 16);

    buf_printf(b, "   primed first: %s\n", shown);
    free(shown);
  }
  field_value_release(&v);
  get(&report_sample_fields[FS_PRIME_ERROR], &r, &v);
  if (v.s) {
    char *e = xasprintf("%s (not measured)", vis(v.s));

    wrap2(b, e, 3, 5);
    free(e);
  }
  field_value_release(&v);
  for (i = 0; i < s->n_hops; i++) {
    field_row_hop(&r, i);
    hop_line(b, &r);
    tcp_line(b, &r);
    if (i < ta->n_cache)
      cache_lines(b, &ta->cache[i], c->plan->opts->show_secrets);
    if (i < ta->n_edge && (ta->edge[i].vendor || ta->edge[i].pop)) {
      const struct edge_result *e = &ta->edge[i];

      buf_printf(b, "      edge: %s%s%s", e->vendor ? vis(e->vendor) : "?",
                 e->pop ? " " : "", e->pop ? vis(e->pop) : "");
      if (e->city)
        buf_printf(b, " (%s%s%s)", vis(e->city), e->country ? ", " : "",
                   e->country ? vis(e->country) : "");
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
    dns_line(b, &r);
    if (r.h && r.h->info->h3_fallback) {
      buf_printf(b, "      http/3: fell back to HTTP/%s over TCP: ",
                 r.h->info->http_version ? r.h->info->http_version : "?");
      buf_put_vis(b, r.h->info->h3_fallback);
      buf_putc(b, '\n');
    }
  }
  if (count(&report_sample_fields[FS_OTHER_US], &r) > 0) {
    human(t, sizeof(t), &report_sample_fields[FS_OTHER_US], &r, 0);
    buf_printf(b, "      %s (set-up between and around hops): %s\n",
               (&report_sample_fields[FS_OTHER_US])->label, t);
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

/* The median sample, index-th of the run, as bars: the total and the
 * hosts shown are the field table's; the bars are drawn from the hops'
 * start and phases. */
static void waterfall(const struct report_ctx *c, struct buf *b, size_t index)
{
  const struct sample *s = &c->results->samples[index];
  int64_t span = s->total_us;
  struct field_row r;
  char t[32];
  size_t i, k;
  int ph;

  field_row_sample(&r, c, s, index, NULL);
  human(t, sizeof(t), &report_sample_fields[FS_TOTAL_US], &r, 0);
  buf_printf(b, "\n  waterfall %*s0%*s%s\n", 8, "",
             WF_WIDTH - 1 - (int)strlen(t), "", t);
  for (i = 0; i < s->n_hops; i++) {
    const struct hop *h = &s->hops[i];
    int64_t at = h->start_us;
    size_t pos = 0;
    char label[48], host[24];

    field_row_hop(&r, i);
    human(host, sizeof(host), &report_hop_fields[FH_HOST], &r, 0);
    snprintf(label, sizeof(label), "%zu %s", i + 1, host);
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
                 err_class_names[e], msg ? vis(msg) : "no detail");
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
                     vis(f->title));
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
      if (f->basis == FINDING_BASIS_UNCERTAIN)
        buf_puts(&bb, "no saving estimated");
      else
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
      buf_printf(&bb, ". %s", vis(f->detail));
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
  /* What an alternative of the same body measured in this run removed,
   * against what the findings that keep the body remove (the analysis
   * decided whether they agree). */
  if (ta->check.present) {
    char m[32], lo[32], hi[32], sv[32], sz[UNITS_FMT_SIZE], *line;

    dur(m, sizeof(m), ta->check.measured_us);
    dur(lo, sizeof(lo), ta->check.ci_low_us);
    dur(hi, sizeof(hi), ta->check.ci_high_us);
    dur(sv, sizeof(sv), ta->check.savings_us);
    units_format_bytes(ta->check.body_bytes, sz, sizeof(sz));
    line = xasprintf(
        "checked against the run: %s, the same %s body, removed %s (95 %% "
        "interval %s to %s); the findings that keep the body remove %s "
        "together: %s",
        vis(c->plan->targets[ta->check.alternative].name), sz, m, lo, hi, sv,
        ta->check.agrees ? "they agree"
        : ta->check.savings_us > ta->check.ci_high_us
            ? "they disagree, promising more than it delivered"
            : "they disagree, explaining less than it removed");
    wrap2(b, line, 2, 4);
    free(line);
  }
}

/* The median difference of the comparison of r and its interval, in ms:
 * "+1.20 [+0.80, +1.60]". */
static void diff_ci(char *out, size_t len, const struct field_row *r)
{
  char md[48], lo[48], hi[48];

  human(md, sizeof(md), &report_compare_fields[FC_MEDIAN_DIFF_US], r,
        TX_MS | TX_SIGN);
  human(lo, sizeof(lo), &report_compare_fields[FC_CI_LOW_US], r,
        TX_MS | TX_SIGN);
  human(hi, sizeof(hi), &report_compare_fields[FC_CI_HIGH_US], r,
        TX_MS | TX_SIGN);
  snprintf(out, len, "%s [%s, %s]", md, lo, hi);
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
      struct field_row r;
      char ci[160], verdict[48];

      cmp_row(&r, &k->phases[SUM_TOTAL]);
      if ((long)k->baseline == analysis_baseline(a, p) ||
          !count(&report_compare_fields[FC_N_PAIRS], &r))
        continue;
      diff_ci(ci, sizeof(ci), &r);
      human(verdict, sizeof(verdict), &report_compare_fields[FC_VERDICT], &r,
            0);
      {
        char *line =
            xasprintf("%-7s %s - %s: %s %s", sample_mode_names[k->mode],
                      vis(p->targets[k->target].name),
                      vis(p->targets[k->baseline].name), ci, verdict);

        wrap2(b, line, 2, 4);
        free(line);
      }
    }
    return;
  }
  for (m = 0; m < p->n_modes; m++) {
    enum sample_mode mode = p->modes[m];
    size_t n = p->n_targets;
    char(*cell)[64] = xcalloc(n * n, sizeof(*cell));
    int nw = 0, cw = 0, keys;

    /* The cells first: the columns are as wide as their widest value or
     * name, so that any value lines up and no name is cut; names that
     * would not fit in 80 columns are replaced by keys (#1 ...) that a
     * legend under the table names. */
    for (i = 0; i < n; i++) {
      int w = u8cols(vis(p->targets[i].name),
                     (int)strlen(vis(p->targets[i].name)));

      nw = w > nw ? w : nw;
      for (j = 0; j < n; j++) {
        const struct comparison *k;
        struct compare_result fl;
        const struct compare_result *t;
        struct field_row r;
        char md[48];
        int flipped = 0;

        if (i == j) {
          snprintf(cell[i * n + j], sizeof(cell[0]), ".");
          continue;
        }
        k = analysis_find_comparison(a, i, j, mode, &flipped);
        if (!k || !k->phases[SUM_TOTAL].n_pairs) {
          snprintf(cell[i * n + j], sizeof(cell[0]), "-");
          continue;
        }
        t = &k->phases[SUM_TOTAL];
        /* Row minus column: the pair the other way round, as the
         * analysis turns it. */
        if (flipped) {
          compare_result_flip(t, &fl);
          t = &fl;
        }
        human(md, sizeof(md), &report_compare_fields[FC_MEDIAN_DIFF_US],
              cmp_row(&r, t), TX_MS | TX_SIGN);
        if (t->verdict == COMPARE_NO_CLEAR_DIFFERENCE)
          snprintf(cell[i * n + j], sizeof(cell[0]), "(%s)", md);
        else
          snprintf(cell[i * n + j], sizeof(cell[0]), "%s", md);
        w = (int)strlen(cell[i * n + j]);
        cw = w > cw ? w : cw;
      }
    }
    cw = cw < 9 ? 9 : cw;
    keys = 2 + nw + (int)n * (1 + (nw > cw ? nw : cw)) > 80;
    if (keys)
      nw = 3;
    else
      cw = nw > cw ? nw : cw;
    buf_printf(b,
               "\n  %s%s%s, every pair: row minus column, median paired ms"
               "\n  (in parentheses: no clear difference)\n  %*s",
               on(c, "\033[1m"), sample_mode_names[mode], off(c), nw, "");
    for (j = 0; j < n; j++) {
      char key[24];

      snprintf(key, sizeof(key), "#%zu", j + 1);
      buf_putc(b, ' ');
      pad(b, keys ? key : vis(p->targets[j].name), cw, 1);
    }
    buf_putc(b, '\n');
    for (i = 0; i < n; i++) {
      char key[24];

      snprintf(key, sizeof(key), "#%zu", i + 1);
      buf_puts(b, "  ");
      pad(b, keys ? key : vis(p->targets[i].name), nw, 0);
      for (j = 0; j < n; j++) {
        buf_putc(b, ' ');
        pad(b, cell[i * n + j], cw, 1);
      }
      buf_putc(b, '\n');
    }
    if (keys) {
      struct buf lg;

      buf_init(&lg, 0);
      for (i = 0; i < n; i++)
        buf_printf(&lg, "%s#%zu %s", i ? ", " : "", i + 1,
                   vis(p->targets[i].name));
      wrap2(b, lg.s, 2, 4);
      buf_release(&lg);
    }
    free(cell);
    /* The pairs of different resources, once, under the first matrix
     * (those against the baseline are said under its table). */
    for (i = 0; m == 0 && i < a->n_comparisons; i++) {
      const struct comparison *k = &a->comparisons[i];
      char s0[UNITS_FMT_SIZE], s1[UNITS_FMT_SIZE], *note;

      if (!k->bodies_differ || k->mode != mode ||
          (long)k->baseline == analysis_baseline(a, p))
        continue;
      units_format_bytes(k->body_bytes[0], s0, sizeof(s0));
      units_format_bytes(k->body_bytes[1], s1, sizeof(s1));
      note =
          xasprintf("the bodies differ: %s %s %s against %s %s %s",
                    vis(p->targets[k->target].name), s0,
                    k->body_type[0][0] ? vis(k->body_type[0]) : "(no type)",
                    vis(p->targets[k->baseline].name), s1,
                    k->body_type[1][0] ? vis(k->body_type[1]) : "(no type)");
      wrap2(b, note, 2, 4);
      free(note);
    }
  }
}

/* A run of more targets than this is a batch: its text report is the
 * overview, the comparison and the checks; the per-target detail is in
 * the other formats (hopsplit(1) OUTPUT, text). */
#define TEXT_DETAIL_MAX 10

/* One row of the comparison table, as it is shown. */
struct cmp_line {
  const struct comparison *cmp; /* NULL for the baseline's row */
  const char *name;
  char p50[32], p95[32], delta[160], pc[16], verdict[48];
};

/* Under a comparison's row: rounds left out, and the parts that explain
 * the difference as the analysis chose them; the interval's mark is
 * explained once after the table (*ci_note, set at the first). */
static void comparison_notes(const struct report_ctx *c, struct buf *b,
                             const struct comparison *cmp, char **ci_note)
{
  const struct compare_result *tot = &cmp->phases[SUM_TOTAL];
  struct field_row r;
  int64_t n_pairs, n_dropped, ci_available;

  (void)c;
  cmp_row(&r, tot);
  n_pairs = count(&report_compare_fields[FC_N_PAIRS], &r);
  n_dropped = count(&report_compare_fields[FC_N_DROPPED], &r);
  ci_available = count(&report_compare_fields[FC_CI_AVAILABLE], &r);
  if (n_dropped) {
    buf_puts(b, "    ");
    report_left_out(b, cmp);
    buf_putc(b, '\n');
  }
  if (!ci_available && n_pairs && !*ci_note) {
    struct field_value level;

    get(&report_compare_fields[FC_CI_LEVEL], &r, &level);
    if (tot->unpaired)
      *ci_note = xasprintf(
          "* %lld and %lld samples: the interval is [min, max] with "
          "%.1f %% coverage",
          (long long)count(&report_compare_fields[FC_N_BASELINE], &r),
          (long long)count(&report_compare_fields[FC_N_TARGET], &r),
          level.d * 100.0);
    else
      *ci_note = xasprintf("* %lld pairs: the interval is [min, max] with "
                           "%.1f %% coverage; 6 or more pairs give 95 %%",
                           (long long)n_pairs, level.d * 100.0);
    field_value_release(&level);
  }
  /* The parts that explain the difference, computed in the analysis:
   * the redirect, the time between hops and the final hop's phases,
   * which do not overlap. */
  if (cmp->n_explained) {
    struct buf ex;
    size_t k;

    buf_init(&ex, 0);
    for (k = 0; k < cmp->n_explained; k++) {
      struct field_row pr;
      char md[48];

      human(md, sizeof(md), &report_compare_fields[FC_MEDIAN_DIFF_US],
            cmp_row(&pr, &cmp->parts[cmp->explained[k]]), TX_SIGN);
      buf_printf(&ex, "%s%s %s", k ? ", " : "explained by: ",
                 sample_part_names[cmp->explained[k]], md);
    }
    wrap2(b, ex.s, 4, 6);
    buf_release(&ex);
  }
}

/* The comparisons with the baseline, one table per mode: the totals\'
 * p50 and p95, the median difference with its interval, the change and
 * the verdict, and the parts that explain it, against target base.  In a
 * batch (more than TEXT_DETAIL_MAX targets) only the rows with a clear
 * difference, and how many had none. */
static void comparison_against(const struct report_ctx *c, struct buf *b,
                               size_t base)
{
  const struct plan *p = c->plan;
  const struct analysis *a = c->analysis;
  size_t i, m;
  char *ci_note = NULL;
  int only_clear = p->n_targets > TEXT_DETAIL_MAX;

  {
    /* Wrapped: with a long baseline name, or the unpaired method, the
     * head is longer than 80 columns. */
    static const char word[] = "comparison";
    char *head = xasprintf(
        "%s against %s (%s)", word, vis(p->targets[base].name),
        a->comparisons[0].phases[SUM_TOTAL].unpaired
            ? "unpaired: different places and times; Hodges-Lehmann shift, "
              "95 % Mann-Whitney interval"
            : "paired by round; 95 % sign-test interval");
    struct buf h;

    buf_init(&h, 0);
    wrap2(&h, head, 0, 2);
    buf_printf(b, "\n%s%s%s%s", on(c, "\033[1m"), word, off(c),
               h.s + strlen(word));
    buf_release(&h);
    free(head);
  }
  for (m = 0; m < p->n_modes; m++) {
    enum sample_mode mode = p->modes[m];
    const struct mode_summary *bs = &a->targets[base].modes[mode];
    struct cmp_line *L = xcalloc(a->n_comparisons + 1, sizeof(*L));
    size_t n = 0, k, unclear = 0;
    int w[5] = {9, 7, 7, 21, 6}, own_line;
    char h50[16], h95[16];

    /* The rows first (the baseline's, then one per comparison with it),
     * then the columns as wide as their widest cell: any value lines up
     * and no name is cut.  Names too long for a column of their own go
     * on a line of their own above their numbers. */
    L[n].name = vis(p->targets[base].name);
    stat(L[n].p50, sizeof(L[n].p50), FT_P50_US, &bs->phases[SUM_TOTAL]);
    stat(L[n].p95, sizeof(L[n].p95), FT_P95_US, &bs->phases[SUM_TOTAL]);
    snprintf(L[n].delta, sizeof(L[n].delta), "(baseline)");
    n++;
    for (i = 0; i < a->n_comparisons; i++) {
      const struct comparison *cmp = &a->comparisons[i];
      const struct compare_result *tot = &cmp->phases[SUM_TOTAL];
      const struct mode_summary *ts = &a->targets[cmp->target].modes[mode];
      struct field_row r;
      struct cmp_line *l = &L[n];
      int64_t n_pairs, ci_available;

      /* Other pairs (--compare all) go to the matrix. */
      if (cmp->mode != mode || cmp->baseline != base)
        continue;
      if (only_clear && tot->verdict != COMPARE_FASTER &&
          tot->verdict != COMPARE_SLOWER) {
        unclear++;
        continue;
      }
      n++;
      l->cmp = cmp;
      l->name = vis(p->targets[cmp->target].name);
      cmp_row(&r, tot);
      n_pairs = count(&report_compare_fields[FC_N_PAIRS], &r);
      ci_available = count(&report_compare_fields[FC_CI_AVAILABLE], &r);
      stat(l->p50, sizeof(l->p50), FT_P50_US, &ts->phases[SUM_TOTAL]);
      stat(l->p95, sizeof(l->p95), FT_P95_US, &ts->phases[SUM_TOTAL]);
      if (n_pairs) {
        diff_ci(l->delta, sizeof(l->delta), &r);
        if (!ci_available)
          snprintf(l->delta + strlen(l->delta),
                   sizeof(l->delta) - strlen(l->delta), "*");
        human(l->pc, sizeof(l->pc), &report_compare_fields[FC_CHANGE_PCT], &r,
              TX_SIGN);
      }
      else {
        snprintf(l->delta, sizeof(l->delta), "no pairs");
        snprintf(l->pc, sizeof(l->pc), "-");
      }
      human(l->verdict, sizeof(l->verdict), &report_compare_fields[FC_VERDICT],
            &r, 0);
    }
    for (k = 0; k < n; k++) {
      const char *cells[5] = {L[k].name, L[k].p50, L[k].p95, L[k].delta,
                              L[k].pc};
      int col;

      for (col = 0; col < 5; col++) {
        int cw = u8cols(cells[col], (int)strlen(cells[col]));

        /* The baseline's "(baseline)" spans the delta and % columns. */
        if (k == 0 && col == 3)
          continue;
        w[col] = cw > w[col] ? cw : w[col];
      }
    }
    own_line = w[0] > 20;
    if (own_line)
      w[0] = 9;
    buf_printf(b, "\n  %s", on(c, "\033[1m"));
    pad(b, sample_mode_names[mode], w[0], 0);
    buf_puts(b, off(c));
    buf_putc(b, ' ');
    pad(b, stat_head(h50, sizeof(h50), FT_P50_US), w[1], 1);
    buf_puts(b, "  ");
    pad(b, stat_head(h95, sizeof(h95), FT_P95_US), w[2], 1);
    buf_puts(b, "  ");
    pad(b, "delta ms [95% CI]", w[3], 0);
    buf_putc(b, ' ');
    pad(b, "%", w[4], 1);
    buf_puts(b, "  verdict\n");
    for (k = 0; k < n; k++) {
      const struct cmp_line *l = &L[k];
      size_t at;
      int width;

      if (own_line) {
        buf_printf(b, "  %s\n", l->name);
        buf_printf(b, "  %*s", w[0], "");
      }
      else {
        buf_puts(b, "  ");
        pad(b, l->name, w[0], 0);
      }
      buf_putc(b, ' ');
      pad(b, l->p50, w[1], 1);
      buf_puts(b, "  ");
      pad(b, l->p95, w[2], 1);
      buf_puts(b, "  ");
      if (!l->cmp) {
        buf_printf(b, "%s\n", l->delta);
        continue;
      }
      at = b->len;
      pad(b, l->delta, w[3], 0);
      buf_putc(b, ' ');
      pad(b, l->pc, w[4], 1);
      /* A wide interval or change pushes the verdict past 80 columns: it
       * goes on a line of its own then. */
      width = 2 + w[0] + 1 + w[1] + 2 + w[2] + 2 +
              u8cols(b->s + at, (int)(b->len - at));
      {
        const struct compare_result *tot = &l->cmp->phases[SUM_TOTAL];

        buf_printf(b, "%s%s%s%s\n",
                   width + 2 + (int)strlen(l->verdict) > 80 ? "\n    " : "  ",
                   on(c, tot->verdict == COMPARE_FASTER   ? "\033[32m"
                         : tot->verdict == COMPARE_SLOWER ? "\033[31m"
                                                          : ""),
                   l->verdict, off(c));
      }
      comparison_notes(c, b, l->cmp, &ci_note);
      /* Different resources (a thumbnail against the photo): said under
       * the row, in the first mode's table. */
      if (l->cmp->bodies_differ && m == 0) {
        char s0[UNITS_FMT_SIZE], s1[UNITS_FMT_SIZE], *note;

        units_format_bytes(l->cmp->body_bytes[0], s0, sizeof(s0));
        units_format_bytes(l->cmp->body_bytes[1], s1, sizeof(s1));
        note = xasprintf(
            "the bodies differ: %s %s against %s %s (%s)", s0,
            l->cmp->body_type[0][0] ? vis(l->cmp->body_type[0]) : "(no type)",
            s1,
            l->cmp->body_type[1][0] ? vis(l->cmp->body_type[1]) : "(no type)",
            vis(p->targets[base].name));
        wrap2(b, note, 4, 6);
        free(note);
      }
    }
    if (unclear)
      buf_printf(b,
                 "  %zu other%s: no clear difference (every row: -o "
                 "FILE.json or FILE.html)\n",
                 unclear, unclear == 1 ? "" : "s");
    free(L);
  }
  /* The interval mark, explained once. */
  if (ci_note) {
    wrap2(b, ci_note, 2, 4);
    free(ci_note);
  }
}

/* The comparison tables: against the run's baseline; a merged document
 * (unpaired) compares like with like, so one table per baseline, in the
 * order of the targets (analysis_unpaired.c). */
static void comparison(const struct report_ctx *c, struct buf *b)
{
  const struct analysis *a = c->analysis;
  size_t i, k;

  if (!a->n_comparisons)
    return;
  if (!a->comparisons[0].phases[SUM_TOTAL].unpaired) {
    comparison_against(c, b, (size_t)analysis_baseline(a, c->plan));
    matrix(c, b);
    return;
  }
  for (i = 0; i < a->n_comparisons; i++) {
    for (k = 0; k < i; k++)
      if (a->comparisons[k].baseline == a->comparisons[i].baseline)
        break;
    if (k == i)
      comparison_against(c, b, a->comparisons[i].baseline);
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
          on(c, "\033[33m"), off(c), vis(c->plan->targets[d->target].name),
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
  const char *name = vis(p->targets[t].name);
  size_t used = strlen(name) + 2;
  char *shown = fit_url(vis(u), used < 60 ? 80 - used : 78);

  if (used < 60)
    buf_printf(b, "\n%s%s%s  %s\n", on(c, "\033[1m"), name, off(c), shown);
  else
    buf_printf(b, "\n%s%.78s%s\n  %s\n", on(c, "\033[1m"), name, off(c),
               shown);
  free(shown);
  free(u);
}

/* --brief: the failures of a target, each distinct first message once
 * with the modes it ends ("failed (cold, warm): connect: ..."), of the
 * class that failed most often in each mode. */
static void brief_failures(const struct report_ctx *c, struct buf *b,
                           const struct target_analysis *ta)
{
  const struct plan *p = c->plan;
  int top[MODE_COUNT];
  size_t i, j;

  for (i = 0; i < p->n_modes; i++) {
    const struct mode_summary *m = &ta->modes[p->modes[i]];
    int e;

    top[i] = ERR_NONE;
    for (e = ERR_NONE + 1; e < ERR_COUNT; e++)
      if (m->failed_by_class[e] &&
          (top[i] == ERR_NONE ||
           m->failed_by_class[e] > m->failed_by_class[top[i]]))
        top[i] = e;
  }
  for (i = 0; i < p->n_modes; i++) {
    const char *msg = ta->modes[p->modes[i]].first_error[top[i]];
    struct buf line;

    if (top[i] == ERR_NONE)
      continue;
    buf_init(&line, 0);
    buf_printf(&line, "failed (%s", sample_mode_names[p->modes[i]]);
    for (j = i + 1; j < p->n_modes; j++) {
      const char *o = ta->modes[p->modes[j]].first_error[top[j]];

      if (top[j] != top[i] || !msg || !o || strcmp(msg, o))
        continue;
      buf_printf(&line, ", %s", sample_mode_names[p->modes[j]]);
      top[j] = ERR_NONE;
    }
    buf_printf(&line, "): %s: %s", err_class_names[top[i]],
               msg ? vis(msg) : "no detail");
    wrap2(b, line.s, 2, 4);
    buf_release(&line);
  }
}

/* --brief: every comparison's verdict with its interval, as the
 * comparison table shows them ("direct vs base, cold: faster -2.29
 * [-2.61, -1.98] ms, -52 %"). */
static void brief_verdicts(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  const struct analysis *a = c->analysis;
  size_t i;

  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *cmp = &a->comparisons[i];
    struct field_row r;
    char delta[160], pc[16], verdict[48];
    char *line;

    cmp_row(&r, &cmp->phases[SUM_TOTAL]);
    human(verdict, sizeof(verdict), &report_compare_fields[FC_VERDICT], &r, 0);
    if (count(&report_compare_fields[FC_N_PAIRS], &r)) {
      diff_ci(delta, sizeof(delta), &r);
      human(pc, sizeof(pc), &report_compare_fields[FC_CHANGE_PCT], &r,
            TX_SIGN);
      /* With fewer than 6 pairs the interval is [min, max] (the table's
       * "*"); said in words here, where "*" marks the p95s. */
      line = xasprintf("%s vs %s, %s: %s %s ms (%s), %s %%",
                       vis(p->targets[cmp->target].name),
                       vis(p->targets[cmp->baseline].name),
                       sample_mode_names[cmp->mode], verdict, delta,
                       count(&report_compare_fields[FC_CI_AVAILABLE], &r)
                           ? "95 % interval"
                           : "min and max: too few pairs for 95 %",
                       pc);
    }
    else {
      line = xasprintf("%s vs %s, %s: %s (no pairs)",
                       vis(p->targets[cmp->target].name),
                       vis(p->targets[cmp->baseline].name),
                       sample_mode_names[cmp->mode], verdict);
    }
    wrap2(b, line, 0, 2);
    free(line);
  }
}

/* --brief's three figures of a target and mode ("-" without a
 * successful sample; "*" after the p95 with fewer than 20). */
static void brief_figures(const struct mode_summary *m, char v[3][32],
                          int *low_conf)
{
  static const enum field_stat_id ids[3] = {FT_P50_US, FT_P95_US, FT_MAX_US};
  int k;

  for (k = 0; k < 3; k++) {
    snprintf(v[k], 32, "-");
    if (m->phases[SUM_TOTAL].n)
      stat(v[k], 32, ids[k], &m->phases[SUM_TOTAL]);
  }
  if (m->phases[SUM_TOTAL].n > 1 && m->phases[SUM_TOTAL].n < 20) {
    snprintf(v[1] + strlen(v[1]), 32 - strlen(v[1]), "*");
    *low_conf = 1;
  }
}

/* Whether no target and mode of the run has more than one sample: then
 * p50, p95 and max are one value, shown once. */
static int single_sample_run(const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t, i;

  for (t = 0; t < p->n_targets; t++)
    for (i = 0; i < p->n_modes; i++)
      if (c->analysis->targets[t].modes[p->modes[i]].phases[SUM_TOTAL].n > 1)
        return 0;
  return 1;
}

/*
 * --brief: one line per target and mode (p50, p95 and max of the total,
 * samples, failures and error statuses) with the first reason of the
 * failures, the verdict of every comparison with its interval, then the
 * findings' titles; the short form hyperfine's summary gives, for people
 * who want a number.  Names are never cut and figures never overflow:
 * every column is as wide as its widest value.
 */
static void report_brief(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  size_t t, i, k;
  int low_conf = 0, w = 12, wn = 5, wv[3] = {10, 10, 10}, ignored = 0;
  int nv = single_sample_run(c) ? 1 : 3;
  char head[3][16], v[3][32], n[32];

  stat_head(head[0], sizeof(head[0]), FT_P50_US);
  stat_head(head[1], sizeof(head[1]), FT_P95_US);
  stat_head(head[2], sizeof(head[2]), FT_MAX_US);
  if (nv == 1)
    snprintf(head[0], sizeof(head[0]), "total");
  /* Every column as wide as its widest value: names are never cut and
   * the columns stay aligned whatever the figures. */
  for (t = 0; t < p->n_targets; t++) {
    if ((int)strlen(vis(p->targets[t].name)) > w)
      w = (int)strlen(vis(p->targets[t].name));
    for (i = 0; i < p->n_modes; i++) {
      const struct mode_summary *m =
          &c->analysis->targets[t].modes[p->modes[i]];

      brief_figures(m, v, &ignored);
      for (k = 0; k < 3; k++)
        if ((int)strlen(v[k]) > wv[k])
          wv[k] = (int)strlen(v[k]);
      if (snprintf(n, sizeof(n), "%zu", m->n_samples) > wn)
        wn = (int)strlen(n);
    }
  }
  for (k = 0; k < 3; k++)
    if ((int)strlen(head[k]) > wv[k])
      wv[k] = (int)strlen(head[k]);
  if (nv == 1)
    buf_printf(b, "%-*s %-7s %*s %*s  %s\n", w, "target", "mode", wn, "n",
               wv[0], head[0], "notes");
  else
    buf_printf(b, "%-*s %-7s %*s %*s %*s %*s  %s\n", w, "target", "mode", wn,
               "n", wv[0], head[0], wv[1], head[1], wv[2], head[2], "notes");
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];

    for (i = 0; i < p->n_modes; i++) {
      const struct mode_summary *m = &ta->modes[p->modes[i]];
      struct buf notes;

      buf_init(&notes, 0);
      brief_figures(m, v, &low_conf);
      if (m->n_failed)
        buf_printf(&notes, "%zu failed", m->n_failed);
      /* What the figures stand on: how many samples were measured and
       * counted, and how many were left out (never said as failures). */
      if (m->n_interfered && !m->interfered_kept)
        buf_printf(&notes,
                   "%s%zu counted, %zu left out: interfered, %s%.1f "
                   "ms late",
                   notes.len ? ", " : "", m->phases[SUM_TOTAL].n,
                   m->n_interfered, m->n_interfered > 1 ? "up to " : "",
                   (double)m->interfered_max_us / 1000.0);
      else if (m->n_interfered)
        buf_printf(&notes, "%s%zu interfered (kept), %s%.1f ms late",
                   notes.len ? ", " : "", m->n_interfered,
                   m->n_interfered > 1 ? "up to " : "",
                   (double)m->interfered_max_us / 1000.0);
      /* Waited for a CPU: said beside, never left out (the machine was
       * busy, not the measurer). */
      if (m->n_cpu_waited)
        buf_printf(&notes, "%s%zu waited for a CPU, %s%.1f ms (kept)",
                   notes.len ? ", " : "", m->n_cpu_waited,
                   m->n_cpu_waited > 1 ? "up to " : "",
                   (double)m->cpu_waited_max_us / 1000.0);
      for (k = 0; k < m->n_statuses; k++)
        if (m->statuses[k].status >= 400)
          buf_printf(&notes, "%s%zu x %ld", notes.len ? ", " : "",
                     m->statuses[k].n, m->statuses[k].status);
      {
        struct buf row;

        buf_init(&row, 0);
        if (nv == 1)
          buf_printf(&row, "%-*s %-7s %*zu %*s", w, vis(p->targets[t].name),
                     sample_mode_names[p->modes[i]], wn, m->n_samples, wv[0],
                     v[0]);
        else
          buf_printf(&row, "%-*s %-7s %*zu %*s %*s %*s", w,
                     vis(p->targets[t].name), sample_mode_names[p->modes[i]],
                     wn, m->n_samples, wv[0], v[0], wv[1], v[1], wv[2], v[2]);
        /* Notes that would push the row past 80 columns go under it,
         * wrapped, so that no line of --brief is wider than a terminal. */
        if (notes.len &&
            u8cols(row.s, (int)row.len) + 2 + u8cols(notes.s, (int)notes.len) >
                80) {
          buf_printf(b, "%s\n", row.s);
          wrap2(b, notes.s, 2, 4);
        }
        else
          buf_printf(b, "%s%s%s\n", row.s, notes.len ? "  " : "", notes.s);
        buf_release(&row);
      }
      buf_release(&notes);
    }
    brief_failures(c, b, ta);
  }
  brief_verdicts(c, b);
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];

    for (k = 0; k < ta->n_findings; k++) {
      char *line = xasprintf("%s: [%s] %s", vis(p->targets[t].name),
                             finding_kind_names[ta->findings[k].kind],
                             vis(ta->findings[k].title));

      wrap2(b, line, 0, 2);
      free(line);
    }
  }
  report_projection_brief(c, b);
  if (low_conf)
    buf_puts(b, "* p95 of fewer than 20 samples: low confidence\n");
  report_checks_text(c, b);
}

static void render(const struct report_ctx *c, struct buf *b);

/* The report, then written to out with every control character escaped:
 * names, header values, error texts and trace bodies come
 * from the network, and an ESC or OSC of a server's X-Cache must not
 * reach the terminal.  Each such string was placed through vis(), so the
 * only ESC left is that of on() and off(): with --color those colours
 * (ESC [ ... m) pass, and this pass catches any control a vis() missed. */
void report_text(const struct report_ctx *c, struct buf *out)
{
  struct buf b;

  buf_init(&b, 0);
  render(c, &b);
  str_escape_ctl(out, b.s ? b.s : "", b.len,
                 STR_KEEP_NL | (c->color ? STR_KEEP_SGR : 0u));
  buf_release(&b);
  report_vis_release();
}

/*
 * The overview of a batch: one entry per target, its name, the p50 of
 * the total in each mode and its URL on one line, under it its top
 * finding (or, when a mode had no successful sample, why).
 */
/* Whether name says all of url but its scheme, port and query: the host
 * and path an unnamed target of a batch is named by (plan.c). */
static int name_tells_url(const char *name, const char *url)
{
  const char *h = strstr(url, "://"), *e;
  size_t hl, nl = strlen(name);

  if (!h)
    return 0;
  h += 3;
  hl = strcspn(h, ":/?#");
  if (nl < hl || strncmp(name, h, hl))
    return 0;
  e = h + hl;
  if (*e == ':')
    e += strcspn(e, "/?#");
  if (!strncmp(e, "/", 1) && (e[1] == '\0' || e[1] == '?' || e[1] == '#'))
    e++;
  return strlen(name + hl) == strcspn(e, "?#") &&
         !strncmp(name + hl, e, nl - hl);
}

static void overview(const struct report_ctx *c, struct buf *b)
{
  const struct plan *p = c->plan;
  size_t t, i;

  buf_printf(b, "\n%s", on(c, "\033[1m"));
  for (i = 0; i < p->n_modes; i++) {
    char h[24];

    snprintf(h, sizeof(h), "%s p50", sample_mode_names[p->modes[i]]);
    buf_printf(b, "%*s%9s", i ? 2 : 1, "", h);
  }
  buf_printf(b, "  target  url; top finding%s\n", off(c));
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];
    char *u = report_url(c, p->targets[t].url), *shown, *line = NULL;
    const char *name = vis(p->targets[t].name);
    size_t used = 0;

    for (i = 0; i < p->n_modes; i++) {
      const struct mode_summary *m = &ta->modes[p->modes[i]];
      char v[32];

      snprintf(v, sizeof(v), "-");
      if (m->phases[SUM_TOTAL].n)
        stat(v, sizeof(v), FT_P50_US, &m->phases[SUM_TOTAL]);
      buf_printf(b, "%*s%9s", i ? 2 : 1, "", v);
      used += i ? 11 : 10;
    }
    buf_printf(b, "  %s", name);
    used += 2 + (size_t)u8cols(name, (int)strlen(name));
    /* The URL whole after the name when it fits; else, unless the name
     * is its host and path, on a line of its own (cut in the middle only
     * when longer than that line). */
    shown = fit_url(vis(u), 74);
    if (used + 2 + strlen(shown) <= 80)
      buf_printf(b, "  %s\n", shown);
    else if (name_tells_url(name, vis(u)))
      buf_putc(b, '\n');
    else
      buf_printf(b, "\n      %s\n", shown);
    for (i = 0; i < p->n_modes && !line; i++) {
      const struct mode_summary *m = &ta->modes[p->modes[i]];
      int e;

      for (e = ERR_NONE + 1; e < ERR_COUNT && !line; e++)
        if (m->failed_by_class[e])
          line = xasprintf(
              "%s%zu of %zu %s samples failed%s: %s: %s", on(c, "\033[31m"),
              m->failed_by_class[e], m->n_samples,
              sample_mode_names[p->modes[i]], off(c), err_class_names[e],
              m->first_error[e] ? vis(m->first_error[e]) : "no detail");
    }
    if (!line && ta->n_findings)
      line = xasprintf("[%s] %s", finding_kind_names[ta->findings[0].kind],
                       vis(ta->findings[0].title));
    if (line)
      wrap2(b, line, 6, 8);
    free(line);
    free(shown);
    free(u);
  }
  {
    char *note = xasprintf(
        "(more than %d targets: the phase tables, hop chains, waterfalls and "
        "every finding of each are in -o FILE.json or FILE.html, and "
        "hopsplit report --format html FILE.json renders them; a target "
        "named by its host and path is shown without its URL where that "
        "does not fit)",
        TEXT_DETAIL_MAX);

    wrap2(b, note, 2, 3);
    free(note);
  }
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
  if (p->n_targets > TEXT_DETAIL_MAX) {
    overview(c, b);
    comparison(c, b);
    drift_warnings(c, b);
    report_checks_text(c, b);
    return;
  }
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];
    const struct mode_summary *cold = &ta->modes[MODE_COLD];
    const struct sample *med = NULL;

    target_line(c, b, t);
    for (i = 0; i < p->n_modes; i++)
      phase_table(c, b, p->modes[i], &ta->modes[p->modes[i]], ta, &low_conf);
    /* The p50 of each hop in the mode of the hop chain below (cold, else
     * the first): the other modes' are in the other formats. */
    for (i = 0; i < p->n_modes; i++)
      if (p->modes[i] == MODE_COLD || (!cold->present && i == 0)) {
        hop_table(c, b, p->modes[i], &ta->modes[p->modes[i]], ta);
        break;
      }
    if (cold->present && cold->median_sample >= 0)
      med = &c->results->samples[cold->median_sample];
    else
      for (i = 0; i < p->n_modes && !med; i++)
        if (ta->modes[p->modes[i]].median_sample >= 0)
          med = &c->results->samples[ta->modes[p->modes[i]].median_sample];
    if (med) {
      size_t index = (size_t)(med - c->results->samples);

      hop_chain(c, b, index, ta);
      waterfall(c, b, index);
    }
    failures(c, b, ta);
    findings(c, b, ta);
    report_projection_text(c, b, t);
  }
  comparison(c, b);
  report_projection_comparisons_text(c, b);
  drift_warnings(c, b);
  report_checks_text(c, b);
  /* The mark is explained once, where a reader ends up. */
  if (low_conf)
    buf_puts(b, "\n* p95 of fewer than 20 samples: low confidence\n");
}
