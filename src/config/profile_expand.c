/*
 * profile_expand.c: ${VAR} and ${VAR:-default} in profile values (see
 * profile.h).  Pure but for getenv.
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

char *profile_expand(const char *s, char *err, size_t errlen, size_t *at)
{
  struct buf b;
  const char *p = s;

  buf_init(&b, 0);
  while (*p) {
    const char *end, *q, *val, *dflt;
    char name[128];
    size_t len;

    if (p[0] == '$' && p[1] == '$' && p[2] == '{') {
      buf_puts(&b, "${");
      p += 3;
      continue;
    }
    if (p[0] != '$' || p[1] != '{') {
      buf_putc(&b, *p++);
      continue;
    }
    end = strchr(p + 2, '}');
    if (!end) {
      snprintf(err, errlen, "'${' without a closing '}'");
      goto fail;
    }
    /* ${NAME:-default}: the default (no '}' in it) when NAME is unset or
     * empty, as in sh. */
    for (q = p + 2; q < end; q++)
      if (!(*q == '_' || (*q >= 'A' && *q <= 'Z') ||
            (*q >= 'a' && *q <= 'z') || (q > p + 2 && *q >= '0' && *q <= '9')))
        break;
    len = (size_t)(q - p - 2);
    dflt = q + 1 < end && q[0] == ':' && q[1] == '-' ? q + 2 : NULL;
    if (!len && (dflt || q == end)) {
      snprintf(err, errlen, "empty variable name in '%.*s'",
               (int)(end - p + 1 > 64 ? 64 : end - p + 1), p);
      goto fail;
    }
    if ((q < end && !dflt) || len >= sizeof(name)) {
      snprintf(err, errlen,
               "bad variable name '%.*s' (letters, digits and '_', not "
               "starting with a digit)",
               (int)(end - p - 2 > 64 ? 64 : end - p - 2), p + 2);
      goto fail;
    }
    memcpy(name, p + 2, len);
    name[len] = '\0';
    val = getenv(name);
    if (dflt && (!val || !*val)) {
      buf_add(&b, dflt, (size_t)(end - dflt));
      p = end + 1;
      continue;
    }
    if (!val) {
      snprintf(err, errlen, "environment variable '%s' is not set", name);
      goto fail;
    }
    buf_puts(&b, val);
    p = end + 1;
  }
  return buf_detach(&b);
fail:
  if (at)
    *at = (size_t)(p - s);
  buf_release(&b);
  return NULL;
}

/* The variables of the loader: remembered as values use
 * them, and kept out of messages. */
void pf_note_vars(struct loader *L, const char *raw)
{
  const char *p = raw;

  while ((p = strstr(p, "${")) != NULL) {
    const char *q = p + 2, *val;
    char *name;
    size_t i;

    if (p > raw && p[-1] == '$') {
      p += 2;
      continue;
    }
    while (*q == '_' || (*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') ||
           (q > p + 2 && *q >= '0' && *q <= '9'))
      q++;
    if (q == p + 2) {
      p += 2;
      continue;
    }
    name = xstrndup(p + 2, (size_t)(q - p - 2));
    p = q;
    val = getenv(name);
    for (i = 0; i < L->n_vars; i++)
      if (!strcmp(L->vars[i].name, name))
        break;
    if (!val || strlen(val) < 2 || i < L->n_vars) {
      free(name);
      continue;
    }
    L->vars = xrealloc(L->vars, (L->n_vars + 1) * sizeof(*L->vars));
    L->vars[L->n_vars].name = name;
    L->vars[L->n_vars].value = xstrdup(val);
    L->n_vars++;
  }
}

static int by_length(const void *a, const void *b)
{
  size_t x = strlen((*(const struct pf_var *const *)a)->value);
  size_t y = strlen((*(const struct pf_var *const *)b)->value);

  return x < y ? 1 : x > y ? -1 : 0;
}

char *pf_scrub(const struct loader *L, const char *msg)
{
  const struct pf_var **v;
  char *out = xstrdup(msg);
  size_t i;

  if (!L->n_vars)
    return out;
  /* Longest values first, so that one inside another goes as a whole. */
  v = xmalloc(L->n_vars * sizeof(*v));
  for (i = 0; i < L->n_vars; i++)
    v[i] = &L->vars[i];
  qsort(v, L->n_vars, sizeof(*v), by_length);
  for (i = 0; i < L->n_vars; i++) {
    const char *val = v[i]->value, *hit, *p;
    size_t vl = strlen(val);
    struct buf b;

    if (!strstr(out, val))
      continue;
    buf_init(&b, 0);
    for (p = out; (hit = strstr(p, val)) != NULL; p = hit + vl) {
      buf_add(&b, p, (size_t)(hit - p));
      buf_printf(&b, "${%s}", v[i]->name);
    }
    buf_puts(&b, p);
    free(out);
    out = buf_detach(&b);
  }
  free(v);
  return out;
}
