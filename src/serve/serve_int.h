/*
 * serve_int.h: "hopsplit serve", a prober for Prometheus in the manner of
 * blackbox_exporter (hopsplit(1) SERVE), read only by the serve stage.
 *
 * Input: the command line and, with --config, a profile whose targets and
 * defaults become the modules.  Output: HTTP answers on the listening
 * address: /probe runs one measurement through the same plan -> probe ->
 * analysis stages as the CLI and answers Prometheus text; /metrics gives
 * the server's own counters; / a page linking both.
 *
 * Everything here is owned by struct serve_config (serve_config_release)
 * or by one struct serve_probe (serve_probe_release).
 */
#ifndef HOPSPLIT_SERVE_INT_H
#define HOPSPLIT_SERVE_INT_H

#include <stddef.h>
#include <stdint.h>

#include <hopsplit/hopsplit.h>

#include "analysis.h"
#include "buf.h"
#include "options.h"
#include "plan.h"
#include "prom.h"
#include "results.h"

#define SERVE_DEFAULT_LISTEN "127.0.0.1:9116"
/* Probes measured at once, unless the open-file limit (raised to its hard
 * limit at start) is too low for it: then a quarter of that limit, as a
 * probe may hold two descriptors (its connection and the resolver's
 * socket) beside the connection of its request (serve_limits). */
#define SERVE_DEFAULT_MAX_CONCURRENT 10000
/* blackbox_exporter's --timeout-offset default, and its budget when
 * Prometheus sends no X-Prometheus-Scrape-Timeout-Seconds. */
#define SERVE_DEFAULT_TIMEOUT_OFFSET 0.5
#define SERVE_DEFAULT_TIMEOUT        120.0

/* A module: the settings a probe runs with; the URL comes from ?target. */
struct blackbox_module; /* blackbox.h */
struct serve_module {
  char *name;
  char *about; /* one line for the / page and debug output */
  char *info;  /* its hopsplit_probe_info family, written once */
  struct options opts;
  /* A module of a blackbox_exporter file: its checks (owned by the
   * config's bb array), else NULL. */
  const struct blackbox_module *bb;
  /* Its header regexps compiled (pattern i: bb->headers[i]), borrowed
   * from the config's headre, or NULL. */
  const struct body_regexps *header_re;
};

struct serve_config {
  char *listen; /* "ADDR:PORT" as given */
  char *profile;
  unsigned max_concurrent; /* 0 until serve_limits when not given */
  int max_concurrent_given;
  unsigned max_connections; /* libmicrohttpd's limit (serve_limits) */
  double timeout_offset;    /* seconds */
  char *vantage;            /* --vantage, else the host name */
  struct serve_module *modules;
  size_t n_modules;
  size_t default_module;      /* index: ?module missing, http_2xx */
  struct blackbox_module *bb; /* --config of blackbox_exporter's format */
  size_t n_bb;
  /* The body regexps of each bb module (NULL for none), compiled once;
   * the modules' options point to them. */
  struct body_regexps **bodyre;
  /* And the header regexps (struct serve_module.header_re). */
  struct body_regexps **headre;
};

/* Parse argv (argv[0] is "serve") into c; the measurement options go
 * through the CLI's table.  Returns 0, 1 when --help or --version was
 * answered, or -1 after printing a usage error. */
int serve_config_parse(struct serve_config *c, int argc, char **argv);
void serve_config_release(struct serve_config *c);
/* The module called name ("http_2xx" and "" are the default), or NULL. */
const struct serve_module *serve_module_find(const struct serve_config *c,
                                             const char *name);

