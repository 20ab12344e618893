/*
 * probe_tls.c: TLS facts read from the live OpenSSL connection of a
 * transfer (protocol version, cipher, ALPN, whether the session was
 * resumed).  Input: the SSL* libcurl hands out through
 * CURLINFO_TLS_SSL_PTR, as void*.  Output: plain strings in struct
 * hop_tls.  No OpenSSL type leaves this file.
 */
#include <openssl/opensslv.h>
#include <openssl/ssl.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe_int.h"
#include "strpool.h"
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
