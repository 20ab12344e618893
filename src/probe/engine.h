/*
 * engine.h: the event loop every measurement runs on (hopsplit(1)
 * MEASUREMENT).  One epoll loop per engine drives libcurl's multi interface
 * (curl_multi_socket_action) and the c-ares channels of the samples (their
 * socket-state callbacks), and any descriptor its owner adds.  A sample is
 * a small state machine on it: primes, each hop's DNS lookup and transfer,
 * one after another (probe.h probe_start); a plan is run on it by
 * runner_start (runner.h).
 *
 * The loop measures its own lateness: for every socket that becomes ready
 * and every timer that falls due, the time from that moment (bounded for
 * a socket: engine.c) to the moment the loop hands it to libcurl or
 * c-ares; a sample's interference_us is the largest of its own events'
 * (the most any of its stamps can be late).
 *
 * Threads: an engine belongs to the thread that calls engine_step; every
 * function here and every probe_start/runner_start on it must be called
 * from that thread, except engine_wake.  Callbacks (completions, watched
 * descriptors) run on that thread, inside engine_step.  The strings of a
 * sample go to the arena of its run's results (the arena current when it
 * was started: strpool.h), which the engine makes the thread's current one
 * while a handler of that sample or run runs: the runs on one loop each
 * fill their own results.
 */
#ifndef HOPSPLIT_ENGINE_H
#define HOPSPLIT_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct engine;

/* A new engine (its epoll descriptor, its wake-up eventfd and a libcurl
 * multi handle), or NULL with a message in err.  engine_free releases it;
 * it must have no job in flight then (engine_run first). */
struct engine *engine_alloc(char *err, size_t errlen);
void engine_free(struct engine *e);

/*
 * Wait at most timeout_us (negative: until something happens, 0: do not
 * wait) for a ready socket, a due timer, a watched descriptor or a wake-up,
 * handle everything ready, and run the completions it caused.  Returns the
 * number of jobs (samples and runs) still in flight.
 */
size_t engine_step(struct engine *e, int64_t timeout_us);
/* engine_step until no job is in flight. */
void engine_run(struct engine *e);
/* Jobs in flight: samples started by probe_start and not yet completed. */
size_t engine_jobs(const struct engine *e);

/* Make an engine_step that waits return soon.  Safe from any thread and
 * from a signal handler (it writes to an eventfd). */
void engine_wake(struct engine *e);

/*
 * Watch a descriptor of the caller (a listening socket, a pipe) on the same
 * loop: cb(fd, events, ud) runs inside engine_step when fd is ready for
 * events (ENGINE_IN, ENGINE_OUT; ENGINE_ERR is reported, never asked).
 * Calling it again for the same fd changes the events and the callback;
 * events 0 stops watching.  The descriptor stays the caller's.  Returns 0
 * or -1 (errno set).
 */
#define ENGINE_IN  1u
#define ENGINE_OUT 2u
#define ENGINE_ERR 4u
typedef void (*engine_fd_cb)(int fd, unsigned events, void *ud);
int engine_watch(struct engine *e, int fd, unsigned events, engine_fd_cb cb,
                 void *ud);

/*
 * The loop's own lateness so far, for a server's /metrics: the sum and the
 * largest of the delays between a socket or timer being ready and its
 * handling, in microseconds, and how many were measured.
 */
struct engine_lateness {
  int64_t sum_us;
  int64_t max_us;
  uint64_t count;
};
void engine_lateness(const struct engine *e, struct engine_lateness *out);

#endif
