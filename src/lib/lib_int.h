/*
 * lib_int.h: the handles of libhopsplit (hopsplit.h), for src/lib's files
 * only.
 */
#ifndef HOPSPLIT_LIB_INT_H
#define HOPSPLIT_LIB_INT_H

#include <hopsplit/hopsplit.h>

#include "analysis.h"
#include "options.h"
#include "plan.h"
#include "report_read.h"
#include "results.h"

struct profile;

struct hs_options {
  struct options opts;
  char **targets; /* owned */
  size_t n_targets;
  struct profile *prof; /* hs_options_load_profile's, or NULL */
  char err[640];
};

/* The options that rule o: its profile's when it holds one. */
const struct options *lib_opts(const struct hs_options *o);

/* The documents of hs_results_merge, each file's own analysis, and the
 * merged plan and samples its results read (lib_merge.c). */
struct lib_merge {
  struct report_saved *sv;
  struct analysis *af;
  size_t n;
  struct plan mp;
  int have_plan;
  struct results mr;
};

/* What a report needs: the plan of the run (and the options it points
 * to), the samples, their analysis.  A run's are filled by the run; a
 * document's by report_read (saved). */
struct hs_results {
  struct options opts; /* a run's copy of its options */
  struct plan plan;
  struct results results;
  struct analysis analysis;
  int analysed;
  int live; /* a run's, started and not ended: no analysis yet */
  char *libraries;
  struct report_saved *saved; /* a document read back, or NULL */
  struct arena *doc_arena;    /* the strings of saved */
  int of_run;                 /* owned by a run: hs_results_free ignores */
  /* A profile run's checks (borrowed from its options), evaluated with
   * the analysis; how many failed. */
  struct check_set *checks;
  size_t checks_failed;
  struct lib_merge *merge; /* hs_results_merge's documents, or NULL */
};

/* The plan and samples r reads (a run's, or a document's). */
const struct plan *lib_plan(const struct hs_results *r);
struct results *lib_samples(struct hs_results *r);
const struct results *lib_samples_c(const struct hs_results *r);
/* The arena r's strings live in. */
struct arena *lib_arena(struct hs_results *r);
/* Build r's analysis once. */
void lib_analyse(struct hs_results *r);
/* Free what r holds (not r). */
void lib_results_release(struct hs_results *r);

/* Take o's --project (and, payload, --payload-size) over a saved
 * document's settings (o may be NULL). */
void lib_reanalyse_options(struct options *saved, const struct options *o,
                           int payload);

/* Free m and what it holds. */
void lib_merge_free(struct lib_merge *m);

/* lib_pipeline.c: what a run does around its samples for the command
 * line (hopsplit(1)), on r's plan and results. */
/* Before: the files options name, the -w format; 0 or -1 (logged). */
int lib_preflight(const struct plan *p);
/* The streams (-o FILE.ndjson, --format ndjson, -w) of r's run: opened
 * before its samples, fed by lib_stream_sample (which hands the sample to
 * a writer thread: nothing rendered on the measuring thread), every line
 * handed written by lib_streams_drain (once the samples end, before any
 * report), closed by lib_streams_close (when r's are open). */
void lib_streams_open(struct hs_results *r);
void lib_stream_sample(const struct plan *p, const struct sample *s, void *ud);
void lib_streams_drain(const struct hs_results *r);
void lib_streams_close(const struct hs_results *r);
/* After: the warnings of --resolve entries no request used, and (once
 * analysed) of --parallel's interference. */
void lib_warn_unused_resolve(struct hs_results *r);
void lib_warn_parallel(struct hs_results *r);
/* Whether --format was given (and not only defaulted). */
int lib_format_given(const struct options *o);
/* A report context of r (no colour, not brief). */
struct report_ctx;
void lib_context(struct hs_results *r, struct report_ctx *c);
/* The report to stdout and every output of o (0 or -1, logged). */
int lib_write(struct hs_results *r, const struct options *o);

#endif
