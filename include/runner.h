/*
 * runner.h: the measuring loop.  Rounds, the order inside each round,
 * priming, pauses, progress and interruption; every sample goes through
 * the probe strictly one after another into struct results.
 */
#ifndef HOPSPLIT_RUNNER_H
#define HOPSPLIT_RUNNER_H

#include "plan.h"
#include "results.h"

/* Called after each sample is stored (for streaming outputs); may be
 * NULL. */
typedef void (*runner_sample_cb)(const struct plan *p, const struct sample *s,
                                 void *ud);

/*
 * Measure the whole plan into r (initialised by the caller).  Returns 0
 * when every planned sample ran, 1 when interrupted (r->partial set), or
 * -1 on a setup error (message printed).
 */
int runner_run(const struct plan *p, struct results *r, runner_sample_cb cb,
               void *ud);

/* Install the SIGINT/SIGTERM handlers (first signal: stop after the
 * current sample; second: exit 130 at once). */
void runner_signals(void);
int runner_interrupted(void);
/* fn (async-signal-safe) runs before a second signal ends the process,
 * to remove temporary output files; NULL for none. */
void runner_set_exit_hook(void (*fn)(void));

#endif
