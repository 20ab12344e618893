/*
 * probe_int.h: declarations shared by the probe files only (probe.c,
 * probe_dns.c, probe_tls.c, probe_hops.c).  Plain types only, so that the
 * library types stay inside the file that uses the library.
 */
#ifndef HOPSPLIT_PROBE_INT_H
#define HOPSPLIT_PROBE_INT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "buf.h"
#include "engine_int.h"
#include "options.h"
#include "sample.h"
#include "transport.h"

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
  /* Resolvers that refused, failed or were unreachable during the
   * lookup, in order ("ip:port", rcode word, us from its start). */
  struct {
    char server[INET6_ADDRSTRLEN + 8];
    const char *rcode; /* static string */
    int64_t us;
    const char *query; /* "A", "AAAA" (static), NULL: both or unknown */
  } failed[DNS_FAILURES_MAX];
  size_t n_failed;
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
 * /etc/resolv.conf) with tries bounded by timeout_us, on engine e: its
 * sockets and timers are charged to *owner.  Opened when a client is made,
 * before any sample clock runs; c-ares 1.18 caches nothing, so a new
 * channel is a cold resolver.  NULL with a message in err on failure;
 * probe_dns_close frees it (a lookup under way ends without its callback).
 */
struct dns_channel;
struct engine;
struct engine_job;
struct dns_channel *probe_dns_open(struct engine *e,
                                   struct engine_job *const *owner,
                                   const char *servers, int64_t timeout_us,
                                   char *err, size_t errlen);
void probe_dns_close(struct dns_channel *c);

/*
 * Start resolving host on channel c, A and/or AAAA as family (0, 4, 6)
 * allows, within timeout_us; one lookup at a time per channel.  When it
 * ends, done(ud, status) runs from the loop (never inside this call): out
 * is filled (the caller releases it with dns_answer_release), and another
 * status than DNS_OK comes with a message in err (errlen bytes).
 */
typedef void (*probe_dns_done_fn)(void *ud, enum dns_status st);
void probe_dns_start(struct dns_channel *c, const char *host, int family,
                     int64_t timeout_us, struct dns_answer *out, char *err,
                     size_t errlen, probe_dns_done_fn done, void *ud);
void dns_answer_release(struct dns_answer *a);
/* c-ares library set-up; 0 or -1. */
int probe_dns_global_init(void);
void probe_dns_global_cleanup(void);
const char *probe_dns_version(void);

/* The certificates of a hop's connection, held (references, nothing
 * read) from the hop's first response header until the sample's total is
 * taken: hashing and formatting them is no work on the measured path.
 * X509* and STACK_OF(X509)* as void*; NULL when not taken. */
struct tls_grab {
  void *leaf;     /* the server's leaf certificate */
  void *chain;    /* what the server sent (a copy, each certificate held) */
  void *verified; /* the chain verified to a trust anchor, or NULL */
};
/* Copy the TLS facts of a live OpenSSL SSL* (passed as void*) that cost
 * nothing to read (version, cipher, ALPN, resumption, offer) into out;
 * the certificates' facts are read later from what grab holds
 * (probe_tls_settle), or at once without a grab. */
void probe_tls_read(void *ssl, struct hop_tls *out, struct tls_grab *grab);
/* After the sample's total: the certificates' facts of what g holds into
 * out (expiries, the leaf's fingerprint and names), then g let go. */
void probe_tls_settle(struct tls_grab *g, struct hop_tls *out);
/* Let go of what g holds, reading nothing. */
void probe_tls_grab_release(struct tls_grab *g);
/* The leaf certificate's facts (X509*, as void*) into out's leaf_*
 * fields, once (probe_cert.c). */
void probe_cert_read(void *leaf, struct hop_tls *out);

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

/*
 * TLS sessions kept by hopsplit for resumed mode (probe_tls.c): queues of
 * unused sessions per "host:port", each offered once.  _note makes a
 * host:port known, _missing says whether a known one has no session
 * left (then the sample is preceded by an unmeasured priming fetch).
 */
