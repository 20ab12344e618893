/*
 * probe_int.h: declarations shared by the probe files only (probe.c,
 * probe_dns.c, probe_tls.c, probe_hops.c).  Plain types only, so that the
 * library types stay inside the file that uses the library.
 */
#ifndef HOPSPLIT_PROBE_INT_H
#define HOPSPLIT_PROBE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "sample.h"

/* Answer of one c-ares lookup; owned by the DNS cache of a client. */
struct dns_answer {
  char *host;
  char **addresses; /* numeric, IPv6 without brackets */
  size_t n_addresses;
  char **cnames;
  size_t n_cnames;
  long ttl;
  char *server; /* "ip:port" that answered, "/etc/hosts", or NULL */
  int64_t us;
};

enum dns_status {
  DNS_OK,
  DNS_NXDOMAIN,
  DNS_NODATA,
  DNS_SERVFAIL,
  DNS_REFUSED,
  DNS_TIMEOUT,
  DNS_ERROR
};

/*
 * A c-ares channel pointed at servers (CSV as --dns-server, NULL for
 * /etc/resolv.conf) with tries bounded by timeout_us.  Opened when a client
 * is made, before any sample clock runs; c-ares 1.18 caches nothing, so a
 * new channel is a cold resolver.  NULL with a message in err on failure;
 * probe_dns_close frees it.
 */
struct dns_channel;
struct dns_channel *probe_dns_open(const char *servers, int64_t timeout_us,
                                   char *err, size_t errlen);
void probe_dns_close(struct dns_channel *c);

/*
 * Resolve host on channel c, A and/or AAAA as family (0, 4, 6) allows,
 * within timeout_us.  Fills out (caller releases with dns_answer_release)
 * and returns DNS_OK, or another status with a message in err.
 */
enum dns_status probe_dns_resolve(struct dns_channel *c, const char *host,
                                  int family, int64_t timeout_us,
                                  struct dns_answer *out, char *err,
                                  size_t errlen);
void dns_answer_release(struct dns_answer *a);
/* c-ares library set-up; 0 or -1. */
int probe_dns_global_init(void);
void probe_dns_global_cleanup(void);
const char *probe_dns_version(void);

/* Copy TLS facts of a live OpenSSL SSL* (passed as void*) into out. */
void probe_tls_read(void *ssl, struct hop_tls *out);
const char *probe_tls_version(void);

/* The trust store of cafile/capath, parsed once and cached for the run
 * (an X509_STORE* as void*), or NULL when neither is given or it cannot
 * be loaded (libcurl then loads and reports it itself). */
void *probe_tls_store(const char *cafile, const char *capath);
/* The store the run's connections verify against: --cacert/--capath,
 * else libcurl's built-in CA bundle or directory (probe_tls_store). */
void *probe_shared_store(const struct options *o);
/* Make SSL_CTX* ssl_ctx verify against store; 0 or -1. */
int probe_tls_use_store(void *ssl_ctx, void *store);
/* Free the cached stores (probe_global_cleanup). */
void probe_tls_release(void);

/* Monotonic clock in microseconds. */
int64_t probe_now_us(void);
/* Wall clock in milliseconds since the epoch. */
int64_t probe_wall_ms(void);

/* Answers a client already has, keyed by host name. */
struct dns_cache {
  struct dns_answer *answers;
  size_t n;
};
const struct dns_answer *dns_cache_find(const struct dns_cache *c,
                                        const char *host);
/* Takes ownership of *a (leaves it zeroed). */
void dns_cache_add(struct dns_cache *c, struct dns_answer *a);
void dns_cache_release(struct dns_cache *c);

/*
 * A client: one libcurl easy handle (its connection pool and pinned DNS
 * entries), an optional share (TLS session cache of resumed mode) and the
 * DNS answers it has seen.  Library handles are void* here so that this
 * header needs no library header.
 */
struct client {
  void *easy;            /* CURL* */
  void *share;           /* CURLSH*, borrowed in resumed samples */
  struct dns_cache *dns; /* own_dns ? owned : borrowed */
  int own_dns;
  struct dns_channel *resolver; /* owned; NULL if it could not start */
  char *resolver_error;         /* why, owned */
  char **pins; /* "host:port" already pinned into this easy handle */
  size_t n_pins;
};

/* What one hop asks for. */
struct hop_request {
  const char *url; /* absolute, fragment removed */
  const char *method;
  int drop_credentials; /* cross-origin: no Authorization/Cookie */
};

/* Options every transfer of the probe shares (no proxy, http and https
 * only, TLS trust, address family, timeouts from o, errbuf of
 * CURL_ERROR_SIZE bytes) on a CURL* passed as void*. */
void probe_set_common(void *easy, const struct options *o, char *errbuf);

/*
 * Run one hop on client c: DNS (c-ares, pinned or cached), then one
 * libcurl transfer with automatic following off.  Fills h (phases, curl
 * times, status, headers, connection and TLS facts).  Returns ERR_NONE or
 * the error class, with a message in err.
 */
enum err_class probe_hop_run(struct client *c, const struct options *o,
                             const struct hop_request *rq, struct hop *h,
                             char *err, size_t errlen);

#endif
