/*
 * lib_run.c: libhopsplit's loops and runs (hopsplit(3)).  A loop is an
 * engine (engine.h); a run is the runner's state machine of one plan on
 * it (runner_start_warm), any number of them beside each other, or
 * runner_run on a loop of its own for hs_run_perform, which is what the
 * tool's run does.  The run's strings go to its results' arena (arena.h),
 * which the engine makes the thread's current one while a handler of
 * that run runs.  A run's cancel is its own: a flag another thread or a
 * signal handler raises, which the loop's thread hands to the runner
 * (runner_cancel) at its next step; NULL's is the process's interrupt.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "clock.h"
#include "engine.h"
#include "lib_int.h"
#include "msg.h"
#include "option_table.h"
#include "probe.h"
#include "profile.h"
#include "runner.h"
#include "strpool.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

struct hs_loop {
  struct engine *e;
  /* The runs started on it and not ended (the runner holds them), and
   * those ended whose done callback is still to run (after the step). */
  struct hs_run *live, *ended_head, *ended_tail;
  /* Raised by hs_run_cancel (any thread, a signal handler): some run of
   * the loop has a cancel the runner has not been given yet. */
  atomic_int cancels;
};

struct hs_run {
  struct hs_loop *loop; /* NULL until started, for a loop of its own */
  /* The loop hs_run_cancel wakes, from any thread: loop, published once
   * the loop exists (a loop of its own is made by hs_run_start on the
   * caller's thread), NULL before and after. */
  _Atomic(struct hs_loop *) wake;
  atomic_int performing; /* in hs_run_perform on a loop of its own */
  int own_loop;
  int started, ended;
  enum hs_code code;          /* the run's, fixed when it ends */
  atomic_int cancelled;       /* hs_run_cancel(r), from any thread */
  int cancel_given;           /* the runner was told (the loop's thread) */
  int rc;                     /* runner's: 0, or 1 when interrupted */
  struct run *rn;             /* the runner's, while it holds the run */
  long timeout_ms;            /* hs_run_set_timeout's, 0: none */
  const struct profile *prof; /* the options' profile, borrowed, or NULL */
  hs_progress_fn *progress;
  void *progress_ud;
  hs_sample_fn *each;
  hs_done_fn *done;
  void *cb_ud;
  int done_due; /* on the loop's ended list, its done still to run */
  struct hs_run *prev, *next; /* on the loop's live list, or ended list */
  struct hs_results res;
};

enum hs_code hs_loop_new(struct hs_loop **out)
{
  char err[256];
  struct engine *e = engine_alloc(err, sizeof(err));

  *out = NULL;
  if (!e) {
    msg_error("%s", err);
    return HS_E_SETUP;
  }
  *out = xcalloc(1, sizeof(**out));
  (*out)->e = e;
  return HS_OK;
}

void hs_loop_free(struct hs_loop *l)
{
  if (!l)
    return;
  /* Runs still on it are freed first (hopsplit(3)); what is left is the
   * caller's bug, never a use after free. */
  while (l->live) {
    struct hs_run *r;

    for (r = l->live; r; r = r->next)
      hs_run_cancel(r);
    hs_loop_step(l, -1);
  }
  while (l->ended_head) {
    struct hs_run *r = l->ended_head;

    l->ended_head = r->next;
    r->done_due = 0;
    r->loop = NULL;
    atomic_store(&r->wake, NULL);
  }
  engine_free(l->e);
  free(l);
}

/* Hand the cancels raised since the last look to the runner (the loop's
 * thread). */
static void give_cancels(struct hs_loop *l)
{
  struct hs_run *r;

  if (!atomic_exchange(&l->cancels, 0))
    return;
  for (r = l->live; r; r = r->next)
    if (atomic_load(&r->cancelled) && !r->cancel_given && r->rn) {
      r->cancel_given = 1;
      runner_cancel(r->rn);
    }
}

/* The done callbacks of the runs that ended in the step, after it (the
 * runner holds nothing of them then: a callback may free its run). */
