/*
 * probe_tls.c: TLS facts read from the live OpenSSL connection of a
 * transfer (protocol version, cipher, ALPN, whether the session was
 * resumed).  Input: the SSL* libcurl hands out through
 * CURLINFO_TLS_SSL_PTR, as void*.  Output: plain strings in struct
 * hop_tls.  No OpenSSL type leaves this file.
 */
#include <curl/curl.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "probe.h"
#include "probe_int.h"
#include "stall.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Sessions of resumed mode, kept by hopsplit rather than by libcurl.
 * libcurl 7.88 ends HTTP/2 connections without a TLS
 * close_notify, and OpenSSL then marks the connection's session as not
 * resumable (SSL_free -> ssl_clear_bad_session), so libcurl never offers
 * it; and OpenSSL's TLS 1.3 client takes a session out of use once it has
 * resumed with it.  So every session the server sends is copied
 * (SSL_SESSION_dup) in OpenSSL's new-session callback into a queue per
 * "host:port", and each new connection of a resumed sample takes one
 * unused copy, set on the SSL when its handshake starts (info callback):
 * each session is offered once, as RFC 8446 C.4 asks of clients.
 * Checked again with libcurl 8.14.1 and its own session cache: a second
 * and third fresh connection of one easy handle to nginx 1.22 (TLS 1.3,
 * HTTP/2 and HTTP/1.1 alike) resumed nothing, so this stays.
 */
#define TLS_KEYS_MAX  32
#define TLS_QUEUE_MAX 8

struct tls_sessions {
  struct {
    char *key;
    SSL_SESSION *q[TLS_QUEUE_MAX];
    size_t n;
  } keys[TLS_KEYS_MAX];
  size_t n_keys;
};

struct tls_sessions *probe_tls_sessions_new(void)
{
  return xcalloc(1, sizeof(struct tls_sessions));
}

void probe_tls_sessions_free(struct tls_sessions *s)
{
  size_t i, k;

  if (!s)
    return;
  for (i = 0; i < s->n_keys; i++) {
    for (k = 0; k < s->keys[i].n; k++)
      SSL_SESSION_free(s->keys[i].q[k]);
    free(s->keys[i].key);
  }
  free(s);
}

/* The queue of key, made when make is set and there is room. */
static size_t key_index(struct tls_sessions *s, const char *key, int make)
{
  size_t i;

  for (i = 0; i < s->n_keys; i++)
    if (!strcmp(s->keys[i].key, key))
      return i;
  if (!make || s->n_keys == TLS_KEYS_MAX)
    return SIZE_MAX;
  s->keys[s->n_keys].key = xstrdup(key);
  s->keys[s->n_keys].n = 0;
  return s->n_keys++;
}

void probe_tls_sessions_note(struct tls_sessions *s, const char *key)
{
  if (s)
    (void)key_index(s, key, 1);
}

int probe_tls_sessions_missing(const struct tls_sessions *s)
{
  size_t i;

  if (!s)
    return 0;
  for (i = 0; i < s->n_keys; i++)
    if (!s->keys[i].n)
      return 1;
  return 0;
}

/* Takes the reference to sess; the oldest session goes when full. */
static void sessions_push(struct tls_sessions *s, const char *key,
                          SSL_SESSION *sess)
{
  size_t i = key_index(s, key, 1);

  if (i == SIZE_MAX) {
    SSL_SESSION_free(sess);
    return;
  }
  if (s->keys[i].n == TLS_QUEUE_MAX) {
    SSL_SESSION_free(s->keys[i].q[0]);
    memmove(&s->keys[i].q[0], &s->keys[i].q[1],
            (TLS_QUEUE_MAX - 1) * sizeof(s->keys[i].q[0]));
    s->keys[i].n--;
  }
  s->keys[i].q[s->keys[i].n++] = sess;
}

