/*
 * report_fields.h: the one table of fields every renderer reads and the
 * saved document is read back by, as the curl tool's tool_writeout.c
 * variables[] feeds both -w and %{json}: each row is a name, the words a
 * person reads, a type (which says the unit) and an accessor over the
 * typed sample, hop and analysis.  JSON, ndjson, CSV and HAR's "_hopsplit"
 * write rows of these tables; Prometheus and the tables of text and HTML take
 * their numbers and words from them.  No renderer parses JSON.  The same rows
 * read a saved document back (report_read.c, hopsplit report and merge): each
 * sample and hop row has a reader (set) beside its accessor (get), and the
 * bounds its value may take, so a member is named once.
 *
 * To add a fact to every format, add a row: the JSON documents get it in
 * table order (a dotted name nests it: "tls.version" is "version" inside
 * the object "tls"; consecutive rows share the object), CSV gets it when
 * it is listed in a CSV view (report_csv.c).  Names are the contract:
 * never rename one.  Field values borrow their strings unless they say
 * owned (freed by field_value_release).
 */
#ifndef HOPSPLIT_REPORT_FIELDS_H
#define HOPSPLIT_REPORT_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "report.h"
#include "sample.h"

enum field_type {
  FIELD_INT,        /* a count or an index */
  FIELD_US,         /* a duration, integer microseconds ("_us" names) */
  FIELD_BYTES,      /* a size in bytes */
  FIELD_SECONDS,    /* microseconds written as curl's seconds, 6 decimals */
  FIELD_TEXT,       /* a string */
  FIELD_BOOL,       /* true/false */
  FIELD_TIME,       /* milliseconds since the epoch, written RFC 3339 */
  FIELD_TEXTS,      /* an array of strings */
  FIELD_HEADERS,    /* a hop's diagnostic headers, by lowercase name */
  FIELD_DOUBLE,     /* a number with decimals (decimals of the row) */
  FIELD_DNS_FAILED, /* a hop's resolvers that failed: [{server,rcode,us}] */
  FIELD_LAYERS,     /* a hop's cache layers: [{vendor,verdict}] */
  FIELD_ROUNDS,     /* a hop's body rounds: [{start_us,us,bytes}] */
  FIELD_TYPE_COUNT
};

/* What a field is read from.  Hop rows have h, k and fact too. */
struct field_row {
  const struct report_ctx *c;
  const struct sample *s;
  size_t index; /* of the sample in the run */
  const struct hop *h;
  size_t k;                     /* 0-based hop index */
  const struct hop_fact *facts; /* of every hop of s, or NULL */
  const struct hop_fact *fact;  /* cache verdict and edge of the hop */
  /* Summary rows (stats, comparison). */
  const struct stats *st;
  const struct compare_result *cr;
  const struct comparison *cmp;
};

struct field_value {
  int null;
  int64_t i; /* INT, US, BYTES, SECONDS, BOOL, TIME */
  double d;  /* DOUBLE */
  const char *s;
  const char *const *v; /* TEXTS */
  size_t n;             /* TEXTS, DNS_FAILED */
  const char *one;      /* storage for a TEXTS of one string */
  char *owned;          /* s, when the accessor allocated it */
  char **owned_v;       /* v, when the accessor allocated it (n strings) */
};

/* Flags of a row. */
/* The rows' object is null when its first row is (a sample's "error", a
 * hop's "fallback"). */
#define FIELD_NULL_OBJECT 1u
/* Left out of JSON when null (fields that only some runs have). */
#define FIELD_OPTIONAL 2u
/* -w writes it in three digits, as curl's %{http_code} ("000": none). */
#define FIELD_CURL_CODE 4u
/* The name is one JSON key, dots and all (curl's "url.host"), not a path. */
#define FIELD_FLAT_NAME 8u

