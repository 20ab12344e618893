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

struct hs_options {
  struct options opts;
  char **targets; /* owned */
  size_t n_targets;
  char err[512];
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
  char *libraries;
  struct report_saved *saved; /* a document read back, or NULL */
  struct arena *doc_arena;    /* the strings of saved */
  int of_run;                 /* owned by a run: hs_results_free ignores */
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

#endif
