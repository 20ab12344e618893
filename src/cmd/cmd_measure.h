/*
 * cmd_measure.h: one measurement of the tool, from a planned run to its
 * written report, shared by the URL form (main.c) and profile runs
 * (cmd_run.c), and the exit statuses of hopsplit(1).
 */
#ifndef HOPSPLIT_CMD_MEASURE_H
#define HOPSPLIT_CMD_MEASURE_H

#include <hopsplit/hopsplit.h>

enum exit_status {
  EXIT_STATUS_OK = 0,
  EXIT_STATUS_CHECK = 1,
  EXIT_STATUS_USAGE = 2,
  EXIT_STATUS_SAMPLES = 3,
  EXIT_STATUS_SETUP = 4,
  EXIT_STATUS_INTERRUPTED = 130
};

/* Measure run r of options o (the tool's signals on, its progress line
 * as o asks), then write the report o asks for, after heading (may be
 * NULL: a profile's "profile: NAME (FILE)" line) when stdout gets the
 * text report, and say the failures.  Returns the exit status:
 * interrupted > setup error > failed check > failed sample. */
int cmd_measure(struct hs_run *r, const struct hs_options *o,
                const char *heading);

#endif