/* Bounds of what a saved document may hold: beyond them the analysis
 * could overflow.  Durations are at most FIELD_MAX_US either way (about
 * 27 hours), counts and sizes at most 2^53 (what JSON carries exactly), a
 * sample has at most FIELD_MAX_HOPS hops (--max-redirs is at most 1000). */
#define FIELD_MAX_US   100000000000LL
#define FIELD_MAX_INT  9007199254740992LL
#define FIELD_MAX_HOPS 1001

/* What a saved document's rows are read into (report_read.c): the sample
 * of the plan, and its hop for the hop rows; the fallback.* rows collect
 * into fb (has_fb set), which the reader hands to hop_set_fallback. */
struct field_in {
  const struct plan *plan;
  struct sample *s;
  struct hop *h;
  struct hop_fallback fb;
  int has_fb;
};

/* A row's reader: the reader of the document has checked the member
 * against the row's type (numbers against [min, max]) and passes its
 * value, null when the member is absent or null.  Returns NULL, or what
 * is wrong with the value (a fixed string). */
typedef const char *field_set_fn(struct field_in *in,
                                 const struct field_value *v);

struct field {
  const char *name;  /* JSON path in its object, dotted */
  const char *label; /* in words, for people */
  enum field_type type;
  void (*get)(const struct field_row *r, struct field_value *v);
  unsigned flags;
  int decimals;         /* FIELD_DOUBLE */
  const char *quantile; /* stats rows: Prometheus quantile, or NULL */
  /* Reading it back: NULL when a document's value is not read (computed
   * again by the analysis, as cache and edge, or not kept). */
  field_set_fn *set;
  int64_t min, max; /* INT, US, BYTES: the values a document may hold */
};

/* The rest of a row that is not read back. */
#define FIELD_NO_READ NULL, 0, 0

/* The tables, each ending in a row with a NULL name.  Samples: the
 * members of a sample object before "hops"; hops: the members of a hop
 * object; stats: a phase's statistics; comparison: the members of a
 * comparison[] entry per phase (target, baseline and mode are written by
 * the renderer). */
/* The rows of report_sample_fields, in table order (the order JSON writes
 * them): renderers name a row as &report_sample_fields[ID], checked by the
 * compiler. */
enum field_sample_id {
  FS_INDEX,           /* "index" */
  FS_TARGET,          /* "target" */
  FS_MODE,            /* "mode" */
  FS_ROUND,           /* "round" */
  FS_POSITION,        /* "position" */
  FS_STARTED_AT,      /* "started_at" */
  FS_OK,              /* "ok" */
  FS_ERROR_CLASS,     /* "error.class" */
  FS_ERROR_MESSAGE,   /* "error.message" */
  FS_TOTAL_US,        /* "total_us" */
  FS_REDIRECT_US,     /* "redirect_us" */
  FS_OTHER_US,        /* "other_us" */
  FS_STATUS,          /* "status" */
  FS_PRIMED,          /* "primed" */
  FS_PRIME_ERROR,     /* "prime_error" */
  FS_IDLE_US,         /* "idle_us" */
  FS_INTERFERENCE_US, /* "interference_us" */
  FS_INTERFERED,      /* "interfered" */
  FS_LATE_US,         /* "interference_late_us" */
  FS_OWN_US,          /* "interference_own_us" */
  FS_RUNQ_US,         /* "interference_runq_us" */
  FS_LOCK_US,         /* "interference_lock_us" */
  FS_OUTPUT_US,       /* "interference_output_us" */
  FS_OUTPUT_BYTES,    /* "interference_output_bytes" */
  FS_CONTROL,         /* "control" */
  FS_COUNT
};

/* The rows of report_hop_fields, in table order (the order JSON writes them):
 * renderers name a row as &report_hop_fields[ID], checked by the compiler. */
