/*
 * probe.c: samples.  Input: the plan and a (target, mode) pair.  Output:
 * one struct sample with every hop, its phases and its facts.  Owns the
 * long-lived clients of warm and resumed mode, walks redirects hop by hop
 * (probe_hops.c does one hop), and holds the one function that turns
 * libcurl's cumulative offsets into phases.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probe.h"
#include "msg.h"
#include "probe_int.h"
#include "strpool.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* Resumed mode of one target: the TLS sessions hopsplit keeps
 * (probe_tls.c) and the DNS answers, shared by its samples. */
struct resumed_base {
  struct tls_sessions *sessions;
  struct dns_cache dns;
};

struct probe {
  const struct plan *plan;
  struct client *warm;          /* one per target, easy == NULL until used */
  struct dns_cache *warm_dns;   /* one per target */
  struct resumed_base *resumed; /* one per target */
  char *prime_warned;           /* one per target: a failure was shown */
};

int probe_global_init(void)
{
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    return -1;
  if (probe_dns_global_init() < 0) {
    curl_global_cleanup();
    return -1;
  }
  return 0;
}

void probe_global_cleanup(void)
{
  probe_tls_release();
  probe_dns_global_cleanup();
  curl_global_cleanup();
}

void probe_versions(struct buf *b)
{
  curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);

  buf_printf(b, "libcurl/%s c-ares/%s %s", v->version, probe_dns_version(),
             probe_tls_version());
}

void probe_features(struct buf *b)
{
  static const struct {
    int bit;
    const char *name;
  } features[] = {
      {CURL_VERSION_HTTP2, "HTTP2"}, {CURL_VERSION_HTTP3, "HTTP3"},
      {CURL_VERSION_IPV6, "IPv6"},   {CURL_VERSION_IDN, "IDN"},
      {CURL_VERSION_LIBZ, "libz"},   {CURL_VERSION_BROTLI, "brotli"},
      {CURL_VERSION_ZSTD, "zstd"},
  };
  curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
  size_t i;

  buf_printf(b, "libcurl: system, shared, built against %s; features:",
             LIBCURL_VERSION);
  for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
    if (v->features & features[i].bit)
      buf_printf(b, " %s", features[i].name);
  /* What the build and the library at hand can measure (libcurl 8.10:
   * CURLINFO_POSTTRANSFER_TIME_T). */
  if (LIBCURL_VERSION_NUM >= 0x080a00 && v->version_num >= 0x080a00)
    buf_puts(b, "\nsend phase: measured (libcurl 8.10 or newer)");
  else
    buf_printf(b,
               "\nsend phase: not measured (needs libcurl 8.10; built "
               "against %s, running %s): sending is part of wait",
               LIBCURL_VERSION, v->version);
}

static void client_init(struct client *c, const struct options *o,
                        struct dns_cache *dns, struct tls_sessions *sessions,
                        int collect_only)
{
  char err[256];
  int64_t budget = o->connect_timeout_us < o->max_time_us
                       ? o->connect_timeout_us
                       : o->max_time_us;

  memset(c, 0, sizeof(*c));
  err[0] = '\0';
  c->resolver = probe_dns_open(o->dns_servers, budget, err, sizeof(err));
  if (!c->resolver)
    c->resolver_error = xstrdup(err);
  c->easy = curl_easy_init();
  if (!c->easy)
    msg_die(4, "cannot create a libcurl handle");
  c->sessions = sessions;
  c->collect_only = collect_only;
  if (dns) {
    c->dns = dns;
  }
  else {
    c->dns = xcalloc(1, sizeof(*c->dns));
    c->own_dns = 1;
  }
}

static void client_release(struct client *c)
{
  size_t i;

  if (c->easy)
    curl_easy_cleanup(c->easy);
  /* After the easy handle: closing its connections may still call the
   * TLS callbacks. */
  probe_conn_release(c);
  probe_dns_close(c->resolver);
  free(c->resolver_error);
  if (c->own_dns) {
    dns_cache_release(c->dns);
    free(c->dns);
  }
  for (i = 0; i < c->n_pins; i++)
    free(c->pins[i]);
  free(c->pins);
  memset(c, 0, sizeof(*c));
}

struct probe *probe_alloc(const struct plan *plan)
{
  struct probe *p = xcalloc(1, sizeof(*p));
  size_t n = plan->n_targets;