static void run_dones(struct hs_loop *l)
{
  struct hs_run *r;

  while ((r = l->ended_head) != NULL) {
    l->ended_head = r->next;
    if (!l->ended_head)
      l->ended_tail = NULL;
    r->next = NULL;
    r->done_due = 0;
    if (r->done)
      r->done(r, r->code, r->cb_ud);
  }
}

size_t hs_loop_step(struct hs_loop *l, long timeout_ms)
{
  size_t n;

  give_cancels(l);
  n = engine_step(l->e, timeout_ms < 0 ? -1 : (int64_t)timeout_ms * 1000);
  give_cancels(l);
  run_dones(l);
  return n;
}

void hs_loop_wake(struct hs_loop *l)
{
  /* Async-signal-safe: one write to the loop's eventfd. */
  engine_wake(l->e);
}

/* The plan of a profile: its targets with their own options, its checks
 * (a compare check needs paired rounds, never --parallel's batches). */
static int plan_profile(struct hs_run *r, struct profile *pr)
{
  struct plan_target_spec *specs;
  size_t i;
  int rc;

  options_copy(&r->res.opts, &pr->opts);
  specs = xcalloc(pr->n_targets, sizeof(*specs));
  for (i = 0; i < pr->n_targets; i++) {
    specs[i].name = pr->targets[i].name;
    specs[i].url = pr->targets[i].url;
    specs[i].opts = &pr->targets[i].opts;
  }
  rc = plan_build_targets(&r->res.plan, &r->res.opts, specs, pr->n_targets);
  free(specs);
  if (rc < 0)
    return msg_error("profile '%s' cannot be planned", pr->file);
  for (i = 0; i < pr->checks.n && pr->opts.parallel > 1; i++)
    if (pr->checks.v[i].kind == CHECK_COMPARE)
      return msg_error("profile '%s': a compare check needs paired rounds, "
                       "measured strictly one sample at a time: it cannot "
                       "run with --parallel (parallel: %ld)",
                       pr->file, pr->opts.parallel);
  r->res.plan.checks = &pr->checks;
  r->res.checks = &pr->checks;
  return 0;
}

/* The plan of options and targets. */
static enum hs_code plan_targets(struct hs_run *r, const struct hs_options *o)
{
  char err[512];

  /* options_copy fills an uninitialised record (no options_init first,
   * whose defaults it would leak). */
  options_copy(&r->res.opts, &o->opts);
  if (options_finish(&r->res.opts, NULL, err, sizeof(err)) < 0) {
    msg_error("option -o: %s", err);
    return HS_E_BAD_VALUE;
  }
  options_ca_from_env(&r->res.opts);
  if (plan_build(&r->res.plan, &r->res.opts, o->targets, o->n_targets) < 0)
    return HS_E_BAD_VALUE;
  return HS_OK;
}

enum hs_code hs_run_new(const struct hs_options *o, struct hs_loop *loop,
                        struct hs_run **out)
{
  struct hs_run *r;
  struct arena *was;
  enum hs_code c = HS_OK;

  *out = NULL;
  r = xcalloc(1, sizeof(*r));
  r->loop = loop;
  atomic_store(&r->wake, loop);
  r->res.of_run = 1;
  r->prof = o->prof;
  results_init(&r->res.results);
  was = strpool_use(results_arena(&r->res.results));
  if (o->prof)
    c = plan_profile(r, o->prof) < 0 ? HS_E_BAD_VALUE : HS_OK;
  else
    c = plan_targets(r, o);
  /* No target: planning said so ("no URL given"). */
  if (c != HS_OK && !o->prof && !o->n_targets)
    c = HS_E_NO_TARGET;
  strpool_use(was);
  if (c != HS_OK) {
    hs_run_free(r);
    return c;
  }
  /* A cancel from now on stops this run (a signal before it starts
   * included). */
  runner_interrupt_clear();
  *out = r;
  return HS_OK;
}

/* What a run needs of the libraries once they are set up: HTTP/3 when
 * it asks for it, and their versions for the reports. */
