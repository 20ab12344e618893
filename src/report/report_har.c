/*
 * report_har.c: HTTP Archive 1.2 (hopsplit(1) OUTPUT, har): one page per
 * sample, one entry per hop.  timings are milliseconds, -1 for a phase that
 * did not happen (dns on a reused connection or a pinned address, connect and
 * ssl on a reused connection, ssl on plain http), and connect includes ssl as
 * HAR requires.  Response headers are the diagnostic ones hopsplit keeps,
 * redacted; request headers are the ones the run was told to send.
 * hopsplit's own facts are under "_hopsplit" (custom fields start with an
 * underscore, HAR 1.2).
 *
 * The values come from the typed samples, through the field table for
 * the "_hopsplit" parts (report_fields.h); pages and entries are written
 * as the samples are walked, never held whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json.h"
#include "report.h"
#include "report_fields.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* Microseconds as milliseconds, exactly (three decimals). */
static void ms(struct json *j, const char *key, int64_t us)
{
  json_double(j, key, (double)us / 1000.0, 3);
}

static void name_value(struct json *j, const char *name, const char *value)
{
  json_object_begin(j, NULL);
  json_string(j, "name", name);
  json_string(j, "value", value);
  json_object_end(j);
}

static void http_version(struct json *j, const struct hop *h)
{
  char t[32];

  if (!h->info->http_version) {
    json_string(j, "httpVersion", "");
    return;
  }
  snprintf(t, sizeof(t), "HTTP/%s", h->info->http_version);
  json_string(j, "httpVersion", t);
}

static void request(struct json *j, const struct report_ctx *c,
                    const struct hop *h)
{
  const struct options *o = c->plan->opts;
  char *url = report_url(c, h->info->url);
  const char *q = url ? strchr(url, '?') : NULL;
  size_t i;

  json_object_begin(j, "request");
  json_string(j, "method", h->info->method);
  json_string(j, "url", url);
  http_version(j, h);
  json_array_begin(j, "cookies");
  json_array_end(j);
  json_array_begin(j, "headers");
  if (o->user_agent)
    name_value(j, "User-Agent", o->user_agent);
  for (i = 0; i < o->n_headers; i++) {
    char *line = o->show_secrets ? xstrdup(o->headers[i])
                                 : url_redact_header(o->headers[i]);
    const char *colon = strchr(line, ':');
    char name[256];
    size_t n;

    if (colon) {
      n = (size_t)(colon - line);
      if (n >= sizeof(name))
        n = sizeof(name) - 1;
      memcpy(name, line, n);
      name[n] = '\0';
      colon++;
      while (*colon == ' ')
        colon++;
      name_value(j, name, colon);
    }
    free(line);
  }
  json_array_end(j);
  /* The query as written in the (redacted) URL, not decoded. */
  json_array_begin(j, "queryString");
  while (q && *q) {
    const char *start = q + 1, *end = start, *eq;
    char name[256], value[1024];
    size_t n;

    while (*end && *end != '&' && *end != '#')
      end++;
    eq = memchr(start, '=', (size_t)(end - start));
    if (end > start) {
      n = (size_t)((eq ? eq : end) - start);
      snprintf(name, sizeof(name), "%.*s", (int)n, start);
      if (eq)
        snprintf(value, sizeof(value), "%.*s", (int)(end - eq - 1), eq + 1);
      else
        value[0] = '\0';
      name_value(j, name, value);
    }
    q = *end == '&' ? end : NULL;
  }
  json_array_end(j);
  json_int(j, "headersSize", -1);
  json_int(j, "bodySize", -1);
  json_object_end(j);
  free(url);
}

/* Response headers once per lowercase name, as the JSON document has
 * them (repeated ones joined with ", "). */
