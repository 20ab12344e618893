/*
 * stall.c: the calling thread's time waiting for hopsplit's own locks and
 * writing its output (stall.h).
 */
#include <time.h>

#include "stall.h"
#include "banned.h"

static _Thread_local int64_t lock_ns, output_ns;

int64_t stall_now_ns(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void stall_lock(pthread_mutex_t *mu)
{
  int64_t t0;

  if (pthread_mutex_trylock(mu) == 0)
    return;
  t0 = stall_now_ns();
  pthread_mutex_lock(mu);
  lock_ns += stall_now_ns() - t0;
}

int64_t stall_lock_ns(void)
{
  return lock_ns;
}

int64_t stall_output_ns(void)
{
  return output_ns;
}

void stall_output_add(int64_t ns)
{
  if (ns > 0)
    output_ns += ns;
}