struct tls_sessions;
struct tls_sessions *probe_tls_sessions_new(void);
void probe_tls_sessions_free(struct tls_sessions *s);
void probe_tls_sessions_note(struct tls_sessions *s, const char *key);
int probe_tls_sessions_missing(const struct tls_sessions *s);

/*
 * One TLS connection's set-up and what it saw, made for each new
 * connection in libcurl's SSL_CTX callback and kept until its client is
 * released (the SSL_CTX points to it while the connection lives).
 */
struct tls_hook {
  void *store;                   /* X509_STORE* to verify against, or NULL */
  struct tls_sessions *sessions; /* offer from and collect into, or NULL */
  int collect_only;              /* priming: offer nothing, collect */
  char key[300];                 /* "host:port" */
  int started;                   /* the handshake started */
  int offered;                   /* the ClientHello offered a session */
  int received;                  /* sessions (tickets) received */
  void *offered_session;         /* SSL_SESSION* we set, our reference */
  char why[400];                 /* why none was offered, or "" */
};
/* Install h on SSL_CTX* ssl_ctx (trust store, callbacks); 0 or -1. */
int probe_tls_setup_ctx(void *ssl_ctx, struct tls_hook *h);
/* After the transfer: give a TLS 1.2 session back for another use. */
void probe_tls_hook_done(struct tls_hook *h, int resumed, const char *version);
void probe_tls_hook_free(struct tls_hook *h);

/* Monotonic clock in microseconds. */
int64_t probe_now_us(void);
/* timeout_us (0 or less: none) cut to the calling thread's deadline
 * (probe_set_deadline), and at least 1 ms once a deadline is set. */
int64_t probe_deadline_cut(int64_t timeout_us);
/* Set the calling thread's deadline (probe_set_deadline) and return the
 * one it replaces: a job sets its own around what it starts. */
int64_t probe_deadline_swap(int64_t monotonic_us);
/* The calling thread's deadline, 0 for none. */
int64_t probe_deadline_get(void);
/* Wall clock in milliseconds since the epoch. */
int64_t probe_wall_ms(void);

/* One connection attempt of a hop (libcurl's open-socket callback). */
struct conn_attempt {
  int fd;
  int family; /* 4 or 6 */
  int quic;   /* a UDP socket: a QUIC attempt of HTTP/3 */
  /* The address tried, raw (4 or 16 bytes by family; formatted after the
   * transfer, probe_conn_finish: inet_ntop in the socket callback was a
   * quarter of a cold hop's own work); addr_ok 0: not an IP address. */
  unsigned char addr[16];
  int addr_ok;
  int64_t opened_us, closed_us; /* monotonic; closed 0 while open */
};
#define CONN_ATTEMPTS_MAX 8
#define CLIENT_SOCKS_MAX  32

/* One read of Linux TCP_INFO, in the units hop_tcp keeps; ok 0: none. */
struct tcp_snap {
  int ok;
  int64_t min_rtt, rtt, rttvar, rcv_rtt;
  int64_t total_retrans, rcv_ooopack;
  int64_t bytes_received, bytes_sent, segs_in, segs_out;
  int64_t delivery_rate, busy, rwnd_limited, sndbuf_limited;
};

/*
 * The kernel's view of one hop's connection (probe_tcp.c): TCP_INFO read
 * when the connection is ready for the request (libcurl's prerequest
 * callback) and at the last response byte (after the transfer, or as
 * libcurl closes the socket if it does so first); the first response
 * byte's time and the body's arrivals recorded as they come.  Never a
 * read inside a phase's own events.
 */
struct tcp_watch {
  int fd; /* the hop's socket, -1 until it is ready */
  int reused;
  int upload; /* the hop sends a body */
  int err;    /* errno of a failed read, 0 */
  struct tcp_snap start, last;
  int64_t first_byte_us; /* probe_now_us at the first response byte */
  struct tcp_arrivals arr;
};
void probe_tcp_begin(struct tcp_watch *w, int upload);
/* The connection is ready for the request on socket fd. */
void probe_tcp_ready(struct tcp_watch *w, int fd, int reused);
/* The first response byte came at now_us. */
void probe_tcp_first_byte(struct tcp_watch *w, int64_t now_us);
/* libcurl closes socket fd (probe_conn.c's close callback). */
void probe_tcp_closing(struct tcp_watch *w, int fd);
/* The transfer is over: the last read (on fd when no earlier socket was
 * seen, -1 for none), and the hop's tcp facts and rounds. */
