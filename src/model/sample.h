/*
 * sample.h: the plain record of one measured request, the output of the
 * probe stage and the input of every analysis and report module.
 *
 * A sample owns its arrays (hops, headers, addresses, CNAMEs); the probe
 * fills it and sample_release frees them.  Every string it points to lives
 * in the run-wide string pool (strpool.h): set string fields only to
 * strpool_intern results, never free them; they stay valid until
 * strpool_release_all at the end of main.  No libcurl, c-ares or OpenSSL
 * type ever appears here.
 */
#ifndef HOPSPLIT_SAMPLE_H
#define HOPSPLIT_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

enum sample_mode { MODE_COLD, MODE_WARM, MODE_RESUMED, MODE_COUNT };

/* Phases of one hop, in the order they happen.  PHASE_TOTAL is their sum. */
enum phase {
  PHASE_DNS,
  PHASE_CONNECT,
  PHASE_TLS,
  PHASE_SEND,
  PHASE_WAIT,
  PHASE_TRANSFER,
  PHASE_TOTAL,
  PHASE_COUNT
};

/* Error classes of a failed sample (hopsplit(1) Errors). */
enum err_class {
  ERR_NONE,
  ERR_DNS,
  ERR_CONNECT,
  ERR_TLS,
  ERR_TIMEOUT,
  ERR_HTTP,
  ERR_REDIRECT,
  ERR_HTTP_STATUS, /* -f: the final status was >= 400 */
  ERR_UPLOAD,      /* the body file could not be read or changed size */
  ERR_QUIC,        /* --http3-only: no HTTP/3 over QUIC (or no library) */
  ERR_COUNT
};

/* One response header line, name as received (case kept).  Both strings
 * are pooled. */
struct header {
  const char *name;
  const char *value;
};

/* libcurl's cumulative offsets of a hop, in microseconds from the start of
 * that hop's transfer, under curl's own names.  -1 means not available. */
struct curl_times {
  int64_t namelookup;
  int64_t connect;
  int64_t appconnect;
  int64_t pretransfer;
  int64_t posttransfer; /* libcurl >= 8.10 only, else -1 */
  int64_t starttransfer;
  int64_t total;
  int64_t queue; /* time_queue: held in libcurl's queue, 8.6+, else -1 */
  /* Not libcurl's: when an interim response (100 Continue, 103) came
   * first, libcurl's starttransfer is that response's first byte; this is
   * the final response's, from hopsplit's clock at its status line on the
   * same origin; -1 when no interim response came. */
  int64_t final_response;
};

/* A resolver that did not answer the lookup and was left for the next
 * one (or made it fail): its "ip:port", how ("REFUSED", "SERVFAIL",
 * "NOTIMP", "FORMERR", "unreachable" for a port where nothing listens,
 * "timeout"), and when, from the start of the lookup.  Strings pooled. */
struct dns_failure {
  const char *server;
  const char *rcode;
  int64_t us;
  const char *query; /* "A" or "AAAA" when only that one failed, or NULL */
};
#define DNS_FAILURES_MAX 4

/* Strings are pooled; the three vectors are exact-size arrays the hop
 * owns (pooled with the hop, hop_pool_arrays). */
struct hop_dns {
  const char *server;     /* resolver that answered, "ip:port", or NULL */
  const char **addresses; /* addresses pinned into libcurl */
  const char **cnames;    /* CNAME chain, first alias first */
  /* Resolvers that failed before the answer (or the error) came, in the
   * order they failed; at most DNS_FAILURES_MAX are kept. */
  const struct dns_failure *failed;
  uint32_t n_addresses;
  uint32_t n_cnames;
  uint32_t n_failed;
  int32_t ttl;     /* smallest TTL of the answer, -1 unknown */
  uint8_t pinned;  /* --resolve gave the addresses: no lookup */
  uint8_t cached;  /* answer reused from an earlier hop or sample */
  uint8_t literal; /* the host is an IP address literal */
};

