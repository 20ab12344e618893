/*
 * options_lifecycle.c: a struct options from its defaults (hopsplit(1)) to its
 * release, and copies of it (a profile target's own options).  The option
 * table and the setter that change it are config's (src/config/options.c).
 */
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "options.h"
#include "xalloc.h"
#include "banned.h"

const char *const report_format_names[FORMAT_COUNT] = {
    "text", "json", "ndjson", "csv", "har", "html", "prom", "junit"};

void options_init(struct options *o)
{
  memset(o, 0, sizeof(*o));
  o->rounds = 10;
  o->parallel = 1;
  o->modes = (1u << MODE_COLD) | (1u << MODE_WARM);
  o->order = ORDER_ROTATE;
  o->max_redirs = 10;
  o->follow = 1;
  o->method = xstrdup("GET");
  o->user_agent = xstrdup("hopsplit/" HOPSPLIT_VERSION);
  o->connect_timeout_us = 10 * 1000000LL;
  o->max_time_us = 30 * 1000000LL;
  o->trace = TRACE_AUTO;
  o->format = FORMAT_TEXT;
  o->color = TRI_AUTO;
  o->progress = TRI_AUTO;
  o->serve_timeout_offset = -1;
}

void options_release(struct options *o)
{
  size_t i;

  free(o->method);
  free(o->body);
  free(o->body_file);
  free(o->write_out);
  free(o->dump_header);
  strv_free(o->headers, o->n_headers);
  free(o->user_agent);
  free(o->vantage);
  strv_free(o->resolve, o->n_resolve);
  free(o->dns_servers);
  free(o->tls_server_name);
  free(o->tls_cert);
  free(o->tls_key);
  free(o->proxy);
  strv_free(o->proxy_headers, o->n_proxy_headers);
  free(o->cacert);
  free(o->capath);
  free(o->client_location);
  free(o->baseline);
  free(o->serve_listen);
  free(o->serve_config);
  for (i = 0; i < o->n_primes; i++) {
    free(o->primes[i].target);
    free(o->primes[i].url);
  }
  free(o->primes);
  for (i = 0; i < o->n_outputs; i++)
    free(o->outputs[i].path);
  free(o->outputs);
  for (i = 0; i < o->n_given; i++)
    free(o->given[i].val);
  free(o->given);
  memset(o, 0, sizeof(*o));
}

static char *dup_or_null(const char *s)
{
  return s ? xstrdup(s) : NULL;
}

static char **dup_strv(char *const *v, size_t n)
{
  char **c = n ? xcalloc(n, sizeof(*c)) : NULL;
  size_t i;

  for (i = 0; i < n; i++)
    c[i] = xstrdup(v[i]);
  return c;
}

/* Every pointer field of struct options must be duplicated here. */
void options_copy(struct options *dst, const struct options *src)
{
  size_t i;

  *dst = *src;
  dst->method = dup_or_null(src->method);
  dst->write_out = dup_or_null(src->write_out);
  dst->dump_header = dup_or_null(src->dump_header);
  dst->body = NULL;
  if (src->body) {
    dst->body = xmalloc(src->body_len + 1);
    memcpy(dst->body, src->body, src->body_len + 1);
  }
  dst->body_file = dup_or_null(src->body_file);
  dst->headers = dup_strv(src->headers, src->n_headers);
  dst->user_agent = dup_or_null(src->user_agent);
  dst->vantage = dup_or_null(src->vantage);
  dst->resolve = dup_strv(src->resolve, src->n_resolve);
  dst->dns_servers = dup_or_null(src->dns_servers);
  dst->tls_server_name = dup_or_null(src->tls_server_name);
  dst->tls_cert = dup_or_null(src->tls_cert);
  dst->tls_key = dup_or_null(src->tls_key);
  dst->proxy = dup_or_null(src->proxy);
  dst->proxy_headers = dup_strv(src->proxy_headers, src->n_proxy_headers);
  dst->cacert = dup_or_null(src->cacert);
  dst->capath = dup_or_null(src->capath);
  dst->client_location = dup_or_null(src->client_location);
  dst->baseline = dup_or_null(src->baseline);
  dst->serve_listen = dup_or_null(src->serve_listen);
  dst->serve_config = dup_or_null(src->serve_config);
  dst->primes =
      src->n_primes ? xcalloc(src->n_primes, sizeof(*dst->primes)) : NULL;
  for (i = 0; i < src->n_primes; i++) {
    dst->primes[i].target = dup_or_null(src->primes[i].target);
    dst->primes[i].url = xstrdup(src->primes[i].url);
  }
  dst->outputs =
      src->n_outputs ? xcalloc(src->n_outputs, sizeof(*dst->outputs)) : NULL;
  for (i = 0; i < src->n_outputs; i++) {
    dst->outputs[i].path = xstrdup(src->outputs[i].path);
    dst->outputs[i].format = src->outputs[i].format;
  }
  dst->given =
      src->n_given ? xcalloc(src->n_given, sizeof(*dst->given)) : NULL;
  for (i = 0; i < src->n_given; i++) {
    dst->given[i].def = src->given[i].def;
    dst->given[i].val = dup_or_null(src->given[i].val);
  }
}

const char *options_method(const struct options *o)
{
  if (o->method_set && o->method)
    return o->method;
  if (o->head)
    return "HEAD";
  if (o->upload)
    return "PUT";
  if (o->body || o->body_file)
    return "POST";
  return "GET";
}

int options_unsafe(const struct options *o)
{
  static const char *const safe[] = {"GET", "HEAD", "OPTIONS", "TRACE"};
  const char *m = options_method(o);
  size_t i;

  if (options_has_body(o))
    return 1;
  for (i = 0; i < ARRAY_SIZE(safe); i++)
    if (!strcmp(m, safe[i]))
      return 0;
  return 1;
}

int options_heads(const struct options *o)
{
  /* curl's -w %header{name}, header_json, num_headers and referer read the
   * header blocks. */
  const char *w = o->write_out;

  return o->include || o->dump_header || o->verbosity > 0 || o->keep_heads ||
         (w && (strstr(w, "%header{") || strstr(w, "%{header_json}") ||
                strstr(w, "%{num_headers}") || strstr(w, "%{referer}")));
}

int options_has_body(const struct options *o)
{
  return o->body != NULL || o->body_file != NULL;
}

int options_verbosity(const struct options *o)
{
  if (o->verbosity < 0 && o->show_error)
    return 0;
  return o->verbosity;
}
