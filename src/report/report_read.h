/*
 * report_read.h: a saved hopsplit/1 JSON document -> the options, plan
 * and results of the run that wrote it, so that `hopsplit report` can run
 * the analysis again and render any format, byte for byte as the run
 * would have.  No network.
 *
 * report_read fills *saved; report_saved_release frees everything it
 * holds.  The plan borrows saved->opts, both live in *saved.
 */
#ifndef HOPSPLIT_REPORT_READ_H
#define HOPSPLIT_REPORT_READ_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "options.h"
#include "plan.h"
#include "results.h"

/* Largest document report_read takes, in bytes. */
#define REPORT_MAX_SIZE (512 * 1024 * 1024)

struct report_saved {
  struct options opts;
  struct plan plan;
  struct results results;
  char *libraries; /* tool.libraries of the run */
  /* The checks of a profile run (plan.checks points here), or none. */
  struct check_set checks;
  int has_checks;
  /* The comparisons were unpaired (a document of hopsplit merge). */
  int unpaired;
};

/* Parse text (len bytes, what a run wrote with -o FILE.json); name is
 * used in messages.  Returns 0, or -1 with a message printed that names
 * the file, the JSON path of what is wrong ("samples[3].hops[0].headers")
 * and why; *saved is then empty.  Every member is checked for its type and
 * range (durations at most 10^11 us, counts at most 2^53, at most 1001 hops
 * a sample); numbers may take any JSON form ("9e-06"); the document is at
 * most REPORT_MAX_SIZE bytes and nested at most 64 deep. */
int report_read(struct report_saved *saved, const char *text, size_t len,
                const char *name);
/* The same from a stream, one sample at a time: the document is never
 * held whole (hopsplit report of a large file). */
int report_read_file(struct report_saved *saved, FILE *f, const char *name);
void report_saved_release(struct report_saved *saved);

#endif
