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
