/*
 * edge.c: the CDN edge of a hop and its distance from the client (SPEC
 * 4.2).  Input: a hop's diagnostic headers and CNAME chain, the parsed
 * /cdn-cgi/trace of its host, the client's location and the measured
 * connect time.  Output: a struct edge_result per hop.
 *
 * The vendor comes from headers, outermost CDN first (CDN.md 7), else from
 * the CNAME chain; the POP from that vendor's header (cf-ray suffix,
 * x-amz-cf-pop prefix, the last x-served-by entry, the first x-vercel-id
 * region, the Bunny server name, ...), else from the trace's colo.  Codes
 * resolve through the tables of poptable.c.  Everything here is pure.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "buf.h"
#include "edge.h"
#include "xalloc.h"
#include "strutil.h"
#include "banned.h"

/* C11 without extensions has no M_PI. */
#define EDGE_PI 3.14159265358979323846

const char *const edge_source_names[EDGE_SOURCE_COUNT] = {"none", "header",
                                                          "trace", "cname"};
const char *const edge_client_source_names[EDGE_CLIENT_SOURCE_COUNT] = {
    "none", "option", "trace"};

/* ---- helpers ---- */

static const char *skip_blank(const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

/* Copy the leading run of letters of s, upper-cased, into out (at most
 * max letters, out has room for max + 1).  Return the count. */
static size_t upper_letters(const char *s, char *out, size_t max)
{
  size_t i = 0;

  while (i < max && isalpha((unsigned char)s[i]) && !(s[i] & 0x80)) {
    out[i] = (char)toupper((unsigned char)s[i]);
    i++;
  }
  out[i] = '\0';
  return i;
}

static void set_code(char *dst, size_t size, const char *src, size_t len)
{
  size_t i;

  if (len >= size)
    len = size - 1;
  for (i = 0; i < len; i++)
    dst[i] = (char)toupper((unsigned char)src[i]);
  dst[len] = '\0';
}

/* ---- tables ---- */

static int cmp_pop(const void *key, const void *elt)
{
  return strcmp(key, ((const struct edge_pop *)elt)->code);
}

static int cmp_country(const void *key, const void *elt)
{
  return strcmp(key, ((const struct edge_country *)elt)->cc);
}

const struct edge_pop *edge_pop_lookup(const char *code)
{
  char key[4];

  if (!code || upper_letters(code, key, 3) != 3 || code[3])
    return NULL;
  return bsearch(key, edge_pops, edge_n_pops, sizeof(edge_pops[0]), cmp_pop);
}

const struct edge_country *edge_country_lookup(const char *cc)
{
  char key[3];

  if (!cc || upper_letters(cc, key, 2) != 2 || cc[2])
    return NULL;
  return bsearch(key, edge_countries, edge_n_countries,
                 sizeof(edge_countries[0]), cmp_country);
}

const struct edge_pop *edge_pop_nearest(unsigned flags, double lat, double lon,
                                        const char *client_country)
{
  const struct edge_pop *best = NULL;
  double best_km = (double)INFINITY;
  int in_cn = client_country && !strcasecmp(client_country, "CN");
  size_t i;

  if (isnan(lat) || isnan(lon))
    return NULL;
  for (i = 0; i < edge_n_pops; i++) {
    const struct edge_pop *p = &edge_pops[i];
    double km;

    if ((p->flags & flags) != flags)
      continue;
    if (!in_cn && !strcmp(p->country, "CN"))
      continue;
    km = edge_distance_km(lat, lon, p->lat, p->lon);
    if (km < best_km) {
      best_km = km;
      best = p;
    }
  }
  return best;
}

/* ---- distance ---- */

double edge_distance_km(double lat1, double lon1, double lat2, double lon2)
{
  const double d2r = EDGE_PI / 180.0;
  double p1 = lat1 * d2r, p2 = lat2 * d2r;
  double dp = p2 - p1, dl = (lon2 - lon1) * d2r;
  double h = sin(dp / 2) * sin(dp / 2) +
             cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2);

  if (isnan(h))
    return (double)NAN;
  if (h > 1.0)
    h = 1.0;
  return 2.0 * EDGE_EARTH_RADIUS_KM * asin(sqrt(h));
}

double edge_floor_rtt_ms(double km)
{
  return km / EDGE_FLOOR_KM_PER_MS;
}

