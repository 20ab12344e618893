/*
 * writeout.c: -w/--write-out, curl's --write-out over one typed sample.
 * Input: a FORMAT with curl's %{variable} names and a finished sample.
 * Output: the text curl would print after that transfer, once per sample
 * as curl prints once per transfer (curl src/tool_writeout.c).
 *
 * The times add up over the hops as curl's do with -L (libcurl's
 * Curl_pgrsTime adds each transfer's offset from its own start):
 * time_connect is the sum of every hop's time to its connection, and so
 * on, with hopsplit's c-ares lookup as the name lookup; time_total and
 * time_redirect are the sample's.  The variables are one table, which
 * also gives %{json}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "strutil.h"
#include "xalloc.h"
#include "banned.h"

enum wo_kind { WO_SECONDS, WO_INT, WO_TEXT, WO_CODE };

struct wo_value {
  enum wo_kind kind;
  int64_t n;        /* microseconds (WO_SECONDS) or a number */
  const char *text; /* WO_TEXT: NULL prints nothing, as curl */
  char *owned;      /* freed after use */
};

typedef void wo_get_fn(const struct report_ctx *c, const struct sample *s,
                       struct wo_value *v);

struct wo_var {
  const char *name;
  wo_get_fn *get;
};

static const struct hop *last_hop(const struct sample *s)
{
  return s->n_hops ? &s->hops[s->n_hops - 1] : NULL;
}

/* The offsets of the end of phase last from each hop's start, summed
 * over the hops (only hops with TLS when tls_only). */
static int64_t upto_tls(const struct sample *s, enum phase last, int tls_only)
{
  int64_t t = 0;
  size_t i;
  int ph;

  for (i = 0; i < s->n_hops; i++) {
    const struct hop *h = &s->hops[i];

    if (tls_only && !h->tls.version)
      continue;
    for (ph = 0; ph <= (int)last; ph++)
      t += h->phases[ph];
  }
  return t;
}

static int64_t upto(const struct sample *s, enum phase last)
{
  return upto_tls(s, last, 0);
}

static void v_code(const struct report_ctx *c, const struct sample *s,
                   struct wo_value *v)
{
  (void)c;
  v->kind = WO_CODE;
  v->n = s->status;
}

#define SECONDS_UPTO(fn, ph)                                                  \
  static void fn(const struct report_ctx *c, const struct sample *s,          \
                 struct wo_value *v)                                          \
  {                                                                           \
    (void)c;                                                                  \
    v->kind = WO_SECONDS;                                                     \
    v->n = upto(s, ph);                                                       \
  }
SECONDS_UPTO(v_namelookup, PHASE_DNS)
SECONDS_UPTO(v_connect, PHASE_CONNECT)
SECONDS_UPTO(v_pretransfer, PHASE_SEND)
SECONDS_UPTO(v_starttransfer, PHASE_WAIT)

/* curl gives 0 for time_appconnect of a hop without TLS. */
static void v_appconnect(const struct report_ctx *c, const struct sample *s,
                         struct wo_value *v)
{
  (void)c;
  v->kind = WO_SECONDS;
  v->n = upto_tls(s, PHASE_TLS, 1);
}

static void v_total(const struct report_ctx *c, const struct sample *s,
                    struct wo_value *v)
{
  (void)c;
  v->kind = WO_SECONDS;
  v->n = s->total_us;
}

static void v_redirect(const struct report_ctx *c, const struct sample *s,
                       struct wo_value *v)
{
  (void)c;
  v->kind = WO_SECONDS;
  v->n = s->n_hops > 1 ? s->redirect_us : 0;
}

static void v_remote_ip(const struct report_ctx *c, const struct sample *s,
                        struct wo_value *v)
{
  const struct hop *h = last_hop(s);

  (void)c;
  v->kind = WO_TEXT;
  v->text = h && h->remote_ip ? h->remote_ip : "";
}

static void v_remote_port(const struct report_ctx *c, const struct sample *s,
                          struct wo_value *v)
{
  const struct hop *h = last_hop(s);

  (void)c;
  v->kind = WO_INT;
  v->n = h ? h->remote_port : 0;
}

static void v_num_redirects(const struct report_ctx *c, const struct sample *s,
                            struct wo_value *v)
{
  (void)c;
  v->kind = WO_INT;
  v->n = s->n_hops > 1 ? (int64_t)s->n_hops - 1 : 0;
}

static void v_num_connects(const struct report_ctx *c, const struct sample *s,
                           struct wo_value *v)
{
  size_t i;

  (void)c;
  v->kind = WO_INT;
  v->n = 0;
  for (i = 0; i < s->n_hops; i++)
    if (!s->hops[i].reused && s->hops[i].remote_ip)
      v->n++;
}

static void v_url_effective(const struct report_ctx *c, const struct sample *s,
                            struct wo_value *v)
{
  const struct hop *h = last_hop(s);

