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
 * Resolve host with a fresh c-ares channel pointed at servers (CSV as
 * --dns-server, NULL for /etc/resolv.conf), A and/or AAAA as family (0, 4,
 * 6) allows, within timeout_us.  Fills out (caller releases with
 * dns_answer_release) and returns DNS_OK, or another status with a message
 * in err.
 */
enum dns_status probe_dns_resolve(const char *host, const char *servers,
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
  char **pins; /* "host:port" already pinned into this easy handle */
  size_t n_pins;
};

/* What one hop asks for. */
struct hop_request {
  const char *url; /* absolute, fragment removed */
  const char *method;
  int drop_credentials; /* cross-origin: no Authorization/Cookie */
};

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
