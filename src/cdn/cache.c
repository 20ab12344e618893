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

/* RFC 9211 Cache-Status.  Walk from the cache nearest the user towards the
 * origin: the first member that hit served the response.  When none hit,
 * the member nearest the user says why it forwarded. */
static enum cache_verdict member_verdict(const struct cache_status_member *m)
{
  if (m->hit)
    return m->has_ttl && m->ttl < 0 ? CACHE_STALE : CACHE_HIT;
  if (!m->fwd)
    return CACHE_UNKNOWN;
  if (!strcmp(m->fwd, "bypass") || !strcmp(m->fwd, "method") ||
      !strcmp(m->fwd, "request"))
    return CACHE_BYPASS;
  if (!strcmp(m->fwd, "stale"))
    return m->fwd_status == 304 ? CACHE_REVALIDATED : CACHE_EXPIRED;
  return CACHE_MISS; /* uri-miss, vary-miss, miss, partial, others */
}

static void member_notes(struct ctx *c, const struct cache_status_member *m)
{
  const char *fwd = m->fwd ? m->fwd : "";

  if (!strcmp(fwd, "bypass"))
    note(c, "cache \"%s\" is configured not to handle this request", m->id);
  else if (!strcmp(fwd, "method"))
    note(c, "cache \"%s\" does not cache this request method", m->id);
  else if (!strcmp(fwd, "request"))
    note(c, "the request's directives forbade using the copy in \"%s\"",
         m->id);
  else if (!strcmp(fwd, "vary-miss"))
    note(c, "cache \"%s\" had the URL but Vary did not match", m->id);
  else if (!strcmp(fwd, "partial"))
    note(c, "cache \"%s\" held only part of the requested range", m->id);
  if (m->detail)
    note(c, "cache \"%s\" detail: %s", m->id, m->detail);
}

static int try_cache_status(struct ctx *c, struct cache_result *r)
{
  char *v = header_join(c->h, c->n, "cache-status");
  struct cache_status cs;
  const char *vendor = NULL;
  enum cache_verdict verdict = CACHE_UNKNOWN;
  size_t i;

  if (!v)
    return 0;
  if (cache_status_parse(v, &cs) || !cs.n) {
    /* RFC 8941: a field that fails to parse is ignored. */
    note(c, "Cache-Status could not be parsed and was ignored");
    free(v);
    return 0;
  }
  for (i = 0; i < cs.n; i++)
    if (str_ci_find(cs.m[i].id, "netlify"))
      vendor = "netlify";
  if (!vendor)
    vendor = edge_vendor_from_headers(c->h, c->n);
  for (i = cs.n; i > 0; i--) {
    const struct cache_status_member *m = &cs.m[i - 1];

    if (!m->hit)
      continue;
    verdict = member_verdict(m);
    if (i < cs.n)
      note(c, "served from cache \"%s\"; \"%s\" nearer the user forwarded",
           m->id, cs.m[cs.n - 1].id);
    break;
  }
  if (!i) {
    verdict = member_verdict(&cs.m[cs.n - 1]);
    member_notes(c, &cs.m[cs.n - 1]);
  }
  set_verdict(r, c, vendor, verdict, v, "cache-status");
  cache_status_release(&cs);
  free(v);
  return 1;
}

/* nginx $upstream_cache_status as X-Cache-Status or X-Proxy-Cache; Google
 * Cloud CDN's {cdn_cache_status} in a header of the owner's choosing, often
 * the same name, behind "Via: 1.1 google". */
static int try_status_header(struct ctx *c, struct cache_result *r)
{
  static const char *const names[] = {"x-cache-status", "x-proxy-cache",
                                      "cdn-cache-status"};
  const char *via = header_find(c->h, c->n, "via");
  const char *vendor = str_ci_find(via, "google") ? "google" : "nginx";
  size_t i;

  for (i = 0; i < ARRAY_SIZE(names); i++)
    if (try_word(c, r, names[i], vendor))
      return 1;
  return 0;
}

