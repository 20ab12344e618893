/*
 * probe_hops.c: one hop of a sample.  Input: a client, the options and the
 * hop's URL and method.  Output: struct hop filled from c-ares and from
 * libcurl's CURLINFO values and callbacks, copied into plain fields before
 * the function returns.  Redirects are not followed here: probe.c walks
 * them hop by hop.
 */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <sys/socket.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "curl_api_int.h"
#include "probe.h"
#include "probe_int.h"
#include "strpool.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* Response headers larger than this fail the hop (class http): a hostile
 * peer cannot make the probe keep megabytes. */
#define HEADER_CAP (256 * 1024)
/* Diagnostic header values longer than this are cut. */
#define HEADER_VALUE_CAP 4096
#define HEADER_COUNT_CAP 128
/* The room a client keeps for a response's header lines (most fit). */
#define HEADER_ROOM (8 * 1024)

struct hop_ctx {
  const struct curl_api *api; /* the library easy belongs to */
  CURL *easy;
  struct hop *hop;
  /* Diagnostic headers of the response so far; the hop gets an exact copy
   * when the transfer is over. */
  struct header *hdrs;
  size_t n_hdrs, cap_hdrs;
  size_t header_bytes;
  int too_large;
  int tls_read;
  struct tls_grab *grab; /* the request's (hop_request.grab), or NULL */
  /* -i, -D, -v (options_heads): the header blocks as sent and received,
   * for hop->head_out and hop->head_in; the response is bounded by
   * HEADER_CAP, the request by libcurl (it sends what -H gives). */
  int heads;
  struct buf head_out, head_in;
  int interim; /* a 1xx response came */
  /* Of the response under way, read inside the transfer (body_limited):
   * its status from the status line, and whether it has a Location. */
  int status_now, location_now;
  int64_t start_us;     /* probe_now_us when the transfer began */
  int64_t final_us;     /* the final status line after a 1xx, from start_us */
  struct body_src body; /* a body streamed from a file, fd -1 if none */
  struct body_scan *scan; /* options.body_regexps' search, or NULL */
  int64_t body_limit;     /* options.body_limit, 0 for none */
  int follows;            /* the client follows redirects */
  struct tcp_watch tcp;   /* the kernel's view of the connection */
  struct client *client;
};

/* One hop under way on a client: what it asks, where it writes, and the
 * request's lists, kept until the transfer ends. */
struct hop_job {
  struct client *c;
  const struct options *o;
  struct hop_request rq;
  struct hop *h;
  char *err;
  size_t errlen;
  probe_hop_done_fn done;
  void *ud;
  struct url u;
  struct curl_slist *hdrs, *resolve;
  /* hop_route: the URL libcurl gets when it is not rq.url (curl_free),
   * CURLOPT_CONNECT_TO and CURLOPT_PROXYHEADER. */
  char *curl_url;
  struct curl_slist *connect_to, *proxy_hdrs;
  struct hop_ctx x;
  char errbuf[CURL_ERROR_SIZE];
  struct dns_answer fresh;
  enum err_class cls;
  struct engine_task task;
};

static void on_lookup(void *ud, enum dns_status st);

const struct dns_answer *dns_cache_find(const struct dns_cache *c,
                                        const char *host)
{
  size_t i;

  for (i = 0; i < c->n; i++)
    if (!strcasecmp(c->answers[i].host, host))
      return &c->answers[i];
  return NULL;
}

void dns_cache_add(struct dns_cache *c, struct dns_answer *a)
{
  c->answers = xrealloc(c->answers, (c->n + 1) * sizeof(*c->answers));
  c->answers[c->n++] = *a;
  memset(a, 0, sizeof(*a));
}

void dns_cache_release(struct dns_cache *c)
{
  size_t i;

  for (i = 0; i < c->n; i++)
    dns_answer_release(&c->answers[i]);
  free(c->answers);
  c->answers = NULL;
  c->n = 0;
}

static void read_tls(struct hop_ctx *x)
{
  struct curl_tlssessioninfo *info = NULL;

  if (x->tls_read)
    return;
  if (x->api->easy_getinfo(x->easy, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK ||
      !info || !info->internals)
    return;
  if (info->backend == CURLSSLBACKEND_GNUTLS && x->api != &curl_api_linked) {
    /* The HTTP/3 library's connections, TCP or QUIC. */
    struct curl_api_tls t;
    struct hop_tls *o = hop_tls_edit(x->hop);

    if (curl_api_gnutls_read(info->internals, &t) < 0)
      return;
    if (t.version[0] && !o->version)
      o->version = strpool_intern(t.version);
    if (t.cipher[0] && !o->cipher)
      o->cipher = strpool_intern(t.cipher);
    if (t.alpn[0] && !o->alpn)
      o->alpn = strpool_intern(t.alpn);
    o->resumed = (int8_t)t.resumed;
    x->tls_read = 1;
    return;
  }
  if (info->backend != CURLSSLBACKEND_OPENSSL)
    return;
  /* The SSL* is only valid while the transfer runs: its cheap facts now,
   * its certificates held for after the sample's total. */
  probe_tls_read(info->internals, hop_tls_edit(x->hop), x->grab);
  x->tls_read = 1;
}

static void trim(const char **s, size_t *len)
{
  while (*len && (**s == ' ' || **s == '\t')) {
    (*s)++;
    (*len)--;
  }
  while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t' ||
                  (*s)[*len - 1] == '\r' || (*s)[*len - 1] == '\n'))
    (*len)--;
}

static void clear_headers(struct hop_ctx *x)
{
  x->n_hdrs = 0;
  hop_info_edit(x->hop)->location = NULL;
}

static size_t header_line(struct hop_ctx *x, char *data, size_t len);

/* hopsplit's own work inside libcurl's callbacks is charged to the
 * sample (engine_own_begin/_end: its interference's own_us). */
static size_t on_header(char *data, size_t size, size_t nmemb, void *ud)
{
  int64_t t0 = engine_own_begin();
  size_t rc = header_line(ud, data, size * nmemb);

  engine_own_end(t0);
  return rc;
}

/*
 * A response header line, inside the transfer (hopsplit(1) INTERFERENCE,
 * own work): what must be stamped or decided now (the first byte, the
 * size cap, the final response after a 1xx, the TLS facts while the
 * SSL* lives), and the line kept raw in the client's buffer, whose room
 * stays from hop to hop.  Its name and value are read, matched and
 * stored after the hop's last byte (headers_read): interning them and
 * matching the diagnostic names was 7,900 of the 11,700 instructions a
 * hop spent here (tests/bench/README.md).
 */
static size_t header_line(struct hop_ctx *x, char *data, size_t len)
{
  if (!x->tcp.first_byte_us)
    probe_tcp_first_byte(&x->tcp, probe_now_us());
  x->header_bytes += len;
  if (x->header_bytes > HEADER_CAP) {
    x->too_large = 1;
    return 0; /* aborts the transfer with CURLE_WRITE_ERROR */
  }
  read_tls(x);
  if (x->heads)
    buf_add(&x->head_in, data, len);
  if (len >= 5 && !memcmp(data, "HTTP/", 5)) {
    /* A new response (after a 1xx): only the final one counts. */
    const char *sp = memchr(data, ' ', len);

    if (sp && (size_t)(sp - data) + 1 < len && sp[1] == '1')
      x->interim = 1;
    else if (x->interim && !x->final_us)
      x->final_us = probe_now_us() - x->start_us;
    x->status_now = 0;
    x->location_now = 0;
    if (sp && (size_t)(sp - data) + 3 < len && sp[1] >= '0' && sp[1] <= '9' &&
        sp[2] >= '0' && sp[2] <= '9' && sp[3] >= '0' && sp[3] <= '9')
      x->status_now = (sp[1] - '0') * 100 + (sp[2] - '0') * 10 + (sp[3] - '0');
  }
  else if (len > 9 && (data[0] | 0x20) == 'l' &&
           !strncasecmp(data, "location:", 9)) {
    x->location_now = 1;
  }
  buf_add(&x->client->hdr_raw, data, len);
  return len;
}

