/*
 * report_har.c: HTTP Archive 1.2 (SPEC 5, har): one page per sample, one
 * entry per hop.  timings are milliseconds, -1 for a phase that did not
 * happen (dns on a reused connection or a pinned address, connect and ssl
 * on a reused connection, ssl on plain http), and connect includes ssl as
 * HAR requires.  Response headers are the diagnostic ones hopsplit keeps,
 * redacted; request headers are the ones the run was told to send.
 * hopsplit's own facts are under "_hopsplit" (custom fields start with an
 * underscore, HAR 1.2).
 *
 * The values come from the hopsplit/1 document (report_json_tree).
 */
#include <string.h>

#include "json.h"
#include "jtree.h"
#include "report.h"
#include "report_read.h"
#include "units.h"
#include "banned.h"

/* Microseconds as milliseconds, exactly (three decimals). */
static void ms(struct json *j, const char *key, int64_t us)
{
  json_double(j, key, (double)us / 1000.0, 3);
}

static int64_t num(const struct jt *v, const char *path)
{
  int64_t n = 0;

  if (jt_int(jt_path(v, path), &n) < 0)
    return 0;
  return n;
}

static int flag(const struct jt *v, const char *path)
{
  const struct jt *b = jt_path(v, path);

  return b && b->type == JT_BOOL && b->b;
}

/* Copy a subtree of the document into the writer. */
static void copy(struct json *j, const char *key, const struct jt *v)
{
  size_t i;

  if (!v) {
    json_null(j, key);
    return;
  }
  switch (v->type) {
  case JT_OBJECT:
    json_object_begin(j, key);
    for (i = 0; i < v->n; i++)
      copy(j, v->k[i], &v->v[i]);
    json_object_end(j);
    return;
  case JT_ARRAY:
    json_array_begin(j, key);
    for (i = 0; i < v->n; i++)
      copy(j, NULL, &v->v[i]);
    json_array_end(j);
    return;
  case JT_STRING:
    json_string(j, key, v->s);
    return;
  case JT_BOOL:
    json_bool(j, key, v->b);
    return;
  case JT_NUMBER: {
    int64_t n;
    double d;

    if (jt_int(v, &n) == 0)
      json_int(j, key, n);
    else if (jt_num(v, &d) == 0)
      json_double(j, key, d, 6);
    else
      json_null(j, key);
    return;
  }
  case JT_NULL:
  case JT_COUNT:
    json_null(j, key);
    return;
  }
}

static void name_value(struct json *j, const char *name, const char *value)
{
  json_object_begin(j, NULL);
  json_string(j, "name", name);
  json_string(j, "value", value);
  json_object_end(j);
}

static void http_version(struct json *j, const struct jt *h)
{
  const char *v = jt_str(jt_get(h, "http_version"));
  char t[32];

  if (!v) {
    json_string(j, "httpVersion", "");
    return;
  }
  snprintf(t, sizeof(t), "HTTP/%s", v);
  json_string(j, "httpVersion", t);
}

