/*
 * plan.h: what a run will measure, expanded and validated from the
 * options and the target arguments (step 2 of the pipeline, README.md Layout).
 *
 * plan_build reports every problem in one pass and returns -1; nothing is
 * measured then.  The plan borrows the options (they must outlive it) and
 * owns its targets and items; plan_release frees them.
 */
#ifndef HOPSPLIT_PLAN_H
#define HOPSPLIT_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "sample.h"

struct check_set; /* check.h */

struct target {
  char *name;
  char *url;                  /* with scheme, as measured (unredacted) */
  const struct options *opts; /* settings of this target */
  struct options *own_opts;   /* a profile target's own copy, or NULL */
  /* hopsplit merge: the place this target was measured from, owned;
   * NULL in a plan of one run (the plan's vantage is every target's). */
  char *vantage;
  /* URLs fetched unmeasured before each sample (--prime): borrowed from
   * the options, the array is the target's. */
  const char **primes;
  size_t n_primes;
};

/* --parallel: rounds of the serial control measured before the batch,
 * every target alone (fewer when the run has fewer rounds). */
#define PLAN_CONTROL_ROUNDS 3

/* One (target, mode) pair: measured once per round. */
struct plan_item {
  size_t target;
  enum sample_mode mode;
};

struct plan {
  const struct options *opts;
  struct target *targets;
  size_t n_targets;
  enum sample_mode modes[MODE_COUNT];
  size_t n_modes;
  struct plan_item *items;
  size_t n_items;
  long rounds;
  /* An unsafe request without rounds given: one cold sample, no priming
   * (options_unsafe, hopsplit(1)). */
  int unsafe_once;
  uint64_t seed; /* the seed used, set even when not given */
  /* Where the run measures (--vantage, else the host name), owned; NULL
   * in a plan read back from a document that did not record it. */
  char *vantage;
  size_t baseline; /* index of the target the others are compared with */
  int compare_all; /* also compare every pair (--compare all) */
  /* The checks of a profile run (borrowed; evaluated after the analysis,
   * reported with it), NULL for the URL form. */
  const struct check_set *checks;
};

/* A target of a profile: its name, its URL and its own settings. */
struct plan_target_spec {
  const char *name;
  const char *url;
  const struct options *opts;
};

int plan_build(struct plan *p, const struct options *o, char *const *args,
               size_t n_args);
/*
 * The plan of a profile: targets named by the profile, each with a copy
 * of its own options (owned by the plan, freed by plan_release); o gives
 * rounds, modes, order and seed.  The names must be unique.  Returns 0,
 * or -1 after printing every problem.
 */
int plan_build_targets(struct plan *p, const struct options *o,
                       const struct plan_target_spec *specs, size_t n);
void plan_release(struct plan *p);

/*
 * What depends on the targets' names, for any builder of a plan: the
 * baseline (opts->baseline), compare_all and each target's primes.
 * Returns 0, or -1 after printing every problem (an unknown name).
 */
int plan_resolve_names(struct plan *p);

/* Order of the items in a round (1-based): perm receives n_items indices. */
void plan_round_order(const struct plan *p, long round, size_t *perm);

/* How many requests of target t's unsafe method the plan sends (its
 * samples and the priming of warm and resumed clients); 0 for a safe
 * request. */
long plan_unsafe_requests(const struct plan *p, size_t t);
/* Before measuring: say on stderr how many unsafe requests each target
 * whose rounds were given will receive. */
void plan_unsafe_notice(const struct plan *p);

/* Print the plan for --dry-run, credentials redacted unless asked. */
void plan_print(const struct plan *p, FILE *f);

#endif