enum field_hop_id {
  FH_HOP,                     /* "hop" */
  FH_URL,                     /* "url" */
  FH_METHOD,                  /* "method" */
  FH_HOST,                    /* "host" */
  FH_STATUS,                  /* "status" */
  FH_HTTP_VERSION,            /* "http_version" */
  FH_REMOTE_IP,               /* "remote_ip" */
  FH_REMOTE_PORT,             /* "remote_port" */
  FH_REUSED,                  /* "reused" */
  FH_START_US,                /* "start_us" */
  FH_LOCAL_PORT,              /* "local_port" */
  FH_FAMILY,                  /* "family" */
  FH_FALLBACK_ADDRESS,        /* "fallback.address" */
  FH_FALLBACK_FAMILY,         /* "fallback.family" */
  FH_FALLBACK_REASON,         /* "fallback.reason" */
  FH_FALLBACK_LOST_US,        /* "fallback.lost_us" */
  FH_H3_FALLBACK,             /* "h3_fallback" */
  FH_ALT_SVC_PROTOCOL,        /* "alt_svc.protocol" */
  FH_ALT_SVC_PORT,            /* "alt_svc.port" */
  FH_ALT_SVC_MAX_AGE,         /* "alt_svc.max_age" */
  FH_TIMING_ANOMALY,          /* "timing_anomaly" */
  FH_TLS_VERSION,             /* "tls.version" */
  FH_TLS_CIPHER,              /* "tls.cipher" */
  FH_TLS_ALPN,                /* "tls.alpn" */
  FH_TLS_RESUMED,             /* "tls.resumed" */
  FH_TLS_OFFERED,             /* "tls.offered" */
  FH_TLS_NOT_OFFERED,         /* "tls.not_offered" */
  FH_TLS_LIBRARY,             /* "tls.library" */
  FH_TLS_EARLYDATA,           /* "tls_earlydata" */
  FH_DNS_US,                  /* "dns.us" */
  FH_DNS_SERVER,              /* "dns.server" */
  FH_DNS_ADDRESSES,           /* "dns.addresses" */
  FH_DNS_CNAMES,              /* "dns.cnames" */
  FH_DNS_TTL,                 /* "dns.ttl" */
  FH_DNS_PINNED,              /* "dns.pinned" */
  FH_DNS_CACHED,              /* "dns.cached" */
  FH_DNS_LITERAL,             /* "dns.literal" */
  FH_DNS_FAILED_SERVERS,      /* "dns.failed_servers" */
  FH_PHASES_US_DNS,           /* "phases_us.dns" */
  FH_PHASES_US_CONNECT,       /* "phases_us.connect" */
  FH_PHASES_US_TLS,           /* "phases_us.tls" */
  FH_PHASES_US_SEND,          /* "phases_us.send" */
  FH_PHASES_US_WAIT,          /* "phases_us.wait" */
  FH_PHASES_US_TRANSFER,      /* "phases_us.transfer" */
  FH_PHASES_US_TOTAL,         /* "phases_us.total" */
  FH_CURL_TIME_NAMELOOKUP,    /* "curl.time_namelookup" */
  FH_CURL_TIME_CONNECT,       /* "curl.time_connect" */
  FH_CURL_TIME_APPCONNECT,    /* "curl.time_appconnect" */
  FH_CURL_TIME_PRETRANSFER,   /* "curl.time_pretransfer" */
  FH_CURL_TIME_POSTTRANSFER,  /* "curl.time_posttransfer" */
  FH_CURL_TIME_STARTTRANSFER, /* "curl.time_starttransfer" */
  FH_CURL_TIME_TOTAL,         /* "curl.time_total" */
  FH_TCP_MIN_RTT_US,          /* "tcp.min_rtt_us" */
  FH_TCP_RTT_US,              /* "tcp.rtt_us" */
  FH_TCP_RTTVAR_US,           /* "tcp.rttvar_us" */
  FH_TCP_RCV_RTT_US,          /* "tcp.rcv_rtt_us" */
  FH_TCP_RETRANSMITS,         /* "tcp.retransmits" */
  FH_TCP_RCV_OOOPACK,         /* "tcp.rcv_ooopack" */
  FH_TCP_BYTES_IN,            /* "tcp.bytes_in" */
  FH_TCP_BYTES_OUT,           /* "tcp.bytes_out" */
  FH_TCP_SEGS_IN,             /* "tcp.segs_in" */
  FH_TCP_SEGS_OUT,            /* "tcp.segs_out" */
  FH_TCP_DELIVERY_RATE,       /* "tcp.delivery_rate" */
  FH_TCP_BUSY_TIME_US,        /* "tcp.busy_time_us" */
  FH_TCP_RWND_LIMITED_US,     /* "tcp.rwnd_limited_us" */
  FH_TCP_SNDBUF_LIMITED_US,   /* "tcp.sndbuf_limited_us" */
  FH_TCP_ROUNDS,              /* "tcp.rounds" */
  FH_TCP_LAST_ROUND_RATE,     /* "tcp.last_round_rate" */
  FH_TCP_ROUND_LIST,          /* "tcp.round_list" */
  FH_TCP_MISSING,             /* "tcp_missing" */
  FH_SERVER_US,               /* "server_us" */
  FH_NETWORK_US,              /* "network_us" */
  FH_SERVER_TIMING_US,        /* "server_timing_us" */
  FH_CACHE_VERDICT,           /* "cache.verdict" */
  FH_CACHE_INFERRED,          /* "cache.inferred" */
  FH_CACHE_VENDOR,            /* "cache.vendor" */
  FH_CACHE_LAYERS,            /* "cache.layers" */
  FH_EDGE_VENDOR,             /* "edge.vendor" */
  FH_EDGE_POP,                /* "edge.pop" */
  FH_SIZE_DOWNLOAD,           /* "size_download" */
  FH_SIZE_DECODED,            /* "size_decoded" */
  FH_SIZE_HEADER,             /* "size_header" */
  FH_LOCATION,                /* "location" */
  FH_HEADERS,                 /* "headers" */
  FH_COUNT
};

