/*
 * cache_reasons.c: what every cache verdict of cache.c and
 * cache_layers.c shares (hopsplit(1) CACHE AND EDGE): the context of one
 * response (its Cache-Control and the fields that decide caching), status
 * words, and the origin's own reasons in the order of the mapping in cache.h:
 * method, no-store, private, Set-Cookie, Authorization, revalidate-always,
 * Vary, freshness.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "buf.h"
#include "cache.h"
#include "cache_int.h"
#include "cdn_int.h"
#include "edge.h"
#include "units.h"
#include "xalloc.h"
#include "strutil.h"
#include "banned.h"

/* The first word of s (up to blank or comma), copied into out. */
void cache_first_word(const char *s, char *out, size_t size)
{
  size_t i = 0;

  s = cdn_skip_ows(s);
  while (s[i] && !cdn_is_ows((unsigned char)s[i]) && s[i] != ',' &&
         i + 1 < size) {
    out[i] = s[i];
    i++;
  }
  out[i] = '\0';
}

void cache_add_reason(struct cache_result *r, const char *fmt, ...)
{
  struct buf b;
  va_list ap;
  size_t i;

  buf_init(&b, 0);
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  for (i = 0; i < r->n_reasons; i++)
    if (!strcmp(r->reasons[i], b.s)) {
      buf_release(&b);
      return;
    }
  r->reasons = xrealloc(r->reasons, (r->n_reasons + 1) * sizeof(char *));
  r->reasons[r->n_reasons++] = buf_detach(&b);
}

void cache_note(struct ctx *c, const char *fmt, ...)
{
  struct buf b;
  va_list ap;

  if (c->n_notes == MAX_NOTES)
    return;
  buf_init(&b, 0);
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  c->notes[c->n_notes++] = buf_detach(&b);
}

/* Status words shared by nginx ($upstream_cache_status), Bunny, KeyCDN,
 * EdgeOne, Google's {cdn_cache_status} and generic X-Cache values. */
enum cache_verdict cache_word_verdict(const char *w)
{
  static const struct {
    const char *word;
    enum cache_verdict v;
  } words[] = {
      {"HIT", CACHE_HIT},
      {"MISS", CACHE_MISS},
      {"EXPIRED", CACHE_EXPIRED},
      {"STALE", CACHE_STALE},
      {"UPDATING", CACHE_STALE},
      {"REVALIDATED", CACHE_REVALIDATED},
      {"RefreshHit", CACHE_REVALIDATED},
      {"BYPASS", CACHE_BYPASS},
      {"PASS", CACHE_BYPASS},
      {"DYNAMIC", CACHE_DYNAMIC},
      {"DISABLED", CACHE_DYNAMIC},
      {"UNCACHEABLE", CACHE_UNCACHEABLE},
      {"PRERENDER", CACHE_HIT},
  };
  char word[32];
  size_t i;

  cache_first_word(w, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(words); i++)
    if (!strcasecmp(word, words[i].word))
      return words[i].v;
  /* "TCP_HIT", "HIT from squid", "hit-fresh": look for the word inside. */
  if (str_ci_find(word, "HIT"))
    return CACHE_HIT;
  if (str_ci_find(word, "MISS"))
    return CACHE_MISS;
  return CACHE_VERDICT_COUNT;
}

/* Which field the vendor's cache obeys instead of Cache-Control (RFC 9213,
 * developers.cloudflare.com/cache/concepts/cache-responses): the first valid
 * targeted field of its list. */
void cache_pick_effective(struct ctx *c, const char *vendor)
{
  static const struct {
    const char *vendor; /* NULL: any CDN */
    const char *field;
  } targets[] = {
      {"cloudflare", "Cloudflare-CDN-Cache-Control"},
      {"netlify", "Netlify-CDN-Cache-Control"},
      {"vercel", "Vercel-CDN-Cache-Control"},
      {NULL, "CDN-Cache-Control"},
      {"fastly", "Surrogate-Control"},
      {"cloudflare", "Surrogate-Control"},
  };
  size_t i;

  c->eff = c->cc;
  c->eff_name = "Cache-Control";
  c->targeted = NULL;
  if (!vendor || !strcmp(vendor, "varnish") || !strcmp(vendor, "nginx"))
    return;
  for (i = 0; i < ARRAY_SIZE(targets); i++) {
    struct cache_control t;
    const char *v;

    if (targets[i].vendor && strcmp(targets[i].vendor, vendor))
      continue;
    v = header_find(c->h, c->n, targets[i].field);
    if (!v)
      continue;
    cache_control_parse(v, &t);
    if (!t.present)
      continue; /* empty or unparsable: ignored (RFC 9213 2.1) */
    c->eff = t;
    c->targeted = v;
    c->eff_name = targets[i].field;
    return;
  }
}

static int heuristically_cacheable(long status)
{
  static const long ok[] = {200, 203, 204, 206, 300, 301,
                            308, 404, 405, 410, 414, 501};
  size_t i;

  for (i = 0; i < ARRAY_SIZE(ok); i++)
    if (status == ok[i])
      return 1;
  return 0;
}

/* Why the response was not (or could not be) served from cache, in the
 * order enum cache_verdict's reasons follow. */
