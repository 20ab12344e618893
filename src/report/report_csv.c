/*
 * report_csv.c: CSV (hopsplit(1) OUTPUT, csv), RFC 4180: a header row, fields
 * separated by commas, a field quoted with '"' (and '"' doubled) when it
 * holds a comma, quote, CR or LF, every row ending in CRLF.  Unknown
 * values are empty; booleans are true/false; durations are integer
 * microseconds ("_us"), sizes bytes.
 *
 * The per-hop CSV: one row per hop per sample, in the order measured; a
 * failed sample without hops still gets one row, its hop fields empty.
 * The columns are a contract, new ones are only ever added at the end.
 * Columns of the whole sample (sample_total_us, sample_redirect_us,
 * sample_other_us) are filled on the sample's first row
 * only and empty on its other hops' rows, so that a column's mean is the
 * mean over samples, never weighted by their hop count.  "vantage" is
 * where the run measured; "partial" is true on every row of a run cut
 * short (SIGINT).
 *
 * The summary CSV (report_csv_summary, -o FILE.summary.csv): one row per
 * target x mode x phase with n, p50_us, p95_us, min_us, max_us, mean_us,
 * stddev_us, mad_us over the successful samples, then one row per
 * comparison x phase (kind "comparison") with the median paired
 * difference to the baseline, its interval and the verdict.  Its last
 * column, url, is the target's URL (redacted as everywhere), so that a
 * batch's rows say what they measured.
 *
 * Every value comes from the field table (report_fields.h) over the
 * typed samples and analysis, redacted as in every format.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "report.h"
#include "report_fields.h"
#include "banned.h"

enum scope { SC_SAMPLE, SC_SAMPLE_ONCE, SC_HOP, SC_RUN };

/* Column name, where it is read from, and the field's name there. */
static const struct column {
  const char *name;
  enum scope scope;
  const char *field;
} columns[] = {
    {"sample", SC_SAMPLE, "index"},
    {"target", SC_SAMPLE, "target"},
    {"mode", SC_SAMPLE, "mode"},
    {"round", SC_SAMPLE, "round"},
    {"position", SC_SAMPLE, "position"},
    {"started_at", SC_SAMPLE, "started_at"},
    {"ok", SC_SAMPLE, "ok"},
    {"hop", SC_HOP, "hop"},
    {"method", SC_HOP, "method"},
    {"url", SC_HOP, "url"},
    {"status", SC_HOP, "status"},
    {"host", SC_HOP, "host"},
    {"remote_ip", SC_HOP, "remote_ip"},
    {"remote_port", SC_HOP, "remote_port"},
    {"reused", SC_HOP, "reused"},
    {"http_version", SC_HOP, "http_version"},
    {"tls_version", SC_HOP, "tls.version"},
    {"alpn", SC_HOP, "tls.alpn"},
    {"resumed", SC_HOP, "tls.resumed"},
    {"dns_server", SC_HOP, "dns.server"},
    {"dns_pinned", SC_HOP, "dns.pinned"},
    {"dns_us", SC_HOP, "phases_us.dns"},
    {"connect_us", SC_HOP, "phases_us.connect"},
    {"tls_us", SC_HOP, "phases_us.tls"},
    {"send_us", SC_HOP, "phases_us.send"},
    {"wait_us", SC_HOP, "phases_us.wait"},
    {"transfer_us", SC_HOP, "phases_us.transfer"},
    {"total_us", SC_HOP, "phases_us.total"},
    {"start_us", SC_HOP, "start_us"},
    {"size_download", SC_HOP, "size_download"},
    {"size_header", SC_HOP, "size_header"},
    {"sample_total_us", SC_SAMPLE_ONCE, "total_us"},
    {"sample_redirect_us", SC_SAMPLE_ONCE, "redirect_us"},
    {"sample_other_us", SC_SAMPLE_ONCE, "other_us"},
    {"cache", SC_HOP, "cache.verdict"},
    {"pop", SC_HOP, "edge.pop"},
    {"error_class", SC_SAMPLE, "error.class"},
    {"error_message", SC_SAMPLE, "error.message"},
    {"insecure", SC_RUN, "insecure"},
    {"vantage", SC_RUN, "vantage"},
    {"final_status", SC_SAMPLE, "status"},
    {"cache_vendor", SC_HOP, "cache.vendor"},
    /* "vendor:VERDICT" per cache layer, nearest the user first. */
    {"cache_layers", SC_HOP, "cache.layers"},
    {"partial", SC_RUN, "partial"},
    /* The most the sample's stamps can be late, all parts. */
    {"interference_us", SC_SAMPLE_ONCE, "interference_us"},
    {"interfered", SC_SAMPLE, "interfered"},
    {"control", SC_SAMPLE, "control"},
    /* HTTP/3: the server's Alt-Svc offer, why --http3 ended on
     * TCP, the TLS library when it was libcurl-gnutls, 0-RTT bytes. */
    {"alt_svc", SC_HOP, "alt_svc.protocol"},
    {"alt_svc_port", SC_HOP, "alt_svc.port"},
    {"alt_svc_max_age", SC_HOP, "alt_svc.max_age"},
    {"h3_fallback", SC_HOP, "h3_fallback"},
    {"tls_library", SC_HOP, "tls.library"},
    {"tls_earlydata", SC_HOP, "tls_earlydata"},
    /* The kernel's view of the connection (hopsplit(1) TRANSPORT). */
    {"server_us", SC_HOP, "server_us"},
    {"network_us", SC_HOP, "network_us"},
    {"server_timing_us", SC_HOP, "server_timing_us"},
    {"tcp_min_rtt_us", SC_HOP, "tcp.min_rtt_us"},
    {"tcp_rtt_us", SC_HOP, "tcp.rtt_us"},
    {"tcp_retransmits", SC_HOP, "tcp.retransmits"},
    {"tcp_rcv_ooopack", SC_HOP, "tcp.rcv_ooopack"},
    {"tcp_rounds", SC_HOP, "tcp.rounds"},
    {"tcp_last_round_rate", SC_HOP, "tcp.last_round_rate"},
    /* The parts of interference_us (hopsplit(1) INTERFERENCE); empty
     * where not measured. */
    {"interference_late_us", SC_SAMPLE_ONCE, "interference_late_us"},
    {"interference_own_us", SC_SAMPLE_ONCE, "interference_own_us"},
    {"interference_runq_us", SC_SAMPLE_ONCE, "interference_runq_us"},
    {"interference_lock_us", SC_SAMPLE_ONCE, "interference_lock_us"},
    {"interference_output_us", SC_SAMPLE_ONCE, "interference_output_us"},
    {"interference_output_bytes", SC_SAMPLE_ONCE, "interference_output_bytes"},
};

