/*
 * sample.c: life cycle of the plain sample records the probe fills and every
 * later stage reads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "buf.h"
#include "msg.h"
#include "sample.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

const char *const sample_mode_names[MODE_COUNT] = {"cold", "warm", "resumed"};
const char *const phase_names[PHASE_COUNT] = {
    "dns", "connect", "tls", "send", "wait", "transfer", "total"};
const char *const err_class_names[ERR_COUNT] = {
    "none", "dns",      "connect",     "tls",    "timeout",
    "http", "redirect", "http-status", "upload", "quic"};

enum sample_mode sample_mode_from_name(const char *name)
{
  int i;

  for (i = 0; i < MODE_COUNT; i++)
    if (!strcmp(name, sample_mode_names[i]))
      return (enum sample_mode)i;
  return MODE_COUNT;
}

enum err_class err_class_from_name(const char *name)
{
  int i;

  for (i = 0; i < ERR_COUNT; i++)
    if (!strcmp(name, err_class_names[i]))
      return (enum err_class)i;
  return ERR_COUNT;
}

void sample_init(struct sample *s)
{
  memset(s, 0, sizeof(*s));
  s->ok = 1;
  s->err = ERR_NONE;
  s->idle_us = -1;
  s->late_us = -1;
  s->own_us = -1;
  s->runq_us = -1;
  s->lock_us = -1;
  s->output_us = -1;
  s->output_bytes = -1;
}

static const struct sample_rare sample_rare_none;

const struct sample_rare *sample_rare(const struct sample *s)
{
  return s->rare ? s->rare : &sample_rare_none;
}

/* s's rare facts into *v to be changed (with the padding's zero bytes:
 * the pool compares the bytes), and back as the pool's copy. */
static void rare_get(const struct sample *s, struct sample_rare *v)
{
  memcpy(v, sample_rare(s), sizeof(*v));
}

static void rare_put(struct sample *s, const struct sample_rare *v)
{
  s->rare = memcmp(v, &sample_rare_none, sizeof(*v))
                ? strpool_intern_blob(v, sizeof(*v))
                : NULL;
}

void sample_set_err_message(struct sample *s, const char *msg)
{
  struct sample_rare v;

  rare_get(s, &v);
  v.err_message = msg;
  rare_put(s, &v);
}

void sample_set_primed(struct sample *s, const char *const *v, uint32_t n)
{
  struct sample_rare r;

  rare_get(s, &r);
  r.primed = n ? v : NULL;
  r.n_primed = n;
  rare_put(s, &r);
}

void sample_set_prime_error(struct sample *s, const char *msg)
{
  struct sample_rare v;

  rare_get(s, &v);
  v.prime_error = msg;
  rare_put(s, &v);
}

void sample_release(struct sample *s)
{
  size_t i;

  for (i = 0; i < s->n_hops; i++)
    hop_release(&s->hops[i]);
  if (!s->hops_pooled)
    free(s->hops);
  sample_init(s);
}

static void hop_tcp_init(struct hop_tcp *t)
{
  memset(t, 0, sizeof(*t));
  t->min_rtt_us = t->rtt_us = t->rttvar_us = t->rcv_rtt_us = -1;
  t->retransmits = t->rcv_ooopack = -1;
  t->bytes_in = t->bytes_out = t->segs_in = t->segs_out = -1;
  t->flow = &hop_flow_none;
}

const struct hop_tls hop_tls_none = {.resumed = -1, .offered = -1};
const struct hop_dns hop_dns_none = {.ttl = -1};
const struct hop_flow hop_flow_none = {.delivery_rate = -1,
                                       .busy_us = -1,
                                       .rwnd_limited_us = -1,
                                       .sndbuf_limited_us = -1,
                                       .last_round_rate = -1};
const struct hop_info hop_info_none = {.alt_svc_ma = -1,
                                       .content_length = -1,
                                       .size_request = -1,
                                       .size_upload = -1,
                                       .earlydata = -1,
                                       .num_certs = -1};

/* cur itself when it is the hop's own copy, else a new copy of none
 * (never on a pooled hop: what names the caller). */
static void *own_copy(const struct hop *h, const void *cur, const void *none,
                      size_t size, const char *what)
{
  void *c;

  if (h->pooled)
    BUG("%s on a pooled hop", what);
  if (cur != none)
    return (void *)(uintptr_t)cur;
  c = xmalloc(size);
  memcpy(c, none, size);
  return c;
}

struct hop_tls *hop_tls_edit(struct hop *h)
{
  struct hop_tls *t =
      own_copy(h, h->tls, &hop_tls_none, sizeof(*t), "hop_tls_edit");

