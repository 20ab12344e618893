/*
 * profile.h: a YAML profile (hopsplit-profile(5)) -> the options
 * of the run, its targets each with their own options, its checks.  Every
 * key goes through the one option table and setter of options.h, so a
 * key and a flag cannot behave differently; the options of the command
 * line of "hopsplit run" are replayed last and win.
 *
 * profile_load reports every problem of a file in one pass, each as
 * "FILE:LINE:COLUMN: message" (1-based), and returns -1; nothing should
 * be measured then.  The struct profile owns everything it points to;
 * profile_release frees it, also after a failed load.
 */
#ifndef HOPSPLIT_PROFILE_H
#define HOPSPLIT_PROFILE_H

#include <stddef.h>

#include "check.h"
#include "options.h"

/* Largest profile read, in bytes. */
#define PROFILE_MAX_SIZE (1024 * 1024)
/* YAML aliases may make the document walked larger than the one written
 * by at most this many nodes (an alias counts as the nodes it stands
 * for); beyond, the profile is refused. */
#define PROFILE_MAX_ALIAS_NODES 100000
/* The options of all targets together, those of 'defaults' counted once
 * per target, are at most this many values. */
#define PROFILE_MAX_OPTION_VALUES 200000
/* Request headers of one target ('defaults' and its own) at most. */
#define PROFILE_MAX_HEADERS 1000

struct profile_target {
  char *name;
  char *url; /* as written, after ${VAR} expansion */
  struct options opts;
};

struct profile {
  char *file;          /* the path as given */
  char *name;          /* name:, else the file name without .yaml */
  struct options opts; /* the run: top level, defaults, command line */
  struct profile_target *targets;
  size_t n_targets;
  struct check_set checks; /* target indices as in targets[] */
  /* Every problem found, "FILE:LINE:COL: message", in file order. */
  char **errors;
  size_t n_errors;
};

void profile_init(struct profile *p);
void profile_release(struct profile *p);

/*
 * Read and load the profile at path; cli (may be NULL) holds the options
 * given on the command line, applied over the profile.  Returns 0, or -1
 * after printing every problem (also kept in p->errors).
 */
int profile_load(struct profile *p, const char *path,
                 const struct options *cli);

/* As profile_load, from len bytes of data; file names it in messages.
 * Prints nothing: the problems are in p->errors. */
int profile_load_buf(struct profile *p, const char *file, const char *data,
                     size_t len, const struct options *cli);

/*
 * Expand ${NAME} from the environment in s; ${NAME:-default} gives
 * default when NAME is unset or empty ("$${" is a literal "${").
 * Returns a malloc'd string, or NULL with a message in err and the byte
 * offset of the problem in *at (at may be NULL).
 */
char *profile_expand(const char *s, char *err, size_t errlen, size_t *at);

/* The version of the libyaml profiles are read with, for -V. */
const char *profile_yaml_version(void);

#endif
