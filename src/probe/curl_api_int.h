/*
 * curl_api_int.h: the libcurl a client's handles belong to, as a table of
 * functions (probe files only).  Two libraries live in one process: the
 * OpenSSL libcurl the binary links (every HTTP/1.1 and HTTP/2 transfer)
 * and, for HTTP/3, the GnuTLS libcurl of Debian's libcurl3-gnutls (8.14
 * in bookworm-backports, built with ngtcp2 and nghttp3), loaded at run
 * time with dlopen: their symbol versions (CURL_OPENSSL_4, CURL_GNUTLS_3)
 * keep them apart.  A CURL* or CURLM* made by one table must only ever be
 * passed to the same table's functions: a client keeps its table beside
 * its handles, and its multi handle carries it into the loop (engine.c).
 * Lists (curl_slist) are plain malloc'd structs of the same layout in
 * both and may cross.
 */
#ifndef HOPSPLIT_CURL_API_H
#define HOPSPLIT_CURL_API_H

#include <curl/curl.h>

struct curl_api {
  const char *name; /* "libcurl" or "libcurl-gnutls" */
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *e);
  void (*easy_reset)(CURL *e);
  CURLcode (*easy_setopt)(CURL *e, CURLoption opt, ...);
  CURLcode (*easy_getinfo)(CURL *e, CURLINFO info, ...);
  const char *(*easy_strerror)(CURLcode rc);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_setopt)(CURLM *m, CURLMoption opt, ...);
  CURLMcode (*multi_add_handle)(CURLM *m, CURL *e);
  CURLMcode (*multi_remove_handle)(CURLM *m, CURL *e);
  CURLMcode (*multi_socket_action)(CURLM *m, curl_socket_t s, int ev,
                                   int *running);
  CURLMsg *(*multi_info_read)(CURLM *m, int *left);
  CURLMcode (*multi_cleanup)(CURLM *m);
  curl_version_info_data *(*version_info)(CURLversion v);
  CURLSH *(*share_init)(void);
  CURLSHcode (*share_setopt)(CURLSH *sh, CURLSHoption opt, ...);
  CURLSHcode (*share_cleanup)(CURLSH *sh);
};

/* The linked (OpenSSL) libcurl. */
extern const struct curl_api curl_api_linked;

/*
 * The HTTP/3 library: libcurl-gnutls.so.4 loaded (once, on first call)
 * and initialised, when it has HTTP/3 in its features; else NULL with the
 * reason and what to install in why (static text, also when it loaded).
 * The first call loads it (under pthread_once), which takes milliseconds:
 * probe_global_init makes it before any thread measures, and
 * probe_global_init_plan when the plan has a target that runs on it.
 */
const struct curl_api *curl_api_h3(const char **why);

/* "libcurl-gnutls/8.14.1 GnuTLS/3.7.9 ngtcp2/1.11.0 nghttp3/1.8.0, HTTP3"
 * into buf when the library loaded (with or without HTTP/3), else NULL. */
const char *curl_api_h3_version(char *buf, size_t len);
/* The same, without loading it: NULL when it has not been loaded. */
const char *curl_api_h3_version_loaded(char *buf, size_t len);
/* What GnuTLS says of a session of the HTTP/3 library (its
 * CURLINFO_TLS_SSL_PTR internals): version as OpenSSL names it
 * ("TLSv1.3"), IANA cipher suite, ALPN, resumed (1, 0, -1 unknown);
 * empty strings for what it cannot say.  0, or -1 without a session. */
struct curl_api_tls {
  char version[32];
  char cipher[96];
  char alpn[32];
  int resumed;
};
int curl_api_gnutls_read(void *session, struct curl_api_tls *out);
/* Its curl_global_cleanup (probe_global_cleanup). */
void curl_api_h3_cleanup(void);

#endif
