/*
 * lib_run.c: libhopsplit's loops and runs (hopsplit(3)).  A loop is an
 * engine (engine.h); a run is the runner's state machine of one plan on
 * it (runner_start), or runner_run on a loop of its own for
 * hs_run_perform, which is what the tool's run does.  The run's strings
 * go to its results' arena (arena.h), made the thread's current one for
 * as long as a call of the run measures.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
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
  struct hs_run *running; /* the one run started on it, or NULL */
};

struct hs_run {
  struct hs_loop *loop; /* NULL until started, for a loop of its own */
  int own_loop;
  int started, ended, cancelled;
  int rc;                     /* runner's: 0, or 1 when interrupted */
  const struct profile *prof; /* the options' profile, borrowed, or NULL */
  hs_progress_fn *progress;
  void *progress_ud;
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
  engine_free(l->e);
  free(l);
}

size_t hs_loop_step(struct hs_loop *l, long timeout_ms)
{
  struct arena *was = NULL;
  size_t n;

  if (l->running)
    was = strpool_use(results_arena(&l->running->res.results));
  n = engine_step(l->e, timeout_ms < 0 ? -1 : (int64_t)timeout_ms * 1000);
  if (l->running)
    strpool_use(was);
  return n;
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

/* The run has ended: its results are analysed while its arena is the
 * thread's. */
static void run_ended(struct hs_run *r, int rc)
{
  r->ended = 1;
  r->rc = rc;
  if (r->loop && r->loop->running == r)
    r->loop->running = NULL;
  lib_analyse(&r->res);
}

static void on_done(const struct plan *p, struct results *res, int rc,
                    void *ud)
{
  struct hs_run *r = ud;

  (void)p;
  (void)res;
  r->ended = 1;
  r->rc = rc;
}

static enum hs_code end_code(const struct hs_run *r)
{
  return r->rc == 1 || r->cancelled ? HS_E_CANCELLED : HS_OK;
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
  rc = runner_run_progress(plan, &r->res.results, lib_stream_sample, NULL,
                           r->progress ? on_progress : NULL, r);
  /* Every line of the samples measured, also after an interrupt. */
  lib_streams_drain(&r->res);
  lib_warn_unused_resolve(&r->res);
  run_ended(r, rc);
  lib_warn_parallel(&r->res);
  probe_global_cleanup();
  strpool_use(was);
  return rc < 0 ? HS_E_SETUP : end_code(r);
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
  int rc;

  if (r->started)
    return HS_E_STATE;
  if (!r->loop) {
    c = hs_loop_new(&r->loop);
    if (c != HS_OK)
      return c;
    r->own_loop = 1;
  }
  if (r->loop->running)
    return HS_E_STATE;
  c = run_setup(r, 0);
  if (c != HS_OK)
    return c;
  r->started = 1;
  runner_interrupt_clear();
  r->loop->running = r;
  was = strpool_use(results_arena(&r->res.results));
  rc = runner_start_warm(r->loop->e, &r->res.plan, &r->res.results, INT64_MAX,
                         NULL, on_done, r);
  strpool_use(was);
  if (rc < 0) {
    r->loop->running = NULL;
    return HS_E_SETUP;
  }
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
  /* Async-signal-safe: flags and the loops' wake-up writes only. */
  if (r)
    r->cancelled = 1;
  runner_interrupt();
  if (r && r->loop)
    engine_wake(r->loop->e);
}

struct hs_results *hs_run_results(struct hs_run *r)
{
  return &r->res;
}

void hs_run_free(struct hs_run *r)
{
  if (!r)
    return;
  if (r->loop && r->loop->running == r) {
    /* Still in flight: the loop's jobs point into it; end them first. */
    int running = 1;

    hs_run_cancel(r);
    while (running && hs_run_step(r, -1, &running) == HS_OK)
      ;
  }
  lib_streams_close(&r->res);
  lib_results_release(&r->res);
  if (r->own_loop)
    hs_loop_free(r->loop);
  free(r);
}
