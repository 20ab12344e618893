/*
 * report_csv.c: one row per hop per sample (SPEC 5, csv), RFC 4180: a
 * header row, fields separated by commas, a field quoted with '"' (and
 * '"' doubled) when it holds a comma, quote, CR or LF, every row ending
 * in CRLF.  A failed sample without hops still gets one row, its hop
 * fields empty.  Unknown values are empty; booleans are true/false;
 * durations are integer microseconds.
 *
 * The values come from the hopsplit/1 document (report_json_tree): the
 * same facts, redacted the same way.  The columns are a contract; new
 * ones are only ever added at the end.
 */
#include <string.h>

#include "jtree.h"
#include "report.h"
#include "banned.h"

/* Column name and where its value is: "s:" in the sample, "h:" in the
 * hop, "t:" in the sample's error, "L:" a list of cache layers in the
 * hop; a path as jt_path takes it. */
static const struct {
  const char *name;
  const char *path;
} columns[] = {
    {"sample", "s:index"},
    {"target", "s:target"},
    {"mode", "s:mode"},
    {"round", "s:round"},
    {"position", "s:position"},
    {"started_at", "s:started_at"},
    {"ok", "s:ok"},
    {"hop", "h:hop"},
    {"method", "h:method"},
    {"url", "h:url"},
    {"status", "h:status"},
    {"host", "h:host"},
    {"remote_ip", "h:remote_ip"},
    {"remote_port", "h:remote_port"},
    {"reused", "h:reused"},
    {"http_version", "h:http_version"},
    {"tls_version", "h:tls.version"},
    {"alpn", "h:tls.alpn"},
    {"resumed", "h:tls.resumed"},
    {"dns_server", "h:dns.server"},
    {"dns_pinned", "h:dns.pinned"},
    {"dns_us", "h:phases_us.dns"},
    {"connect_us", "h:phases_us.connect"},
    {"tls_us", "h:phases_us.tls"},
    {"send_us", "h:phases_us.send"},
    {"wait_us", "h:phases_us.wait"},
    {"transfer_us", "h:phases_us.transfer"},
    {"total_us", "h:phases_us.total"},
    {"start_us", "h:start_us"},
    {"size_download", "h:size_download"},
    {"size_header", "h:size_header"},
    {"sample_total_us", "s:total_us"},
    {"sample_redirect_us", "s:redirect_us"},
    {"sample_other_us", "s:other_us"},
    {"cache", "h:cache.verdict"},
    {"pop", "h:edge.pop"},
    {"error_class", "t:class"},
    {"error_message", "t:message"},
    {"insecure", "d:settings.insecure"},
    {"vantage", "d:vantage"},
    {"final_status", "s:status"},
    {"cache_vendor", "h:cache.vendor"},
    /* "vendor:VERDICT" per cache layer, nearest the user first. */
    {"cache_layers", "L:cache.layers"},
};

#define N_COLUMNS (sizeof(columns) / sizeof(columns[0]))

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

static void row(struct buf *out, const struct jt *doc, const struct jt *s,
                const struct jt *h)
{
  struct buf v;
  size_t i;

  buf_init(&v, 0);
  for (i = 0; i < N_COLUMNS; i++) {
    const char *p = columns[i].path;
    const struct jt *from = p[0] == 's'   ? s
                            : p[0] == 'h' ? h
                            : p[0] == 'd' ? doc
                                          : jt_get(s, "error");

    if (i)
      buf_putc(out, ',');
    buf_reset(&v);
    if (p[0] == 'L') {
      const struct jt *ls = jt_path(h, p + 2);
      size_t k;

      for (k = 0; k < jt_len(ls); k++) {
        const struct jt *vd = jt_get(jt_at(ls, k), "vendor");

        if (k)
          buf_putc(&v, ' ');
        if (vd && vd->type == JT_STRING)
          jt_write_plain(&v, vd);
        else
          buf_puts(&v, "-");
        buf_putc(&v, ':');
        jt_write_plain(&v, jt_get(jt_at(ls, k), "verdict"));
      }
    }
    else
      jt_write_plain(&v, jt_path(from, p + 2));
    field(out, v.s);
  }
  buf_puts(out, "\r\n");
  buf_release(&v);
}

void report_csv(const struct report_ctx *c, struct buf *out)
{
  struct jt doc;
  const struct jt *samples;
  size_t i, k;

  for (i = 0; i < N_COLUMNS; i++)
    buf_printf(out, "%s%s", i ? "," : "", columns[i].name);
  buf_puts(out, "\r\n");
  report_json_tree(c, &doc);
  samples = jt_get(&doc, "samples");
  for (i = 0; i < jt_len(samples); i++) {
    const struct jt *s = jt_at(samples, i);
    const struct jt *hops = jt_get(s, "hops");

    if (!jt_len(hops))
      row(out, &doc, s, NULL);
    for (k = 0; k < jt_len(hops); k++)
      row(out, &doc, s, jt_at(hops, k));
  }
  jt_release(&doc);
}
