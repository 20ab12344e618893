/*
 * cache_status.c: RFC 9211 Cache-Status, a Structured Fields List (RFC
 * 8941) of caches with their parameters, origin first.  Pure.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cache.h"
#include "cdn_int.h"
#include "edge.h"
#include "units.h"
#include "xalloc.h"
#include "strutil.h"
#include "banned.h"

enum sf_type { SF_INT, SF_DEC, SF_STR, SF_TOK, SF_BYTES, SF_BOOL };

struct sf_item {
  enum sf_type type;
  long i;  /* SF_INT, SF_BOOL */
  char *s; /* SF_STR, SF_TOK, SF_BYTES, SF_DEC text; owned */
};

static int sf_lcalpha(int c)
{
  return c >= 'a' && c <= 'z';
}

static int sf_tchar(int c)
{
  return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int sf_bare_item(const char **pp, struct sf_item *it)
{
  const char *p = *pp;
  struct buf b;

  it->s = NULL;
  it->i = 0;
  if (*p == '-' || isdigit((unsigned char)*p)) {
    const char *s = p;
    int digits = 0, dot = 0;

    if (*p == '-')
      p++;
    if (!isdigit((unsigned char)*p))
      return -1;
    for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
      if (*p == '.') {
        if (dot || digits > 12)
          return -1;
        dot = 1;
        continue;
      }
      if (++digits > 15)
        return -1;
    }
    if (dot && p[-1] == '.')
      return -1;
    if (dot) {
      it->type = SF_DEC;
      it->s = xstrndup(s, (size_t)(p - s));
    }
    else {
      it->type = SF_INT;
      it->i = strtol(s, NULL, 10);
    }
    *pp = p;
    return 0;
  }
  if (*p == '"') {
    buf_init(&b, 0);
    for (p++; *p != '"'; p++) {
      if (*p == '\\') {
        p++;
        if (*p != '"' && *p != '\\')
          goto bad;
      }
      else if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
        goto bad; /* also the end of the string */
      buf_putc(&b, *p);
    }
    it->type = SF_STR;
    it->s = buf_detach(&b);
    *pp = p + 1;
    return 0;
  bad:
    buf_release(&b);
    return -1;
  }
  if (isalpha((unsigned char)*p) || *p == '*') {
    const char *s = p;

    for (p++; sf_tchar((unsigned char)*p) || *p == ':' || *p == '/'; p++)
      ;
    it->type = SF_TOK;
    it->s = xstrndup(s, (size_t)(p - s));
    *pp = p;
    return 0;
  }
  if (*p == ':') {
    const char *s = ++p;

    while (isalnum((unsigned char)*p) || *p == '+' || *p == '/' || *p == '=')
      p++;
    if (*p != ':')
      return -1;
    it->type = SF_BYTES;
    it->s = xstrndup(s, (size_t)(p - s));
    *pp = p + 1;
    return 0;
  }
  if (*p == '?' && (p[1] == '0' || p[1] == '1')) {
    it->type = SF_BOOL;
    it->i = p[1] == '1';
    *pp = p + 2;
    return 0;
  }
  return -1;
}

static void member_set(struct cache_status_member *m, const char *key,
                       struct sf_item *v)
{
  char **slot = NULL;

  if (!strcmp(key, "hit"))
    m->hit = v->type == SF_BOOL && v->i;
  else if (!strcmp(key, "fwd") && v->type == SF_TOK)
    slot = &m->fwd;
  else if (!strcmp(key, "fwd-status") && v->type == SF_INT)
    m->fwd_status = v->i;
  else if (!strcmp(key, "ttl") && v->type == SF_INT) {
    m->has_ttl = 1;
    m->ttl = v->i;
  }
  else if (!strcmp(key, "stored") && v->type == SF_BOOL)
    m->stored = (int)v->i;
  else if (!strcmp(key, "collapsed") && v->type == SF_BOOL)
    m->collapsed = (int)v->i;
  else if (!strcmp(key, "key") && v->type == SF_STR)
    slot = &m->key;
  else if (!strcmp(key, "detail") && (v->type == SF_STR || v->type == SF_TOK))
    slot = &m->detail;
  if (slot) {
    /* A repeated parameter overrides the earlier one (RFC 8941 4.2.3.2). */
    free(*slot);
    *slot = v->s;
    v->s = NULL;
  }
}

static void member_release(struct cache_status_member *m)
{
  free(m->id);
  free(m->fwd);
  free(m->key);
  free(m->detail);
}

int cache_status_parse(const char *value, struct cache_status *out)
{
  const char *p = value;
  size_t alloc = 0;
  int rc = -1;

  out->m = NULL;
  out->n = 0;
  if (!value)
    return -1;
  while (*p == ' ')
    p++;
  while (*p) {
    struct cache_status_member *m;
    struct sf_item it;

    out->m = xgrow(out->m, &alloc, out->n + 1, sizeof(*out->m));
    m = &out->m[out->n];
    memset(m, 0, sizeof(*m));
    m->fwd_status = -1;
    m->stored = m->collapsed = -1;
    if (*p == '(' || sf_bare_item(&p, &it))
      goto out; /* inner lists are not Cache-Status members */
    out->n++;
    m->id = it.type == SF_INT ? xasprintf("%ld", it.i)
            : it.s            ? it.s
                              : xstrdup("");
    while (*p == ';') {
      const char *k;
      char key[64];
      size_t klen;

      p++;
      while (*p == ' ')
        p++;
      k = p;
      if (!sf_lcalpha((unsigned char)*p) && *p != '*')
        goto out;
      while (sf_lcalpha((unsigned char)*p) || isdigit((unsigned char)*p) ||
             *p == '_' || *p == '-' || *p == '.' || *p == '*')
        p++;
      klen = (size_t)(p - k);
      if (klen >= sizeof(key))
        goto out;
      memcpy(key, k, klen);
      key[klen] = '\0';
      if (*p == '=') {
        p++;
        if (sf_bare_item(&p, &it))
          goto out;
      }
      else {
        it.type = SF_BOOL;
        it.i = 1;
        it.s = NULL;
      }
      member_set(m, key, &it);
      free(it.s);
    }
    p = cdn_skip_ows(p);
    if (!*p)
      break;
    if (*p != ',')
      goto out;
    p = cdn_skip_ows(p + 1);
    if (!*p)
      goto out; /* a trailing comma */
  }
  rc = 0;
out:
  if (rc)
    cache_status_release(out);
  return rc;
}

void cache_status_release(struct cache_status *cs)
{
  size_t i;

  for (i = 0; i < cs->n; i++)
    member_release(&cs->m[i]);
  free(cs->m);
  cs->m = NULL;
  cs->n = 0;
}
