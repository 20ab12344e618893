/*
 * cache.c: the cache verdict of a hop, from its response headers (SPEC
 * 4.1), over the field parsers of cache_control.c, cache_status.c and
 * http_date.c.  Input: the diagnostic headers the probe kept.  Output: a
 * struct cache_result with the vendor, a normalised verdict (CDN.md 10), the
 * vendor's raw value and reasons in words.
 *
 * Vendors are tried outermost first (CDN.md 7): Cloudflare, Akamai, Fastly,
 * CloudFront, Azure, Vercel, EdgeOne, Bunny, RFC 9211 Cache-Status (Netlify
 * and others), nginx-style X-Cache-Status, KeyCDN, Varnish, a generic
 * X-Cache, then Age and the origin's own Cache-Control.  The reasons follow
 * the order of CDN.md 10: method, no-store, private, Set-Cookie,
 * Authorization, revalidate-always, Vary, freshness, vendor defaults,
 * CDN-targeted fields.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cache.h"
#include "cdn_int.h"
#include "edge.h"
#include "units.h"
#include "xalloc.h"
#include "strutil.h"
#include "banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The first word of s (up to blank or comma), copied into out. */
static void first_word(const char *s, char *out, size_t size)
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

#define MAX_NOTES 4

struct ctx {
  const struct header *h;
  size_t n;
  const char *method;
  long status;
  int had_auth;
  int had_cookie;
  struct cache_control cc;  /* Cache-Control as sent */
  struct cache_control eff; /* what the vendor's cache obeys */
  const char *eff_name;     /* field eff came from */
  const char *targeted;     /* value of a CDN-targeted field in use */
  int pragma_no_cache;
  int set_cookie;
  int expires;     /* 1 in the future, -1 in the past or invalid, 0 none */
  char *vary;      /* joined, owned */
  int vendor_said; /* a vendor header gave the verdict */
  char *notes[MAX_NOTES]; /* vendor-specific reasons, owned */
  size_t n_notes;
};

static void add_reason(struct cache_result *r, const char *fmt, ...)
    MSG_PRINTF(2, 3);

static void add_reason(struct cache_result *r, const char *fmt, ...)
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

static void note(struct ctx *c, const char *fmt, ...) MSG_PRINTF(2, 3);

static void note(struct ctx *c, const char *fmt, ...)
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

/* Status words shared by nginx ($upstream_cache_status), Bunny, KeyCDN,
 * EdgeOne, Google's {cdn_cache_status} and generic X-Cache values. */
static enum cache_verdict word_verdict(const char *w)
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

  first_word(w, word, sizeof(word));
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

/* Cloudflare CF-Cache-Status (CDN.md 1.3). */
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
  first_word(v, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      break;
  set_verdict(r, c, "cloudflare",
              i < ARRAY_SIZE(map) ? map[i].v : CACHE_UNKNOWN, word,
              "cf-cache-status");
  if (r->verdict == CACHE_UNKNOWN)
    note(c, "the response did not reach Cloudflare's cache (a Worker, a "
            "rule or a redirect answered)");
  else if (r->verdict == CACHE_DYNAMIC)
    note(c, "Cloudflare caches by file extension by default and nothing "
            "marks this response cacheable");
  else if (r->verdict == CACHE_STALE && !strcasecmp(word, "UPDATING"))
    note(c, "stale copy served while Cloudflare refreshes it");
  else if (r->verdict == CACHE_STALE)
    note(c, "stale copy served because the origin could not be reached");
  return 1;
}

/* Akamai TCP_* status of one X-Cache value (CDN.md 4). */
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

  first_word(value, word, size);
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

  first_word(w, word, sizeof(word));
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
      note(c, "the edge missed; Akamai's parent cache served it");
    }
    set_verdict(r, c, "akamai", v, rcs, "akamai-cache-status");
    if (v == CACHE_BYPASS)
      note(c, "Akamai says the object is not cacheable (NotCacheable)");
    else if (v == CACHE_UNKNOWN)
      note(c, "Akamai-Cache-Status: %s", rcs);
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
    note(c, "the edge missed; Akamai's parent cache served it (%s)", rword);
  }
  if (v == CACHE_MISS && check && !strcasecmp(cdn_skip_ows(check), "NO")) {
    v = CACHE_BYPASS;
    note(c, "Akamai says the object is not cacheable "
            "(X-Check-Cacheable: NO)");
  }
  set_verdict(r, c, "akamai", v, word, "x-cache");
  if (v == CACHE_UNKNOWN)
    note(c, "Akamai X-Cache: %s", word);
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
    note(c, "the edge missed; Fastly's shield cache served it");
  }
  else
    set_verdict(r, c, "fastly", n ? CACHE_MISS : CACHE_UNKNOWN, xc, "x-cache");
  return 1;
}

/* CloudFront: X-Cache "<ResultType> from cloudfront" (CDN.md 2). */
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
  first_word(xc, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      break;
  set_verdict(r, c, "cloudfront",
              i < ARRAY_SIZE(map) ? map[i].v : CACHE_UNKNOWN, xc, "x-cache");
  if (i < ARRAY_SIZE(map) && map[i].why)
    note(c, "%s", map[i].why);
  return 1;
}

/* Azure Front Door / Azure CDN X-Cache (CDN.md 5). */
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
  first_word(xc, word, sizeof(word));
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (!strcasecmp(word, map[i].word))
      break;
  if (i == ARRAY_SIZE(map))
    return 0;
  set_verdict(r, c, "azure", map[i].v, word, "x-cache");
  if (map[i].why)
    note(c, "%s", map[i].why);
  return 1;
}

/* Vercel X-Vercel-Cache (CDN.md 5): REVALIDATED means refreshed from the
 * origin in the foreground, which is EXPIRED here. */
