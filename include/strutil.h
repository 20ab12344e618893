/*
 * strutil.h: small case-insensitive string helpers shared by the header
 * parsers (cache.c, edge.c).  Pure.
 */
#ifndef HOPSPLIT_STRUTIL_H
#define HOPSPLIT_STRUTIL_H

/* First place needle occurs in hay, ignoring case; NULL when hay is NULL or
 * it does not occur. */
const char *str_ci_find(const char *hay, const char *needle);
/* Whether s starts with prefix, ignoring case; 0 when s is NULL. */
int str_ci_prefix(const char *s, const char *prefix);

#endif
