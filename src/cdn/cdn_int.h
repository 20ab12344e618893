/*
 * cdn_int.h: helpers the files of src/cdn share (private to the stage).
 */
#ifndef HOPSPLIT_CDN_INT_H
#define HOPSPLIT_CDN_INT_H

#include <stddef.h>
#include <stdint.h>

/* Optional white space (RFC 9110 5.6.3): space or tab. */
int cdn_is_ows(int c);
const char *cdn_skip_ows(const char *p);
/* Non-negative decimal delta-seconds (RFC 9111 1.2.2; too large is 2^31);
 * -1 when s is not one. */
long cdn_parse_seconds(const char *s);
/* An HTTP-date (RFC 9110 5.6.7: IMF-fixdate, RFC 850 or asctime) as
 * seconds since the epoch; -1 when s is not one. */
int64_t cdn_http_date(const char *s);
/* The next comma-separated item of the list at p, honouring quoted
 * strings: its start and length (white space trimmed).  Returns the
 * position after the item's comma, or the end. */
const char *cdn_next_item(const char *p, const char **start, size_t *len);

/* Copy the leading run of ASCII letters of s, upper-cased, into out (at
 * most max letters; out has room for max + 1).  Returns the count
 * (edge_place.c). */
size_t edge_upper_letters(const char *s, char *out, size_t max);
/* Copy len bytes of src upper-cased into dst[size], truncated to fit,
 * NUL-terminated (edge_place.c). */
void edge_set_code(char *dst, size_t size, const char *src, size_t len);

#endif