/* One line of headers_read. */
static void header_read(struct hop_ctx *x, const char *data, size_t len)
{
  size_t nlen, vlen;
  const char *colon, *name = data, *value;
  char n[65];

  if (len >= 5 && !memcmp(data, "HTTP/", 5)) {
    clear_headers(x); /* a new response: only the final one counts */
    return;
  }
  colon = memchr(data, ':', len);
  if (!colon || colon == data)
    return;
  nlen = (size_t)(colon - data);
  trim(&name, &nlen);
  value = colon + 1;
  vlen = len - (size_t)(value - data);
  trim(&value, &vlen);
  if (!nlen || nlen > 64)
    return;
  memcpy(n, name, nlen);
  n[nlen] = '\0';
  if (!strcasecmp(n, "location") && !x->hop->info->location)
    hop_info_edit(x->hop)->location =
        strpool_intern_n(value, vlen > 16384 ? 16384 : vlen);
  if (sample_header_is_diagnostic(n) && x->n_hdrs < HEADER_COUNT_CAP) {
    x->hdrs = xgrow(x->hdrs, &x->cap_hdrs, x->n_hdrs + 1, sizeof(*x->hdrs));
    x->hdrs[x->n_hdrs].name = strpool_intern(n);
    x->hdrs[x->n_hdrs].value = strpool_intern_n(
        value, vlen > HEADER_VALUE_CAP ? HEADER_VALUE_CAP : vlen);
    /* The offer of another protocol (h3) and where, read once. */
    if (!strcasecmp(n, "alt-svc") && !x->hop->info->alt_svc)
      hop_set_alt_svc(x->hop, x->hdrs[x->n_hdrs].value);
    x->n_hdrs++;
  }
}

/* The hop's header lines kept by header_line, read after its last byte
 * (once: the buffer is emptied). */
static void headers_read(struct hop_ctx *x)
{
  struct buf *b;
  const char *p, *end;

  if (!x->client)
    return;
  b = &x->client->hdr_raw;
  for (p = b->s, end = b->s + b->len; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

    header_read(x, p, len);
    p += len;
  }
  buf_reset(b);
  /* A response with very large headers (up to HEADER_CAP) does not keep
   * its room for the client's next hops. */
  if (b->alloc > 4 * HEADER_ROOM)
    buf_release(b);
}

/* The request header block as libcurl sends it (curl -v shows the same
 * bytes after "> "); a request sent again on a new connection replaces
 * the first one. */
static int on_debug(CURL *e, curl_infotype type, char *data, size_t size,
                    void *ud)
{
  struct hop_ctx *x = ud;

  (void)e;
  if (type == CURLINFO_HEADER_OUT) {
    buf_reset(&x->head_out);
    buf_add(&x->head_out, data, size);
  }
  return 0;
}

#if LIBCURL_VERSION_NUM >= 0x075000
/* The connection is ready and the request is about to go: the kernel's
 * view of it before the request (probe_tcp.c), on the client's socket of
 * that local port (libcurl's active socket is only known after the
 * transfer). */
static int on_prereq(void *ud, char *ip, char *local_ip, int port,
                     int local_port)
{
  struct hop_ctx *x = ud;
  long connects = -1;

  (void)ip;
  (void)local_ip;
  (void)port;
  x->api->easy_getinfo(x->easy, CURLINFO_NUM_CONNECTS, &connects);
  probe_tcp_ready(&x->tcp, probe_conn_socket(x->client, local_port),
                  connects == 0);
  return CURL_PREREQFUNC_OK;
}
#endif

int probe_on_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow,
                      curl_off_t ultotal, curl_off_t ulnow)
{
  (void)ud;
  (void)dltotal;
  (void)dlnow;
  (void)ultotal;
  (void)ulnow;
  return probe_interrupted ? 1 : 0;
}

/* A body the limit applies to: a final response's (a redirect that is
 * followed is not one, as Go's client reads those bodies itself). */
static int body_limited(const struct hop_ctx *x)
{
  return x->body_limit > 0 && !(x->follows && x->status_now >= 300 &&
                                x->status_now <= 399 && x->location_now);
}

static size_t body_bytes(struct hop_ctx *x, char *data, size_t n);

static size_t on_body(char *data, size_t size, size_t nmemb, void *ud)
{
  int64_t t0 = engine_own_begin();
  size_t rc = body_bytes(ud, data, size * nmemb);

  engine_own_end(t0);
  return rc;
}

static size_t body_bytes(struct hop_ctx *x, char *data, size_t n)
{

  tcp_arrivals_add(&x->tcp.arr, probe_now_us(), (int64_t)n);
  read_tls(x);
  if (body_limited(x) &&
      x->hop->info->size_decoded + (int64_t)n > x->body_limit) {
    /* body_size_limit: read up to it, then stop the transfer
     * (CURLE_WRITE_ERROR), as Go's http.MaxBytesReader stops there. */
    n = (size_t)(x->body_limit - x->hop->info->size_decoded);
    hop_info_edit(x->hop)->size_decoded += (int64_t)n;
    if (x->scan)
      probe_body_scan_feed(x->scan, data, n);
    hop_info_edit(x->hop)->body_limited = 1;
    return 0;
  }
  hop_info_edit(x->hop)->size_decoded += (int64_t)n;
  if (x->scan)
    probe_body_scan_feed(x->scan, data, n);
  return n;
}

/* An exact-size vector of the pooled copies of v[0..n). */
static const char **pooled_strv(char *const *v, size_t n)
{
  const char **out;
  size_t i;

  if (!n)
    return NULL;
  out = xmalloc(n * sizeof(*out));
  for (i = 0; i < n; i++)
    out[i] = strpool_intern(v[i]);
  return out;
}

static void copy_answer_to_hop(const struct dns_answer *a, struct hop *h)
{
  struct hop_dns *d = hop_dns_edit(h);

  d->addresses = pooled_strv(a->addresses, a->n_addresses);
  d->n_addresses = (uint32_t)a->n_addresses;
  d->cnames = pooled_strv(a->cnames, a->n_cnames);
  d->n_cnames = (uint32_t)a->n_cnames;
  d->ttl = a->ttl < -1 ? -1 : a->ttl > INT32_MAX ? INT32_MAX : (int32_t)a->ttl;
  d->server = strpool_intern(a->server);
}

/* The resolvers that failed during a fresh lookup. */
static void copy_failures(const struct dns_answer *a, struct hop *h)
{
  size_t i;

  for (i = 0; i < a->n_failed && i < DNS_FAILURES_MAX; i++)
    hop_add_dns_failure(h, a->failed[i].server, a->failed[i].rcode,
                        a->failed[i].us, a->failed[i].query);
}

static int is_ipv4(const char *s)
{
  unsigned char tmp[4];

  return inet_pton(AF_INET, s, tmp) == 1;
}

/* The --resolve entry for host:port, or NULL. */
static const char *find_resolve(const struct options *o, const char *host,
                                int port)
{
  size_t i, hl = strlen(host);
  char portbuf[16];

  snprintf(portbuf, sizeof(portbuf), ":%d:", port);
  for (i = 0; i < o->n_resolve; i++) {
    const char *r = o->resolve[i];

    if (!strncasecmp(r, host, hl) &&
        !strncmp(r + hl, portbuf, strlen(portbuf)))
      return r;
  }
  return NULL;
}