int edge_is_distant(double distance_km, double floor_ms, double connect_ms,
                    const char *client_country, const char *edge_country)
{
  int other_country;

  if (isnan(distance_km))
    return -1;
  if (isnan(floor_ms))
    floor_ms = edge_floor_rtt_ms(distance_km);
  if (!isnan(connect_ms) &&
      connect_ms > EDGE_DISTANT_FACTOR * floor_ms + EDGE_DISTANT_SLACK_MS)
    return 1;
  other_country = !client_country || !*client_country || !edge_country ||
                  !*edge_country || strcasecmp(client_country, edge_country);
  return other_country && distance_km > EDGE_DISTANT_KM;
}

/* ---- /cdn-cgi/trace ---- */

void edge_trace_init(struct edge_trace *t)
{
  memset(t, 0, sizeof(*t));
}

void edge_trace_release(struct edge_trace *t)
{
  free(t->fl);
  free(t->h);
  free(t->ip);
  free(t->ts);
  free(t->visit_scheme);
  free(t->uag);
  free(t->colo);
  free(t->sliver);
  free(t->http);
  free(t->loc);
  free(t->tls);
  free(t->sni);
  free(t->warp);
  free(t->gateway);
  free(t->rbi);
  free(t->kex);
  edge_trace_init(t);
}

static char **trace_slot(struct edge_trace *t, const char *key, size_t len)
{
  const struct {
    const char *key;
    char **slot;
  } keys[] = {
      {"fl", &t->fl},
      {"h", &t->h},
      {"ip", &t->ip},
      {"ts", &t->ts},
      {"visit_scheme", &t->visit_scheme},
      {"uag", &t->uag},
      {"colo", &t->colo},
      {"sliver", &t->sliver},
      {"http", &t->http},
      {"loc", &t->loc},
      {"tls", &t->tls},
      {"sni", &t->sni},
      {"warp", &t->warp},
      {"gateway", &t->gateway},
      {"rbi", &t->rbi},
      {"kex", &t->kex},
  };
  size_t i;

  for (i = 0; i < ARRAY_SIZE(keys); i++)
    if (strlen(keys[i].key) == len && !memcmp(keys[i].key, key, len))
      return keys[i].slot;
  return NULL; /* unknown keys are ignored: fields get added over time */
}

int edge_trace_parse(const char *body, size_t len, struct edge_trace *out)
{
  size_t i, start;
  int rc = -1;

  edge_trace_init(out);
  if (!body || len > EDGE_TRACE_MAX)
    goto out;
  for (i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)body[i];

    if ((ch < 0x20 && ch != '\n' && ch != '\r' && ch != '\t') || ch == 0x7f)
      goto out; /* binary, not a trace */
  }
  for (start = 0; start < len; start = i + 1) {
    const char *line = body + start, *eq;
    size_t llen;
    char **slot;

    for (i = start; i < len && body[i] != '\n'; i++)
      ;
    llen = i - start;
    if (llen && line[llen - 1] == '\r')
      llen--;
    /* Split at the first '=': values such as uag may contain more. */
    eq = memchr(line, '=', llen);
    if (!eq)
      continue;
    slot = trace_slot(out, line, (size_t)(eq - line));
    if (slot && !*slot)
      *slot = xstrndup(eq + 1, llen - (size_t)(eq - line) - 1);
  }
  if (!out->colo || strlen(out->colo) != 3 ||
      upper_letters(out->colo, out->colo, 3) != 3)
    goto out;
  rc = 0;
out:
  if (rc)
    edge_trace_release(out);
  return rc;
}

int edge_trace_hides_client(const struct edge_trace *t)
{
  const char *v[3];
  size_t i;

  if (!t)
    return 0;
  v[0] = t->warp;
  v[1] = t->gateway;
  v[2] = t->rbi;
  for (i = 0; i < ARRAY_SIZE(v); i++)
    if (v[i] && *v[i] && strcasecmp(v[i], "off"))
      return 1;
  return 0;
}

/* ---- client location ---- */

void edge_client_init(struct edge_client *c)
{
  memset(c, 0, sizeof(*c));
  c->lat = (double)NAN;
  c->lon = (double)NAN;
  c->source = EDGE_CLIENT_NONE;
}

