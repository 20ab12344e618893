/*
 * report_util.c: what every renderer shares: the URL and header values as
 * the run's redaction settings show them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "msg.h"
#include "report.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* The copies report_vis made, per thread (serve renders in threads). */
static _Thread_local struct {
  char **v;
  size_t n, cap;
} vis_copies;

const char *report_vis(const char *s)
{
  struct buf b;

  if (!s)
    return NULL;
  buf_init(&b, 0);
  buf_put_vis(&b, s);
  /* An escape only ever lengthens: the same length is the same text. */
  if (b.len == strlen(s)) {
    buf_release(&b);
    return s;
  }
  if (vis_copies.n == vis_copies.cap) {
    vis_copies.cap = vis_copies.cap ? 2 * vis_copies.cap : 16;
    vis_copies.v =
        xrealloc(vis_copies.v, vis_copies.cap * sizeof(*vis_copies.v));
  }
  vis_copies.v[vis_copies.n] = buf_detach(&b);
  return vis_copies.v[vis_copies.n++];
}

void report_vis_release(void)
{
  size_t i;

  for (i = 0; i < vis_copies.n; i++)
    free(vis_copies.v[i]);
  FREE_AND_NULL(vis_copies.v);
  vis_copies.n = vis_copies.cap = 0;
}

char *report_url(const struct report_ctx *c, const char *url)
{
  if (!url)
    return NULL;
  if (c->plan->opts->show_secrets)
    return xstrdup(url);
  return url_redact(url);
}

/* The last headers shown, per thread: the samples of a run mostly
 * repeat their servers' headers (Server, Content-Type, ETag ...), and
 * the NDJSON stream renders every sample's as it ends.  Only short ones,
 * in place (nothing to free when a thread ends); a value is a function of
 * the name and the value alone (show_secrets aside). */
#define SHOWN_SLOTS 16
#define SHOWN_NAME  48
#define SHOWN_VALUE 112
static _Thread_local struct shown {
  char name[SHOWN_NAME], value[SHOWN_VALUE], shown[SHOWN_VALUE];
} shown_cache[SHOWN_SLOTS];

static char *header_value_redacted(const char *name, const char *value)
{
  size_t n = strlen(name);

  /* A whole value that is a credential; a cache key (X-Cache-Key,
   * CF-Cache-Key ...) is a URL, redacted inside like every other value. */
  if (url_header_is_secret(name, n) &&
      !(n >= 9 && !strcasecmp(name + n - 9, "cache-key")))
    return xstrdup("REDACTED");
  /* Location, Content-Location, Link, Refresh, X-Cache-Key and any other
   * value that carries a URL. */
  return url_redact_text(value);
}

char *report_header_value(const struct report_ctx *c, const char *name,
                          const char *value)
{
  struct shown *e;
  size_t nn, vn, sn;
  uint32_t h = 2166136261u;
  const char *q;
  char *v;

  if (c->plan->opts->show_secrets)
    return xstrdup(value);
  nn = strlen(name);
  vn = strlen(value);
  if (nn >= SHOWN_NAME || vn >= SHOWN_VALUE)
    return header_value_redacted(name, value);
  /* FNV-1a over both (the slot). */
  for (q = name; *q; q++)
    h = (h ^ (unsigned char)*q) * 16777619u;
  for (q = value; *q; q++)
    h = (h ^ (unsigned char)*q) * 16777619u;
  e = &shown_cache[h % SHOWN_SLOTS];
  if (!strcmp(e->name, name) && !strcmp(e->value, value) && e->name[0])
    return xstrdup(e->shown);
  v = header_value_redacted(name, value);
  sn = strlen(v);
  if (sn < SHOWN_VALUE) {
    memcpy(e->name, name, nn + 1);
    memcpy(e->value, value, vn + 1);
    memcpy(e->shown, v, sn + 1);
  }
  return v;
}

char *report_header_joined(const struct report_ctx *c, const struct hop *h,
                           size_t i, char **name)
{
  struct buf v;
  size_t k;

  for (k = 0; k < i; k++)
    if (!strcasecmp(h->info->headers[k].name, h->info->headers[i].name))
      return NULL;
  buf_init(&v, 0);
  for (k = i; k < h->info->n_headers; k++) {
    char *shown;

    if (strcasecmp(h->info->headers[k].name, h->info->headers[i].name))
      continue;
    shown = report_header_value(c, h->info->headers[k].name,
                                h->info->headers[k].value);
    if (v.len)
      buf_puts(&v, ", ");
    buf_puts(&v, shown);
    free(shown);
  }
  *name = xstrdup(h->info->headers[i].name);
  for (k = 0; (*name)[k]; k++)
    if ((*name)[k] >= 'A' && (*name)[k] <= 'Z')
      (*name)[k] = (char)((*name)[k] - 'A' + 'a');
  return buf_detach(&v);
}

void report_left_out(struct buf *b, const struct comparison *cmp)
{
  size_t nf = cmp->n_left_failed, ni = cmp->n_left_interfered;
  size_t n = cmp->phases[SUM_TOTAL].n_dropped;

  if (!n)
    return;
  /* Rounds that never ran are not counted in n_dropped; what remains is
   * said by its cause, a failure only when a side failed. */
  if (ni > n)
    ni = n;
  if (nf > n - ni)
    nf = n - ni;
  buf_printf(b, "%zu round%s left out: ", n, n == 1 ? "" : "s");
  if (ni) {
    if (ni < n)
      buf_printf(b, "%zu ", ni);
    buf_printf(b, "interfered, %s%.1f ms late", ni > 1 ? "up to " : "",
               (double)cmp->left_interfered_max_us / 1000.0);
  }
  if (nf && ni)
    buf_printf(b, "; %zu with a side failed", nf);
  else if (nf)
    buf_puts(b, "a side failed");
}
