/*
 * runner.c: rounds x (target, mode) pairs, in the order the schedule
 * gives, one sample at a time (hopsplit(1) MEASUREMENT).  Input: the plan.
 * Output: struct results.  The progress line is the caller's
 * (runner_run_progress): the tool draws it (pipeline.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"
#include "clock.h"
#include "curl_api_int.h"
#include "msg.h"
#include "engine_int.h"
#include "probe.h"
#include "probe_int.h"
#include "edge.h"
#include "runner.h"
#include "stall.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

int runner_interrupted(void)
{
  return probe_interrupted != 0;
}

/* At most this many /cdn-cgi/trace fetches per run. */
#define TRACE_MAX 16

#define CONTROL_ROUNDS PLAN_CONTROL_ROUNDS

/* A run of at most RUN_SMALL samples sizes its results' arena for this
 * many distinct strings and bytes of them per sample (arena_expect): a
 * sample of a few hops with its headers, certificate and addresses. */
#define RUN_SMALL         4
#define RUN_SMALL_STRINGS 64
#define RUN_SMALL_BYTES   4096

struct run;
struct lane {
  struct run *rn;
  size_t target; /* SIZE_MAX: none yet */
  long round;
  size_t *order; /* the target's items in this round */
  size_t n_order, i;
  struct engine_timer pause;
  struct engine_task task;
  int waiting; /* for a place under the batch's cap */
};

/* A plan measured on an engine: where it stands. */
struct run {
  struct engine *e;
  const struct plan *p;
  struct results *r;
  int64_t deadline;
  runner_sample_cb each;
  void *each_ud;
  runner_done_cb done;
  void *ud;
  struct probe *pr;
  size_t *perm;
  size_t total, k;
  size_t prime_i; /* next item to prime */
  long round;
  size_t i;                    /* next item of the round */
  runner_progress_cb progress; /* the tool's progress line, or NULL */
  void *progress_ud;
  int stopped;   /* interrupted: no new sample */
  int cancelled; /* runner_cancel: this run only, no new sample */
  int64_t t0;
  struct engine_timer pause;
  struct engine_task task;
  /* The owner of its own tasks and timers: no sample (never active), the
   * arena of r (engine_int.h), so that what it starts and stores goes to
   * r's arena whichever run the loop handled before. */
  struct engine_job ej;
  struct engine_job *self; /* &ej */
  /* --parallel: the lanes, the phase (serial control, then the batch),
   * its rounds, the next target to give a lane, the lanes still busy. */
  struct lane *lanes;
  size_t n_lanes;
  int phase_control;
  long phase_rounds;
  size_t next_target;
  size_t active_lanes;
  /* The batch's samples in flight and how many may be: the cap halves
   * (at least 1) when a sample ends past the interference threshold and
   * grows by one with each that does not, up to the lanes. */
  size_t in_flight, cap;
  /* The samples of r said (-v) and handed to each (the NDJSON stream,
   * -w), in order: under --parallel only while no other sample is in
   * flight, so that no output is written inside another's phases. */
  size_t told;
  /* The /cdn-cgi/trace fetches after the samples, one at a time on the
   * engine: the next sample and hop to look at, the fetch under way. */
  size_t tr_i, tr_k;
  struct trace_job *tr_job;
  struct engine_multi *tr_multi;
  int tr_result;
};

static void run_next(void *ud);

/* No new sample: the process's interrupt, or this run's cancel. */
static int halted(const struct run *rn)
{
  return probe_interrupted || rn->cancelled;
}

/* At most this many /cdn-cgi/trace fetches per run. */
#define TRACE_MAX 16

static void run_end(struct run *rn);
static void trace_next(struct run *rn);
static void tell(struct run *rn, int all);

/* A trace's transfer ended (inside libcurl): go on from the loop. */
static void trace_step(void *ud)
{
  struct run *rn = ud;

  const struct trace_fetch *t = &rn->r->traces[rn->r->n_traces - 1];

  probe_trace_finish(rn->tr_job, rn->tr_result);
  rn->tr_job = NULL;
  if (t->error)
    msg_info("trace of %s unavailable: %s", t->origin, t->error);
  trace_next(rn);
}

static void on_trace_done(void *easy, int result, void *ud)
{
  struct run *rn = ud;

  (void)easy;
  rn->tr_result = result;
  engine_defer(rn->e, &rn->task, trace_step, rn, &rn->self);
}

