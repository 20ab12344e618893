/*
 * ctlesc.c: control characters written as \xNN (see strutil.h), through a
 * callback so that msg.c can write to stderr without the buffer it would
 * otherwise share with strutil.c.  No allocation, no dependency.
 */
#include <stddef.h>

#include "strutil.h"
#include "banned.h"

/* Length of the UTF-8 sequence at s[0..n) when it is valid (RFC 3629: no
 * overlong forms, no surrogates, at most U+10FFFF), else 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
  size_t len, i;

  if (s[0] >= 0xc2 && s[0] <= 0xdf)
    len = 2;
  else if (s[0] >= 0xe0 && s[0] <= 0xef)
    len = 3;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4)
    len = 4;
  else
    return 0;
  if (n < len)
    return 0;
  for (i = 1; i < len; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
      (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
    return 0;
  return len;
}

/*
 * Whether the UTF-8 character s[0..len) changes the order or the lines of
 * the text around it on a terminal (Unicode's Bidi_Control characters,
 * the line and paragraph separators, CVE-2021-42574 "Trojan Source"):
 * U+061C, U+200E, U+200F, U+2028..U+202E and U+2066..U+2069.  A server
 * could make "HIT" read as "TIH", or a host name read as another.
 */
static int bidi_hides(const unsigned char *s, size_t len)
{
  unsigned cp;

  if (len == 2)
    return s[0] == 0xd8 && s[1] == 0x9c; /* U+061C */
  if (len != 3 || s[0] != 0xe2)
    return 0;
  cp = 0x2000u | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu);
  return cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of an SGR sequence (ESC '[' digits and ';' 'm') at s, or 0. */
static size_t sgr_len(const char *s, size_t n)
{
  size_t i = 2;

  if (n < 3 || s[0] != '\033' || s[1] != '[')
    return 0;
  while (i < n && i < 16 && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
    i++;
  return i < n && s[i] == 'm' ? i + 1 : 0;
}

void str_escape_ctl_to(const char *s, size_t n, unsigned flags,
                       void (*put)(void *ctx, const char *p, size_t n),
                       void *ctx)
{
  static const char hex[] = "0123456789abcdef";
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;

  while (i < n) {
    size_t run = i, len;

    /* Printable ASCII in one piece. */
    while (run < n && u[run] >= 0x20 && u[run] < 0x7f)
      run++;
    if (run > i) {
      put(ctx, s + i, run - i);
      i = run;
      continue;
    }
    if (u[i] == '\n' && (flags & STR_KEEP_NL)) {
      put(ctx, "\n", 1);
      i++;
      continue;
    }
    if ((flags & STR_KEEP_SGR) && (len = sgr_len(s + i, n - i)) > 0) {
      put(ctx, s + i, len);
      i += len;
      continue;
    }
    len = u[i] >= 0x80 ? utf8_len(u + i, n - i) : 0;
    /* Valid UTF-8, but not the C1 controls U+0080..U+009F (a terminal
     * may take U+009B as CSI) nor the characters that reorder or hide
     * what follows (bidi_hides). */
    if (len && !(u[i] == 0xc2 && u[i + 1] < 0xa0) && !bidi_hides(u + i, len)) {
      put(ctx, s + i, len);
      i += len;
      continue;
    }
    if (!len)
      len = 1;
    for (; len; len--, i++) {
      char e[4] = {'\\', 'x', hex[u[i] >> 4], hex[u[i] & 15]};

      put(ctx, e, 4);
    }
  }
}
