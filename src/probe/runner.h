/*
 * runner.h: the measuring loop.  Rounds, the order inside each round,
 * priming, pauses, progress and interruption; every sample goes through
 * the probe strictly one after another into struct results.
 */
#ifndef HOPSPLIT_RUNNER_H
#define HOPSPLIT_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "results.h"

/* Called after each sample is stored (for streaming outputs); may be
 * NULL. */
typedef void (*runner_sample_cb)(const struct plan *p, const struct sample *s,
                                 void *ud);

/*
 * Measure the whole plan into r (initialised by the caller) on an engine
 * of its own, one sample at a time, or up to --parallel targets at once
 * (each target's samples in sequence, after a serial control).  Returns 0
 * when every planned sample ran, 1 when interrupted (r->partial set), or
 * -1 on a setup error (message printed).
 */
int runner_run(const struct plan *p, struct results *r, runner_sample_cb cb,
               void *ud);
/* The caller's progress line (the tool's; the library draws none):
 * called before each sample starts with the k of n samples already
 * started, the item about to run and the milliseconds since the run
 * began, and once with it NULL when the samples are over. */
typedef void (*runner_progress_cb)(const struct plan *p, size_t k, size_t n,
                                   const struct plan_item *it,
                                   int64_t elapsed_ms, void *ud);
/* runner_run with progress (may be NULL) called as above. */
int runner_run_progress(const struct plan *p, struct results *r,
                        runner_sample_cb cb, void *ud,
                        runner_progress_cb progress, void *progress_ud);

/*
 * Measure plan p into r on engine e (engine.h) and return at once: the same
 * rounds, priming, order and samples as runner_run, driven by e's loop
 * with the other work on it.  deadline_us (CLOCK_MONOTONIC, 0: none)
 * bounds every lookup and transfer, and a sample that would start after
 * it fails at once as a timeout (hopsplit serve's scrape budget).  each
 * (may be NULL) runs after every stored sample; done(p, r, rc, ud) runs
 * once at the end, on e's thread inside engine_step, rc as runner_run's.
 * No progress bar, and no probe_tls_warmup (the caller does it once, at
 * start).  p and r must outlive the run.  Returns 0, or -1 after
 * printing a set-up error (done is not called then).
 */
typedef void (*runner_done_cb)(const struct plan *p, struct results *r, int rc,
                               void *ud);
struct engine;
int runner_start(struct engine *e, const struct plan *p, struct results *r,
                 int64_t deadline_us, runner_sample_cb each,
                 runner_done_cb done, void *ud);
/* runner_start, paying OpenSSL's one-time costs for p's trust stores
 * first (probe_tls_warmup, after the first time only a look-up), before
 * the first sample's clock, as runner_run does (libhopsplit's
 * hs_run_start).  Returns the run, valid until done has run: what
 * runner_cancel takes. */
struct run;
struct run *runner_start_warm(struct engine *e, const struct plan *p,
                              struct results *r, int64_t deadline_us,
                              runner_sample_cb each, runner_done_cb done,
                              void *ud);
/* Stop run rn only (on its engine's thread, before its done): no sample
 * starts after the one in flight, which ends as it would (its timeouts
 * bound it), and no trace fetch; a pause ends at once.  done then says
 * rc 1 (partial), as after runner_interrupt. */
void runner_cancel(struct run *rn);

/*
 * Fetch /cdn-cgi/trace of hop h's origin into t (results_add_trace's
 * record, or one the caller zeroed and gave origin and host) on engine e,
 * outside any run: a server's trace cache (hopsplit serve) starts it after
 * a probe has ended.  The fetch uses h's addresses and o's TLS settings,
 * and lasts at most 5 s (less when o's --max-time is shorter).
 * done(t, ud) runs once on e's thread when it has ended, t->body or
 * t->error set.  Call on e's thread; returns 0, or -1 with t->error set
 * (done is not called then).  h and o need not outlive the call.
 */
typedef void (*runner_trace_cb)(struct trace_fetch *t, void *ud);
int runner_trace_start(struct engine *e, const struct options *o,
                       const struct hop *h, struct trace_fetch *t,
                       runner_trace_cb done, void *ud);

/* A run was interrupted (runner_interrupt).  The signal handlers that
 * call it are the tool's (src/cmd/cmd_signals.c). */
int runner_interrupted(void);
/* What the first signal does, from the caller (libhopsplit's
 * hs_run_cancel; async-signal-safe): every run stops at its next sample.
 * runner_interrupt_clear lowers the flag before a new run. */
void runner_interrupt(void);
void runner_interrupt_clear(void);

#endif