static enum hs_code run_setup(struct hs_run *r, int loaded)
{
  struct buf libs;
  char err[512];

  if (probe_h3_check(&r->res.plan, err, sizeof(err)) < 0) {
    msg_error("%s", err);
    return HS_E_SETUP;
  }
  buf_init(&libs, 0);
  /* loaded: the libraries this run loaded (probe_global_init_plan). */
  if (loaded)
    probe_versions_loaded(&libs);
  else
    probe_versions(&libs);
  free(r->res.libraries);
  r->res.libraries = buf_detach(&libs);
  return HS_OK;
}

enum hs_code hs_run_preflight(struct hs_run *r)
{
  return lib_preflight(&r->res.plan) < 0 ? HS_E_BAD_VALUE : HS_OK;
}

/* --dry-run's text of r into f. */
static void describe(const struct hs_run *r, FILE *f)
{
  const struct plan *plan = &r->res.plan;
  const struct profile *pr = r->prof;
  size_t i;

  if (pr)
    fprintf(f, "profile: %s (%s)\n", pr->name, pr->file);
  plan_print(plan, f);
  if (!pr || !pr->checks.n)
    return;
  fprintf(f, "checks:\n");
  for (i = 0; i < pr->checks.n; i++) {
    const struct check *k = &pr->checks.v[i];
    char *what = check_describe_as(
        k, k->kind == CHECK_COMPARE ? plan->targets[k->baseline].name : NULL,
        units_format_setting);

    fprintf(f, "  %-12s %-5s %s  (%s)\n", plan->targets[k->target].name,
            k->kind == CHECK_CACHE || k->mode == MODE_COUNT
                ? "all"
                : sample_mode_names[k->mode],
            what, k->where);
    free(what);
  }
}

enum hs_code hs_run_describe(struct hs_run *r, hs_write_fn *fn, void *ud)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  int bad;

  if (!f)
    return HS_E_IO;
  describe(r, f);
  if (fclose(f) != 0) {
    free(text);
    return HS_E_IO;
  }
  bad = len && fn(text, len, ud) != 0;
  free(text);
  return bad ? HS_E_WRITE : HS_OK;
}

void hs_run_set_progress(struct hs_run *r, hs_progress_fn *fn, void *ud)
{
  r->progress = fn;
  r->progress_ud = ud;
}

/* runner_run_progress's call, as hs_progress_fn's. */
static void on_progress(const struct plan *p, size_t k, size_t n,
                        const struct plan_item *it, int64_t elapsed_ms,
                        void *ud)
{
  struct hs_run *r = ud;

  r->progress(k, n, it ? p->targets[it->target].name : NULL,
              it ? sample_mode_names[it->mode] : NULL, elapsed_ms,
              r->progress_ud);
}

/* The run's code, fixed when it ends: a cancel after that changes
 * nothing. */
static void fix_code(struct hs_run *r)
{
  if (!r->ended) {
    r->ended = 1;
    r->code =
        r->rc == 1 || atomic_load(&r->cancelled) ? HS_E_CANCELLED : HS_OK;
  }
}

/* The run has ended: its results are analysed while its arena is the
 * thread's. */
static void run_ended(struct hs_run *r, int rc)
{
  r->rc = rc;
  fix_code(r);
  r->res.live = 0;
  lib_analyse(&r->res);
}

/* Each sample stored, on the loop's thread: its index for the caller. */
static void on_each(const struct plan *p, const struct sample *s, void *ud)
{
  struct hs_run *r = ud;

  (void)p;
  if (r->each)
    r->each(r, (size_t)(s - r->res.results.samples), r->cb_ud);
}

/* The runner is done with r (inside the step): off the loop's live list,
 * on its ended list for the done callback after the step. */
