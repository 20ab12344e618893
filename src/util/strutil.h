/*
 * strutil.h: small case-insensitive string helpers shared by the header
 * parsers (cache.c, edge.c) and the near-miss suggestions of usage
 * errors.  Pure.
 */
#ifndef HOPSPLIT_STRUTIL_H
#define HOPSPLIT_STRUTIL_H

#include <stddef.h>

#include "buf.h"

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

/*
 * Append s[0..n) to b with what a terminal would act on written as \xNN:
 * the C0 controls (tab too; '\n' kept with STR_KEEP_NL),
 * DEL, the C1 controls U+0080..U+009F and bytes that are not UTF-8.
 * Valid UTF-8 text is kept.  With STR_KEEP_SGR a colour sequence (ESC '['
 * digits and ';' 'm', SGR) is kept: the text report's own colours.
 */
#define STR_KEEP_NL  1u
#define STR_KEEP_SGR 2u
void str_escape_ctl(struct buf *b, const char *s, size_t n, unsigned flags);
/* The same, handing each piece of the output to put(ctx, piece, length). */
void str_escape_ctl_to(const char *s, size_t n, unsigned flags,
                       void (*put)(void *ctx, const char *p, size_t n),
                       void *ctx);
/* s escaped as str_escape_ctl does without flags, malloc'd ("" for NULL). */
char *str_escape_ctl_dup(const char *s);

#endif