static int try_vercel(struct ctx *c, struct cache_result *r)
{
  const char *v = header_find(c->h, c->n, "x-vercel-cache");
  char word[32];
  enum cache_verdict verdict;

  if (!v)
    return 0;
  first_word(v, word, sizeof(word));
  if (!strcasecmp(word, "REVALIDATED"))
    verdict = CACHE_EXPIRED;
  else if (!strcasecmp(word, "PRERENDER")) {
    verdict = CACHE_HIT;
    note(c, "served from Vercel's prerendered static storage");
  }
  else if (!strcasecmp(word, "STALE")) {
    verdict = CACHE_STALE;
    note(c, "stale copy served while Vercel refreshes it");
  }
  else {
    verdict = word_verdict(word);
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
  verdict = word_verdict(v);
  set_verdict(r, c, vendor,
              verdict == CACHE_VERDICT_COUNT ? CACHE_UNKNOWN : verdict,
              cdn_skip_ows(v), name);
  return 1;
}

static int try_bunny(struct ctx *c, struct cache_result *r)
{
  return try_word(c, r, "cdn-cache", "bunny");
}

/* Which field the vendor's cache obeys instead of Cache-Control (RFC 9213,
 * CDN.md 1.3, 3, 6.3): the first valid targeted field of its list. */
static void pick_effective(struct ctx *c, const char *vendor)
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
 * order of CDN.md 10. */
static void origin_reasons(struct ctx *c, struct cache_result *r)
{
  const struct cache_control *e = &c->eff;
  const char *f = c->eff_name;
  size_t before = r->n_reasons;
  int explicit_fresh, rewritten;

  /* Vercel (with s-maxage) and Netlify send browsers "public, max-age=0,
   * must-revalidate" whatever the origin said (CDN.md 5): not a reason. */
  rewritten =
      !c->targeted && r->vendor &&
      (!strcmp(r->vendor, "vercel") || !strcmp(r->vendor, "netlify")) &&
      e->public_ && e->max_age == 0 && e->must_revalidate;

  if (c->method && strcasecmp(c->method, "GET") &&
      strcasecmp(c->method, "HEAD"))
    add_reason(r, "request method is %s: only GET and HEAD are cached",
               c->method);
  if (e->no_store)
    add_reason(r, "origin sent %s: no-store", f);
  if (e->private_)
    add_reason(r, "origin sent %s: private", f);
  if (c->set_cookie)
    add_reason(r, "response sets a cookie");
  if (c->had_auth && !e->public_ && e->s_maxage < 0 && !e->must_revalidate)
    add_reason(r, "request carried Authorization");
  if (e->no_cache)
    add_reason(r, "origin sent %s: no-cache", f);
  if (e->s_maxage == 0)
    add_reason(r, "origin sent %s: s-maxage=0", f);
  else if (e->max_age == 0 && e->s_maxage < 0 && !rewritten)
    add_reason(r, "origin sent %s: max-age=0", f);
  if (!c->cc.present && c->pragma_no_cache)
    add_reason(r, "origin sent Pragma: no-cache");
  if (c->expires < 0 && e->max_age < 0 && e->s_maxage < 0)
    add_reason(r, "origin sent an Expires date in the past");
  /* Cloudflare ignores Vary but for Accept-Encoding (CDN.md 1.3). */
  if (c->vary && (!r->vendor || strcmp(r->vendor, "cloudflare"))) {
    const char *p = c->vary, *item;
    size_t len;

    while (*p) {
      p = cdn_next_item(p, &item, &len);
      if (len == 1 && *item == '*')
        add_reason(r, "Vary: *");
      else if ((len == 6 && !strncasecmp(item, "Cookie", 6)) ||
               (len == 10 && !strncasecmp(item, "User-Agent", 10)))
        add_reason(r, "Vary: %.*s splits the cache per client", (int)len,
                   item);
    }
  }
  explicit_fresh =
      e->max_age > 0 || e->s_maxage > 0 || c->expires > 0 || e->public_;
  /* Freshness is the last resort: a vendor's own words explain better. */
  if (r->n_reasons == before && !explicit_fresh && !c->n_notes && !rewritten) {
    if (c->status > 0 && !heuristically_cacheable(c->status))
      add_reason(r,
                 "no explicit freshness, and status %ld is not cacheable "
                 "by default",
                 c->status);
    else
      add_reason(r, "no explicit freshness (max-age, s-maxage or Expires)");
  }
}

static void ctx_init(struct ctx *c, const struct header *h, size_t n,
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

static void ctx_release(struct ctx *c)
{
  size_t i;

  for (i = 0; i < c->n_notes; i++)
    free(c->notes[i]);
  free(c->vary);
}

/* ---- cache layers (SPEC 4.1; CDN.md 5.1, 6.2) ----
 *
 * Every signal of a proxy cache becomes evidence of one layer: RFC 9211
 * Cache-Status members, Via entries with their product tokens (and Traffic
 * Server's cache codes), X-Cache / X-Cache-Lookup "WORD from HOST",
 * X-Cache-Detail, X-Varnish, X-Cache-Status, Server and Age.  Signals of
 * one cache are merged by host name, else by vendor.  Layers are ordered
 * nearest the user first: by their order in a Via or Cache-Status list
 * when both are in one, else by where their headers are (a proxy adds its
 * headers after the ones it received).  What each layer did is decided by
 * vendor-independent rules (RFC 9111) over the vendor's facts below. */

/* Conditions of a response or request that decide whether a cache stores
 * it. */
enum {
  COND_NO_STORE = 1u << 0,
  COND_PRIVATE = 1u << 1,
  COND_NO_CACHE = 1u << 2,
  COND_SET_COOKIE = 1u << 3,
  COND_VARY_STAR = 1u << 4,
  COND_ZERO_TTL = 1u << 5, /* max-age=0 or s-maxage=0 */
  COND_REQ_COOKIE = 1u << 6,
  COND_REQ_AUTH = 1u << 7,
  COND_METHOD = 1u << 8, /* not GET or HEAD */
};

/* What a cache does by default (CDN.md 5.1, measured on Debian 12's
 * Varnish 7.1, Squid 5.7, Traffic Server 9.2, Apache 2.4 and nginx 1.22
 * with stock configurations); the last row is RFC 9111 for a cache nobody
 * named. */
struct vendor_facts {
  const char *vendor, *name;
  unsigned skips;        /* not stored at all */
  unsigned revalidates;  /* stored, asked the origin on every reuse */
  unsigned never_reused; /* stored, but no later request matches */
  unsigned passes;       /* request conditions that send it to the origin */
};

static const struct vendor_facts vendor_facts[] = {
    {"varnish", "Varnish",
     COND_NO_STORE | COND_PRIVATE | COND_NO_CACHE | COND_SET_COOKIE |
         COND_VARY_STAR | COND_ZERO_TTL,
     0, 0, COND_REQ_COOKIE | COND_REQ_AUTH | COND_METHOD},
    {"squid", "Squid", COND_NO_STORE | COND_PRIVATE,
     COND_NO_CACHE | COND_VARY_STAR | COND_ZERO_TTL, 0, COND_METHOD},
    {"trafficserver", "Traffic Server",
     COND_NO_STORE | COND_PRIVATE | COND_NO_CACHE, COND_ZERO_TTL,
     COND_VARY_STAR, COND_METHOD},
    {"apache", "Apache httpd", COND_NO_STORE | COND_PRIVATE | COND_VARY_STAR,
     COND_NO_CACHE | COND_ZERO_TTL, 0, COND_METHOD},
    {"nginx", "nginx",
     COND_NO_STORE | COND_PRIVATE | COND_NO_CACHE | COND_SET_COOKIE |
         COND_VARY_STAR | COND_ZERO_TTL,
     0, 0, COND_METHOD},
    {NULL, "the cache", COND_NO_STORE | COND_PRIVATE,
     COND_NO_CACHE | COND_ZERO_TTL, COND_VARY_STAR,
     COND_METHOD | COND_REQ_AUTH},
};

static const struct vendor_facts *facts_of(const char *vendor)
{
  size_t i;

  for (i = 0; i + 1 < ARRAY_SIZE(vendor_facts); i++)
    if (vendor && !strcmp(vendor, vendor_facts[i].vendor))
      return &vendor_facts[i];
  return &vendor_facts[ARRAY_SIZE(vendor_facts) - 1];
}

const char *cache_vendor_display(const char *vendor)
{
  static const struct {
    const char *vendor, *name;
  } names[] = {
      {"cloudflare", "Cloudflare"}, {"cloudfront", "CloudFront"},
      {"fastly", "Fastly"},         {"akamai", "Akamai"},
      {"azure", "Azure"},           {"vercel", "Vercel"},
      {"netlify", "Netlify"},       {"bunny", "Bunny CDN"},
      {"keycdn", "KeyCDN"},         {"google", "Google Cloud CDN"},
      {"edgeone", "EdgeOne"},       {"cdn77", "CDN77"},
  };
  size_t i;

  if (!vendor)
    return "a cache";
  for (i = 0; i + 1 < ARRAY_SIZE(vendor_facts); i++)
    if (!strcmp(vendor, vendor_facts[i].vendor))
      return vendor_facts[i].name;
  for (i = 0; i < ARRAY_SIZE(names); i++)
    if (!strcmp(vendor, names[i].vendor))
      return names[i].name;
  return vendor;
}

/* The vendor a cache's self-chosen name or product token points to. */
static const char *vendor_from_name(const char *s)
{
  static const struct {
    const char *needle, *vendor;
  } map[] = {
      {"varnish", "varnish"},
      {"squid", "squid"},
      {"ApacheTrafficServer", "trafficserver"},
      {"trafficserver", "trafficserver"},
      {"traffic server", "trafficserver"},
      {"nginx", "nginx"},
      {"netlify", "netlify"},
      {"cloudflare", "cloudflare"},
      {"cloudfront", "cloudfront"},
      {"fastly", "fastly"},
      {"akamai", "akamai"},
      {"vercel", "vercel"},
      {"httpd", "apache"},
      {"apache", "apache"},
  };
  size_t i;

  if (!s)
    return NULL;
  if (!strcasecmp(s, "ats") || str_ci_prefix(s, "ats/") ||
      str_ci_prefix(s, "ats "))
    return "trafficserver";
  for (i = 0; i < ARRAY_SIZE(map); i++)
    if (str_ci_find(s, map[i].needle))
      return map[i].vendor;
  return NULL;
}

#define MAX_LAYERS      8
#define MAX_LAYER_NOTES 4

struct lay {
  char *name;          /* owned, or NULL */
  int weak_name;       /* name is a Cache-Status identifier, not a host */
  const char *vendor;  /* static, or NULL */
  double pos;          /* header index of its first status signal */
  int via_idx, cs_idx; /* position in the Via / Cache-Status list, -1 */
  int hit, fwd, miss, reval, stale, expired, bypass, uncacheable, dynamic;
  int stored; /* -1 unknown, else 0 or 1 */
  int has_ttl;
  long ttl;
  char ats_c, ats_s, ats_f; /* Traffic Server Via codes, 0 when absent */
  int has_ats;
  int from_xcache;    /* named by "X-Cache: WORD from HOST" */
  const char *source; /* static: header of the strongest status signal */
  char *status_raw;   /* owned: its value */
  int rank;           /* its strength */
  struct buf ev;      /* the evidence */
  char *notes[MAX_LAYER_NOTES];
  size_t n_notes;
};

struct layers {
  struct lay l[MAX_LAYERS];
  size_t n;
  int cs_unparsable;
};

static void lay_note(struct lay *l, const char *fmt, ...) MSG_PRINTF(2, 3);

static void lay_note(struct lay *l, const char *fmt, ...)
{
  struct buf b;
  va_list ap;

  if (l->n_notes == MAX_LAYER_NOTES)
    return;
  buf_init(&b, 0);
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  l->notes[l->n_notes++] = buf_detach(&b);
}

/* Host names compare without a ":port". */
static int same_host(const char *a, const char *b)
{
  size_t la = strcspn(a, ":"), lb = strcspn(b, ":");

  return la == lb && !strncasecmp(a, b, la);
}

/* The layer a signal belongs to: the one with that host name, else the
 * one of that vendor (when names do not contradict), else a new one. */
static struct lay *lay_get(struct layers *L, const char *vendor,
                           const char *name, int weak_name, double pos)
{
  struct lay *l = NULL;
  size_t i;

  if (name && !weak_name)
    for (i = 0; i < L->n && !l; i++)
      if (L->l[i].name && !L->l[i].weak_name && same_host(L->l[i].name, name))
        l = &L->l[i];
  if (!l && vendor)
    for (i = 0; i < L->n && !l; i++)
      if (L->l[i].vendor && !strcmp(L->l[i].vendor, vendor) &&
          (weak_name || !name || !L->l[i].name || L->l[i].weak_name) &&
          /* two Cache-Status members are two caches */
          !(weak_name && L->l[i].cs_idx >= 0))
        l = &L->l[i];
  if (!l && !vendor && !name)
    for (i = 0; i < L->n && !l; i++)
      if (!L->l[i].vendor && !L->l[i].name)
        l = &L->l[i];
  if (!l) {
    if (L->n == MAX_LAYERS)
      return NULL;
    l = &L->l[L->n++];
    memset(l, 0, sizeof(*l));
    l->stored = -1;
    l->via_idx = l->cs_idx = -1;
    l->pos = pos;
    buf_init(&l->ev, 0);
  }
  if (!l->vendor && vendor)
    l->vendor = vendor;
  if (name && (!l->name || (l->weak_name && !weak_name))) {
    free(l->name);
    l->name = xstrndup(name, strcspn(name, ":"));
    l->weak_name = weak_name;
  }
  if (pos < l->pos)
    l->pos = pos;
  return l;
}

static void lay_evidence(struct lay *l, const char *name, const char *value)
{
  if (l->ev.len)
    buf_puts(&l->ev, "; ");
  buf_printf(&l->ev, "%s: %s", name, value);
}

/* The strongest signal names the layer's raw value and source. */
static void lay_status(struct lay *l, int rank, const char *source,
                       const char *raw)
{
  if (rank <= l->rank)
    return;
  l->rank = rank;
  l->source = source;
  free(l->status_raw);
  l->status_raw = xstrdup(raw);
}

static void lay_release(struct lay *l)
{
  size_t i;

  free(l->name);
  free(l->status_raw);
  buf_release(&l->ev);
  for (i = 0; i < l->n_notes; i++)
    free(l->notes[i]);
}

/* A status word of X-Cache, X-Cache-Status and the like. */
static void lay_word(struct lay *l, const char *w)
{
  char word[32];

  first_word(w, word, sizeof(word));
  if (!strcasecmp(word, "REVALIDATE") || !strcasecmp(word, "REVALIDATED") ||
      !strcasecmp(word, "RefreshHit") || !strcasecmp(word, "TCP_REFRESH_HIT"))
    l->reval = 1;
  else if (!strcasecmp(word, "UNCACHEABLE"))
    l->uncacheable = 1;
  else if (!strcasecmp(word, "DYNAMIC") || !strcasecmp(word, "DISABLED"))
    l->dynamic = 1;
  else {
    switch (word_verdict(word)) {
    case CACHE_HIT:
      l->hit = 1;
      break;
    case CACHE_MISS:
      l->miss = 1;
      break;
    case CACHE_EXPIRED:
      l->expired = 1;
      break;
    case CACHE_STALE:
      l->stale = 1;
      break;
    case CACHE_REVALIDATED:
      l->reval = 1;
      break;
    case CACHE_BYPASS:
      l->bypass = 1;
      break;
    default:
      break;
    }
  }
}

/* "WORD from HOST" (Squid, Apache mod_cache): the host, or NULL. */
static char *from_host(const char *v)
{
  const char *p = str_ci_find(v, " from ");
  size_t len;

  if (!p)
    return NULL;
  p = cdn_skip_ows(p + 6);
  len = strcspn(p, " \t,(");
  return len ? xstrndup(p, len) : NULL;
}

/* Traffic Server's Via cache codes, "[cMsSfW]" or the longer
 * "[uScMsSfWpSeN:t cCMi p sS]": letter-code pairs up to ':' or ']'. */
static void via_ats_codes(struct lay *l, const char *comment)
{
  const char *p = strchr(comment, '[');

  if (!p)
    return;
  for (p++; p[0] && p[1] && p[0] != ']' && p[0] != ':'; p += 2) {
    if (p[1] == ']')
      break;
    if (p[0] == 'c')
      l->ats_c = p[1];
    else if (p[0] == 's')
      l->ats_s = p[1];
    else if (p[0] == 'f')
      l->ats_f = p[1];
    else
      continue;
    l->has_ats = 1;
  }
}

/* One Via field line: "1.1 host (product/1.0 [codes]), 1.1 varnish". */
static void parse_via(struct layers *L, const char *line, double pos,
                      const char *cdn, int *via_n)
{
  const char *p = line;

  while (*p) {
    const char *s = cdn_skip_ows(p), *e = s;
    int depth = 0;
    char proto[32], host[128], comment[256];
    const char *q, *vendor;
    size_t len;
    struct lay *l;

    while (*e && (depth || *e != ',')) {
      if (*e == '(')
        depth++;
      else if (*e == ')' && depth)
        depth--;
      e++;
    }
    p = *e ? e + 1 : e;
    comment[0] = host[0] = proto[0] = '\0';
    q = s;
    len = strcspn(q, " \t,");
    if (!len || q + len > e)
      continue;
    snprintf(proto, sizeof(proto), "%.*s", (int)len, q);
    q = cdn_skip_ows(q + len);
    len = strcspn(q, " \t,(");
    if (q + len > e)
      len = (size_t)(e - q);
    snprintf(host, sizeof(host), "%.*s", (int)len, q);
    q = cdn_skip_ows(q + len);
    if (*q == '(') {
      const char *c = q + 1, *ce = c;

      while (ce < e && *ce != ')')
        ce++;
      snprintf(comment, sizeof(comment), "%.*s", (int)(ce - c), c);
    }
    (*via_n)++;
    vendor = vendor_from_name(comment[0] ? comment : NULL);
    if (!vendor && !strcasecmp(host, "varnish"))
      vendor = "varnish";
    if (!vendor && !strcasecmp(host, "google"))
      vendor = "google";
    if (!vendor && str_ci_find(host, ".cloudfront.net"))
      vendor = "cloudfront";
    if (!vendor)
      continue; /* a proxy that is not a known cache */
    /* The CDN's own Via entry: Fastly says "1.1 varnish". */
    if (cdn &&
        (!strcmp(vendor, cdn) || (!strcmp(cdn, "fastly") &&
                                  !strcmp(vendor, "varnish") && !comment[0])))
      continue;
    l = lay_get(L, vendor, host[0] ? host : NULL, 0,
                pos + 0.01 * (double)(*via_n));
    if (!l)
      return;
    l->via_idx = *via_n;
    {
      char ev[512];

      snprintf(ev, sizeof(ev), "%s %s%s%s%s", proto, host,
               comment[0] ? " (" : "", comment, comment[0] ? ")" : "");
      lay_evidence(l, "Via", ev);
    }
    if (!strcmp(vendor, "trafficserver")) {
      via_ats_codes(l, comment);
      if (l->has_ats) {
        char codes[16];

        snprintf(codes, sizeof(codes), "c%cs%cf%c", l->ats_c ? l->ats_c : ' ',
                 l->ats_s ? l->ats_s : ' ', l->ats_f ? l->ats_f : ' ');
        lay_status(l, 4, "via", codes);
      }
    }
  }
}

/* A Cache-Status member as text, for the evidence. */
static void member_text(const struct cache_status_member *m, struct buf *b)
{
  buf_puts(b, m->id);
  if (m->hit)
    buf_puts(b, "; hit");
  if (m->fwd)
    buf_printf(b, "; fwd=%s", m->fwd);
  if (m->fwd_status >= 0)
    buf_printf(b, "; fwd-status=%ld", m->fwd_status);
  if (m->has_ttl)
    buf_printf(b, "; ttl=%ld", m->ttl);
  if (m->stored >= 0)
    buf_puts(b, m->stored ? "; stored" : "; stored=?0");
  if (m->collapsed >= 0)
    buf_puts(b, m->collapsed ? "; collapsed" : "; collapsed=?0");
  if (m->key)
    buf_printf(b, "; key=\"%s\"", m->key);
  if (m->detail)
    buf_printf(b, "; detail=\"%s\"", m->detail);
}

static void cs_member(struct layers *L, const struct cache_status_member *m,
                      double pos, int idx)
{
  struct lay *l =
      lay_get(L, vendor_from_name(m->id), m->id[0] ? m->id : NULL, 1, pos);
  const char *fwd = m->fwd ? m->fwd : "";
  struct buf t;

  if (!l)
    return;
  l->cs_idx = idx;
  buf_init(&t, 0);
  member_text(m, &t);
  lay_evidence(l, "Cache-Status", t.s);
  lay_status(l, 5, "cache-status", t.s);
  buf_release(&t);
  if (m->hit) {
    l->hit = 1;
    if (m->has_ttl) {
      l->has_ttl = 1;
      l->ttl = m->ttl;
    }
  }
  else if (m->fwd) {
    l->fwd = 1;
    if (!strcmp(fwd, "bypass") || !strcmp(fwd, "method") ||
        !strcmp(fwd, "request"))
      l->bypass = 1;
    else if (!strcmp(fwd, "stale")) {
      if (m->fwd_status == 304)
        l->reval = 1;
      else
        l->expired = 1;
    }
    else
      l->miss = 1;
  }
  if (m->stored >= 0)
    l->stored = m->stored;
  if (!strcmp(fwd, "bypass"))
    lay_note(l, "cache \"%s\" is configured not to handle this request",
             m->id);
  else if (!strcmp(fwd, "method"))
    lay_note(l, "cache \"%s\" does not cache this request method", m->id);
  else if (!strcmp(fwd, "request"))
    lay_note(l, "the request's directives forbade using the copy in \"%s\"",
             m->id);
  else if (!strcmp(fwd, "vary-miss"))
    lay_note(l, "cache \"%s\" had the URL but Vary did not match", m->id);
  else if (!strcmp(fwd, "partial"))
    lay_note(l, "cache \"%s\" held only part of the requested range", m->id);
  if (m->detail)
    lay_note(l, "cache \"%s\" detail: %s", m->id, m->detail);
  if (m->collapsed == 1)
    lay_note(l, "cache \"%s\" collapsed this request with others", m->id);
}

/* Apache mod_cache's X-Cache-Detail: "\"cache hit\" from host". */
static void parse_detail(struct layers *L, const char *v, double pos)
{
  char detail[160];
  char *host = from_host(v);
  const char *p = cdn_skip_ows(v);
  struct lay *l;
  size_t len;

  if (*p == '"') {
    p++;
    len = strcspn(p, "\"");
  }
  else
    len = strcspn(p, ",");
  snprintf(detail, sizeof(detail), "%.*s", (int)len, p);
  l = lay_get(L, "apache", host, 0, pos);
  free(host);
  if (!l)
    return;
  if (!l->vendor || strcmp(l->vendor, "apache"))
    l->vendor = "apache";
  lay_evidence(l, "X-Cache-Detail", cdn_skip_ows(v));
  lay_status(l, 4, "x-cache-detail", detail);
  if (str_ci_prefix(detail, "conditional cache hit"))
    l->reval = 1;
  else if (str_ci_prefix(detail, "cache hit"))
    l->hit = 1;
  else if (str_ci_prefix(detail, "cache miss: attempting entity save"))
    l->miss = 1, l->stored = 1;
  else if (str_ci_prefix(detail, "cache miss"))
    l->miss = 1;
  else if (detail[0]) {
    /* Why mod_cache did not store it, in its own words. */
    l->miss = 1;
    l->stored = 0;
    lay_note(l, "Apache httpd did not store it: %s", detail);
  }
}

static int via_present(const struct ctx *c)
{
  return header_find(c->h, c->n, "via") != NULL;
}

static void parse_xcache(struct layers *L, const struct ctx *c,
                         const char *line, double pos, int squidish)
{
  const char *p = line, *item;
  size_t len;

  while (*p) {
    char val[256], *host;
    const char *vendor = NULL;
    struct lay *l;

    p = cdn_next_item(p, &item, &len);
    if (!len)
      continue;
    snprintf(val, sizeof(val), "%.*s", (int)len, item);
    host = from_host(val);
    l = NULL;
    if (!host) {
      const char *server = header_find(c->h, c->n, "server");
      size_t i;

      /* A bare word: Varnish's VCL or nginx's add_header often say it;
       * it belongs to the one cache already seen when there is one. */
      if (str_ci_prefix(server, "keycdn"))
        vendor = "keycdn";
      else if (L->n == 1 && L->l[0].vendor)
        l = &L->l[0];
      else if (str_ci_prefix(server, "nginx") && !via_present(c))
        vendor = "nginx";
      else
        vendor = edge_vendor_from_headers(c->h, c->n);
      for (i = 0; i < L->n && !l && vendor; i++)
        if (L->l[i].vendor && !strcmp(L->l[i].vendor, vendor))
          l = &L->l[i];
    }
    else if (squidish)
      vendor = "squid";
    if (!l)
      l = lay_get(L, vendor, host, 0, pos);
    else if (pos < l->pos)
      l->pos = pos;
    if (l && host)
      l->from_xcache = 1;
    free(host);
    if (!l)
      return;
    lay_evidence(l, "X-Cache", val);
    lay_status(l, 3, "x-cache", val);
    lay_word(l, val);
  }
}

static void parse_xvarnish(struct layers *L, const char *v, double pos)
{
  const char *p = cdn_skip_ows(v);
  int words = 0;
  struct lay *l = lay_get(L, "varnish", NULL, 0, pos);

  if (!l)
    return;
  while (*p) {
    words++;
    while (*p && !cdn_is_ows((unsigned char)*p))
      p++;
    p = cdn_skip_ows(p);
  }
  lay_evidence(l, "X-Varnish", cdn_skip_ows(v));
  lay_status(l, 3, "x-varnish", cdn_skip_ows(v));
  /* Two ids ("<xid> <xid of the cached object>") mean a hit. */
  if (words >= 2)
    l->hit = 1;
  else
    l->miss = 1;
}

/* Collect every proxy-cache signal of the header block.  cdn: the vendor
 * of a CDN whose own headers gave the verdict (its Via entry and, when it
 * read X-Cache, its X-Cache are not another layer), or NULL. */
static void layers_collect(struct layers *L, struct ctx *c, const char *cdn,
                           int cdn_xcache)
{
  const char *via_all = header_find(c->h, c->n, "via");
  int squidish = header_find(c->h, c->n, "x-cache-lookup") != NULL;
  int via_n = 0;
  size_t i;

  memset(L, 0, sizeof(*L));
  /* Via first: it names hosts and products. */
  for (i = 0; i < c->n; i++)
    if (!strcasecmp(c->h[i].name, "via") && c->h[i].value)
      parse_via(L, c->h[i].value, (double)i, cdn, &via_n);
  for (i = 0; i < c->n; i++) {
    const char *name = c->h[i].name, *v = c->h[i].value ? c->h[i].value : "";
    double pos = (double)i;

    if (!strcasecmp(name, "x-cache-detail"))
      parse_detail(L, v, pos);
    else if (!strcasecmp(name, "x-cache") && !cdn_xcache)
      parse_xcache(L, c, v, pos, squidish);
    else if (!strcasecmp(name, "x-cache-lookup") && !cdn_xcache) {
      char *host = from_host(v);
      struct lay *l = lay_get(L, "squid", host, 0, pos);

      free(host);
      if (l) {
        if (!l->vendor)
          l->vendor = "squid";
        lay_evidence(l, "X-Cache-Lookup", cdn_skip_ows(v));
      }
    }
    else if (!strcasecmp(name, "x-varnish") && (!cdn || strcmp(cdn, "fastly")))
      parse_xvarnish(L, v, pos);
    else if (!strcasecmp(name, "x-cache-status") ||
             !strcasecmp(name, "x-proxy-cache") ||
             !strcasecmp(name, "cdn-cache-status")) {
      /* nginx's $upstream_cache_status; Google Cloud CDN's
       * {cdn_cache_status} behind "Via: 1.1 google". */
      const char *vendor = str_ci_find(via_all, "google") ? "google" : "nginx";
      struct lay *l = lay_get(L, vendor, NULL, 0, pos);

      if (!l)
        continue;
      lay_evidence(l, name, cdn_skip_ows(v));
      lay_status(l, 3,
                 !strcasecmp(name, "x-cache-status")  ? "x-cache-status"
                 : !strcasecmp(name, "x-proxy-cache") ? "x-proxy-cache"
                                                      : "cdn-cache-status",
                 cdn_skip_ows(v));
      lay_word(l, v);
    }
  }
  /* RFC 9211 Cache-Status, line by line (members in list order). */
  {
    int idx = 0, ok = 1;
    struct cache_status cs[8];
    double cpos[8];
    size_t nl = 0, k, m;

    for (i = 0; i < c->n && nl < ARRAY_SIZE(cs); i++) {
      if (strcasecmp(c->h[i].name, "cache-status"))
        continue;
      if (cache_status_parse(c->h[i].value ? c->h[i].value : "", &cs[nl]) ||
          !cs[nl].n) {
        ok = 0;
        cache_status_release(&cs[nl]);
        break;
      }
      cpos[nl++] = (double)i;
    }
    if (!ok)
      L->cs_unparsable = 1;
    for (k = 0; k < nl; k++) {
      if (ok)
        for (m = 0; m < cs[k].n; m++)
          cs_member(L, &cs[k].m[m], cpos[k] + 0.001 * (double)m, idx++);
      cache_status_release(&cs[k]);
    }
  }
  /* "X-Cache: HIT from HOST" with no Via entry and no X-Cache-Lookup of
   * that host is Apache mod_cache's CacheHeader (Squid adds both), unless
   * the host's name says what it is. */
  for (i = 0; i < L->n; i++)
    if (!L->l[i].vendor && L->l[i].from_xcache && L->l[i].via_idx < 0 &&
        !squidish)
      L->l[i].vendor = vendor_from_name(L->l[i].name)
                           ? vendor_from_name(L->l[i].name)
                           : "apache";
  /* Server names the product of a layer that has none, or Traffic Server
   * that sent no Via. */
  {
    const char *server = header_find(c->h, c->n, "server");
    const char *sv = vendor_from_name(server);

    if (sv && (!strcmp(sv, "trafficserver") || !strcmp(sv, "varnish") ||
               !strcmp(sv, "squid") || !strcmp(sv, "apache"))) {
      struct lay *l = NULL;

      for (i = 0; i < L->n && !l; i++)
        if (L->l[i].vendor && !strcmp(L->l[i].vendor, sv))
          l = &L->l[i];
      for (i = 0; i < L->n && !l; i++)
        if (!L->l[i].vendor && L->l[i].name)
          l = &L->l[i];
      if (!l && !strcmp(sv, "trafficserver"))
        l = lay_get(L, sv, NULL, 0, (double)c->n);
      if (l) {
        if (!l->vendor)
          l->vendor = sv;
        lay_evidence(l, "Server", server);
      }
    }
  }
}

/* a before b: a is nearer the user. */
static int lay_nearer(const struct lay *a, const struct lay *b)
{
  if (a->via_idx >= 0 && b->via_idx >= 0 && a->via_idx != b->via_idx)
    return a->via_idx > b->via_idx;
  if (a->cs_idx >= 0 && b->cs_idx >= 0 && a->cs_idx != b->cs_idx)
    return a->cs_idx > b->cs_idx;
  return a->pos > b->pos;
}

static void layers_order(struct layers *L)
{
  size_t i, j;

  for (i = 1; i < L->n; i++)
    for (j = i; j > 0 && lay_nearer(&L->l[j], &L->l[j - 1]); j--) {
      struct lay t = L->l[j];

      L->l[j] = L->l[j - 1];
      L->l[j - 1] = t;
    }
}

static unsigned conditions(const struct ctx *c)
{
  unsigned k = 0;

  if (c->cc.no_store)
    k |= COND_NO_STORE;
  if (c->cc.private_)
    k |= COND_PRIVATE;
  if (c->cc.no_cache || (!c->cc.present && c->pragma_no_cache))
    k |= COND_NO_CACHE;
  if (c->set_cookie)
    k |= COND_SET_COOKIE;
  if (c->cc.s_maxage == 0 || (c->cc.max_age == 0 && c->cc.s_maxage < 0))
    k |= COND_ZERO_TTL;
  if (c->vary) {
    const char *p = c->vary, *item;
    size_t len;

    while (*p) {
      p = cdn_next_item(p, &item, &len);
      if (len == 1 && *item == '*')
        k |= COND_VARY_STAR;
    }
  }
  if (c->had_cookie)
    k |= COND_REQ_COOKIE;
  if (c->had_auth && !c->cc.public_ && c->cc.s_maxage < 0 &&
      !c->cc.must_revalidate)
    k |= COND_REQ_AUTH;
  if (c->method && strcasecmp(c->method, "GET") &&
      strcasecmp(c->method, "HEAD"))
    k |= COND_METHOD;
  return k;
}

/* Why a cache did not store (or pass) it, in words a user can act on. */
static void facts_reasons(const struct vendor_facts *f, const char *n,
                          unsigned k, struct cache_result *r)
{
  if (k & f->passes & COND_REQ_COOKIE)
    add_reason(r,
               "the request carried a Cookie header, so %s passed it to "
               "the origin",
               n);
  if (k & f->passes & COND_REQ_AUTH)
    add_reason(r,
               "the request carried Authorization, so %s passed it to "
               "the origin",
               n);
  if (k & f->skips & COND_SET_COOKIE)
    add_reason(r, "%s does not store responses that set a cookie", n);
  if (k & f->skips & COND_NO_CACHE)
    add_reason(r,
               "%s does not store responses marked Cache-Control: "
               "no-cache",
               n);
  if (k & f->skips & COND_VARY_STAR)
    add_reason(r, "%s does not store responses with Vary: *", n);
  if (k & f->never_reused & COND_VARY_STAR)
    add_reason(r, "Vary: * matches no later request, so %s cannot reuse it",
               n);
  if (k & f->skips & COND_ZERO_TTL)
    add_reason(r,
               "%s does not store responses that are stale at once "
               "(max-age=0)",
               n);
}

/* What layer l did with this request (SPEC 4.1): a cache that answered
 * from its store after asking the origin revalidated; one that forwarded
 * and stored is a MISS (a later request may hit); one that forwarded and
 * did not store says why. */
static void lay_decide(struct ctx *c, struct lay *l, int nearest,
                       struct cache_result *r)
{
  const struct vendor_facts *f = facts_of(l->vendor);
  const char *n = l->vendor ? cache_vendor_display(l->vendor) : "the cache";
  unsigned k = conditions(c);
  enum cache_verdict v = CACHE_UNKNOWN;
  int stored = l->stored;
  size_t i;
  if (l->has_ats && !l->hit && !l->reval && !l->stale && !l->expired) {
    /* c: M miss, A not acceptable, H/R fresh hit, S stale; s: S served,
     * N not modified, E error; f: W written, U updated, D deleted. */
    if (l->ats_c == 'H' || l->ats_c == 'R')
      l->hit = 1;
    else if (l->ats_c == 'S')
      *(l->ats_s == 'N'   ? &l->reval
        : l->ats_s == 'S' ? &l->expired
                          : &l->stale) = 1;
    else if (l->ats_c == ' ')
      l->bypass = 1;
    else
      l->miss = 1;
    if (stored < 0 && (l->miss || l->expired))
      stored = l->ats_f == 'W' || l->ats_f == 'U';
  }
  if (l->reval) {
    v = CACHE_REVALIDATED;
    add_reason(r,
               "%s asked the origin, which said its stored copy is "
               "still good (304)",
               n);
  }
  else if (l->hit && l->fwd) {
    v = CACHE_REVALIDATED;
    add_reason(r,
               "%s went to the origin and answered from its store: a "
               "revalidation",
               n);
  }
  else if (l->hit && (k & (COND_NO_CACHE | COND_VARY_STAR))) {
    /* no-cache: never reused without revalidation (RFC 9111 5.2.2.4);
     * Vary: * never matches (RFC 9111 4.1). */
    v = CACHE_REVALIDATED;
    add_reason(r,
               "%s must ask the origin before reusing a response with "
               "%s, so this hit was a revalidation",
               n, k & COND_NO_CACHE ? "Cache-Control: no-cache" : "Vary: *");
  }
  else if (l->hit)
    v = l->has_ttl && l->ttl < 0 ? CACHE_STALE : CACHE_HIT;
  else if (l->stale) {
    v = CACHE_STALE;
    add_reason(r, "%s served a stale copy", n);
  }
  else if (l->expired) {
    v = CACHE_EXPIRED;
    add_reason(r, "%s had an expired copy and fetched it again", n);
  }
  else if (l->uncacheable)
    v = CACHE_UNCACHEABLE;
  else if (l->dynamic)
    v = CACHE_DYNAMIC;
  else if (l->bypass) {
    v = CACHE_BYPASS;
    facts_reasons(f, n, k & f->passes, r);
    if (!l->fwd && !(k & f->passes) && l->vendor &&
        !strcmp(l->vendor, "nginx"))
      add_reason(r, "nginx was configured to bypass its cache for this "
                    "request (proxy_cache_bypass)");
    else if (!l->fwd && !(k & f->passes))
      add_reason(r,
                 "%s was configured to bypass its cache for this "
                 "request",
                 n);
  }
  else if (l->miss || l->fwd) {
    int passed = (k & f->passes) != 0;

    if (stored < 0)
      stored = !passed && !(k & f->skips);
    if (stored && (k & f->never_reused) && !passed)
      stored = 0;
    if (stored) {
      v = CACHE_MISS;
      add_reason(r,
                 "%s did not have it and stored it now: a later request "
                 "may hit",
                 n);
    }
    else {
      v = (k & (COND_NO_STORE | COND_PRIVATE)) && !passed ? CACHE_UNCACHEABLE
                                                          : CACHE_BYPASS;
      facts_reasons(f, n, k, r);
      if (l->has_ats && !r->n_reasons)
        add_reason(r, "Traffic Server's Via codes say it did not write the "
                      "response to its cache");
    }
  }
  else if (nearest && r->age > 0) {
    v = CACHE_HIT;
    lay_status(l, 1, "age", "");
    free(l->status_raw);
    l->status_raw = xasprintf("%ld", r->age);
    add_reason(r, "Age: %ld shows a cache served it", r->age);
  }
  else
    add_reason(r,
               "%s sent no cache status (looked for Cache-Status, "
               "X-Cache, X-Cache-Status, X-Varnish and Via cache codes)",
               n);
  r->verdict = v;
  for (i = 0; i < l->n_notes; i++)
    add_reason(r, "%s", l->notes[i]);
}

/* Build the layers of a response no CDN claimed: the hop's verdict is the
 * layer nearest the user.  Returns 0 when there is no layer. */
static int layers_classify(struct ctx *c, struct layers *L,
                           struct cache_result *out)
{
  size_t i;

  if (!L->n)
    return 0;
  layers_order(L);
  if (out->age >= 0) {
    char a[24];

    snprintf(a, sizeof(a), "%ld", out->age);
    lay_evidence(&L->l[0], "Age", a);
  }
  out->layers = xcalloc(L->n, sizeof(*out->layers));
  out->n_layers = L->n;
  for (i = 0; i < L->n; i++) {
    struct lay *l = &L->l[i];
    struct cache_layer *cl = &out->layers[i];
    struct cache_result r;
    size_t j;

    cache_result_init(&r);
    r.age = i == 0 ? out->age : -1;
    r.vendor = l->vendor ? xstrdup(l->vendor) : NULL;
    if (i > 0 && cache_verdict_served_from_cache(out->layers[0].verdict))
      add_reason(&r,
                 "%s nearer the user answered from its store: this is "
                 "what %s said when the response was stored",
                 cache_vendor_display(L->l[0].vendor),
                 l->vendor ? cache_vendor_display(l->vendor) : "this cache");
    lay_decide(c, l, i == 0, &r);
    if (!cache_verdict_served_from_cache(r.verdict)) {
      free(r.vendor);
      r.vendor = l->vendor ? xstrdup(l->vendor) : NULL;
      pick_effective(c, l->vendor);
      origin_reasons(c, &r);
    }
    cl->name = l->name ? xstrdup(l->name) : NULL;
    cl->vendor = l->vendor ? xstrdup(l->vendor) : NULL;
    cl->verdict = r.verdict;
    cl->raw = l->ev.len ? xstrdup(l->ev.s) : NULL;
    cl->reasons = r.reasons;
    cl->n_reasons = r.n_reasons;
    r.reasons = NULL;
    r.n_reasons = 0;
    if (i == 0) {
      out->verdict = cl->verdict;
      out->vendor = l->vendor ? xstrdup(l->vendor) : NULL;
      out->raw = l->status_raw ? xstrdup(l->status_raw) : NULL;
      out->source = l->source ? xstrdup(l->source) : NULL;
      for (j = 0; j < cl->n_reasons; j++)
        add_reason(out, "%s", cl->reasons[j]);
    }
    cache_result_release(&r);
  }
  /* An inner cache answered although the one nearest the user forwarded. */
  for (i = 1; i < L->n; i++)
    if (!cache_verdict_served_from_cache(out->layers[0].verdict) &&
        out->layers[0].verdict != CACHE_UNKNOWN &&
        cache_verdict_served_from_cache(out->layers[i].verdict)) {
      add_reason(
          out,
          "served from cache \"%s\"; \"%s\" nearer the user "
          "forwarded",
          L->l[i].name ? L->l[i].name : cache_vendor_display(L->l[i].vendor),
          L->l[0].name ? L->l[0].name : cache_vendor_display(L->l[0].vendor));
      break;
    }
  return 1;
}

static void layers_release(struct layers *L)
{
  size_t i;

  for (i = 0; i < L->n; i++)
    lay_release(&L->l[i]);
  L->n = 0;
}

/* A layer that mirrors the hop's result (a CDN, or the fallback). */
static void layer_from_result(struct cache_layer *cl,
                              const struct cache_result *r, const char *raw)
{
  size_t i;

  memset(cl, 0, sizeof(*cl));
  cl->vendor = r->vendor ? xstrdup(r->vendor) : NULL;
  cl->verdict = r->verdict;
  cl->raw = raw ? xstrdup(raw) : NULL;
  if (r->n_reasons)
    cl->reasons = xcalloc(r->n_reasons, sizeof(char *));
  for (i = 0; i < r->n_reasons; i++)
    cl->reasons[i] = xstrdup(r->reasons[i]);
  cl->n_reasons = r->n_reasons;
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
  /* Fastly behind another CDN (CDN.md 3: "server: fastly cloudflare"). */
  if (out->vendor && strcmp(out->vendor, "fastly") && !xcache &&
      try_fastly(c, &fastly) && fastly.verdict != CACHE_UNKNOWN) {
    behind = 1;
    xcache = 1;
  }
  if (out->vendor && !strcmp(out->vendor, "fastly"))
    xcache = 1;
  layers_collect(&L, c, behind ? "fastly" : out->vendor, xcache);
  cache_result_init(&inner);
  layers_classify(c, &L, &inner);
  out->layers =
      xcalloc(1 + (size_t)behind + inner.n_layers, sizeof(*out->layers));
  if (out->source && out->raw)
    ev = xasprintf("%s: %s", out->source, out->raw);
  layer_from_result(&out->layers[0], out, ev);
  free(ev);
  out->n_layers = 1;
  if (behind) {
    ev = xasprintf("X-Served-By: %s; X-Cache: %s",
                   header_find(c->h, c->n, "x-served-by"), fastly.raw);
    layer_from_result(&out->layers[out->n_layers++], &fastly, ev);
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
  layers_release(&L);
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
  ctx_init(&c, h, n, method, status, flags);
  age = header_find(h, n, "age");
  if (age)
    out->age = cdn_parse_seconds(age);

  if (try_cloudflare(&c, out) || try_akamai(&c, out) || try_fastly(&c, out) ||
      try_cloudfront(&c, out) || try_azure(&c, out) || try_vercel(&c, out) ||
      try_word(&c, out, "eo-cache-status", "edgeone") || try_bunny(&c, out)) {
    pick_effective(&c, out->vendor);
    /* A CDN MISS on a response the origin forbids it to store is a bypass
     * (CDN.md 10); Fastly also passes on Set-Cookie (CDN.md 3).
     * Cloudflare says BYPASS itself, so its MISS stays a MISS. */
    if (out->verdict == CACHE_MISS && out->vendor &&
        strcmp(out->vendor, "cloudflare") &&
        (c.eff.no_store || c.eff.private_ ||
         (!strcmp(out->vendor, "fastly") && c.set_cookie)))
      out->verdict = CACHE_BYPASS;
    if (!cache_verdict_served_from_cache(out->verdict))
      origin_reasons(&c, out);
    for (i = 0; i < c.n_notes; i++)
      add_reason(out, "%s", c.notes[i]);
    if (c.targeted)
      add_reason(out, "the CDN follows %s: %s, not Cache-Control", c.eff_name,
                 cdn_skip_ows(c.targeted));
    /* A vendor's BYPASS, MISS or DYNAMIC that nothing above explains: say
     * what the vendor said (a cache rule or zone setting, CDN.md 1.3). */
    if (!out->n_reasons && out->raw && out->source &&
        !cache_verdict_served_from_cache(out->verdict))
      add_reason(out, "%s: %s", out->source, out->raw);
    if (!out->n_reasons && out->verdict == CACHE_UNKNOWN)
      add_reason(out, LOOKED_FOR);
    cdn_layers(&c, out);
    ctx_release(&c);
    return;
  }

  layers_collect(&L, &c, NULL, 0);
  if (layers_classify(&c, &L, out)) {
    if (L.cs_unparsable)
      add_reason(out, "Cache-Status could not be parsed and was ignored");
    layers_release(&L);
    ctx_release(&c);
    return;
  }
  layers_release(&L);

  /* No cache named itself. */
  {
    const char *vendor = edge_vendor_from_headers(h, n);

    /* No header names a CDN: the CNAME chain may (CDN.md 7). */
    if (!vendor)
      vendor = edge_vendor_from_cnames(cnames, n_cnames);
    out->vendor = vendor ? xstrdup(vendor) : NULL;
  }
  pick_effective(&c, out->vendor);
  if (out->age > 0) {
    /* Age "implies that the response was not generated or validated by
     * the origin server for this request" (RFC 9111 5.1). */
    out->verdict = CACHE_HIT;
    out->raw = xasprintf("%ld", out->age);
    out->source = xstrdup("age");
    add_reason(out, "Age: %ld shows a cache served it", out->age);
  }
  else if (c.eff.no_store || c.eff.private_) {
    char *p;

    out->verdict = CACHE_UNCACHEABLE;
    out->source = xstrdup(c.eff_name);
    for (p = out->source; *p; p++)
      *p = (char)tolower((unsigned char)*p);
  }
  if (L.cs_unparsable)
    add_reason(out, "Cache-Status could not be parsed and was ignored");
  if (out->verdict == CACHE_UNKNOWN)
    add_reason(out, LOOKED_FOR);
  if (!cache_verdict_served_from_cache(out->verdict))
    origin_reasons(&c, out);
  if (out->verdict != CACHE_UNKNOWN || out->vendor) {
    char *ev = out->source && out->raw
                   ? xasprintf("%s: %s", out->source, out->raw)
                   : NULL;

    out->layers = xcalloc(1, sizeof(*out->layers));
    out->n_layers = 1;
    layer_from_result(&out->layers[0], out, ev);
    free(ev);
  }
  ctx_release(&c);
}

void cache_classify(const struct header *h, size_t n, int request_flags,
                    struct cache_result *out)
{
  classify(h, n, NULL, 0, request_flags, NULL, 0, out);
}

void cache_classify_hop(const struct hop *hop, int request_flags,
                        struct cache_result *out)
{
  classify(hop->headers, hop->n_headers, hop->method, hop->status,
           request_flags, hop->dns.cnames, hop->dns.n_cnames, out);
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