/* The newest unused session of key (the caller owns it), or NULL. */
static SSL_SESSION *sessions_pop(struct tls_sessions *s, const char *key)
{
  size_t i = key_index(s, key, 0);

  while (i != SIZE_MAX && s->keys[i].n) {
    SSL_SESSION *sess = s->keys[i].q[--s->keys[i].n];

    if (SSL_SESSION_is_resumable(sess))
      return sess;
    SSL_SESSION_free(sess);
  }
  return NULL;
}

static int hook_index = -1;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;

/* Once per process, whichever engine thread (hopsplit serve runs several)
 * sets up a context first. */
static void hook_index_init(void)
{
  hook_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

static struct tls_hook *hook_of(const SSL *ssl)
{
  return hook_index < 0
             ? NULL
             : SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), hook_index);
}

/* OpenSSL's new-session callback: a copy of every session the server
 * sends goes to the queue of this connection's host:port. */
static int on_new_session(SSL *ssl, SSL_SESSION *sess)
{
  struct tls_hook *h = hook_of(ssl);
  SSL_SESSION *copy;

  if (!h)
    return 0;
  h->received++;
  if (h->sessions && (copy = SSL_SESSION_dup(sess)) != NULL)
    sessions_push(h->sessions, h->key, copy);
  return 0; /* OpenSSL keeps its own reference */
}

/* OpenSSL's info callback: when the handshake starts, before the
 * ClientHello is written, offer an unused session of host:port (resumed
 * mode), and note whether the ClientHello offers one. */
static void on_info(const SSL *cssl, int where, int ret)
{
  /* The callback gets a const SSL; SSL_set_session needs it writable,
   * and the SSL is libcurl's live connection, writable indeed. */
  SSL *ssl = (SSL *)(uintptr_t)cssl;
  struct tls_hook *h = hook_of(ssl);
  SSL_SESSION *cur;

  (void)ret;
  if (!h || !(where & SSL_CB_HANDSHAKE_START) || h->started)
    return;
  h->started = 1;
  if (h->sessions && !h->collect_only) {
    SSL_SESSION *sess = sessions_pop(h->sessions, h->key);

    if (sess && SSL_set_session(ssl, sess) == 1)
      h->offered_session = sess;
    else if (sess)
      SSL_SESSION_free(sess);
    if (!sess)
      snprintf(h->why, sizeof(h->why),
               "no unused session of %s: the last connection to it "
               "(unmeasured priming) received none from the server",
               h->key);
  }
  cur = SSL_get_session(ssl);
  h->offered = cur && SSL_SESSION_is_resumable(cur) ? 1 : 0;
  if (!h->offered && !h->why[0] && h->collect_only)
    snprintf(h->why, sizeof(h->why), "priming connection");
}

int probe_tls_setup_ctx(void *ssl_ctx, struct tls_hook *h)
{
  SSL_CTX *ctx = ssl_ctx;

  if (!ctx)
    return -1;
  if (h->store && probe_tls_use_store(ctx, h->store) < 0)
    return -1;
  (void)pthread_once(&hook_once, hook_index_init);
  if (hook_index < 0 || SSL_CTX_set_ex_data(ctx, hook_index, h) != 1)
    return -1;
  SSL_CTX_set_info_callback(ctx, on_info);
  if (h->sessions) {
    /* The new-session callback needs the client cache mode; the
     * internal cache stays off, as libcurl has it. */
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT |
                                            SSL_SESS_CACHE_NO_INTERNAL);
    SSL_CTX_sess_set_new_cb(ctx, on_new_session);
  }
  return 0;
}

void probe_tls_hook_done(struct tls_hook *h, int resumed, const char *version)
{
  SSL_SESSION *sess = h->offered_session;

  h->offered_session = NULL;
  if (!sess)
    return;
  /* A TLS 1.2 session may be resumed again (RFC 5246 leaves it to the
   * client, and clients do); a TLS 1.3 one is used once. */
  if (h->sessions && resumed && !h->received && version &&
      strcmp(version, "TLSv1.3") && SSL_SESSION_is_resumable(sess)) {
    /* A copy: the connection's own object is marked not resumable if
     * it ends without close_notify. */
    SSL_SESSION *copy = SSL_SESSION_dup(sess);

    if (copy)
      sessions_push(h->sessions, h->key, copy);
  }
  SSL_SESSION_free(sess);
}