/* KeyCDN and Varnish, then a generic X-Cache: HIT or MISS. */
static int try_xcache(struct ctx *c, struct cache_result *r)
{
  const char *xc = header_find(c->h, c->n, "x-cache");
  const char *server = header_find(c->h, c->n, "server");
  const char *via = header_find(c->h, c->n, "via");
  const char *xv = header_find(c->h, c->n, "x-varnish");
  const char *vendor = edge_vendor_from_headers(c->h, c->n);
  enum cache_verdict v;

  if (str_ci_prefix(server, "keycdn"))
    vendor = "keycdn";
  else if (!vendor && (xv || str_ci_find(via, "varnish")))
    vendor = "varnish";
  if (xc) {
    v = word_verdict(xc);
    set_verdict(r, c, vendor, v == CACHE_VERDICT_COUNT ? CACHE_UNKNOWN : v,
                cdn_skip_ows(xc), "x-cache");
    return 1;
  }
  if (xv) {
    /* Two ids ("<xid> <xid of the cached object>") mean a hit. */
    const char *p = cdn_skip_ows(xv);
    int words = 0;

    while (*p) {
      words++;
      while (*p && !cdn_is_ows((unsigned char)*p))
        p++;
      p = cdn_skip_ows(p);
    }
    set_verdict(r, c, "varnish", words >= 2 ? CACHE_HIT : CACHE_MISS,
                cdn_skip_ows(xv), "x-varnish");
    return 1;
  }
  return 0;
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
                     const char *method, long status, int had_auth)
{
  const char *v;
  char *cc;

  memset(c, 0, sizeof(*c));
  c->h = h;
  c->n = n;
  c->method = method;
  c->status = status;
  c->had_auth = had_auth;
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

static void classify(const struct header *h, size_t n, const char *method,
                     long status, int had_auth, const char *const *cnames,
                     size_t n_cnames, struct cache_result *out)
{
  struct ctx c;
  const char *age;
  size_t i;

  cache_result_init(out);
  ctx_init(&c, h, n, method, status, had_auth);
  age = header_find(h, n, "age");
  if (age)
    out->age = cdn_parse_seconds(age);

  if (!try_cloudflare(&c, out) && !try_akamai(&c, out) &&
      !try_fastly(&c, out) && !try_cloudfront(&c, out) &&
      !try_azure(&c, out) && !try_vercel(&c, out) &&
      !try_word(&c, out, "eo-cache-status", "edgeone") &&
      !try_bunny(&c, out) && !try_cache_status(&c, out) &&
      !try_status_header(&c, out) && !try_xcache(&c, out)) {
    const char *vendor = edge_vendor_from_headers(h, n);

    /* No header names a CDN: the CNAME chain may (CDN.md 7). */
    if (!vendor)
      vendor = edge_vendor_from_cnames(cnames, n_cnames);
    free(out->vendor);
    out->vendor = vendor ? xstrdup(vendor) : NULL;
  }
  pick_effective(&c, out->vendor);

  if (c.vendor_said) {
    /* A CDN MISS on a response the origin forbids it to store is a bypass
     * (CDN.md 10); Fastly also passes on Set-Cookie (CDN.md 3).
     * Cloudflare says BYPASS itself, so its MISS stays a MISS. */
    if (out->verdict == CACHE_MISS && out->vendor &&
        strcmp(out->vendor, "cloudflare") &&
        (c.eff.no_store || c.eff.private_ ||
         (!strcmp(out->vendor, "fastly") && c.set_cookie)))
      out->verdict = CACHE_BYPASS;
  }
  else if (out->age > 0) {
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
    add_reason(out, "no cache status header and no Age");
  ctx_release(&c);
}

void cache_classify(const struct header *h, size_t n, int request_had_auth,
                    struct cache_result *out)
{
  classify(h, n, NULL, 0, request_had_auth, NULL, 0, out);
}

void cache_classify_hop(const struct hop *hop, int request_had_auth,
                        struct cache_result *out)
{
  classify(hop->headers, hop->n_headers, hop->method, hop->status,
           request_had_auth, hop->dns.cnames, hop->dns.n_cnames, out);
}

void cache_result_init(struct cache_result *r)
{
  memset(r, 0, sizeof(*r));
  r->verdict = CACHE_UNKNOWN;
  r->age = -1;
}

void cache_result_release(struct cache_result *r)
{
  size_t i;

  for (i = 0; i < r->n_reasons; i++)
    free(r->reasons[i]);
  free(r->reasons);
  free(r->vendor);
  free(r->raw);
  free(r->source);
  cache_result_init(r);
}