/* The rows of report_stat_fields, in table order (the order JSON writes them):
 * renderers name a row as &report_stat_fields[ID], checked by the compiler. */
enum field_stat_id {
  FT_N,         /* "n" */
  FT_MIN_US,    /* "min_us" */
  FT_P50_US,    /* "p50_us" */
  FT_P95_US,    /* "p95_us" */
  FT_MAX_US,    /* "max_us" */
  FT_MEAN_US,   /* "mean_us" */
  FT_STDDEV_US, /* "stddev_us" */
  FT_MAD_US,    /* "mad_us" */
  FT_COUNT
};

/* The rows of report_compare_fields, in table order (the order JSON writes
 * them): renderers name a row as &report_compare_fields[ID], checked by the
 * compiler. */
enum field_compare_id {
  FC_N_PAIRS,        /* "n_pairs" */
  FC_N_DROPPED,      /* "n_dropped" */
  FC_PAIRED,         /* "paired" */
  FC_METHOD,         /* "method" */
  FC_N_BASELINE,     /* "n_baseline" */
  FC_N_TARGET,       /* "n_target" */
  FC_MEDIAN_DIFF_US, /* "median_diff_us" */
  FC_CI_LOW_US,      /* "ci_low_us" */
  FC_CI_HIGH_US,     /* "ci_high_us" */
  FC_CI_LEVEL,       /* "ci_level" */
  FC_CI_AVAILABLE,   /* "ci_available" */
  FC_CHANGE_PCT,     /* "change_pct" */
  FC_VERDICT,        /* "verdict" */
  FC_COUNT
};

/* Hop fields no document writes: libhopsplit's hs_field_find finds them
 * after the documents' rows (hopsplit(3), FIELDS NO DOCUMENT WRITES). */