void probe_tls_hook_free(struct tls_hook *h)
{
  if (!h)
    return;
  SSL_SESSION_free(h->offered_session);
  free(h);
}

/* The earliest notAfter of the n certificates of sk, in seconds since
 * the epoch; 0 when there is none. */
static int64_t earliest_expiry(STACK_OF(X509) * sk)
{
  ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
  int64_t best = 0;
  int i;

  for (i = 0; epoch && sk && i < sk_X509_num(sk); i++) {
    const ASN1_TIME *t = X509_get0_notAfter(sk_X509_value(sk, i));
    int days = 0, secs = 0;
    int64_t at;

    if (!t || ASN1_TIME_diff(&days, &secs, epoch, t) != 1)
      continue;
    at = (int64_t)days * 86400 + secs;
    if (!best || at < best)
      best = at;
  }
  ASN1_TIME_free(epoch);
  return best;
}

void probe_tls_read(void *ptr, struct hop_tls *out, struct tls_grab *grab)
{
  SSL *ssl = ptr;
  const unsigned char *alpn = NULL;
  unsigned int alpn_len = 0;
  const char *s;
  struct tls_hook *h;
  struct tls_grab now = {NULL, NULL, NULL};
  STACK_OF(X509) * sk;

  if (!ssl)
    return;
  h = hook_of(ssl);
  if (h && h->started)
    out->offered = h->offered ? 1 : 0;
  /* Read inside the transfer (the first response byte): OpenSSL's own
   * strings, static for the process (SSL_get_version's literals, the
   * cipher table's names), are kept as they are, and the usual ALPN
   * protocols are literals: no interning there (hop_tls: pooled or
   * static). */
  s = SSL_get_version(ssl);
  if (s && !out->version)
    out->version = s;
  s = SSL_get_cipher_name(ssl);
  if (s && !out->cipher)
    out->cipher = s;
  SSL_get0_alpn_selected(ssl, &alpn, &alpn_len);
  if (alpn && alpn_len && !out->alpn) {
    if (alpn_len == 2 && !memcmp(alpn, "h2", 2))
      out->alpn = "h2";
    else if (alpn_len == 8 && !memcmp(alpn, "http/1.1", 8))
      out->alpn = "http/1.1";
    else
      out->alpn = strpool_intern_n((const char *)alpn, alpn_len);
  }
  out->resumed = SSL_session_reused(ssl) ? 1 : 0;
  /* The certificates are held, not read: a reference each (an atomic
   * increment), the reading after the sample's total. */
  if (!grab)
    grab = &now;
  if (!grab->leaf && !out->leaf_sha256)
    grab->leaf = SSL_get1_peer_certificate(ssl);
  sk = SSL_get_peer_cert_chain(ssl);
  if (!grab->chain && !out->cert_expiry && sk)
    grab->chain = X509_chain_up_ref(sk);
  sk = SSL_get0_verified_chain(ssl);
  if (!grab->verified && !out->chain_expiry && sk &&
      SSL_get_verify_result(ssl) == X509_V_OK &&
      SSL_get_verify_mode(ssl) != SSL_VERIFY_NONE)
    grab->verified = X509_chain_up_ref(sk);
  if (grab == &now)
    probe_tls_settle(&now, out);
}

/*
 * What was last read of certificates on this thread, holding a reference
 * to each certificate read.  A warm sample's hops come over the connection
 * of the sample before, with the same X509 objects: their facts are taken
 * from here instead of hashing and formatting the same certificates again
 * (about 100,000 instructions a hop, a quarter of a warm sample's: callgrind
 * of 220 warm samples).  A held object is not freed, so its address is not
 * reused: the same pointers are the same certificates.
 */
