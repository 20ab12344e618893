/*
 * url_parts.c: the RFC 3986 Appendix B split and the character classes
 * the url stage shares (see url_int.h).  Pure.
 */
#include <string.h>

#include "url_int.h"
#include "banned.h"

int url_is_alpha(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int url_is_digit(char c)
{
  return c >= '0' && c <= '9';
}

int url_is_hex(char c)
{
  return url_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int url_hex_val(char c)
{
  if (url_is_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return c - 'A' + 10;
}

char url_to_lower(char c)
{
  if (c >= 'A' && c <= 'Z')
    return (char)(c - 'A' + 'a');
  return c;
}

int url_is_ctl(char c)
{
  unsigned char u = (unsigned char)c;

  return u < 0x20 || u == 0x7f;
}

int url_is_ws(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
         c == '\v';
}

/*
 * Length of the scheme at the start of s (RFC 3986 3.1: ALPHA *( ALPHA /
 * DIGIT / "+" / "-" / "." ) followed by ':'), or 0 if s has none.  A
 * string such as "1x:y" has no scheme and is a relative reference.
 */
size_t url_scheme_len(const char *s, size_t n)
{
  size_t i;

  if (!n || !url_is_alpha(s[0]))
    return 0;
  for (i = 1; i < n; i++) {
    char c = s[i];

    if (c == ':')
      return i;
    if (!url_is_alpha(c) && !url_is_digit(c) && c != '+' && c != '-' &&
        c != '.')
      return 0;
  }
  return 0;
}

void url_parts_split(struct parts *p, const char *s, size_t n)
{
  size_t i = 0, start, sl;

  memset(p, 0, sizeof(*p));
  sl = url_scheme_len(s, n);
  if (sl) {
    p->scheme.p = s;
    p->scheme.n = sl;
    p->scheme.set = 1;
    i = sl + 1;
  }
  if (n - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
    i += 2;
    start = i;
    while (i < n && s[i] != '/' && s[i] != '?' && s[i] != '#')
      i++;
    p->auth.p = s + start;
    p->auth.n = i - start;
    p->auth.set = 1;
  }
  start = i;
  while (i < n && s[i] != '?' && s[i] != '#')
    i++;
  p->path.p = s + start;
  p->path.n = i - start;
  p->path.set = 1;
  if (i < n && s[i] == '?') {
    start = ++i;
    while (i < n && s[i] != '#')
      i++;
    p->query.p = s + start;
    p->query.n = i - start;
    p->query.set = 1;
  }
  if (i < n && s[i] == '#') {
    start = ++i;
    p->frag.p = s + start;
    p->frag.n = n - start;
    p->frag.set = 1;
  }
}
