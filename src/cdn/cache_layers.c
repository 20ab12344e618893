/*
 * cache_layers.c: the proxy caches a response passed through, one layer
 * each, nearest the user first (hopsplit(1) CACHE AND EDGE; RFC 9211
 * Cache-Status lists them so; tests/integration/caches_* measure Debian 12's
 * caches), and what each did with the request: Varnish, Squid, Apache Traffic
 * Server, Apache httpd mod_cache, nginx proxy_cache, any RFC 9211 Cache-Status
 * member. Input: the struct ctx of one response.  Output: cache_layer entries
 * of a struct cache_result.  Vendor facts are data (vendor_facts[]) beside the
 * vendor-independent rules of lay_decide().
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

/* ---- cache layers (hopsplit(1) CACHE AND EDGE; RFC 9211) ----
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

/* What a cache does by default (measured on Debian 12's
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
                           const char *name, int weak_name, double pos,
                           unsigned kind)
{
  struct lay *l = NULL;
  size_t i;

  if (name && !weak_name)
    for (i = 0; i < L->n && !l; i++)
      if (L->l[i].name && !L->l[i].weak_name &&
          same_host(L->l[i].name, name) && !(L->l[i].kinds & kind))
        l = &L->l[i];
  /* By vendor: of several caches of one vendor (two Varnishes in Via),
   * the nearest the user, whose headers were set last. */
  if (!l && vendor)
    for (i = 0; i < L->n; i++)
      if (L->l[i].vendor && !strcmp(L->l[i].vendor, vendor) &&
          (weak_name || !name || !L->l[i].name || L->l[i].weak_name) &&
          /* a second signal of one kind is a second cache */
          !(L->l[i].kinds & kind) &&
          (!l || L->l[i].via_idx > l->via_idx ||
           (L->l[i].via_idx == l->via_idx && L->l[i].pos > l->pos)))
        l = &L->l[i];
  if (!l && !vendor && !name)
    for (i = 0; i < L->n && !l; i++)
      if (!L->l[i].vendor && !L->l[i].name && !(L->l[i].kinds & kind))
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
  l->kinds |= kind;
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

  cache_first_word(w, word, sizeof(word));
  if (!strcasecmp(word, "REVALIDATE") || !strcasecmp(word, "REVALIDATED") ||
      !strcasecmp(word, "RefreshHit") || !strcasecmp(word, "TCP_REFRESH_HIT"))
    l->reval = 1;
  else if (!strcasecmp(word, "UNCACHEABLE"))
    l->uncacheable = 1;
  else if (!strcasecmp(word, "DYNAMIC") || !strcasecmp(word, "DISABLED"))
    l->dynamic = 1;
  else {
    switch (cache_word_verdict(word)) {
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
                pos + 0.01 * (double)(*via_n), LAY_VIA);
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
  const char *vendor = vendor_from_name(m->id);
  struct lay *l;
  const char *fwd = m->fwd ? m->fwd : "";
  struct buf t;

  /* The CDN that said its verdict in its own header (cf-cache-status)
   * and again in Cache-Status is one cache: its evidence, not a layer. */
  if (L->cdn && vendor && !strcmp(vendor, L->cdn)) {
    if (L->cdn_ev.len)
      buf_puts(&L->cdn_ev, ", ");
    member_text(m, &L->cdn_ev);
    return;
  }
  l = lay_get(L, vendor, m->id[0] ? m->id : NULL, 1, pos, LAY_CS);
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
  l = lay_get(L, "apache", host, 0, pos, LAY_DETAIL);
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
      else if (L->n == 1 && L->l[0].vendor && !(L->l[0].kinds & LAY_XCACHE))
        l = &L->l[0];
      else if (str_ci_prefix(server, "nginx") && !via_present(c))
        vendor = "nginx";
      else
        vendor = edge_vendor_from_headers(c->h, c->n);
      for (i = 0; i < L->n && !l && vendor; i++)
        if (L->l[i].vendor && !strcmp(L->l[i].vendor, vendor) &&
            !(L->l[i].kinds & LAY_XCACHE))
          l = &L->l[i];
      if (l)
        l->kinds |= LAY_XCACHE;
    }
    else if (squidish)
      vendor = "squid";
    if (!l)
      l = lay_get(L, vendor, host, 0, pos, LAY_XCACHE);
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
  struct lay *l = lay_get(L, "varnish", NULL, 0, pos, LAY_XVARNISH);

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
void cache_layers_collect(struct layers *L, struct ctx *c, const char *cdn,
                          int cdn_xcache)
{
  const char *via_all = header_find(c->h, c->n, "via");
  int squidish = header_find(c->h, c->n, "x-cache-lookup") != NULL;
  int via_n = 0;
  size_t i;

  memset(L, 0, sizeof(*L));
  L->cdn = cdn;
  buf_init(&L->cdn_ev, 0);
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
      struct lay *l = lay_get(L, "squid", host, 0, pos, LAY_LOOKUP);

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
      struct lay *l = lay_get(L, vendor, NULL, 0, pos, LAY_STATUS);

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
  /* "X-Cache: HIT from HOST" alone names a cache, not its product: Squid
   * and Apache mod_cache's CacheHeader both write it.  Only the host's
   * name, X-Cache-Detail (Apache), X-Cache-Lookup (Squid), Via or Server
   * say which one it is. */
  for (i = 0; i < L->n; i++)
    if (!L->l[i].vendor && L->l[i].from_xcache && L->l[i].via_idx < 0 &&
        !squidish)
      L->l[i].vendor = vendor_from_name(L->l[i].name);
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
        l = lay_get(L, sv, NULL, 0, (double)c->n, LAY_SERVER);
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
    cache_add_reason(r,
                     "the request carried a Cookie header, so %s passed it to "
                     "the origin",
                     n);
  if (k & f->passes & COND_REQ_AUTH)
    cache_add_reason(r,
                     "the request carried Authorization, so %s passed it to "
                     "the origin",
                     n);
  if (k & f->skips & COND_SET_COOKIE)
    cache_add_reason(r, "%s does not store responses that set a cookie", n);
  if (k & f->skips & COND_NO_CACHE)
    cache_add_reason(r,
                     "%s does not store responses marked Cache-Control: "
                     "no-cache",
                     n);
  if (k & f->skips & COND_VARY_STAR)
    cache_add_reason(r, "%s does not store responses with Vary: *", n);
  if (k & f->never_reused & COND_VARY_STAR)
    cache_add_reason(
        r, "Vary: * matches no later request, so %s cannot reuse it", n);
  if (k & f->skips & COND_ZERO_TTL)
    cache_add_reason(r,
                     "%s does not store responses that are stale at once "
                     "(max-age=0)",
                     n);
}