/*
 * After the measured samples: fetch /cdn-cgi/trace once per origin that
 * looks Cloudflare-fronted (--trace auto) or once per origin (always),
 * one after another on the engine; then the run ends.
 */
static void trace_next(struct run *rn)
{
  const struct plan *p = rn->p;
  struct results *r = rn->r;

  for (; p->opts->trace != TRACE_NEVER && rn->tr_i < r->n && !halted(rn);
       rn->tr_i++, rn->tr_k = 0) {
    const struct sample *s = &r->samples[rn->tr_i];
    const struct options *o = p->targets[s->target].opts;

    while (rn->tr_k < s->n_hops && !halted(rn)) {
      const struct hop *h = &s->hops[rn->tr_k++];
      struct trace_fetch *t;
      char *origin;
      void *easy = NULL;

      if (!h->info->status || r->n_traces >= TRACE_MAX)
        continue;
      if (o->trace == TRACE_AUTO && !edge_wants_trace(h))
        continue;
      origin = url_origin(h->info->url);
      if (!origin || results_find_trace(r, origin)) {
        free(origin);
        continue;
      }
      t = results_add_trace(r, origin, h->info->host);
      free(origin);
      rn->tr_job = probe_trace_prepare(o, h, t, &easy);
      if (rn->tr_job) {
        if (!rn->tr_multi)
          rn->tr_multi = engine_multi_new(rn->e, &curl_api_linked, NULL,
                                          on_trace_done, rn);
        if (engine_multi_add(rn->tr_multi, easy) == 0)
          return;
        t->error = xstrdup("cannot start the transfer");
        probe_trace_finish(rn->tr_job, -1);
        rn->tr_job = NULL;
      }
      msg_info("trace of %s unavailable: %s", t->origin, t->error);
    }
  }
  engine_multi_free(rn->tr_multi);
  rn->tr_multi = NULL;
  run_end(rn);
}

/* A trace fetched outside any run (runner_trace_start). */
struct lone_trace {
  struct engine *e;
  struct engine_multi *m;
  struct trace_job *job;
  struct trace_fetch *t;
  struct engine_task task;
  int result;
  runner_trace_cb done;
  void *ud;
};

static void lone_trace_step(void *ud)
{
  struct lone_trace *lt = ud;
  struct engine *e = lt->e;

  probe_trace_finish(lt->job, lt->result);
  engine_multi_free(lt->m);
  lt->done(lt->t, lt->ud);
  free(lt);
  engine_unhold(e);
}

static void on_lone_trace_done(void *easy, int result, void *ud)
{
  struct lone_trace *lt = ud;

  (void)easy;
  lt->result = result;
  engine_defer(lt->e, &lt->task, lone_trace_step, lt, NULL);
}

int runner_trace_start(struct engine *e, const struct options *o,
                       const struct hop *h, struct trace_fetch *t,
                       runner_trace_cb done, void *ud)
{
  struct lone_trace *lt;
  void *easy = NULL;

  lt = xcalloc(1, sizeof(*lt));
  lt->e = e;
  lt->t = t;
  lt->done = done;
  lt->ud = ud;
  lt->job = probe_trace_prepare(o, h, t, &easy);
  if (!lt->job) {
    free(lt);
    return -1;
  }
  lt->m = engine_multi_new(e, &curl_api_linked, NULL, on_lone_trace_done, lt);
  if (!lt->m || engine_multi_add(lt->m, easy) < 0) {
    if (!t->error)
      t->error = xstrdup("cannot start the transfer");
    probe_trace_finish(lt->job, -1);
    if (lt->m)
      engine_multi_free(lt->m);
    free(lt);
    return -1;
  }
  engine_hold(e);
  return 0;
}

/* The tool's progress line before item it's sample (NULL: the samples
 * are over).  Its time is output (stall.h): drawn between two samples of
 * a serial run it is in no sample's phases; under --parallel it counts in
 * the interference of the samples in flight (hopsplit(1) INTERFERENCE). */
static void say_progress(struct run *rn, const struct plan_item *it)
{
  int64_t t0;

  if (!rn->progress)
    return;
  t0 = stall_now_ns();
  rn->progress(rn->p, rn->k, rn->total, it, it ? clock_wall_ms() - rn->t0 : 0,
               rn->progress_ud);
  stall_output_add(stall_now_ns() - t0);
}

