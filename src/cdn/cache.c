/*
 * cache.c: the cache verdict of a hop, from its response headers (SPEC
 * 4.1).  Input: the diagnostic headers the probe kept.  Output: a struct
 * cache_result with the vendor, a normalised verdict (CDN.md 10), the
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
#include "edge.h"
#include "units.h"
#include "xalloc.h"
#include "strutil.h"
#include "banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- small string helpers ---- */

static int is_ows(int c)
{
  return c == ' ' || c == '\t';
}

static const char *skip_ows(const char *p)
{
  while (is_ows((unsigned char)*p))
    p++;
  return p;
}

/* The first word of s (up to blank or comma), copied into out. */
static void first_word(const char *s, char *out, size_t size)
{
  size_t i = 0;

  s = skip_ows(s);
  while (s[i] && !is_ows((unsigned char)s[i]) && s[i] != ',' && i + 1 < size) {
    out[i] = s[i];
    i++;
  }
  out[i] = '\0';
}

static const char *hdr(const struct header *h, size_t n, const char *name)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (!strcasecmp(h[i].name, name))
      return h[i].value ? h[i].value : "";
  return NULL;
}

/* Every value of a list header joined with ", ", as RFC 9110 5.3 allows.
 * Caller frees; NULL when absent. */
static char *hdr_join(const struct header *h, size_t n, const char *name)
{
  struct buf b;
  size_t i;
  int seen = 0;

  buf_init(&b, 0);
  for (i = 0; i < n; i++) {
    if (strcasecmp(h[i].name, name))
      continue;
    if (seen)
      buf_puts(&b, ", ");
    buf_puts(&b, h[i].value ? h[i].value : "");
    seen = 1;
  }
  if (!seen) {
    buf_release(&b);
    return NULL;
  }
  return buf_detach(&b);
}

/* Non-negative decimal seconds; -1 when s is not one. */
static long parse_seconds(const char *s)
{
  long v = 0;

  s = skip_ows(s);
  if (!isdigit((unsigned char)*s))
    return -1;
  for (; isdigit((unsigned char)*s); s++) {
    /* RFC 9111 1.2.2: too large means 2^31. */
    if (v > 214748364L)
      v = 2147483648L;
    else
      v = v * 10 + (*s - '0');
  }
  s = skip_ows(s);
  return *s ? -1 : v;
}

/* ---- Cache-Control ---- */

/* The next comma-separated item of a list, honouring quoted strings.
 * Returns the position after the item's comma (or at the end). */
static const char *next_item(const char *p, const char **start, size_t *len)
{
  const char *e;
  int quoted = 0;

  p = skip_ows(p);
  *start = p;
  for (e = p; *e; e++) {
    if (quoted && *e == '\\' && e[1])
      e++;
    else if (*e == '"')
      quoted = !quoted;
    else if (*e == ',' && !quoted)
      break;
  }
  *len = (size_t)(e - p);
  while (*len && is_ows((unsigned char)p[*len - 1]))
    (*len)--;
  return *e ? e + 1 : e;
}

static long directive_seconds(const char *v, size_t vlen)
{
  char tmp[32];
  long s;

  if (vlen && *v == '"') {
    v++;
    vlen = vlen >= 2 ? vlen - 2 : 0;
  }
  if (vlen >= sizeof(tmp))
    vlen = sizeof(tmp) - 1;
  memcpy(tmp, v, vlen);
  tmp[vlen] = '\0';
  s = parse_seconds(tmp);
  /* An invalid delta is treated as zero: stale at once. */
  return s < 0 ? 0 : s;
}

void cache_control_parse(const char *value, struct cache_control *cc)
{
  const char *p = value, *item;
  size_t len;

  memset(cc, 0, sizeof(*cc));
  cc->max_age = cc->s_maxage = cc->swr = cc->sie = -1;
  if (!value)
    return;
  while (*p) {
    const char *eq, *v = NULL;
    size_t nlen, vlen = 0;

    p = next_item(p, &item, &len);
    if (!len)
      continue;
    eq = memchr(item, '=', len);
    nlen = eq ? (size_t)(eq - item) : len;
    while (nlen && is_ows((unsigned char)item[nlen - 1]))
      nlen--;
    if (eq) {
      /* The item ends at len (trailing whitespace trimmed): do not skip
       * past it, or "max-age=  " would give a negative length. */
      v = eq + 1;
      while (v < item + len && is_ows((unsigned char)*v))
        v++;
      vlen = (size_t)(item + len - v);
    }
#define IS(name) (nlen == strlen(name) && !strncasecmp(item, name, nlen))
    if (IS("no-store"))
      cc->no_store = 1;
    else if (IS("no-cache"))
      cc->no_cache = cc->no_cache || !eq; /* no-cache="f" is per field */
    else if (IS("private"))
      cc->private_ = cc->private_ || !eq;
    else if (IS("public"))
      cc->public_ = 1;
    else if (IS("must-revalidate"))
      cc->must_revalidate = 1;
    else if (IS("proxy-revalidate"))
      cc->proxy_revalidate = 1;
    else if (IS("immutable"))
      cc->immutable = 1;
    else if (IS("max-age"))
      cc->max_age = directive_seconds(v ? v : "", vlen);
    else if (IS("s-maxage"))
      cc->s_maxage = directive_seconds(v ? v : "", vlen);
    else if (IS("stale-while-revalidate"))
      cc->swr = directive_seconds(v ? v : "", vlen);
    else if (IS("stale-if-error"))
      cc->sie = directive_seconds(v ? v : "", vlen);
    else
      continue;
#undef IS
    cc->present = 1;
  }
}

