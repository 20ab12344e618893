/*
 * options.h: the settings of a run, the record the option table
 * (config/option_table.h) fills from the command line or a profile, and
 * its life cycle (options_lifecycle.c).
 *
 * struct options owns every string it points to; options_release frees
 * them.  Later stages read it through const pointers.
 */
#ifndef HOPSPLIT_OPTIONS_H
#define HOPSPLIT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "netprofile.h"
#include "sample.h"
#include "schedule.h"

struct body_regexps; /* probe.h */
struct opt_def;      /* option_table.h */

enum report_format {
  FORMAT_TEXT,
  FORMAT_JSON,
  FORMAT_NDJSON,
  FORMAT_CSV,
  FORMAT_HAR,
  FORMAT_HTML,
  FORMAT_PROM,
  FORMAT_JUNIT,
  FORMAT_COUNT
};
extern const char *const report_format_names[FORMAT_COUNT];

enum tristate { TRI_AUTO, TRI_ALWAYS, TRI_NEVER, TRI_COUNT };
enum trace_mode { TRACE_AUTO, TRACE_ALWAYS, TRACE_NEVER, TRACE_COUNT };

/* HTTP_PREF_3: HTTP/3 over QUIC with curl's fallback to TCP (--http3);
 * HTTP_PREF_3_ONLY: no fallback (--http3-only).  Both run on the GnuTLS
 * libcurl loaded at run time (hopsplit(1), HTTP/3). */
enum http_pref {
  HTTP_PREF_DEFAULT,
  HTTP_PREF_1_1,
  HTTP_PREF_2,
  HTTP_PREF_3,
  HTTP_PREF_3_ONLY
};

/* One --prime: fetch url unmeasured before each sample of the target
 * named target (every target when target is NULL).  Both owned. */
struct prime_spec {
  char *target;
  char *url;
};

struct output_spec {
  char *path;
  enum report_format format;
};

/* One option as it was applied: its definition and its value (NULL for a
 * flag).  The value is owned by the struct options that records it. */
struct opt_given {
  const struct opt_def *def;
  char *val;
};

