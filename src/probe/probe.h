/*
 * probe.h: measuring (step 3 of the pipeline, README.md Layout).  The only
 * stage that touches libcurl, c-ares and OpenSSL.  Input: the plan.  Output:
 * struct sample, one per call, strictly one after another.
 *
 * A probe owns the long-lived clients of warm and resumed mode; probe_free
 * releases them.  Samples written by probe_sample belong to the caller,
 * who releases them with sample_release.
 */
#ifndef HOPSPLIT_PROBE_H
#define HOPSPLIT_PROBE_H

#include <signal.h>
#include <stdint.h>

#include "buf.h"
#include "plan.h"
#include "results.h"
#include "sample.h"

/* Set by the interrupt handler: a transfer or DNS lookup under way is
 * abandoned at the next chance (hopsplit(1) Redaction). */
extern volatile sig_atomic_t probe_interrupted;

/* A deadline for what the calling thread measures from now on, on the
 * CLOCK_MONOTONIC clock in microseconds (0: none): every DNS lookup and
 * transfer it starts gets at most the time left, and one started after the
 * deadline fails at once as a timeout.  hopsplit serve bounds a probe by
 * the scrape timeout with it. */
void probe_set_deadline(int64_t monotonic_us);

/* Library set-up and tear-down; probe_global_init returns 0 or -1.  It
 * loads the HTTP/3 library (libcurl-gnutls) too; probe_global_init_plan
 * only when a target of p runs on it (a CLI run: other runs never pay for
 * it; curl_api_h3 loads it later, once, if something asks). */
int probe_global_init(void);
struct plan;
int probe_global_init_plan(const struct plan *p);
void probe_global_cleanup(void);
/* "libcurl/7.88.1 c-ares/1.18.1 OpenSSL 3.0 libyaml 0.2.5" into b, with
 * the HTTP/3 library's (loaded for it); probe_versions_loaded names that
 * one only when it is loaded already (a run that does not use it). */
void probe_versions(struct buf *b);
void probe_versions_loaded(struct buf *b);
/* "libcurl: bundled, static; features: HTTP2 ..." (no newline). */
void probe_features(struct buf *b);

/*
 * Regular expressions searched in response bodies as they stream, never
 * stored (probe_bodyre.c): PCRE2 patterns, compiled once and shared
 * read-only by every transfer and thread.  probe_body_regexps_new returns
 * NULL with *bad the index of the pattern that does not compile and err
 * PCRE2's reason; the caller frees the set with probe_body_regexps_free
 * once no options point to it.  At most BODY_REGEXPS_MAX patterns.
 */
#define BODY_REGEXPS_MAX 32
struct body_regexps;
struct body_regexps *probe_body_regexps_new(const char *const *patterns,
                                            size_t n, size_t *bad, char *err,
                                            size_t errlen);
void probe_body_regexps_free(struct body_regexps *r);
/* Whether pattern i of r matches somewhere in the whole string s[0..n)
 * (Go's MatchString: serve's blackbox header regexps): 1 or 0. */
int probe_body_regexps_match(const struct body_regexps *r, size_t i,
                             const char *s, size_t n);
/* One body's search: NULL when re is NULL or empty; feed every chunk in
 * order; probe_body_scan_end says which patterns matched (bit i for
 * pattern i); the caller frees it. */
struct body_scan;
struct body_scan *probe_body_scan_new(const struct body_regexps *re);
void probe_body_scan_feed(struct body_scan *s, const char *data, size_t n);
uint32_t probe_body_scan_end(struct body_scan *s);
void probe_body_scan_free(struct body_scan *s);

/* -1 with a message naming the option, the target and what to install
 * when a target of p asks for HTTP/3 (--http3, --http3-only) and the
 * GnuTLS libcurl with HTTP/3 cannot be loaded; else 0. */
int probe_h3_check(const struct plan *p, char *err, size_t errlen);

struct probe;