struct tls_settled {
  X509 *leaf;
  STACK_OF(X509) * chain, *verified;
  int64_t cert_expiry, chain_expiry;
  char *leaf_facts[5]; /* sha256, subject, issuer, dns_names, serial */
};

static pthread_key_t settled_key;
static pthread_once_t settled_once = PTHREAD_ONCE_INIT;
static int settled_ok; /* the key was made: else nothing is kept */

static void settled_drop_leaf(struct tls_settled *c)
{
  size_t i;

  X509_free(c->leaf);
  c->leaf = NULL;
  for (i = 0; i < 5; i++) {
    free(c->leaf_facts[i]);
    c->leaf_facts[i] = NULL;
  }
}

static void settled_free(void *ptr)
{
  struct tls_settled *c = ptr;

  settled_drop_leaf(c);
  if (c->chain)
    sk_X509_pop_free(c->chain, X509_free);
  if (c->verified)
    sk_X509_pop_free(c->verified, X509_free);
  free(c);
}

static void settled_init(void)
{
  settled_ok = !pthread_key_create(&settled_key, settled_free);
}

static struct tls_settled *settled_here(void)
{
  struct tls_settled *c;

  pthread_once(&settled_once, settled_init);
  if (!settled_ok)
    return NULL;
  c = pthread_getspecific(settled_key);
  if (!c) {
    c = xcalloc(1, sizeof(*c));
    if (pthread_setspecific(settled_key, c)) {
      free(c);
      return NULL;
    }
  }
  return c;
}

static int same_certs(STACK_OF(X509) * a, STACK_OF(X509) * b)
{
  int i, n = a ? sk_X509_num(a) : -1;

  if (!a || !b || n != sk_X509_num(b))
    return 0;
  for (i = 0; i < n; i++)
    if (sk_X509_value(a, i) != sk_X509_value(b, i))
      return 0;
  return 1;
}

/* The earliest expiry of sk, from *held when it holds the same
 * certificates, else read and held there in place of the ones before. */
static int64_t settled_expiry(STACK_OF(X509) * sk, STACK_OF(X509) * *held,
                              int64_t *expiry)
{
  if (same_certs(sk, *held))
    return *expiry;
  if (*held)
    sk_X509_pop_free(*held, X509_free);
  *held = X509_chain_up_ref(sk);
  *expiry = earliest_expiry(sk);
  return *expiry;
}

static const char *pooled(const char *s)
{
  return s ? strpool_intern(s) : NULL;
}

static void settled_leaf(struct tls_settled *c, X509 *leaf,
                         struct hop_tls *out)
{
  if (c->leaf != leaf) {
    struct hop_tls read;
    const char *got[5];
    size_t i;

    settled_drop_leaf(c);
    memset(&read, 0, sizeof(read));
    probe_cert_read(leaf, &read);
    got[0] = read.leaf_sha256;
    got[1] = read.leaf_subject;
    got[2] = read.leaf_issuer;
    got[3] = read.leaf_dns_names;
    got[4] = read.leaf_serial;
    for (i = 0; i < 5; i++)
      c->leaf_facts[i] = got[i] ? xstrdup(got[i]) : NULL;
    if (X509_up_ref(leaf) == 1)
      c->leaf = leaf;
  }
  /* As probe_cert_read: all of them, or none when the digest failed. */
  if (!c->leaf_facts[0])
    return;
  out->leaf_sha256 = pooled(c->leaf_facts[0]);
  out->leaf_subject = pooled(c->leaf_facts[1]);
  out->leaf_issuer = pooled(c->leaf_facts[2]);
  out->leaf_dns_names = pooled(c->leaf_facts[3]);
  out->leaf_serial = pooled(c->leaf_facts[4]);
}

