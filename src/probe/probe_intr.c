/*
 * probe_intr.c: the interrupt flag the signal handler sets (runner.c) and
 * every wait of the probe polls: a lookup, a transfer, a pause.
 */
#include <signal.h>

#include "probe.h"
#include "probe_int.h"
#include "banned.h"

volatile sig_atomic_t probe_interrupted;