/* ---- RFC 9211 Cache-Status: a Structured Fields List (RFC 8941) ---- */

enum sf_type { SF_INT, SF_DEC, SF_STR, SF_TOK, SF_BYTES, SF_BOOL };

struct sf_item {
  enum sf_type type;
  long i;  /* SF_INT, SF_BOOL */
  char *s; /* SF_STR, SF_TOK, SF_BYTES, SF_DEC text; owned */
};

static int sf_lcalpha(int c)
{
  return c >= 'a' && c <= 'z';
}

static int sf_tchar(int c)
{
  return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int sf_bare_item(const char **pp, struct sf_item *it)
{
  const char *p = *pp;
  struct buf b;

  it->s = NULL;
  it->i = 0;
  if (*p == '-' || isdigit((unsigned char)*p)) {
    const char *s = p;
    int digits = 0, dot = 0;

    if (*p == '-')
      p++;
    if (!isdigit((unsigned char)*p))
      return -1;
    for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
      if (*p == '.') {
        if (dot || digits > 12)
          return -1;
        dot = 1;
        continue;
      }
      if (++digits > 15)
        return -1;
    }
    if (dot && p[-1] == '.')
      return -1;
    if (dot) {
      it->type = SF_DEC;
      it->s = xstrndup(s, (size_t)(p - s));
    }
    else {
      it->type = SF_INT;
      it->i = strtol(s, NULL, 10);
    }
    *pp = p;
    return 0;
  }
  if (*p == '"') {
    buf_init(&b, 0);
    for (p++; *p != '"'; p++) {
      if (*p == '\\') {
        p++;
        if (*p != '"' && *p != '\\')
          goto bad;
      }
      else if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
        goto bad; /* also the end of the string */
      buf_putc(&b, *p);
    }
    it->type = SF_STR;
    it->s = buf_detach(&b);
    *pp = p + 1;
    return 0;
  bad:
    buf_release(&b);
    return -1;
  }
  if (isalpha((unsigned char)*p) || *p == '*') {
    const char *s = p;

    for (p++; sf_tchar((unsigned char)*p) || *p == ':' || *p == '/'; p++)
      ;
    it->type = SF_TOK;
    it->s = xstrndup(s, (size_t)(p - s));
    *pp = p;
    return 0;
  }
  if (*p == ':') {
    const char *s = ++p;

    while (isalnum((unsigned char)*p) || *p == '+' || *p == '/' || *p == '=')
      p++;
    if (*p != ':')
      return -1;
    it->type = SF_BYTES;
    it->s = xstrndup(s, (size_t)(p - s));
    *pp = p + 1;
    return 0;
  }
  if (*p == '?' && (p[1] == '0' || p[1] == '1')) {
    it->type = SF_BOOL;
    it->i = p[1] == '1';
    *pp = p + 2;
    return 0;
  }
  return -1;
}

static void member_set(struct cache_status_member *m, const char *key,
                       struct sf_item *v)
{
  char **slot = NULL;

  if (!strcmp(key, "hit"))
    m->hit = v->type == SF_BOOL && v->i;
  else if (!strcmp(key, "fwd") && v->type == SF_TOK)
    slot = &m->fwd;
  else if (!strcmp(key, "fwd-status") && v->type == SF_INT)
    m->fwd_status = v->i;
  else if (!strcmp(key, "ttl") && v->type == SF_INT) {
    m->has_ttl = 1;
    m->ttl = v->i;
  }
  else if (!strcmp(key, "stored") && v->type == SF_BOOL)
    m->stored = (int)v->i;
  else if (!strcmp(key, "collapsed") && v->type == SF_BOOL)
    m->collapsed = (int)v->i;
  else if (!strcmp(key, "key") && v->type == SF_STR)
    slot = &m->key;
  else if (!strcmp(key, "detail") && (v->type == SF_STR || v->type == SF_TOK))
    slot = &m->detail;
  if (slot) {
    /* A repeated parameter overrides the earlier one (RFC 8941 4.2.3.2). */
    free(*slot);
    *slot = v->s;
    v->s = NULL;
  }
}