static void request(struct json *j, const struct jt *doc, const struct jt *h)
{
  const struct jt *hdrs = jt_path(doc, "settings.headers");
  const char *url = jt_str(jt_get(h, "url"));
  const char *q = url ? strchr(url, '?') : NULL;
  size_t i;

  json_object_begin(j, "request");
  json_string(j, "method", jt_str(jt_get(h, "method")));
  json_string(j, "url", url);
  http_version(j, h);
  json_array_begin(j, "cookies");
  json_array_end(j);
  json_array_begin(j, "headers");
  if (jt_str(jt_path(doc, "settings.user_agent")))
    name_value(j, "User-Agent", jt_str(jt_path(doc, "settings.user_agent")));
  for (i = 0; i < jt_len(hdrs); i++) {
    const char *line = jt_str(jt_at(hdrs, i));
    const char *colon = line ? strchr(line, ':') : NULL;
    char name[256];
    size_t n;

    if (!colon)
      continue;
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
}

static void response(struct json *j, const struct jt *h)
{
  const struct jt *hdrs = jt_get(h, "headers");
  const char *loc = jt_str(jt_get(h, "location"));
  const char *ctype = jt_str(jt_get(hdrs, "content-type"));
  size_t i;

  json_object_begin(j, "response");
  json_int(j, "status", num(h, "status"));
  json_string(j, "statusText", "");
  http_version(j, h);
  json_array_begin(j, "cookies");
  json_array_end(j);
  json_array_begin(j, "headers");
  for (i = 0; i < jt_len(hdrs); i++)
    name_value(j, hdrs->k[i], jt_str(&hdrs->v[i]));
  json_array_end(j);
  json_object_begin(j, "content");
  json_int(j, "size", num(h, "size_decoded"));
  json_string(j, "mimeType", ctype ? ctype : "");
  json_object_end(j);
  json_string(j, "redirectURL", loc ? loc : "");
  json_int(j, "headersSize", num(h, "size_header"));
  json_int(j, "bodySize", num(h, "size_download"));
  json_object_end(j);
}

static void timings(struct json *j, const struct jt *h)
{
  int reused = flag(h, "reused");
  int tls = jt_str(jt_path(h, "tls.version")) != NULL;
  int64_t dns = num(h, "phases_us.dns");

  json_object_begin(j, "timings");
  json_int(j, "blocked", -1);
  if (reused || (dns == 0 && (flag(h, "dns.pinned") || flag(h, "dns.cached") ||
                              flag(h, "dns.literal"))))
    json_int(j, "dns", -1);
  else
    ms(j, "dns", dns);
  if (reused)
    json_int(j, "connect", -1);
  else
    ms(j, "connect",
       num(h, "phases_us.connect") + (tls ? num(h, "phases_us.tls") : 0));
  if (reused || !tls)
    json_int(j, "ssl", -1);
  else
    ms(j, "ssl", num(h, "phases_us.tls"));
  ms(j, "send", num(h, "phases_us.send"));
  ms(j, "wait", num(h, "phases_us.wait"));
  ms(j, "receive", num(h, "phases_us.transfer"));
  json_object_end(j);
}

static void entry(struct json *j, const struct jt *doc, const struct jt *s,
                  const struct jt *h, const char *pageref)
{
  int64_t start = 0;
  char t[64], conn[128];
  const char *ip = jt_str(jt_get(h, "remote_ip"));

  units_parse_rfc3339_ms(jt_str(jt_get(s, "started_at")), &start);
  units_rfc3339_ms(start + num(h, "start_us") / 1000, t, sizeof(t));
  json_object_begin(j, NULL);
  json_string(j, "pageref", pageref);
  json_string(j, "startedDateTime", t);
  ms(j, "time", num(h, "phases_us.total"));
  request(j, doc, h);
  response(j, h);
  json_object_begin(j, "cache");
  json_object_end(j);
  timings(j, h);
  if (ip) {
    json_string(j, "serverIPAddress", ip);
    snprintf(conn, sizeof(conn), strchr(ip, ':') ? "[%s]:%lld" : "%s:%lld", ip,
             (long long)num(h, "remote_port"));
    json_string(j, "connection", conn);
  }
  json_object_begin(j, "_hopsplit");
  json_int(j, "hop", num(h, "hop"));
  json_string(j, "host", jt_str(jt_get(h, "host")));
  json_bool(j, "reused", flag(h, "reused"));
  copy(j, "tls", jt_get(h, "tls"));
  copy(j, "dns", jt_get(h, "dns"));
  copy(j, "phases_us", jt_get(h, "phases_us"));
  copy(j, "curl", jt_get(h, "curl"));
  if (jt_get(h, "cache"))
    copy(j, "cache", jt_get(h, "cache"));
  if (jt_get(h, "edge"))
    copy(j, "edge", jt_get(h, "edge"));
  json_object_end(j);
  json_object_end(j);
}

static void page(struct json *j, const struct jt *s, const char *id)
{
  char title[256];

  snprintf(title, sizeof(title), "%s %s round %lld",
           jt_str(jt_get(s, "target")), jt_str(jt_get(s, "mode")),
           (long long)num(s, "round"));
  json_object_begin(j, NULL);
  json_string(j, "startedDateTime", jt_str(jt_get(s, "started_at")));
  json_string(j, "id", id);
  json_string(j, "title", title);
  json_object_begin(j, "pageTimings");
  json_int(j, "onContentLoad", -1);
  if (flag(s, "ok"))
    ms(j, "onLoad", num(s, "total_us"));
  else
    json_int(j, "onLoad", -1);
  json_object_end(j);
  json_object_begin(j, "_hopsplit");
  json_string(j, "target", jt_str(jt_get(s, "target")));
  json_string(j, "mode", jt_str(jt_get(s, "mode")));
  json_int(j, "round", num(s, "round"));
  json_int(j, "position", num(s, "position"));
  json_bool(j, "ok", flag(s, "ok"));
  copy(j, "error", jt_get(s, "error"));
  json_int(j, "total_us", num(s, "total_us"));
  json_int(j, "redirect_us", num(s, "redirect_us"));
  json_int(j, "other_us", num(s, "other_us"));
  json_object_end(j);
  json_object_end(j);
}

void report_har(const struct report_ctx *c, struct buf *out)
{
  struct jt doc;
  const struct jt *samples;
  struct json j;
  size_t i, k;

  report_json_tree(c, &doc);
  samples = jt_get(&doc, "samples");
  json_init(&j, out, 1);
  json_object_begin(&j, NULL);
  json_object_begin(&j, "log");
  json_string(&j, "version", "1.2");
  json_object_begin(&j, "creator");
  json_string(&j, "name", "hopsplit");
  json_string(&j, "version", jt_str(jt_path(&doc, "tool.version")));
  json_string(&j, "comment", jt_str(jt_path(&doc, "tool.libraries")));
  json_object_end(&j);
  json_array_begin(&j, "pages");
  for (i = 0; i < jt_len(samples); i++) {
    char id[32];

    snprintf(id, sizeof(id), "sample_%zu", i);
    page(&j, jt_at(samples, i), id);
  }
  json_array_end(&j);
  json_array_begin(&j, "entries");
  for (i = 0; i < jt_len(samples); i++) {
    const struct jt *s = jt_at(samples, i);
    const struct jt *hops = jt_get(s, "hops");
    char id[32];

    snprintf(id, sizeof(id), "sample_%zu", i);
    for (k = 0; k < jt_len(hops); k++)
      entry(&j, &doc, s, jt_at(hops, k), id);
  }
  json_array_end(&j);
  json_object_begin(&j, "_hopsplit");
  json_string(&j, "schema", "hopsplit/1");
  json_bool(&j, "partial", flag(&doc, "partial"));
  json_bool(&j, "insecure", flag(&doc, "insecure"));
  copy(&j, "started_at", jt_get(&doc, "started_at"));
  copy(&j, "finished_at", jt_get(&doc, "finished_at"));
  copy(&j, "vantage", jt_get(&doc, "vantage"));
  json_object_end(&j);
  json_object_end(&j);
  json_object_end(&j);
  jt_release(&doc);
}
