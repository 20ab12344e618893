/*
 * http_date.c: HTTP-date (RFC 9110 5.6.7), for Expires against Date.
 * Pure.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cache.h"
#include "cdn_int.h"
#include "edge.h"
#include "units.h"
#include "xalloc.h"
#include "strutil.h"
#include "banned.h"

/* Days since 1970-01-01 of a civil date (H. Hinnant's algorithm). */
static int month_index(const char *s)
{
  static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  int i;

  for (i = 0; i < 12; i++)
    if (!strncasecmp(s, months + 3 * i, 3))
      return i + 1;
  return 0;
}

static int read_int(const char **pp, int maxdigits, int *out)
{
  const char *p = *pp;
  int v = 0, n = 0;

  while (isdigit((unsigned char)*p) && n < maxdigits) {
    v = v * 10 + (*p++ - '0');
    n++;
  }
  if (!n)
    return -1;
  *pp = p;
  *out = v;
  return 0;
}

static int read_clock(const char **pp, int *h, int *mi, int *s)
{
  const char *p = *pp;

  if (read_int(&p, 2, h) || *p++ != ':' || read_int(&p, 2, mi) ||
      *p++ != ':' || read_int(&p, 2, s))
    return -1;
  *pp = p;
  return 0;
}

/* At least k bytes left before the NUL. */
static int has(const char *p, size_t k)
{
  return strnlen(p, k) == k;
}

/* Seconds since the epoch, or -1 when s is not an HTTP-date in any of the
 * three formats of RFC 9110 5.6.7. */
int64_t cdn_http_date(const char *s)
{
  const char *p = cdn_skip_ows(s), *comma = strchr(p, ',');
  int d, mo, y, h, mi, sec;

  if (comma) {
    p = cdn_skip_ows(comma + 1);
    if (read_int(&p, 2, &d))
      return -1;
    if (*p == '-') {
      /* RFC 850: 06-Nov-94 08:49:37 GMT */
      mo = has(p, 5) && p[4] == '-' ? month_index(p + 1) : 0;
      if (!mo)
        return -1;
      p += 5;
      if (read_int(&p, 4, &y))
        return -1;
      if (y < 100)
        y += y < 70 ? 2000 : 1900;
    }
    else {
      /* IMF-fixdate: 06 Nov 1994 08:49:37 GMT */
      p = cdn_skip_ows(p);
      mo = has(p, 3) ? month_index(p) : 0;
      if (!mo)
        return -1;
      p = cdn_skip_ows(p + 3);
      if (read_int(&p, 4, &y))
        return -1;
    }
    p = cdn_skip_ows(p);
    if (read_clock(&p, &h, &mi, &sec))
      return -1;
  }
  else {
    /* asctime: Sun Nov  6 08:49:37 1994 */
    if (!has(p, 3))
      return -1;
    p = cdn_skip_ows(p + 3);
    mo = has(p, 3) ? month_index(p) : 0;
    if (!mo)
      return -1;
    p = cdn_skip_ows(p + 3);
    if (read_int(&p, 2, &d))
      return -1;
    p = cdn_skip_ows(p);
    if (read_clock(&p, &h, &mi, &sec))
      return -1;
    p = cdn_skip_ows(p);
    if (read_int(&p, 4, &y))
      return -1;
  }
  if (d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
    return -1;
  return units_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
}
