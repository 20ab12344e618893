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

/* Levenshtein distance, capped inputs (option names are short). */
size_t str_edit_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b), i, j;
  size_t row[64], prev, tmp;

  if (la > 63 || lb > 63)
    return (size_t)-1;
  for (j = 0; j <= lb; j++)
    row[j] = j;
  for (i = 1; i <= la; i++) {
    prev = row[0];
    row[0] = i;
    for (j = 1; j <= lb; j++) {
      size_t best = prev + (a[i - 1] == b[j - 1] ? 0 : 1);

      if (row[j] + 1 < best)
        best = row[j] + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      tmp = row[j];
      row[j] = best;
      prev = tmp;
    }
  }
  return row[lb];
}

const char *str_closest(const char *name, const char *const *names, size_t n)
{
  size_t i, best = (size_t)-1;
  const char *hit = NULL;

  for (i = 0; i < n; i++) {
    size_t d = str_edit_distance(name, names[i]);

    if (d < best) {
      best = d;
      hit = names[i];
    }
  }
  return best <= 2 ? hit : NULL;
}

static void put_buf(void *ctx, const char *p, size_t n)
{
  buf_add(ctx, p, n);
}

void str_escape_ctl(struct buf *b, const char *s, size_t n, unsigned flags)
{
  str_escape_ctl_to(s, n, flags, put_buf, b);
}

char *str_escape_ctl_dup(const char *s)
{
  struct buf b;

  buf_init(&b, 0);
  str_escape_ctl(&b, s ? s : "", s ? strlen(s) : 0, 0);
  return buf_detach(&b);
}