void probe_tcp_finish(struct tcp_watch *w, int fd, struct hop *h);

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
  /* The libcurl of its handles (curl_api_int.h): the linked one, or the
   * GnuTLS one of HTTP/3 (h3: 1 --http3, 2 --http3-only, 0 neither). */
  const struct curl_api *api;
  int h3;
  const char *h3_missing; /* h3 asked, library missing: why (static) */
  /* Resumed HTTP/3: the CURLSH* of api whose TLS session cache every
   * client of the target shares (borrowed), or NULL. */
  void *share;
  void *easy;                 /* CURL* of api */
  struct engine *engine;      /* the loop it runs on (borrowed) */
  struct engine_multi *multi; /* its own multi handle: pool and sessions */
  /* The sample it measures now (interference is charged through this),
   * its deadline (CLOCK_MONOTONIC, 0: none), and the hop under way. */
  struct engine_job *job;
  int64_t deadline_us;
  struct hop_job *hop;
  struct tcp_watch *tcp; /* the hop's, while it runs, or NULL */
  /* The sockets libcurl has open through this client (open- and
   * close-socket callbacks), with their local port once asked (0). */
  struct {
    int fd;
    uint16_t port;
  } socks[CLIENT_SOCKS_MAX];
  size_t n_socks;
  /* Resumed mode: the sessions to offer and collect (borrowed), and
   * whether this client only collects (priming). */
  struct tls_sessions *sessions;
  int collect_only;
  /* The TLS hooks of this client's connections, freed after the easy
   * handle; hop_hook is the one the current hop's connection made. */
  struct tls_hook **hooks;
  size_t n_hooks;
  struct tls_hook *hop_hook;
  struct tls_hook hop_plan; /* store, sessions, key for the next one */
  struct conn_attempt attempts[CONN_ATTEMPTS_MAX]; /* of the current hop */
  size_t n_attempts;
  struct dns_cache *dns; /* own_dns ? owned : borrowed */
  int own_dns;
  struct dns_channel *resolver; /* owned; NULL if it could not start */
  char *resolver_error;         /* why, owned */
  char **pins; /* "host:port" already pinned into this easy handle */
  size_t n_pins;
  int64_t last_end_us; /* probe_now_us when its last request ended, 0 */
  /* The current hop's response header lines as libcurl gave them, kept
   * raw during the transfer and read after its last byte (probe_hops.c
   * header_line); its room stays from one hop to the next. */
  struct buf hdr_raw;
};

/* A request body streamed from a file (probe_body.c). */
struct body_src {
  int fd;           /* -1 when closed */
  const char *path; /* borrowed */
  int64_t size;     /* announced (Content-Length) */
  int64_t sent;     /* bytes handed to libcurl */
  int short_read;   /* the file ended before size */
  int read_errno;
};
/* Open path for one hop and check it still has size bytes; 0, or -1 with
 * a message in err. */
int probe_body_open(struct body_src *b, const char *path, int64_t size,
                    char *err, size_t errlen);
/* The read and seek callbacks and the upload (PUT, -T) or POST options of
 * b on the CURL* easy; method is the hop's. */
void probe_body_setopt(const struct curl_api *api, void *easy,
                       struct body_src *b, int upload, const char *method);
/* Close b after the transfer: 0, or -1 with a message in err when the file
 * could not be read or changed size. */
int probe_body_close(struct body_src *b, char *err, size_t errlen);