  h->tls = t;
  return t;
}

struct hop_dns *hop_dns_edit(struct hop *h)
{
  struct hop_dns *d =
      own_copy(h, h->dns, &hop_dns_none, sizeof(*d), "hop_dns_edit");

  h->dns = d;
  return d;
}

struct hop_info *hop_info_edit(struct hop *h)
{
  struct hop_info *f =
      own_copy(h, h->info, &hop_info_none, sizeof(*f), "hop_info_edit");

  h->info = f;
  return f;
}

struct hop_flow *hop_flow_edit(struct hop *h)
{
  struct hop_flow *w =
      own_copy(h, h->tcp.flow, &hop_flow_none, sizeof(*w), "hop_flow_edit");

  h->tcp.flow = w;
  return w;
}

void hop_init(struct hop *h)
{
  memset(h, 0, sizeof(*h));
  h->info = &hop_info_none;
  h->tls = &hop_tls_none;
  h->dns = &hop_dns_none;
  h->curl.namelookup = -1;
  h->curl.connect = -1;
  h->curl.appconnect = -1;
  h->curl.pretransfer = -1;
  h->curl.posttransfer = -1;
  h->curl.final_response = -1;
  h->curl.queue = -1;
  h->conn_id = -1;
  h->xfer_id = -1;
  h->curl.starttransfer = -1;
  h->curl.total = -1;
  hop_tcp_init(&h->tcp);
}

/* The strings are pooled: only the arrays belong to the hop. */
void hop_release(struct hop *h)
{
  if (!h->pooled) {
    if (h->dns != &hop_dns_none) {
      free(h->dns->addresses);
      free(h->dns->cnames);
      free((void *)(uintptr_t)h->dns->failed);
      free((void *)(uintptr_t)h->dns);
    }
    if (h->info != &hop_info_none) {
      free((void *)(uintptr_t)h->info->fallback);
      free(h->info->headers);
      free((void *)(uintptr_t)h->info);
    }
    if (h->tcp.flow != &hop_flow_none) {
      free((void *)(uintptr_t)h->tcp.flow->rounds);
      free((void *)(uintptr_t)h->tcp.flow);
    }
    if (h->tls != &hop_tls_none)
      free((void *)(uintptr_t)h->tls);
  }
  hop_init(h);
}

/* Replace a heap array by its pooled copy. */
static void *pool_array(void *a, size_t n, size_t size)
{
  const void *pooled = n ? strpool_intern_blob(a, n * size) : NULL;

  free(a);
  /* The pool hands out const memory; the hop keeps it as read-only from
   * here on (hop->pooled), as the header says. */
  return (void *)(uintptr_t)pooled;
}

void hop_pool_arrays(struct hop *h)
{
  if (h->pooled)
    return;
  if (h->info != &hop_info_none) {
    struct hop_info *f = hop_info_edit(h);

    f->headers = pool_array(f->headers, f->n_headers, sizeof(*f->headers));
    f->fallback = pool_array((void *)(uintptr_t)f->fallback,
                             f->fallback ? 1 : 0, sizeof(*f->fallback));
    h->info = pool_array(f, 1, sizeof(*f));
  }
  if (h->dns != &hop_dns_none) {
    struct hop_dns *d = hop_dns_edit(h);

    d->addresses = pool_array((void *)d->addresses, d->n_addresses,
                              sizeof(*d->addresses));
    d->cnames = pool_array((void *)d->cnames, d->n_cnames, sizeof(*d->cnames));
    d->failed = pool_array((void *)(uintptr_t)d->failed, d->n_failed,
                           sizeof(*d->failed));
    h->dns = pool_array(d, 1, sizeof(*d));
  }
  if (h->tcp.flow != &hop_flow_none) {
    struct hop_flow *w = hop_flow_edit(h);

    w->rounds =
        pool_array((void *)(uintptr_t)w->rounds,
                   w->rounds ? hop_rounds_kept(h) : 0, sizeof(*w->rounds));
    h->tcp.flow = pool_array(w, 1, sizeof(*w));
  }
  if (h->tls != &hop_tls_none)
    h->tls = pool_array((void *)(uintptr_t)h->tls, 1, sizeof(*h->tls));
  h->pooled = 1;
}

struct hop *sample_add_hop(struct sample *s)
{
  struct hop *h;

  s->hops = xrealloc(s->hops, (s->n_hops + 1) * sizeof(*s->hops));
  h = &s->hops[s->n_hops++];
  hop_init(h);
  return h;
}