static int pinned_already(const struct client *c, const char *key)
{
  size_t i;

  for (i = 0; i < c->n_pins; i++)
    if (!strcmp(c->pins[i], key))
      return 1;
  return 0;
}

/* Append the CURLOPT_RESOLVE entry of answer a for u's host:port (every
 * address, or the one options.ip_prefer picks), unless this easy handle
 * has it already. */
static void pin_answer(struct client *c, const struct options *o,
                       const struct url *u, const struct dns_answer *a,
                       struct curl_slist **resolve)
{
  char key[600];
  struct buf entry;
  size_t i, from = 0, to = a->n_addresses;

  snprintf(key, sizeof(key), "%s:%d", u->host, u->port);
  if (pinned_already(c, key))
    return;
  if (o->ip_prefer && a->n_addresses) {
    from = sample_preferred_address((const char *const *)a->addresses,
                                    a->n_addresses, o->ip_prefer);
    to = from + 1;
  }
  buf_init(&entry, 0);
  buf_printf(&entry, "%s:%d:", u->host, u->port);
  for (i = from; i < to; i++) {
    const char *ip = a->addresses[i];

    if (i > from)
      buf_putc(&entry, ',');
    if (strchr(ip, ':'))
      buf_printf(&entry, "[%s]", ip);
    else
      buf_puts(&entry, ip);
  }
  *resolve = curl_slist_append(*resolve, entry.s);
  strv_push(&c->pins, &c->n_pins, key);
  buf_release(&entry);
}

/*
 * Find the addresses of u->host: pinned, literal or cached at once
 * (returns ERR_NONE), by a c-ares lookup started here (returns ERR_COUNT:
 * the lookup ends in on_lookup), or ERR_DNS when no resolver runs.
 */
static enum err_class hop_dns(struct hop_job *j)
{
  struct client *c = j->c;
  const struct options *o = j->o;
  const struct url *u = &j->u;
  struct hop *h = j->h;
  const char *r = find_resolve(o, u->host, u->port);
  const struct dns_answer *a;
  char key[600];
  int64_t budget;

  h->dns_us = 0;
  /* Through a proxy blackbox resolves the first host only, and not with
   * skip_resolve_phase_with_proxy: the proxy resolves the others. */
  if (o->proxy && (o->proxy_skip_resolve || !j->rq.first_host))
    return ERR_NONE;
  if (r) {
    struct hop_dns *d = hop_dns_edit(h);
    const char *addrs = strchr(strchr(r, ':') + 1, ':') + 1;
    const char *p = addrs;
    size_t n = 0;

    d->pinned = 1;
    for (p = addrs; *p; p++)
      if (*p == ',')
        n++;
    if (*addrs)
      d->addresses = xmalloc((n + 1) * sizeof(*d->addresses));
    p = addrs;
    while (*p) {
      const char *end = strchr(p, ',');
      size_t len = end ? (size_t)(end - p) : strlen(p);

      d->addresses[d->n_addresses++] = len > 2 && p[0] == '['
                                           ? strpool_intern_n(p + 1, len - 2)
                                           : strpool_intern_n(p, len);
      p += len;
      if (*p == ',')
        p++;
    }
    snprintf(key, sizeof(key), "%s:%d", u->host, u->port);
    if (!pinned_already(c, key)) {
      j->resolve = curl_slist_append(j->resolve, r);
      strv_push(&c->pins, &c->n_pins, key);
    }
    return ERR_NONE;
  }
  if (u->ipv6 || is_ipv4(u->host)) {
    struct hop_dns *d = hop_dns_edit(h);

    d->literal = 1;
    d->addresses = xmalloc(sizeof(*d->addresses));
    d->addresses[0] = strpool_intern(u->host);
    d->n_addresses = 1;
    return ERR_NONE;
  }
  a = dns_cache_find(c->dns, u->host);
  if (a) {
    hop_dns_edit(h)->cached = 1;
    copy_answer_to_hop(a, h);
    pin_answer(c, o, u, a, &j->resolve);
    return ERR_NONE;
  }
  budget = o->connect_timeout_us < o->max_time_us ? o->connect_timeout_us
                                                  : o->max_time_us;
  if (!c->resolver && !c->resolver_error) {
    char err[256];

    err[0] = '\0';
    c->resolver = probe_dns_open(c->engine, &c->job, o->dns_servers, budget,
                                 err, sizeof(err));
    if (!c->resolver)
      c->resolver_error = xstrdup(err);
  }
  if (!c->resolver) {
    snprintf(j->err, j->errlen, "resolving '%s': %s", u->host,
             c->resolver_error ? c->resolver_error : "no resolver");
    return ERR_DNS;
  }
  probe_dns_start(c->resolver, u->host, o->ip_family,
                  probe_deadline_cut(budget), &j->fresh, j->err, j->errlen,
                  on_lookup, j);
  return ERR_COUNT;
}

/* Every request header that the reports redact (url_header_is_secret:
 * Authorization, Cookie, Proxy-Authorization, X-Api-Key, X-Auth-Token,
 * Private-Token ...) is a credential of the first origin: dropped on a
 * cross-origin redirect unless --location-trusted.  curl drops only
 * Authorization and Cookie. */
static int header_is_credential(const char *h)
{
  const char *colon = strchr(h, ':');

  return colon && url_header_is_secret(h, (size_t)(colon - h));
}

/* Whether -H gave a header of that name. */
static int has_header(const struct options *o, const char *name)
{
  size_t i, n = strlen(name);

  for (i = 0; i < o->n_headers; i++)
    if (!strncasecmp(o->headers[i], name, n) && o->headers[i][n] == ':')
      return 1;
  return 0;
}

/*
 * Error class of a failed transfer.  A send or receive error (a reset)
 * is a connect failure while no connection stood yet, and a protocol
 * failure (http) once the request was under way.
 */
static enum err_class classify(CURLcode rc, const struct hop *h)
{
  if (rc == CURLE_SEND_ERROR || rc == CURLE_RECV_ERROR)
    return h->curl.connect > 0 || h->reused ? ERR_HTTP : ERR_CONNECT;
  switch (rc) {
  case CURLE_OK:
    return ERR_NONE;
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_RESOLVE_PROXY:
    return ERR_DNS;
  case CURLE_COULDNT_CONNECT:
    return ERR_CONNECT;
  case CURLE_OPERATION_TIMEDOUT:
    return ERR_TIMEOUT;
  case CURLE_SSL_CONNECT_ERROR:
  case CURLE_PEER_FAILED_VERIFICATION:
  case CURLE_SSL_CERTPROBLEM:
  case CURLE_SSL_CIPHER:
  case CURLE_SSL_CACERT_BADFILE:
  case CURLE_SSL_ISSUER_ERROR:
  case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
  case CURLE_SSL_INVALIDCERTSTATUS:
  case CURLE_SSL_ENGINE_NOTFOUND:
  case CURLE_SSL_ENGINE_SETFAILED:
  case CURLE_SSL_ENGINE_INITFAILED:
  case CURLE_SSL_CRL_BADFILE:
  case CURLE_USE_SSL_FAILED:
    return ERR_TLS;
  default:
    return ERR_HTTP;
  }
}

/* libcurl's detail without its trailing newline, or "". */
static const char *detail(const char *errbuf)
{
  return errbuf && *errbuf ? errbuf : "";
}