#define N_COLUMNS (ARRAY_SIZE(columns))

static void field(struct buf *out, const char *v)
{
  if (!strpbrk(v, ",\"\r\n")) {
    buf_puts(out, v);
    return;
  }
  buf_putc(out, '"');
  for (; *v; v++) {
    if (*v == '"')
      buf_putc(out, '"');
    buf_putc(out, *v);
  }
  buf_putc(out, '"');
}

/*
 * A text cell (a name, a URL, a header value, an error: what a server or
 * a saved document may choose): control characters and bytes that are
 * not UTF-8 written as \xNN (RFC 4180 text is printable; someone will cat
 * the file), and a value that starts with =, +, -, @, TAB or CR prefixed
 * with ' so that a spreadsheet takes it as text, not as a formula (OWASP
 * "CSV injection").  hopsplit's own text values never start with those;
 * numbers are never prefixed, so a negative duration stays a number.
 */
static void text_field(struct buf *out, const char *v)
{
  struct buf t;

  buf_init(&t, 0);
  if (v[0] && strchr("=+-@\t\r", v[0]))
    buf_putc(&t, '\'');
  buf_put_vis(&t, v);
  field(out, t.s ? t.s : "");
  buf_release(&t);
}

/* The cells a peer or a document can choose; cache_layers too: a layer's
 * name comes from the response (a Via host), and an unnamed one is "-"
 * ("-:HIT"), which a spreadsheet would take for a formula. */
static int is_text(enum field_type t)
{
  return t == FIELD_TEXT || t == FIELD_TEXTS || t == FIELD_HEADERS ||
         t == FIELD_LAYERS;
}

static const struct field *column_field(const struct column *col)
{
  return field_find(col->scope == SC_HOP ? report_hop_fields
                                         : report_sample_fields,
                    col->field);
}

