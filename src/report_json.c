/*
 * report_json.c: the "hopsplit/1" JSON document (SPEC 5), the stable
 * machine contract.  Input: plan, results, analysis.  Output: JSON text.
 * Durations are integer microseconds with a _us suffix; libcurl's own
 * cumulative values keep curl's names and unit (seconds) under "curl".
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json.h"
#include "report.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

static void time_field(struct json *j, const char *key, int64_t ms)
{
  char t[64];

  if (ms <= 0) {
    json_null(j, key);
    return;
  }
  units_rfc3339_ms(ms, t, sizeof(t));
  json_string(j, key, t);
}

static void stats_obj(struct json *j, const char *key, const struct stats *s)
{
  json_object_begin(j, key);
  json_int(j, "n", (int64_t)s->n);
  if (!s->n) {
    json_null(j, "min_us");
    json_null(j, "p50_us");
    json_null(j, "p95_us");
    json_null(j, "max_us");
    json_null(j, "mean_us");
    json_null(j, "stddev_us");
    json_null(j, "mad_us");
  }
  else {
    json_int(j, "min_us", s->min);
    json_int(j, "p50_us", s->p50);
    json_int(j, "p95_us", s->p95);
    json_int(j, "max_us", s->max);
    json_int(j, "mean_us", s->mean);
    json_int(j, "stddev_us", s->stddev);
    json_int(j, "mad_us", s->mad);
  }
  json_object_end(j);
}

static void settings(struct json *j, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  const struct options *o = p->opts;
  size_t i;
  static const char *const http[] = {"default", "1.1", "2"};
  static const char *const trace[] = {"auto", "always", "never"};

  json_object_begin(j, "settings");
  json_int(j, "rounds", p->rounds);
  json_array_begin(j, "modes");
  for (i = 0; i < p->n_modes; i++)
    json_string(j, NULL, sample_mode_names[p->modes[i]]);
  json_array_end(j);
  json_string(j, "order", schedule_order_name(o->order));
  json_int(j, "seed", (int64_t)p->seed);
  json_int(j, "pause_us", o->pause_us);
  json_bool(j, "follow", o->follow);
  json_int(j, "max_redirs", o->max_redirs);
  json_string(j, "method", o->method);
  json_array_begin(j, "headers");
  for (i = 0; i < o->n_headers; i++) {
    const char *h = o->headers[i];
    const char *colon = strchr(h, ':');
    char *name = colon ? xstrndup(h, (size_t)(colon - h)) : xstrdup(h);
    const char *v = colon ? colon + 1 : "";
    char *shown, *line;

    while (*v == ' ')
      v++;
    shown = report_header_value(c, name, v);
    if (!strcasecmp(name, "authorization") && !o->show_secrets) {
      free(shown);
      shown = xstrdup("REDACTED");
    }
    line = xasprintf("%s: %s", name, shown);
    json_string(j, NULL, line);
    free(line);
    free(shown);
    free(name);
  }
  json_array_end(j);
  json_string(j, "user_agent", o->user_agent);
  json_bool(j, "compressed", o->compressed);
  json_array_begin(j, "resolve");
  for (i = 0; i < o->n_resolve; i++)
    json_string(j, NULL, o->resolve[i]);
  json_array_end(j);
  json_string(j, "dns_servers", o->dns_servers);
  json_int(j, "ip_family", o->ip_family);
  json_string(j, "http", http[o->http]);
  json_string(j, "cacert", o->cacert);
  json_string(j, "capath", o->capath);
  json_bool(j, "insecure", o->insecure);
  json_bool(j, "location_trusted", o->location_trusted);
  json_int(j, "connect_timeout_us", o->connect_timeout_us);
  json_int(j, "max_time_us", o->max_time_us);
  json_string(j, "trace", trace[o->trace]);
  json_string(j, "client_location", o->client_location);
  json_bool(j, "show_secrets", o->show_secrets);
  json_object_end(j);
}

static void mode_summary(struct json *j, const struct mode_summary *m)
{
  size_t k;
  int ph, e;

  json_int(j, "n", (int64_t)m->n_samples);
  json_int(j, "n_ok", (int64_t)m->n_ok);
  json_int(j, "n_failed", (int64_t)m->n_failed);
  json_object_begin(j, "failures");
  for (e = ERR_NONE + 1; e < ERR_COUNT; e++)
    if (m->failed_by_class[e])
      json_int(j, err_class_names[e], (int64_t)m->failed_by_class[e]);
  json_object_end(j);
  if (m->median_sample >= 0)
    json_int(j, "median_sample", m->median_sample);
  else
    json_null(j, "median_sample");
  json_object_begin(j, "phases");
  for (ph = 0; ph < SUM_COUNT; ph++)
    stats_obj(j, sum_phase_names[ph], &m->phases[ph]);
  json_object_end(j);
  json_array_begin(j, "hops");
  for (k = 0; k < m->n_hops; k++) {
    json_object_begin(j, NULL);
    json_int(j, "hop", (int64_t)m->hops[k].hop);
    json_object_begin(j, "phases");
    for (ph = 0; ph < PHASE_COUNT; ph++)
      stats_obj(j, phase_names[ph], &m->hops[k].phases[ph]);
    json_object_end(j);
    json_object_end(j);
  }
  json_array_end(j);
}

static void targets(struct json *j, const struct report_ctx *c)
{
  const struct plan *p = c->plan;
  size_t t, i;

  json_array_begin(j, "targets");
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &c->analysis->targets[t];
    char *u = report_url(c, p->targets[t].url);

    json_object_begin(j, NULL);
    json_string(j, "name", p->targets[t].name);
    json_string(j, "url", u);
    json_bool(j, "baseline", t == 0);
    free(u);
    json_object_begin(j, "summary");
    for (i = 0; i < p->n_modes; i++) {
      json_object_begin(j, sample_mode_names[p->modes[i]]);
      mode_summary(j, &ta->modes[p->modes[i]]);
      json_object_end(j);
    }
    json_object_end(j);
    json_object_end(j);
  }
  json_array_end(j);
}

static void curl_secs(struct json *j, const char *key, int64_t us)
{
  if (us < 0)
    json_null(j, key);
  else
    json_double(j, key, (double)us / 1e6, 6);
}

static void strv(struct json *j, const char *key, char *const *v, size_t n)
{
  size_t i;

  json_array_begin(j, key);
  for (i = 0; i < n; i++)
    json_string(j, NULL, v[i]);
  json_array_end(j);
}

static void hop_obj(struct json *j, const struct report_ctx *c,
                    const struct hop *h, size_t index)
{
  char *u = report_url(c, h->url);
  size_t i, k;
  int ph;

  json_object_begin(j, NULL);
  json_int(j, "hop", (int64_t)index + 1);
  json_string(j, "url", u);
  free(u);
  json_string(j, "method", h->method);
  json_string(j, "host", h->host);
  if (h->status)
    json_int(j, "status", h->status);
  else
    json_null(j, "status");
  json_string(j, "http_version", h->http_version);
  json_string(j, "remote_ip", h->remote_ip);
  if (h->remote_port)
    json_int(j, "remote_port", h->remote_port);
  else
    json_null(j, "remote_port");
  json_bool(j, "reused", h->reused);
  json_int(j, "start_us", h->start_us);
  json_object_begin(j, "tls");
  json_string(j, "version", h->tls.version);
  json_string(j, "cipher", h->tls.cipher);
  json_string(j, "alpn", h->tls.alpn);
  if (h->tls.resumed < 0)
    json_null(j, "resumed");
  else
    json_bool(j, "resumed", h->tls.resumed);
  json_object_end(j);
  json_object_begin(j, "dns");
  json_int(j, "us", h->dns.us);
  json_string(j, "server", h->dns.server);
  strv(j, "addresses", h->dns.addresses, h->dns.n_addresses);
  strv(j, "cnames", h->dns.cnames, h->dns.n_cnames);
  if (h->dns.ttl >= 0)
    json_int(j, "ttl", h->dns.ttl);
  else
    json_null(j, "ttl");
  json_bool(j, "pinned", h->dns.pinned);
  json_bool(j, "cached", h->dns.cached);
  json_bool(j, "literal", h->dns.literal);
  json_object_end(j);
  json_object_begin(j, "phases_us");
  for (ph = 0; ph < PHASE_COUNT; ph++)
    json_int(j, phase_names[ph], h->phases[ph]);
  json_object_end(j);
  json_object_begin(j, "curl");
  curl_secs(j, "time_namelookup", h->curl.namelookup);
  curl_secs(j, "time_connect", h->curl.connect);
  curl_secs(j, "time_appconnect", h->curl.appconnect);
  curl_secs(j, "time_pretransfer", h->curl.pretransfer);
  curl_secs(j, "time_posttransfer", h->curl.posttransfer);
  curl_secs(j, "time_starttransfer", h->curl.starttransfer);
  curl_secs(j, "time_total", h->curl.total);
  json_object_end(j);
  json_int(j, "size_download", h->size_download);
  json_int(j, "size_decoded", h->size_decoded);
  json_int(j, "size_header", h->size_header);
  if (h->location) {
    char *l = report_header_value(c, "location", h->location);

    json_string(j, "location", l);
    free(l);
  }
  else {
    json_null(j, "location");
  }
  /* Headers by lowercase name; repeated headers are joined with ", " as
   * RFC 9110 5.3 allows (Set-Cookie is redacted as a whole). */
  json_object_begin(j, "headers");
  for (i = 0; i < h->n_headers; i++) {
    struct buf v;
    char *name;
    int seen = 0;

    for (k = 0; k < i; k++)
      if (!strcasecmp(h->headers[k].name, h->headers[i].name))
        seen = 1;
    if (seen)
      continue;
    buf_init(&v, 0);
    for (k = i; k < h->n_headers; k++) {
      char *shown;

      if (strcasecmp(h->headers[k].name, h->headers[i].name))
        continue;
      shown = report_header_value(c, h->headers[k].name, h->headers[k].value);
      if (v.len)
        buf_puts(&v, ", ");
      buf_puts(&v, shown);
      free(shown);
    }
    name = xstrdup(h->headers[i].name);
    for (k = 0; name[k]; k++)
      if (name[k] >= 'A' && name[k] <= 'Z')
        name[k] = (char)(name[k] - 'A' + 'a');
    json_string(j, name, v.s);
    free(name);
    buf_release(&v);
  }
  json_object_end(j);
  json_object_end(j);
}

