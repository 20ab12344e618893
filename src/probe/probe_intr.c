/*
 * probe_intr.c: the interrupt flag the signal handler sets (runner.c) and
 * every wait of the probe polls: a lookup, a transfer, a pause; and the
 * deadline of the calling thread (hopsplit serve's scrape timeout), which
 * cuts the timeout of every lookup and transfer that thread starts.
 */
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "clock.h"
#include "probe.h"
#include "probe_int.h"
#include "banned.h"

volatile sig_atomic_t probe_interrupted;

static _Thread_local int64_t deadline_us;

void probe_set_deadline(int64_t monotonic_us)
{
  deadline_us = monotonic_us;
}

int64_t probe_deadline_cut(int64_t timeout_us)
{
  int64_t left;

  if (!deadline_us)
    return timeout_us;
  left = deadline_us - clock_mono_us();
  /* At least 1 ms: 0 would mean "no timeout" to libcurl, and 1 ms fails a
   * lookup or transfer started after the deadline as a timeout at once. */
  if (left < 1000)
    left = 1000;
  return timeout_us > 0 && timeout_us < left ? timeout_us : left;
}

int64_t probe_deadline_swap(int64_t monotonic_us)
{
  int64_t old = deadline_us;

  deadline_us = monotonic_us;
  return old;
}

int64_t probe_deadline_get(void)
{
  return deadline_us;
}
