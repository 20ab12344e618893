/*
 * pipeline.h: one measurement from a built plan to the written reports,
 * shared by the URL form (main.c) and profile runs: probe -> analysis ->
 * report, and the exit status that follows (hopsplit(1)).
 *
 * pipeline_measure fills a struct pipeline; pipeline_release frees what it
 * holds.  The plan is borrowed and must outlive it.
 */
#ifndef HOPSPLIT_PIPELINE_H
#define HOPSPLIT_PIPELINE_H

#include "analysis.h"
#include "plan.h"
#include "report.h"
#include "results.h"
#include "runner.h"

enum exit_status {
  EXIT_STATUS_OK = 0,
  EXIT_STATUS_CHECK = 1,
  EXIT_STATUS_USAGE = 2,
  EXIT_STATUS_SAMPLES = 3,
  EXIT_STATUS_SETUP = 4,
  EXIT_STATUS_INTERRUPTED = 130
};

struct pipeline {
  const struct plan *plan;
  struct results results;
  struct analysis analysis;
  char *libraries;
  int interrupted;
  /* The thread's current arena before the run made its results' current
   * (strpool.h), put back by pipeline_release. */
  struct arena *prev_arena;
};

/* Check that every -o file of o can be written; 0 or -1 (printed). */
int pipeline_check_outputs(const struct options *o);
/* As pipeline_check_outputs for --dry-run of a profile, which creates
 * nothing: each file could be created (its nearest existing ancestor
 * directory is writable). */
int pipeline_check_outputs_dry(const struct options *o);

/*
 * The checks a run makes before it measures, also made by --dry-run: the
 * files --cacert and --capath name, the -w format (usage errors, printed);
 * a --resolve that matches no target is a warning.  Returns the exit
 * status: EXIT_STATUS_OK or EXIT_STATUS_USAGE.
 */
int pipeline_preflight(const struct plan *p);

/* Whether --format was given (and not only defaulted). */
int pipeline_format_given(const struct options *o);

/* Measure the plan (cb, if not NULL, sees each sample as it ends), then
 * analyse.  Returns 0, or -1 when the libraries cannot be set up. */
int pipeline_measure(struct pipeline *pl, const struct plan *plan,
                     runner_sample_cb cb, void *ud);

/* Fill a report context for pl; color as for stdout. */
void pipeline_context(const struct pipeline *pl, struct report_ctx *ctx,
                      int color);

/* Render to stdout in o->format and write every -o file of o.  Returns 0
 * or -1 when an output could not be written (printed). */
int pipeline_report(const struct pipeline *pl, const struct options *o);

/*
 * Say on stderr every distinct failure of the run once (hopsplit(1)), as curl
 * says "curl: (7) ...": per target and error class, the modes whose first
 * message of that class is the same share one line with their counts,
 * the message, and what to do:
 *   hopsplit: (connect) api: 4 of 4 samples failed (2 of 2 cold, 2 of 2
 *   warm): cannot connect to 127.0.0.1:1: Connection refused; check ...
 * Whatever the stdout format (also -w, --format json); silenced by -s
 * alone, kept by -s -S (msg_note).  Nothing when every sample succeeded.
 */
void pipeline_say_failures(const struct pipeline *pl);

/* What to do about a failure of class e whose message is msg (may be
 * NULL): one static sentence, for the stderr lines above; NULL when msg
 * already says it. */
const char *pipeline_failure_hint(enum err_class e, const char *msg);

/* Exit status: interrupted > setup error > failed check > failed sample. */
int pipeline_exit_status(const struct pipeline *pl, int report_rc,
                         int checks_failed);

void pipeline_release(struct pipeline *pl);

/* Whether text on stdout gets colour (--color, NO_COLOR, a TTY). */
int pipeline_want_color(const struct options *o);

#endif
