/*
 * lib_embed.h: results (struct hs_results, hopsplit.h) over a run that a
 * client measures with the stages itself.  For serve, whose probes are
 * runs on its own engines (runner_start) until they are hs_runs on its
 * loops (issue 34; then hs_run_results gives the results and this goes):
 * it reads its probes' samples and hops through field handles
 * (hs_field_find, hs_results_get) like any client.
 *
 * The client fills the options, the plan and the samples, builds the
 * analysis itself and says so (lib_embed_analysed): hs_results_get reads
 * a sample only then, as it would build the analysis itself otherwise.
 * hs_results_free releases everything, the analysis when said built.
 */
#ifndef HOPSPLIT_LIB_EMBED_H
#define HOPSPLIT_LIB_EMBED_H

#include <hopsplit/hopsplit.h>

struct options;
struct plan;
struct results;
struct analysis;

/* Empty results (samples initialised), freed by hs_results_free. */
struct hs_results *lib_embed_new(void);
/* Its parts, for the client to fill. */
struct options *lib_embed_options(struct hs_results *r);
struct plan *lib_embed_plan(struct hs_results *r);
struct results *lib_embed_samples(struct hs_results *r);
struct analysis *lib_embed_analysis(struct hs_results *r);
/* Whether the analysis is built (1), or released or not yet (0). */
void lib_embed_analysed(struct hs_results *r, int built);
/* Whether the run is in flight (1: hs_results_get reads without building
 * the analysis, as from an hs_run's sample callback) or over (0). */
void lib_embed_live(struct hs_results *r, int live);
/* The index of the stored sample s (a struct sample * the runner handed
 * over) in r's samples. */
size_t lib_embed_index(const struct hs_results *r, const void *s);

#endif
