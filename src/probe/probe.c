/*
 * probe.c: samples.  Input: the plan and a (target, mode) pair.  Output:
 * one struct sample with every hop, its phases and its facts.  Owns the
 * long-lived clients of warm and resumed mode; each sample is a small
 * state machine on the engine: a resumed priming when sessions ran out,
 * the --prime fetches, the measured request (probe_walk.c walks its hops),
 * each step started when the one before ended.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "curl_api_int.h"
#include "probe.h"
#include "msg.h"
#include "engine_int.h"
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
  /* HTTP/3: the sessions are libcurl-gnutls's own (hopsplit's are
   * OpenSSL's), in a share of that library: a CURLSH*, or NULL. */
  void *h3_share;
};

/* The share of a resumed target on libcurl-gnutls (HTTP/3, or a leg of
 * --protocols beside h3), made on first use; NULL when the target runs on
 * the linked libcurl or the library is missing. */
static void *h3_share(struct resumed_base *b, const struct options *o)
{
  const struct curl_api *a;

  if (o->http != HTTP_PREF_3 && o->http != HTTP_PREF_3_ONLY && !o->gnutls_leg)
    return NULL;
  if (b->h3_share || !(a = curl_api_h3(NULL)))
    return b->h3_share;
  b->h3_share = a->share_init();
  if (b->h3_share)
    a->share_setopt(b->h3_share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  return b->h3_share;
}

struct probe {
  const struct plan *plan;
  /* The engine its clients run on (set by the first sample), and the one
   * it made itself for the synchronous calls. */
  struct engine *engine;
  struct engine *own_engine;
  struct client *warm;          /* one per target, easy == NULL until used */
  struct dns_cache *warm_dns;   /* one per target */
  struct resumed_base *resumed; /* one per target */
  char *prime_warned;           /* one per target: a failure was shown */
  uint64_t *group;              /* one per target: engine_group_key */
};

static int global_init(int h3)
{
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    return -1;
  /* The HTTP/3 library is loaded now, on one thread, if it is there. */
  if (h3)
    (void)curl_api_h3(NULL);
  if (probe_dns_global_init() < 0) {
    curl_global_cleanup();
    return -1;
  }
  return 0;
}

int probe_global_init(void)
{
  return global_init(1);
}

int probe_global_init_plan(const struct plan *p)
{
  size_t i;
  int h3 = 0;

  /* libcurl-gnutls and its GnuTLS stack cost a run that does not use
   * them about 4 million instructions (dlopen's relocations, GnuTLS's
   * global set-up), 2.5 ms of CPU here, before its first sample. */
  for (i = 0; i < p->n_targets && !h3; i++) {
    const struct options *o =
        p->targets[i].opts ? p->targets[i].opts : p->opts;

    h3 =
        o->http == HTTP_PREF_3 || o->http == HTTP_PREF_3_ONLY || o->gnutls_leg;
  }
  return global_init(h3);
}

void probe_global_cleanup(void)
{
  probe_tls_release();
  curl_api_h3_cleanup();
  probe_dns_global_cleanup();
  curl_global_cleanup();
}

static void versions(struct buf *b, int load)
{
  curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
  char h3[256];

  buf_printf(b, "libcurl/%s c-ares/%s %s", v->version, probe_dns_version(),
             probe_tls_version());
  if (load ? curl_api_h3_version(h3, sizeof(h3))
           : curl_api_h3_version_loaded(h3, sizeof(h3)))
    buf_printf(b, " %s", h3);
}

void probe_versions(struct buf *b)
{
  versions(b, 1);
}

void probe_versions_loaded(struct buf *b)
{
  versions(b, 0);
}

int probe_h3_check(const struct plan *p, char *err, size_t errlen)
{
  const char *why = NULL;
  size_t i;

  for (i = 0; i < p->n_targets; i++) {
    const struct options *o = p->targets[i].opts;

    if (o->http != HTTP_PREF_3 && o->http != HTTP_PREF_3_ONLY)
      continue;
    if (curl_api_h3(&why))
      return 0;
    snprintf(err, errlen,
             "%s (target %s): HTTP/3 needs libcurl-gnutls with HTTP/3: %s",
             o->http == HTTP_PREF_3 ? "--http3" : "--http3-only",
             p->targets[i].name, why ? why : "not available");
    return -1;
  }
  return 0;
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
  for (i = 0; i < ARRAY_SIZE(features); i++)
    if (v->features & features[i].bit)
      buf_printf(b, " %s", features[i].name);
  /* What the build and the library at hand can measure (libcurl 8.10:
   * CURLINFO_POSTTRANSFER_TIME_T). */
  {
    const char *why = NULL;
    char h3[256];

    if (curl_api_h3(&why))
      buf_printf(b, "\nHTTP/3: %s (loaded at run time)",
                 curl_api_h3_version(h3, sizeof(h3)));
    else
      buf_printf(b, "\nHTTP/3: not available: %s", why);
  }
  if (LIBCURL_VERSION_NUM >= 0x080a00 && v->version_num >= 0x080a00)
    buf_puts(b, "\nsend phase: measured (libcurl 8.10 or newer)");
  else
    buf_printf(b,
               "\nsend phase: not measured (needs libcurl 8.10; built "
               "against %s, running %s): sending is part of wait",
               LIBCURL_VERSION, v->version);
}

static void client_init(struct client *c, struct engine *e,
                        const struct options *o, struct dns_cache *dns,
                        struct tls_sessions *sessions, int collect_only)
{
  memset(c, 0, sizeof(*c));
  c->engine = e;
  buf_init(&c->hdr_raw, 0);
  /* The c-ares channel is opened at the client's first lookup
   * (probe_hops.c): a literal address or a pinned name needs none. */
  /* HTTP/3 runs on the GnuTLS libcurl; when it is missing the client
   * keeps the linked one and each hop fails saying why (probe_h3_check
   * stopped a run before). */
  c->api = &curl_api_linked;
  c->h3 = o->http == HTTP_PREF_3 ? 1 : o->http == HTTP_PREF_3_ONLY ? 2 : 0;
  if (o->gnutls_leg && !c->h3) {
    /* An h1 or h2 leg of --protocols beside h3: the same TLS library as
     * the h3 leg (without it the h3 leg stopped the run already). */
    const struct curl_api *a = curl_api_h3(NULL);

    if (a)
      c->api = a;
  }
  if (c->h3) {
    const char *why = NULL;
    const struct curl_api *a = curl_api_h3(&why);

    if (a)
      c->api = a;
    else
      c->h3_missing = why ? why : "libcurl-gnutls with HTTP/3 is missing";
  }
  c->easy = c->api->easy_init();
  if (!c->easy)
    msg_die(4, "cannot create a %s handle", c->api->name);
  /* A multi handle of its own: libcurl keeps the connection pool and the
   * TLS session cache in the multi, and a client shares neither. */
  c->multi = engine_multi_new(e, c->api, &c->job, probe_hop_transfer_done, c);
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

  /* The multi first: closing its connections may still call the socket
   * and TLS callbacks, which read the client. */
  if (c->multi) {
    if (c->easy)
      engine_multi_remove(c->multi, c->easy);
    engine_multi_free(c->multi);
  }
  if (c->easy)
    c->api->easy_cleanup(c->easy);
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
  buf_release(&c->hdr_raw);
  memset(c, 0, sizeof(*c));
}

struct probe *probe_alloc(const struct plan *plan)
{
  struct probe *p = xcalloc(1, sizeof(*p));
  size_t n = plan->n_targets, i;

  p->plan = plan;
  p->warm = xcalloc(n, sizeof(*p->warm));
  p->warm_dns = xcalloc(n, sizeof(*p->warm_dns));
  p->resumed = xcalloc(n, sizeof(*p->resumed));
  p->prime_warned = xcalloc(n ? n : 1, 1);
  p->group = xcalloc(n ? n : 1, sizeof(*p->group));
  for (i = 0; i < n; i++)
    p->group[i] = engine_group_key(plan->targets[i].url);
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
    if (p->resumed[i].h3_share)
      curl_api_h3(NULL)->share_cleanup(p->resumed[i].h3_share);
    dns_cache_release(&p->resumed[i].dns);
  }
  free(p->warm);
  free(p->warm_dns);
  free(p->resumed);
  free(p->prime_warned);
  free(p->group);
  engine_free(p->own_engine);
  free(p);
}

