/*
 * profile.c: a YAML profile -> struct profile (hopsplit-profile(5)).
 * Input: the bytes of one file, read with libyaml's document API, and the
 * options of the command line.  Output: the options of the run and of each
 * target, built by replaying every key through options_set (the setter of
 * the command line), then the command line over them; and the checks.
 *
 * Every problem is collected with its place in the file and printed at the
 * end, sorted, as "FILE:LINE:COL: message"; libyaml's marks are 0-based.
 * This file reads the file and the document and walks the top level; the
 * parts it hands on are in profile_*.c (see profile_int.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "arraysize.h"
#include "buf.h"
#include "check.h"
#include "msg.h"
#include "option_table.h"
#include "profile.h"
#include "units.h"
#include "url.h"
#include "strutil.h"
#include "xalloc.h"
#include "profile_int.h"
#include "banned.h"

static const char *const top_keys[] = {
    "name",     "rounds",  "modes",    "order",   "seed",   "pause",
    "parallel", "project", "defaults", "targets", "checks", "outputs"};
#define N_TOP_KEYS (ARRAY_SIZE(top_keys))

/* outputs, modes and the top-level options that go through the table. */
static void top_option(struct loader *L, const yaml_node_t *k,
                       const yaml_node_t *v)
{
  pf_option_value(L, k, v, options_find(pf_alias(pf_text(k))), &L->glob);
}

static void load_top(struct loader *L, const yaml_node_t *root)
{
  yaml_node_pair_t *pr;
  yaml_node_item_t *it;

  if (root->type != YAML_MAPPING_NODE) {
    complain(L, root,
             "a profile is a mapping of keys such as 'targets' and "
             "'rounds', not %s",
             pf_type_name(root));
    return;
  }
  for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = pf_node(L, pr->key), *v = pf_node(L, pr->value);
    const char *key = pf_key_of(L, k);

    if (!key || pf_duplicate(L, root, pr))
      continue;
    if (!strcmp(key, "name")) {
      if (v->type != YAML_SCALAR_NODE || pf_is_null(v)) {
        complain(L, pf_is_null(v) ? k : v, "'name' takes a value, not %s",
                 pf_is_null(v) ? "nothing" : pf_type_name(v));
        continue;
      }
      free(L->p->name);
      L->p->name = pf_value(L, v);
    }
    else if (!strcmp(key, "rounds") || !strcmp(key, "modes") ||
             !strcmp(key, "order") || !strcmp(key, "seed") ||
             !strcmp(key, "pause") || !strcmp(key, "parallel") ||
             !strcmp(key, "project") || !strcmp(key, "outputs")) {
      top_option(L, k, v);
    }
    else if (!strcmp(key, "defaults")) {
      yaml_node_pair_t *dp;

      if (v->type != YAML_MAPPING_NODE) {
        if (!pf_is_null(v))
          complain(L, v, "'defaults' is a mapping of options, not %s",
                   pf_type_name(v));
        continue;
      }
      for (dp = v->data.mapping.pairs.start; dp < v->data.mapping.pairs.top;
           dp++) {
        yaml_node_t *dk = pf_node(L, dp->key);

        if (pf_key_of(L, dk) && !pf_duplicate(L, v, dp))
          pf_option_pair(L, dk, pf_node(L, dp->value), 0);
      }
    }
    else if (!strcmp(key, "targets")) {
      L->have_targets = 1;
      if (pf_is_null(v) ||
          (v->type == YAML_SEQUENCE_NODE &&
           v->data.sequence.items.start == v->data.sequence.items.top)) {
        complain(L, k,
                 "'targets' is empty (a profile measures at least "
                 "one URL)");
        continue;
      }
      if (v->type != YAML_SEQUENCE_NODE) {
        complain(L, v,
                 "'targets' is a list of targets, each with a 'url', "
                 "not %s",
                 pf_type_name(v));
        continue;
      }
      for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
           it++)
        pf_load_target(L, pf_node(L, *it));
    }
    else if (!strcmp(key, "checks")) {
      if (pf_is_null(v))
        continue;
      if (v->type != YAML_SEQUENCE_NODE) {
        complain(L, v, "'checks' is a list of checks, not %s",
                 pf_type_name(v));
        continue;
      }
      for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
           it++) {
        L->checks = xgrow(L->checks, &L->cap_checks, L->n_checks + 1,
                          sizeof(*L->checks));
        L->checks[L->n_checks++] = pf_node(L, *it);
      }
    }
    else if (options_find_for(pf_alias(key), OPT_CMD_MEASURE)) {
      complain(L, k,
               "'%s' is an option: set it under 'defaults' (or in a "
               "target)",
               key);
    }
    else {
      pf_unknown_key(L, k, "", top_keys, N_TOP_KEYS);
    }
  }
  if (!L->have_targets)
    complain(L, root, "no 'targets' (a profile measures at least one URL)");
}