static int parse_degrees(const char *s, size_t len, double max, double *out)
{
  char tmp[64], *end;
  double v;

  while (len && (*s == ' ' || *s == '\t')) {
    s++;
    len--;
  }
  while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
    len--;
  if (!len || len >= sizeof(tmp))
    return -1;
  memcpy(tmp, s, len);
  tmp[len] = '\0';
  v = strtod(tmp, &end);
  if (*end || !isfinite(v) || v < -max || v > max)
    return -1;
  *out = v;
  return 0;
}

int edge_client_parse(const char *arg, struct edge_client *out, char **err)
{
  const struct edge_country *c;
  const char *comma;

  edge_client_init(out);
  *err = NULL;
  if (!arg || !*arg) {
    *err = xstrdup("empty value: expected a country code such as KR, or "
                   "LAT,LON");
    return -1;
  }
  comma = strchr(arg, ',');
  if (!comma) {
    c = edge_country_lookup(arg);
    if (!c) {
      *err = xasprintf("'%s' is not a known ISO 3166 country code (such "
                       "as KR) nor LAT,LON",
                       arg);
      return -1;
    }
    memcpy(out->country, c->cc, sizeof(out->country));
    out->lat = c->lat;
    out->lon = c->lon;
    out->source = EDGE_CLIENT_OPTION;
    return 0;
  }
  if (strchr(comma + 1, ',')) {
    *err = xasprintf("'%s': expected LAT,LON with one comma", arg);
    return -1;
  }
  if (parse_degrees(arg, (size_t)(comma - arg), 90.0, &out->lat)) {
    *err = xasprintf("'%s': latitude must be a number from -90 to 90", arg);
    edge_client_init(out);
    return -1;
  }
  if (parse_degrees(comma + 1, strlen(comma + 1), 180.0, &out->lon)) {
    *err = xasprintf("'%s': longitude must be a number from -180 to 180", arg);
    edge_client_init(out);
    return -1;
  }
  out->source = EDGE_CLIENT_OPTION;
  return 0;
}

void edge_client_resolve(const struct edge_client *opt,
                         const struct edge_trace *trace,
                         struct edge_client *out)
{
  const struct edge_country *c;

  edge_client_init(out);
  if (opt && opt->source != EDGE_CLIENT_NONE)
    *out = *opt;
  else if (trace && trace->loc && strcasecmp(trace->loc, "XX") &&
           strcasecmp(trace->loc, "T1")) {
    c = edge_country_lookup(trace->loc);
    if (c) {
      memcpy(out->country, c->cc, sizeof(out->country));
      out->lat = c->lat;
      out->lon = c->lon;
      out->source = EDGE_CLIENT_TRACE;
    }
  }
  out->hidden = edge_trace_hides_client(trace);
}

/* ---- vendor detection ---- */

const char *edge_vendor_from_headers(const struct header *h, size_t n)
{
  const char *server = header_find(h, n, "server");
  const char *via = header_find(h, n, "via");
  const char *xc = header_find(h, n, "x-cache");

  /* Outermost first: a CDN in front of another shows its own markers on
   * top of the inner one's (CDN.md 7). */
  if (header_find(h, n, "cf-ray") || header_find(h, n, "cf-cache-status") ||
      str_ci_prefix(server, "cloudflare"))
    return "cloudflare";
  if (str_ci_find(server, "AkamaiGHost") ||
      header_find(h, n, "x-akamai-request-id") ||
      header_find(h, n, "x-akamai-transformed") ||
      header_find(h, n, "akamai-grn") ||
      header_find(h, n, "akamai-cache-status") || str_ci_find(xc, "akamai") ||
      header_find(h, n, "x-check-cacheable"))
    return "akamai";
  if (str_ci_find(header_find(h, n, "x-served-by"), "cache-") ||
      header_find(h, n, "x-fastly-request-id") ||
      header_find(h, n, "fastly-debug-path"))
    return "fastly";
  if (header_find(h, n, "x-amz-cf-pop") || header_find(h, n, "x-amz-cf-id") ||
      str_ci_find(via, "cloudfront") || str_ci_find(xc, "cloudfront"))
    return "cloudfront";
  if (header_find(h, n, "x-azure-ref") || header_find(h, n, "x-msedge-ref"))
    return "azure";
  if (header_find(h, n, "x-vercel-id") ||
      header_find(h, n, "x-vercel-cache") ||
      (server && !strcasecmp(server, "Vercel")))
    return "vercel";
  if (header_find(h, n, "x-nf-request-id") ||
      (server && !strcasecmp(server, "Netlify")) ||
      str_ci_find(header_find(h, n, "cache-status"), "netlify"))
    return "netlify";
  if (str_ci_prefix(server, "BunnyCDN") || header_find(h, n, "cdn-pullzone") ||
      header_find(h, n, "cdn-requestid") || header_find(h, n, "cdn-uid"))
    return "bunny";
  if (str_ci_prefix(server, "keycdn"))
    return "keycdn";
  if (header_find(h, n, "eo-cache-status"))
    return "edgeone";
  if (header_find(h, n, "x-77-pop") || str_ci_prefix(server, "CDN77"))
    return "cdn77";
  if (via && str_ci_find(via, "google"))
    return "google";
  return NULL;
}