/* One /probe request, from the query to the metrics. */
struct serve_probe {
  const struct serve_module *module; /* NULL when unknown */
  char *module_name;
  char *target; /* as given */
  double budget_s;
  int64_t started_us; /* monotonic */
  int64_t duration_us;
  /* The run's options (the module's, bounded by the budget), plan,
   * samples and analysis: parts of res (lib_embed.h), which owns them and
   * through which the samples and hops are read (hs_results_get). */
  struct hs_results *res;
  struct options *opts;
  struct plan *plan;
  struct results *results;
  struct analysis *analysis;
  int have_opts, have_plan, have_analysis;
  int64_t deadline_us;     /* monotonic: started_us + the budget */
  int64_t ended_us;        /* when the run ended (engine's thread) */
  int ran;                 /* the run ended: the samples are there */
  int64_t interference_us; /* the largest of the samples' */
  /* Samples past the interference threshold, and whether the durations
   * written are theirs (no other sample of a mode was measured: an
   * interfered probe keeps its durations and says so, never 0 s). */
  size_t n_interfered;
  int interfered_kept;
  void (*done)(struct serve_probe *sp);
  int success;
  char *reason;     /* why success is 0, or NULL */
  int regex_failed; /* a blackbox header regexp failed the probe */
  int want_log;
  struct buf log; /* logfmt lines for debug=true (when want_log) */
  /* The module's --trace (TRACE_NEVER for a blackbox module): the run
   * itself fetches none (serve_trace.c does, outside the probe). */
  enum trace_mode trace;
  struct engine *engine; /* the run's (serve_probe_start) */
};

/* Begin the probe of target with module (NULL or "" for the default)
 * within budget_s seconds (on any thread): sp is initialised here and the
 * plan built.  Returns 1 when it is to be measured (serve_probe_start),
 * 0 when it is already decided (a bad module or target: success 0 and a
 * reason).  The log (debug=true) is written only when want_log is set. */
int serve_probe_prepare(struct serve_probe *sp, const struct serve_config *c,
                        const char *module, const char *target,
                        double budget_s, int want_log);
/* Measure it on the engine e (on e's thread); done(sp) runs there when the
 * run is over. */
struct engine;
void serve_probe_start(struct serve_probe *sp, struct engine *e,
                       void (*done)(struct serve_probe *sp));
/* Decide a probe whose deadline passed before it could start: success 0
 * and the reason, nothing measured. */
void serve_probe_expired(struct serve_probe *sp);
/* Analyse the samples and judge (after done, or after prepare returned
 * 0; on any thread but the engine's, which it keeps free to measure). */
void serve_probe_finish(struct serve_probe *sp);
/* The probe's metrics in the Prometheus text format. */
void serve_probe_metrics(const struct serve_probe *sp,
                         const struct serve_config *c, struct buf *out);
/* blackbox's debug page: the probe's log, the metrics, the module. */
void serve_probe_debug(const struct serve_probe *sp,
                       const struct serve_config *c, struct buf *out);
void serve_probe_release(struct serve_probe *sp);

/* The field handles serve reads samples and hops by (serve_fields.c),
 * found once; the parts of interference_us in the order of
 * hopsplit_probe_interference_part_seconds's part label. */
#define SERVE_PARTS 5
extern const char *const serve_part_names[SERVE_PARTS];
struct serve_fields {
  /* A sample's. */
  const struct hs_field *mode, *round, *ok, *err_class, *err_message, *control,
      *interfered, *interference, *total, *part[SERVE_PARTS];
  /* A hop's (phases, sizes and the rest as blackbox's series and checks
   * read them; the last ones are fields no document writes). */
  const struct hs_field *host, *status, *reused, *tls_version, *tls_resumed,
      *http_version, *remote_ip, *location, *url, *ph_total, *size_download,
      *size_decoded, *ph_dns, *ph_connect, *ph_tls, *ph_send, *ph_wait,
      *ph_transfer, *content_length, *cert_expiry, *chain_expiry, *leaf_sha256,
      *leaf_subject, *leaf_issuer, *leaf_serial, *leaf_dns_names,
      *dns_preferred, *response_head, *body_scanned, *body_matched,
      *body_limited;
};
const struct serve_fields *serve_fields(void);
/* The value of f of sample i (hop k for a hop's field) of r (analysed):
 * an integer (none when null: not measured, or no such sample or hop),
 * a text owned by r (NULL when null). */
int64_t serve_get_int(struct hs_results *r, size_t i, size_t k,
                      const struct hs_field *f, int64_t none);
const char *serve_get_text(struct hs_results *r, size_t i, size_t k,
                           const struct hs_field *f);

/* blackbox modules (serve_blackbox.c): whether the final status st is
 * valid for module m (its valid_status_codes, else 2xx), and the checks
 * blackbox makes after the request (HTTP version, SSL, header regexps)
 * on sample s: 0, or -1 with why. */
int serve_blackbox_status_ok(const struct serve_module *m, long st);
int serve_blackbox_judge(struct serve_probe *sp, size_t i, char *why,
                         size_t len);