struct hop_tls {
  /* "TLSv1.3", NULL for plain http; version, cipher and alpn are pooled
   * or static (a measured hop's are OpenSSL's own strings, static for the
   * process, and the usual ALPN literals: probe_tls_read). */
  const char *version;
  const char *cipher;
  const char *alpn;
  /* Why no session was offered on a new connection of a resumed sample,
   * or NULL (pooled). */
  const char *not_offered;
  /* The libcurl whose TLS made the connection when it was not the linked
   * OpenSSL one: "libcurl-gnutls" (HTTP/3, --http3 fallback too), else
   * NULL (pooled or static). */
  const char *library;
  /* Expiry (notAfter, seconds since the epoch) of the certificate that
   * expires first among those the server sent, and among those of the
   * chain verified to a trust anchor (none under -k); 0 unknown.  As
   * blackbox_exporter's probe_ssl_earliest_cert_expiry and
   * probe_ssl_last_chain_expiry_timestamp_seconds. */
  int64_t cert_expiry;
  int64_t chain_expiry;
  /* The server's leaf certificate as blackbox_exporter's
   * probe_ssl_last_chain_info labels it: SHA-256 of the DER in hex, subject
   * and issuer as Go's pkix.Name.String(), the subjectAltName DNS names
   * joined by ",", the serial number in hex; pooled, NULL without TLS. */
  const char *leaf_sha256;
  const char *leaf_subject;
  const char *leaf_issuer;
  const char *leaf_dns_names;
  const char *leaf_serial;
  int8_t resumed; /* 1 resumed, 0 full handshake, -1 unknown/no TLS */
  int8_t offered; /* 1 the ClientHello offered a session, 0 not, -1 no TLS */
};

/* A first connection attempt that failed or lost to another address (the
 * happy eyeballs of libcurl, as curl's): the address tried first, its
 * family (4 or 6), why ("refused", "failed", "no answer within the
 * happy eyeballs delay"), and the time from that attempt to the start of
 * the one that connected.  address NULL: the first attempt connected. */
struct hop_fallback {
  const char *address;
  const char *reason;
  int64_t lost_us;
  int family;
};

/* One round of a hop's body (hopsplit(1) TRANSPORT): a burst of arrivals,
 * from its first to its last, in microseconds from the hop's first
 * response byte, and the body bytes it brought. */
struct hop_round {
  int32_t start_us;
  int32_t us;
  int64_t bytes;
};
#define HOP_ROUNDS_MAX 64

/* What is rare in a hop's TCP facts (struct hop_tcp): an upload's
 * figures, the body's rounds and why nothing was read; kept as a hop's
 * TLS facts are (hop_flow_none, hop_flow_edit, pooled by hop_pool_arrays:
 * most hops have none of them and share one copy). */
struct hop_flow {
  /* Uploads (a request body): the kernel's delivery rate (bytes/s) and the
   * time the sender was busy, limited by the receiver's window and by its
   * own buffer; -1 for other hops. */
  int64_t delivery_rate, busy_us, rwnd_limited_us, sndbuf_limited_us;
  /* The body's rounds (n_rounds, the first HOP_ROUNDS_MAX - 1 kept and the
   * rest in the last), and the rate of the last full round (bytes over
   * the time to the next round's start, bytes/s); n_rounds 0 and rate -1
   * when not counted (no body, a round trip too short to tell them). */
  const struct hop_round *rounds;
  int64_t last_round_rate;
  const char *missing; /* pooled, or NULL: see struct hop_tcp */
  uint32_t n_rounds;
  uint8_t n_kept; /* entries of rounds (at most HOP_ROUNDS_MAX) */
};

/* The kernel's view of a hop's TCP connection (Linux TCP_INFO, read when
 * the connection is ready for the request, at the first response byte and
 * at the last).  Counters are the connection's since it opened for a new
 * connection, since the hop's request for a reused one.  Every value is -1
 * when not measured.  The hop's tcp_valid 0: no TCP connection was read
 * (flow->missing says why: QUIC, another system, a failed hop), and every
 * value is -1. */
struct hop_tcp {
  int64_t bytes_in, bytes_out;
  const struct hop_flow *flow; /* never NULL */
  /* 32 bits, as the kernel's struct tcp_info has them (a hop of every
   * sample is kept: SPEC 8's footprint). */
  int32_t min_rtt_us, rtt_us, rttvar_us, rcv_rtt_us;
  int32_t retransmits; /* segments the client sent again (total_retrans) */
  int32_t rcv_ooopack; /* segments received out of order: loss inbound */
  int32_t segs_in, segs_out;
};