/* The steps of a sample (or of a priming), in order. */
enum job_step {
  JS_START,
  JS_RPRIMED, /* resumed: the unmeasured fetch of fresh sessions ended */
  JS_CLIENT,  /* the client of the mode */
  JS_PRIME,   /* the next --prime URL */
  JS_PRIMED,  /* a --prime fetch ended */
  JS_MEASURE, /* the measured request */
  JS_END      /* it ended */
};

struct sample_job {
  struct probe *p;
  struct engine *e;
  size_t target;
  enum sample_mode mode;
  int64_t deadline;
  int priming; /* probe_prime: nothing is measured */
  probe_done_cb cb;
  probe_prime_done_fn pcb;
  void *ud;
  enum job_step st;
  struct engine_job ej;
  struct engine_job *self; /* &ej: the owner of its own tasks */
  /* The arena its strings go to (the thread's current one when it was
   * made), between arena_sample_begin and arena_sample_end. */
  struct arena *arena;
  struct sample s;  /* the measured sample (priming: the priming's) */
  struct sample ps; /* a prime's or the resumed priming's */
  struct client own, tmp;
  struct client *c;
  int fetch;         /* the --prime URLs are fetched (else only listed) */
  const char *again; /* resumed: the URL fetched for fresh sessions */
  size_t prime_i;
  const char **primed;
  size_t n_primed;
  struct options po; /* a prime's settings: a shallow copy, read only */
  struct target pt;
  struct walk w;
  struct engine_task task;
};

