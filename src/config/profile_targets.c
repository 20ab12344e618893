/*
 * profile_targets.c: the targets of a profile: names, URLs, their own
 * option keys, and references to them by name from checks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "buf.h"
#include "check.h"
#include "msg.h"
#include "profile.h"
#include "units.h"
#include "url.h"
#include "strutil.h"
#include "xalloc.h"
#include "profile_int.h"
#include "banned.h"

static int name_ok(const char *s)
{
  const char *p;

  if (!*s)
    return 0;
  for (p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || strchr("_.-", *p)))
      return 0;
  return 1;
}

static void check_url(struct loader *L, const yaml_node_t *n, const char *raw)
{
  char msg[1024];

  if (url_target_problem(raw, msg, sizeof(msg)) < 0)
    complain(L, n, "%s", msg);
}

void pf_load_target(struct loader *L, const yaml_node_t *m)
{
  yaml_node_pair_t *pr;
  struct tspec *ts;
  const yaml_node_t *name_node = NULL;
  size_t *first;
  int has_url = 0;

  if (m->type != YAML_MAPPING_NODE) {
    complain(L, m, "a target is a mapping with 'name' and 'url', not %s",
             pf_type_name(m));
    return;
  }
  L->t = xgrow(L->t, &L->cap_t, L->n_t + 1, sizeof(*L->t));
  ts = &L->t[L->n_t++];
  memset(ts, 0, sizeof(*ts));
  ts->line = m->start_mark.line;
  ts->col = m->start_mark.column;
  for (pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = pf_node(L, pr->key), *v = pf_node(L, pr->value);
    const char *key = pf_key_of(L, k);
    char **slot;

    if (!key || pf_duplicate(L, m, pr))
      continue;
    if (strcmp(key, "name") && strcmp(key, "url")) {
      pf_option_pair(L, k, v, 1);
      continue;
    }
    if (!strcmp(key, "url"))
      has_url = 1;
    if (v->type != YAML_SCALAR_NODE || pf_is_null(v)) {
      complain(L, pf_is_null(v) ? k : v,
               "'%s' of a target takes a value, not %s", key,
               pf_is_null(v) ? "nothing" : pf_type_name(v));
      continue;
    }
    slot = !strcmp(key, "name") ? &ts->name : &ts->url;
    *slot = pf_value(L, v);
    if (!*slot)
      continue;
    if (slot == &ts->url) {
      check_url(L, v, ts->url);
      continue;
    }
    name_node = v;
    if (!name_ok(ts->name)) {
      complain(L, v,
               "bad target name '%s' (letters, digits, '_', '.' and "
               "'-')",
               ts->name);
      continue;
    }
    first = pf_map_find(&L->names, ts->name);
    if (!first) {
      pf_map_put(&L->names, ts->name, L->n_t - 1);
    }
    else if (!L->t[*first].repeats++) {
      /* Reported once, at the first repeat; the count is filled in when
       * every target is known (pf_target_repeats). */
      complain(L, v, "target name '%s' is used twice (first at line %lu)",
               ts->name, (unsigned long)L->t[*first].line + 1);
      L->t[*first].repeat_prob = L->n_probs - 1;
    }
  }
  if (!has_url && ts->name)
    complain(L, m, "target '%s' has no 'url'", ts->name);
  else if (!has_url)
    complain(L, m, "target %zu has no 'url'", L->n_t);
  if (!ts->name && !name_node) {
    ts->name = xasprintf("t%zu", L->n_t);
    pf_map_put(&L->names, ts->name, L->n_t - 1);
  }
}

static size_t find_target(struct loader *L, const char *name)
{
  size_t *i = pf_map_find(&L->names, name);

  return i ? *i : (size_t)-1;
}

/* The target named by scalar n, or (size_t)-1 after a problem. */
size_t pf_target_ref(struct loader *L, const yaml_node_t *n)
{
  const char **names;
  const char *hint;
  char *name;
  size_t i, t, k;

  if (n->type != YAML_SCALAR_NODE || pf_is_null(n)) {
    complain(L, n, "expected a target name, not %s",
             pf_is_null(n) ? "nothing" : pf_type_name(n));
    return (size_t)-1;
  }
  name = pf_value(L, n);
  if (!name)
    return (size_t)-1;
  t = find_target(L, name);
  if (t != (size_t)-1) {
    free(name);
    return t;
  }
  /* A hint among a few targets; among many, the cost of finding it
   * (every unknown name against every target) is not worth it. */
  k = L->n_t <= 100 ? L->n_t : 10;
  names = xcalloc(k + 1, sizeof(*names));
  for (i = 0; i < k; i++)
    names[i] = L->t[i].name ? L->t[i].name : "";
  hint = L->n_t <= 100 ? str_closest(name, names, k) : NULL;
  if (hint) {
    complain(L, n, "unknown target '%s' (did you mean '%s'?)", name, hint);
  }
  else {
    struct buf b;

    buf_init(&b, 0);
    for (i = 0; i < k && i < 10; i++)
      buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    if (L->n_t > 10)
      buf_printf(&b, " and %zu more", L->n_t - 10);
    complain(L, n, "unknown target '%s' (targets: %s)", name, b.s);
    buf_release(&b);
  }
  free(names);
  free(name);
  return (size_t)-1;
}

void pf_target_repeats(struct loader *L)
{
  size_t i;

  for (i = 0; i < L->n_t; i++) {
    struct problem *pr;

    if (L->t[i].repeats < 2 || L->t[i].repeat_prob >= L->n_probs)
      continue;
    pr = &L->probs[L->t[i].repeat_prob];
    free(pr->msg);
    pr->msg = xasprintf("target name '%s' is used %zu times (first at line "
                        "%lu)",
                        L->t[i].name, L->t[i].repeats + 1,
                        (unsigned long)L->t[i].line + 1);
  }
}