  p->plan = plan;
  p->warm = xcalloc(n, sizeof(*p->warm));
  p->warm_dns = xcalloc(n, sizeof(*p->warm_dns));
  p->resumed = xcalloc(n, sizeof(*p->resumed));
  p->prime_warned = xcalloc(n ? n : 1, 1);
  return p;
}

void probe_free(struct probe *p)
{
  size_t i;

  if (!p)
    return;
  for (i = 0; i < p->plan->n_targets; i++) {
    client_release(&p->warm[i]);
    dns_cache_release(&p->warm_dns[i]);
    probe_tls_sessions_free(p->resumed[i].sessions);
    dns_cache_release(&p->resumed[i].dns);
  }
  free(p->warm);
  free(p->warm_dns);
  free(p->resumed);
  free(p->prime_warned);
  free(p);
}

/*
 * Method and body of the next hop, as libcurl switches them when it
 * follows (lib/transfer.c Curl_follow): after 301 and 302 a POST becomes a
 * GET without its body unless --post301/--post302; after 303 everything
 * but HEAD becomes GET unless it is a POST and --post303; 307 and 308 keep
 * both; an upload (-T) keeps PUT and its body after 301 and 302 and
 * becomes a GET after 303.  A method given with -X is sent on every hop, as
 * curl sends it, even when the body is dropped.
 */
static void next_request(const struct options *o, long status,
                         const char **method, int *with_body)
{
  int to_get = 0;

  if (status == 301 || status == 302)
    to_get = *with_body && !o->upload &&
             !(o->post_keep & (status == 301 ? 1u : 2u));
  else if (status == 303)
    to_get = *with_body ? o->upload || !(o->post_keep & 4u)
                        : strcmp(*method, "HEAD") != 0;
  if (!to_get)
    return;
  *with_body = 0;
  if (!o->method_set)
    *method = "GET";
}

static int is_redirect(long status)
{
  return status == 301 || status == 302 || status == 303 || status == 307 ||
         status == 308;
}

static char *strip_fragment(const char *url)
{
  const char *hash = strchr(url, '#');

  return hash ? xstrndup(url, (size_t)(hash - url)) : xstrdup(url);
}

static void fail(struct sample *s, enum err_class cls, const char *msg)
{
  s->ok = 0;
  s->err = cls;
  s->err_message = strpool_intern(msg);
}

/*
 * Walk one logical request on client c: hop after hop until a final
 * response, an error, or a redirect we refuse.  Fills s->hops and the
 * error; the caller times the whole.
 */