static void run_finish(void *ud)
{
  struct run *rn = ud;

  tell(rn, 1);
  say_progress(rn, NULL);
  rn->tr_i = 0;
  rn->tr_k = 0;
  trace_next(rn);
}

static void run_end(struct run *rn)
{
  const struct plan *p = rn->p;
  struct results *r = rn->r;
  struct engine *e = rn->e;
  int rc = 0;
  size_t i;

  r->finished_at_ms = clock_wall_ms();
  /* Also a run cut during its trace fetches is partial. */
  if (halted(rn)) {
    r->partial = 1;
    rc = 1;
  }
  free(rn->perm);
  for (i = 0; i < rn->n_lanes; i++)
    free(rn->lanes[i].order);
  free(rn->lanes);
  probe_free(rn->pr);
  rn->done(p, r, rc, rn->ud);
  free(rn);
  engine_unhold(e);
}

/* Store a finished sample of item it, measured in round (0: the serial
 * control) at position; says a failure (and with -v a success) on stderr.
 * Returns 0, or -1 when the interrupt abandoned it (not a sample: freed). */
/* Say the samples stored since the last time (-v: each failure, and
 * with -v each success) and hand them to each, in order.  Under
 * --parallel that waits while another sample is in flight (unless all):
 * output written then would be inside its phases. */
static void tell(struct run *rn, int all)
{
  const struct plan *p = rn->p;
  struct results *r = rn->r;

  if (rn->lanes && rn->in_flight && !all)
    return;
  for (; rn->told < r->n; rn->told++) {
    const struct sample *s = &r->samples[rn->told];
    int control = s->control;
    long at = control ? (long)s->position : (long)s->round;

    if (!s->ok)
      msg_info("sample %zu/%zu (%s, %s, %s %ld) failed: %s: %s", rn->told + 1,
               rn->total, p->targets[s->target].name,
               sample_mode_names[s->mode], control ? "control" : "round", at,
               err_class_names[s->err],
               sample_rare(s)->err_message ? sample_rare(s)->err_message : "");
    else if (msg_verbosity > 0) {
      char t[UNITS_FMT_SIZE];

      /* In the reports' units. */
      units_format_us(s->total_us, t, sizeof(t));
      msg_info("sample %zu/%zu (%s, %s, %s %ld): %s, %zu hop%s, "
               "status %d, interference %lld us",
               rn->told + 1, rn->total, p->targets[s->target].name,
               sample_mode_names[s->mode], control ? "control" : "round", at,
               t, (size_t)s->n_hops, s->n_hops == 1 ? "" : "s", (int)s->status,
               (long long)s->interference_us);
    }
    if (rn->each)
      rn->each(p, s, rn->each_ud);
  }
}

static int store(struct run *rn, struct sample *s, const struct plan_item *it,
                 long round, size_t position, int control)
{
  struct results *r = rn->r;

  (void)it;
  if (probe_interrupted && !s->ok) {
    /* Abandoned by the interrupt, not failed: not a sample. */
    sample_release(s);
    rn->stopped = 1;
    return -1;
  }
  s->round = (int)round;
  s->position = (int)position;
  s->control = (uint8_t)control;
  results_add(r, s);
  rn->k++;
  tell(rn, 0);
  return 0;
}

/* A sample ended: store it, then the next one (after --pause). */
static void on_sample(struct sample *s, void *ud)
{
  struct run *rn = ud;
  const struct plan *p = rn->p;
  const struct plan_item *it = &p->items[rn->perm[rn->i]];

  if (store(rn, s, it, rn->round, rn->i + 1, 0) < 0) {
    engine_defer(rn->e, &rn->task, run_finish, rn, &rn->self);
    return;
  }
  rn->i++;
  if (p->opts->pause_us > 0 && rn->k < rn->total && !halted(rn)) {
    /* A pause is a timer: a signal wakes the loop and ends it early. */
    engine_timer_set(rn->e, &rn->pause, probe_now_us() + p->opts->pause_us,
                     run_next, rn, &rn->self);
    return;
  }
  engine_defer(rn->e, &rn->task, run_next, rn, &rn->self);
}