static void job_next(void *ud);

/* A prime fetch ended: its first failure is kept and shown once. */
static void prime_result(struct sample_job *j, const char *url)
{
  const struct target *t = &j->p->plan->targets[j->target];
  struct sample *s = &j->s;
  struct sample *ps = &j->ps;

  if (!ps->ok && !sample_rare(s)->prime_error) {
    char *shown = t->opts->show_secrets ? xstrdup(url) : url_redact(url);
    char *msg = xasprintf(
        "prime '%s' failed: %s", shown,
        sample_rare(ps)->err_message ? sample_rare(ps)->err_message : "error");

    sample_set_prime_error(s, strpool_intern(msg));
    if (!j->p->prime_warned[j->target])
      msg_warn("%s: %s (the sample is measured all the same)", t->name, msg);
    j->p->prime_warned[j->target] = 1;
    free(msg);
    free(shown);
  }
}

/* Run the walk of t into s on c; job_next goes on when it ends. */
static void job_walk(struct sample_job *j, struct client *c,
                     const struct target *t, struct sample *s,
                     enum job_step then)
{
  j->st = then;
  probe_walk_start(&j->w, c, t, s, job_next, j);
}

static void job_end(struct sample_job *j)
{
  struct engine *e = j->e;

  if (!j->priming) {
    j->s.interference_us = engine_job_end(e, &j->ej);
    j->s.late_us = j->ej.late_us;
    j->s.own_us = j->ej.own_us;
    j->s.runq_us = j->ej.runq_us;
    j->s.lock_us = j->ej.lock_us;
    j->s.output_us = j->ej.output_us;
    j->s.output_bytes = j->ej.output_bytes;
    j->s.interfered =
        (uint8_t)sample_is_interfered(j->s.interference_us, j->s.total_us);
  }
  if (j->c)
    j->c->job = NULL;
  arena_sample_end(j->arena);
  if (j->c == &j->own)
    client_release(&j->own);
  if (j->priming) {
    char err[512];
    int rc = 0;

    err[0] = '\0';
    /* A status of 400 or more under -f still left the connection and the
     * session the priming is for: not a failed priming. */
    if (!j->s.ok && j->s.err != ERR_HTTP_STATUS) {
      snprintf(err, sizeof(err), "%s",
               sample_rare(&j->s)->err_message
                   ? sample_rare(&j->s)->err_message
                   : "failed");
      rc = -1;
    }
    else if (sample_rare(&j->s)->prime_error) {
      snprintf(err, sizeof(err), "%s", sample_rare(&j->s)->prime_error);
      rc = -1;
    }
    sample_release(&j->s);
    j->pcb(j->ud, rc, err);
  }
  else
    j->cb(&j->s, j->ud);
  free(j);
  engine_unhold(e);
}

