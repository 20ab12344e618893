/*
 * profile_int.h: what the files of the profile loader share (private to
 * src/config): the loader's state, the problems it collects and the
 * functions over libyaml's document that every part uses.  The parts:
 * profile.c (the file, the document, the top level), profile_yaml.c
 * (nodes, scalars, places, problems), profile_expand.c (${VAR}),
 * profile_options.c (option keys through options_set),
 * profile_targets.c (targets) and profile_checks.c (checks).
 */
#ifndef HOPSPLIT_PROFILE_INT_H
#define HOPSPLIT_PROFILE_INT_H

#include <stddef.h>
#include <yaml.h>

#include "msg.h"
#include "option_table.h"
#include "options.h"
#include "profile.h"
#include "yaml_bounds_int.h"

/* One problem; line and col are 0-based as libyaml's marks. */
struct problem {
  size_t line, col, seq;
  char *msg;
};

/* One option as the profile gives it, applied later through options_set.
 * A flag set to false (off) undoes the same flag given before it. */
struct entry {
  const struct opt_def *def;
  char *key; /* as written, for messages */
  char *val; /* NULL for a flag */
  int off;
  size_t line, col;
};

struct entries {
  struct entry *v;
  size_t n, cap;
};

struct tspec {
  char *name;
  char *url;
  struct entries e;
  size_t line, col;
  size_t repeats;     /* later targets with the same name */
  size_t repeat_prob; /* the problem that says so */
};

/* An environment variable a value used, to keep its value out of
 * messages. */
struct pf_var {
  char *name;
  char *value;
};

struct loader {
  struct profile *p;
  const char *file;
  yaml_document_t *doc;
  struct problem *probs;
  size_t n_probs;
  struct entries glob; /* top level and defaults, in file order */
  struct tspec *t;
  size_t n_t;
  yaml_node_t **checks;
  size_t n_checks;
  int have_targets;
  unsigned own_modes; /* the modes of the profile, before the command line */
  /* profile_bounds.c: per mapping node with a repeated key, per pair 1 +
   * the index of the first pair with that key; target names -> index;
   * problems already reported ("line:col:message"); ${VAR}s used. */
  size_t cap_probs, cap_t, cap_checks; /* of probs, t and checks */
  size_t **dups;
  struct pf_map names;
  struct pf_map seen;
  struct pf_var *vars;
  size_t n_vars;
};

/* The alias budget and cycles (PROFILE_MAX_ALIAS_NODES), duplicate keys
 * of every mapping: 0, or -1 after a problem (the document is then not
 * walked). */
int pf_bounds_check(struct loader *L);
void pf_bounds_release(struct loader *L);
/* Remember the variables ${NAME} of raw text that are set. */
void pf_note_vars(struct loader *L, const char *raw);
/* msg with the value of every remembered variable replaced by ${NAME}. */
char *pf_scrub(const struct loader *L, const char *msg);

void pf_problem_at(struct loader *L, size_t line, size_t col, const char *fmt,
                   ...) MSG_PRINTF(4, 5);
yaml_node_t *pf_node(struct loader *L, int id);
const char *pf_type_name(const yaml_node_t *n);
const char *pf_text(const yaml_node_t *n);
int pf_is_null(const yaml_node_t *n);
char *pf_value(struct loader *L, const yaml_node_t *n);
const char *pf_key_of(struct loader *L, const yaml_node_t *k);
int pf_duplicate(struct loader *L, const yaml_node_t *m,
                 const yaml_node_pair_t *pair);
void pf_unknown_key(struct loader *L, const yaml_node_t *k, const char *in,
                    const char *const *names, size_t n);
void pf_entries_release(struct entries *es);
int pf_boolean(const yaml_node_t *n);
const char *pf_alias(const char *key);
void pf_option_value(struct loader *L, const yaml_node_t *k,
                     const yaml_node_t *v, const struct opt_def *d,
                     struct entries *es);
void pf_option_pair(struct loader *L, const yaml_node_t *k,
                    const yaml_node_t *v, int target);
void pf_load_target(struct loader *L, const yaml_node_t *m);
/* The problems of repeated target names, with their counts. */
void pf_target_repeats(struct loader *L);
void pf_build_options(struct loader *L, struct options *o,
                      const struct entries *a, const struct entries *b,
                      int report_a, const struct options *cli);
size_t pf_target_ref(struct loader *L, const yaml_node_t *n);
void pf_load_check(struct loader *L, const yaml_node_t *n);

#define complain(L, n, ...)                                                   \
  pf_problem_at((L), (n)->start_mark.line, (n)->start_mark.column, __VA_ARGS__)

#endif
