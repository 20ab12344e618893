/*
 * probe_trace.c: Cloudflare's /cdn-cgi/trace, fetched once per origin and
 * run, outside the measured samples (SPEC 4.2).  Input: a hop already
 * measured (its URL and the addresses its host resolved to).  Output: the
 * raw body, capped at 16 KiB, in struct trace_fetch; the analysis parses
 * it.  A trace that is missing, slow, huge or garbage is recorded as
 * unavailable and never fails the run.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curl_api.h"
#include "probe.h"
#include "probe_int.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

#define TRACE_CAP        (16 * 1024)
#define TRACE_TIMEOUT_MS 5000L

struct trace_ctx {
  struct buf body;
  int too_large;
};

static size_t on_trace_body(char *data, size_t size, size_t nmemb, void *ud)
{
  struct trace_ctx *t = ud;

  if (buf_add(&t->body, data, size * nmemb) < 0) {
    t->too_large = 1;
    return 0;
  }
  return size * nmemb;
}

static size_t on_trace_header(char *data, size_t size, size_t nmemb, void *ud)
{
  (void)data;
  (void)ud;
  return size * nmemb;
}

void probe_trace(const struct options *o, const struct hop *h,
                 struct trace_fetch *t)
{
  CURL *e = NULL;
  struct url u;
  struct trace_ctx ctx;
  struct curl_slist *resolve = NULL;
  struct buf entry;
  char err[256], errbuf[CURL_ERROR_SIZE];
  char *url = NULL;
  long timeout = TRACE_TIMEOUT_MS;
  size_t i;
  CURLcode rc;

  memset(&u, 0, sizeof(u));
  buf_init(&ctx.body, TRACE_CAP);
  buf_init(&entry, 0);
  ctx.too_large = 0;
  if (url_parse(&u, h->url, err, sizeof(err)) < 0) {
    t->error = xstrdup(err);
    goto out;
  }
  url = xasprintf("%s://%s%s%s:%d/cdn-cgi/trace", u.scheme, u.ipv6 ? "[" : "",
                  u.host, u.ipv6 ? "]" : "", u.port);
  e = curl_easy_init();
  if (!e) {
    t->error = xstrdup("cannot create a libcurl handle");
    goto out;
  }
  /* The addresses the measured hop used, so the trace comes from the same
   * edge and needs no lookup of its own. */
  if (h->dns.n_addresses && !h->dns.literal) {
    buf_printf(&entry, "%s:%d:", u.host, u.port);
    for (i = 0; i < h->dns.n_addresses; i++) {
      const char *ip = h->dns.addresses[i];

      buf_printf(&entry, strchr(ip, ':') ? "%s[%s]" : "%s%s", i ? "," : "",
                 ip);
    }
    resolve = curl_slist_append(resolve, entry.s);
    curl_easy_setopt(e, CURLOPT_RESOLVE, resolve);
  }
  if (probe_deadline_cut(o->max_time_us) / 1000 < timeout)
    timeout = (long)(probe_deadline_cut(o->max_time_us) / 1000);
  errbuf[0] = '\0';
  probe_set_common(&curl_api_linked, e, o, errbuf);
  curl_easy_setopt(e, CURLOPT_URL, url);
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_trace_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &ctx);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_trace_header);
  curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)TRACE_CAP);
  rc = curl_easy_perform(e);
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &t->status);
  if (ctx.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
    t->error = xstrdup("trace larger than 16 KiB");
    goto out;
  }
  if (rc != CURLE_OK) {
    t->error = xasprintf("%s: %s", curl_easy_strerror(rc),
                         errbuf[0] ? errbuf : "no detail");
    goto out;
  }
  if (t->status != 200) {
    t->error = xasprintf("HTTP status %ld", t->status);
    goto out;
  }
  /* A body that cannot be a trace (binary, or no colo= line) is kept out
   * of the report, and the reason is given instead. */
  if (memchr(ctx.body.s, '\0', ctx.body.len) ||
      (strncmp(ctx.body.s, "colo=", 5) && !strstr(ctx.body.s, "\ncolo="))) {
    t->error = xstrdup("not a trace: binary, or no colo= line");
    goto out;
  }
  t->len = ctx.body.len;
  t->body = buf_detach(&ctx.body);
out:
  buf_release(&ctx.body);
  buf_release(&entry);
  curl_slist_free_all(resolve);
  if (e)
    curl_easy_cleanup(e);
  free(url);
  url_release(&u);
}