/*
 * What went wrong, in words that say what to do: the host, the
 * option that sets the limit that was hit, the fix a user can make.
 * libcurl's own words follow only where they add a fact.
 */
static void describe(const struct curl_api *api, CURLcode rc,
                     const char *errbuf, CURL *e, const struct url *u,
                     const struct options *o, const struct hop *h, char *err,
                     size_t errlen)
{
  long os_errno = 0;
  const char *d = detail(errbuf);
  const char *prob = strstr(d, "SSL certificate problem: ");

  api->easy_getinfo(e, CURLINFO_OS_ERRNO, &os_errno);
  switch (rc) {
  case CURLE_PEER_FAILED_VERIFICATION:
  case CURLE_SSL_CACERT_BADFILE:
    if (strstr(d, "subject name") || strstr(d, "does not match"))
      snprintf(err, errlen,
               "TLS certificate of '%s' is for another name (%s): check the "
               "URL, or skip verification with -k",
               u->host, d);
    else
      snprintf(err, errlen,
               "TLS certificate of '%s' not verified (%s): give its CA with "
               "--cacert FILE, or skip verification with -k",
               u->host, prob ? prob + 25 : d);
    return;
  case CURLE_SSL_CONNECT_ERROR:
    /* A plain-HTTP port answers a ClientHello with an HTTP status line,
     * which OpenSSL reads as a record of a wrong version (or, from 3.2,
     * an overlong one): the URL's scheme is wrong, not the server. */
    if (strstr(d, "wrong version number") ||
        strstr(d, "packet length too long") || strstr(d, "http request")) {
      const char *v6 = strchr(u->host, ':') ? "[" : "";

      snprintf(err, errlen,
               "TLS handshake with %s%s%s:%d failed (%s): the server speaks "
               "plain HTTP there, try http://%s%s%s:%d",
               v6, u->host, *v6 ? "]" : "", u->port, d, v6, u->host,
               *v6 ? "]" : "", u->port);
      return;
    }
    snprintf(err, errlen, "%s%s%s", api->easy_strerror(rc), *d ? ": " : "", d);
    return;
  case CURLE_COULDNT_CONNECT:
    if (!os_errno) {
      /* libcurl 7.88 does not keep socket()'s errno: ask again, so that
       * running out of descriptors is not "Couldn't connect". */
      int fd = socket(AF_INET, SOCK_STREAM, 0);

      if (fd < 0)
        os_errno = errno;
      else
        close(fd);
    }
    if (os_errno == EMFILE || os_errno == ENFILE)
      snprintf(err, errlen,
               "out of file descriptors (%s) opening a connection to %s:%d: "
               "raise the limit (ulimit -n)",
               os_errno == EMFILE ? "EMFILE" : "ENFILE", u->host, u->port);
    else
      snprintf(err, errlen, "cannot connect to %s:%d%s%s%s: %s", u->host,
               u->port, h->info->remote_ip ? " (" : "",
               h->info->remote_ip ? h->info->remote_ip : "",
               h->info->remote_ip ? ")" : "",
               os_errno ? strerror((int)os_errno) : d);
    return;
  case CURLE_OPERATION_TIMEDOUT:
    if (h->curl.connect <= 0 && !h->reused && h->curl.pretransfer <= 0) {
      /* The limit that was reached: the smaller of the two. */
      int by_max =
          o->max_time_us > 0 && (o->connect_timeout_us <= 0 ||
                                 o->max_time_us <= o->connect_timeout_us);

      snprintf(err, errlen,
               "timed out: no connection to %s:%d within %lld ms (%s)",
               u->host, u->port,
               (long long)((by_max ? o->max_time_us : o->connect_timeout_us) /
                           1000),
               by_max ? "-m/--max-time" : "--connect-timeout");
    }
    else
      snprintf(err, errlen,
               "timed out: no complete response from %s within %lld ms "
               "(--max-time)",
               u->host, (long long)(o->max_time_us / 1000));
    return;
#if LIBCURL_VERSION_NUM >= 0x080600
  case CURLE_TOO_LARGE:
    /* libcurl 8's limits: more than 5000 header lines (its message says
     * so), or a header line over 100 KiB (it says nothing). */
    if (*d)
      snprintf(err, errlen, "response from '%s' is over libcurl's limits: %s",
               u->host, d);
    else
      snprintf(err, errlen,
               "response from '%s' has a header line over libcurl's 100 KiB "
               "limit",
               u->host);
    return;
#endif
  case CURLE_OUT_OF_MEMORY:
    /* libcurl 7.88 refuses a header line over 100 KiB as out of memory. */
    snprintf(err, errlen,
             "response from '%s' has a header line over libcurl's 100 KiB "
             "limit%s%s",
             u->host, *d ? ": " : "", d);
    return;
  default:
    snprintf(err, errlen, "%s%s%s", api->easy_strerror(rc), *d ? ": " : "", d);
  }
}

static const char *http_version_name(long v)
{
  switch (v) {
  case CURL_HTTP_VERSION_1_0:
    return strpool_intern("1.0");
  case CURL_HTTP_VERSION_1_1:
    return strpool_intern("1.1");
  case CURL_HTTP_VERSION_2_0:
    return strpool_intern("2");
#if LIBCURL_VERSION_NUM >= 0x074200
  case CURL_HTTP_VERSION_3:
    return strpool_intern("3");
#endif
  default:
    return NULL;
  }
}

static int64_t info_time(const struct curl_api *api, CURL *e, CURLINFO what)
{
  curl_off_t v = -1;

  if (api->easy_getinfo(e, what, &v) != CURLE_OK)
    return -1;
  return (int64_t)v;
}

/* -w asks for the certificate chain (curl's %{certs} and %{num_certs},
 * which its %{json} holds too): as curl, libcurl then collects it during
 * the handshake (CURLOPT_CERTINFO), a cost the tls phase carries as
 * curl's time_appconnect does. */
static int wants_certs(const struct options *o)
{
  return o->write_out &&
         (strstr(o->write_out, "certs}") || strstr(o->write_out, "%{json}"));
}

/* The chain as curl's -w %{certs} prints it (tool_writeout.c): each
 * "Name:value" of each certificate on its own line, the PEM without its
 * "Cert:" label. */
static void copy_certs(const struct curl_api *api, CURL *e, struct hop *h)
{
  struct curl_certinfo *ci = NULL;
  struct buf b;
  int i;

  if (api->easy_getinfo(e, CURLINFO_CERTINFO, &ci) != CURLE_OK || !ci)
    return;
  hop_info_edit(h)->num_certs =
      (int16_t)(ci->num_of_certs < 0       ? 0
                : ci->num_of_certs > 32767 ? 32767
                                           : ci->num_of_certs);
  buf_init(&b, 0);
  for (i = 0; i < ci->num_of_certs; i++) {
    struct curl_slist *l;

    for (l = ci->certinfo[i]; l; l = l->next) {
      buf_puts(&b, strncasecmp(l->data, "cert:", 5) ? l->data : l->data + 5);
      if (b.len && b.s[b.len - 1] != '\n')
        buf_putc(&b, '\n');
    }
  }
  hop_info_edit(h)->certs = strpool_intern(b.len ? b.s : "");
  buf_release(&b);
}

