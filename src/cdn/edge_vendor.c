/*
 * edge_vendor.c: which CDN served a hop, from its response headers
 * (outermost CDN first) or else from the CNAME chain of its host.  Pure.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "cdn_int.h"
#include "edge.h"
#include "strutil.h"
#include "banned.h"

/* ---- vendor detection ---- */

const char *edge_vendor_from_headers(const struct header *h, size_t n)
{
  const char *server = header_find(h, n, "server");
  const char *via = header_find(h, n, "via");
  const char *xc = header_find(h, n, "x-cache");

  /* Outermost first: a CDN in front of another shows its own markers on
   * top of the inner one's. */
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

/* CNAME suffixes that name a CDN, as each vendor documents the host
 * names its customers point at.  A leading '.' matches on a label boundary;
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
