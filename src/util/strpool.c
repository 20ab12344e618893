/*
 * strpool.c: the current arena of each thread (see strpool.h).
 */
#include <stddef.h>

#include "strpool.h"
#include "banned.h"

static _Thread_local struct arena *current;  /* set by strpool_use */
static _Thread_local struct arena *fallback; /* the thread's default */

struct arena *strpool_use(struct arena *a)
{
  struct arena *was = current;

  current = a;
  return was;
}

struct arena *strpool_current(void)
{
  if (current)
    return current;
  if (!fallback)
    fallback = arena_alloc();
  return fallback;
}

const char *strpool_intern(const char *s)
{
  return s ? arena_intern(strpool_current(), s) : NULL;
}

const char *strpool_intern_n(const char *s, size_t n)
{
  return s ? arena_intern_n(strpool_current(), s, n) : NULL;
}

const void *strpool_intern_blob(const void *p, size_t n)
{
  return p && n ? arena_intern_blob(strpool_current(), p, n) : NULL;
}

void *strpool_alloc(size_t n)
{
  return arena_mem(strpool_current(), n);
}

size_t strpool_count(void)
{
  const struct arena *a = current ? current : fallback;

  return a ? arena_count(a) : 0;
}

size_t strpool_bytes(void)
{
  const struct arena *a = current ? current : fallback;

  return a ? arena_bytes(a) : 0;
}

void strpool_release_all(void)
{
  if (current)
    arena_clear(current);
  else {
    arena_free(fallback);
    fallback = NULL;
  }
}