  v->kind = WO_TEXT;
  v->owned = report_url(c, h ? h->url : c->plan->targets[s->target].url);
  v->text = v->owned;
}

static void v_url(const struct report_ctx *c, const struct sample *s,
                  struct wo_value *v)
{
  v->kind = WO_TEXT;
  v->owned = report_url(c, c->plan->targets[s->target].url);
  v->text = v->owned;
}

/* curl's redirect_url: where the last response pointed, when it was a
 * redirect that was not followed (--no-follow or --max-redirs). */
static void v_redirect_url(const struct report_ctx *c, const struct sample *s,
                           struct wo_value *v)
{
  const struct hop *h = last_hop(s);

  v->kind = WO_TEXT;
  if (h && h->location) {
    v->owned = report_url(c, h->location);
    v->text = v->owned;
  }
}

static void v_http_version(const struct report_ctx *c, const struct sample *s,
                           struct wo_value *v)
{
  const struct hop *h = last_hop(s);

  (void)c;
  v->kind = WO_TEXT;
  v->text = h && h->http_version ? h->http_version : "0";
}

static void v_method(const struct report_ctx *c, const struct sample *s,
                     struct wo_value *v)
{
  const struct hop *h = last_hop(s);

  (void)c;
  v->kind = WO_TEXT;
  v->text = h && h->method ? h->method : "";
}

static void v_scheme(const struct report_ctx *c, const struct sample *s,
                     struct wo_value *v)
{
  const struct hop *h = last_hop(s);
  const char *u = h ? h->url : c->plan->targets[s->target].url;

  v->kind = WO_TEXT;
  v->text = !strncmp(u, "https:", 6) ? "HTTPS" : "HTTP";
}

static void v_size_download(const struct report_ctx *c, const struct sample *s,
                            struct wo_value *v)
{
  const struct hop *h = last_hop(s);

  (void)c;
  v->kind = WO_INT;
  v->n = h ? h->size_download : 0;
}

static void v_size_header(const struct report_ctx *c, const struct sample *s,
                          struct wo_value *v)
{
  size_t i;

  (void)c;
  v->kind = WO_INT;
  v->n = 0;
  for (i = 0; i < s->n_hops; i++)
    v->n += s->hops[i].size_header;
}

static void v_errormsg(const struct report_ctx *c, const struct sample *s,
                       struct wo_value *v)
{
  (void)c;
  v->kind = WO_TEXT;
  v->text = s->ok ? NULL : s->err_message;
}

static void v_exitcode(const struct report_ctx *c, const struct sample *s,
                       struct wo_value *v)
{
  (void)c;
  v->kind = WO_INT;
  v->n = s->ok ? 0 : 3; /* hopsplit's exit status for a failed sample */
}

/* hopsplit's own, beside curl's. */
static void v_target(const struct report_ctx *c, const struct sample *s,
                     struct wo_value *v)
{
  v->kind = WO_TEXT;
  v->text = c->plan->targets[s->target].name;
}

static void v_mode(const struct report_ctx *c, const struct sample *s,
                   struct wo_value *v)
{
  (void)c;
  v->kind = WO_TEXT;
  v->text = sample_mode_names[s->mode];
}

static void v_round(const struct report_ctx *c, const struct sample *s,
                    struct wo_value *v)
{
  (void)c;
  v->kind = WO_INT;
  v->n = s->round;
}

static void v_error_class(const struct report_ctx *c, const struct sample *s,
                          struct wo_value *v)
{
  (void)c;
  v->kind = WO_TEXT;
  v->text = s->ok ? NULL : err_class_names[s->err];
}

/* Sorted by name, curl's names first in spirit: each is curl's variable of
 * that name unless marked hopsplit's in the man page. */
static const struct wo_var wo_vars[] = {
    {"error_class", v_error_class},
    {"errormsg", v_errormsg},
    {"exitcode", v_exitcode},
    {"http_code", v_code},
    {"http_version", v_http_version},
    {"method", v_method},
    {"mode", v_mode},
    {"num_connects", v_num_connects},
    {"num_redirects", v_num_redirects},
    {"redirect_url", v_redirect_url},
    {"remote_ip", v_remote_ip},
    {"remote_port", v_remote_port},
    {"response_code", v_code},
    {"round", v_round},
    {"scheme", v_scheme},
    {"size_download", v_size_download},
    {"size_header", v_size_header},
    {"target", v_target},
    {"time_appconnect", v_appconnect},
    {"time_connect", v_connect},
    {"time_namelookup", v_namelookup},
    {"time_pretransfer", v_pretransfer},
    {"time_redirect", v_redirect},
    {"time_starttransfer", v_starttransfer},
    {"time_total", v_total},
    {"url", v_url},
    {"url_effective", v_url_effective},
};
#define N_WO_VARS (sizeof(wo_vars) / sizeof(wo_vars[0]))

