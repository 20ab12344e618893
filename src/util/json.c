/*
 * json.c: streaming JSON writer (see json.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "msg.h"
#include "banned.h"

void json_init(struct json *j, struct buf *b, int pretty)
{
  memset(j, 0, sizeof(*j));
  j->b = b;
  j->pretty = pretty;
}

static void indent(struct json *j)
{
  int i;

  if (!j->pretty)
    return;
  buf_putc(j->b, '\n');
  for (i = 0; i < j->depth; i++)
    buf_puts(j->b, "  ");
}

/* Length of a valid UTF-8 sequence at s (1-4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
  size_t n, i;
  unsigned cp;

  if (s[0] < 0x80)
    return 1;
  if ((s[0] & 0xe0) == 0xc0) {
    n = 2;
    cp = s[0] & 0x1fu;
  }
  else if ((s[0] & 0xf0) == 0xe0) {
    n = 3;
    cp = s[0] & 0x0fu;
  }
  else if ((s[0] & 0xf8) == 0xf0) {
    n = 4;
    cp = s[0] & 0x07u;
  }
  else {
    return 0;
  }
  for (i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = (cp << 6) | (s[i] & 0x3fu);
  }
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
      (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

void json_quote(struct buf *b, const char *str)
{
  const unsigned char *s = (const unsigned char *)str;

  buf_putc(b, '"');
  while (*s) {
    size_t n;

    /* A run of printable ASCII that needs no escape goes in one piece. */
    for (n = 0; s[n] >= 0x20 && s[n] < 0x7f && s[n] != '"' && s[n] != '\\';
         n++)
      ;
    if (n) {
      buf_add(b, (const char *)s, n);
      s += n;
      continue;
    }
    switch (*s) {
    case '"':
      buf_puts(b, "\\\"");
      s++;
      continue;
    case '\\':
      buf_puts(b, "\\\\");
      s++;
      continue;
    case '\n':
      buf_puts(b, "\\n");
      s++;
      continue;
    case '\r':
      buf_puts(b, "\\r");
      s++;
      continue;
    case '\t':
      buf_puts(b, "\\t");
      s++;
      continue;
    default:
      break;
    }
    if (*s < 0x20 || *s == 0x7f) {
      buf_printf(b, "\\u%04x", (unsigned)*s);
      s++;
      continue;
    }
    n = utf8_len(s);
    if (!n) {
      buf_puts(b, "\\ufffd");
      s++;
      continue;
    }
    buf_add(b, (const char *)s, n);
    s += n;
  }
  buf_putc(b, '"');
}

static void key(struct json *j, const char *k)
{
  if (j->count[j->depth]++)
    buf_putc(j->b, ',');
  if (j->depth)
    indent(j);
  if (k) {
    json_quote(j->b, k);
    buf_puts(j->b, j->pretty ? ": " : ":");
  }
}

static void begin_container(struct json *j, const char *k, char c)
{
  key(j, k);
  buf_putc(j->b, c);
  if (j->depth + 1 >= JSON_MAX_DEPTH)
    BUG("JSON nested too deep");
  j->depth++;
  j->count[j->depth] = 0;
}

static void end_container(struct json *j, char c)
{
  int had = j->count[j->depth];

  j->depth--;
  if (had)
    indent(j);
  buf_putc(j->b, c);
  if (!j->depth && j->pretty)
    buf_putc(j->b, '\n');
}

void json_object_begin(struct json *j, const char *k)
{
  begin_container(j, k, '{');
}

void json_object_end(struct json *j)
{
  end_container(j, '}');
}

void json_array_begin(struct json *j, const char *k)
{
  begin_container(j, k, '[');
}

void json_array_end(struct json *j)
{
  end_container(j, ']');
}

void json_string(struct json *j, const char *k, const char *val)
{
  key(j, k);
  if (val)
    json_quote(j->b, val);
  else
    buf_puts(j->b, "null");
}

void json_int(struct json *j, const char *k, int64_t v)
{
  key(j, k);
  buf_put_int(j->b, v);
}

void json_double(struct json *j, const char *k, double v, int decimals)
{
  key(j, k);
  if (isnan(v) || isinf(v))
    buf_puts(j->b, "null");
  else
    buf_printf(j->b, "%.*f", decimals, v);
}

void json_bool(struct json *j, const char *k, int v)
{
  key(j, k);
  buf_puts(j->b, v ? "true" : "false");
}

void json_null(struct json *j, const char *k)
{
  key(j, k);
  buf_puts(j->b, "null");
}