/* What a hop asked for and what came back, apart from its times and its
 * connection: equal across the samples of a target as a rule (a Date
 * header changes it once a second), so a finished hop points to the
 * pool's one copy (hop_pool_arrays), as it does for its TLS and resolver
 * facts: a run keeps every hop of every sample (SPEC 8's footprint).
 * Every string is pooled; the arrays (headers, fallback) are the hop's
 * own until pooled.  Fields are ordered so that no padding falls between
 * them; copies start as memcpy of hop_info_none, so the tail's padding is
 * zero too (the pool compares the bytes). */
struct hop_info {
  const char *url; /* requested URL, unredacted (reports redact) */
  const char *method;
  const char *host;
  const char *http_version; /* "1.1", "2", "1.0", NULL */
  const char *remote_ip;
  /* The first connection attempt that failed or lost, NULL when the first
   * attempt connected (most hops): owned like the arrays (hop_set_fallback,
   * hop_pool_arrays). */
  const struct hop_fallback *fallback;
  /* libcurl's stamps were out of order: what was wrong and what the
   * phases use instead (pooled), or NULL. */
  const char *timing_anomaly;
  /* --http3 ended on TCP: why (pooled), else NULL. */
  const char *h3_fallback;
  /* The response's Alt-Svc offer (the h3 one when there is one, else the
   * first): protocol id ("h3"), port (alt_svc_port below, 0: none),
   * max-age in seconds (-1: not given, 86400 by default, RFC 7838); NULL
   * when no Alt-Svc came. */
  const char *alt_svc;
  int64_t alt_svc_ma;
  int64_t size_download; /* body bytes as received on the wire */
  int64_t size_decoded;  /* body bytes after content decoding */
  int64_t size_header;
  int64_t content_length; /* the response's Content-Length, -1 none */
  const char *location;   /* raw Location header, or NULL */
  struct header *headers; /* diagnostic response headers only */
  /* With -i, -D or -v (options_heads) only, else NULL: the request's
   * header block as libcurl sent it and the response header blocks as
   * received (1xx ones included), each line with its CRLF, unredacted
   * (reports redact).  Pooled. */
  const char *head_out;
  const char *head_in;
  /* libcurl's request bytes (headers and body, CURLINFO_REQUEST_SIZE),
   * body bytes uploaded (CURLINFO_SIZE_UPLOAD_T), -1 unknown, and the
   * local address of the connection (pooled, NULL unknown): curl's -w
   * size_request, size_upload, local_ip. */
  int64_t size_request;
  int64_t size_upload;
  const char *local_ip;
  /* The server's certificate chain as curl's -w %{certs} prints it
   * (pooled; only when -w asks for certs or num_certs, else NULL), and
   * num_certs below. */
  const char *certs;
  uint32_t n_headers;
  int32_t status; /* 0 when no response */
  /* The bytes sent as TLS early data (libcurl's tls_earlydata, 8.11),
   * -1 unknown. */
  int32_t earlydata;
  /* With options.body_regexps: bit i set when pattern i matched somewhere
   * in this hop's body (body_scanned 1: the body was searched). */
  uint32_t body_matched;
  uint16_t remote_port;  /* 0 unknown */
  uint16_t alt_svc_port; /* the Alt-Svc offer's port, 0: none */
  int16_t num_certs;
  uint8_t family; /* 4 or 6: family of remote_ip, 0 unknown */
  uint8_t body_scanned;
  /* 1 when options.body_limit stopped the transfer: size_decoded bytes of
   * the body were read, the rest never was (the hop is otherwise whole). */
  uint8_t body_limited;
};

/* A hop: what changes from sample to sample (its times, its connection)
 * in place, the rest behind pointers to pooled facts.  Fields are ordered
 * and sized so that a hop takes few bytes: a run keeps every hop of every
 * sample (the performance budget of tests/bench). */
