/*
 * clock.h: the two clocks every stage reads.  Monotonic microseconds
 * (CLOCK_MONOTONIC: intervals, deadlines, the measuring loop's stamps)
 * and wall-clock milliseconds since the epoch (CLOCK_REALTIME: when a
 * sample or run started, as reports print it), and the process's CPU
 * time (serve's process_cpu_seconds_total).  The first two never fail on
 * Linux.
 */
#ifndef HOPSPLIT_CLOCK_H
#define HOPSPLIT_CLOCK_H

#include <stdint.h>
#include <time.h>

int64_t clock_mono_us(void);
int64_t clock_wall_ms(void);
/* Wall-clock microseconds since the epoch (log lines, start times). */
int64_t clock_wall_us(void);
/* The wall clock us microseconds from now, as pthread_cond_timedwait
 * takes its deadline (us < 0 counts as 0). */
struct timespec clock_wall_after_us(int64_t us);
/* The CPU time of the process in microseconds (CLOCK_PROCESS_CPUTIME_ID),
 * or -1 where the system does not keep it. */
int64_t clock_cpu_us(void);

#endif