static const struct wo_var *wo_find(const char *name, size_t len)
{
  size_t i;

  for (i = 0; i < N_WO_VARS; i++)
    if (strlen(wo_vars[i].name) == len && !strncmp(wo_vars[i].name, name, len))
      return &wo_vars[i];
  return NULL;
}

/* The names %{json} and -w accept besides the table's. */
static int wo_special(const char *name, size_t len)
{
  return (len == 4 && !strncmp(name, "json", 4)) ||
         (len == 6 && !strncmp(name, "stdout", 6)) ||
         (len == 6 && !strncmp(name, "stderr", 6));
}

int report_writeout_check(const char *fmt, char *err, size_t errlen)
{
  const char *p = fmt;

  while ((p = strstr(p, "%{")) != NULL) {
    const char *name = p + 2, *end = strchr(name, '}');
    size_t len;

    if (p > fmt && p[-1] == '%') {
      p += 2; /* "%%{" is a literal "%{" */
      continue;
    }
    if (!end) {
      snprintf(err, errlen, "'%%{' without a closing '}' in '%s'", fmt);
      return -1;
    }
    len = (size_t)(end - name);
    if (!wo_find(name, len) && !wo_special(name, len)) {
      const char *names[N_WO_VARS];
      char word[64];
      const char *hint;
      size_t i;

      for (i = 0; i < N_WO_VARS; i++)
        names[i] = wo_vars[i].name;
      snprintf(word, sizeof(word), "%.*s", (int)(len < 60 ? len : 60), name);
      hint = str_closest(word, names, N_WO_VARS);
      snprintf(err, errlen,
               "unknown variable '%%{%s}'%s%s%s (see hopsplit(1), "
               "--write-out)",
               word, hint ? " (did you mean '%{" : "", hint ? hint : "",
               hint ? "}'?)" : "");
      return -1;
    }
    p = end + 1;
  }
  return 0;
}

static void put_value(struct buf *out, const struct wo_value *v)
{
  switch (v->kind) {
  case WO_SECONDS:
    buf_printf(out, "%lld.%06lld", (long long)(v->n / 1000000),
               (long long)(v->n % 1000000));
    break;
  case WO_INT:
    buf_printf(out, "%lld", (long long)v->n);
    break;
  case WO_CODE:
    buf_printf(out, "%03lld", (long long)v->n);
    break;
  case WO_TEXT:
    if (v->text)
      buf_puts(out, v->text);
    break;
  }
}

/* %{json}: every variable of the table, as curl's %{json} gives its own. */
static void put_json(const struct report_ctx *c, const struct sample *s,
                     struct buf *out)
{
  struct json j;
  size_t i;

  json_init(&j, out, 0);
  json_object_begin(&j, NULL);
  for (i = 0; i < N_WO_VARS; i++) {
    struct wo_value v;

    memset(&v, 0, sizeof(v));
    wo_vars[i].get(c, s, &v);
    switch (v.kind) {
    case WO_SECONDS:
      json_double(&j, wo_vars[i].name, (double)v.n / 1e6, 6);
      break;
    case WO_INT:
    case WO_CODE:
      json_int(&j, wo_vars[i].name, v.n);
      break;
    case WO_TEXT:
      json_string(&j, wo_vars[i].name, v.text);
      break;
    }
    free(v.owned);
  }
  json_object_end(&j);
}

void report_writeout(const struct report_ctx *c, const char *fmt,
                     const struct sample *s, struct buf *out,
                     struct buf *err_out)
{
  const char *p = fmt;
  struct buf *to = out;

  while (*p) {
    if (p[0] == '%' && p[1] == '%') {
      buf_putc(to, '%');
      p += 2;
    }
    else if (p[0] == '%' && p[1] == '{' && strchr(p + 2, '}')) {
      const char *name = p + 2, *end = strchr(name, '}');
      size_t len = (size_t)(end - name);
      const struct wo_var *w = wo_find(name, len);

      if (w) {
        struct wo_value v;

        memset(&v, 0, sizeof(v));
        w->get(c, s, &v);
        put_value(to, &v);
        free(v.owned);
      }
      else if (len == 4 && !strncmp(name, "json", 4)) {
        put_json(c, s, to);
      }
      else if (len == 6 && !strncmp(name, "stdout", 6)) {
        to = out;
      }
      else if (len == 6 && !strncmp(name, "stderr", 6)) {
        to = err_out;
      }
      p = end + 1;
    }
    else if (p[0] == '\\' && p[1]) {
      /* curl's escapes: \n \r \t; any other keeps the backslash. */
      switch (p[1]) {
      case 'n':
        buf_putc(to, '\n');
        break;
      case 'r':
        buf_putc(to, '\r');
        break;
      case 't':
        buf_putc(to, '\t');
        break;
      case '\\':
        buf_putc(to, '\\');
        break;
      default:
        buf_putc(to, '\\');
        buf_putc(to, p[1]);
        break;
      }
      p += 2;
    }
    else {
      buf_putc(to, *p++);
    }
  }
}