void hop_set_rounds(struct hop *h, const struct hop_round *v, size_t n,
                    uint32_t total)
{
  struct hop_round *copy = NULL;
  struct hop_flow *w;

  if (h->pooled)
    BUG("hop_set_rounds on a pooled hop");
  if (n > HOP_ROUNDS_MAX)
    n = HOP_ROUNDS_MAX;
  if (n) {
    copy = xmalloc(n * sizeof(*copy));
    memcpy(copy, v, n * sizeof(*copy));
  }
  w = hop_flow_edit(h);
  free((void *)(uintptr_t)w->rounds);
  w->rounds = copy;
  w->n_kept = (uint8_t)n;
  w->n_rounds = total > n ? total : (uint32_t)n;
}

/* The entries stored, never more: a saved document's "rounds" may say more
 * than its round_list holds (or be set after it). */
size_t hop_rounds_kept(const struct hop *h)
{
  const struct hop_flow *w = h->tcp.flow;
  size_t n;

  if (!w->rounds)
    return 0;
  n = w->n_rounds < HOP_ROUNDS_MAX ? w->n_rounds : HOP_ROUNDS_MAX;
  return n < w->n_kept ? n : w->n_kept;
}

int64_t hop_server_us(const struct hop *h)
{
  int64_t v;

  if (!h->tcp_valid || h->tcp.min_rtt_us <= 0 || h->info->status <= 0)
    return -1;
  v = h->phases[PHASE_WAIT] - h->tcp.min_rtt_us;
  return v > 0 ? v : 0;
}

void hop_set_fallback(struct hop *h, const struct hop_fallback *fb)
{
  struct hop_fallback *copy = NULL;

  if (h->pooled)
    BUG("hop_set_fallback on a pooled hop");
  if (fb) {
    copy = xmalloc(sizeof(*copy));
    *copy = *fb;
  }
  {
    struct hop_info *f = hop_info_edit(h);

    free((void *)(uintptr_t)f->fallback);
    f->fallback = copy;
  }
}

void hop_add_dns_failure(struct hop *h, const char *server, const char *rcode,
                         int64_t us, const char *query)
{
  struct dns_failure *v;
  struct hop_dns *d;

  if (h->pooled)
    BUG("hop_add_dns_failure on a pooled hop");
  d = hop_dns_edit(h);
  if (d->n_failed >= DNS_FAILURES_MAX)
    return;
  v = xrealloc((void *)(uintptr_t)d->failed, (d->n_failed + 1) * sizeof(*v));
  v[d->n_failed].server = strpool_intern(server);
  v[d->n_failed].rcode = strpool_intern(rcode);
  v[d->n_failed].us = us;
  v[d->n_failed].query = query ? strpool_intern(query) : NULL;
  d->failed = v;
  d->n_failed++;
}

void hop_add_header(struct hop *h, const char *name, const char *value)
{
  struct hop_info *f = hop_info_edit(h);

  f->headers = xrealloc(f->headers, (f->n_headers + 1) * sizeof(*f->headers));
  f->headers[f->n_headers].name = strpool_intern(name);
  f->headers[f->n_headers].value = strpool_intern(value);
  f->n_headers++;
}

void hop_set_headers(struct hop *h, const struct header *v, size_t n)
{
  struct hop_info *f;

  if (h->pooled)
    BUG("hop_set_headers on a pooled hop");
  f = hop_info_edit(h);
  free(f->headers);
  f->headers = NULL;
  f->n_headers = 0;
  if (!n)
    return;
  f->headers = xmalloc(n * sizeof(*f->headers));
  memcpy(f->headers, v, n * sizeof(*f->headers));
  f->n_headers = (uint32_t)n;
}

void hop_strv_push(const char ***v, uint32_t *n, const char *s)
{
  *v = xrealloc(*v, (*n + 1) * sizeof(**v));
  (*v)[(*n)++] = strpool_intern(s);
}

const char *header_find(const struct header *h, size_t n, const char *name)
{
  size_t i;

  /* The first letters compared first (a name's case folded by | 0x20,
   * which keeps equal names equal): the cache's vendor checks look up
   * some 130 names a hop. */
  for (i = 0; i < n; i++)
    if ((h[i].name[0] | 0x20) == (name[0] | 0x20) &&
        !strcasecmp(h[i].name, name))
      return h[i].value ? h[i].value : "";
  return NULL;
}

char *header_join(const struct header *h, size_t n, const char *name)
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

