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
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "engine.h"
#include "lib_int.h"
#include "msg.h"
#include "option_table.h"
#include "probe.h"
#include "runner.h"
#include "strpool.h"
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
  int rc; /* runner's: 0, or 1 when interrupted */
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

enum hs_code hs_run_new(const struct hs_options *o, struct hs_loop *loop,
                        struct hs_run **out)
{
  struct hs_run *r;
  struct arena *was;
  struct buf libs;
  char err[512];
  int rc;

  *out = NULL;
  if (!o->n_targets)
    return HS_E_NO_TARGET;
  r = xcalloc(1, sizeof(*r));
  r->loop = loop;
  r->res.of_run = 1;
  /* options_copy fills an uninitialised record (no options_init first,
   * whose defaults it would leak). */
  options_copy(&r->res.opts, &o->opts);
  results_init(&r->res.results);
  if (options_finish(&r->res.opts, NULL, err, sizeof(err)) < 0) {
    msg_error("option -o: %s", err);
    hs_run_free(r);
    return HS_E_BAD_VALUE;
  }
  options_ca_from_env(&r->res.opts);
  was = strpool_use(results_arena(&r->res.results));
  rc = plan_build(&r->res.plan, &r->res.opts, o->targets, o->n_targets);
  strpool_use(was);
  if (rc < 0) {
    hs_run_free(r);
    return HS_E_BAD_VALUE;
  }
  if (probe_h3_check(&r->res.plan, err, sizeof(err)) < 0) {
    msg_error("%s", err);
    hs_run_free(r);
    return HS_E_SETUP;
  }
  buf_init(&libs, 0);
  probe_versions(&libs);
  r->res.libraries = buf_detach(&libs);
  *out = r;
  return HS_OK;
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

enum hs_code hs_run_perform(struct hs_run *r)
{
  struct arena *was;
  int rc;

  if (r->loop || r->started) {
    int running = 1;
    enum hs_code c = r->started ? HS_OK : hs_run_start(r);

    while (c == HS_OK && running)
      c = hs_run_step(r, -1, &running);
    return c;
  }
  r->started = 1;
  runner_interrupt_clear();
  was = strpool_use(results_arena(&r->res.results));
  rc = runner_run(&r->res.plan, &r->res.results, NULL, NULL);
  run_ended(r, rc);
  strpool_use(was);
  return rc < 0 ? HS_E_SETUP : end_code(r);
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
  lib_results_release(&r->res);
  if (r->own_loop)
    hs_loop_free(r->loop);
  free(r);
}
