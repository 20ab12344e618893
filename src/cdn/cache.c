/*
 * cache.c: the cache verdict of a hop, from its response headers (hopsplit(1)
 * CACHE AND EDGE), over the field parsers of cache_control.c, cache_status.c
 * and http_date.c.  Input: the diagnostic headers the probe kept.  Output: a
 * struct cache_result with the vendor, a normalised verdict (the mapping in
 * cache.h), the vendor's raw value, reasons in words and the cache layers.
 *
 * A CDN's own status header is tried outermost first (a CDN in
 * front of another adds its own headers on top of the inner one's):
 * Cloudflare, Akamai, Fastly, CloudFront, Azure, Vercel, EdgeOne, Bunny; it
 * is the layer nearest the user, and the proxy caches behind it
 * (cache_layers.c) follow.  Without one, the proxy caches' layers decide
 * (RFC 9211 Cache-Status, Via, X-Cache, X-Varnish, X-Cache-Status, ...);
 * without any cache signal, Age and the origin's own Cache-Control.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
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

static void set_verdict(struct cache_result *r, struct ctx *c,
                        const char *vendor, enum cache_verdict v,
                        const char *raw, const char *source)
{
  free(r->vendor);
  free(r->raw);
  free(r->source);
  r->vendor = vendor ? xstrdup(vendor) : NULL;
  r->verdict = v;
  r->raw = raw ? xstrdup(raw) : NULL;
  r->source = source ? xstrdup(source) : NULL;
  c->vendor_said = 1;
}

/* Cloudflare CF-Cache-Status
 * (developers.cloudflare.com/cache/concepts/cache-responses). */