static void response(struct json *j, const struct field_row *r)
{
  const struct hop *h = r->h;
  char *loc = h->info->location
                  ? report_header_value(r->c, "location", h->info->location)
                  : NULL;
  const char *ctype = hop_header(h, "content-type");
  size_t i;

  json_object_begin(j, "response");
  json_int(j, "status", h->info->status);
  json_string(j, "statusText", "");
  http_version(j, h);
  json_array_begin(j, "cookies");
  json_array_end(j);
  json_array_begin(j, "headers");
  for (i = 0; i < h->info->n_headers; i++) {
    char *name, *value = report_header_joined(r->c, h, i, &name);

    if (!value)
      continue;
    name_value(j, name, value);
    free(name);
    free(value);
  }
  json_array_end(j);
  json_object_begin(j, "content");
  json_int(j, "size", h->info->size_decoded);
  if (ctype) {
    char *shown = report_header_value(r->c, "content-type", ctype);

    json_string(j, "mimeType", shown);
    free(shown);
  }
  else {
    json_string(j, "mimeType", "");
  }
  json_object_end(j);
  json_string(j, "redirectURL", loc ? loc : "");
  json_int(j, "headersSize", h->info->size_header);
  json_int(j, "bodySize", h->info->size_download);
  json_object_end(j);
  free(loc);
}

static void timings(struct json *j, const struct hop *h)
{
  int reused = h->reused;
  int tls = h->tls->version != NULL;
  int64_t dns = h->phases[PHASE_DNS];

  json_object_begin(j, "timings");
  json_int(j, "blocked", -1);
  if (reused ||
      (dns == 0 && (h->dns->pinned || h->dns->cached || h->dns->literal)))
    json_int(j, "dns", -1);
  else
    ms(j, "dns", dns);
  if (reused)
    json_int(j, "connect", -1);
  else
    ms(j, "connect",
       h->phases[PHASE_CONNECT] + (tls ? h->phases[PHASE_TLS] : 0));
  if (reused || !tls)
    json_int(j, "ssl", -1);
  else
    ms(j, "ssl", h->phases[PHASE_TLS]);
  ms(j, "send", h->phases[PHASE_SEND]);
  ms(j, "wait", h->phases[PHASE_WAIT]);
  ms(j, "receive", h->phases[PHASE_TRANSFER]);
  json_object_end(j);
}

/* "_hopsplit".KEY: the hop fields "KEY.*" of the field table. */
static void group(struct json *j, const char *key, const struct field_row *r)
{
  char prefix[32];

  snprintf(prefix, sizeof(prefix), "%s.", key);
  json_object_begin(j, key);
  field_json(j, report_hop_fields, prefix, r);
  json_object_end(j);
}

/* A custom field of the entry (HAR 1.2: names start with "_"): row f's
 * microseconds, null when not measured. */
static void custom_us(struct json *j, const char *key, const struct field *f,
                      const struct field_row *r)
{
  struct field_value v;

  field_get(f, r, &v);
  if (v.null)
    json_null(j, key);
  else
    json_int(j, key, v.i);
  field_value_release(&v);
}

static void entry(struct json *j, const struct field_row *r,
                  const char *pageref)
{
  const struct hop *h = r->h;
  char t[64], conn[128];

  units_rfc3339_ms(r->s->started_at_ms + h->start_us / 1000, t, sizeof(t));
  json_object_begin(j, NULL);
  json_string(j, "pageref", pageref);
  json_string(j, "startedDateTime", t);
  ms(j, "time", h->phases[PHASE_TOTAL]);
  request(j, r->c, h);
  response(j, r);
  json_object_begin(j, "cache");
  json_object_end(j);
  timings(j, h);
  if (h->info->remote_ip) {
    json_string(j, "serverIPAddress", h->info->remote_ip);
    snprintf(conn, sizeof(conn),
             strchr(h->info->remote_ip, ':') ? "[%s]:%d" : "%s:%d",
             h->info->remote_ip, h->info->remote_port);
    json_string(j, "connection", conn);
  }
  custom_us(j, "_server_us", &report_hop_fields[FH_SERVER_US], r);
  custom_us(j, "_network_us", &report_hop_fields[FH_NETWORK_US], r);
  custom_us(j, "_tcp_min_rtt_us", &report_hop_fields[FH_TCP_MIN_RTT_US], r);
  json_object_begin(j, "_hopsplit");
  json_int(j, "hop", (int64_t)r->k + 1);
  json_string(j, "host", h->info->host);
  json_bool(j, "reused", h->reused);
  group(j, "tls", r);
  if (h->info->alt_svc)
    group(j, "alt_svc", r);
  if (h->info->h3_fallback)
    json_string(j, "h3_fallback", h->info->h3_fallback);
  group(j, "dns", r);
  group(j, "phases_us", r);
  group(j, "curl", r);
  if (h->tcp_valid)
    group(j, "tcp", r);
  if (r->fact) {
    group(j, "cache", r);
    group(j, "edge", r);
  }
  json_object_end(j);
  json_object_end(j);
}