struct hop {
  /* The hop's request and response: hop_info_none until the probe writes
   * them through hop_info_edit, then the hop's own copy, and from
   * hop_pool_arrays on the pool's copy, stored once for the equal facts
   * of every sample. */
  const struct hop_info *info;
  /* The connection's TLS facts: hop_tls_none (no TLS, nothing known)
   * until the probe writes them through hop_tls_edit, then the hop's own
   * copy, and from hop_pool_arrays on the pool's copy, kept as info is. */
  const struct hop_tls *tls;
  /* The resolver's facts, kept as tls is: hop_dns_none, the hop's own
   * copy (hop_dns_edit), the pool's copy (hop_pool_arrays).  The time
   * spent in c-ares for this hop, 0 if none, is dns_us. */
  const struct hop_dns *dns;
  int64_t dns_us;
  struct hop_tcp tcp;
  int64_t start_us; /* when the hop began, from the start of the sample */
  int64_t phases[PHASE_COUNT]; /* microseconds, total = sum of the rest */
  struct curl_times curl;
  /* libcurl 8's ids of the hop's connection and transfer (conn_id,
   * xfer_id: libcurl >= 8.2, else -1). */
  int32_t conn_id;
  int32_t xfer_id;
  uint16_t local_port; /* the client's port of the connection, 0 unknown */
  uint8_t reused;      /* connection reused, no connect/TLS */
  /* tcp was read (struct hop_tcp's "valid"; kept here, where it takes no
   * padding: a hop 248 -> 240 bytes). */
  uint8_t tcp_valid;
  uint8_t pooled; /* its arrays and facts live in the string pool */
};

/* What is rare in a sample: a failure's message, and what was primed
 * before it.  Pooled, and stored once for the equal ones of every sample
 * (sample_rare, sample_set_*): most samples have none. */
struct sample_rare {
  const char *err_message; /* pooled */
  /* URLs fetched unmeasured right before this sample: the target's own
   * URL when a resumed sample needed fresh TLS sessions, then the --prime
   * URLs run on this sample's client.  A pooled array of n_primed pooled
   * strings, shared by the samples of a target (the sample does not own
   * it); prime_error is the first failure of a --prime (pooled), NULL
   * when every prime succeeded. */
  const char *const *primed;
  const char *prime_error;
  uint32_t n_primed;
};

/* Fields are ordered and sized so that a sample takes few bytes: a run
 * keeps every sample (SPEC 8's footprint). */
struct sample {
  uint32_t target;  /* index into the plan's targets */
  int32_t round;    /* 1-based */
  int32_t position; /* 1-based position inside the round */
  uint32_t n_hops;
  int32_t status; /* final HTTP status: the last hop's, 0 when none came */
  uint8_t mode;   /* enum sample_mode */
  uint8_t err;    /* enum err_class */
  uint8_t ok;
  uint8_t hops_pooled; /* hops lives in the string pool (results_add) */
  /* interference_us passed the threshold (sample_is_interfered): left
   * out of the statistics unless --keep-interfered. */
  uint8_t interfered;
  /* --parallel: one of the serial control samples measured alone before
   * the batch; the statistics of the batch leave it out, the report
   * compares the batch's medians with these. */
  uint8_t control;
  int64_t started_at_ms; /* wall clock, ms since the epoch */
  /* The rare facts, pooled; NULL when there are none.  Read them with
   * sample_rare, write them with sample_set_*. */
  const struct sample_rare *rare;
  int64_t total_us;    /* wall time of the whole sample */
  int64_t redirect_us; /* sum of hop totals before the last hop */
  int64_t other_us;    /* total - sum of hop totals: time between hops */
  struct hop *hops;
  /* Warm: how long the client's connections sat idle before this sample,
   * from the end of its previous request (the priming request before the
   * first sample); -1 in the other modes. */
  int64_t idle_us;
  /* The most the sample's stamps can be late from what the measurer did
   * or suffered while it was in flight: the sum of the parts below that
   * are times, but the run-queue delay (sample_interference_sum;
   * hopsplit(1) INTERFERENCE).  A few microseconds when it ran alone on an
   * idle machine. */
  int64_t interference_us;
  /* The parts, while the sample was in flight:
   * - late_us: the loop's lateness, the largest delay over the sample's
   *   socket events and timers between one being ready (due) and the
   *   loop handling it (engine.c bounds a socket's); -1 unknown (a
   *   document from before the parts);
   * - own_us: the time spent in hopsplit's own callbacks inside libcurl
   *   (on the measured path);
   * - runq_us: the loop thread's wait for a CPU (run-queue delay, the
   *   kernel's schedstat; -1 unknown);
   * - lock_us: the loop thread's waits for hopsplit's own locks (stall.h;
   *   -1 unknown);
   * - output_us: the loop thread's time saying and writing output
   *   (diagnostics, reports, the NDJSON stream; -1 unknown);
   * - output_bytes: the bytes of output the process wrote (any thread). */
  int64_t late_us;
  int64_t own_us;
  int64_t runq_us;
  int64_t lock_us;
  int64_t output_us;
  int64_t output_bytes;
};