/* The next sample of the rounds, or the end. */
static void run_next(void *ud)
{
  struct run *rn = ud;
  const struct plan *p = rn->p;
  const struct plan_item *it;

  if (rn->i >= p->n_items) {
    rn->round++;
    rn->i = 0;
    if (rn->round <= p->rounds)
      plan_round_order(p, rn->round, rn->perm);
  }
  if (halted(rn) || rn->round > p->rounds || !p->n_items) {
    engine_timer_stop(rn->e, &rn->pause);
    engine_defer(rn->e, &rn->task, run_finish, rn, &rn->self);
    return;
  }
  it = &p->items[rn->perm[rn->i]];
  say_progress(rn, it);
  probe_start(rn->pr, rn->e, it->target, it->mode, rn->deadline, on_sample,
              rn);
}

/*
 * --parallel N (hopsplit(1) MEASUREMENT): lanes, each measuring one target at
 * a time, that target's samples one after another (rounds, its modes in the
 * round's order), and taking the next target when done.  First a serial
 * control: one lane, CONTROL_ROUNDS rounds of every target alone; then the
 * batch on up to N lanes.  A warm or resumed client is only ever used by
 * the lane of its target.
 */
static void lane_next(void *ud);
static void phase_start(struct run *rn, int control);

/* A lane has nothing left: the phase ends with the last one. */
static void lane_idle(struct lane *l)
{
  struct run *rn = l->rn;

  engine_timer_stop(rn->e, &l->pause);
  if (--rn->active_lanes)
    return;
  if (rn->phase_control && !halted(rn) && !rn->stopped)
    phase_start(rn, 0);
  else
    engine_defer(rn->e, &rn->task, run_finish, rn, &rn->self);
}

/* The items of the lane's target in the order of its current round. */
static void lane_round(struct lane *l)
{
  const struct plan *p = l->rn->p;
  size_t k;

  plan_round_order(p, l->round, l->rn->perm);
  l->n_order = 0;
  for (k = 0; k < p->n_items; k++)
    if (p->items[l->rn->perm[k]].target == l->target)
      l->order[l->n_order++] = l->rn->perm[k];
  l->i = 0;
}

/* A place may be free: the waiting lanes look again (those that find none
 * wait again; an interrupt lets every one of them end). */
static void lanes_wake(struct run *rn)
{
  size_t i;

  for (i = 0; i < rn->n_lanes; i++) {
    struct lane *w = &rn->lanes[i];

    if (w->waiting) {
      w->waiting = 0;
      engine_defer(rn->e, &w->task, lane_next, w, &rn->self);
    }
  }
}

static void lane_on_sample(struct sample *s, void *ud)
{
  struct lane *l = ud;
  struct run *rn = l->rn;
  const struct plan_item *it = &rn->p->items[l->order[l->i]];

  rn->in_flight--;
  if (s->interfered)
    rn->cap = rn->cap > 1 ? rn->cap / 2 : 1;
  else if (rn->cap < rn->n_lanes)
    rn->cap++;
  lanes_wake(rn);
  if (store(rn, s, it, rn->phase_control ? 0 : l->round,
            rn->phase_control ? (size_t)l->round : l->i + 1,
            rn->phase_control) < 0) {
    lane_idle(l);
    return;
  }
  l->i++;
  if (rn->p->opts->pause_us > 0 && !halted(rn)) {
    engine_timer_set(rn->e, &l->pause, probe_now_us() + rn->p->opts->pause_us,
                     lane_next, l, &rn->self);
    return;
  }
  engine_defer(rn->e, &l->task, lane_next, l, &rn->self);
}

static void lane_next(void *ud)
{
  struct lane *l = ud;
  struct run *rn = l->rn;
  const struct plan *p = rn->p;
  const struct plan_item *it;

  /* Bounded: each pass moves to a later round or a later target. */
  while (!halted(rn) && !rn->stopped) {
    if (l->target != SIZE_MAX && l->i < l->n_order)
      break;
    if (l->target != SIZE_MAX && l->round < rn->phase_rounds) {
      l->round++;
      lane_round(l);
      continue;
    }
    if (rn->next_target >= p->n_targets) {
      l->target = SIZE_MAX;
      break;
    }
    l->target = rn->next_target++;
    l->round = 1;
    lane_round(l);
  }
  if (halted(rn) || rn->stopped || l->target == SIZE_MAX) {
    lane_idle(l);
    return;
  }
  /* Over the cap (the loop was too busy to keep the stamps): wait for a
   * sample to end.  Some sample is in flight, so one will. */
  if (rn->in_flight >= rn->cap) {
    l->waiting = 1;
    return;
  }
  rn->in_flight++;
  it = &p->items[l->order[l->i]];
  say_progress(rn, it);
  probe_start(rn->pr, rn->e, it->target, it->mode, rn->deadline,
              lane_on_sample, l);
}

