/*
 * runner.c: rounds x (target, mode) pairs, in the order the schedule
 * gives, one sample at a time (SPEC 3.4).  Input: the plan.  Output:
 * struct results.  Progress goes to stderr.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "probe.h"
#include "edge.h"
#include "runner.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

static void (*volatile exit_hook)(void);

void runner_set_exit_hook(void (*fn)(void))
{
  exit_hook = fn;
}

static void on_signal(int sig)
{
  (void)sig;
  if (probe_interrupted) {
    /* Second signal: leave at once, without a temporary file.  Nothing
     * unflushed is lost: ndjson lines are only ever written whole. */
    if (exit_hook)
      exit_hook();
    _exit(130);
  }
  probe_interrupted = 1;
}

void runner_signals(void)
{
  struct sigaction sa;

  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
}

int runner_interrupted(void)
{
  return probe_interrupted != 0;
}

static void sleep_us(int64_t us)
{
  struct timespec ts;

  ts.tv_sec = (time_t)(us / 1000000);
  ts.tv_nsec = (long)(us % 1000000) * 1000;
  /* Bounded: a signal ends the pause early, which is what we want. */
  nanosleep(&ts, NULL);
}

static int show_progress(const struct options *o)
{
  if (o->progress == TRI_NEVER || o->verbosity < 0)
    return 0;
  if (o->progress == TRI_ALWAYS)
    return 1;
  return isatty(STDERR_FILENO);
}

static void progress(const struct plan *p, size_t k, size_t n,
                     const struct plan_item *it, int64_t elapsed_ms)
{
  /* One line of at most 79 columns: a 20-cell bar, sample k+1 of n, the
   * target (cut to fit), the mode, and the time left, estimated from the
   * mean time per sample so far (unknown before the first one ends). */
  char bar[21], eta[64];
  size_t fill = n ? (k * 20) / n : 0, i;
  long left =
      k ? (long)((elapsed_ms * (int64_t)(n - k)) / (int64_t)k / 1000) : -1;

  for (i = 0; i < 20; i++)
    bar[i] = i < fill ? '#' : '.';
  bar[20] = '\0';
  if (left < 0)
    snprintf(eta, sizeof(eta), "--:--");
  else if (left >= 3600)
    snprintf(eta, sizeof(eta), "%ld:%02ld:%02ld", left / 3600, left / 60 % 60,
             left % 60);
  else
    snprintf(eta, sizeof(eta), "%ld:%02ld", left / 60, left % 60);
  fprintf(stderr, "\r\033[K[%s] %zu/%zu %-.24s %s eta %s", bar, k + 1, n,
          p->targets[it->target].name, sample_mode_names[it->mode], eta);
  fflush(stderr);
}

/* At most this many /cdn-cgi/trace fetches per run. */
#define TRACE_MAX 16

/*
 * After the measured samples: fetch /cdn-cgi/trace once per origin that
 * looks Cloudflare-fronted (--trace auto) or once per origin (always).
 */
static void fetch_traces(const struct plan *p, struct results *r)
{
  size_t i, k;

  if (p->opts->trace == TRACE_NEVER)
    return;
  for (i = 0; i < r->n && !probe_interrupted; i++) {
    const struct sample *s = &r->samples[i];
    const struct options *o = p->targets[s->target].opts;

    for (k = 0; k < s->n_hops && !probe_interrupted; k++) {
      const struct hop *h = &s->hops[k];
      char *origin;

      if (!h->status || r->n_traces >= TRACE_MAX)
        continue;
      if (o->trace == TRACE_AUTO && !edge_wants_trace(h))
        continue;
      origin = url_origin(h->url);
      if (origin && !results_find_trace(r, origin)) {
        struct trace_fetch *t = results_add_trace(r, origin, h->host);

        probe_trace(o, h, t);
        if (t->error)
          msg_info("trace of %s unavailable: %s", origin, t->error);
      }
      free(origin);
    }
  }
}

int runner_run(const struct plan *p, struct results *r, runner_sample_cb cb,
               void *ud)
{
  struct probe *pr = probe_alloc(p);
  size_t *perm = xcalloc(p->n_items ? p->n_items : 1, sizeof(*perm));
  size_t total = (size_t)p->rounds * p->n_items, k = 0, i;
  int bar = show_progress(p->opts), rc = 0;
  int64_t t0;
  long round;

  r->started_at_ms = 0;
  {
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    r->started_at_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
  }
  /* One allocation for a run of usual size; a huge -n grows as it goes. */
  results_reserve(r, total < 65536 ? total : 65536);
  probe_tls_warmup(p);
  /* Warm and resumed clients are primed before round 1 with unmeasured
   * requests; a priming failure is reported, and the samples then show
   * what happens. */
  for (i = 0; i < p->n_items && !probe_interrupted; i++) {
    const struct plan_item *it = &p->items[i];
    char err[512];

    if (it->mode == MODE_COLD)
      continue;
    /* A warning, as hopsplit(1) promises: a priming that fails while
     * the samples succeed is otherwise seen nowhere. */
    if (probe_prime(pr, it->target, it->mode, err, sizeof(err)) < 0)
      msg_warn("priming %s (%s) failed: %s; its samples are measured all "
               "the same",
               p->targets[it->target].name, sample_mode_names[it->mode], err);
  }
  msg_info("set-up done, measuring %zu sample%s in %ld round%s", total,
           total == 1 ? "" : "s", p->rounds, p->rounds == 1 ? "" : "s");
  t0 = r->started_at_ms;
  for (round = 1; round <= p->rounds && !probe_interrupted; round++) {
    plan_round_order(p, round, perm);
    for (i = 0; i < p->n_items && !probe_interrupted; i++) {
      const struct plan_item *it = &p->items[perm[i]];
      struct sample s;
      struct timespec ts;

      if (bar) {
        clock_gettime(CLOCK_REALTIME, &ts);
        progress(p, k, total, it,
                 (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - t0);
      }
      probe_sample(pr, it->target, it->mode, &s);
      if (probe_interrupted && !s.ok) {
        /* Abandoned by the interrupt, not failed: not a sample. */
        sample_release(&s);
        break;
      }
      s.round = (int)round;
      s.position = (int)i + 1;
      if (!s.ok)
        msg_info("sample %zu/%zu (%s, %s, round %ld) failed: %s: %s", k + 1,
                 total, p->targets[it->target].name,
                 sample_mode_names[it->mode], round, err_class_names[s.err],
                 s.err_message ? s.err_message : "");
      else if (msg_verbosity > 0) {
        char t[UNITS_FMT_SIZE];

        /* In the reports' units. */
        units_format_us(s.total_us, t, sizeof(t));
        msg_info("sample %zu/%zu (%s, %s, round %ld): %s, %zu hop%s, "
                 "status %d",
                 k + 1, total, p->targets[it->target].name,
                 sample_mode_names[it->mode], round, t, (size_t)s.n_hops,
                 s.n_hops == 1 ? "" : "s", (int)s.status);
      }
      results_add(r, &s);
      if (cb)
        cb(p, &r->samples[r->n - 1], ud);
      k++;
      if (p->opts->pause_us > 0 && k < total && !probe_interrupted)
        sleep_us(p->opts->pause_us);
    }
  }
  if (bar) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
  fetch_traces(p, r);
  {
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    r->finished_at_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
  }
  /* Also a run cut during its trace fetches is partial. */
  if (probe_interrupted) {
    r->partial = 1;
    rc = 1;
  }
  free(perm);
  probe_free(pr);
  return rc;
}