/* The /cdn-cgi/trace cache (serve_trace.c): at most one fetch per origin
 * every SERVE_TRACE_INTERVAL_S seconds, never inside a probe.
 * serve_trace_after (on e's thread, when sp's run has ended) starts the
 * fetches sp's module asks for and the cache lacks, on e, and returns how
 * many; serve_trace_copy (any thread) adds the cached traces of sp's
 * origins to its results before the analysis, and returns how many;
 * serve_trace_clear empties the cache (after the engines stopped). */
#define SERVE_TRACE_INTERVAL_S 600
unsigned serve_trace_after(struct serve_probe *sp, struct engine *e);
unsigned serve_trace_copy(struct serve_probe *sp);
void serve_trace_clear(void);

/* Budget of a probe from the X-Prometheus-Scrape-Timeout-Seconds value
 * (NULL when absent), as blackbox_exporter computes it: the header (else
 * 120 s) less the offset.  Returns 0, or -1 when the header is not a
 * positive number. */
int serve_budget(const char *header, double offset, double *out);

/* The server: listen, answer until SIGTERM or SIGINT, drain, return the
 * exit status (serve_main.c). */
int serve_run(struct serve_config *c);

#define SERVE_CT_PROM "text/plain; version=0.0.4; charset=utf-8"
#define SERVE_CT_TEXT "text/plain; charset=utf-8"

/* One /probe request on its way from the HTTP side (serve_http.c) through
 * the measurement (serve_work.c) and back. */
struct serve_job {
  struct serve_probe sp; /* prepared by serve_http.c */
  int debug;
  /* Called once, on any thread, when the probe has run (measured) or was
   * refused (rejected, with the reason below). */
  void (*done)(struct serve_job *j);
  void *ud;
  int measured, rejected, draining;
  struct serve_job *next; /* serve_work.c's lists */
  char *origin; /* serve_work.c's: the target's origin, parsed unlocked */
  struct serve_stream *stream; /* serve_work.c's: its target and module */
  struct serve_loop *loop;     /* serve_work.c's: the engine it runs on */
};

/* Start the measuring side; 0, or -1 (errno set). */
int serve_work_start(const struct serve_config *c);
/* Hand j over: measured now, or when a place is free, or answered 503 at
 * its deadline (or at once while draining). */
void serve_work_submit(struct serve_job *j);
/* Answer 503 to the waiting jobs and every new one; those under way end. */
void serve_work_drain(void);
/* Stop the threads (every job answered before). */
void serve_work_stop(void);
void serve_work_counts(unsigned *in_flight, unsigned *waiting);
/* The measuring loops' lateness so far, for /metrics: the sum and the
 * largest of the delays between a socket or timer being ready and its
 * handling, and how many were measured. */
struct serve_lateness {
  int64_t sum_us;
  int64_t max_us;
  uint64_t count;
};
void serve_work_lateness(struct serve_lateness *out);

/* The request handler and its state (serve_http.c).  serve_http_init
 * before the daemon starts; serve_http_drain makes new probes answer 503;
 * serve_http_wait_idle waits (at most 100 ms per call) for the requests
 * under way to be answered and returns 1 when there are none. */
struct MHD_Daemon;
struct sockaddr;
void serve_http_init(const struct serve_config *c);
/* The modules of a reload (SIGHUP) for the probes that begin from now
 * on; c lives as long as the server (a probe under way keeps its own). */
void serve_http_set_config(const struct serve_config *c);
/* Start libmicrohttpd on sa (one epoll thread); the port bound in
 * *port.  NULL when it cannot listen (errno set). */
struct MHD_Daemon *serve_http_start(const struct sockaddr *sa, int ipv6,
                                    unsigned *port);
/* Stop accepting new connections (the first step of draining). */
void serve_http_quiesce(struct MHD_Daemon *d);
/* Close every connection, join the thread, close the socket (no
 * connection may be suspended then). */
void serve_http_stop(struct MHD_Daemon *d);
void serve_http_drain(void);
int serve_http_wait_idle(int64_t until_us);
unsigned serve_http_in_flight(void);
unsigned long long serve_http_probes(void);

/* The hopsplit_probe_info family of a module (fixed: built once per
 * module at start, and for an unknown module per probe). */
void serve_module_info(struct buf *out, const char *module,
                       const char *vantage);

#endif