const char *hop_header(const struct hop *h, const char *name)
{
  size_t i;

  for (i = 0; i < h->info->n_headers; i++)
    if (!strcasecmp(h->info->headers[i].name, name))
      return h->info->headers[i].value;
  return NULL;
}

/* Response headers that say something about caching, the CDN edge or server
 * timing (hopsplit(1) CACHE AND EDGE).  Everything else is counted, not kept.
 */
static const char *const diagnostic_headers[] = {
    "age",
    "akamai-cache-status",
    "akamai-grn",
    "alt-svc",
    "cache-control",
    "cache-status",
    "cdn-cache",
    "cdn-cache-control",
    "cdn-cache-status",
    "cdn-cachedat",
    "cdn-edgestorageid",
    "cdn-loop",
    "cdn-proxyver",
    "cdn-pullzone",
    "cdn-requestcountrycode",
    "cdn-requestid",
    "cdn-requestpullcode",
    "cdn-requestpullsuccess",
    "cdn-status",
    "cdn-uid",
    "cf-cache-status",
    "cf-ray",
    "cloudflare-cdn-cache-control",
    "content-encoding",
    "content-length",
    "content-type",
    "date",
    "eo-cache-status",
    "etag",
    "expires",
    "fastly-debug-digest",
    "fastly-debug-path",
    "last-modified",
    "location",
    "netlify-cdn-cache-control",
    "pragma",
    "server",
    "server-timing",
    "set-cookie",
    "surrogate-control",
    "surrogate-key",
    "vary",
    "vercel-cdn-cache-control",
    "via",
    "x-77-pop",
    "x-akamai-cache-status",
    "x-akamai-request-id",
    "x-akamai-transformed",
    "x-amz-cf-id",
    "x-amz-cf-pop",
    "x-azure-ref",
    "x-cache",
    "x-cache-detail",
    "x-cache-hits",
    "x-cache-info",
    "x-cache-key",
    "x-cache-lookup",
    "x-cache-remote",
    "x-cache-status",
    "x-cdn",
    "x-cdn-cache",
    "x-cdn-pop",
    "x-check-cacheable",
    "x-edge-cache-status",
    "x-edge-ip",
    "x-edge-location",
    "x-fastly-request-id",
    "x-goog-generation",
    "x-guploader-uploadid",
    "x-hw",
    "x-ms-ref",
    "x-msedge-ref",
    "x-nf-request-id",
    "x-proxy-cache",
    "x-served-by",
    "x-served-by-region",
    "x-timer",
    "x-varnish",
    "x-vercel-cache",
    "x-vercel-id",
};

static int cmp_name(const void *key, const void *elem)
{
  return strcasecmp((const char *)key, *(const char *const *)elem);
}

size_t sample_preferred_address(const char *const *addrs, size_t n, int prefer)
{
  size_t i;

  for (i = 0; i < n; i++)
    if ((strchr(addrs[i], ':') != NULL) == (prefer == 6))
      return i;
  return n ? n - 1 : 0;
}

int sample_header_is_diagnostic(const char *name)
{
  return bsearch(name, diagnostic_headers, ARRAY_SIZE(diagnostic_headers),
                 sizeof(diagnostic_headers[0]), cmp_name) != NULL;
}

void sample_close_accounts(struct sample *s)
{
  int64_t sum = 0;
  size_t i;

  s->redirect_us = 0;
  for (i = 0; i < s->n_hops; i++) {
    sum += s->hops[i].phases[PHASE_TOTAL];
    if (i + 1 < s->n_hops)
      s->redirect_us += s->hops[i].phases[PHASE_TOTAL];
  }
  /* The sample total is our own wall clock; hop phases come from libcurl
   * and c-ares inside it.  Should rounding ever make them exceed it, the
   * total grows so that the books still close with other >= 0. */
  if (sum > s->total_us)
    s->total_us = sum;
  s->other_us = s->total_us - sum;
}

const char *const sum_phase_names[SUM_COUNT] = {
    "dns",      "connect",  "tls",   "send", "wait",
    "transfer", "redirect", "other", "total"};

int64_t sample_phase_sum(const struct sample *s, enum sum_phase ph)
{
  int64_t v = 0;
  size_t i;

  switch (ph) {
  case SUM_REDIRECT:
    return s->redirect_us;
  case SUM_OTHER:
    return s->other_us;
  case SUM_TOTAL:
    return s->total_us;
  case SUM_COUNT:
    return 0;
  default:
    for (i = 0; i < s->n_hops; i++)
      v += s->hops[i].phases[(int)ph];
    return v;
  }
}

int sample_counted(const struct sample *s, int keep_interfered)
{
  return s->ok && !s->control && (keep_interfered || !s->interfered);
}