/* A sample whose interference_us (every part of it: lateness, own work,
 * lock waits, output) passes both of these (1 ms, and
 * 1 % of the sample's total) was measured by a measurer too disturbed
 * to trust its stamps: flagged in every output and left out of the
 * statistics unless --keep-interfered (hopsplit(1), INTERFERENCE).  The
 * relative part keeps a stamp 1.5 ms late in a 440 ms request, which
 * moves it by 0.3 %. */
#define SAMPLE_INTERFERENCE_MAX_US  1000
#define SAMPLE_INTERFERENCE_MAX_PCT 1

extern const char *const sample_mode_names[MODE_COUNT];
extern const char *const phase_names[PHASE_COUNT];
extern const char *const err_class_names[ERR_COUNT];

/* Name lookups; return the _COUNT sentinel when the name is unknown. */
enum sample_mode sample_mode_from_name(const char *name);
enum err_class err_class_from_name(const char *name);

void sample_init(struct sample *s);
/* The rare facts of s (struct sample_rare): the pool's copy, or one with
 * none of them (every field NULL or 0). */
const struct sample_rare *sample_rare(const struct sample *s);
/* Set one of them (msg, v: pooled, or NULL for none; v an array of n): s
 * then points to the pool's copy of the changed facts. */
void sample_set_err_message(struct sample *s, const char *msg);
void sample_set_primed(struct sample *s, const char *const *v, uint32_t n);
void sample_set_prime_error(struct sample *s, const char *msg);
void sample_release(struct sample *s);
/* Append a zeroed hop and return it; the sample owns it.  The hop array
 * grows by exactly one: samples have few hops. */
struct hop *sample_add_hop(struct sample *s);
void hop_init(struct hop *h);
/* A hop's TLS facts before any are known: every string NULL, expiries 0,
 * resumed and offered -1. */
extern const struct hop_tls hop_tls_none;
/* The hop's TLS facts, writable: its own copy, made on first use (never
 * on a pooled hop). */
struct hop_tls *hop_tls_edit(struct hop *h);
/* The same for the resolver's facts: ttl -1, nothing else known. */
extern const struct hop_dns hop_dns_none;
struct hop_dns *hop_dns_edit(struct hop *h);
/* The same for the request and response: no status, sizes unknown (-1)
 * but the two received (0). */
extern const struct hop_info hop_info_none;
struct hop_info *hop_info_edit(struct hop *h);
/* The same for the rare TCP facts: -1, no rounds, nothing missing. */
extern const struct hop_flow hop_flow_none;
struct hop_flow *hop_flow_edit(struct hop *h);
/* Free the hop's arrays (not its pooled strings) and re-initialise it. */
void hop_release(struct hop *h);
/* Read an Alt-Svc header value (RFC 7838: entries `proto="host:port";
 * ma=N; persist=1`, comma-separated, or `clear`) into the hop's alt_svc
 * fields: the h3 entry when one is offered, else the first; "clear" for
 * clear.  A value with no entry it can read leaves the hop as it was. */
void hop_set_alt_svc(struct hop *h, const char *value);
/* Set the hop's fallback to a copy of *fb (NULL: none). */
void hop_set_fallback(struct hop *h, const struct hop_fallback *fb);
/* Append a failed resolver (interns the strings; query "A", "AAAA" or
 * NULL); beyond DNS_FAILURES_MAX the failure is dropped. */
void hop_add_dns_failure(struct hop *h, const char *server, const char *rcode,
                         int64_t us, const char *query);
/* Set the hop's rounds to a copy of v[0..n) (n at most HOP_ROUNDS_MAX) of
 * total rounds (the last kept one holds the rest). */
void hop_set_rounds(struct hop *h, const struct hop_round *v, size_t n,
                    uint32_t total);
/* How many of the hop's rounds its array holds. */
size_t hop_rounds_kept(const struct hop *h);
/* The hop's server time (hopsplit(1) TRANSPORT): its wait less one
 * minimum round trip of its connection, at least 0; -1 without one. */
int64_t hop_server_us(const struct hop *h);
/* Add a header (interns both strings) to a hop; the array grows by one. */
void hop_add_header(struct hop *h, const char *name, const char *value);
/* Replace the hop's headers with a copy of the n headers at v (an array of
 * exactly n); the strings must already be pooled. */