static void job_next(void *ud)
{
  struct sample_job *j = ud;
  struct probe *p = j->p;
  const struct target *t = &p->plan->targets[j->target];
  struct resumed_base *b = &p->resumed[j->target];

  for (;;) {
    switch (j->st) {
    case JS_START:
      if (j->mode == MODE_RESUMED) {
        /* Every resumed sample offers an unused session to each
         * host:port it met before.  TLS 1.3 sessions are used once (RFC
         * 8446 C.4, and OpenSSL's client takes them out of use), and some
         * servers (h2o, lighttpd with OpenSSL) send no new ticket on a
         * resumed connection: then an unmeasured priming fetch gets fresh
         * ones, with full handshakes that offer nothing and keep every
         * session the servers send. */
        int fresh = !b->sessions;

        if (j->priming || fresh || probe_tls_sessions_missing(b->sessions)) {
          if (!b->sessions)
            b->sessions = probe_tls_sessions_new();
          if (!j->priming && !fresh)
            j->again = t->url;
          client_init(&j->tmp, j->e, t->opts, &b->dns, b->sessions, 1);
          j->tmp.share = h3_share(b, t->opts);
          j->tmp.deadline_us = j->deadline;
          sample_init(&j->ps);
          job_walk(j, &j->tmp, t, j->priming ? &j->s : &j->ps, JS_RPRIMED);
          return;
        }
      }
      j->st = JS_CLIENT;
      break;
    case JS_RPRIMED:
      /* Only the sessions are kept; the connections close here. */
      client_release(&j->tmp);
      sample_release(&j->ps);
      if (j->priming) {
        j->st = JS_END;
        break;
      }
      j->st = JS_CLIENT;
      break;
    case JS_CLIENT:
      switch (j->mode) {
      case MODE_COLD:
        /* New everything: multi and easy handle (no pool, no TLS
         * sessions), no DNS answers, a new c-ares channel. */
        client_init(&j->own, j->e, t->opts, NULL, NULL, 0);
        j->c = &j->own;
        j->fetch = 1;
        break;
      case MODE_WARM:
        if (!p->warm[j->target].easy)
          client_init(&p->warm[j->target], j->e, t->opts,
                      &p->warm_dns[j->target], NULL, 0);
        j->c = &p->warm[j->target];
        /* Warm: the primes are part of the priming, once. */
        j->fetch = j->priming;
        break;
      case MODE_RESUMED:
        client_init(&j->own, j->e, t->opts, &b->dns, b->sessions, 0);
        j->own.share = h3_share(b, t->opts);
        j->c = &j->own;
        j->fetch = 1;
        break;
      case MODE_COUNT:
        BUG("sample mode out of range");
      }
      j->c->job = &j->ej;
      j->c->deadline_us = j->deadline;
      /* A prime is a GET with the target's headers and connection
       * settings: not its method, body or -f. */
      j->po = *t->opts;
      j->po.method_set = 0;
      j->po.head = 0;
      j->po.body = NULL;
      j->po.body_len = 0;
      j->po.body_file = NULL;
      j->po.upload = 0;
      j->po.body_json = 0;
      j->po.fail = 0;
      j->n_primed = 0;
      if (t->n_primes + (j->again ? 1 : 0)) {
        j->primed =
            xcalloc(t->n_primes + (j->again ? 1 : 0), sizeof(*j->primed));
        if (j->again)
          j->primed[j->n_primed++] = strpool_intern(j->again);
      }
      j->st = JS_PRIME;
      break;
    case JS_PRIME:
      if (j->prime_i < t->n_primes) {
        const char *url = t->primes[j->prime_i++];

        j->primed[j->n_primed++] = strpool_intern(url);
        if (!j->fetch)
          break;
        j->pt = *t;
        j->pt.url = xstrdup(url);
        j->pt.opts = &j->po;
        sample_init(&j->ps);
        job_walk(j, j->c, &j->pt, &j->ps, JS_PRIMED);
        return;
      }
      if (j->n_primed) {
        sample_set_primed(
            &j->s,
            strpool_intern_blob(j->primed, j->n_primed * sizeof(*j->primed)),
            (uint32_t)j->n_primed);
      }
      free(j->primed);
      j->primed = NULL;
      j->st = JS_MEASURE;
      break;
    case JS_PRIMED:
      prime_result(j, j->pt.url);
      free(j->pt.url);
      j->pt.url = NULL;
      sample_release(&j->ps);
      j->st = JS_PRIME;
      break;
    case JS_MEASURE:
      if (!j->priming) {
        if (j->mode == MODE_WARM && j->c->last_end_us)
          j->s.idle_us = probe_now_us() - j->c->last_end_us;
        engine_job_begin(j->e, &j->ej);
      }
      job_walk(j, j->c, t, &j->s, JS_END);
      return;
    case JS_END:
      job_end(j);
      return;
    }
  }
}

