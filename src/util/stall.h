/*
 * stall.h: the calling thread's time stalled on hopsplit's own work that
 * is not measuring: waiting for one of its own locks, writing output.
 * Per thread and cumulative; the event loop reads both when a sample
 * starts and ends (engine_job_begin/_end: the sample's
 * interference_lock_us and interference_output_us, hopsplit(1)
 * INTERFERENCE).
 */
#ifndef HOPSPLIT_STALL_H
#define HOPSPLIT_STALL_H

#include <pthread.h>
#include <stdint.h>

/* Lock mu as pthread_mutex_lock does.  An uncontended lock costs one
 * trylock; a contended one is timed (CLOCK_MONOTONIC) and the wait added
 * to the thread's stall_lock_ns. */
void stall_lock(pthread_mutex_t *mu);
/* The calling thread's nanoseconds so far waiting in stall_lock, and in
 * the writes of msg and buf_write_fd. */
int64_t stall_lock_ns(void);
int64_t stall_output_ns(void);
/* The clock stall_output_add takes its intervals from (ns). */
int64_t stall_now_ns(void);
/* Add ns of writing output to the calling thread's figure. */
void stall_output_add(int64_t ns);

#endif