/*
 * Unmeasured, local TLS set-up before round 1: the trust store of every
 * target is parsed (once per file), and one handshake in memory pays OpenSSL's
 * one-time initialisation, both of which would otherwise inflate the first
 * cold sample (its other and tls).
 */
void probe_tls_warmup(const struct plan *p);

struct probe *probe_alloc(const struct plan *plan);
void probe_free(struct probe *p);

/*
 * Prime the long-lived client of a (target, mode) pair: an unmeasured
 * request that opens the connections (warm) or fills the TLS session cache
 * (resumed).  Cold needs none.  Returns 0, or -1 with a message in err;
 * the samples still run and show what happens.
 */
int probe_prime(struct probe *p, size_t target, enum sample_mode mode,
                char *err, size_t errlen);

/* Measure one sample; out is initialised here.  Never fails: a failure is
 * recorded in out->ok, out->err and out->err_message.  Runs a private
 * engine until the sample ends. */
void probe_sample(struct probe *p, size_t target, enum sample_mode mode,
                  struct sample *out);

/*
 * Start one sample of (target, mode) on engine e (engine.h) and return at
 * once; it runs as e's loop turns.  deadline_us (CLOCK_MONOTONIC, 0: none)
 * bounds it as probe_set_deadline does.  When it ends, cb(s, ud) runs on
 * e's thread inside engine_step, s complete with its interference_us; cb
 * owns what s holds and must move it (results_add) or sample_release it
 * before it returns.  The probe p must outlive the sample.  Samples of the
 * same warm or resumed (target, mode) must not overlap (their client is
 * shared): the runner keeps each target's samples in sequence.
 */
struct engine;
typedef void (*probe_done_cb)(struct sample *s, void *ud);
void probe_start(struct probe *p, struct engine *e, size_t target,
                 enum sample_mode mode, int64_t deadline_us, probe_done_cb cb,
                 void *ud);

/*
 * Fetch SCHEME://HOST:PORT/cdn-cgi/trace of the origin of hop h, once,
 * outside the measured samples: body capped at 16 KiB, at most 5 s.
 * probe_trace_prepare gives the job and its CURL* easy handle, for the
 * caller to run on an engine, or NULL with t->error set; when the
 * transfer ends (result: its CURLcode), probe_trace_finish fills
 * t->body and t->len, or t->error, and frees the job.  Never fails the
 * run.
 */
struct trace_job;
struct trace_job *probe_trace_prepare(const struct options *o,
                                      const struct hop *h,
                                      struct trace_fetch *t, void **easy);
void probe_trace_finish(struct trace_job *j, int result);

/*
 * Turn libcurl's cumulative offsets of one hop into phases: the
 * only place that does so.  wait runs from the moment the connection was
 * ready (appconnect, connect, or the start of a reused transfer) to the
 * first byte, because libcurl 7.88's time_pretransfer is stamped late on
 * some paths.  dns_us is the c-ares time; tls_expected says
 * the URL is https; reused that libcurl reused a connection.  When the
 * transfer stopped early, the time after the last milestone reached goes
 * to the phase that was under way.  phases[PHASE_TOTAL] is their sum.
 */
void probe_phases(const struct curl_times *c, int64_t dns_us, int tls_expected,
                  int reused, int64_t phases[PHASE_COUNT]);

/*
 * probe_phases after checking that libcurl's stamps are in order (issue
 * 17): a stamp before an earlier one never makes a phase measured from the
 * wrong point.  Returns the number of anomalies (0: consistent) and
 * describes them, with what the phases use instead, in why (len bytes,
 * always terminated): a namelookup stamp after connect (seen on a new
 * connection that replaced one the server had closed) is ignored, so
 * connect runs from the start of the transfer; a connect after
 * appconnect counts the handshake as connect; a first byte before the
 * connection was ready makes wait 0, one after the end transfer 0.
 */
int probe_phases_checked(const struct curl_times *c, int64_t dns_us,
                         int tls_expected, int reused,
                         int64_t phases[PHASE_COUNT], char *why, size_t len);

#endif