/* Move the hop's arrays (headers, addresses, cnames) into the string pool,
 * where equal arrays of other samples are stored once; after this they are
 * read-only and hop_release leaves them alone.  Call when the hop is
 * complete. */
void hop_pool_arrays(struct hop *h);
void hop_set_headers(struct hop *h, const struct header *v, size_t n);
/* Append the pooled copy of s to the vector (*v, *n), growing it by one. */
void hop_strv_push(const char ***v, uint32_t *n, const char *s);
/* The value of the first header called name (any case) of h[0..n), ""
 * for one without a value; NULL when there is none. */
const char *header_find(const struct header *h, size_t n, const char *name);
/* Every value of the headers called name joined with ", ", as RFC 9110
 * 5.3 allows a list field to be split.  Malloc'd; NULL when none. */
char *header_join(const struct header *h, size_t n, const char *name);
/* First header of that name (case-insensitive) or NULL. */
const char *hop_header(const struct hop *h, const char *name);
/* Whether a response header is kept as diagnostic (cache, CDN, timing). */
int sample_header_is_diagnostic(const char *name);
/* The one address of addrs[0..n) (n > 0) a blackbox module connects to
 * (options.ip_prefer, blackbox_exporter's chooseProtocol): the first of
 * family prefer (4 or 6), else the last of the other; its index. */
size_t sample_preferred_address(const char *const *addrs, size_t n,
                                int prefer);

/* Whether a sample goes into the statistics: it succeeded, it is not a
 * serial control of --parallel, and it was not interfered with (unless
 * keep_interfered, --keep-interfered). */
int sample_counted(const struct sample *s, int keep_interfered);

/* The parts of interference_us that are times, in the order of the
 * fields (struct sample), their JSON names' middle word ("late" for
 * interference_late_us, ...), and what each means in a sentence ("the
 * loop busy with other work", ...). */
enum interference_part {
  IP_LATE,
  IP_OWN,
  IP_RUNQ,
  IP_LOCK,
  IP_OUTPUT,
  IP_COUNT
};
extern const char *const interference_part_names[IP_COUNT];
extern const char *const interference_part_says[IP_COUNT];
/* The part of s, microseconds, or -1 when not measured. */
int64_t sample_interference_part(const struct sample *s,
                                 enum interference_part p);
/* A sample's interference_us from its parts (struct sample): the sum of
 * those known (>= 0; -1 unknown counts as nothing), an upper bound on
 * how late the measurer's own doing can have made its stamps.  The
 * run-queue delay is not in it: on a loaded machine every serial sample
 * waits for a CPU (at load 12 on 2 cores, most cold loopback samples
 * milliseconds), which would leave most of them out; it is recorded
 * beside and said when past the threshold (sample_cpu_waited). */
int64_t sample_interference_sum(int64_t late_us, int64_t own_us,
                                int64_t lock_us, int64_t output_us);
/* 1 when the sample's thread waited for a CPU past the interference
 * threshold (runq_us > 1 ms and 1 % of its total): said, not left out. */
int sample_cpu_waited(const struct sample *s);
/* 1 when a sample of total_us whose stamps can be interference_us late
 * is past the threshold (SAMPLE_INTERFERENCE_MAX_US and _PCT). */
int sample_is_interfered(int64_t interference_us, int64_t total_us);

/* Compute redirect_us and other_us from total_us and the hop totals.  The
 * hop phases must already be set; closes the accounting exactly. */
void sample_close_accounts(struct sample *s);

/* The phases a sample sums to (hopsplit(1) MEASUREMENT): each hop phase over
 * its hops, then redirect, other and total.  Names as hopsplit(1) OUTPUT
 * prints them. */
enum sum_phase {
  SUM_DNS,
  SUM_CONNECT,
  SUM_TLS,
  SUM_SEND,
  SUM_WAIT,
  SUM_TRANSFER,
  SUM_REDIRECT,
  SUM_OTHER,
  SUM_TOTAL,
  SUM_COUNT
};
extern const char *const sum_phase_names[SUM_COUNT];

/* The value of phase ph of sample s, in microseconds. */
int64_t sample_phase_sum(const struct sample *s, enum sum_phase ph);

#endif
