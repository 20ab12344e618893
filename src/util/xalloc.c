/*
 * xalloc.c: allocation wrappers; out of memory is fatal (exit 4).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "xalloc.h"
#include "banned.h"

static void *oom(size_t n)
{
  msg_die(4, "out of memory allocating %zu bytes", n);
}

void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);

  if (!p)
    oom(n);
  return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
  void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

  if (!p)
    oom(nmemb * size);
  return p;
}

void *xrealloc(void *p, size_t n)
{
  void *q = realloc(p, n ? n : 1);

  if (!q)
    oom(n);
  return q;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
  size_t n = *cap;

  if (need <= n)
    return p;
  if (n < 4)
    n = 4;
  while (n < need) {
    if (n > ((size_t)-1) / 2 / size)
      oom(need * size);
    n *= 2;
  }
  p = xrealloc(p, n * size);
  *cap = n;
  return p;
}

char *xstrdup(const char *s)
{
  return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
  char *p = xmalloc(n + 1);

  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *xasprintf(const char *fmt, ...)
{
  va_list ap;
  int n;
  char *p;

  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    BUG("vsnprintf failed for \"%s\"", fmt);
  p = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void strv_push(char ***v, size_t *n, const char *s)
{
  *v = xrealloc(*v, (*n + 1) * sizeof(**v));
  (*v)[(*n)++] = xstrdup(s);
}

void strv_free(char **v, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    free(v[i]);
  free(v);
}