enum {
  FHL_CONTENT_LENGTH, /* "content_length" */
  FHL_CERT_EXPIRY,    /* "tls.cert_expiry" */
  FHL_CHAIN_EXPIRY,   /* "tls.chain_expiry" */
  FHL_LEAF_SHA256,    /* "tls.leaf.sha256" */
  FHL_LEAF_SUBJECT,   /* "tls.leaf.subject" */
  FHL_LEAF_ISSUER,    /* "tls.leaf.issuer" */
  FHL_LEAF_SERIAL,    /* "tls.leaf.serial" */
  FHL_LEAF_DNS_NAMES, /* "tls.leaf.dns_names" */
  FHL_DNS_PREFERRED,  /* "dns.preferred" */
  FHL_RESPONSE_HEAD,  /* "response_head" */
  FHL_BODY_SCANNED,   /* "body.scanned" */
  FHL_BODY_MATCHED,   /* "body.matched" */
  FHL_BODY_LIMITED,   /* "body.limited" */
  FHL_COUNT
};

extern const struct field report_sample_fields[FS_COUNT + 1];
extern const struct field report_hop_fields[FH_COUNT + 1];
extern const struct field report_hop_lib_fields[FHL_COUNT + 1];
extern const struct field report_stat_fields[FT_COUNT + 1];
extern const struct field report_compare_fields[FC_COUNT + 1];
/* curl's -w/--write-out variables of a sample (writeout.c), sorted by
 * name as curl's %{json} is: curl's names with curl's meaning, and
 * hopsplit's own (target, mode, round, error_class); read with a sample
 * row (field_row_sample). */
extern const struct field report_writeout_fields[];
/* The final HTTP status of a sample (its last hop's; null without one):
 * not a member of the sample object (its hops say it), for the views
 * that show a sample in one row. */
extern const struct field report_sample_status;

/* The row named name in table t; BUG() when there is none, so that a
 * misspelt name fails every test instead of printing an empty field. */
const struct field *field_find(const struct field *t, const char *name);

void field_get(const struct field *f, const struct field_row *r,
               struct field_value *v);
void field_value_release(struct field_value *v);

/* v as plain text for CSV and tables: numbers as integers (durations in
 * microseconds), true/false, "" for null, TEXTS joined with " ". */
void field_plain(const struct field *f, const struct field_value *v,
                 struct buf *out);
/* field_plain, also for the types that need the row (cache layers as
 * "vendor:VERDICT ...", nearest the user first). */
void field_plain_row(const struct field *f, const struct field_row *r,
                     const struct field_value *v, struct buf *out);
/* v for a person: durations in ms or s, sizes in B/KiB/MiB, "-" for
 * null, yes/no. */
void field_human(const struct field *f, const struct field_value *v,
                 struct buf *out);
/* v as curl's -w prints it: seconds with six decimals, FIELD_CURL_CODE
 * rows in three digits, nothing for null, else as field_plain. */
void field_curl(const struct field *f, const struct field_value *v,
                struct buf *out);

struct json;
/* Write the rows of t (those whose name starts with prefix, which is
 * stripped, when prefix is not NULL) into the open JSON object j, nested
 * by their dotted names. */
void field_json(struct json *j, const struct field *t, const char *prefix,
                const struct field_row *r);

/* A row for sample s, index-th of the run, whose hops' facts are facts
 * (n_hops of them, or NULL); then field_row_hop makes it a row of hop k. */
void field_row_sample(struct field_row *r, const struct report_ctx *c,
                      const struct sample *s, size_t index,
                      const struct hop_fact *facts);
void field_row_hop(struct field_row *r, size_t k);
/* The facts of sample index of the analysis, or NULL. */
const struct hop_fact *field_facts(const struct report_ctx *c, size_t index);

/* The final response's header lines in head (a hop's head_in: every
 * block as received, 1xx ones first), after its status line: *len bytes
 * from the return; NULL when head is NULL. */
const char *field_final_headers(const char *head, size_t *len);

#endif