/* Bind the probe to e: its long-lived clients live on one engine. */
static void use_engine(struct probe *p, struct engine *e)
{
  if (!p->engine)
    p->engine = e;
  else if (p->engine != e)
    BUG("a probe runs on one engine");
}

static struct sample_job *job_new(struct probe *p, struct engine *e,
                                  size_t target, enum sample_mode mode,
                                  int64_t deadline_us)
{
  struct sample_job *j = xcalloc(1, sizeof(*j));

  use_engine(p, e);
  j->p = p;
  j->e = e;
  j->target = target;
  j->mode = mode;
  j->deadline = deadline_us;
  sample_init(&j->s);
  sample_init(&j->ps);
  j->s.target = (uint32_t)target;
  j->s.mode = (uint8_t)mode;
  j->self = &j->ej;
  /* Whatever would grow in the arena grows here, before the sample and
   * outside libcurl's callbacks (arena.h). */
  j->arena = strpool_current();
  arena_sample_begin(j->arena);
  /* Its handlers store there, whichever arena the loop's thread had. */
  j->ej.arena = j->arena;
  /* Its ready sockets take turns with other origins' (engine.c). */
  j->ej.group = p->group[target];
  engine_hold(e);
  /* From the loop, so that the caller's stack is left first. */
  engine_defer(e, &j->task, job_next, j, &j->self);
  return j;
}

void probe_start(struct probe *p, struct engine *e, size_t target,
                 enum sample_mode mode, int64_t deadline_us, probe_done_cb cb,
                 void *ud)
{
  struct sample_job *j = job_new(p, e, target, mode, deadline_us);

  j->cb = cb;
  j->ud = ud;
}

void probe_prime_start(struct probe *p, struct engine *e, size_t target,
                       enum sample_mode mode, int64_t deadline_us,
                       probe_prime_done_fn done, void *ud)
{
  struct sample_job *j;

  if (mode == MODE_COLD) {
    done(ud, 0, "");
    return;
  }
  j = job_new(p, e, target, mode, deadline_us);
  j->priming = 1;
  j->pcb = done;
  j->ud = ud;
}

/* The synchronous calls run the probe's own engine until they end; NULL
 * (err says why) when it cannot be made: returned, never an exit. */
static struct engine *own_engine(struct probe *p, char *err, size_t errlen)
{
  if (p->engine)
    return p->engine;
  p->own_engine = engine_alloc(err, errlen);
  return p->own_engine;
}

struct sync_prime {
  int done, rc;
  char *err;
  size_t errlen;
};

static void on_sync_prime(void *ud, int rc, const char *err)
{
  struct sync_prime *sp = ud;

  sp->done = 1;
  sp->rc = rc;
  snprintf(sp->err, sp->errlen, "%s", err);
}

int probe_prime(struct probe *p, size_t target, enum sample_mode mode,
                char *err, size_t errlen)
{
  struct engine *e = own_engine(p, err, errlen);
  struct sync_prime sp;

  if (!e)
    return -1;
  sp.done = 0;
  sp.rc = 0;
  sp.err = err;
  sp.errlen = errlen;
  probe_prime_start(p, e, target, mode, probe_deadline_get(), on_sync_prime,
                    &sp);
  while (!sp.done)
    engine_step(e, -1);
  return sp.rc;
}

struct sync_sample {
  int done;
  struct sample *out;
};

static void on_sync_sample(struct sample *s, void *ud)
{
  struct sync_sample *ss = ud;

  *ss->out = *s;
  sample_init(s);
  ss->done = 1;
}

void probe_sample(struct probe *p, size_t target, enum sample_mode mode,
                  struct sample *out)
{
  char err[256];
  struct engine *e = own_engine(p, err, sizeof(err));
  struct sync_sample ss;

  ss.done = 0;
  ss.out = out;
  sample_init(out);
  if (!e) {
    /* A sample that could not be measured: data, as any failure. */
    out->target = (uint32_t)target;
    out->mode = (uint8_t)mode;
    out->err = ERR_CONNECT;
    sample_set_err_message(out, strpool_intern(err));
    return;
  }
  probe_start(p, e, target, mode, probe_deadline_get(), on_sync_sample, &ss);
  while (!ss.done)
    engine_step(e, -1);
}