static void on_done(const struct plan *p, struct results *res, int rc,
                    void *ud)
{
  struct hs_run *r = ud;
  struct hs_loop *l = r->loop;

  (void)p;
  (void)res;
  r->rc = rc;
  fix_code(r);
  r->rn = NULL;
  r->res.live = 0;
  if (r->prev)
    r->prev->next = r->next;
  else
    l->live = r->next;
  if (r->next)
    r->next->prev = r->prev;
  r->prev = r->next = NULL;
  if (l->ended_tail)
    l->ended_tail->next = r;
  else
    l->ended_head = r;
  l->ended_tail = r;
  r->done_due = 1;
}

static enum hs_code end_code(const struct hs_run *r)
{
  return r->code;
}

void hs_run_set_callbacks(struct hs_run *r, hs_sample_fn *each,
                          hs_done_fn *done, void *ud)
{
  r->each = each;
  r->done = done;
  r->cb_ud = ud;
}

/* The longest timeout: a century, so that the deadline (microseconds on
 * the monotonic clock) cannot overflow. */
#define RUN_TIMEOUT_MAX_MS (100LL * 366 * 24 * 3600 * 1000)

enum hs_code hs_run_set_timeout(struct hs_run *r, long timeout_ms)
{
  if (r->started)
    return HS_E_STATE;
  if (timeout_ms < 0 || (long long)timeout_ms > RUN_TIMEOUT_MAX_MS)
    return HS_E_BAD_VALUE;
  r->timeout_ms = timeout_ms;
  return HS_OK;
}

/* Each sample of a run on a loop of its own: the streams, then the
 * caller's callback. */
static void own_sample(const struct plan *p, const struct sample *s, void *ud)
{
  struct hs_run *r = ud;

  lib_stream_sample(p, s, NULL);
  on_each(p, s, r);
}

/* hs_run_perform on a loop of its own, as the tool measures: the
 * libraries set up for the run, its warnings before, its streams while
 * it measures (-o FILE.ndjson, --format ndjson, -w), the warnings after
 * and the analysis (with a profile's checks). */
static enum hs_code perform_own(struct hs_run *r)
{
  const struct plan *plan = &r->res.plan;
  struct arena *was;
  enum hs_code c;
  int rc;

  r->started = 1;
  /* The samples', analysis' and reports' strings live in the results'
   * arena, freed with them. */
  was = strpool_use(results_arena(&r->res.results));
  if (probe_global_init_plan(plan) < 0) {
    strpool_use(was);
    msg_error("cannot initialise libcurl or c-ares");
    return HS_E_SETUP;
  }
  c = run_setup(r, 1);
  if (c != HS_OK) {
    probe_global_cleanup();
    strpool_use(was);
    return c;
  }
  if (plan->opts->insecure)
    msg_warn("TLS verification is off (-k): results say so");
  plan_unsafe_notice(plan);
  lib_streams_open(&r->res);
  /* The run's timeout bounds it as the thread's deadline (probe.h). */
  if (r->timeout_ms)
    probe_set_deadline(clock_mono_us() + (int64_t)r->timeout_ms * 1000);
  r->res.live = 1;
  /* From here a cancel is the process's interrupt (hs_run_cancel); one
   * that came before, while it was set up, is raised now. */
  atomic_store(&r->performing, 1);
  if (atomic_load(&r->cancelled))
    runner_interrupt();
  rc = runner_run_progress(plan, &r->res.results, own_sample, r,
                           r->progress ? on_progress : NULL, r);
  /* Ended: its code fixed now, before the streams are drained (a slow
   * reader), so that a cancel from now on changes nothing. */
  r->rc = rc;
  fix_code(r);
  atomic_store(&r->performing, 0);
  r->res.live = 0;
  if (r->timeout_ms)
    probe_set_deadline(0);
  /* Every line of the samples measured, also after an interrupt. */
  lib_streams_drain(&r->res);
  lib_warn_unused_resolve(&r->res);
  run_ended(r, rc);
  lib_warn_parallel(&r->res);
  probe_global_cleanup();
  strpool_use(was);
  c = rc < 0 ? HS_E_SETUP : end_code(r);
  if (rc >= 0 && r->done)
    r->done(r, c, r->cb_ud);
  return c;
}