struct options {
  long rounds;
  int rounds_set;            /* -n or a profile's rounds: as written */
  unsigned modes;            /* bit (1u << MODE_x) */
  enum schedule_order order; /* inside a round (hopsplit(1) MEASUREMENT) */
  uint64_t seed;
  int seed_set;
  int64_t pause_us;
  /* --payload-size: the body size the payload finding prices (bytes), 0:
   * what arrived in the first round (hopsplit(1) FINDINGS). */
  int64_t payload_size;
  /* --parallel N: up to N targets measured at once (batches, never a
   * paired comparison); 1 is strictly sequential. */
  long parallel;
  /* --keep-interfered: samples past SAMPLE_INTERFERENCE_MAX_US stay in
   * the statistics (they are flagged all the same). */
  int keep_interfered;
  char *baseline;            /* --baseline NAME, NULL: the first target */
  int compare_all;           /* --compare all: every pair of targets */
  struct prime_spec *primes; /* --prime, in order given */
  size_t n_primes;
  long max_redirs;
  int follow;
  char *method;   /* -X as given, "GET" by default; see options_method */
  int method_set; /* -X was given: its method is sent on every hop */
  int head;       /* -I: HEAD */
  /* The request body (-d, --data-binary, --data-raw, --json) as curl
   * sends it, read once when the option is set and replayed by every
   * sample; body is NULL when there is none. */
  char *body;
  size_t body_len;
  /* A body streamed from a file by every sample instead (-T FILE, or a
   * lone --data-binary @FILE): its path and its size when the option was
   * read; a sample whose file has another size fails (class upload).
   * upload: -T, sent as curl's upload (PUT unless -X). */
  char *body_file;
  int64_t body_file_size;
  int upload;
  int body_json;      /* --json: Content-Type and Accept application/json */
  unsigned post_keep; /* --post301/302/303: bits 1, 2, 4 keep POST */
  int fail;           /* -f: a final status >= 400 fails the sample */
  char **headers;     /* "Name: value" */
  size_t n_headers;
  char *user_agent;
  int compressed;
  char **resolve; /* HOST:PORT:ADDR[,ADDR] */
  size_t n_resolve;
  char *dns_servers; /* c-ares CSV "ip:port,[ip6]:port" */
  int ip_family;     /* 0 both, 4, 6 */
  enum http_pref http;
  /* --protocols h2,h3: each URL measured once per protocol, as targets of
   * their own (HTTP_PREF_1_1, HTTP_PREF_2, HTTP_PREF_3_ONLY), in order;
   * n_protocols 0 when not given. */
  enum http_pref protocols[3];
  int n_protocols;
  /* Set by --protocols on the h1 and h2 legs of a run that has an h3 leg
   * (never by an option): they run on libcurl-gnutls too, so that every
   * leg's TLS is GnuTLS's and the comparison is like for like. */
  int gnutls_leg;
  char *cacert;
  char *capath;
  /* The variable cacert or capath came from (options_ca_from_env), for
   * messages; NULL when the command line or a profile gave them. */
  const char *cacert_env, *capath_env;
  int insecure;
  int location_trusted;
  int64_t connect_timeout_us;
  int64_t max_time_us;
  enum trace_mode trace;
  char *client_location;
  char *vantage; /* --vantage, NULL: the host name (hopsplit(1)) */
  enum report_format format;
  struct output_spec *outputs;
  size_t n_outputs;
  int dry_run;
  int show_secrets;
  enum tristate color;
  enum tristate progress;
  int verbosity;  /* -1 quiet, 0, 1+ verbose */
  int show_error; /* -S: errors still shown under -s */
  int brief;      /* --brief: one line per target and mode */
  /* --project, a profile's project: the networks each target is projected
   * onto (hopsplit(1) PROJECTION), in order; n_project 0 when not given. */
  struct net_profile project[NETPROFILES_MAX];
  size_t n_project;
  char *write_out; /* -w FORMAT, curl's %{variable} names, or NULL */
  /* -i: the response headers of one sample per target on stdout before
   * the report; -D FILE: the same into FILE ("-": stdout), as curl's
   * --dump-header.  With them, or -v, the probe keeps each hop's header
   * blocks (options_heads). */
  int include;
  char *dump_header;
  int keep_heads; /* no option: serve's header checks need the blocks */
  /* No option: serve's blackbox preferred_ip_protocol (4 or 6, 0 unset):
   * each hop connects to one address of its host's answer, the first of
   * that family, else the last of the other (blackbox_exporter's
   * chooseProtocol; ip_family 0 looks both up: the fallback). */
  int ip_prefer;
  /* No options: serve's blackbox tls_config.server_name, the TLS name
   * (SNI and the name the certificate is checked against) of the hops to
   * the first hop's host and port, apart from the URL's host; and
   * proxy_url (every hop goes through it), skip_resolve_phase_with_proxy
   * (the proxy resolves the first hop's host too), proxy_connect_header
   * ("Name: value", sent in CONNECT requests only).  NULL or 0: unset. */
  char *tls_server_name;
  /* No options: serve's blackbox tls_config.min_version and max_version,
   * the lowest and highest TLS version offered as 10, 11, 12, 13 (TLS
   * 1.0 to 1.3); 0: the library's default. */
  int tls_min, tls_max;
  /* No options: serve's blackbox tls_config.cert_file and key_file, the
   * client certificate (PEM) and its key offered when a server asks for
   * one; NULL: none. */
  char *tls_cert, *tls_key;
  /* No option: serve's blackbox body_size_limit, the most bytes of a final
   * response's (decoded) body read before the transfer is stopped; 0: no
   * limit. */
  int64_t body_limit;
  char *proxy;
  int proxy_skip_resolve;
  char **proxy_headers;
  size_t n_proxy_headers;
  /* No option: regular expressions searched in each hop's body as it
   * streams (serve's blackbox fail_if_body_*_regexp, probe.h), or NULL.
   * Borrowed: whoever set it (serve's configuration) frees it after every
   * copy of these options is gone; options_copy copies the pointer. */
  const struct body_regexps *body_regexps;
  int help;
  int version;
  /* hopsplit serve's own options (no other command takes them):
   * --listen ADDR:PORT and --config FILE, NULL when not given;
   * --max-concurrent N, 0 when not given; --timeout-offset SECONDS, -1
   * when not given. */
  char *serve_listen;
  char *serve_config;
  unsigned serve_max_concurrent;
  double serve_timeout_offset;
  /* Every option options_set applied, in order, so that "hopsplit run"
   * can replay its command line over each profile (profile.c). */
  struct opt_given *given;
  size_t n_given;
};

void options_init(struct options *o);
void options_release(struct options *o);

/* Deep copy of src into dst (dst need not be initialised); release dst
 * with options_release. */
void options_copy(struct options *dst, const struct options *src);

/* What stderr says (msg_verbosity): -1 under -q/-s, except that -S keeps
 * the warnings about failures (curl's --show-error), 0, 1+ under -v. */
int options_verbosity(const struct options *o);

/* The method of the first hop as curl picks it: -X, else HEAD for -I,
 * POST with a body, GET otherwise.  Static or owned by o. */
const char *options_method(const struct options *o);

/* The request is unsafe (RFC 9110 9.2.1): a method other than GET, HEAD,
 * OPTIONS and TRACE, or a body.  Such a request is sent once, cold, unless
 * rounds are given explicitly (hopsplit(1)). */
int options_unsafe(const struct options *o);

/* Whether the probe keeps the request and response header blocks of
 * each hop (-i, -D, -v). */
int options_heads(const struct options *o);
/* Whether the request carries a body (in memory or streamed from a
 * file). */
int options_has_body(const struct options *o);

#endif