/* Problems in file order; the same place keeps the order found. */
static int cmp_problem(const void *a, const void *b)
{
  const struct problem *x = a, *y = b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Line and column (0-based) of byte offset off of data. */
static void offset_pos(const char *data, size_t len, size_t off, size_t *line,
                       size_t *col)
{
  size_t i;

  *line = *col = 0;
  for (i = 0; i < off && i < len; i++) {
    if (data[i] == '\n') {
      (*line)++;
      *col = 0;
    }
    else {
      (*col)++;
    }
  }
}

static void syntax_error(struct loader *L, const yaml_parser_t *y,
                         const char *data, size_t len)
{
  size_t line = y->problem_mark.line, col = y->problem_mark.column;
  const char *what = y->problem ? y->problem : "cannot parse";

  if (y->error == YAML_READER_ERROR) {
    offset_pos(data, len, y->problem_offset, &line, &col);
    pf_problem_at(L, line, col, "not UTF-8 text: %s", what);
  }
  else if (y->context &&
           (y->context_mark.line != line || y->context_mark.column != col))
    pf_problem_at(L, line, col, "%s (%s at line %lu)", what, y->context,
                  (unsigned long)y->context_mark.line + 1);
  else if (y->context)
    pf_problem_at(L, line, col, "%s (%s)", what, y->context);
  else
    pf_problem_at(L, line, col, "%s", what);
}

/* The file name without directories and without .yaml or .yml. */
static char *default_name(const char *file)
{
  const char *base = strrchr(file, '/');
  size_t len;

  base = base ? base + 1 : file;
  len = strlen(base);
  if (len > 5 && !strcmp(base + len - 5, ".yaml"))
    len -= 5;
  else if (len > 4 && !strcmp(base + len - 4, ".yml"))
    len -= 4;
  return xstrndup(base, len);
}

void profile_init(struct profile *p)
{
  memset(p, 0, sizeof(*p));
  options_init(&p->opts);
  check_set_init(&p->checks);
}

void profile_release(struct profile *p)
{
  size_t i;

  free(p->file);
  free(p->name);
  options_release(&p->opts);
  for (i = 0; i < p->n_targets; i++) {
    free(p->targets[i].name);
    free(p->targets[i].url);
    options_release(&p->targets[i].opts);
  }
  free(p->targets);
  check_set_release(&p->checks);
  for (i = 0; i < p->n_errors; i++)
    free(p->errors[i]);
  free(p->errors);
  memset(p, 0, sizeof(*p));
}

/* Whether a and b (may be NULL) give more headers than a request takes;
 * says so at the first one too many. */
static int too_many_headers(struct loader *L, const struct entries *a,
                            const struct entries *b)
{
  size_t n = a->n + (b ? b->n : 0), i, count = 0;

  for (i = 0; i < n; i++) {
    const struct entry *e = i < a->n ? &a->v[i] : &b->v[i - a->n];

    if (e->def->id != OPT_HEADER || ++count <= PROFILE_MAX_HEADERS)
      continue;
    pf_problem_at(L, e->line, e->col,
                  "more than %d request headers (servers refuse far fewer: "
                  "Apache takes 100 header fields)",
                  PROFILE_MAX_HEADERS);
    return 1;
  }
  return 0;
}

/* Everything after a successful parse: options, targets, checks. */
static void load_document(struct loader *L, const struct options *cli)
{
  struct profile *p = L->p;
  yaml_node_t *root = yaml_document_get_root_node(L->doc);
  size_t i, total;
  int insecure = 0;

  if (!root) {
    pf_problem_at(L, 0, 0, "empty profile (it needs at least 'targets')");
    return;
  }
  if (pf_bounds_check(L) < 0)
    return;
  load_top(L, root);
  pf_target_repeats(L);
  /* A request takes at most PROFILE_MAX_HEADERS headers. */
  if (too_many_headers(L, &L->glob, NULL))
    return;
  for (i = 0; i < L->n_t; i++)
    if (too_many_headers(L, &L->glob, &L->t[i].e))
      return;
  options_release(&p->opts);
  pf_build_options(L, &p->opts, &L->glob, NULL, 0, NULL);
  L->own_modes = p->opts.modes;
  options_release(&p->opts);
  pf_build_options(L, &p->opts, &L->glob, NULL, 1, cli);
  /* Each target repeats the options of 'defaults': bounded in all. */
  for (i = 0, total = 0; i < L->n_t; i++)
    total += L->glob.n + L->t[i].e.n;
  if (total > PROFILE_MAX_OPTION_VALUES) {
    pf_problem_at(L, 0, 0,
                  "%zu targets take %zu option values in all (each repeats "
                  "the %zu of 'defaults'); at most %d",
                  L->n_t, total, L->glob.n, PROFILE_MAX_OPTION_VALUES);
    return;
  }
  p->targets = L->n_t ? xcalloc(L->n_t, sizeof(*p->targets)) : NULL;
  p->n_targets = L->n_t;
  for (i = 0; i < L->n_t; i++) {
    struct profile_target *pt = &p->targets[i];

    pt->name = L->t[i].name ? xstrdup(L->t[i].name) : NULL;
    pt->url = L->t[i].url ? xstrdup(L->t[i].url) : NULL;
    pf_build_options(L, &pt->opts, &L->glob, &L->t[i].e, 0, cli);
    insecure |= pt->opts.insecure;
  }
  /* The reports say that verification is off when any target has it
   * off (hopsplit(1) Redaction); they read the options of the run. */
  if (insecure && !p->opts.insecure)
    p->opts.insecure = 1;
  for (i = 0; i < L->n_checks; i++)
    pf_load_check(L, L->checks[i]);
}

int profile_load_buf(struct profile *p, const char *file, const char *data,
                     size_t len, const struct options *cli)
{
  struct loader L;
  yaml_parser_t y;
  yaml_document_t doc, more;
  size_t i;
  int parsed = 0;

  profile_release(p);
  profile_init(p);
  p->file = xstrdup(file);
  memset(&L, 0, sizeof(L));
  L.p = p;
  L.file = file;
  L.doc = &doc;
  if (!yaml_parser_initialize(&y))
    BUG("yaml_parser_initialize failed");
  yaml_parser_set_input_string(&y, (const unsigned char *)data, len);
  if (!yaml_parser_load(&y, &doc)) {
    syntax_error(&L, &y, data, len);
  }
  else {
    parsed = 1;
    load_document(&L, cli);
    if (!yaml_parser_load(&y, &more)) {
      syntax_error(&L, &y, data, len);
    }
    else {
      yaml_node_t *r = yaml_document_get_root_node(&more);

      if (r)
        complain(&L, r, "a profile is one YAML document; this is a second");
      yaml_document_delete(&more);
    }
  }
  if (!p->name)
    p->name = default_name(file);
  if (L.n_probs) {
    qsort(L.probs, L.n_probs, sizeof(*L.probs), cmp_problem);
    p->errors = xcalloc(L.n_probs, sizeof(*p->errors));
    /* A message names an environment variable, never its value. */
    for (i = 0; i < L.n_probs; i++) {
      char *msg = pf_scrub(&L, L.probs[i].msg);

      p->errors[i] =
          xasprintf("%s:%lu:%lu: %s", file, (unsigned long)L.probs[i].line + 1,
                    (unsigned long)L.probs[i].col + 1, msg);
      free(msg);
    }
    p->n_errors = L.n_probs;
  }
  for (i = 0; i < L.n_probs; i++)
    free(L.probs[i].msg);
  free(L.probs);
  pf_entries_release(&L.glob);
  for (i = 0; i < L.n_t; i++) {
    free(L.t[i].name);
    free(L.t[i].url);
    pf_entries_release(&L.t[i].e);
  }
  free(L.t);
  free(L.checks);
  pf_bounds_release(&L);
  if (parsed)
    yaml_document_delete(&doc);
  yaml_parser_delete(&y);
  if (!p->checks.profile) {
    p->checks.profile = xstrdup(p->name);
    p->checks.file = xstrdup(file);
  }
  return p->n_errors ? -1 : 0;
}

int profile_load(struct profile *p, const char *path,
                 const struct options *cli)
{
  FILE *f = fopen(path, "rb");
  struct buf b;
  char chunk[8192];
  size_t n, i;
  int rc = -1;

  buf_init(&b, PROFILE_MAX_SIZE);
  if (!f) {
    profile_release(p);
    profile_init(p);
    p->file = xstrdup(path);
    return msg_error("cannot read profile '%s': %s", path, strerror(errno));
  }
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    if (buf_add(&b, chunk, n) < 0)
      break;
  if (ferror(f)) {
    rc = msg_error("cannot read profile '%s': %s", path, strerror(errno));
    goto out;
  }
  if (b.truncated) {
    rc = msg_error("profile '%s' is larger than %d bytes", path,
                   PROFILE_MAX_SIZE);
    goto out;
  }
  rc = profile_load_buf(p, path, b.s, b.len, cli);
  for (i = 0; i < p->n_errors; i++)
    msg_error("%s", p->errors[i]);
out:
  fclose(f);
  buf_release(&b);
  return rc;
}

const char *profile_yaml_version(void)
{
  return yaml_get_version_string();
}