enum hs_code hs_run_perform(struct hs_run *r)
{
  if (r->loop || r->started) {
    int running = 1;
    enum hs_code c = r->started ? HS_OK : hs_run_start(r);

    while (c == HS_OK && running)
      c = hs_run_step(r, -1, &running);
    return c;
  }
  return perform_own(r);
}

enum hs_code hs_run_start(struct hs_run *r)
{
  struct arena *was;
  enum hs_code c;

  if (r->started)
    return HS_E_STATE;
  if (!r->loop) {
    c = hs_loop_new(&r->loop);
    if (c != HS_OK)
      return c;
    r->own_loop = 1;
    atomic_store(&r->wake, r->loop);
  }
  c = run_setup(r, 0);
  if (c != HS_OK)
    return c;
  r->started = 1;
  if (!r->loop->live && !r->loop->ended_head)
    runner_interrupt_clear(); /* the first run of a loop at rest */
  /* On the live list before the runner may end it. */
  r->next = r->loop->live;
  if (r->next)
    r->next->prev = r;
  r->loop->live = r;
  r->res.live = 1;
  was = strpool_use(results_arena(&r->res.results));
  r->rn = runner_start_warm(r->loop->e, &r->res.plan, &r->res.results,
                            r->timeout_ms ? clock_mono_us() +
                                                (int64_t)r->timeout_ms * 1000
                                          : INT64_MAX,
                            on_each, on_done, r);
  strpool_use(was);
  /* Cancelled before it started: the runner is told at once. */
  if (atomic_load(&r->cancelled))
    atomic_store(&r->loop->cancels, 1);
  return HS_OK;
}

enum hs_code hs_run_step(struct hs_run *r, long timeout_ms, int *running)
{
  *running = 0;
  if (!r->started)
    return HS_E_STATE;
  if (!r->ended)
    hs_loop_step(r->loop, timeout_ms);
  if (r->ended && !r->res.analysed) {
    struct arena *was = strpool_use(results_arena(&r->res.results));

    run_ended(r, r->rc);
    strpool_use(was);
  }
  *running = !r->ended;
  return r->ended ? end_code(r) : HS_OK;
}

void hs_run_cancel(struct hs_run *r)
{
  struct hs_loop *l;

  /* Async-signal-safe and thread-safe: lock-free atomics and the loop's
   * wake-up write only; the loop's thread tells the runner. */
  if (!r) {
    runner_interrupt();
    return;
  }
  atomic_store(&r->cancelled, 1);
  l = atomic_load(&r->wake);
  if (l) {
    atomic_store(&l->cancels, 1);
    engine_wake(l->e);
  }
  else if (atomic_load(&r->performing))
    /* hs_run_perform on a loop of its own (the tool's way): its runner
     * heeds the process's interrupt only, so that is what stops it
     * (hopsplit(3) CAVEATS; 7013182 had left such a run measuring to its
     * end).  Not started yet: the start sees the cancel. */
    runner_interrupt();
}

struct hs_results *hs_run_results(struct hs_run *r)
{
  return &r->res;
}

void hs_run_free(struct hs_run *r)
{
  if (!r)
    return;
  r->done = NULL; /* freed: no callback of it runs any more */
  r->each = NULL;
  if (r->started && !r->ended && r->loop) {
    /* Still in flight: the loop's jobs point into it; end them first. */
    hs_run_cancel(r);
    while (!r->ended)
      hs_loop_step(r->loop, -1);
  }
  if (r->done_due && r->loop) {
    /* Ended, its done not yet called: off the loop's list, uncalled. */
    struct hs_run **pp, *prev = NULL;

    for (pp = &r->loop->ended_head; *pp; prev = *pp, pp = &(*pp)->next)
      if (*pp == r) {
        *pp = r->next;
        if (r->loop->ended_tail == r)
          r->loop->ended_tail = prev;
        break;
      }
  }
  lib_streams_close(&r->res);
  lib_results_release(&r->res);
  atomic_store(&r->wake, NULL);
  if (r->own_loop)
    hs_loop_free(r->loop);
  free(r);
}
