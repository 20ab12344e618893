/*
 * strutil.h: small case-insensitive string helpers shared by the header
 * parsers (cache.c, edge.c) and the near-miss suggestions of usage
 * errors.  Pure.
 */
#ifndef HOPSPLIT_STRUTIL_H
#define HOPSPLIT_STRUTIL_H

#include <stddef.h>

/* First place needle occurs in hay, ignoring case; NULL when hay is NULL or
 * it does not occur. */
const char *str_ci_find(const char *hay, const char *needle);
/* Whether s starts with prefix, ignoring case; 0 when s is NULL. */
int str_ci_prefix(const char *s, const char *prefix);

/* Levenshtein distance of a and b; (size_t)-1 when either is longer than
 * 63 bytes (names are short). */
size_t str_edit_distance(const char *a, const char *b);
/* The entry of names[0..n) closest to name, when at most 2 edits away
 * ("did you mean"); NULL otherwise. */
const char *str_closest(const char *name, const char *const *names, size_t n);

#endif