static void walk(struct client *c, const struct target *t, struct sample *s,
                 int64_t t0)
{
  const struct options *o = t->opts;
  char err[1024];
  /* A hop's URL keeps its fragment, as curl's url_effective does;
   * libcurl leaves it out of the request, and loops are found without
   * it. */
  char *url = xstrdup(t->url);
  char *first_origin = url_origin(url);
  const char *method = options_method(o);
  int with_body = options_has_body(o);
  char **visited = NULL;
  size_t n_visited = 0, i;
  long redirects = 0;

  for (;;) {
    struct hop_request rq;
    struct hop *h;
    enum err_class cls;
    char *next, *origin, *clean;

    visited = xrealloc(visited, (n_visited + 1) * sizeof(*visited));
    visited[n_visited++] = strip_fragment(url);
    h = sample_add_hop(s);
    h->start_us = probe_now_us() - t0;
    origin = url_origin(url);
    rq.url = url;
    rq.method = method;
    rq.drop_credentials =
        !o->location_trusted &&
        (!origin || !first_origin || strcmp(origin, first_origin));
    rq.body = with_body ? o->body : NULL;
    rq.body_len = with_body ? o->body_len : 0;
    rq.body_file = with_body ? o->body_file : NULL;
    rq.body_file_size = o->body_file_size;
    rq.upload = o->upload;
    rq.json = o->body_json;
    free(origin);
    err[0] = '\0';
    cls = probe_hop_run(c, o, &rq, h, err, sizeof(err));
    if (cls != ERR_NONE) {
      if (s->n_hops > 1) {
        /* The hop that failed and where it went: not the URL given. */
        char msg[1400];
        char *shown = o->show_secrets ? xstrdup(url) : url_redact(url);

        snprintf(msg, sizeof(msg), "hop %u (%.300s): %s", s->n_hops, shown,
                 err);
        free(shown);
        fail(s, cls, msg);
      }
      else
        fail(s, cls, err);
      break;
    }
    if (!o->follow || !is_redirect(h->status) || !h->location)
      break;
    if (redirects >= o->max_redirs) {
      snprintf(err, sizeof(err),
               "too many redirects: more than %ld (--max-redirs)",
               o->max_redirs);
      fail(s, ERR_REDIRECT, err);
      break;
    }
    next = url_resolve(url, h->location, err, sizeof(err));
    if (!next) {
      char msg[1200];

      snprintf(msg, sizeof(msg), "bad Location from hop %u: %s", s->n_hops,
               err);
      fail(s, ERR_REDIRECT, msg);
      break;
    }
    if (!url_scheme_allowed(next)) {
      char *shown = o->show_secrets ? xstrdup(next) : url_redact(next);

      snprintf(err, sizeof(err),
               "refused redirect to '%.200s': only http and https are "
               "followed",
               shown);
      free(shown);
      free(next);
      fail(s, ERR_REDIRECT, err);
      break;
    }
    clean = strip_fragment(next);
    for (i = 0; i < n_visited; i++)
      if (!strcmp(visited[i], clean))
        break;
    if (i < n_visited) {
      char *shown = o->show_secrets ? xstrdup(clean) : url_redact(clean);

      snprintf(err, sizeof(err),
               "redirect loop: '%.300s' was already requested at hop %zu",
               shown, i + 1);
      free(shown);
      free(clean);
      free(next);
      fail(s, ERR_REDIRECT, err);
      break;
    }
    free(clean);
    next_request(o, h->status, &method, &with_body);
    free(url);
    url = next;
    redirects++;
  }
  for (i = 0; i < n_visited; i++)
    free(visited[i]);
  free(visited);
  free(url);
  free(first_origin);
}

static void run_on(struct client *c, const struct target *t, struct sample *s)
{
  int64_t t0;

  s->started_at_ms = probe_wall_ms();
  t0 = probe_now_us();
  walk(c, t, s, t0);
  s->total_us = probe_now_us() - t0;
  if (s->n_hops)
    s->status = s->hops[s->n_hops - 1].status;
  if (s->ok && t->opts->fail && s->status >= 400) {
    /* curl -f: the transfer worked, the answer is a failure. */
    char msg[1200];
    const struct hop *h = &s->hops[s->n_hops - 1];
    char *shown = t->opts->show_secrets ? xstrdup(h->url) : url_redact(h->url);

    snprintf(msg, sizeof(msg), "HTTP %d from '%.1000s' (--fail)",
             (int)s->status, shown);
    free(shown);
    fail(s, ERR_HTTP_STATUS, msg);
  }
  c->last_end_us = probe_now_us();
  sample_close_accounts(s);
}

/*
 * --prime: fetch the target's prime URLs on client c, unmeasured, each
 * followed through its redirects with the target's settings, so that the
 * measured request finds their connections open, their DNS answers cached
 * and their TLS sessions held.  Records the URLs in s (a pooled array)
 * and the first failure in s->prime_error, which is shown once per target
 * and never measured.  again, when not NULL, is a URL already fetched
 * unmeasured for this sample (resumed mode's fresh sessions), recorded
 * first.
 */
static void run_primes(struct probe *p, struct client *c, size_t target,
                       int fetch, const char *again, struct sample *s)
{
  const struct target *t = &p->plan->targets[target];
  size_t i, n = t->n_primes + (again ? 1 : 0), k = 0;
  struct options po;
  const char **v;

  if (!n)
    return;
  /* A prime is a GET with the target's headers and connection settings:
   * not its method, body or -f (a shallow copy, only read). */
  po = *t->opts;
  po.method_set = 0;
  po.head = 0;
  po.body = NULL;
  po.body_len = 0;
  po.body_file = NULL;
  po.upload = 0;
  po.body_json = 0;
  po.fail = 0;
  v = xcalloc(n, sizeof(*v));
  if (again)
    v[k++] = strpool_intern(again);
  for (i = 0; i < t->n_primes; i++) {
    struct target pt = *t;
    struct sample ps;

    v[k++] = strpool_intern(t->primes[i]);
    if (!fetch)
      continue;
    pt.url = xstrdup(t->primes[i]);
    pt.opts = &po;
    sample_init(&ps);
    run_on(c, &pt, &ps);
    free(pt.url);
    if (!ps.ok && !s->prime_error) {
      char *shown = t->opts->show_secrets ? xstrdup(t->primes[i])
                                          : url_redact(t->primes[i]);
      char *msg = xasprintf("prime '%s' failed: %s", shown,
                            ps.err_message ? ps.err_message : "error");

      s->prime_error = strpool_intern(msg);
      if (!p->prime_warned[target])
        msg_warn("%s: %s (the sample is measured all the same)", t->name, msg);
      p->prime_warned[target] = 1;
      free(msg);
      free(shown);
    }
    sample_release(&ps);
  }
  s->primed = strpool_intern_blob(v, n * sizeof(*v));
  s->n_primed = (uint32_t)n;
  free(v);
}