/* CNAME suffixes of CDN.md 7.  A leading '.' matches on a label boundary;
 * without one the name must match exactly or end with "." + it.  Weak
 * entries count only when no strong one matches the chain. */
static const struct {
  const char *suffix;
  const char *vendor;
  int weak;
} cname_suffixes[] = {
    {".cdn.cloudflare.net", "cloudflare", 0},
    {".cloudflare.net", "cloudflare", 0},
    {".cloudflare.com", "cloudflare", 0},
    {".pages.dev", "cloudflare", 0},
    {".workers.dev", "cloudflare", 0},
    {".cloudfront.net", "cloudfront", 0},
    {".fastly.net", "fastly", 0},
    {".fastlylb.net", "fastly", 0},
    {".edgecompute.app", "fastly", 0},
    {".edgekey.net", "akamai", 0},
    {".edgesuite.net", "akamai", 0},
    {".akamaized.net", "akamai", 0},
    {".akamaiedge.net", "akamai", 0},
    {".akamai.net", "akamai", 0},
    {".akadns.net", "akamai", 0},
    {".akamaihd.net", "akamai", 0},
    {".akamaitechnologies.com", "akamai", 0},
    {".azurefd.net", "azure", 0},
    {".azureedge.net", "azure", 0},
    {".vo.msecnd.net", "azure", 0},
    {".t-msedge.net", "azure", 1},
    {".trafficmanager.net", "azure", 1},
    {".b-cdn.net", "bunny", 0},
    {".kxcdn.com", "keycdn", 0},
    {"cname.vercel-dns.com", "vercel", 0},
    {".vercel.app", "vercel", 0},
    {".netlify.app", "netlify", 0},
    {".netlify.com", "netlify", 0},
    {".netlifyglobalcdn.com", "netlify", 0},
    {".googleusercontent.com", "google", 0},
    {"ghs.googlehosted.com", "google", 0},
    {".cdn77.org", "cdn77", 0},
    {".cdn77.net", "cdn77", 0},
    {".gcdn.co", "gcore", 0},
    {".stackpathdns.com", "stackpath", 0},
    {".netdna-cdn.com", "stackpath", 0},
    {".hwcdn.net", "stackpath", 0},
    {".edgecastcdn.net", "edgecast", 0},
    {".systemcdn.net", "edgecast", 0},
    {".incapdns.net", "imperva", 0},
    {".llnwd.net", "limelight", 0},
    {".lldns.net", "limelight", 0},
    {".cdngc.net", "cdnetworks", 0},
    {".gccdn.net", "cdnetworks", 0},
    {".lxdns.com", "wangsu", 0},
};

/* name ends with suffix (see the table comment); name may end in '.'. */
static int suffix_match(const char *name, const char *suffix)
{
  size_t n = strlen(name), s = strlen(suffix);

  if (n && name[n - 1] == '.')
    n--;
  if (*suffix == '.')
    return n > s && !strncasecmp(name + n - s, suffix, s);
  if (n == s)
    return !strncasecmp(name, suffix, s);
  return n > s && name[n - s - 1] == '.' &&
         !strncasecmp(name + n - s, suffix, s);
}

/* Vercel's numbered CNAME targets: <x>.vercel-dns-017.com. */
static int vercel_numbered(const char *name)
{
  const char *p = str_ci_find(name, "vercel-dns-");
  size_t digits = 0;

  if (!p || (p != name && p[-1] != '.'))
    return 0;
  for (p += strlen("vercel-dns-"); isdigit((unsigned char)*p); p++)
    digits++;
  if (!digits)
    return 0;
  return !strcasecmp(p, ".com") || !strcasecmp(p, ".com.");
}