void probe_tls_settle(struct tls_grab *g, struct hop_tls *out)
{
  struct tls_settled *c = settled_here();

  if (!c) {
    if (!out->cert_expiry && g->chain)
      out->cert_expiry = earliest_expiry(g->chain);
    if (!out->chain_expiry && g->verified)
      out->chain_expiry = earliest_expiry(g->verified);
    probe_cert_read(g->leaf, out);
  }
  else {
    if (!out->cert_expiry && g->chain)
      out->cert_expiry = settled_expiry(g->chain, &c->chain, &c->cert_expiry);
    if (!out->chain_expiry && g->verified)
      out->chain_expiry =
          settled_expiry(g->verified, &c->verified, &c->chain_expiry);
    if (g->leaf && !out->leaf_sha256)
      settled_leaf(c, g->leaf, out);
  }
  probe_tls_grab_release(g);
}

void probe_tls_grab_release(struct tls_grab *g)
{
  STACK_OF(X509) *chain = g->chain, *verified = g->verified;

  X509_free(g->leaf);
  if (chain)
    sk_X509_pop_free(chain, X509_free);
  if (verified)
    sk_X509_pop_free(verified, X509_free);
  g->leaf = g->chain = g->verified = NULL;
}

const char *probe_tls_version(void)
{
  return OpenSSL_version(OPENSSL_VERSION);
}

/* A throw-away P-256 key's self-signed certificate for WARMUP_HOST. */
#define WARMUP_HOST "warmup.hopsplit.invalid"
static X509 *warmup_cert(EVP_PKEY *key)
{
  X509 *crt = X509_new();
  X509_NAME *name;

  if (!crt)
    return NULL;
  name = X509_get_subject_name(crt);
  if (X509_set_version(crt, 2) != 1 ||
      ASN1_INTEGER_set(X509_get_serialNumber(crt), 1) != 1 ||
      !X509_gmtime_adj(X509_getm_notBefore(crt), -60) ||
      !X509_gmtime_adj(X509_getm_notAfter(crt), 3600) ||
      X509_set_pubkey(crt, key) != 1 ||
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                 (const unsigned char *)WARMUP_HOST, -1, -1,
                                 0) != 1 ||
      X509_set_issuer_name(crt, name) != 1 ||
      X509_sign(crt, key, EVP_sha256()) <= 0) {
    X509_free(crt);
    return NULL;
  }
  return crt;
}

/* One TLS handshake in memory, a client and a server over a BIO pair,
 * with the client verifying the server's certificate and host name: the
 * first handshake of a process fetches and initialises its algorithms
 * (key exchange, signatures, HKDF, AEAD, certificate decoding and
 * verification), which cost about 1 ms of the first cold sample's tls. */
