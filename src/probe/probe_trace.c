/*
 * probe_trace.c: Cloudflare's /cdn-cgi/trace, fetched once per origin and
 * run, outside the measured samples (hopsplit(1) CACHE AND EDGE).  Input: a
 * hop already measured (its URL and the addresses its host resolved to).
 * Output: the raw body, capped at 16 KiB, in struct trace_fetch; the analysis
 * parses it.  The transfer is a step of the run on the engine (runner.c),
 * never a blocking call.  A trace that is missing, slow, huge or garbage is
 * recorded as unavailable and never fails the run.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curl_api_int.h"
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

/* A fetch under way: its transfer runs on the engine (runner.c). */
struct trace_job {
  CURL *e;
  struct trace_ctx ctx;
  struct curl_slist *resolve;
  char *url;
  char errbuf[CURL_ERROR_SIZE];
  struct trace_fetch *t;
};

struct trace_job *probe_trace_prepare(const struct options *o,
                                      const struct hop *h,
                                      struct trace_fetch *t, void **easy)
{
  struct trace_job *j;
  struct url u;
  struct buf entry;
  char err[256];
  long timeout = TRACE_TIMEOUT_MS;
  size_t i;

  memset(&u, 0, sizeof(u));
  if (url_parse(&u, h->info->url, err, sizeof(err)) < 0) {
    t->error = xstrdup(err);
    url_release(&u);
    return NULL;
  }
  j = xcalloc(1, sizeof(*j));
  j->t = t;
  buf_init(&j->ctx.body, TRACE_CAP);
  j->url = xasprintf("%s://%s%s%s:%d/cdn-cgi/trace", u.scheme,
                     u.ipv6 ? "[" : "", u.host, u.ipv6 ? "]" : "", u.port);
  j->e = curl_easy_init();
  if (!j->e) {
    t->error = xstrdup("cannot create a libcurl handle");
    url_release(&u);
    probe_trace_finish(j, -1);
    return NULL;
  }
  /* The addresses the measured hop used, so the trace comes from the same
   * edge and needs no lookup of its own. */
  if (h->dns->n_addresses && !h->dns->literal) {
    buf_init(&entry, 0);
    buf_printf(&entry, "%s:%d:", u.host, u.port);
    for (i = 0; i < h->dns->n_addresses; i++) {
      const char *ip = h->dns->addresses[i];

      buf_printf(&entry, strchr(ip, ':') ? "%s[%s]" : "%s%s", i ? "," : "",
                 ip);
    }
    j->resolve = curl_slist_append(j->resolve, entry.s);
    curl_easy_setopt(j->e, CURLOPT_RESOLVE, j->resolve);
    buf_release(&entry);
  }
  url_release(&u);
  if (probe_deadline_cut(o->max_time_us) / 1000 < timeout)
    timeout = (long)(probe_deadline_cut(o->max_time_us) / 1000);
  probe_set_common(&curl_api_linked, j->e, o, j->errbuf);
  curl_easy_setopt(j->e, CURLOPT_URL, j->url);
  curl_easy_setopt(j->e, CURLOPT_TIMEOUT_MS, timeout);
  curl_easy_setopt(j->e, CURLOPT_WRITEFUNCTION, on_trace_body);
  curl_easy_setopt(j->e, CURLOPT_WRITEDATA, &j->ctx);
  curl_easy_setopt(j->e, CURLOPT_HEADERFUNCTION, on_trace_header);
  curl_easy_setopt(j->e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)TRACE_CAP);
  curl_easy_setopt(j->e, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(j->e, CURLOPT_XFERINFOFUNCTION, probe_on_progress);
  *easy = j->e;
  return j;
}

void probe_trace_finish(struct trace_job *j, int result)
{
  struct trace_fetch *t = j->t;
  CURLcode rc = (CURLcode)result;

  if (result < 0 || t->error)
    goto out;
  curl_easy_getinfo(j->e, CURLINFO_RESPONSE_CODE, &t->status);
  if (j->ctx.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
    t->error = xstrdup("trace larger than 16 KiB");
    goto out;
  }
  if (rc != CURLE_OK) {
    t->error = xasprintf("%s: %s", curl_easy_strerror(rc),
                         j->errbuf[0] ? j->errbuf : "no detail");
    goto out;
  }
  if (t->status != 200) {
    t->error = xasprintf("HTTP status %ld", t->status);
    goto out;
  }
  /* A body that cannot be a trace (binary, or no colo= line) is kept out
   * of the report, and the reason is given instead. */
  if (memchr(j->ctx.body.s, '\0', j->ctx.body.len) ||
      (strncmp(j->ctx.body.s, "colo=", 5) &&
       !strstr(j->ctx.body.s, "\ncolo="))) {
    t->error = xstrdup("not a trace: binary, or no colo= line");
    goto out;
  }
  t->len = j->ctx.body.len;
  t->body = buf_detach(&j->ctx.body);
out:
  buf_release(&j->ctx.body);
  curl_slist_free_all(j->resolve);
  if (j->e)
    curl_easy_cleanup(j->e);
  free(j->url);
  free(j);
}