static void copy_info(const struct curl_api *api, CURL *e, struct hop *h,
                      int *reused)
{
  long l = 0;
  char *s = NULL;
  curl_off_t off = 0;

  h->curl.namelookup = info_time(api, e, CURLINFO_NAMELOOKUP_TIME_T);
  h->curl.connect = info_time(api, e, CURLINFO_CONNECT_TIME_T);
  h->curl.appconnect = info_time(api, e, CURLINFO_APPCONNECT_TIME_T);
  h->curl.pretransfer = info_time(api, e, CURLINFO_PRETRANSFER_TIME_T);
#if LIBCURL_VERSION_NUM >= 0x080a00
  h->curl.posttransfer = info_time(api, e, CURLINFO_POSTTRANSFER_TIME_T);
#else
  h->curl.posttransfer = -1;
#endif
  h->curl.starttransfer = info_time(api, e, CURLINFO_STARTTRANSFER_TIME_T);
  h->curl.total = info_time(api, e, CURLINFO_TOTAL_TIME_T);
#if LIBCURL_VERSION_NUM >= 0x080600
  h->curl.queue = info_time(api, e, CURLINFO_QUEUE_TIME_T);
#endif
#if LIBCURL_VERSION_NUM >= 0x080200
  off = -1;
  if (api->easy_getinfo(e, CURLINFO_CONN_ID, &off) == CURLE_OK && off >= 0 &&
      off <= INT32_MAX)
    h->conn_id = (int32_t)off;
  off = -1;
  if (api->easy_getinfo(e, CURLINFO_XFER_ID, &off) == CURLE_OK && off >= 0 &&
      off <= INT32_MAX)
    h->xfer_id = (int32_t)off;
#endif
#if LIBCURL_VERSION_NUM >= 0x080b00
  off = -1;
  if (api->easy_getinfo(e, CURLINFO_EARLYDATA_SENT_T, &off) == CURLE_OK &&
      off >= 0 && off <= INT32_MAX)
    hop_info_edit(h)->earlydata = (int32_t)off;
#endif
  off = 0;
  if (api->easy_getinfo(e, CURLINFO_RESPONSE_CODE, &l) == CURLE_OK && l >= 0 &&
      l <= 999)
    hop_info_edit(h)->status = (int32_t)l;
  l = 0;
  if (api->easy_getinfo(e, CURLINFO_HTTP_VERSION, &l) == CURLE_OK)
    hop_info_edit(h)->http_version = http_version_name(l);
  if (api->easy_getinfo(e, CURLINFO_PRIMARY_IP, &s) == CURLE_OK && s && *s)
    hop_info_edit(h)->remote_ip = strpool_intern(s);
  l = 0;
  if (api->easy_getinfo(e, CURLINFO_PRIMARY_PORT, &l) == CURLE_OK && l >= 0 &&
      l <= 65535)
    hop_info_edit(h)->remote_port = (uint16_t)l;
  if (api->easy_getinfo(e, CURLINFO_SIZE_DOWNLOAD_T, &off) == CURLE_OK)
    hop_info_edit(h)->size_download = (int64_t)off;
  off = -1;
  if (api->easy_getinfo(e, CURLINFO_SIZE_UPLOAD_T, &off) == CURLE_OK &&
      off >= 0)
    hop_info_edit(h)->size_upload = (int64_t)off;
  l = -1;
  if (api->easy_getinfo(e, CURLINFO_REQUEST_SIZE, &l) == CURLE_OK && l >= 0)
    hop_info_edit(h)->size_request = l;
  s = NULL;
  if (api->easy_getinfo(e, CURLINFO_LOCAL_IP, &s) == CURLE_OK && s && *s)
    hop_info_edit(h)->local_ip = strpool_intern(s);
  off = -1;
  if (api->easy_getinfo(e, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &off) ==
      CURLE_OK)
    hop_info_edit(h)->content_length = off < 0 ? -1 : (int64_t)off;
  l = 0;
  if (api->easy_getinfo(e, CURLINFO_HEADER_SIZE, &l) == CURLE_OK)
    hop_info_edit(h)->size_header = l;
  l = -1;
  /* A reused connection made no new connection and still got as far as
   * sending; a failed connect also makes none, but never sends. */
  api->easy_getinfo(e, CURLINFO_NUM_CONNECTS, &l);
  *reused = l == 0 && h->curl.connect <= 0 && h->curl.pretransfer > 0;
}

static CURLcode on_ssl_ctx(CURL *e, void *ssl_ctx, void *store)
{
  (void)e;
  return probe_tls_use_store(ssl_ctx, store) == 0 ? CURLE_OK
                                                  : CURLE_SSL_CERTPROBLEM;
}

void probe_set_common(const struct curl_api *api, void *easy,
                      const struct options *o, char *errbuf)
{
  CURL *e = easy;
  void *store;

  api->easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  api->easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
  /* curl's receive buffer (tool_operate.c sets 100 KiB; libcurl's default
   * is 16 KiB): a large body drains as curl drains it. */
  api->easy_setopt(e, CURLOPT_BUFFERSIZE, 102400L);
  api->easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  /* The direct path is what is measured: proxies from the environment
   * (http_proxy, HTTPS_PROXY, ALL_PROXY) would silently replace it. */
  api->easy_setopt(e, CURLOPT_PROXY, "");
#if LIBCURL_VERSION_NUM >= 0x075500
  api->easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  api->easy_setopt(e, CURLOPT_PROTOCOLS,
                   (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
  api->easy_setopt(e, CURLOPT_USERAGENT, o->user_agent);
  if (o->ip_family == 4)
    api->easy_setopt(e, CURLOPT_IPRESOLVE, (long)CURL_IPRESOLVE_V4);
  else if (o->ip_family == 6)
    api->easy_setopt(e, CURLOPT_IPRESOLVE, (long)CURL_IPRESOLVE_V6);
  /* The parsed store is OpenSSL's: the GnuTLS libcurl of HTTP/3 loads
   * --cacert/--capath, or its built-in bundle, itself. */
  if (!o->insecure && api == &curl_api_linked &&
      (store = probe_shared_store(o)) != NULL) {
    /* A parsed store shared by every connection (see probe_tls_store):
     * libcurl loads nothing, the callback installs it. */
    api->easy_setopt(e, CURLOPT_CAINFO, (char *)NULL);
    api->easy_setopt(e, CURLOPT_CAPATH, (char *)NULL);
    api->easy_setopt(e, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
    api->easy_setopt(e, CURLOPT_SSL_CTX_DATA, store);
  }
  else if (api != &curl_api_linked && !o->insecure &&
           (o->cacert || o->capath)) {
    /* As the shared store: what --cacert/--capath name and nothing else
     * (libcurl-gnutls would load its built-in directory beside them, a
     * hundred milliseconds of parsing in every cold handshake). */
    api->easy_setopt(e, CURLOPT_CAINFO, o->cacert);
    api->easy_setopt(e, CURLOPT_CAPATH, o->capath);
  }
  else {
    if (o->cacert)
      api->easy_setopt(e, CURLOPT_CAINFO, o->cacert);
    if (o->capath)
      api->easy_setopt(e, CURLOPT_CAPATH, o->capath);
  }
  if (o->tls_cert) {
    api->easy_setopt(e, CURLOPT_SSLCERT, o->tls_cert);
    api->easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
  }
  if (o->tls_key) {
    api->easy_setopt(e, CURLOPT_SSLKEY, o->tls_key);
    api->easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
  }
  if (o->tls_min || o->tls_max) {
    static const long lo[] = {CURL_SSLVERSION_TLSv1_0, CURL_SSLVERSION_TLSv1_1,
                              CURL_SSLVERSION_TLSv1_2,
                              CURL_SSLVERSION_TLSv1_3};
    static const long hi[] = {
        CURL_SSLVERSION_MAX_TLSv1_0, CURL_SSLVERSION_MAX_TLSv1_1,
        CURL_SSLVERSION_MAX_TLSv1_2, CURL_SSLVERSION_MAX_TLSv1_3};

    api->easy_setopt(
        e, CURLOPT_SSLVERSION,
        (o->tls_min ? lo[o->tls_min - 10] : CURL_SSLVERSION_DEFAULT) |
            (o->tls_max ? hi[o->tls_max - 10] : CURL_SSLVERSION_MAX_DEFAULT));
  }
  if (o->insecure) {
    api->easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    api->easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  api->easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                   (long)(probe_deadline_cut(o->connect_timeout_us) / 1000));
  api->easy_setopt(e, CURLOPT_TIMEOUT_MS,
                   (long)(probe_deadline_cut(o->max_time_us) / 1000));
  api->easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  api->easy_setopt(e, CURLOPT_XFERINFOFUNCTION, probe_on_progress);
}

static void set_options(const struct curl_api *api, CURL *e,
                        const struct client *c, const struct options *o,
                        const struct hop_request *rq, struct curl_slist *hdrs,
                        struct curl_slist *resolve, struct hop_ctx *x,
                        char *errbuf)
{
  (void)c; /* c->h3: HTTP/3 needs libcurl 8.10's headers (below) */
  probe_set_common(api, e, o, errbuf);
  api->easy_setopt(e, CURLOPT_URL, rq->url);
  if (resolve)
    api->easy_setopt(e, CURLOPT_RESOLVE, resolve);
  if (hdrs)
    api->easy_setopt(e, CURLOPT_HTTPHEADER, hdrs);
  if (rq->body_file) {
    probe_body_setopt(api, e, &x->body, rq->upload, rq->method);
  }
  else if (rq->body) {
    /* As curl's -d: libcurl sends it as a POST (Content-Length, and
     * application/x-www-form-urlencoded unless -H or --json says
     * otherwise); another method is curl's -X over it. */
    api->easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)rq->body_len);
    api->easy_setopt(e, CURLOPT_POSTFIELDS, rq->body);
    if (strcmp(rq->method, "POST"))
      api->easy_setopt(e, CURLOPT_CUSTOMREQUEST, rq->method);
  }
  else if (!strcmp(rq->method, "HEAD"))
    api->easy_setopt(e, CURLOPT_NOBODY, 1L);
  else if (strcmp(rq->method, "GET"))
    api->easy_setopt(e, CURLOPT_CUSTOMREQUEST, rq->method);
  if (o->compressed)
    api->easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  if (o->http == HTTP_PREF_1_1)
    api->easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
  else if (o->http == HTTP_PREF_2)
    api->easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2_0);
#if LIBCURL_VERSION_NUM >= 0x080a00
  else if (o->http == HTTP_PREF_3 && c->h3)
    api->easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_3);
  else if (o->http == HTTP_PREF_3_ONLY && c->h3)
    api->easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_3ONLY);
