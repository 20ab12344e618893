/*
 * clock.c: the monotonic and wall clocks (see clock.h), read in one place
 * so that every stamp of a run comes from the same clock.
 */
#include <time.h>

#include "clock.h"
#include "banned.h"

int64_t clock_mono_us(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t clock_wall_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t clock_wall_us(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct timespec clock_wall_after_us(int64_t us)
{
  struct timespec ts;

  if (us < 0)
    us = 0;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += (time_t)(us / 1000000);
  ts.tv_nsec += (long)(us % 1000000) * 1000;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  return ts;
}

int64_t clock_cpu_us(void)
{
  struct timespec ts;

  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return -1;
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