static void member_release(struct cache_status_member *m)
{
  free(m->id);
  free(m->fwd);
  free(m->key);
  free(m->detail);
}

int cache_status_parse(const char *value, struct cache_status *out)
{
  const char *p = value;
  size_t alloc = 0;
  int rc = -1;

  out->m = NULL;
  out->n = 0;
  if (!value)
    return -1;
  while (*p == ' ')
    p++;
  while (*p) {
    struct cache_status_member *m;
    struct sf_item it;

    out->m = xgrow(out->m, &alloc, out->n + 1, sizeof(*out->m));
    m = &out->m[out->n];
    memset(m, 0, sizeof(*m));
    m->fwd_status = -1;
    m->stored = m->collapsed = -1;
    if (*p == '(' || sf_bare_item(&p, &it))
      goto out; /* inner lists are not Cache-Status members */
    out->n++;
    m->id = it.type == SF_INT ? xasprintf("%ld", it.i)
            : it.s            ? it.s
                              : xstrdup("");
    while (*p == ';') {
      const char *k;
      char key[64];
      size_t klen;

      p++;
      while (*p == ' ')
        p++;
      k = p;
      if (!sf_lcalpha((unsigned char)*p) && *p != '*')
        goto out;
      while (sf_lcalpha((unsigned char)*p) || isdigit((unsigned char)*p) ||
             *p == '_' || *p == '-' || *p == '.' || *p == '*')
        p++;
      klen = (size_t)(p - k);
      if (klen >= sizeof(key))
        goto out;
      memcpy(key, k, klen);
      key[klen] = '\0';
      if (*p == '=') {
        p++;
        if (sf_bare_item(&p, &it))
          goto out;
      }
      else {
        it.type = SF_BOOL;
        it.i = 1;
        it.s = NULL;
      }
      member_set(m, key, &it);
      free(it.s);
    }
    p = skip_ows(p);
    if (!*p)
      break;
    if (*p != ',')
      goto out;
    p = skip_ows(p + 1);
    if (!*p)
      goto out; /* a trailing comma */
  }
  rc = 0;
out:
  if (rc)
    cache_status_release(out);
  return rc;
}

void cache_status_release(struct cache_status *cs)
{
  size_t i;

  for (i = 0; i < cs->n; i++)
    member_release(&cs->m[i]);
  free(cs->m);
  cs->m = NULL;
  cs->n = 0;
}

/* ---- HTTP-date (RFC 9110 5.6.7), for Expires against Date ---- */

/* Days since 1970-01-01 of a civil date (H. Hinnant's algorithm). */
static int month_index(const char *s)
{
  static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  int i;

  for (i = 0; i < 12; i++)
    if (!strncasecmp(s, months + 3 * i, 3))
      return i + 1;
  return 0;
}

static int read_int(const char **pp, int maxdigits, int *out)
{
  const char *p = *pp;
  int v = 0, n = 0;

  while (isdigit((unsigned char)*p) && n < maxdigits) {
    v = v * 10 + (*p++ - '0');
    n++;
  }
  if (!n)
    return -1;
  *pp = p;
  *out = v;
  return 0;
}

static int read_clock(const char **pp, int *h, int *mi, int *s)
{
  const char *p = *pp;

  if (read_int(&p, 2, h) || *p++ != ':' || read_int(&p, 2, mi) ||
      *p++ != ':' || read_int(&p, 2, s))
    return -1;
  *pp = p;
  return 0;
}

/* At least k bytes left before the NUL. */
static int has(const char *p, size_t k)
{
  return strnlen(p, k) == k;
}

/* Seconds since the epoch, or -1 when s is not an HTTP-date in any of the
 * three formats of RFC 9110 5.6.7. */