/* What one hop asks for. */
struct hop_request {
  const char *url; /* absolute, fragment removed */
  const char *method;
  int drop_credentials; /* cross-origin: no Authorization/Cookie */
  /* The body this hop sends (the options' body, borrowed), or NULL; json
   * adds curl --json's Content-Type and Accept unless -H gave them. */
  const char *body;
  size_t body_len;
  /* Or the body streamed from this file of this size (borrowed); upload:
   * -T, curl's upload (PUT unless -X). */
  const char *body_file;
  int64_t body_file_size;
  int upload;
  int json;
  /* The hop goes to the host and port of the walk's first hop (scheme
   * aside): options.tls_server_name applies, and through a proxy the
   * first hop's resolved address stands for the host (blackbox's rules). */
  int first_host;
  /* Where the hop leaves its connection's certificates for the walk to
   * read after the sample's total (the walk's), or NULL: read at once. */
  struct tls_grab *grab;
};

/* Options every transfer of the probe shares (no proxy, http and https
 * only, TLS trust, address family, timeouts from o, errbuf of
 * CURL_ERROR_SIZE bytes) on a CURL* passed as void*. */
void probe_set_common(const struct curl_api *api, void *easy,
                      const struct options *o, char *errbuf);

/* The hop's connection (probe_conn.c): before the transfer, the socket
 * and SSL_CTX callbacks on the CURL* easy for host:port; after it, the
 * hop's family, local port, fallback and TLS offer; at the end of the
 * client (after its easy handle), its TLS hooks. */
void probe_conn_setup(void *easy, struct client *c, const struct options *o,
                      const char *host, int port, int https);
void probe_conn_finish(void *easy, struct client *c, struct hop *h);
/* The open socket of client c whose local port is port, or -1. */
int probe_conn_socket(struct client *c, int port);
void probe_conn_release(struct client *c);

/*
 * Start one hop on client c: DNS (c-ares, pinned or cached), then one
 * libcurl transfer with automatic following off, on the client's engine.
 * When it ends, done(ud, cls) runs from the loop (never inside this call),
 * h filled (phases, curl times, status, headers, connection and TLS facts)
 * and cls ERR_NONE or the error class with a message in err.  rq and the
 * strings it points to must live until then.  One hop at a time per
 * client.
 */
struct hop_job;
typedef void (*probe_hop_done_fn)(void *ud, enum err_class cls);
void probe_hop_start(struct client *c, const struct options *o,
                     const struct hop_request *rq, struct hop *h, char *err,
                     size_t errlen, probe_hop_done_fn done, void *ud);
/* The client's multi handle calls this when its transfer ends. */
void probe_hop_transfer_done(void *easy, int result, void *ud);

/*
 * One logical request on a client (probe_walk.c): hop after hop, redirects
 * followed by the target's rules, into sample s (its started_at, hops,
 * total, status, error; accounts closed).  done(ud) runs from the loop
 * when it ends.  w is the caller's (embed it); t and s must live until
 * then.
 */
struct target;
struct walk {
  struct client *c;
  const struct target *t;
  struct sample *s;
  int64_t t0;
  char *url, *first_origin;
  const char *method;
  int with_body;
  char **visited;
  size_t n_visited;
  long redirects;
  struct hop_request rq;
  /* One per hop (grabs[i] for s->hops[i]): read once the total is taken. */
  struct tls_grab *grabs;
  char err[1024];
  void (*done)(void *ud);
  void *ud;
};
void probe_walk_start(struct walk *w, struct client *c, const struct target *t,
                      struct sample *s, void (*done)(void *), void *ud);

/*
 * Prime the long-lived client of (target, mode) on engine e as
 * probe_prime does, from the loop: done(ud, rc, err) with rc 0 or -1 and
 * the reason.
 */
struct probe;
typedef void (*probe_prime_done_fn)(void *ud, int rc, const char *err);
void probe_prime_start(struct probe *p, struct engine *e, size_t target,
                       enum sample_mode mode, int64_t deadline_us,
                       probe_prime_done_fn done, void *ud);

/* CURLOPT_XFERINFOFUNCTION of every transfer (hops, primes, the trace
 * fetch): abandon it once the user interrupted the run. */
int probe_on_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow,
                      curl_off_t ultotal, curl_off_t ulnow);

#endif