/* One row: r is a sample row, made a hop row when hop. */
static void row(struct buf *out, const struct report_ctx *c,
                const struct field_row *r, int hop, int first)
{
  static const struct field *fields[N_COLUMNS];
  struct buf v;
  size_t i;

  buf_init(&v, 0);
  for (i = 0; i < N_COLUMNS; i++) {
    const struct column *col = &columns[i];
    struct field_value val;

    if (col->scope != SC_RUN && !fields[i])
      fields[i] = column_field(col);
    if (i)
      buf_putc(out, ',');
    buf_reset(&v);
    if (col->scope == SC_RUN) {
      if (!strcmp(col->field, "vantage"))
        text_field(out, c->plan->vantage ? c->plan->vantage : "");
      else
        buf_puts(out,
                 (!strcmp(col->field, "insecure") ? c->plan->opts->insecure
                                                  : c->results->partial)
                     ? "true"
                     : "false");
      continue;
    }
    if ((col->scope == SC_HOP && !hop) ||
        (col->scope == SC_SAMPLE_ONCE && !first))
      continue;
    field_get(fields[i], r, &val);
    field_plain_row(fields[i], r, &val, &v);
    field_value_release(&val);
    if (is_text(fields[i]->type))
      text_field(out, v.s);
    else
      field(out, v.s);
  }
  buf_puts(out, "\r\n");
  buf_release(&v);
}

void report_csv(const struct report_ctx *c, struct buf *out)
{
  struct field_row r;
  size_t i, k;

  for (i = 0; i < N_COLUMNS; i++)
    buf_printf(out, "%s%s", i ? "," : "", columns[i].name);
  buf_puts(out, "\r\n");
  for (i = 0; i < c->results->n; i++) {
    const struct sample *s = &c->results->samples[i];

    field_row_sample(&r, c, s, i, field_facts(c, i));
    if (!s->n_hops)
      row(out, c, &r, 0, 1);
    for (k = 0; k < s->n_hops; k++) {
      field_row_hop(&r, k);
      row(out, c, &r, 1, k == 0);
    }
  }
}

static void summary_values(struct buf *out, const struct field *t,
                           const struct field_row *r, struct buf *v)
{
  for (; t->name; t++) {
    struct field_value val;

    field_get(t, r, &val);
    buf_reset(v);
    field_plain(t, &val, v);
    field_value_release(&val);
    buf_putc(out, ',');
    field(out, v->s);
  }
}

/* --project (hopsplit(1) PROJECTION): a "projection" row per target, mode,
 * network and phase (summed over the hops of the projected sample), and a
 * "projected-comparison" row per comparison and network, its difference and
 * carried interval in the comparison's columns. */
static void projection_rows(const struct report_ctx *c, struct buf *out)
{
  const struct plan *p = c->plan;
  const struct projections *ps = &c->analysis->proj;
  const char *partial = c->results->partial ? "true" : "false";
  const struct field *f;
  char *url;
  size_t t, k, h, i, nst = 0, ncmp = 0;
  int m, ph;

  for (f = report_stat_fields; f->name; f++)
    nst++;
  for (f = report_compare_fields; f->name; f++)
    ncmp++;
  for (t = 0; t < ps->n_targets; t++)
    for (k = 0; k < ps->n_nets; k++)
      for (m = 0; m < MODE_COUNT; m++) {
        const struct projection *pj =
            &ps->targets[t * ps->n_nets + k].modes[m];

        if (!pj->present)
          continue;
        url = report_url(c, p->targets[t].url);
        for (ph = 0; ph < PHASE_COUNT; ph++) {
          int64_t pv = 0, mv = 0;

          for (h = 0; h < pj->n_hops; h++) {
            pv += pj->hops[h].phases[ph];
            mv += pj->hops[h].measured[ph];
          }
          if (ph == PHASE_TOTAL) {
            pv = pj->total_us;
            mv = pj->measured_us;
          }
          buf_puts(out, "projection,");
          text_field(out, p->targets[t].name);
          buf_printf(out, ",,%s,%s", sample_mode_names[m], phase_names[ph]);
          for (i = 0; i < nst + ncmp; i++)
            buf_putc(out, ',');
          buf_printf(out, ",%s,", partial);
          text_field(out, url);
          buf_putc(out, ',');
          text_field(out, ps->nets[k].name);
          buf_printf(out, ",%lld,%lld\r\n", (long long)pv, (long long)mv);
        }
        free(url);
      }
  for (i = 0; i < ps->n_comparisons; i++) {
    const struct proj_comparison *pc = &ps->comparisons[i];
    const struct comparison *cmp = &c->analysis->comparisons[pc->comparison];
    size_t col = 0;

    buf_puts(out, "projected-comparison,");
    text_field(out, p->targets[cmp->target].name);
    buf_putc(out, ',');
    text_field(out, p->targets[cmp->baseline].name);
    buf_printf(out, ",%s,total", sample_mode_names[cmp->mode]);
    for (k = 0; k < nst; k++)
      buf_putc(out, ',');
    for (f = report_compare_fields; f->name; f++, col++) {
      buf_putc(out, ',');
      if (col == FC_MEDIAN_DIFF_US)
        buf_printf(out, "%lld", (long long)pc->median_diff_us);
      else if (col == FC_CI_LOW_US)
        buf_printf(out, "%lld", (long long)pc->ci_low_us);
      else if (col == FC_CI_HIGH_US)
        buf_printf(out, "%lld", (long long)pc->ci_high_us);
      else if (col == FC_VERDICT)
        text_field(out, compare_verdict_name(pc->verdict));
      else if (col == FC_CHANGE_PCT && !isnan(pc->change_pct))
        buf_printf(out, "%.1f", pc->change_pct);
    }
    buf_printf(out, ",%s,", partial);
    url = report_url(c, p->targets[cmp->target].url);
    text_field(out, url);
    free(url);
    buf_putc(out, ',');
    text_field(out, ps->nets[pc->net].name);
    buf_puts(out, ",,\r\n");
  }
}

