/*
 * curl_api.c: the two libcurls of the process (curl_api_int.h).  Input: the
 * linked OpenSSL libcurl, and libcurl-gnutls.so.4 found by the dynamic
 * loader.  Output: a table of functions for each; the GnuTLS one only
 * when the library loads, has every function and says HTTP3 in its
 * features.
 */
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "curl_api_int.h"
#include "banned.h"

const struct curl_api curl_api_linked = {
    "libcurl",
    curl_easy_init,
    curl_easy_cleanup,
    curl_easy_reset,
    curl_easy_setopt,
    curl_easy_getinfo,
    curl_easy_strerror,
    curl_multi_init,
    curl_multi_setopt,
    curl_multi_add_handle,
    curl_multi_remove_handle,
    curl_multi_socket_action,
    curl_multi_info_read,
    curl_multi_cleanup,
    curl_version_info,
    curl_share_init,
    curl_share_setopt,
    curl_share_cleanup,
};

#define H3_LIB "libcurl-gnutls.so.4"
#define H3_INSTALL                                                            \
  "install libcurl3-gnutls 8.14 or newer (on Debian 12: apt-get install "     \
  "libcurl3-gnutls/bookworm-backports)"

static struct curl_api h3;
static const struct curl_api *h3_ok;
static const char *h3_why;
static atomic_int h3_tried; /* h3_load ran (set at its end) */
static pthread_once_t h3_once = PTHREAD_ONCE_INIT;
static void *h3_handle;
static CURLcode (*h3_global_init)(long flags);
static void (*h3_global_cleanup)(void);

/* dlsym into *slot (a function pointer's storage); 0 or -1. */
static int sym(void *lib, const char *name, void *slot, size_t size)
{
  void *p = dlsym(lib, name);

  if (!p || size != sizeof(p))
    return -1;
  /* POSIX: a data pointer from dlsym converts to a function pointer; the
   * copy says so without a cast the compiler warns about. */
  memcpy(slot, &p, sizeof(p));
  return 0;
}

#define SYM(field, name) (sym(lib, name, &h3.field, sizeof(h3.field)) == 0)

static void h3_load_once(void)
{
  void *lib;
  curl_version_info_data *v;

#if LIBCURL_VERSION_NUM < 0x080a00
  (void)lib;
  (void)v;
  (void)sym;
  (void)h3_global_init;
  h3_why = "this hopsplit was built against libcurl " LIBCURL_VERSION
           ", whose headers lack HTTP/3's timings: build it against libcurl "
           "8.10 or newer";
#else
  lib = dlopen(H3_LIB, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    /* dlerror() says whether it is missing or there but unloadable. */
    static char why[512];
    const char *e = dlerror();

    if (e && !strstr(e, "No such file"))
      snprintf(why, sizeof(why), H3_LIB " cannot be loaded (%s): " H3_INSTALL,
               e);
    else
      snprintf(why, sizeof(why), H3_LIB " is not installed: " H3_INSTALL);
    h3_why = why;
    return;
  }
  h3.name = "libcurl-gnutls";
  if (!SYM(easy_init, "curl_easy_init") ||
      !SYM(easy_cleanup, "curl_easy_cleanup") ||
      !SYM(easy_reset, "curl_easy_reset") ||
      !SYM(easy_setopt, "curl_easy_setopt") ||
      !SYM(easy_getinfo, "curl_easy_getinfo") ||
      !SYM(easy_strerror, "curl_easy_strerror") ||
      !SYM(multi_init, "curl_multi_init") ||
      !SYM(multi_setopt, "curl_multi_setopt") ||
      !SYM(multi_add_handle, "curl_multi_add_handle") ||
      !SYM(multi_remove_handle, "curl_multi_remove_handle") ||
      !SYM(multi_socket_action, "curl_multi_socket_action") ||
      !SYM(multi_info_read, "curl_multi_info_read") ||
      !SYM(multi_cleanup, "curl_multi_cleanup") ||
      !SYM(version_info, "curl_version_info") ||
      !SYM(share_init, "curl_share_init") ||
      !SYM(share_setopt, "curl_share_setopt") ||
      !SYM(share_cleanup, "curl_share_cleanup") ||
      sym(lib, "curl_global_init", &h3_global_init, sizeof(h3_global_init)) ||
      sym(lib, "curl_global_cleanup", &h3_global_cleanup,
          sizeof(h3_global_cleanup))) {
    h3_why = H3_LIB " lacks a libcurl function: " H3_INSTALL;
    dlclose(lib);
    return;
  }
  v = h3.version_info(CURLVERSION_NOW);
  if (!v || !(v->features & CURL_VERSION_HTTP3) || v->version_num < 0x080a00) {
    h3_why = H3_LIB " has no HTTP/3 (it is older than 8.10 or built without "
                    "ngtcp2): " H3_INSTALL;
    h3_handle = lib; /* -V still names it */
    return;
  }
  if (h3_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    h3_why = H3_LIB " failed to initialise";
    h3_handle = lib;
    return;
  }
  h3_handle = lib;
  h3_ok = &h3;
  h3_why = NULL;
#endif
}

