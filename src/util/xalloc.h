/*
 * xalloc.h: allocation that never returns NULL.  Running out of memory is
 * fatal (git wrapper.c), so callers never check.
 */
#ifndef HOPSPLIT_XALLOC_H
#define HOPSPLIT_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array of nmemb elements of size bytes to hold at least need. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Caller frees the result. */
char *xasprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A string vector: strv_push appends a copy of s to (*v, *n), growing it;
 * strv_free frees the n strings and the vector. */
void strv_push(char ***v, size_t *n, const char *s);
void strv_free(char **v, size_t n);

#define FREE_AND_NULL(p)                                                      \
  do {                                                                        \
    free(p);                                                                  \
    (p) = NULL;                                                               \
  } while (0)

#endif
