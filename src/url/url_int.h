/*
 * url_int.h: what the url stage's files share: the RFC 3986 Appendix B
 * split of a string (for redaction, which takes any string, and for the
 * quotes of error messages) and character classes.  Private to src/url.
 */
#ifndef HOPSPLIT_URL_INT_H
#define HOPSPLIT_URL_INT_H

#include <stddef.h>

/* A slice of a string; set distinguishes "absent" from "empty". */
struct span {
  const char *p;
  size_t n;
  int set;
};

/* The five components of RFC 3986 Appendix B, as slices of one string. */
struct parts {
  struct span scheme;
  struct span auth;
  struct span path;
  struct span query;
  struct span frag;
};

/* Split s[0..n) into its components; never fails (RFC 3986 App. B). */
void url_parts_split(struct parts *p, const char *s, size_t n);
/* Length of the scheme at the start of s[0..n) (RFC 3986 3.1), 0 if none:
 * "1x:y" has none and is a relative reference. */
size_t url_scheme_len(const char *s, size_t n);

int url_is_alpha(char c);
int url_is_digit(char c);
int url_is_hex(char c);
int url_hex_val(char c);
char url_to_lower(char c);
int url_is_ctl(char c);
int url_is_ws(char c);

#endif
