/*
 * cache_int.h: what the cache files of src/cdn share (private to the
 * stage): the context of one response, the reasons and status words of
 * cache_reasons.c, and the layers of cache_layers.c.
 */
#ifndef HOPSPLIT_CACHE_INT_H
#define HOPSPLIT_CACHE_INT_H

#include <stddef.h>

#include "buf.h"
#include "cache.h"
#include "msg.h"
#include "sample.h"

#define MAX_NOTES 4

/* One response as the classifiers read it. */
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

/* Parse the fields of the headers h[0..n) that decide caching; flags are
 * CACHE_REQ_*.  Release with cache_ctx_release. */
void cache_ctx_init(struct ctx *c, const struct header *h, size_t n,
                    const char *method, long status, int flags);
void cache_ctx_release(struct ctx *c);
/* Add a reason to r unless it is there already. */
void cache_add_reason(struct cache_result *r, const char *fmt, ...)
    MSG_PRINTF(2, 3);
/* A vendor-specific reason, added to the result at the end. */
void cache_note(struct ctx *c, const char *fmt, ...) MSG_PRINTF(2, 3);
/* The first word of s (up to blank or comma), copied into out. */
void cache_first_word(const char *s, char *out, size_t size);
/* A status word (HIT, MISS, EXPIRED, ...) as a verdict;
 * CACHE_VERDICT_COUNT when it is none. */
enum cache_verdict cache_word_verdict(const char *w);
/* Which field vendor's cache obeys instead of Cache-Control (RFC 9213). */
void cache_pick_effective(struct ctx *c, const char *vendor);
/* Why the response was not (or could not be) served from cache. */
void cache_origin_reasons(struct ctx *c, struct cache_result *r);

/* Kinds of signal, one of each per cache. */
enum {
  LAY_VIA = 1u << 0,
  LAY_CS = 1u << 1,
  LAY_XCACHE = 1u << 2,
  LAY_LOOKUP = 1u << 3,
  LAY_DETAIL = 1u << 4,
  LAY_XVARNISH = 1u << 5,
  LAY_STATUS = 1u << 6, /* X-Cache-Status and the like */
  LAY_SERVER = 1u << 7,
};

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
  unsigned kinds;     /* LAY_* signals seen: a second one is another cache */
  int from_xcache;    /* named by "X-Cache: WORD from HOST" */
  const char *source; /* static: header of the strongest status signal */
  char *status_raw;   /* owned: its value */
  int rank;           /* its strength */
  int inferred;       /* its verdict is inferred (lay_decide) */
  struct buf ev;      /* the evidence */
  char *notes[MAX_LAYER_NOTES];
  size_t n_notes;
};

struct layers {
  struct lay l[MAX_LAYERS];
  size_t n;
  int cs_unparsable;
  /* The CDN whose own status header gave the verdict (or NULL), and the
   * Cache-Status members it sent besides: one vendor is one layer. */
  const char *cdn;
  struct buf cdn_ev;
};

/* Collect every proxy-cache signal of the response into L.  cdn: the
 * vendor of a CDN whose own headers gave the verdict (its Via entry and,
 * when cdn_xcache, its X-Cache are not another layer), or NULL. */
void cache_layers_collect(struct layers *L, struct ctx *c, const char *cdn,
                          int cdn_xcache);
/* Order the layers, decide each and give out their list; the hop's
 * verdict is the nearest layer's.  0 when L has no layer. */
int cache_layers_classify(struct ctx *c, struct layers *L,
                          struct cache_result *out);
void cache_layers_release(struct layers *L);
/* A layer that mirrors r (a CDN, or no named cache); raw is copied. */
void cache_layer_from_result(struct cache_layer *cl,
                             const struct cache_result *r, const char *raw);

/* The least Age that shows, alone, a stored copy when no cache says what
 * it did.  Age is whole seconds (RFC 9111 4.2.3): the apparent age
 * (response_time - date_value) plus the response delay (response_time -
 * request_time), each rounded down from a clock of whole seconds, so a
 * cache that fetched the response just now says Age: 1, or Age: 2, when
 * the fetch crossed a second (stock Traffic Server 9.2 sends Age on every
 * response it passes, stored or not: 1 fetch in 400 of a no-store response
 * said Age: 2 here).  So 2 alone proves nothing; the samples around it can
 * (analysis_cdn.c: the same Date a second later). */
#define CACHE_AGE_HIT_MIN 3

#endif
