/*
 * strutil.c: case-insensitive string helpers for the header parsers.
 */
#include <string.h>
#include <strings.h>

#include "strutil.h"
#include "banned.h"

const char *str_ci_find(const char *hay, const char *needle)
{
  size_t n = strlen(needle);

  if (!hay)
    return NULL;
  for (; *hay; hay++)
    if (!strncasecmp(hay, needle, n))
      return hay;
  return NULL;
}

int str_ci_prefix(const char *s, const char *prefix)
{
  return s && !strncasecmp(s, prefix, strlen(prefix));
}