/* What layer l did with this request (hopsplit(1) CACHE AND EDGE): a cache
 * that answered from its store after asking the origin revalidated; one that
 * forwarded and stored is a MISS (a later request may hit); one that forwarded
 * and did not store says why. */
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
    cache_add_reason(r,
                     "%s asked the origin, which said its stored copy is "
                     "still good (304)",
                     n);
  }
  else if (l->hit && l->fwd) {
    v = CACHE_REVALIDATED;
    cache_add_reason(r,
                     "%s went to the origin and answered from its store: a "
                     "revalidation",
                     n);
  }
  else if (l->hit && (k & (COND_NO_CACHE | COND_VARY_STAR))) {
    /* no-cache: never reused without revalidation (RFC 9111 5.2.2.4);
     * Vary: * never matches (RFC 9111 4.1). */
    v = CACHE_REVALIDATED;
    cache_add_reason(
        r,
        "%s must ask the origin before reusing a response with "
        "%s, so this hit was a revalidation",
        n, k & COND_NO_CACHE ? "Cache-Control: no-cache" : "Vary: *");
  }
  else if (l->hit)
    v = l->has_ttl && l->ttl < 0 ? CACHE_STALE : CACHE_HIT;
  else if (l->stale) {
    v = CACHE_STALE;
    cache_add_reason(r, "%s served a stale copy", n);
  }
  else if (l->expired) {
    v = CACHE_EXPIRED;
    cache_add_reason(r, "%s had an expired copy and fetched it again", n);
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
      cache_add_reason(r, "nginx was configured to bypass its cache for this "
                          "request (proxy_cache_bypass)");
    else if (!l->fwd && !(k & f->passes))
      cache_add_reason(r,
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
      cache_add_reason(r,
                       "%s did not have it and stored it now: a later request "
                       "may hit",
                       n);
    }
    else {
      v = (k & (COND_NO_STORE | COND_PRIVATE)) && !passed ? CACHE_UNCACHEABLE
                                                          : CACHE_BYPASS;
      facts_reasons(f, n, k, r);
      if (l->has_ats && !r->n_reasons)
        cache_add_reason(r,
                         "Traffic Server's Via codes say it did not write the "
                         "response to its cache");
    }
  }
  else if (nearest && r->age >= CACHE_AGE_HIT_MIN) {
    v = CACHE_HIT;
    l->inferred = 1;
    lay_status(l, 1, "age", "");
    free(l->status_raw);
    l->status_raw = xasprintf("%ld", r->age);
    cache_add_reason(r,
                     "inferred from Age: %ld: a response with Age was not "
                     "generated by the origin for this request (RFC 9111 "
                     "5.1), so a cache served it",
                     r->age);
  }
  else if (k & (COND_NO_STORE | COND_PRIVATE)) {
    /* A cache that says nothing of itself still obeys RFC 9111 3. */
    v = CACHE_UNCACHEABLE;
    l->inferred = 1;
    cache_add_reason(r,
                     "inferred from RFC 9111: %s sent no cache status, and a "
                     "shared cache must not store a response with "
                     "Cache-Control: %s",
                     n, k & COND_NO_STORE ? "no-store" : "private");
  }
  else
    cache_add_reason(r,
                     "%s sent no cache status (looked for Cache-Status, "
                     "X-Cache, X-Cache-Status, X-Varnish and Via cache codes)",
                     n);
  r->verdict = v;
  for (i = 0; i < l->n_notes; i++)
    cache_add_reason(r, "%s", l->notes[i]);
}