static void sample_obj(struct json *j, const struct report_ctx *c,
                       const struct sample *s, size_t index)
{
  char t[64];
  size_t i;

  json_object_begin(j, NULL);
  json_int(j, "index", (int64_t)index);
  json_string(j, "target", c->plan->targets[s->target].name);
  json_string(j, "mode", sample_mode_names[s->mode]);
  json_int(j, "round", s->round);
  json_int(j, "position", s->position);
  units_rfc3339_ms(s->started_at_ms, t, sizeof(t));
  json_string(j, "started_at", t);
  json_bool(j, "ok", s->ok);
  if (s->ok) {
    json_null(j, "error");
  }
  else {
    json_object_begin(j, "error");
    json_string(j, "class", err_class_names[s->err]);
    json_string(j, "message", s->err_message);
    json_object_end(j);
  }
  json_int(j, "total_us", s->total_us);
  json_int(j, "redirect_us", s->redirect_us);
  json_int(j, "other_us", s->other_us);
  json_array_begin(j, "hops");
  for (i = 0; i < s->n_hops; i++)
    hop_obj(j, c, &s->hops[i], i);
  json_array_end(j);
  json_object_end(j);
}

void report_json(const struct report_ctx *c, struct buf *out)
{
  struct json j;
  size_t i;

  json_init(&j, out, 1);
  json_object_begin(&j, NULL);
  json_string(&j, "schema", "hopsplit/1");
  json_object_begin(&j, "tool");
  json_string(&j, "name", "hopsplit");
  json_string(&j, "version", HOPSPLIT_VERSION);
  json_string(&j, "libraries", c->libraries);
  json_object_end(&j);
  settings(&j, c);
  time_field(&j, "started_at", c->results->started_at_ms);
  time_field(&j, "finished_at", c->results->finished_at_ms);
  json_bool(&j, "partial", c->results->partial);
  json_bool(&j, "insecure", c->plan->opts->insecure);
  json_int(&j, "n_samples", (int64_t)c->analysis->n_samples);
  json_int(&j, "n_failed", (int64_t)c->analysis->n_failed);
  targets(&j, c);
  json_array_begin(&j, "samples");
  for (i = 0; i < c->results->n; i++)
    sample_obj(&j, c, &c->results->samples[i], i);
  json_array_end(&j);
  json_object_end(&j);
}