static void h3_load(void)
{
  h3_load_once();
  atomic_store(&h3_tried, 1);
}

const struct curl_api *curl_api_h3(const char **why)
{
  (void)pthread_once(&h3_once, h3_load);
  if (why)
    *why = h3_why;
  return h3_ok;
}

const char *curl_api_h3_version(char *buf, size_t len)
{
  (void)pthread_once(&h3_once, h3_load);
  return curl_api_h3_version_loaded(buf, len);
}

const char *curl_api_h3_version_loaded(char *buf, size_t len)
{
  curl_version_info_data *v;

  if (!atomic_load(&h3_tried) || !h3_handle || !h3.version_info)
    return NULL;
  v = h3.version_info(CURLVERSION_NOW);
  if (!v)
    return NULL;
  snprintf(buf, len, "libcurl-gnutls/%s %s%s%s, %s", v->version,
           v->ssl_version ? v->ssl_version : "",
           v->age >= CURLVERSION_SIXTH && v->quic_version ? " " : "",
           v->age >= CURLVERSION_SIXTH && v->quic_version ? v->quic_version
                                                          : "",
           (v->features & CURL_VERSION_HTTP3) ? "HTTP3" : "no HTTP3");
  return buf;
}

void curl_api_h3_cleanup(void)
{
  if (h3_ok && h3_global_cleanup)
    h3_global_cleanup();
  h3_ok = NULL;
  /* The library stays loaded: dlclose of a TLS library is not safe while
   * its atexit handlers are registered. */
}

/* ---- GnuTLS facts of a connection of the HTTP/3 library ---- */

/* gnutls.h's types, as its ABI has them: a session is a pointer, a datum
 * a pointer and a length. */
struct gt_datum {
  unsigned char *data;
  unsigned int size;
};
static pthread_once_t gt_once = PTHREAD_ONCE_INIT;
static int (*gt_version)(void *s);
static const char *(*gt_version_name)(int v);
static const char *(*gt_suite)(void *s);
static int (*gt_resumed)(void *s);
static int (*gt_alpn)(void *s, struct gt_datum *out);

/* Once, on whichever engine thread reads a GnuTLS session first. */
static void gt_load(void)
{
  if (!h3_handle)
    return;
  /* The GnuTLS that libcurl-gnutls itself loaded (dlsym on its handle
   * searches its dependencies); any that is missing stays NULL. */
  (void)sym(h3_handle, "gnutls_protocol_get_version", &gt_version,
            sizeof(gt_version));
  (void)sym(h3_handle, "gnutls_protocol_get_name", &gt_version_name,
            sizeof(gt_version_name));
  (void)sym(h3_handle, "gnutls_ciphersuite_get", &gt_suite, sizeof(gt_suite));
  (void)sym(h3_handle, "gnutls_session_is_resumed", &gt_resumed,
            sizeof(gt_resumed));
  (void)sym(h3_handle, "gnutls_alpn_get_selected_protocol", &gt_alpn,
            sizeof(gt_alpn));
}

int curl_api_gnutls_read(void *session, struct curl_api_tls *out)
{
  if (!session)
    return -1;
  (void)pthread_once(&gt_once, gt_load);
  memset(out, 0, sizeof(*out));
  out->resumed = -1;
  if (gt_version && gt_version_name) {
    const char *v = gt_version_name(gt_version(session));

    /* "TLS1.3" as OpenSSL spells it, "TLSv1.3". */
    if (v && !strncmp(v, "TLS1.", 5))
      snprintf(out->version, sizeof(out->version), "TLSv%s", v + 3);
    else if (v)
      snprintf(out->version, sizeof(out->version), "%s", v);
  }
  if (gt_suite) {
    const char *c = gt_suite(session);

    if (c)
      snprintf(out->cipher, sizeof(out->cipher), "%s", c);
  }
  if (gt_alpn) {
    struct gt_datum d = {NULL, 0};

    if (gt_alpn(session, &d) == 0 && d.data && d.size &&
        d.size < sizeof(out->alpn)) {
      memcpy(out->alpn, d.data, d.size);
      out->alpn[d.size] = '\0';
    }
  }
  if (gt_resumed)
    out->resumed = gt_resumed(session) ? 1 : 0;
  return 0;
}