static int64_t parse_http_date(const char *s)
{
  const char *p = skip_ows(s), *comma = strchr(p, ',');
  int d, mo, y, h, mi, sec;

  if (comma) {
    p = skip_ows(comma + 1);
    if (read_int(&p, 2, &d))
      return -1;
    if (*p == '-') {
      /* RFC 850: 06-Nov-94 08:49:37 GMT */
      mo = has(p, 5) && p[4] == '-' ? month_index(p + 1) : 0;
      if (!mo)
        return -1;
      p += 5;
      if (read_int(&p, 4, &y))
        return -1;
      if (y < 100)
        y += y < 70 ? 2000 : 1900;
    }
    else {
      /* IMF-fixdate: 06 Nov 1994 08:49:37 GMT */
      p = skip_ows(p);
      mo = has(p, 3) ? month_index(p) : 0;
      if (!mo)
        return -1;
      p = skip_ows(p + 3);
      if (read_int(&p, 4, &y))
        return -1;
    }
    p = skip_ows(p);
    if (read_clock(&p, &h, &mi, &sec))
      return -1;
  }
  else {
    /* asctime: Sun Nov  6 08:49:37 1994 */
    if (!has(p, 3))
      return -1;
    p = skip_ows(p + 3);
    mo = has(p, 3) ? month_index(p) : 0;
    if (!mo)
      return -1;
    p = skip_ows(p + 3);
    if (read_int(&p, 2, &d))
      return -1;
    p = skip_ows(p);
    if (read_clock(&p, &h, &mi, &sec))
      return -1;
    p = skip_ows(p);
    if (read_int(&p, 4, &y))
      return -1;
  }
  if (d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
    return -1;
  return units_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
}

/* ---- classification ---- */

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
  const char *v = hdr(c->h, c->n, "cf-cache-status");
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
  const char *server = hdr(c->h, c->n, "server");
  const char *xc = hdr(c->h, c->n, "x-cache");

  return str_ci_find(server, "AkamaiGHost") || str_ci_find(xc, "akamai") ||
         hdr(c->h, c->n, "x-akamai-request-id") ||
         hdr(c->h, c->n, "x-akamai-transformed") ||
         hdr(c->h, c->n, "akamai-grn") ||
         hdr(c->h, c->n, "x-check-cacheable") ||
         hdr(c->h, c->n, "x-cache-remote");
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
  const char *rcs = hdr(c->h, c->n, "akamai-cache-status");
  const char *xc = hdr(c->h, c->n, "x-cache");
  const char *remote = hdr(c->h, c->n, "x-cache-remote");
  const char *check = hdr(c->h, c->n, "x-check-cacheable");
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
  if (!xc || !str_ci_prefix(skip_ows(xc), "TCP_"))
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
  if (v == CACHE_MISS && check && !strcasecmp(skip_ows(check), "NO")) {
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
  const char *sb = hdr(c->h, c->n, "x-served-by");
  const char *xc = hdr(c->h, c->n, "x-cache");
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
    p = next_item(p, &item, &len);
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
  const char *xc = hdr(c->h, c->n, "x-cache");
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
  const char *xc = hdr(c->h, c->n, "x-cache");
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
  const char *v = hdr(c->h, c->n, "x-vercel-cache");
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
  const char *v = hdr(c->h, c->n, name);
  enum cache_verdict verdict;

  if (!v)
    return 0;
  verdict = word_verdict(v);
  set_verdict(r, c, vendor,
              verdict == CACHE_VERDICT_COUNT ? CACHE_UNKNOWN : verdict,
              skip_ows(v), name);
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
  char *v = hdr_join(c->h, c->n, "cache-status");
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
  const char *via = hdr(c->h, c->n, "via");
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
  const char *xc = hdr(c->h, c->n, "x-cache");
  const char *server = hdr(c->h, c->n, "server");
  const char *via = hdr(c->h, c->n, "via");
  const char *xv = hdr(c->h, c->n, "x-varnish");
  const char *vendor = edge_vendor_from_headers(c->h, c->n);
  enum cache_verdict v;

  if (str_ci_prefix(server, "keycdn"))
    vendor = "keycdn";
  else if (!vendor && (xv || str_ci_find(via, "varnish")))
    vendor = "varnish";
  if (xc) {
    v = word_verdict(xc);
    set_verdict(r, c, vendor, v == CACHE_VERDICT_COUNT ? CACHE_UNKNOWN : v,
                skip_ows(xc), "x-cache");
    return 1;
  }
  if (xv) {
    /* Two ids ("<xid> <xid of the cached object>") mean a hit. */
    const char *p = skip_ows(xv);
    int words = 0;

    while (*p) {
      words++;
      while (*p && !is_ows((unsigned char)*p))
        p++;
      p = skip_ows(p);
    }
    set_verdict(r, c, "varnish", words >= 2 ? CACHE_HIT : CACHE_MISS,
                skip_ows(xv), "x-varnish");
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
    v = hdr(c->h, c->n, targets[i].field);
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
      p = next_item(p, &item, &len);
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
  cc = hdr_join(h, n, "cache-control");
  cache_control_parse(cc, &c->cc);
  free(cc);
  v = hdr(h, n, "pragma");
  c->pragma_no_cache = v && str_ci_find(v, "no-cache");
  c->set_cookie = hdr(h, n, "set-cookie") != NULL;
  c->vary = hdr_join(h, n, "vary");
  v = hdr(h, n, "expires");
  if (v) {
    int64_t exp = parse_http_date(v), date = -1;
    const char *d = hdr(h, n, "date");

    if (d)
      date = parse_http_date(d);
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
  age = hdr(h, n, "age");
  if (age)
    out->age = parse_seconds(age);

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
               skip_ows(c.targeted));
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