#endif
  if (wants_certs(o))
    api->easy_setopt(e, CURLOPT_CERTINFO, 1L);
  api->easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  api->easy_setopt(e, CURLOPT_HEADERDATA, x);
  api->easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  api->easy_setopt(e, CURLOPT_WRITEDATA, x);
#if LIBCURL_VERSION_NUM >= 0x075000
  api->easy_setopt(e, CURLOPT_PREREQFUNCTION, on_prereq);
  api->easy_setopt(e, CURLOPT_PREREQDATA, x);
#endif
  if (x->heads) {
    api->easy_setopt(e, CURLOPT_DEBUGFUNCTION, on_debug);
    api->easy_setopt(e, CURLOPT_DEBUGDATA, x);
    api->easy_setopt(e, CURLOPT_VERBOSE, 1L);
  }
}

/* The URL url with its host replaced by host (an IPv6 address
 * bracketed), its port kept; NULL when libcurl cannot build it.  Free
 * with curl_free. */
static char *url_with_host(const char *url, const char *host)
{
  CURLU *cu = curl_url();
  char *out = NULL, *b = NULL;

  if (!cu)
    return NULL;
  if (strchr(host, ':'))
    host = b = xasprintf("[%s]", host);
  if (curl_url_set(cu, CURLUPART_URL, url, 0) != CURLUE_OK ||
      curl_url_set(cu, CURLUPART_HOST, host, 0) != CURLUE_OK ||
      curl_url_get(cu, CURLUPART_URL, &out, CURLU_NO_DEFAULT_PORT) !=
          CURLUE_OK)
    out = NULL;
  curl_url_cleanup(cu);
  free(b);
  return out;
}

/* host (bracketed when IPv6) and ":port" unless it is the scheme's (or
 * port is -1). */
static void host_port(struct buf *b, const char *host, int port, int https)
{
  buf_printf(b, strchr(host, ':') ? "[%s]" : "%s", host);
  if (port >= 0 && port != (https ? 443 : 80))
    buf_printf(b, ":%d", port);
}

/*
 * Where the request of a hop goes under serve's blackbox rules (options.h
 * tls_server_name, proxy), as Go's client of blackbox_exporter sends it:
 * an https hop to the first host names server_name in its URL (the TLS
 * name) and connects to the host (CURLOPT_CONNECT_TO), through a proxy to
 * the first host's resolved address (CONNECT ADDR:PORT); a plain http hop
 * through a proxy names its host (Go writes the absolute URI from the
 * Host).  The Host header stays the URL's host.  Nothing changes without those
 * options: the hop's URL is what libcurl gets.
 */
static void hop_route(struct hop_job *j)
{
  const struct options *o = j->o;
  const struct url *u = &j->u;
  const struct hop *h = j->h;
  int https = !strcmp(u->scheme, "https");
  const char *url_host = u->host, *to_host = u->host, *ip = NULL;
  struct buf b;

  curl_free(j->curl_url);
  j->curl_url = NULL;
  curl_slist_free_all(j->connect_to);
  curl_slist_free_all(j->proxy_hdrs);
  j->connect_to = j->proxy_hdrs = NULL;
  if (o->proxy && j->rq.first_host && !o->proxy_skip_resolve &&
      h->dns->n_addresses)
    ip =
        h->dns->addresses[o->ip_prefer ? sample_preferred_address(
                                             h->dns->addresses,
                                             h->dns->n_addresses, o->ip_prefer)
                                       : 0];
  if (https && o->tls_server_name && j->rq.first_host)
    url_host = o->tls_server_name;
  if (ip && https)
    to_host = ip;
  if (https && o->proxy) {
    size_t i;

    for (i = 0; i < o->n_proxy_headers; i++)
      j->proxy_hdrs = curl_slist_append(j->proxy_hdrs, o->proxy_headers[i]);
  }
  if (!strcasecmp(url_host, u->host) && !strcasecmp(to_host, u->host))
    return;
  j->curl_url = url_with_host(j->rq.url, url_host);
  buf_init(&b, 0);
  if (https && strcasecmp(url_host, to_host)) {
    host_port(&b, url_host, -1, 0);
    buf_printf(&b, ":%d:", u->port);
    host_port(&b, to_host, -1, 0);
    buf_printf(&b, ":%d", u->port);
    j->connect_to = curl_slist_append(NULL, b.s);
    buf_reset(&b);
  }
  if (strcasecmp(url_host, u->host) && !has_header(o, "host")) {
    buf_puts(&b, "Host: ");
    host_port(&b, u->host, u->port, https);
    j->hdrs = curl_slist_append(j->hdrs, b.s);
  }
  buf_release(&b);
}

