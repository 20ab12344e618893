/*
 * field_syntax.c: the bits of HTTP field syntax the cache and edge parsers
 * share (RFC 9110 5.6): optional white space, delta-seconds and list
 * items.  Pure.
 */
#include <ctype.h>
#include <stddef.h>

#include "cdn_int.h"
#include "banned.h"

int cdn_is_ows(int c)
{
  return c == ' ' || c == '\t';
}

const char *cdn_skip_ows(const char *p)
{
  while (cdn_is_ows((unsigned char)*p))
    p++;
  return p;
}

/* Non-negative decimal seconds; -1 when s is not one. */
long cdn_parse_seconds(const char *s)
{
  long v = 0;

  s = cdn_skip_ows(s);
  if (!isdigit((unsigned char)*s))
    return -1;
  for (; isdigit((unsigned char)*s); s++) {
    /* RFC 9111 1.2.2: too large means 2^31. */
    if (v > 214748364L)
      v = 2147483648L;
    else
      v = v * 10 + (*s - '0');
  }
  s = cdn_skip_ows(s);
  return *s ? -1 : v;
}

/* The next comma-separated item of a list, honouring quoted strings.
 * Returns the position after the item's comma (or at the end). */
const char *cdn_next_item(const char *p, const char **start, size_t *len)
{
  const char *e;
  int quoted = 0;

  p = cdn_skip_ows(p);
  *start = p;
  for (e = p; *e; e++) {
    if (quoted && *e == '\\' && e[1])
      e++;
    else if (*e == '"')
      quoted = !quoted;
    else if (*e == ',' && !quoted)
      break;
  }
  *len = (size_t)(e - p);
  while (*len && cdn_is_ows((unsigned char)p[*len - 1]))
    (*len)--;
  return *e ? e + 1 : e;
}