void cache_origin_reasons(struct ctx *c, struct cache_result *r)
{
  const struct cache_control *e = &c->eff;
  const char *f = c->eff_name;
  size_t before = r->n_reasons;
  int explicit_fresh, rewritten;

  /* Vercel (with s-maxage) and Netlify send browsers "public, max-age=0,
   * must-revalidate" whatever the origin said
   * (vercel.com/docs/headers/cache-control-headers, docs.netlify.com caching):
   * not a reason. */
  rewritten =
      !c->targeted && r->vendor &&
      (!strcmp(r->vendor, "vercel") || !strcmp(r->vendor, "netlify")) &&
      e->public_ && e->max_age == 0 && e->must_revalidate;

  if (c->method && strcasecmp(c->method, "GET") &&
      strcasecmp(c->method, "HEAD"))
    cache_add_reason(r, "request method is %s: only GET and HEAD are cached",
                     c->method);
  if (e->no_store)
    cache_add_reason(r, "origin sent %s: no-store", f);
  if (e->private_)
    cache_add_reason(r, "origin sent %s: private", f);
  if (c->set_cookie)
    cache_add_reason(r, "response sets a cookie");
  if (c->had_auth && !e->public_ && e->s_maxage < 0 && !e->must_revalidate)
    cache_add_reason(r, "request carried Authorization");
  if (e->no_cache)
    cache_add_reason(r, "origin sent %s: no-cache", f);
  if (e->s_maxage == 0)
    cache_add_reason(r, "origin sent %s: s-maxage=0", f);
  else if (e->max_age == 0 && e->s_maxage < 0 && !rewritten)
    cache_add_reason(r, "origin sent %s: max-age=0", f);
  if (!c->cc.present && c->pragma_no_cache)
    cache_add_reason(r, "origin sent Pragma: no-cache");
  if (c->expires < 0 && e->max_age < 0 && e->s_maxage < 0)
    cache_add_reason(r, "origin sent an Expires date in the past");
  /* Cloudflare ignores Vary but for Accept-Encoding
   * (developers.cloudflare.com/cache/concepts/cache-responses). */
  if (c->vary && (!r->vendor || strcmp(r->vendor, "cloudflare"))) {
    const char *p = c->vary, *item;
    size_t len;

    while (*p) {
      p = cdn_next_item(p, &item, &len);
      if (len == 1 && *item == '*')
        cache_add_reason(r, "Vary: *");
      else if ((len == 6 && !strncasecmp(item, "Cookie", 6)) ||
               (len == 10 && !strncasecmp(item, "User-Agent", 10)))
        cache_add_reason(r, "Vary: %.*s splits the cache per client", (int)len,
                         item);
    }
  }
  explicit_fresh =
      e->max_age > 0 || e->s_maxage > 0 || c->expires > 0 || e->public_;
  /* Freshness is the last resort: a vendor's own words explain better. */
  if (r->n_reasons == before && !explicit_fresh && !c->n_notes && !rewritten) {
    if (c->status > 0 && !heuristically_cacheable(c->status))
      cache_add_reason(
          r,
          "no explicit freshness, and status %ld is not cacheable "
          "by default",
          c->status);
    else
      cache_add_reason(r,
                       "no explicit freshness (max-age, s-maxage or Expires)");
  }
}

void cache_ctx_init(struct ctx *c, const struct header *h, size_t n,
                    const char *method, long status, int flags)
{
  const char *v;
  char *cc;

  memset(c, 0, sizeof(*c));
  c->h = h;
  c->n = n;
  c->method = method;
  c->status = status;
  c->had_auth = (flags & CACHE_REQ_AUTH) != 0;
  c->had_cookie = (flags & CACHE_REQ_COOKIE) != 0;
  cc = header_join(h, n, "cache-control");
  cache_control_parse(cc, &c->cc);
  free(cc);
  v = header_find(h, n, "pragma");
  c->pragma_no_cache = v && str_ci_find(v, "no-cache");
  c->set_cookie = header_find(h, n, "set-cookie") != NULL;
  c->vary = header_join(h, n, "vary");
  v = header_find(h, n, "expires");
  if (v) {
    int64_t exp = cdn_http_date(v), date = -1;
    const char *d = header_find(h, n, "date");

    if (d)
      date = cdn_http_date(d);
    /* Invalid dates such as "0" mean already expired (RFC 9111 5.3). */
    if (exp < 0 || (date >= 0 && exp <= date))
      c->expires = -1;
    else
      c->expires = 1;
  }
  c->eff = c->cc;
  c->eff_name = "Cache-Control";
}

void cache_ctx_release(struct ctx *c)
{
  size_t i;

  for (i = 0; i < c->n_notes; i++)
    free(c->notes[i]);
  free(c->vary);
}

void cache_result_init(struct cache_result *r)
{
  memset(r, 0, sizeof(*r));
  r->verdict = CACHE_UNKNOWN;
  r->age = -1;
}

void cache_result_release(struct cache_result *r)
{
  size_t i, j;

  for (i = 0; i < r->n_reasons; i++)
    free(r->reasons[i]);
  free(r->reasons);
  for (i = 0; i < r->n_layers; i++) {
    struct cache_layer *l = &r->layers[i];

    for (j = 0; j < l->n_reasons; j++)
      free(l->reasons[j]);
    free(l->reasons);
    free(l->name);
    free(l->vendor);
    free(l->raw);
  }
  free(r->layers);
  free(r->vendor);
  free(r->raw);
  free(r->source);
  cache_result_init(r);
}