/* hop_route's options on the CURL* e, and the proxy. */
static void route_setopt(const struct hop_job *j, CURL *e)
{
  const struct curl_api *api = j->c->api;

  if (j->curl_url)
    api->easy_setopt(e, CURLOPT_URL, j->curl_url);
  if (j->connect_to)
    api->easy_setopt(e, CURLOPT_CONNECT_TO, j->connect_to);
  if (!j->o->proxy)
    return;
  api->easy_setopt(e, CURLOPT_PROXY, j->o->proxy);
  if (j->proxy_hdrs) {
    api->easy_setopt(e, CURLOPT_PROXYHEADER, j->proxy_hdrs);
    api->easy_setopt(e, CURLOPT_HEADEROPT, (long)CURLHEADER_SEPARATE);
  }
}

/* The hop is over: its resources go, then its owner hears (deferred, so
 * never inside a library callback). */
static void hop_complete(void *ud)
{
  struct hop_job *j = ud;
  probe_hop_done_fn done = j->done;
  void *dud = j->ud;
  enum err_class cls = j->cls;

  if (j->x.head_out.len)
    hop_info_edit(j->h)->head_out =
        strpool_intern_n(j->x.head_out.s, j->x.head_out.len);
  if (j->x.head_in.len)
    hop_info_edit(j->h)->head_in =
        strpool_intern_n(j->x.head_in.s, j->x.head_in.len);
  buf_release(&j->x.head_out);
  buf_release(&j->x.head_in);
  if (j->x.scan) {
    hop_info_edit(j->h)->body_matched = probe_body_scan_end(j->x.scan);
    hop_info_edit(j->h)->body_scanned = 1;
    probe_body_scan_free(j->x.scan);
    j->x.scan = NULL;
  }
  if (j->x.body.fd >= 0) {
    char ignored[8];

    probe_body_close(&j->x.body, ignored, sizeof(ignored));
  }
  headers_read(&j->x); /* a transfer that ended without its done */
  if (j->x.n_hdrs)
    hop_set_headers(j->h, j->x.hdrs, j->x.n_hdrs);
  free(j->x.hdrs);
  hop_pool_arrays(j->h);
  curl_slist_free_all(j->hdrs);
  curl_slist_free_all(j->resolve);
  curl_free(j->curl_url);
  curl_slist_free_all(j->connect_to);
  curl_slist_free_all(j->proxy_hdrs);
  url_release(&j->u);
  dns_answer_release(&j->fresh);
  if (j->c->hop == j)
    j->c->hop = NULL;
  if (j->c->tcp == &j->x.tcp)
    j->c->tcp = NULL;
  free(j);
  done(dud, cls);
}

static void hop_end(struct hop_job *j, enum err_class cls)
{
  j->cls = cls;
  engine_defer(j->c->engine, &j->task, hop_complete, j, &j->c->job);
}

/* The connection is set up and the request goes (DNS done). */
static void hop_transfer(struct hop_job *j)
{
  struct client *c = j->c;
  const struct options *o = j->o;
  const struct hop_request *rq = &j->rq;
  CURL *e = c->easy;
  int64_t saved;
  size_t i;

  for (i = 0; i < o->n_headers; i++)
    if (!rq->drop_credentials || !header_is_credential(o->headers[i]))
      j->hdrs = curl_slist_append(j->hdrs, o->headers[i]);
  if (rq->json) {
    /* curl 7.82's --json, on every hop as curl sends them. */
    if (!has_header(o, "content-type"))
      j->hdrs = curl_slist_append(j->hdrs, "Content-Type: application/json");
    if (!has_header(o, "accept"))
      j->hdrs = curl_slist_append(j->hdrs, "Accept: application/json");
  }
  hop_route(j);
  j->x.api = c->api;
  j->x.easy = e;
  j->x.hop = j->h;
  j->x.grab = j->rq.grab;
  j->x.heads = options_heads(o);
  probe_body_scan_free(j->x.scan); /* a transfer begun again */
  j->x.scan = probe_body_scan_new(o->body_regexps);
  j->x.body_limit = o->body_limit;
  j->x.follows = o->follow;
  probe_tcp_begin(&j->x.tcp, rq->body || rq->body_file);
  j->x.client = c;
  /* Room for the response's header lines before the request goes
   * (header_line appends to it inside the transfer). */
  buf_reset(&c->hdr_raw);
  if (c->hdr_raw.alloc < HEADER_ROOM)
    buf_room(&c->hdr_raw, HEADER_ROOM);
  c->tcp = &j->x.tcp;
  if (rq->body_file &&
      probe_body_open(&j->x.body, rq->body_file, rq->body_file_size, j->err,
                      j->errlen) < 0) {
    hop_end(j, ERR_UPLOAD);
    return;
  }
  if (c->h3_missing) {
    snprintf(j->err, j->errlen,
             "%s: HTTP/3 needs libcurl-gnutls with HTTP/3: %s",
             c->h3 == 1 ? "--http3" : "--http3-only", c->h3_missing);
    hop_end(j, ERR_QUIC);
    return;
  }
  j->errbuf[0] = '\0';
  c->api->easy_reset(e);
  /* The timeouts are cut to the sample's deadline. */
  saved = probe_deadline_swap(c->deadline_us);
  set_options(c->api, e, c, o, rq, j->hdrs, j->resolve, &j->x, j->errbuf);
  route_setopt(j, e);
  probe_deadline_swap(saved);
  if (c->share) {
    /* Resumed on libcurl-gnutls (HTTP/3, or a leg of --protocols beside
     * h3): the session it kept from the target's previous connection is
     * offered, and a safe request goes as early data (0-RTT) when the
     * server allows (tls_earlydata). */
    c->api->easy_setopt(e, CURLOPT_SHARE, c->share);
#ifdef CURLSSLOPT_EARLYDATA
    if (!strcmp(rq->method, "GET") || !strcmp(rq->method, "HEAD"))
      c->api->easy_setopt(e, CURLOPT_SSL_OPTIONS, (long)CURLSSLOPT_EARLYDATA);
#endif
  }
  probe_conn_setup(e, c, o, j->u.host, j->u.port,
                   !strcmp(j->u.scheme, "https"));
  j->x.start_us = probe_now_us();
  if (engine_multi_add(c->multi, e) < 0) {
    snprintf(j->err, j->errlen, "cannot start the transfer of '%s'",
             j->u.host);
    hop_end(j, ERR_HTTP);
  }
}

/*
 * HTTP/3 (--http3, --http3-only): what QUIC gave the hop.  An HTTP/3
 * response came over QUIC, whose handshake is TLS 1.3 (RFC 9001 4.2) with
 * ALPN h3 (RFC 9114 3.1): libcurl-gnutls 8.14.1's CURLINFO_TLS_SSL_PTR of
 * a QUIC connection is the GnuTLS backend with a NULL session, also
 * during the transfer (its TCP connections give the gnutls_session_t), so
 * these two are all that is known of its TLS (cipher and resumption stay
 * unknown); a libcurl that gives the session fills them in read_tls
 * first.  A --http3 hop that ended on TCP records why, from the QUIC
 * attempt's UDP socket (probe_conn.c on_open).
 */
