/*
 * profile_expand.c: ${VAR} and ${VAR:-default} in profile values (see
 * profile.h).  Pure but for getenv.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "buf.h"
#include "check.h"
#include "msg.h"
#include "plan.h"
#include "profile.h"
#include "units.h"
#include "url.h"
#include "strutil.h"
#include "xalloc.h"
#include "profile_int.h"
#include "banned.h"

char *profile_expand(const char *s, char *err, size_t errlen, size_t *at)
{
  struct buf b;
  const char *p = s;

  buf_init(&b, 0);
  while (*p) {
    const char *end, *q, *val, *dflt;
    char name[128];
    size_t len;

    if (p[0] == '$' && p[1] == '$' && p[2] == '{') {
      buf_puts(&b, "${");
      p += 3;
      continue;
    }
    if (p[0] != '$' || p[1] != '{') {
      buf_putc(&b, *p++);
      continue;
    }
    end = strchr(p + 2, '}');
    if (!end) {
      snprintf(err, errlen, "'${' without a closing '}'");
      goto fail;
    }
    /* ${NAME:-default}: the default (no '}' in it) when NAME is unset or
     * empty, as in sh. */
    for (q = p + 2; q < end; q++)
      if (!(*q == '_' || (*q >= 'A' && *q <= 'Z') ||
            (*q >= 'a' && *q <= 'z') || (q > p + 2 && *q >= '0' && *q <= '9')))
        break;
    len = (size_t)(q - p - 2);
    dflt = q + 1 < end && q[0] == ':' && q[1] == '-' ? q + 2 : NULL;
    if (!len && (dflt || q == end)) {
      snprintf(err, errlen, "empty variable name in '%.*s'",
               (int)(end - p + 1 > 64 ? 64 : end - p + 1), p);
      goto fail;
    }
    if ((q < end && !dflt) || len >= sizeof(name)) {
      snprintf(err, errlen,
               "bad variable name '%.*s' (letters, digits and '_', not "
               "starting with a digit)",
               (int)(end - p - 2 > 64 ? 64 : end - p - 2), p + 2);
      goto fail;
    }
    memcpy(name, p + 2, len);
    name[len] = '\0';
    val = getenv(name);
    if (dflt && (!val || !*val)) {
      buf_add(&b, dflt, (size_t)(end - dflt));
      p = end + 1;
      continue;
    }
    if (!val) {
      snprintf(err, errlen, "environment variable '%s' is not set", name);
      goto fail;
    }
    buf_puts(&b, val);
    p = end + 1;
  }
  return buf_detach(&b);
fail:
  if (at)
    *at = (size_t)(p - s);
  buf_release(&b);
  return NULL;
}