static void warmup_handshake(void)
{
  EVP_PKEY *key = EVP_EC_gen("P-256");
  X509 *crt = key ? warmup_cert(key) : NULL;
  SSL_CTX *cctx = SSL_CTX_new(TLS_client_method());
  SSL_CTX *sctx = SSL_CTX_new(TLS_server_method());
  X509_STORE *trust = X509_STORE_new();
  SSL *c = NULL, *s = NULL;
  BIO *bc = NULL, *bs = NULL;
  char host[] = WARMUP_HOST; /* SSL_set_tlsext_host_name casts to void * */
  int i, c_done = 0, s_done = 0;

  if (!crt || !cctx || !sctx || !trust || X509_STORE_add_cert(trust, crt) != 1)
    goto out;
  SSL_CTX_set_cert_store(cctx, trust);
  trust = NULL;
  SSL_CTX_set_verify(cctx, SSL_VERIFY_PEER, NULL);
  if (SSL_CTX_use_certificate(sctx, crt) != 1 ||
      SSL_CTX_use_PrivateKey(sctx, key) != 1)
    goto out;
  c = SSL_new(cctx);
  s = SSL_new(sctx);
  if (!c || !s || BIO_new_bio_pair(&bc, 0, &bs, 0) != 1)
    goto out;
  SSL_set_bio(c, bc, bc);
  SSL_set_bio(s, bs, bs);
  SSL_set_connect_state(c);
  SSL_set_accept_state(s);
  if (SSL_set_tlsext_host_name(c, host) != 1 ||
      SSL_set1_host(c, WARMUP_HOST) != 1)
    goto out;
  /* Each call takes its side one flight on; TLS 1.3 is done in two
   * passes, 16 bound it whatever happens. */
  for (i = 0; i < 16 && !(c_done && s_done); i++) {
    if (!c_done)
      c_done = SSL_do_handshake(c) == 1;
    if (!s_done)
      s_done = SSL_do_handshake(s) == 1;
  }
out:
  if (!(c_done && s_done))
    msg_info("TLS warm-up handshake did not complete; the first cold "
             "sample's tls may include OpenSSL's one-time set-up");
  /* Nothing of this may reach libcurl's error messages, which read this
   * thread's OpenSSL error queue. */
  ERR_clear_error();
  SSL_free(c); /* frees its end of the BIO pair */
  SSL_free(s);
  X509_STORE_free(trust);
  SSL_CTX_free(cctx);
  SSL_CTX_free(sctx);
  X509_free(crt);
  EVP_PKEY_free(key);
}

void probe_tls_warmup(const struct plan *p)
{
  /* OpenSSL's one-time costs are the process's: one handshake pays them
   * for every later run (a profile batch, hopsplit serve's probes). */
  static atomic_flag handshaken = ATOMIC_FLAG_INIT;
  size_t i;

  /* The trust stores are parsed here, before the first sample's clock
   * starts (with Debian's bundle that was 30 to 45 ms in the first cold
   * sample's "other"); a profile's targets may each name their own.  Then
   * a handshake in memory. */
  for (i = 0; i < p->n_targets; i++) {
    const struct options *o =
        p->targets[i].opts ? p->targets[i].opts : p->opts;

    if (!o->insecure)
      probe_shared_store(o);
  }
  /* A plan without cold samples primes every warm and resumed client
   * before round 1 (runner.c prime_next): those unmeasured handshakes pay
   * the one-time costs, so the one in memory would only add to the
   * process's (18 % of the instructions of 220 warm samples). */
  for (i = 0; i < p->n_items; i++)
    if (p->items[i].mode == MODE_COLD)
      break;
  if (i < p->n_items && !atomic_flag_test_and_set(&handshaken))
    warmup_handshake();
}

/*
 * Trust stores, parsed once per (cafile, capath) and shared by every
 * connection of the run.  libcurl 7.88 parses the CA bundle again for each
 * new SSL_CTX, that is for every new client, and counts it in the TLS
 * handshake: with Debian's 140-certificate bundle that is about 20 ms of
 * local CPU in every cold sample's tls phase.  libcurl 8 caches the store,
 * but per multi handle (CURLOPT_CA_CACHE_TIMEOUT), and cold clients share
 * no multi handle, so this stays too.  A browser or app has its store
 * loaded already, so the probe hands libcurl a loaded one.
 */
#define TLS_STORES_MAX 8

static struct {
  char *cafile;
  char *capath;
  X509_STORE *store;
  STACK_OF(X509) * trusted; /* its certificates, when it is only a file's */
} stores[TLS_STORES_MAX];
/* The X509_STORE ex_data index under which a store keeps its "trusted"
 * stack (-1 until the first store is loaded, under stores_mu). */
static int trusted_idx = -1;
static size_t n_stores;
/* n_stores as the handshakes read it, without the lock: an entry is
 * written whole, then published (release); a reader sees only entries
 * written whole (acquire), and an entry never changes after.  So finding
 * a loaded store (every new connection asks) takes no lock. */
static atomic_size_t n_published;
/* Engine threads of hopsplit serve ask for stores at once. */
static pthread_mutex_t stores_mu = PTHREAD_MUTEX_INITIALIZER;

