/*
 * cache_control.c: Cache-Control, and the CDN-targeted fields with its
 * syntax (RFC 9213), as a shared cache reads them (RFC 9111 5.2).  Pure.
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

static long directive_seconds(const char *v, size_t vlen)
{
  char tmp[32];
  long s;

  if (vlen && *v == '"') {
    v++;
    vlen = vlen >= 2 ? vlen - 2 : 0;
  }
  if (vlen >= sizeof(tmp))
    vlen = sizeof(tmp) - 1;
  memcpy(tmp, v, vlen);
  tmp[vlen] = '\0';
  s = cdn_parse_seconds(tmp);
  /* An invalid delta is treated as zero: stale at once. */
  return s < 0 ? 0 : s;
}

void cache_control_parse(const char *value, struct cache_control *cc)
{
  const char *p = value, *item;
  size_t len;

  memset(cc, 0, sizeof(*cc));
  cc->max_age = cc->s_maxage = cc->swr = cc->sie = -1;
  if (!value)
    return;
  while (*p) {
    const char *eq, *v = NULL;
    size_t nlen, vlen = 0;

    p = cdn_next_item(p, &item, &len);
    if (!len)
      continue;
    eq = memchr(item, '=', len);
    nlen = eq ? (size_t)(eq - item) : len;
    while (nlen && cdn_is_ows((unsigned char)item[nlen - 1]))
      nlen--;
    if (eq) {
      /* The item ends at len (trailing whitespace trimmed): do not skip
       * past it, or "max-age=  " would give a negative length. */
      v = eq + 1;
      while (v < item + len && cdn_is_ows((unsigned char)*v))
        v++;
      vlen = (size_t)(item + len - v);
    }
#define IS(name) (nlen == strlen(name) && !strncasecmp(item, name, nlen))
    if (IS("no-store"))
      cc->no_store = 1;
    else if (IS("no-cache"))
      cc->no_cache = cc->no_cache || !eq; /* no-cache="f" is per field */
    else if (IS("private"))
      cc->private_ = cc->private_ || !eq;
    else if (IS("public"))
      cc->public_ = 1;
    else if (IS("must-revalidate"))
      cc->must_revalidate = 1;
    else if (IS("proxy-revalidate"))
      cc->proxy_revalidate = 1;
    else if (IS("immutable"))
      cc->immutable = 1;
    else if (IS("max-age"))
      cc->max_age = directive_seconds(v ? v : "", vlen);
    else if (IS("s-maxage"))
      cc->s_maxage = directive_seconds(v ? v : "", vlen);
    else if (IS("stale-while-revalidate"))
      cc->swr = directive_seconds(v ? v : "", vlen);
    else if (IS("stale-if-error"))
      cc->sie = directive_seconds(v ? v : "", vlen);
    else
      continue;
#undef IS
    cc->present = 1;
  }
}