/* Start the serial control (one lane) or the batch (up to --parallel). */
static void phase_start(struct run *rn, int control)
{
  const struct plan *p = rn->p;
  size_t n = control ? 1 : (size_t)p->opts->parallel, i;

  if (n > p->n_targets)
    n = p->n_targets;
  rn->phase_control = control;
  rn->phase_rounds =
      control ? (p->rounds < CONTROL_ROUNDS ? p->rounds : CONTROL_ROUNDS)
              : p->rounds;
  rn->next_target = 0;
  rn->active_lanes = n;
  rn->in_flight = 0;
  rn->cap = n ? n : 1;
  if (!n) {
    engine_defer(rn->e, &rn->task, run_finish, rn, &rn->self);
    return;
  }
  for (i = 0; i < n; i++) {
    struct lane *l = &rn->lanes[i];

    l->rn = rn;
    l->target = SIZE_MAX;
    engine_defer(rn->e, &l->task, lane_next, l, &rn->self);
  }
}

static void prime_next(void *ud);

static void on_primed(void *ud, int rc, const char *err)
{
  struct run *rn = ud;
  const struct plan_item *it = &rn->p->items[rn->prime_i];

  /* A warning, as hopsplit(1) promises: a priming that fails while the
   * samples succeed is otherwise seen nowhere. */
  if (rc < 0)
    msg_warn("priming %s (%s) failed: %s; its samples are measured all the "
             "same",
             rn->p->targets[it->target].name, sample_mode_names[it->mode],
             err);
  rn->prime_i++;
  engine_defer(rn->e, &rn->task, prime_next, rn, &rn->self);
}

/* Warm and resumed clients are primed before round 1 with unmeasured
 * requests, one after another; a priming failure is reported, and the
 * samples then show what happens. */
static void prime_next(void *ud)
{
  struct run *rn = ud;
  const struct plan *p = rn->p;

  while (rn->prime_i < p->n_items && !halted(rn) &&
         p->items[rn->prime_i].mode == MODE_COLD)
    rn->prime_i++;
  if (rn->prime_i < p->n_items && !halted(rn)) {
    const struct plan_item *it = &p->items[rn->prime_i];

    probe_prime_start(rn->pr, rn->e, it->target, it->mode, rn->deadline,
                      on_primed, rn);
    return;
  }
  msg_info("set-up done, measuring %zu sample%s in %ld round%s", rn->total,
           rn->total == 1 ? "" : "s", p->rounds, p->rounds == 1 ? "" : "s");
  rn->t0 = rn->r->started_at_ms;
  if (rn->lanes) {
    phase_start(rn, 1);
    return;
  }
  rn->round = 0;
  rn->i = p->n_items; /* run_next starts round 1 */
  run_next(rn);
}