const char *edge_vendor_from_cnames(const char *const *cnames, size_t n)
{
  const char *weak = NULL;
  size_t i, j;

  for (i = 0; i < n; i++) {
    if (!cnames[i])
      continue;
    if (vercel_numbered(cnames[i]))
      return "vercel";
    for (j = 0; j < ARRAY_SIZE(cname_suffixes); j++) {
      if (!suffix_match(cnames[i], cname_suffixes[j].suffix))
        continue;
      if (!cname_suffixes[j].weak)
        return cname_suffixes[j].vendor;
      if (!weak)
        weak = cname_suffixes[j].vendor;
    }
  }
  return weak;
}

/* ---- POP extraction, per vendor ---- */

/* cf-ray: "<ray id>-<COLO>", split at the last '-' (CDN.md 1.2). */
static void pop_cloudflare(const struct header *h, size_t n,
                           struct edge_id *id)
{
  const char *ray = header_find(h, n, "cf-ray");
  const char *dash = ray ? strrchr(ray, '-') : NULL;
  char code[4];

  if (dash && upper_letters(dash + 1, code, 3) == 3 &&
      !isalnum((unsigned char)dash[4]))
    set_code(id->pop, sizeof(id->pop), code, 3);
}

/* x-amz-cf-pop "ICN54-P3" (CDN.md 2), else Server-Timing cdn-pop. */
static void pop_cloudfront(const struct header *h, size_t n,
                           struct edge_id *id)
{
  const char *v = header_find(h, n, "x-amz-cf-pop");
  char code[4];

  if (!v) {
    const char *st =
        str_ci_find(header_find(h, n, "server-timing"), "cdn-pop");

    if (st) {
      st = str_ci_find(st, "desc=");
      v = st ? st + 5 : NULL;
      if (v && *v == '"')
        v++;
    }
  }
  if (v && upper_letters(skip_blank(v), code, 3) == 3 &&
      isdigit((unsigned char)skip_blank(v)[3]))
    set_code(id->pop, sizeof(id->pop), code, 3);
}

/* The trailing -XXX of one x-served-by entry ("cache-hkg17922-HKG"). */
static int fastly_entry_pop(const char *s, size_t len, char *out, size_t size)
{
  while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
    len--;
  if (len < 5 || s[len - 4] != '-')
    return 0;
  if (!isupper((unsigned char)s[len - 3]) ||
      !isupper((unsigned char)s[len - 2]) ||
      !isupper((unsigned char)s[len - 1]))
    return 0;
  set_code(out, size, s + len - 3, 3);
  return 1;
}

/* x-served-by: first entry = shield, last entry = edge (CDN.md 3). */
static void pop_fastly(const struct header *h, size_t n, struct edge_id *id)
{
  const char *v = header_find(h, n, "x-served-by"), *p, *e;
  size_t entries = 0;
  char first[16] = "";

  if (!v)
    return;
  for (p = v;; p = e + 1) {
    char code[16];

    p = skip_blank(p);
    e = strchr(p, ',');
    if (!e)
      e = p + strlen(p);
    if (fastly_entry_pop(p, (size_t)(e - p), code, sizeof(code))) {
      if (!entries++)
        memcpy(first, code, sizeof(first));
      memcpy(id->pop, code, sizeof(id->pop));
    }
    if (!*e)
      break;
  }
  if (entries > 1)
    memcpy(id->upstream, first, sizeof(id->upstream));
}

/* One Vercel region id ("hnd1") into its airport code; 0 if not one. */
static int vercel_region(const char *s, size_t len, char *out, size_t size)
{
  size_t i = 0;

  while (i < len && islower((unsigned char)s[i]))
    i++;
  if (i != 3 || i == len)
    return 0;
  for (; i < len; i++)
    if (!isdigit((unsigned char)s[i]))
      return 0;
  set_code(out, size, s, 3);
  return 1;
}

/* x-vercel-id "<edge>::[<function region>::]<id>" (CDN.md 5). */
static void pop_vercel(const struct header *h, size_t n, struct edge_id *id)
{
  const char *v = header_find(h, n, "x-vercel-id"), *sep, *next;

  if (!v)
    return;
  v = skip_blank(v);
  sep = strstr(v, "::");
  if (!sep || !vercel_region(v, (size_t)(sep - v), id->pop, sizeof(id->pop)))
    return;
  next = strstr(sep + 2, "::");
  if (next)
    vercel_region(sep + 2, (size_t)(next - sep - 2), id->upstream,
                  sizeof(id->upstream));
}