static int try_cloudflare(struct ctx *c, struct cache_result *r)
{
  static const struct {
    const char *word;
    enum cache_verdict v;
  } map[] = {
      {"HIT", CACHE_HIT},         {"MISS", CACHE_MISS},
      {"EXPIRED", CACHE_EXPIRED}, {"STALE", CACHE_STALE},
      {"UPDATING", CACHE_STALE},  {"REVALIDATED", CACHE_REVALIDATED},
      {"BYPASS", CACHE_BYPASS},   {"DYNAMIC", CACHE_DYNAMIC},
      {"NONE", CACHE_UNKNOWN},    {"UNKNOWN", CACHE_UNKNOWN},
  };
  const char *v = header_find(c->h, c->n, "cf-cache-status");
  char word[32];
  size_t i;

  if (!v)
    return 0;
  cache_first_word(v, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      break;
  set_verdict(r, c, "cloudflare",
              i < ARRAY_SIZE(map) ? map[i].v : CACHE_UNKNOWN, word,
              "cf-cache-status");
  if (r->verdict == CACHE_UNKNOWN)
    cache_note(c, "the response did not reach Cloudflare's cache (a Worker, a "
                  "rule or a redirect answered)");
  else if (r->verdict == CACHE_DYNAMIC)
    cache_note(c, "Cloudflare caches by file extension by default and nothing "
                  "marks this response cacheable");
  else if (r->verdict == CACHE_STALE && !strcasecmp(word, "UPDATING"))
    cache_note(c, "stale copy served while Cloudflare refreshes it");
  else if (r->verdict == CACHE_STALE)
    cache_note(c, "stale copy served because the origin could not be reached");
  return 1;
}

/* Akamai TCP_* status of one X-Cache value (techdocs.akamai.com, Akamai pragma
 * headers). */
static enum cache_verdict akamai_tcp(const char *value, char *word,
                                     size_t size)
{
  static const struct {
    const char *word;
    enum cache_verdict v;
  } map[] = {
      {"TCP_HIT", CACHE_HIT},
      {"TCP_MEM_HIT", CACHE_HIT},
      {"TCP_IMS_HIT", CACHE_HIT},
      {"TCP_NEGATIVE_HIT", CACHE_HIT},
      {"TCP_REFRESH_HIT", CACHE_REVALIDATED},
      {"TCP_REFRESH_FAIL_HIT", CACHE_STALE},
      {"TCP_REFRESH_MISS", CACHE_EXPIRED},
      {"TCP_MISS", CACHE_MISS},
  };
  size_t i;

  cache_first_word(value, word, size);
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      return map[i].v;
  return CACHE_UNKNOWN; /* TCP_DENIED, TCP_COOKIE_DENY, ... */
}

static int akamai_marked(const struct ctx *c)
{
  const char *server = header_find(c->h, c->n, "server");
  const char *xc = header_find(c->h, c->n, "x-cache");

  return str_ci_find(server, "AkamaiGHost") || str_ci_find(xc, "akamai") ||
         header_find(c->h, c->n, "x-akamai-request-id") ||
         header_find(c->h, c->n, "x-akamai-transformed") ||
         header_find(c->h, c->n, "akamai-grn") ||
         header_find(c->h, c->n, "x-check-cacheable") ||
         header_find(c->h, c->n, "x-cache-remote");
}

/* Akamai's Return Cache Status word (Hit, Miss, RefreshHit, ...). */
static enum cache_verdict akamai_word(const char *w)
{
  static const struct {
    const char *word;
    enum cache_verdict v;
  } map[] = {
      {"Hit", CACHE_HIT},
      {"Miss", CACHE_MISS},
      {"RefreshHit", CACHE_REVALIDATED},
      {"HitStale", CACHE_STALE},
      {"NotCacheable", CACHE_BYPASS},
  };
  char word[32];
  size_t i;

  cache_first_word(w, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      return map[i].v;
  return CACHE_UNKNOWN; /* Constructed, Redirect, Error */
}

static int try_akamai(struct ctx *c, struct cache_result *r)
{
  const char *rcs = header_find(c->h, c->n, "akamai-cache-status");
  const char *xc = header_find(c->h, c->n, "x-cache");
  const char *remote = header_find(c->h, c->n, "x-cache-remote");
  const char *check = header_find(c->h, c->n, "x-check-cacheable");
  char word[48], rword[48];
  enum cache_verdict v;

  if (rcs) {
    /* "{status} from child[, {status} from parent]" */
    const char *parent = strchr(rcs, ',');

    v = akamai_word(rcs);
    if (v == CACHE_MISS && parent && akamai_word(parent + 1) == CACHE_HIT) {
      v = CACHE_HIT;
      cache_note(c, "the edge missed; Akamai's parent cache served it");
    }
    set_verdict(r, c, "akamai", v, rcs, "akamai-cache-status");
    if (v == CACHE_BYPASS)
      cache_note(c, "Akamai says the object is not cacheable (NotCacheable)");
    else if (v == CACHE_UNKNOWN)
      cache_note(c, "Akamai-Cache-Status: %s", rcs);
    return 1;
  }
  if (!xc || !str_ci_prefix(cdn_skip_ows(xc), "TCP_"))
    return 0;
  /* Azure also says TCP_HIT; Akamai's value reads "TCP_X from aN-N-N-N
   * .deploy.akamaitechnologies.com (AkamaiGHost/...)". */
  if (!strstr(xc, " from ") && !akamai_marked(c))
    return 0;
  v = akamai_tcp(xc, word, sizeof(word));
  if (v == CACHE_MISS && remote &&
      cache_verdict_served_from_cache(
          akamai_tcp(remote, rword, sizeof(rword)))) {
    v = CACHE_HIT;
    cache_note(c, "the edge missed; Akamai's parent cache served it (%s)",
               rword);
  }
  if (v == CACHE_MISS && check && !strcasecmp(cdn_skip_ows(check), "NO")) {
    v = CACHE_BYPASS;
    cache_note(c, "Akamai says the object is not cacheable "
                  "(X-Check-Cacheable: NO)");
  }
  set_verdict(r, c, "akamai", v, word, "x-cache");
  if (v == CACHE_UNKNOWN)
    cache_note(c, "Akamai X-Cache: %s", word);
  return 1;
}

/* Fastly: X-Served-By lists cache nodes, X-Cache one HIT or MISS per node
 * in the same order; the first is the shield, the last the edge. */
static int try_fastly(struct ctx *c, struct cache_result *r)
{
  const char *sb = header_find(c->h, c->n, "x-served-by");
  const char *xc = header_find(c->h, c->n, "x-cache");
  const char *p, *item;
  size_t len, n = 0, hits = 0;
  int last_hit = 0;

  if (!sb || !str_ci_find(sb, "cache-"))
    return 0;
  if (!xc) {
    set_verdict(r, c, "fastly", CACHE_UNKNOWN, NULL, NULL);
    c->vendor_said = 0;
    return 1;
  }
  for (p = xc; *p;) {
    p = cdn_next_item(p, &item, &len);
    if (!len)
      continue;
    n++;
    /* "HIT" or "HIT-STALE"-style states count as hits; PASS says MISS. */
    last_hit = len >= 3 && !strncasecmp(item, "HIT", 3);
    hits += (size_t)last_hit;
  }
  if (last_hit)
    set_verdict(r, c, "fastly", CACHE_HIT, xc, "x-cache");
  else if (hits) {
    set_verdict(r, c, "fastly", CACHE_HIT, xc, "x-cache");
    cache_note(c, "the edge missed; Fastly's shield cache served it");
  }
  else
    set_verdict(r, c, "fastly", n ? CACHE_MISS : CACHE_UNKNOWN, xc, "x-cache");
  return 1;
}

/* CloudFront: X-Cache "<ResultType> from cloudfront" (AWS's CloudFront
 * developer guide, docs.aws.amazon.com/AmazonCloudFront). */
static int try_cloudfront(struct ctx *c, struct cache_result *r)
{
  static const struct {
    const char *word;
    enum cache_verdict v;
    const char *why;
  } map[] = {
      {"Hit", CACHE_HIT, NULL},
      {"OriginShieldHit", CACHE_HIT, "served from CloudFront's Origin Shield"},
      {"RefreshHit", CACHE_REVALIDATED, NULL},
      {"Miss", CACHE_MISS, NULL},
      {"Error", CACHE_UNKNOWN, "CloudFront answered with an error"},
      {"LambdaGeneratedResponse", CACHE_UNKNOWN,
       "the response was generated at the edge by Lambda@Edge"},
      {"FunctionGeneratedResponse", CACHE_UNKNOWN,
       "the response was generated at the edge by a CloudFront Function"},
      {"Redirect", CACHE_UNKNOWN, "CloudFront redirected HTTP to HTTPS"},
      {"LimitExceeded", CACHE_UNKNOWN, "a CloudFront quota was exceeded"},
      {"CapacityExceeded", CACHE_UNKNOWN,
       "the CloudFront edge lacked capacity"},
  };
  const char *xc = header_find(c->h, c->n, "x-cache");
  char word[48];
  size_t i;

  if (!xc || !str_ci_find(xc, "cloudfront"))
    return 0;
  cache_first_word(xc, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      break;
  set_verdict(r, c, "cloudfront",
              i < ARRAY_SIZE(map) ? map[i].v : CACHE_UNKNOWN, xc, "x-cache");
  if (i < ARRAY_SIZE(map) && map[i].why)
    cache_note(c, "%s", map[i].why);
  return 1;
}

/* Azure Front Door / Azure CDN X-Cache
 * (learn.microsoft.com/azure/frontdoor/front-door-http-headers-protocol). */
static int try_azure(struct ctx *c, struct cache_result *r)
{
  static const struct {
    const char *word;
    enum cache_verdict v;
    const char *why;
  } map[] = {
      {"TCP_HIT", CACHE_HIT, NULL},
      {"TCP_REMOTE_HIT", CACHE_HIT, "served from Azure's regional cache"},
      {"TCP_MISS", CACHE_MISS, NULL},
      {"PRIVATE_NOSTORE", CACHE_BYPASS, NULL},
      {"CONFIG_NOCACHE", CACHE_DYNAMIC,
       "caching is disabled in the Front Door route or profile"},
      {"N/A", CACHE_UNKNOWN,
       "denied by a signed URL or a rule (X-Cache: N/A)"},
  };
  const char *xc = header_find(c->h, c->n, "x-cache");
  char word[48];
  size_t i;

  if (!xc)
    return 0;
  cache_first_word(xc, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      break;
  if (i == ARRAY_SIZE(map))
    return 0;
  set_verdict(r, c, "azure", map[i].v, word, "x-cache");
  if (map[i].why)
    cache_note(c, "%s", map[i].why);
  return 1;
}

/* Vercel X-Vercel-Cache (vercel.com/docs/headers/response-headers):
 * REVALIDATED means refreshed from the origin in the foreground, which is
 * EXPIRED here. */
static int try_vercel(struct ctx *c, struct cache_result *r)
{
  const char *v = header_find(c->h, c->n, "x-vercel-cache");
  char word[32];
  enum cache_verdict verdict;

  if (!v)
    return 0;
  cache_first_word(v, word, sizeof(word));
  if (!strcasecmp(word, "REVALIDATED"))
    verdict = CACHE_EXPIRED;
  else if (!strcasecmp(word, "PRERENDER")) {
    verdict = CACHE_HIT;
    cache_note(c, "served from Vercel's prerendered static storage");
  }
  else if (!strcasecmp(word, "STALE")) {
    verdict = CACHE_STALE;
    cache_note(c, "stale copy served while Vercel refreshes it");
  }
  else {
    verdict = cache_word_verdict(word);
    if (verdict == CACHE_VERDICT_COUNT)
      verdict = CACHE_UNKNOWN;
  }
  set_verdict(r, c, "vercel", verdict, word, "x-vercel-cache");
  return 1;
}

/* A single status word header: EdgeOne, Bunny, nginx, Google. */
static int try_word(struct ctx *c, struct cache_result *r, const char *name,
                    const char *vendor)
{
  const char *v = header_find(c->h, c->n, name);
  enum cache_verdict verdict;

  if (!v)
    return 0;
  verdict = cache_word_verdict(v);
  set_verdict(r, c, vendor,
              verdict == CACHE_VERDICT_COUNT ? CACHE_UNKNOWN : verdict,
              cdn_skip_ows(v), name);
  return 1;
}

static int try_bunny(struct ctx *c, struct cache_result *r)
{
  return try_word(c, r, "cdn-cache", "bunny");
}

/* The UNKNOWN verdict says which headers were looked for. */
#define LOOKED_FOR                                                            \
  "no cache signal (looked for Cache-Status, X-Cache, X-Cache-Status, "       \
  "X-Varnish, Via, Age and the CDNs' status headers)"

/* The CDN layer first, then the proxy caches behind it. */
static void cdn_layers(struct ctx *c, struct cache_result *out)
{
  struct layers L;
  struct cache_result inner;
  int xcache = out->source && !strcmp(out->source, "x-cache");
  char *ev = NULL;
  size_t i, j;
  struct cache_result fastly;
  int behind = 0;

  cache_result_init(&fastly);
  /* Fastly behind another CDN
   * (fastly.com/documentation/reference/http/http-headers: "server: fastly
   * cloudflare"). */
  if (out->vendor && strcmp(out->vendor, "fastly") && !xcache &&
      try_fastly(c, &fastly) && fastly.verdict != CACHE_UNKNOWN) {
    behind = 1;
    xcache = 1;
  }
  if (out->vendor && !strcmp(out->vendor, "fastly"))
    xcache = 1;
  cache_layers_collect(&L, c, behind ? "fastly" : out->vendor, xcache);
  cache_result_init(&inner);
  cache_layers_classify(c, &L, &inner);
  out->layers =
      xcalloc(1 + (size_t)behind + inner.n_layers, sizeof(*out->layers));
  if (out->source && out->raw)
    ev = L.cdn_ev.len ? xasprintf("%s: %s; Cache-Status: %s", out->source,
                                  out->raw, L.cdn_ev.s)
                      : xasprintf("%s: %s", out->source, out->raw);
  cache_layer_from_result(&out->layers[0], out, ev);
  free(ev);
  out->n_layers = 1;
  if (behind) {
    ev = xasprintf("X-Served-By: %s; X-Cache: %s",
                   header_find(c->h, c->n, "x-served-by"), fastly.raw);
    cache_layer_from_result(&out->layers[out->n_layers++], &fastly, ev);
    free(ev);
  }
  cache_result_release(&fastly);
  for (i = 0; i < inner.n_layers; i++) {
    struct cache_layer *cl = &out->layers[out->n_layers++];

    *cl = inner.layers[i];
    memset(&inner.layers[i], 0, sizeof(inner.layers[i]));
    if (cache_verdict_served_from_cache(out->verdict)) {
      char *why = xasprintf("%s nearer the user answered from its store: "
                            "this is what %s said when the response was "
                            "stored",
                            cache_vendor_display(out->vendor),
                            cl->vendor ? cache_vendor_display(cl->vendor)
                                       : "this cache");

      cl->reasons =
          xrealloc(cl->reasons, (cl->n_reasons + 1) * sizeof(*cl->reasons));
      for (j = cl->n_reasons; j > 0; j--)
        cl->reasons[j] = cl->reasons[j - 1];
      cl->reasons[0] = why;
      cl->n_reasons++;
    }
  }
  cache_result_release(&inner);
  cache_layers_release(&L);
}

static void classify(const struct header *h, size_t n, const char *method,
                     long status, int flags, const char *const *cnames,
                     size_t n_cnames, struct cache_result *out)
{
  struct ctx c;
  struct layers L;
  const char *age;
  size_t i;

  cache_result_init(out);
  cache_ctx_init(&c, h, n, method, status, flags);
  age = header_find(h, n, "age");
  if (age)
    out->age = cdn_parse_seconds(age);

  if (try_cloudflare(&c, out) || try_akamai(&c, out) || try_fastly(&c, out) ||
      try_cloudfront(&c, out) || try_azure(&c, out) || try_vercel(&c, out) ||
      try_word(&c, out, "eo-cache-status", "edgeone") || try_bunny(&c, out)) {
    cache_pick_effective(&c, out->vendor);
    /* A CDN MISS on a response the origin forbids it to store is a bypass
     * (the mapping in cache.h); Fastly also passes on Set-Cookie
     * (fastly.com/documentation/reference/http/http-headers). Cloudflare says
     * BYPASS itself, so its MISS stays a MISS. */
    if (out->verdict == CACHE_MISS && out->vendor &&
        strcmp(out->vendor, "cloudflare") &&
        (c.eff.no_store || c.eff.private_ ||
         (!strcmp(out->vendor, "fastly") && c.set_cookie)))
      out->verdict = CACHE_BYPASS;
    if (!cache_verdict_served_from_cache(out->verdict))
      cache_origin_reasons(&c, out);
    for (i = 0; i < c.n_notes; i++)
      cache_add_reason(out, "%s", c.notes[i]);
    if (c.targeted)
      cache_add_reason(out, "the CDN follows %s: %s, not Cache-Control",
                       c.eff_name, cdn_skip_ows(c.targeted));
    /* A vendor's BYPASS, MISS or DYNAMIC that nothing above explains: say
     * what the vendor said (a cache rule or zone setting,
     * developers.cloudflare.com/cache/concepts/cache-responses). */
    if (!out->n_reasons && out->raw && out->source &&
        !cache_verdict_served_from_cache(out->verdict))
      cache_add_reason(out, "%s: %s", out->source, out->raw);
    if (!out->n_reasons && out->verdict == CACHE_UNKNOWN)
      cache_add_reason(out, LOOKED_FOR);
    cdn_layers(&c, out);
    cache_ctx_release(&c);
    return;
  }

  cache_layers_collect(&L, &c, NULL, 0);
  if (cache_layers_classify(&c, &L, out)) {
    if (L.cs_unparsable)
      cache_add_reason(out,
                       "Cache-Status could not be parsed and was ignored");
    cache_layers_release(&L);
    cache_ctx_release(&c);
    return;
  }
  cache_layers_release(&L);

  /* No cache named itself. */
  {
    const char *vendor = edge_vendor_from_headers(h, n);

    /* No header names a CDN: the CNAME chain may (edge_vendor.c). */
    if (!vendor)
      vendor = edge_vendor_from_cnames(cnames, n_cnames);
    out->vendor = vendor ? xstrdup(vendor) : NULL;
  }
  cache_pick_effective(&c, out->vendor);
  if (out->age >= CACHE_AGE_HIT_MIN) {
    /* Age "implies that the response was not generated or validated by
     * the origin server for this request" (RFC 9111 5.1); from 2 up
     * (cache_int.h: Age 1 can be a fresh fetch's rounding). */
    out->verdict = CACHE_HIT;
    out->inferred = 1;
    out->raw = xasprintf("%ld", out->age);
    out->source = xstrdup("age");
    cache_add_reason(out,
                     "inferred from Age: %ld: a response with Age was not "
                     "generated by the origin for this request (RFC 9111 "
                     "5.1), so a cache served it",
                     out->age);
  }
  else if (c.eff.no_store || c.eff.private_) {
    char *p;

    out->verdict = CACHE_UNCACHEABLE;
    out->source = xstrdup(c.eff_name);
    for (p = out->source; *p; p++)
      *p = (char)tolower((unsigned char)*p);
  }
  if (L.cs_unparsable)
    cache_add_reason(out, "Cache-Status could not be parsed and was ignored");
  if (out->verdict == CACHE_UNKNOWN)
    cache_add_reason(out, LOOKED_FOR);
  if (!cache_verdict_served_from_cache(out->verdict))
    cache_origin_reasons(&c, out);
  if (out->verdict != CACHE_UNKNOWN || out->vendor) {
    char *ev = out->source && out->raw
                   ? xasprintf("%s: %s", out->source, out->raw)
                   : NULL;

    out->layers = xcalloc(1, sizeof(*out->layers));
    out->n_layers = 1;
    cache_layer_from_result(&out->layers[0], out, ev);
    free(ev);
  }
  cache_ctx_release(&c);
}

void cache_classify(const struct header *h, size_t n, int request_flags,
                    struct cache_result *out)
{
  classify(h, n, NULL, 0, request_flags, NULL, 0, out);
}

void cache_classify_hop(const struct hop *hop, int request_flags,
                        struct cache_result *out)
{
  classify(hop->info->headers, hop->info->n_headers, hop->info->method,
           hop->info->status, request_flags, hop->dns->cnames,
           hop->dns->n_cnames, out);
}