const char *const interference_part_names[IP_COUNT] = {"late", "own", "runq",
                                                       "lock", "output"};
const char *const interference_part_says[IP_COUNT] = {
    "the loop busy with other work", "hopsplit's own work in its callbacks",
    "waiting for a CPU", "waiting for hopsplit's own locks", "writing output"};

int64_t sample_interference_part(const struct sample *s,
                                 enum interference_part p)
{
  switch (p) {
  case IP_LATE:
    return s->late_us;
  case IP_OWN:
    return s->own_us;
  case IP_RUNQ:
    return s->runq_us;
  case IP_LOCK:
    return s->lock_us;
  case IP_OUTPUT:
    return s->output_us;
  case IP_COUNT:
    break;
  }
  return -1;
}

int64_t sample_interference_sum(int64_t late_us, int64_t own_us,
                                int64_t lock_us, int64_t output_us)
{
  int64_t parts[4], sum = 0;
  size_t i;

  parts[0] = late_us;
  parts[1] = own_us;
  parts[2] = lock_us;
  parts[3] = output_us;
  for (i = 0; i < 4; i++)
    if (parts[i] > 0)
      sum += parts[i];
  return sum;
}

int sample_cpu_waited(const struct sample *s)
{
  return s->runq_us >= 0 && sample_is_interfered(s->runq_us, s->total_us);
}

int sample_is_interfered(int64_t interference_us, int64_t total_us)
{
  return interference_us > SAMPLE_INTERFERENCE_MAX_US &&
         interference_us * 100 >
             (total_us > 0 ? total_us : 0) * SAMPLE_INTERFERENCE_MAX_PCT;
}

/* One Alt-Svc entry from *p up to its comma (quoted commas aside):
 * protocol id into proto (protolen bytes), port and ma; *p moves past it.
 * 0, or -1 when it cannot be read. */
static int alt_svc_entry(const char **p, char *proto, size_t protolen,
                         int *port, int64_t *ma)
{
  const char *s = *p;
  size_t n = 0;

  *port = 0;
  *ma = -1;
  while (*s == ' ' || *s == '\t' || *s == ',')
    s++;
  if (!*s)
    return -1;
  while (*s && *s != '=' && *s != ',' && *s != ';' && *s != ' ') {
    if (n + 1 < protolen)
      proto[n++] = *s;
    s++;
  }
  proto[n] = '\0';
  if (!strcmp(proto, "clear")) {
    *p = s;
    return 0;
  }
  if (*s != '=' || s[1] != '"')
    goto skip;
  s += 2;
  {
    const char *colon = NULL;

    while (*s && *s != '"') {
      if (*s == ':')
        colon = s;
      s++;
    }
    if (*s != '"' || !colon)
      goto skip;
    {
      long v = strtol(colon + 1, NULL, 10);

      *port = v > 0 && v <= 65535 ? (int)v : 0;
    }
    s++;
  }
  /* Parameters: ; ma=N ; persist=1 */
  while (*s && *s != ',') {
    while (*s == ';' || *s == ' ' || *s == '\t')
      s++;
    if (!strncasecmp(s, "ma=", 3)) {
      char *end;
      long long v = strtoll(s + 3, &end, 10);

      if (end != s + 3 && v >= 0)
        *ma = (int64_t)v;
      s = end;
    }
    while (*s && *s != ';' && *s != ',')
      s++;
  }
  *p = s;
  return n ? 0 : -1;
skip:
  while (*s && *s != ',')
    s++;
  *p = s;
  return -1;
}

void hop_set_alt_svc(struct hop *h, const char *value)
{
  const char *p = value;
  char proto[32], best[32] = "";
  int port, best_port = 0, n;
  int64_t ma, best_ma = -1;

  if (!value)
    return;
  /* Bounded: each entry moves p forward by at least one byte. */
  for (n = 0; *p && n < 64; n++) {
    const char *before = p;

    if (alt_svc_entry(&p, proto, sizeof(proto), &port, &ma) == 0 &&
        (!best[0] || (!strcmp(proto, "h3") && strcmp(best, "h3")))) {
      snprintf(best, sizeof(best), "%s", proto);
      best_port = port;
      best_ma = ma;
    }
    if (p == before)
      p++;
  }
  if (!best[0])
    return;
  {
    struct hop_info *f = hop_info_edit(h);

    f->alt_svc = strpool_intern(best);
    f->alt_svc_port = (uint16_t)best_port;
    f->alt_svc_ma = best_ma;
  }
}