/* Server "BunnyCDN-DE1-1079": a two-letter country or a three-letter city
 * code, then a digit (CDN.md 5). */
static void pop_bunny(const struct header *h, size_t n, struct edge_id *id)
{
  const char *server = header_find(h, n, "server");
  char code[4];
  size_t len;

  if (!str_ci_prefix(server, "BunnyCDN-"))
    return;
  len = upper_letters(server + strlen("BunnyCDN-"), code, 3);
  if ((len == 2 || len == 3) &&
      isdigit((unsigned char)server[strlen("BunnyCDN-") + len]))
    set_code(id->pop, sizeof(id->pop), code, len);
}

/* X-MSEdge-Ref "... Ref B: HKG201051218023 ..." (CDN.md 5). */
static void pop_azure(const struct header *h, size_t n, struct edge_id *id)
{
  const char *ref = str_ci_find(header_find(h, n, "x-msedge-ref"), "Ref B:");
  char code[4];

  if (ref && upper_letters(skip_blank(ref + 6), code, 3) == 3)
    set_code(id->pop, sizeof(id->pop), code, 3);
}

/* X-Edge-Location (KeyCDN) and X-77-POP (CDN77) carry names, not always
 * airport codes: keep them as sent, upper-cased only when 3 letters. */
static void pop_named(const struct header *h, size_t n, const char *name,
                      struct edge_id *id)
{
  const char *v = header_find(h, n, name);
  size_t len;

  if (!v)
    return;
  v = skip_blank(v);
  len = strcspn(v, " \t,;");
  if (!len)
    return;
  if (len == 3) {
    char code[4];

    if (upper_letters(v, code, 3) == 3)
      set_code(id->pop, sizeof(id->pop), code, 3);
    return;
  }
  if (len >= sizeof(id->pop))
    len = sizeof(id->pop) - 1;
  memcpy(id->pop, v, len);
  id->pop[len] = '\0';
}

void edge_identify(const struct header *h, size_t n, const char *const *cnames,
                   size_t n_cnames, struct edge_id *out)
{
  memset(out, 0, sizeof(*out));
  out->source = EDGE_SOURCE_NONE;
  out->vendor = edge_vendor_from_headers(h, n);
  if (out->vendor) {
    out->source = EDGE_SOURCE_HEADER;
    if (!strcmp(out->vendor, "cloudflare"))
      pop_cloudflare(h, n, out);
    else if (!strcmp(out->vendor, "cloudfront"))
      pop_cloudfront(h, n, out);
    else if (!strcmp(out->vendor, "fastly"))
      pop_fastly(h, n, out);
    else if (!strcmp(out->vendor, "vercel"))
      pop_vercel(h, n, out);
    else if (!strcmp(out->vendor, "bunny"))
      pop_bunny(h, n, out);
    else if (!strcmp(out->vendor, "azure"))
      pop_azure(h, n, out);
    else if (!strcmp(out->vendor, "keycdn"))
      pop_named(h, n, "x-edge-location", out);
    else if (!strcmp(out->vendor, "cdn77"))
      pop_named(h, n, "x-77-pop", out);
    return;
  }
  out->vendor = edge_vendor_from_cnames(cnames, n_cnames);
  if (out->vendor)
    out->source = EDGE_SOURCE_CNAME;
}

int edge_wants_trace(const struct hop *hop)
{
  const char *v = edge_vendor_from_headers(hop->headers, hop->n_headers);

  if (!v)
    v = edge_vendor_from_cnames(hop->dns.cnames, hop->dns.n_cnames);
  return v && !strcmp(v, "cloudflare");
}

/* ---- the per-hop result ---- */

void edge_result_init(struct edge_result *r)
{
  memset(r, 0, sizeof(*r));
  r->lat = r->lon = (double)NAN;
  r->distance_km = r->floor_rtt_ms = r->connect_p50_ms = (double)NAN;
  r->nearest_km = (double)NAN;
  r->source = EDGE_SOURCE_NONE;
  r->distant = -1;
}

void edge_result_release(struct edge_result *r)
{
  free(r->host);
  free(r->vendor);
  free(r->pop);
  free(r->upstream);
  free(r->city);
  free(r->country);
  free(r->distant_why);
  free(r->nearest);
  edge_result_init(r);
}