static int same(const char *a, const char *b)
{
  return (!a && !b) || (a && b && !strcmp(a, b));
}

/* OpenSSL caches a certificate's extensions (key identifiers, names,
 * constraints) when it first checks it; two threads that first check the
 * same certificate at once both write the cache while the other reads it
 * (https://github.com/openssl/openssl/issues/32609; ThreadSanitizer saw
 * it in hopsplit serve, two engine threads verifying servers against one
 * shared store's CA).  So the thread that loads a store caches each of
 * its certificates before any connection sees it.  Certificates that a
 * --capath directory adds later, on demand, are not covered. */
static void cache_extensions(X509_STORE *st)
{
  STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(st);
  int i;

  for (i = 0; i < sk_X509_OBJECT_num(objs); i++) {
    X509 *x = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objs, i));

    if (x)
      (void)X509_get_extension_flags(x);
  }
}

/*
 * The trusted certificates of a store loaded whole from a file, as a
 * stack that the handshakes only read.  OpenSSL 3.0 looks a store up
 * under its lock, a write lock (X509_STORE_lock: X509_STORE_CTX_get1_issuer
 * and X509_STORE_CTX_get_by_subject, twice in every verification, because
 * the lookup may sort the store's objects), so serve's loops verifying at
 * once queue on the one store they share.  Given a trusted stack
 * (X509_STORE_CTX_set0_trusted_stack), the verification looks issuers up
 * in it (get_issuer_sk, lookup_certs_sk) and takes no lock of the store;
 * the certificates' extensions are cached before any handshake
 * (cache_extensions).  A store with a --capath directory keeps OpenSSL's
 * lookup: the directory is read on demand, into the store.  NULL when the
 * store has no certificate or memory is short (the store's lookup then).
 */
static STACK_OF(X509) * trusted_stack(X509_STORE *st)
{
  STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(st);
  STACK_OF(X509) *sk = sk_X509_new_null();
  int i;

  if (!sk)
    return NULL;
  for (i = 0; i < sk_X509_OBJECT_num(objs); i++) {
    X509 *x = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objs, i));

    if (x && X509_up_ref(x) == 1 && sk_X509_push(sk, x) <= 0) {
      X509_free(x);
      sk_X509_pop_free(sk, X509_free);
      return NULL;
    }
  }
  if (sk_X509_num(sk) == 0) {
    sk_X509_free(sk);
    return NULL;
  }
  return sk;
}

/* libssl's verification of a server's chain
 * (SSL_CTX_set_cert_verify_callback): the context libssl made (the store's
 * parameters, the host name, the purpose) with issuers from the trusted stack
 * instead of the store. */
static int verify_with_stack(X509_STORE_CTX *xc, void *trusted)
{
  X509_STORE_CTX_set0_trusted_stack(xc, trusted);
  return X509_verify_cert(xc);
}

static void *store_find_or_load(const char *cafile, const char *capath)
{
  X509_STORE *st;
  size_t i;

  for (i = 0; i < n_stores; i++)
    if (same(stores[i].cafile, cafile) && same(stores[i].capath, capath))
      return stores[i].store;
  if (n_stores == TLS_STORES_MAX || (!cafile && !capath))
    return NULL;
  st = X509_STORE_new();
  if (!st)
    return NULL;
  if ((cafile && X509_STORE_load_file(st, cafile) != 1) ||
      (capath && X509_STORE_load_path(st, capath) != 1)) {
    /* Leave it to libcurl, which reports the bad file in its own words. */
    X509_STORE_free(st);
    ERR_clear_error();
    return NULL;
  }
  cache_extensions(st);
  stores[n_stores].trusted = capath ? NULL : trusted_stack(st);
  if (stores[n_stores].trusted) {
    if (trusted_idx < 0)
      trusted_idx = X509_STORE_get_ex_new_index(0, NULL, NULL, NULL, NULL);
    if (trusted_idx < 0 ||
        X509_STORE_set_ex_data(st, trusted_idx, stores[n_stores].trusted) !=
            1) {
      sk_X509_pop_free(stores[n_stores].trusted, X509_free);
      stores[n_stores].trusted = NULL;
    }
  }
  msg_info("trust store: %s%s%s, %d certificates loaded%s",
           cafile ? cafile : "", cafile && capath ? " and " : "",
           capath ? capath : "",
           sk_X509_OBJECT_num(X509_STORE_get0_objects(st)),
           capath ? " (the directory is read on demand)" : "");
  stores[n_stores].cafile = cafile ? xstrdup(cafile) : NULL;
  stores[n_stores].capath = capath ? xstrdup(capath) : NULL;
  stores[n_stores].store = st;
  n_stores++;
  atomic_store_explicit(&n_published, n_stores, memory_order_release);
  return st;
}

