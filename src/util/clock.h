/*
 * clock.h: the two clocks every stage reads.  Monotonic microseconds
 * (CLOCK_MONOTONIC: intervals, deadlines, the measuring loop's stamps)
 * and wall-clock milliseconds since the epoch (CLOCK_REALTIME: when a
 * sample or run started, as reports print it).  Neither fails on Linux.
 */
#ifndef HOPSPLIT_CLOCK_H
#define HOPSPLIT_CLOCK_H

#include <stdint.h>

int64_t clock_mono_us(void);
int64_t clock_wall_ms(void);

#endif