void report_csv_summary(const struct report_ctx *c, struct buf *out)
{
  const struct plan *p = c->plan;
  const struct analysis *a = c->analysis;
  const struct field *f;
  struct field_row r;
  struct buf v;
  size_t t, m, i;
  int ph;

  buf_init(&v, 0);
  buf_puts(out, "kind,target,baseline,mode,phase");
  for (f = report_stat_fields; f->name; f++)
    buf_printf(out, ",%s", f->name);
  for (f = report_compare_fields; f->name; f++)
    buf_printf(out, ",%s", f->name);
  /* The url of each row's target, then with --project three more
   * columns, and rows of their own (below). */
  buf_puts(out, a->proj.n_nets
                    ? ",partial,url,network,projected_us,measured_us\r\n"
                    : ",partial,url\r\n");
  memset(&r, 0, sizeof(r));
  r.c = c;
  for (t = 0; t < p->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      const struct mode_summary *ms = &a->targets[t].modes[p->modes[m]];
      char *url = report_url(c, p->targets[t].url);

      for (ph = 0; ph < SUM_COUNT; ph++) {
        buf_puts(out, "phase,");
        text_field(out, p->targets[t].name);
        buf_printf(out, ",,%s,%s", sample_mode_names[p->modes[m]],
                   sum_phase_names[ph]);
        r.st = &ms->phases[ph];
        summary_values(out, report_stat_fields, &r, &v);
        for (f = report_compare_fields; f->name; f++)
          buf_putc(out, ',');
        buf_printf(out, ",%s,", c->results->partial ? "true" : "false");
        text_field(out, url);
        buf_printf(out, "%s\r\n", a->proj.n_nets ? ",,," : "");
      }
      free(url);
    }
  for (i = 0; i < a->n_comparisons; i++) {
    const struct comparison *cmp = &a->comparisons[i];
    char *url = report_url(c, p->targets[cmp->target].url);

    for (ph = 0; ph < SUM_COUNT; ph++) {
      buf_puts(out, "comparison,");
      text_field(out, p->targets[cmp->target].name);
      buf_putc(out, ',');
      text_field(out, p->targets[cmp->baseline].name);
      buf_printf(out, ",%s,%s", sample_mode_names[cmp->mode],
                 sum_phase_names[ph]);
      for (f = report_stat_fields; f->name; f++)
        buf_putc(out, ',');
      r.cr = &cmp->phases[ph];
      r.cmp = cmp;
      summary_values(out, report_compare_fields, &r, &v);
      buf_printf(out, ",%s,", c->results->partial ? "true" : "false");
      text_field(out, url);
      buf_printf(out, "%s\r\n", a->proj.n_nets ? ",,," : "");
    }
    free(url);
  }
  projection_rows(c, out);
  buf_release(&v);
}