void *probe_tls_store(const char *cafile, const char *capath)
{
  size_t i, n = atomic_load_explicit(&n_published, memory_order_acquire);
  void *st;

  for (i = 0; i < n; i++)
    if (same(stores[i].cafile, cafile) && same(stores[i].capath, capath))
      return stores[i].store;
  /* Not loaded yet (before round 1, normally): load it under the lock. */
  stall_lock(&stores_mu);
  st = store_find_or_load(cafile, capath);
  pthread_mutex_unlock(&stores_mu);
  return st;
}

int probe_tls_use_store(void *ssl_ctx, void *store)
{
  STACK_OF(X509) * trusted;

  if (!ssl_ctx || !store)
    return -1;
  SSL_CTX_set1_cert_store(ssl_ctx, store);
  /* Read without a lock: the index was set before the store was handed
   * out, and the store's ex_data is not written after its load. */
  trusted =
      trusted_idx >= 0 ? X509_STORE_get_ex_data(store, trusted_idx) : NULL;
  if (trusted)
    SSL_CTX_set_cert_verify_callback(ssl_ctx, verify_with_stack, trusted);
  return 0;
}

void probe_tls_release(void)
{
  size_t i;

  /* This thread's certificates last read (others' go when they end). */
  if (settled_ok) {
    struct tls_settled *c = pthread_getspecific(settled_key);

    if (c && !pthread_setspecific(settled_key, NULL))
      settled_free(c);
  }

  for (i = 0; i < n_stores; i++) {
    free(stores[i].cafile);
    free(stores[i].capath);
    X509_STORE_free(stores[i].store);
    sk_X509_pop_free(stores[i].trusted, X509_free);
  }
  n_stores = 0;
  atomic_store(&n_published, 0);
}

/* libcurl's built-in CA bundle and directory, asked once: any of
 * hopsplit serve's engine threads may be the first to want them (serve's
 * prewarm asks on the main thread before they start, but only when a
 * module's warm-up plan builds and wants them). */
static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static char *def_file, *def_path;

static void default_locations(void)
{
#if LIBCURL_VERSION_NUM >= 0x075400
  CURL *tmp = curl_easy_init();
  char *f = NULL, *d = NULL;

  if (tmp) {
    if (curl_easy_getinfo(tmp, CURLINFO_CAINFO, &f) == CURLE_OK && f)
      def_file = xstrdup(f);
    if (curl_easy_getinfo(tmp, CURLINFO_CAPATH, &d) == CURLE_OK && d)
      def_path = xstrdup(d);
    curl_easy_cleanup(tmp);
  }
#endif
}

/* The trust store for o: --cacert/--capath, else libcurl's built-in CA
 * bundle or directory, parsed once (probe_tls_warmup asks first, before
 * round 1). */
void *probe_shared_store(const struct options *o)
{
  if (o->cacert || o->capath)
    return probe_tls_store(o->cacert, o->capath);
  (void)pthread_once(&default_once, default_locations);
  return probe_tls_store(def_file, def_path);
}