int probe_prime(struct probe *p, size_t target, enum sample_mode mode,
                char *err, size_t errlen)
{
  const struct target *t = &p->plan->targets[target];
  struct sample s;
  struct client c;
  int rc = 0;

  sample_init(&s);
  if (mode == MODE_WARM) {
    if (!p->warm[target].easy)
      client_init(&p->warm[target], t->opts, &p->warm_dns[target], NULL, 0);
    /* Warm: the primes are part of the priming, once. */
    run_primes(p, &p->warm[target], target, 1, NULL, &s);
    run_on(&p->warm[target], t, &s);
  }
  else if (mode == MODE_RESUMED) {
    struct resumed_base *b = &p->resumed[target];

    if (!b->sessions)
      b->sessions = probe_tls_sessions_new();
    /* Full handshakes that offer nothing and keep every session the
     * servers send. */
    client_init(&c, t->opts, &b->dns, b->sessions, 1);
    run_on(&c, t, &s);
    /* Only the sessions are kept; the connections close here. */
    client_release(&c);
  }
  /* A status of 400 or more under -f still left the connection and the
   * session the priming is for: not a failed priming. */
  if (!s.ok && s.err != ERR_HTTP_STATUS) {
    snprintf(err, errlen, "%s", s.err_message ? s.err_message : "failed");
    rc = -1;
  }
  else if (s.prime_error) {
    snprintf(err, errlen, "%s", s.prime_error);
    rc = -1;
  }
  sample_release(&s);
  return rc;
}

void probe_sample(struct probe *p, size_t target, enum sample_mode mode,
                  struct sample *out)
{
  const struct target *t = &p->plan->targets[target];
  struct client c;

  sample_init(out);
  out->target = (uint32_t)target;
  out->mode = mode;
  switch (mode) {
  case MODE_COLD:
    /* New everything: easy handle (no pool, no TLS sessions), and no DNS
     * answers; the c-ares channel is made per lookup. */
    client_init(&c, t->opts, NULL, NULL, 0);
    run_primes(p, &c, target, 1, NULL, out);
    run_on(&c, t, out);
    client_release(&c);
    break;
  case MODE_WARM:
    if (!p->warm[target].easy)
      client_init(&p->warm[target], t->opts, &p->warm_dns[target], NULL, 0);
    run_primes(p, &p->warm[target], target, 0, NULL, out);
    if (p->warm[target].last_end_us)
      out->idle_us = probe_now_us() - p->warm[target].last_end_us;
    run_on(&p->warm[target], t, out);
    break;
  case MODE_RESUMED: {
    struct resumed_base *b = &p->resumed[target];
    const char *again = NULL;
    char err[256];

    /* Every resumed sample offers an unused session to each host:port
     * it met before.  TLS 1.3 sessions are used once (RFC 8446 C.4, and
     * OpenSSL's client takes them out of use), and some servers (h2o,
     * lighttpd with OpenSSL) send no new ticket on a resumed
     * connection: then an unmeasured priming fetch gets fresh ones. */
    if (!b->sessions) {
      probe_prime(p, target, MODE_RESUMED, err, sizeof(err));
    }
    else if (probe_tls_sessions_missing(b->sessions)) {
      probe_prime(p, target, MODE_RESUMED, err, sizeof(err));
      again = t->url;
    }
    client_init(&c, t->opts, &b->dns, b->sessions, 0);
    run_primes(p, &c, target, 1, again, out);
    run_on(&c, t, out);
    client_release(&c);
    break;
  }
  case MODE_COUNT:
    BUG("sample mode out of range");
  }
}
