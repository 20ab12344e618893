/*
 * profile_yaml.c: the YAML document as the profile loader reads it: nodes,
 * scalars and their places in the file, keys, duplicates, and the problems
 * collected with their place (see profile_int.h).
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

void pf_problem_at(struct loader *L, size_t line, size_t col, const char *fmt,
                   ...)
{
  struct problem *pr;
  struct buf b;
  va_list ap;

  buf_init(&b, 0);
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  /* A node an alias repeats would say the same again: once is enough. */
  L->seen.own = 1;
  if (!pf_map_put(&L->seen, xasprintf("%zu:%zu:%s", line, col, b.s ? b.s : ""),
                  0)) {
    buf_release(&b);
    return;
  }
  L->probs = xgrow(L->probs, &L->cap_probs, L->n_probs + 1, sizeof(*L->probs));
  pr = &L->probs[L->n_probs];
  pr->line = line;
  pr->col = col;
  pr->seq = L->n_probs++;
  pr->msg = buf_detach(&b);
}

yaml_node_t *pf_node(struct loader *L, int id)
{
  return yaml_document_get_node(L->doc, id);
}

const char *pf_type_name(const yaml_node_t *n)
{
  switch (n->type) {
  case YAML_MAPPING_NODE:
    return "a mapping";
  case YAML_SEQUENCE_NODE:
    return "a list";
  default:
    return "a single value";
  }
}

const char *pf_text(const yaml_node_t *n)
{
  return (const char *)n->data.scalar.value;
}

int pf_is_null(const yaml_node_t *n)
{
  const char *s;

  if (n->type != YAML_SCALAR_NODE ||
      n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return 0;
  s = pf_text(n);
  return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
         !strcmp(s, "NULL");
}

/*
 * Where byte at of the value of scalar n is in the file: exact for a
 * scalar on one line whose source length matches its value (no escapes,
 * no folding), else the start of the scalar.
 */
static void scalar_pos(const yaml_node_t *n, size_t at, size_t *line,
                       size_t *col)
{
  size_t q = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                     n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE
                 ? 1
                 : 0;

  *line = n->start_mark.line;
  *col = n->start_mark.column;
  if (n->start_mark.line == n->end_mark.line &&
      n->end_mark.column - n->start_mark.column ==
          n->data.scalar.length + 2 * q)
    *col += q + at;
}

/* The value of scalar n with ${VAR} expanded, or NULL after a problem. */
char *pf_value(struct loader *L, const yaml_node_t *n)
{
  char err[256];
  size_t at = 0, line, col;
  char *v;

  if (strlen(pf_text(n)) != n->data.scalar.length) {
    complain(L, n, "value contains a NUL character");
    return NULL;
  }
  v = profile_expand(pf_text(n), err, sizeof(err), &at);
  if (v && strstr(pf_text(n), "${"))
    pf_note_vars(L, pf_text(n));
  if (!v) {
    scalar_pos(n, at, &line, &col);
    pf_problem_at(L, line, col, "%s", err);
  }
  return v;
}

/* The text of a key node, or NULL after a problem (not a scalar). */
const char *pf_key_of(struct loader *L, const yaml_node_t *k)
{
  if (k->type != YAML_SCALAR_NODE) {
    complain(L, k, "a key must be a name, not %s", pf_type_name(k));
    return NULL;
  }
  return pf_text(k);
}

/* "unknown key 'k'IN (did you mean 'x'?)" or "(expected ...)". */
void pf_unknown_key(struct loader *L, const yaml_node_t *k, const char *in,
                    const char *const *names, size_t n)
{
  const char *hint = str_closest(pf_text(k), names, n);
  struct buf b;
  size_t i;

  if (hint) {
    complain(L, k, "unknown key '%s'%s (did you mean '%s'?)", pf_text(k), in,
             hint);
    return;
  }
  buf_init(&b, 0);
  for (i = 0; i < n; i++)
    buf_printf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
  complain(L, k, "unknown key '%s'%s (expected %s)", pf_text(k), in, b.s);
  buf_release(&b);
}

/* true/false (YAML 1.1 also allows yes/no and on/off); -1 otherwise. */
int pf_boolean(const yaml_node_t *n)
{
  static const char *const yes[] = {"true", "yes", "on"};
  static const char *const no[] = {"false", "no", "off"};
  size_t i;

  if (n->type != YAML_SCALAR_NODE)
    return -1;
  for (i = 0; i < 3; i++) {
    if (!strcasecmp(pf_text(n), yes[i]))
      return 1;
    if (!strcasecmp(pf_text(n), no[i]))
      return 0;
  }
  return -1;
}
