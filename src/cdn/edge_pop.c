/*
 * edge_pop.c: the POP code of a hop, read from its vendor's own header
 * (cf-ray suffix, x-amz-cf-pop prefix, the last x-served-by entry, the
 * first x-vercel-id region, the Bunny server name, X-MSEdge-Ref, ...), else
 * from the trace's colo: struct edge_id.  Pure.
 */
#include <ctype.h>
#include <string.h>

#include "cdn_int.h"
#include "edge.h"
#include "strutil.h"
#include "banned.h"

/* ---- POP extraction, per vendor ---- */

/* cf-ray: "<ray id>-<COLO>", split at the last '-'
 * (developers.cloudflare.com/fundamentals/reference/cloudflare-ray-id). */
static void pop_cloudflare(const struct header *h, size_t n,
                           struct edge_id *id)
{
  const char *ray = header_find(h, n, "cf-ray");
  const char *dash = ray ? strrchr(ray, '-') : NULL;
  char code[4];

  if (dash && edge_upper_letters(dash + 1, code, 3) == 3 &&
      !isalnum((unsigned char)dash[4]))
    edge_set_code(id->pop, sizeof(id->pop), code, 3);
}

/* x-amz-cf-pop "ICN54-P3" (AWS's CloudFront developer guide,
 * docs.aws.amazon.com/AmazonCloudFront), else Server-Timing cdn-pop. */
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
  if (v && edge_upper_letters(cdn_skip_ows(v), code, 3) == 3 &&
      isdigit((unsigned char)cdn_skip_ows(v)[3]))
    edge_set_code(id->pop, sizeof(id->pop), code, 3);
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
  edge_set_code(out, size, s + len - 3, 3);
  return 1;
}

/* x-served-by: first entry = shield, last entry = edge
 * (fastly.com/documentation/reference/http/http-headers). */
static void pop_fastly(const struct header *h, size_t n, struct edge_id *id)
{
  const char *v = header_find(h, n, "x-served-by"), *p, *e;
  size_t entries = 0;
  char first[16] = "";

  if (!v)
    return;
  for (p = v;; p = e + 1) {
    char code[16];

    p = cdn_skip_ows(p);
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
  edge_set_code(out, size, s, 3);
  return 1;
}

/* x-vercel-id "<edge>::[<function region>::]<id>"
 * (vercel.com/docs/headers/request-headers#x-vercel-id). */
static void pop_vercel(const struct header *h, size_t n, struct edge_id *id)
{
  const char *v = header_find(h, n, "x-vercel-id"), *sep, *next;

  if (!v)
    return;
  v = cdn_skip_ows(v);
  sep = strstr(v, "::");
  if (!sep || !vercel_region(v, (size_t)(sep - v), id->pop, sizeof(id->pop)))
    return;
  next = strstr(sep + 2, "::");
  if (next)
    vercel_region(sep + 2, (size_t)(next - sep - 2), id->upstream,
                  sizeof(id->upstream));
}

/* Server "BunnyCDN-DE1-1079": a two-letter country or a three-letter city
 * code, then a digit (the Server header Bunny's edges send). */
static void pop_bunny(const struct header *h, size_t n, struct edge_id *id)
{
  const char *server = header_find(h, n, "server");
  char code[4];
  size_t len;

  if (!str_ci_prefix(server, "BunnyCDN-"))
    return;
  len = edge_upper_letters(server + strlen("BunnyCDN-"), code, 3);
  if ((len == 2 || len == 3) &&
      isdigit((unsigned char)server[strlen("BunnyCDN-") + len]))
    edge_set_code(id->pop, sizeof(id->pop), code, len);
}

/* X-MSEdge-Ref "... Ref B: HKG201051218023 ..."
 * (learn.microsoft.com/azure/frontdoor/front-door-http-headers-protocol). */
static void pop_azure(const struct header *h, size_t n, struct edge_id *id)
{
  const char *ref = str_ci_find(header_find(h, n, "x-msedge-ref"), "Ref B:");
  char code[4];

  if (ref && edge_upper_letters(cdn_skip_ows(ref + 6), code, 3) == 3)
    edge_set_code(id->pop, sizeof(id->pop), code, 3);
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
  v = cdn_skip_ows(v);
  len = strcspn(v, " \t,;");
  if (!len)
    return;
  if (len == 3) {
    char code[4];

    if (edge_upper_letters(v, code, 3) == 3)
      edge_set_code(id->pop, sizeof(id->pop), code, 3);
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
  const char *v =
      edge_vendor_from_headers(hop->info->headers, hop->info->n_headers);

  if (!v)
    v = edge_vendor_from_cnames(hop->dns->cnames, hop->dns->n_cnames);
  return v && !strcmp(v, "cloudflare");
}