/* Where a POP code is: an airport or metro row, a Bunny country PoP, or a
 * CDN77 "cityCC" name (country centroid). */
static void place_pop(struct edge_result *r)
{
  const struct edge_pop *p = edge_pop_lookup(r->pop);
  const struct edge_country *c = NULL;
  size_t len = strlen(r->pop);

  if (p) {
    r->city = xstrdup(p->city);
    r->country = xstrdup(p->country);
    r->lat = p->lat;
    r->lon = p->lon;
    return;
  }
  if (len == 2)
    c = edge_country_lookup(r->pop);
  else if (len > 2 && r->vendor && !strcmp(r->vendor, "cdn77") &&
           isupper((unsigned char)r->pop[len - 2]) &&
           isupper((unsigned char)r->pop[len - 1]))
    c = edge_country_lookup(r->pop + len - 2);
  if (c) {
    r->country = xstrdup(c->cc);
    r->lat = c->lat;
    r->lon = c->lon;
  }
}

static void say_why(struct edge_result *r, const struct edge_client *client)
{
  struct buf b;
  int by_rtt = !isnan(r->connect_p50_ms) &&
               r->connect_p50_ms > EDGE_DISTANT_FACTOR * r->floor_rtt_ms +
                                       EDGE_DISTANT_SLACK_MS;

  buf_init(&b, 0);
  if (r->distance_km > EDGE_DISTANT_KM &&
      (!client->country[0] || !r->country ||
       strcasecmp(client->country, r->country)))
    buf_printf(&b, "edge %s (%s%s%s) is %.0f km from the client%s%s", r->pop,
               r->city ? r->city : "", r->city ? ", " : "",
               r->country ? r->country : "?", r->distance_km,
               client->country[0] ? " in " : "", client->country);
  if (by_rtt)
    buf_printf(&b, "%sconnect p50 %.1f ms is far above the %.1f ms floor",
               b.len ? "; " : "", r->connect_p50_ms, r->floor_rtt_ms);
  r->distant_why = buf_detach(&b);
}

void edge_locate(const struct hop *hop, int hop_no,
                 const struct edge_trace *trace,
                 const struct edge_client *client, double connect_p50_ms,
                 struct edge_result *out)
{
  struct edge_id id;
  struct edge_client none;

  edge_result_init(out);
  if (!client) {
    edge_client_init(&none);
    client = &none;
  }
  out->hop = hop_no;
  out->host = hop->host ? xstrdup(hop->host) : NULL;
  out->connect_p50_ms = connect_p50_ms;
  edge_identify(hop->headers, hop->n_headers, hop->dns.cnames,
                hop->dns.n_cnames, &id);
  /* Only Cloudflare answers /cdn-cgi/trace with a colo; a trace is no use
   * for a hop another CDN serves. */
  if (trace && trace->colo && !id.pop[0] &&
      (!id.vendor || !strcmp(id.vendor, "cloudflare"))) {
    id.vendor = "cloudflare";
    set_code(id.pop, sizeof(id.pop), trace->colo, strlen(trace->colo));
    id.source = EDGE_SOURCE_TRACE;
  }
  out->vendor = id.vendor ? xstrdup(id.vendor) : NULL;
  out->source = id.source;
  if (id.upstream[0])
    out->upstream = xstrdup(id.upstream);
  out->hidden = client->hidden || edge_trace_hides_client(trace);
  if (!id.pop[0])
    return;
  out->pop = xstrdup(id.pop);
  place_pop(out);
  if (isnan(out->lat) || isnan(client->lat))
    return;
  out->distance_km =
      edge_distance_km(client->lat, client->lon, out->lat, out->lon);
  out->floor_rtt_ms = edge_floor_rtt_ms(out->distance_km);
  if (out->vendor && !strcmp(out->vendor, "cloudflare")) {
    const struct edge_pop *near = edge_pop_nearest(
        EDGE_POP_CLOUDFLARE, client->lat, client->lon, client->country);

    if (near) {
      out->nearest = xstrdup(near->code);
      out->nearest_km =
          edge_distance_km(client->lat, client->lon, near->lat, near->lon);
    }
  }
  /* Behind WARP or Gateway the colo follows the egress, not the user. */
  if (out->hidden)
    return;
  out->distant =
      edge_is_distant(out->distance_km, out->floor_rtt_ms, connect_p50_ms,
                      client->country, out->country);
  if (out->distant == 1)
    say_why(out, client);
}