static struct run *start(struct engine *e, const struct plan *p,
                         struct results *r, int64_t deadline_us,
                         runner_sample_cb each, void *each_ud,
                         runner_done_cb done, void *ud, int sync, int warm,
                         runner_progress_cb progress, void *progress_ud)
{
  struct run *rn = xcalloc(1, sizeof(*rn));

  rn->e = e;
  rn->p = p;
  rn->r = r;
  rn->self = &rn->ej;
  rn->ej.arena = results_arena(r);
  rn->deadline = deadline_us;
  rn->each = each;
  rn->each_ud = each_ud;
  rn->done = done;
  rn->ud = ud;
  rn->progress = progress;
  rn->progress_ud = progress_ud;
  rn->pr = probe_alloc(p);
  rn->perm = xcalloc(p->n_items ? p->n_items : 1, sizeof(*rn->perm));
  rn->total = (size_t)p->rounds * p->n_items;
  if (p->opts->parallel > 1 && p->n_targets > 1) {
    size_t i;

    rn->n_lanes = (size_t)p->opts->parallel < p->n_targets
                      ? (size_t)p->opts->parallel
                      : p->n_targets;
    rn->lanes = xcalloc(rn->n_lanes, sizeof(*rn->lanes));
    for (i = 0; i < rn->n_lanes; i++)
      rn->lanes[i].order = xcalloc(p->n_items, sizeof(size_t));
    /* The serial control comes first, in the same run. */
    rn->total +=
        (size_t)(p->rounds < CONTROL_ROUNDS ? p->rounds : CONTROL_ROUNDS) *
        p->n_items;
  }
  /* A run of a sample or two (a probe of hopsplit serve: thousands of
   * them in flight at once) keeps a small arena: its tables and first
   * block sized for it, not for a run of thousands of samples. */
  if (rn->total <= RUN_SMALL && !arena_count(rn->ej.arena))
    arena_expect(rn->ej.arena, RUN_SMALL_STRINGS * (rn->total ? rn->total : 1),
                 RUN_SMALL_BYTES * (rn->total ? rn->total : 1));
  r->started_at_ms = clock_wall_ms();
  /* One allocation for a run of usual size; a huge -n grows as it goes. */
  results_reserve(r, rn->total < 65536 ? rn->total : 65536);
  /* The CLI's one run pays OpenSSL's one-time costs here (so does a
   * library's run, runner_start_warm); a server starting runs on its
   * engine does it once at start. */
  if (sync || warm)
    probe_tls_warmup(p);
  engine_hold(e);
  engine_defer(e, &rn->task, prime_next, rn, &rn->self);
  return rn;
}

int runner_start(struct engine *e, const struct plan *p, struct results *r,
                 int64_t deadline_us, runner_sample_cb each,
                 runner_done_cb done, void *ud)
{
  start(e, p, r, deadline_us, each, ud, done, ud, 0, 0, NULL, NULL);
  return 0;
}

struct run *runner_start_warm(struct engine *e, const struct plan *p,
                              struct results *r, int64_t deadline_us,
                              runner_sample_cb each, runner_done_cb done,
                              void *ud)
{
  return start(e, p, r, deadline_us, each, ud, done, ud, 0, 1, NULL, NULL);
}

void runner_cancel(struct run *rn)
{
  size_t i;

  if (rn->cancelled)
    return;
  rn->cancelled = 1;
  /* A pause ends now: the next step sees the cancel and ends the run (or
   * the lane); a lane waiting for a place looks again. */
  if (rn->pause.slot) {
    engine_timer_stop(rn->e, &rn->pause);
    engine_defer(rn->e, &rn->task, run_next, rn, &rn->self);
  }
  for (i = 0; i < rn->n_lanes; i++) {
    struct lane *l = &rn->lanes[i];

    if (l->pause.slot) {
      engine_timer_stop(rn->e, &l->pause);
      engine_defer(rn->e, &l->task, lane_next, l, &rn->self);
    }
  }
  lanes_wake(rn);
}

struct sync_run {
  int done, rc;
};

static void on_run_done(const struct plan *p, struct results *r, int rc,
                        void *ud)
{
  struct sync_run *sr = ud;

  (void)p;
  (void)r;
  sr->done = 1;
  sr->rc = rc;
}

int runner_run(const struct plan *p, struct results *r, runner_sample_cb cb,
               void *ud)
{
  return runner_run_progress(p, r, cb, ud, NULL, NULL);
}

int runner_run_progress(const struct plan *p, struct results *r,
                        runner_sample_cb cb, void *ud,
                        runner_progress_cb progress, void *progress_ud)
{
  char err[256];
  struct engine *e = engine_alloc(err, sizeof(err));
  struct sync_run sr;

  if (!e)
    return msg_error("%s", err);
  sr.done = 0;
  sr.rc = 0;
  engine_current = e;
  /* The deadline of the calling thread (probe_set_deadline) bounds it. */
  start(e, p, r, probe_deadline_get(), cb, ud, on_run_done, &sr, 1, 0,
        progress, progress_ud);
  while (!sr.done)
    engine_step(e, -1);
  engine_current = NULL;
  engine_free(e);
  return sr.rc;
}

void runner_interrupt(void)
{
  probe_interrupted = 1;
  if (engine_current)
    engine_wake(engine_current);
}

void runner_interrupt_clear(void)
{
  probe_interrupted = 0;
}