/* A figure that may not have been measured (-1): null then, never 0. */
static void int_or_null(struct json *j, const char *key, int64_t v)
{
  if (v < 0)
    json_null(j, key);
  else
    json_int(j, key, v);
}

static void page(struct json *j, const struct report_ctx *c,
                 const struct sample *s, const char *id)
{
  char title[256], t[64];

  snprintf(title, sizeof(title), "%s %s round %d",
           c->plan->targets[s->target].name, sample_mode_names[s->mode],
           s->round);
  units_rfc3339_ms(s->started_at_ms, t, sizeof(t));
  json_object_begin(j, NULL);
  json_string(j, "startedDateTime", t);
  json_string(j, "id", id);
  json_string(j, "title", title);
  json_object_begin(j, "pageTimings");
  json_int(j, "onContentLoad", -1);
  if (s->ok)
    ms(j, "onLoad", s->total_us);
  else
    json_int(j, "onLoad", -1);
  json_object_end(j);
  json_object_begin(j, "_hopsplit");
  json_string(j, "target", c->plan->targets[s->target].name);
  json_string(j, "mode", sample_mode_names[s->mode]);
  json_int(j, "round", s->round);
  json_int(j, "position", s->position);
  json_bool(j, "ok", s->ok);
  if (s->ok) {
    json_null(j, "error");
  }
  else {
    json_object_begin(j, "error");
    json_string(j, "class", err_class_names[s->err]);
    json_string(j, "message", sample_rare(s)->err_message);
    json_object_end(j);
  }
  json_int(j, "total_us", s->total_us);
  json_int(j, "redirect_us", s->redirect_us);
  json_int(j, "other_us", s->other_us);
  json_int(j, "interference_us", s->interference_us);
  json_bool(j, "interfered", s->interfered);
  /* Its parts (hopsplit(1) INTERFERENCE), null where not measured. */
  int_or_null(j, "interference_late_us", s->late_us);
  int_or_null(j, "interference_own_us", s->own_us);
  int_or_null(j, "interference_runq_us", s->runq_us);
  int_or_null(j, "interference_lock_us", s->lock_us);
  int_or_null(j, "interference_output_us", s->output_us);
  int_or_null(j, "interference_output_bytes", s->output_bytes);
  json_object_end(j);
  json_object_end(j);
}

static void time_or_null(struct json *j, const char *key, int64_t ms_epoch)
{
  char t[64];

  if (ms_epoch <= 0) {
    json_null(j, key);
    return;
  }
  units_rfc3339_ms(ms_epoch, t, sizeof(t));
  json_string(j, key, t);
}

void report_har(const struct report_ctx *c, struct buf *out)
{
  const struct results *res = c->results;
  struct field_row r;
  struct json j;
  size_t i, k;

  json_init(&j, out, 1);
  json_object_begin(&j, NULL);
  json_object_begin(&j, "log");
  json_string(&j, "version", "1.2");
  json_object_begin(&j, "creator");
  json_string(&j, "name", "hopsplit");
  json_string(&j, "version", HOPSPLIT_VERSION);
  json_string(&j, "comment", c->libraries);
  json_object_end(&j);
  json_array_begin(&j, "pages");
  for (i = 0; i < res->n; i++) {
    char id[32];

    snprintf(id, sizeof(id), "sample_%zu", i);
    page(&j, c, &res->samples[i], id);
  }
  json_array_end(&j);
  json_array_begin(&j, "entries");
  for (i = 0; i < res->n; i++) {
    char id[32];

    snprintf(id, sizeof(id), "sample_%zu", i);
    field_row_sample(&r, c, &res->samples[i], i, field_facts(c, i));
    for (k = 0; k < res->samples[i].n_hops; k++) {
      field_row_hop(&r, k);
      entry(&j, &r, id);
    }
  }
  json_array_end(&j);
  json_object_begin(&j, "_hopsplit");
  json_string(&j, "schema", "hopsplit/1");
  json_bool(&j, "partial", res->partial);
  json_bool(&j, "insecure", c->plan->opts->insecure);
  time_or_null(&j, "started_at", res->started_at_ms);
  time_or_null(&j, "finished_at", res->finished_at_ms);
  json_string(&j, "vantage", c->plan->vantage);
  json_object_end(&j);
  json_object_end(&j);
  json_object_end(&j);
}
