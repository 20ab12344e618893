/*
 * engine_int.h: the parts of the event loop (engine.c) that only the probe
 * files use: timers, deferred tasks, descriptors owned by a job, libcurl
 * multi handles on the loop, and the bookkeeping of interference.  Plain
 * types only: the multi handle is a void* here.
 */
#ifndef HOPSPLIT_ENGINE_INT_H
#define HOPSPLIT_ENGINE_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/*
 * A sample in flight, for interference: the largest lateness of its
 * socket events and timers so far (engine.c says how it is bounded), and
 * when its own last handler ended (lateness before that is its own).
 * Events are charged to the job that *owner points to when they are
 * handled (a client serves one sample after another, so owners are
 * reached through the client's field).
 */
struct engine_job {
  int64_t max_late_us;
  int64_t own_end_us;
  /* The parts of its interference (engine_job_end), while it was in
   * flight: the loop's lateness (max_late_us and the test hook), the
   * time spent in hopsplit's own callbacks inside libcurl
   * (engine_own_begin/_end), the loop thread's run-queue delay (the
   * kernel's schedstat, -1 unknown), its waits for hopsplit's own locks
   * and its time writing output (stall.h; -1 unknown: it ended on
   * another thread), and the bytes of output the process wrote. */
  int64_t late_us;
  int64_t own_us;
  int64_t runq_us;
  int64_t lock_us;
  int64_t output_us;
  int64_t output_bytes;
  int64_t runq0_ns;
  int64_t lock0_ns, outt0_ns;
  pthread_t thread;
  uint64_t out0;
  int active;
  /* Whose turn its socket events take (engine_group_key of its origin;
   * 0: the group of events without a job).  Ready events are handled a
   * group at a time in turn, so a burst of one origin's events does not
   * hold up another origin's. */
  uint64_t group;
  /* The arena its strings go to (arena.h), or NULL: the thread's current
   * arena (strpool_use) while one of its handlers runs, so that the jobs
   * of several runs on one loop each fill their own results. */
  struct arena *arena;
};
/* The group key of a job measuring url: a hash of its origin (scheme,
 * host, port), never 0. */
uint64_t engine_group_key(const char *url);
/* The job is in flight from now on / no more: engine_job_end sets its
 * parts and returns its interference: the sum of the parts that are
 * times but the run-queue delay (sample_interference_sum), microseconds. */
void engine_job_begin(struct engine *e, struct engine_job *j);
int64_t engine_job_end(struct engine *e, struct engine_job *j);
/* Around hopsplit's own work inside a library callback of the loop's
 * current job: engine_own_begin returns the moment it began (0 outside a
 * loop's thread), engine_own_end charges the time since to the job. */
int64_t engine_own_begin(void);
void engine_own_end(int64_t t0);

/* Jobs that keep engine_run turning (a sample, a run, a pause between
 * samples): +1 and -1. */
void engine_hold(struct engine *e);
void engine_unhold(struct engine *e);

/* A one-shot timer on the loop; embed it, zeroed, in its owner. */
struct engine_timer {
  int64_t due; /* CLOCK_MONOTONIC microseconds */
  void (*fn)(void *ud);
  void *ud;
  struct engine_job *const *owner; /* may be NULL */
  size_t slot;                     /* index + 1 in the engine's list, 0 off */
};
/* Arm t to run fn(ud) at due (replaces an earlier arming). */
void engine_timer_set(struct engine *e, struct engine_timer *t, int64_t due,
                      void (*fn)(void *), void *ud,
                      struct engine_job *const *owner);
void engine_timer_stop(struct engine *e, struct engine_timer *t);

/* A task run by the loop as soon as the current handler has returned, so
 * that a state machine never continues inside a library's callback.
 * Embed it in its owner; queuing a queued task does nothing. */
struct engine_task {
  void (*fn)(void *ud);
  void *ud;
  struct engine_job *const *owner;
  struct engine_task *next;
  int queued;
};
void engine_defer(struct engine *e, struct engine_task *t, void (*fn)(void *),
                  void *ud, struct engine_job *const *owner);
/* Take a queued task out (its owner is going away). */
void engine_cancel(struct engine *e, struct engine_task *t);

/* engine_watch for a descriptor of a job (libcurl, c-ares). */
int engine_watch_owned(struct engine *e, int fd, unsigned events,
                       engine_fd_cb cb, void *ud,
                       struct engine_job *const *owner);

/* Run fn(ud) once when the user interrupts (probe_interrupted), so that
 * lookups and transfers under way stop at once; embed the hook. */
struct engine_hook {
  void (*fn)(void *ud);
  void *ud;
  struct engine_hook *prev, *next;
};
void engine_hook_add(struct engine *e, struct engine_hook *h,
                     void (*fn)(void *), void *ud);
void engine_hook_remove(struct engine *e, struct engine_hook *h);

/*
 * A libcurl multi handle on the loop, made and driven by the functions of
 * api (curl_api_int.h: the linked libcurl, or the GnuTLS one of HTTP/3; each
 * multi has its own socket and timer callbacks, and its easy handles must
 * come from the same api): its sockets and its timer go to e.
 * done(easy, result, ud) runs when a transfer of it ends (the easy handle
 * is already removed from the multi); it may not free the multi, and
 * should defer further work (engine_defer).  engine_multi_free cleans up
 * the multi (its connections close).
 */
struct engine_multi;
struct curl_api;
typedef void (*engine_done_fn)(void *easy, int result, void *ud);
struct engine_multi *engine_multi_new(struct engine *e,
                                      const struct curl_api *api,
                                      struct engine_job *const *owner,
                                      engine_done_fn done, void *ud);
void engine_multi_free(struct engine_multi *m);
/* Start the transfer of CURL* easy on the multi; 0 or -1. */
int engine_multi_add(struct engine_multi *m, void *easy);
/* Take an easy handle out before it ended (interrupt, release). */
void engine_multi_remove(struct engine_multi *m, void *easy);

/* The engine the calling thread's synchronous calls (runner_run,
 * probe_sample) run on, for the interrupt handler's wake-up; NULL. */
extern struct engine *volatile engine_current;

#endif