static void quic_facts(struct client *c, struct hop *h, CURLcode rc)
{
  const struct conn_attempt *q = NULL, *t = NULL;
  size_t i;

  if (h->info->http_version && !strcmp(h->info->http_version, "3")) {
    struct hop_tls *o = hop_tls_edit(h);

    if (!o->version)
      o->version = strpool_intern("TLSv1.3");
    if (!o->alpn)
      o->alpn = strpool_intern("h3");
    /* Early data is only sent on a resumed handshake (RFC 8446 4.2.10):
     * the one sign of resumption libcurl-gnutls gives for QUIC. */
    if (!h->reused && h->info->earlydata > 0)
      o->resumed = 1;
    return;
  }
  if (c->h3 != 1 || rc != CURLE_OK || h->reused || !h->info->http_version)
    return;
  for (i = 0; i < c->n_attempts; i++) {
    if (c->attempts[i].quic && !q)
      q = &c->attempts[i];
    if (!c->attempts[i].quic && !t)
      t = &c->attempts[i];
  }
  if (!q)
    hop_info_edit(h)->h3_fallback = strpool_intern(
        "no QUIC attempt was made (libcurl went to TCP at once)");
  else if (q->closed_us && t && q->closed_us <= t->opened_us)
    hop_info_edit(h)->h3_fallback = strpool_intern(
        "the QUIC attempt failed (nothing listens on UDP there, or it was "
        "refused) before TCP was tried");
  else if (q->closed_us && (!t || q->closed_us > t->opened_us))
    hop_info_edit(h)->h3_fallback = strpool_intern(
        "no QUIC handshake completed (no answer or refused over UDP): "
        "the TCP attempt libcurl started beside it connected");
  else
    hop_info_edit(h)->h3_fallback = strpool_intern(
        "TCP connected first: libcurl's happy eyeballs started TCP while "
        "the QUIC handshake had no answer yet");
}

void probe_hop_transfer_done(void *easy, int result, void *ud)
{
  struct client *c = ud;
  struct hop_job *j = c->hop;
  CURL *e = easy;
  CURLcode rc = (CURLcode)result;
  struct hop *h;
  int reused = 0;
  enum err_class cls = ERR_NONE;

  if (!j || j->c->easy != e)
    return;
  h = j->h;
  headers_read(&j->x);
  copy_info(c->api, e, h, &reused);
  h->curl.final_response = j->x.final_us > 0 ? j->x.final_us : -1;
  if (wants_certs(j->o))
    copy_certs(c->api, e, h);
  h->reused = reused != 0;
  if (c->api != &curl_api_linked)
    hop_tls_edit(h)->library = c->api->name;
  if (c->h3)
    quic_facts(c, h, rc);
  probe_conn_finish(e, c, h);
  {
    curl_socket_t fd = CURL_SOCKET_BAD;

    if (c->api->easy_getinfo(e, CURLINFO_ACTIVESOCKET, &fd) != CURLE_OK)
      fd = CURL_SOCKET_BAD;
    probe_tcp_finish(&j->x.tcp, fd == CURL_SOCKET_BAD ? -1 : (int)fd, h);
  }
  {
    char why[200];
    struct curl_times t = h->curl;

    if (c->h3 && !reused && h->info->earlydata > 0 && t.connect <= 0 &&
        t.appconnect > 0) {
      /* 0-RTT: the request went out inside the QUIC handshake, and
       * libcurl stamps no first server packet (time_connect 0).  The
       * handshake is tls up to its end or the first response byte,
       * whichever came first; connect and send are 0 (hopsplit(1),
       * HTTP/3). */
      t.connect = t.namelookup > 0 ? t.namelookup : 1;
      if (t.starttransfer > 0 && t.starttransfer < t.appconnect)
        t.appconnect = t.starttransfer;
      t.posttransfer = -1;
    }
    if (probe_phases_checked(&t, h->dns_us, !strcmp(j->u.scheme, "https"),
                             reused, h->phases, why, sizeof(why)))
      hop_info_edit(h)->timing_anomaly = strpool_intern(why);
  }
  if (probe_body_close(&j->x.body, j->err, j->errlen) < 0) {
    cls = ERR_UPLOAD; /* the file, not the server, stopped the request */
  }
  else if (j->x.too_large) {
    cls = ERR_HTTP;
    snprintf(j->err, j->errlen,
             "response headers larger than %d KiB from '%s'",
             HEADER_CAP / 1024, j->u.host);
  }
  else if (h->info->body_limited && rc == CURLE_WRITE_ERROR) {
    /* body_size_limit stopped it: the hop is whole up to the limit; serve
     * judges it (a blackbox probe fails reading such a body). */
  }
  else if (rc != CURLE_OK) {
    size_t l = strlen(j->errbuf);

    while (l && (j->errbuf[l - 1] == '\n' || j->errbuf[l - 1] == '\r'))
      j->errbuf[--l] = '\0';
    cls = classify(rc, h);
    if (rc == CURLE_OUT_OF_MEMORY)
      cls = ERR_HTTP;
    describe(c->api, rc, j->errbuf, e, &j->u, j->o, h, j->err, j->errlen);
    if (c->h3 == 2 && !h->curl.appconnect &&
        (cls == ERR_CONNECT || rc == CURLE_QUIC_CONNECT_ERROR ||
         rc == CURLE_HTTP3 || (cls == ERR_TIMEOUT && h->curl.connect <= 0))) {
      /* --http3-only and no QUIC connection: its own class. */
      char why[512];

      snprintf(why, sizeof(why), "%s", j->err);
      snprintf(j->err, j->errlen,
               "no HTTP/3 over QUIC from %s:%d (--http3-only): %s", j->u.host,
               j->u.port, why);
      cls = ERR_QUIC;
    }
  }
  hop_end(j, cls);
}

/* The c-ares lookup of the hop's host ended. */
static void on_lookup(void *ud, enum dns_status st)
{
  struct hop_job *j = ud;
  struct hop *h = j->h;
  const struct dns_answer *a;

  h->dns_us = j->fresh.us;
  copy_failures(&j->fresh, h);
  h->phases[PHASE_DNS] = h->dns_us;
  h->phases[PHASE_TOTAL] = h->dns_us;
  if (st != DNS_OK) {
    if (j->fresh.server)
      hop_dns_edit(h)->server = strpool_intern(j->fresh.server);
    hop_end(j, ERR_DNS);
    return;
  }
  copy_answer_to_hop(&j->fresh, h);
  dns_cache_add(j->c->dns, &j->fresh);
  a = dns_cache_find(j->c->dns, j->u.host);
  pin_answer(j->c, j->o, &j->u, a, &j->resolve);
  hop_transfer(j);
}

void probe_hop_start(struct client *c, const struct options *o,
                     const struct hop_request *rq, struct hop *h, char *err,
                     size_t errlen, probe_hop_done_fn done, void *ud)
{
  struct hop_job *j = xcalloc(1, sizeof(*j));
  enum err_class cls;
  int64_t saved;

  j->c = c;
  j->o = o;
  j->rq = *rq;
  j->h = h;
  j->err = err;
  j->errlen = errlen;
  j->done = done;
  j->ud = ud;
  j->fresh.ttl = -1;
  buf_init(&j->x.head_out, 0);
  buf_init(&j->x.head_in, 0);
  j->x.body.fd = -1;
  j->x.scan = NULL;
  c->hop = j;
  hop_info_edit(h)->url = strpool_intern(rq->url);
  hop_info_edit(h)->method = strpool_intern(rq->method);
  if (url_parse(&j->u, rq->url, err, errlen) < 0) {
    hop_end(j, ERR_REDIRECT);
    return;
  }
  hop_info_edit(h)->host = strpool_intern(j->u.host);
  saved = probe_deadline_swap(c->deadline_us);
  cls = hop_dns(j);
  probe_deadline_swap(saved);
  if (cls == ERR_COUNT)
    return; /* on_lookup goes on */
  h->phases[PHASE_DNS] = h->dns_us;
  h->phases[PHASE_TOTAL] = h->dns_us;
  if (cls != ERR_NONE) {
    hop_end(j, cls);
    return;
  }
  hop_transfer(j);
}