/* Build the layers of a response no CDN claimed: the hop's verdict is the
 * layer nearest the user.  Returns 0 when there is no layer. */
int cache_layers_classify(struct ctx *c, struct layers *L,
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
      cache_add_reason(&r,
                       "%s nearer the user answered from its store: this is "
                       "what %s said when the response was stored",
                       cache_vendor_display(L->l[0].vendor),
                       l->vendor ? cache_vendor_display(l->vendor)
                                 : "this cache");
    lay_decide(c, l, i == 0, &r);
    if (!cache_verdict_served_from_cache(r.verdict)) {
      free(r.vendor);
      r.vendor = l->vendor ? xstrdup(l->vendor) : NULL;
      cache_pick_effective(c, l->vendor);
      cache_origin_reasons(c, &r);
    }
    cl->name = l->name ? xstrdup(l->name) : NULL;
    cl->vendor = l->vendor ? xstrdup(l->vendor) : NULL;
    cl->verdict = r.verdict;
    cl->raw = l->ev.len ? xstrdup(l->ev.s) : NULL;
    cl->reasons = r.reasons;
    cl->n_reasons = r.n_reasons;
    cl->inferred = l->inferred;
    r.reasons = NULL;
    r.n_reasons = 0;
    if (i == 0) {
      out->verdict = cl->verdict;
      out->inferred = cl->inferred;
      out->vendor = l->vendor ? xstrdup(l->vendor) : NULL;
      out->raw = l->status_raw ? xstrdup(l->status_raw) : NULL;
      out->source = l->source ? xstrdup(l->source) : NULL;
      for (j = 0; j < cl->n_reasons; j++)
        cache_add_reason(out, "%s", cl->reasons[j]);
    }
    cache_result_release(&r);
  }
  /* An inner cache answered although the one nearest the user forwarded
   * (passed a request with a cookie, did not store the response): the
   * hop's verdict is the layer that served it, and the outer cache's
   * pass is a reason (hopsplit(1) CACHE AND EDGE).  Its own layer keeps its
   * verdict. */
  for (i = 1; i < L->n; i++)
    if (!cache_verdict_served_from_cache(out->layers[0].verdict) &&
        out->layers[0].verdict != CACHE_UNKNOWN &&
        cache_verdict_served_from_cache(out->layers[i].verdict)) {
      char *why = xasprintf(
          "served from cache \"%s\" (%s); \"%s\" nearer the user "
          "forwarded the request (%s)",
          L->l[i].name ? L->l[i].name : cache_vendor_display(L->l[i].vendor),
          cache_verdict_names[out->layers[i].verdict],
          L->l[0].name ? L->l[0].name : cache_vendor_display(L->l[0].vendor),
          cache_verdict_names[out->layers[0].verdict]);
      size_t j;

      out->verdict = out->layers[i].verdict;
      out->inferred = out->layers[i].inferred;
      out->reasons =
          xrealloc(out->reasons, (out->n_reasons + 1) * sizeof(char *));
      for (j = out->n_reasons; j > 0; j--)
        out->reasons[j] = out->reasons[j - 1];
      out->reasons[0] = why;
      out->n_reasons++;
      break;
    }
  return 1;
}

void cache_layers_release(struct layers *L)
{
  size_t i;

  for (i = 0; i < L->n; i++)
    lay_release(&L->l[i]);
  L->n = 0;
  buf_release(&L->cdn_ev);
}

/* A layer that mirrors the hop's result (a CDN, or the fallback). */
void cache_layer_from_result(struct cache_layer *cl,
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
  cl->inferred = r->inferred;
}
