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

/* The length of the run of printable ASCII at s (of len bytes) that
 * needs no escape: 8 bytes at a time while they are all such (a byte of
 * the word below 0x20, at or above 0x7f, '"' or '\\' ends the word's
 * run), then byte by byte. */
static size_t plain_run(const unsigned char *s, size_t len)
{
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  size_t n = 0;

  for (; n + 8 <= len; n += 8) {
    uint64_t x, stop;

    memcpy(&x, s + n, 8);
    /* A byte is flagged (its high bit) when it has its own high bit
     * (>= 0x80), is below 0x20, equals 0x7f, '"' or '\\' (a zero byte
     * after the xor; the usual "has a zero byte" test, exact for the
     * flagged word as a whole). */
    stop = x | (x - ones * 0x20) | ((x ^ (ones * 0x7f)) - ones) |
           ((x ^ (ones * '"')) - ones) | ((x ^ (ones * '\\')) - ones);
    if (stop & highs)
      break;
  }
  while (n < len && s[n] >= 0x20 && s[n] < 0x7f && s[n] != '"' && s[n] != '\\')
    n++;
  return n;
}

void json_quote(struct buf *b, const char *str)
{
  const unsigned char *s = (const unsigned char *)str;
  const unsigned char *end = s + strlen(str);

  buf_putc(b, '"');
  while (*s) {
    size_t n;

    /* A run of printable ASCII that needs no escape goes in one piece. */
    n = plain_run(s, (size_t)(end - s));
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

/* v as "%.*f" writes it with decimals (0 to 9) digits after the point,
 * without printf's cost, when the rounding is certain: v not negative
 * (printf writes -0.000000 for a tiny negative), v times 10^decimals below
 * 2^32 (so the product's error is below 10^-6) and its fraction not
 * within 10^-5 of one half (printf rounds the exact binary value, which
 * could then fall either side).  Returns -1 when printf must do it. */
static int put_fixed(struct buf *b, double v, int decimals)
{
  static const double scale[] = {1e0, 1e1, 1e2, 1e3, 1e4,
                                 1e5, 1e6, 1e7, 1e8, 1e9};
  char t[32], *p = t + sizeof(t);
  double x, whole, frac;
  uint64_t r, unit;
  int i;

  if (decimals < 0 || decimals > 9 || signbit(v) || !(v >= 0))
    return -1;
  x = v * scale[decimals];
  if (!(x < 4294967296.0))
    return -1;
  whole = floor(x);
  frac = x - whole;
  if (fabs(frac - 0.5) < 1e-5)
    return -1;
  r = (uint64_t)whole + (frac > 0.5);
  unit = (uint64_t)scale[decimals];
  if (decimals) {
    uint64_t f = r % unit;

    for (i = 0; i < decimals; i++) {
      *--p = (char)('0' + f % 10);
      f /= 10;
    }
    *--p = '.';
  }
  r /= unit;
  do {
    *--p = (char)('0' + r % 10);
    r /= 10;
  } while (r);
  return buf_add(b, p, (size_t)(t + sizeof(t) - p));
}

void json_double(struct json *j, const char *k, double v, int decimals)
{
  key(j, k);
  if (isnan(v) || isinf(v))
    buf_puts(j->b, "null");
  else if (put_fixed(j->b, v, decimals) < 0)
    buf_printf(j->b, "%.*f", decimals, v);
}

void json_us_seconds(struct json *j, const char *k, int64_t us)
{
  /* Below 2^40 us (12 days) the double us / 1e6 is within 10^-10 of the
   * exact quotient, so printf's %.6f of it writes these digits. */
  if ((us < 0 ? 0 - (uint64_t)us : (uint64_t)us) >= (uint64_t)1 << 40) {
    json_double(j, k, (double)us / 1e6, 6);
    return;
  }
  key(j, k);
  buf_put_us_seconds(j->b, us);
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
