/*
 * cache.h: did a CDN or proxy cache serve a hop, and if not, why not
 * (hopsplit(1) CACHE AND EDGE; the vendors' own status headers as their
 * documentation gives them: Cloudflare's CF-Cache-Status, CloudFront's
 * and Akamai's X-Cache, Fastly's X-Cache and X-Served-By, RFC 9211's
 * Cache-Status, mapped to one verdict as enum cache_verdict says).
 *
 * Analysis stage: pure functions over a hop's diagnostic response headers.
 * Input: the headers (name as received, value), whether the request carried
 * Authorization or a Cookie, and for cache_classify_hop the method and
 * status.  Output: a struct cache_result per hop with its cache layers
 * (as measured on Debian 12's packages, tests/integration/caches_*: Varnish,
 * Squid, Traffic Server, Apache, nginx and chains of them), and verdict counts
 * across samples.
 */
#ifndef HOPSPLIT_CACHE_H
#define HOPSPLIT_CACHE_H

#include <stddef.h>

#include "sample.h"
#include "verdict.h"

/* Cache-Control (or a targeted field with its syntax) as a shared cache
 * reads it.  Qualified private="..." and no-cache="..." only restrict some
 * fields, so they do not set private / no_cache. */
struct cache_control {
  int present; /* the field had at least one directive */
  int no_store, no_cache, private_, public_, must_revalidate, proxy_revalidate,
      immutable;
  long max_age, s_maxage, swr, sie; /* seconds, -1 when absent */
};

/* Parse one field value (several lines joined with ", " are fine).  value
 * may be NULL.  Never fails: unknown directives are ignored. */
void cache_control_parse(const char *value, struct cache_control *cc);

/* One member of an RFC 9211 Cache-Status list. */
struct cache_status_member {
  char *id;        /* cache identifier (string or token), owned */
  int hit;         /* hit parameter */
  char *fwd;       /* fwd token, owned, or NULL */
  long fwd_status; /* -1 absent */
  int has_ttl;
  long ttl;      /* seconds, negative = stale */
  int stored;    /* -1 absent, else 0 or 1 */
  int collapsed; /* -1 absent, else 0 or 1 */
  char *key;     /* owned, or NULL */
  char *detail;  /* owned, or NULL */
};

/* Members in field order: the first is the cache nearest the origin, the
 * last the one nearest the user. */
struct cache_status {
  struct cache_status_member *m;
  size_t n;
};

/* Parse a Cache-Status value as a Structured Fields List (RFC 8941).
 * Return 0, or -1 on a syntax error, when RFC 8941 says to ignore the
 * whole field: *out is then empty.  Release *out either way. */
int cache_status_parse(const char *value, struct cache_status *out);
void cache_status_release(struct cache_status *cs);

/* One cache a response passed through (hopsplit(1) CACHE AND EDGE layers): a
 * CDN, a Varnish, a Squid, ...  Its verdict is what that cache did with this
 * request. */
struct cache_layer {
  char *name;   /* the cache's own name: a Cache-Status identifier, a Via
                   host, the HOST of "X-Cache: HIT from HOST"; or NULL */
  char *vendor; /* lower case (see cache_result), or NULL */
  enum cache_verdict verdict;
  char *raw;      /* the evidence: "Header: value" of every signal of this
                     cache, "; "-joined */
  char **reasons; /* words, most important first */
  size_t n_reasons;
  /* The cache said nothing about what it did: the verdict is inferred
   * (RFC 9111 rules, Age, other samples), and reasons[0] says from what. */
  int inferred;
};

struct cache_result {
  char *vendor; /* lower case: cloudflare, cloudfront, fastly, akamai,
                   azure, vercel, netlify, bunny, keycdn, google, edgeone,
                   varnish, squid, trafficserver, apache, nginx, ...; NULL
                   when no vendor is seen */
  enum cache_verdict verdict;
  char *raw;      /* the vendor's raw status value, or NULL */
  char *source;   /* name of the header the verdict came from (lower case,
                     e.g. "cf-cache-status", "age", "cache-control"), or
                     NULL for UNKNOWN */
  char **reasons; /* words, most important first */
  size_t n_reasons;
  long age;     /* Age header in seconds, -1 when absent or invalid */
  int inferred; /* the verdict is inferred, not said by the cache (hopsplit(1)
                   CACHE AND EDGE); the first reason says from what */
  /* Every cache seen, nearest the user first; the hop's vendor, verdict,
   * raw value and reasons are those of layers[0].  Empty when no cache
   * signal was seen (verdict UNKNOWN). */
  struct cache_layer *layers;
  size_t n_layers;
};

/* What the request carried, for cache_classify*: the request_flags
 * argument.  1 is Authorization, so a plain 0/1 "had Authorization" still
 * works. */
enum { CACHE_REQ_AUTH = 1, CACHE_REQ_COOKIE = 2 };

/* The vendor's display name ("Varnish", "Traffic Server", "Cloudflare"),
 * or vendor itself when it is not known; "a cache" for NULL. */
const char *cache_vendor_display(const char *vendor);

void cache_result_init(struct cache_result *r);
/* Free every string *r owns and re-initialise it. */
void cache_result_release(struct cache_result *r);

/* Classify a GET response from its headers.  request_flags: CACHE_REQ_*
 * of what the request carried (Authorization, Cookie).  *out is
 * initialised here and owns everything it points to; release it with
 * cache_result_release. */
void cache_classify(const struct header *h, size_t n, int request_flags,
                    struct cache_result *out);
/* The same over a hop, also using its method and status (a POST is never
 * cached; a 302 without explicit freshness is not stored) and its CNAME
 * chain, which names the vendor when no header does. */
void cache_classify_hop(const struct hop *hop, int request_flags,
                        struct cache_result *out);

#endif
