/*
 * probe_tls.c: TLS facts read from the live OpenSSL connection of a
 * transfer (protocol version, cipher, ALPN, whether the session was
 * resumed).  Input: the SSL* libcurl hands out through
 * CURLINFO_TLS_SSL_PTR, as void*.  Output: plain strings in struct
 * hop_tls.  No OpenSSL type leaves this file.
 */
#include <openssl/opensslv.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe_int.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

void probe_tls_read(void *ptr, struct hop_tls *out)
{
  SSL *ssl = ptr;
  const unsigned char *alpn = NULL;
  unsigned int alpn_len = 0;
  const char *s;

  if (!ssl)
    return;
  s = SSL_get_version(ssl);
  if (s && !out->version)
    out->version = strpool_intern(s);
  s = SSL_get_cipher_name(ssl);
  if (s && !out->cipher)
    out->cipher = strpool_intern(s);
  SSL_get0_alpn_selected(ssl, &alpn, &alpn_len);
  if (alpn && alpn_len && !out->alpn)
    out->alpn = strpool_intern_n((const char *)alpn, alpn_len);
  out->resumed = SSL_session_reused(ssl) ? 1 : 0;
}

const char *probe_tls_version(void)
{
  return OpenSSL_version(OPENSSL_VERSION);
}

void probe_tls_warmup(const struct options *o)
{
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  SSL *ssl;

  if (!ctx)
    return;
  if (o->cacert || o->capath)
    SSL_CTX_load_verify_locations(ctx, o->cacert, o->capath);
  else
    SSL_CTX_set_default_verify_paths(ctx);
  ssl = SSL_new(ctx);
  if (ssl)
    SSL_free(ssl);
  SSL_CTX_free(ctx);
}

/*
 * Trust stores, parsed once per (cafile, capath) and shared by every
 * connection of the run.  libcurl 7.88 parses the CA bundle again for each
 * new SSL_CTX, that is for every new client, and counts it in the TLS
 * handshake: with Debian's 140-certificate bundle that is about 20 ms of
 * local CPU in every cold sample's tls phase.  A browser or app has its
 * store loaded already, so the probe hands libcurl a loaded one.
 */
#define TLS_STORES_MAX 8

static struct {
  char *cafile;
  char *capath;
  X509_STORE *store;
} stores[TLS_STORES_MAX];
static size_t n_stores;

static int same(const char *a, const char *b)
{
  return (!a && !b) || (a && b && !strcmp(a, b));
}

void *probe_tls_store(const char *cafile, const char *capath)
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
    return NULL;
  }
  stores[n_stores].cafile = cafile ? xstrdup(cafile) : NULL;
  stores[n_stores].capath = capath ? xstrdup(capath) : NULL;
  stores[n_stores].store = st;
  n_stores++;
  return st;
}

int probe_tls_use_store(void *ssl_ctx, void *store)
{
  if (!ssl_ctx || !store)
    return -1;
  SSL_CTX_set1_cert_store(ssl_ctx, store);
  return 0;
}

void probe_tls_release(void)
{
  size_t i;

  for (i = 0; i < n_stores; i++) {
    free(stores[i].cafile);
    free(stores[i].capath);
    X509_STORE_free(stores[i].store);
  }
  n_stores = 0;
}
