/*
 * jtree.c: JSON text -> struct jt and back (see jtree.h).  Input: bytes
 * that should be JSON (RFC 8259).  Output: a tree, or an error naming the
 * line.  Recursion is bounded by JT_MAX_DEPTH.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jtree.h"
#include "xalloc.h"
#include "banned.h"

#define JT_MAX_DEPTH 64 /* the message below says so */

struct jp {
  const char *s;
  size_t len;
  size_t pos;
  char *err;
  size_t errlen;
  int failed;
};

static int fail(struct jp *p, const char *what)
{
  size_t i, line = 1;

  if (p->failed)
    return -1;
  for (i = 0; i < p->pos && i < p->len; i++)
    if (p->s[i] == '\n')
      line++;
  snprintf(p->err, p->errlen, "line %zu: %s", line, what);
  p->failed = 1;
  return -1;
}

static void skip_ws(struct jp *p)
{
  while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                             p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
    p->pos++;
}

static int literal(struct jp *p, const char *word)
{
  size_t n = strlen(word);

  if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
    return fail(p, "unexpected text");
  p->pos += n;
  return 0;
}

static int hex4(struct jp *p, unsigned *out)
{
  unsigned v = 0;
  int i;

  if (p->len - p->pos < 4)
    return fail(p, "short \\u escape");
  for (i = 0; i < 4; i++) {
    char c = p->s[p->pos++];

    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (unsigned)(c - 'A' + 10);
    else
      return fail(p, "bad \\u escape");
  }
  *out = v;
  return 0;
}

static void put_utf8(struct buf *b, unsigned cp)
{
  if (cp < 0x80) {
    buf_putc(b, (char)cp);
  }
  else if (cp < 0x800) {
    buf_putc(b, (char)(0xc0 | (cp >> 6)));
    buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  }
  else if (cp < 0x10000) {
    buf_putc(b, (char)(0xe0 | (cp >> 12)));
    buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  }
  else {
    buf_putc(b, (char)(0xf0 | (cp >> 18)));
    buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
    buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  }
}

/* A string at p->pos (on the opening quote); caller frees *out. */
static int string(struct jp *p, char **out)
{
  struct buf b;
  int rc = -1;

  buf_init(&b, 0);
  p->pos++;
  for (;;) {
    unsigned char c;

    if (p->pos >= p->len) {
      fail(p, "unterminated string");
      goto out;
    }
    c = (unsigned char)p->s[p->pos++];
    if (c == '"')
      break;
    if (c < 0x20) {
      fail(p, "control character in string");
      goto out;
    }
    if (c != '\\') {
      buf_putc(&b, (char)c);
      continue;
    }
    if (p->pos >= p->len) {
      fail(p, "unterminated string");
      goto out;
    }
    c = (unsigned char)p->s[p->pos++];
    switch (c) {
    case '"':
    case '\\':
    case '/':
      buf_putc(&b, (char)c);
      break;
    case 'b':
      buf_putc(&b, '\b');
      break;
    case 'f':
      buf_putc(&b, '\f');
      break;
    case 'n':
      buf_putc(&b, '\n');
      break;
    case 'r':
      buf_putc(&b, '\r');
      break;
    case 't':
      buf_putc(&b, '\t');
      break;
    case 'u': {
      unsigned cp, lo;

      if (hex4(p, &cp) < 0)
        goto out;
      if (cp >= 0xd800 && cp <= 0xdbff) {
        if (p->len - p->pos < 6 || p->s[p->pos] != '\\' ||
            p->s[p->pos + 1] != 'u') {
          fail(p, "lone surrogate");
          goto out;
        }
        p->pos += 2;
        if (hex4(p, &lo) < 0)
          goto out;
        if (lo < 0xdc00 || lo > 0xdfff) {
          fail(p, "bad surrogate pair");
          goto out;
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      }
      else if (cp >= 0xdc00 && cp <= 0xdfff) {
        fail(p, "lone surrogate");
        goto out;
      }
      if (cp == 0) {
        fail(p, "NUL in string");
        goto out;
      }
      put_utf8(&b, cp);
      break;
    }
    default:
      fail(p, "bad escape");
      goto out;
    }
  }
  *out = buf_detach(&b);
  rc = 0;
out:
  buf_release(&b);
  return rc;
}

static int number(struct jp *p, struct jt *v)
{
  size_t start = p->pos;
  int digits = 0;

  if (p->pos < p->len && p->s[p->pos] == '-')
    p->pos++;
  while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
    p->pos++;
    digits++;
  }
  if (!digits)
    return fail(p, "bad number");
  if (p->pos < p->len && p->s[p->pos] == '.') {
    p->pos++;
    digits = 0;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
      p->pos++;
      digits++;
    }
    if (!digits)
      return fail(p, "bad number");
  }
  if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
    p->pos++;
    if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
      p->pos++;
    digits = 0;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
      p->pos++;
      digits++;
    }
    if (!digits)
      return fail(p, "bad number");
  }
  v->type = JT_NUMBER;
  v->s = xstrndup(p->s + start, p->pos - start);
  return 0;
}

static int value(struct jp *p, struct jt *v, int depth);

static int container(struct jp *p, struct jt *v, int depth, int object)
{
  size_t cap = 0, kcap = 0;
  char close = object ? '}' : ']';

  v->type = object ? JT_OBJECT : JT_ARRAY;
  if (depth >= JT_MAX_DEPTH)
    return fail(p, "nested more than 64 levels deep");
  p->pos++;
  skip_ws(p);
  if (p->pos < p->len && p->s[p->pos] == close) {
    p->pos++;
    return 0;
  }
  for (;;) {
    char *key = NULL;

    skip_ws(p);
    if (object) {
      if (p->pos >= p->len || p->s[p->pos] != '"')
        return fail(p, "expected a member name");
      if (string(p, &key) < 0)
        return -1;
      skip_ws(p);
      if (p->pos >= p->len || p->s[p->pos] != ':') {
        free(key);
        return fail(p, "expected ':'");
      }
      p->pos++;
      v->k = xgrow(v->k, &kcap, v->n + 1, sizeof(*v->k));
      v->k[v->n] = key;
    }
    v->v = xgrow(v->v, &cap, v->n + 1, sizeof(*v->v));
    memset(&v->v[v->n], 0, sizeof(v->v[v->n]));
    v->n++;
    if (value(p, &v->v[v->n - 1], depth + 1) < 0)
      return -1;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->pos < p->len && p->s[p->pos] == close) {
      p->pos++;
      return 0;
    }
    return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
  }
}

static int value(struct jp *p, struct jt *v, int depth)
{
  skip_ws(p);
  if (p->pos >= p->len)
    return fail(p, "unexpected end of input");
  switch (p->s[p->pos]) {
  case '{':
    return container(p, v, depth, 1);
  case '[':
    return container(p, v, depth, 0);
  case '"':
    v->type = JT_STRING;
    return string(p, &v->s);
  case 't':
    v->type = JT_BOOL;
    v->b = 1;
    return literal(p, "true");
  case 'f':
    v->type = JT_BOOL;
    return literal(p, "false");
  case 'n':
    v->type = JT_NULL;
    return literal(p, "null");
  default:
    if (p->s[p->pos] == '-' || (p->s[p->pos] >= '0' && p->s[p->pos] <= '9'))
      return number(p, v);
    return fail(p, "unexpected text");
  }
}

int jt_parse(struct jt *root, const char *text, size_t len, char *err,
             size_t errlen)
{
  struct jp p;

  memset(root, 0, sizeof(*root));
  memset(&p, 0, sizeof(p));
  p.s = text;
  p.len = len;
  p.err = err;
  p.errlen = errlen;
  if (value(&p, root, 0) < 0)
    goto bad;
  skip_ws(&p);
  if (p.pos != p.len) {
    fail(&p, "text after the JSON value");
    goto bad;
  }
  return 0;
bad:
  jt_release(root);
  return -1;
}

void jt_release(struct jt *v)
{
  size_t i;

  for (i = 0; i < v->n; i++) {
    jt_release(&v->v[i]);
    if (v->k)
      free(v->k[i]);
  }
  free(v->v);
  free(v->k);
  free(v->s);
  memset(v, 0, sizeof(*v));
}

const struct jt *jt_get(const struct jt *v, const char *key)
{
  size_t i;

  if (!v || v->type != JT_OBJECT)
    return NULL;
  for (i = 0; i < v->n; i++)
    if (!strcmp(v->k[i], key))
      return &v->v[i];
  return NULL;
}

const struct jt *jt_at(const struct jt *v, size_t i)
{
  if (!v || v->type != JT_ARRAY || i >= v->n)
    return NULL;
  return &v->v[i];
}

size_t jt_len(const struct jt *v)
{
  if (!v || (v->type != JT_ARRAY && v->type != JT_OBJECT))
    return 0;
  return v->n;
}

const char *jt_str(const struct jt *v)
{
  return v && v->type == JT_STRING ? v->s : NULL;
}

int jt_int(const struct jt *v, int64_t *out)
{
  long long n;
  char *end;

  if (!v || v->type != JT_NUMBER)
    return -1;
  errno = 0;
  n = strtoll(v->s, &end, 10);
  if (*end || errno)
    return -1;
  *out = (int64_t)n;
  return 0;
}

int jt_scaled(const struct jt *v, int scale, int64_t max, int64_t *out,
              int *inexact)
{
  const char *s;
  char digits[32];
  size_t nd = 0;
  long exp10 = scale, e = 0;
  int neg = 0, esign = 1, dropped = 0, seen_dot = 0;
  int64_t n = 0;
  size_t i;

  if (inexact)
    *inexact = 0;
  if (!v || v->type != JT_NUMBER)
    return -1;
  s = v->s;
  if (*s == '-') {
    neg = 1;
    s++;
  }
  /* Significant digits (leading zeros dropped), the power of ten of the
   * last one kept, and whether a non-zero digit did not fit. */
  for (; *s && *s != 'e' && *s != 'E'; s++) {
    if (*s == '.') {
      seen_dot = 1;
      continue;
    }
    if (seen_dot)
      exp10--;
    if (!nd && *s == '0')
      continue;
    if (nd < 20) {
      digits[nd++] = *s;
    }
    else {
      /* Beyond 20 significant digits the value is out of any int64 range
       * unless the digits are scaled away below: keep their count. */
      if (*s != '0')
        dropped = 1;
      exp10++;
    }
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-')
      esign = *s++ == '-' ? -1 : 1;
    for (; *s; s++)
      if (e < 100000)
        e = e * 10 + (*s - '0');
    exp10 += esign * e;
  }
  if (!nd) {
    *out = 0;
    return 0;
  }
  /* digits * 10^exp10, truncated toward zero. */
  if (exp10 < 0) {
    long drop = -exp10;

    for (i = nd > (size_t)drop ? nd - (size_t)drop : 0; i < nd; i++)
      if (digits[i] != '0')
        dropped = 1;
    nd = nd > (size_t)drop ? nd - (size_t)drop : 0;
    exp10 = 0;
  }
  if ((long)nd + exp10 > 19)
    return -2;
  for (i = 0; i < nd; i++) {
    int64_t d = digits[i] - '0';

    if (d > max || n > (max - d) / 10)
      return -2;
    n = n * 10 + d;
  }
  for (; exp10 > 0; exp10--) {
    if (n > max / 10)
      return -2;
    n *= 10;
  }
  if (inexact)
    *inexact = dropped;
  *out = neg ? -n : n;
  return 0;
}

int jt_num(const struct jt *v, double *out)
{
  char *end;
  double d;

  if (!v || v->type != JT_NUMBER)
    return -1;
  errno = 0;
  d = strtod(v->s, &end);
  if (*end || errno)
    return -1;
  *out = d;
  return 0;
}

const struct jt *jt_path(const struct jt *v, const char *path)
{
  char part[128];
  const char *p = path;

  while (v && *p) {
    const char *dot = strchr(p, '.');
    size_t n = dot ? (size_t)(dot - p) : strlen(p);

    if (n >= sizeof(part))
      return NULL;
    memcpy(part, p, n);
    part[n] = '\0';
    if (v->type == JT_ARRAY) {
      char *end;
      unsigned long i = strtoul(part, &end, 10);

      v = *end || !n ? NULL : jt_at(v, (size_t)i);
    }
    else {
      v = jt_get(v, part);
    }
    p += n;
    if (*p == '.')
      p++;
  }
  return v;
}

void jt_write(struct buf *b, const struct jt *v)
{
  size_t i;

  switch (v->type) {
  case JT_NULL:
  case JT_COUNT:
    buf_puts(b, "null");
    return;
  case JT_BOOL:
    buf_puts(b, v->b ? "true" : "false");
    return;
  case JT_NUMBER:
    buf_puts(b, v->s);
    return;
  case JT_STRING:
    json_quote(b, v->s);
    return;
  case JT_ARRAY:
  case JT_OBJECT:
    buf_putc(b, v->type == JT_ARRAY ? '[' : '{');
    for (i = 0; i < v->n; i++) {
      if (i)
        buf_putc(b, ',');
      if (v->type == JT_OBJECT) {
        json_quote(b, v->k[i]);
        buf_putc(b, ':');
      }
      jt_write(b, &v->v[i]);
    }
    buf_putc(b, v->type == JT_ARRAY ? ']' : '}');
    return;
  }
}

void jt_write_plain(struct buf *b, const struct jt *v)
{
  if (!v)
    return;
  if (v->type == JT_STRING || v->type == JT_NUMBER)
    buf_puts(b, v->s);
  else if (v->type == JT_BOOL)
    buf_puts(b, v->b ? "true" : "false");
}

/* --- reading a document from a stream, one value at a time -------------- */

static int rd_peek(struct jt_reader *r)
{
  if (r->have < 0)
    r->have = getc(r->f);
  return r->have;
}

static int rd_next(struct jt_reader *r)
{
  int c = rd_peek(r);

  r->have = -1;
  if (c == '\n')
    r->line++;
  return c;
}

static int rd_fail(struct jt_reader *r, const char *what)
{
  if (!r->failed) {
    if (ferror(r->f))
      snprintf(r->err, sizeof(r->err), "line %zu: %s", r->line,
               strerror(errno));
    else
      snprintf(r->err, sizeof(r->err), "line %zu: %s", r->line, what);
  }
  r->failed = 1;
  return -1;
}

static void rd_ws(struct jt_reader *r)
{
  int c;

  while ((c = rd_peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
    rd_next(r);
}

void jt_reader_init(struct jt_reader *r, FILE *f)
{
  memset(r, 0, sizeof(*r));
  r->f = f;
  r->have = -1;
  r->line = 1;
  r->first = 1;
}

int jt_reader_begin(struct jt_reader *r, int object)
{
  rd_ws(r);
  if (rd_next(r) != (object ? '{' : '['))
    return rd_fail(r, object ? "expected an object" : "expected an array");
  r->first = 1;
  return 0;
}

/* Before the next member or item: 1 if there is one, 0 at the end. */
static int rd_more(struct jt_reader *r, int close)
{
  rd_ws(r);
  if (rd_peek(r) == close) {
    rd_next(r);
    r->first = 0;
    return 0;
  }
  if (!r->first) {
    if (rd_next(r) != ',')
      return rd_fail(r, close == '}' ? "expected ',' or '}'"
                                     : "expected ',' or ']'");
    rd_ws(r);
  }
  r->first = 0;
  return 1;
}

/* The bytes of one JSON value into b, strings and nesting followed. */
static int rd_value_text(struct jt_reader *r, struct buf *b)
{
  int depth = 0, c;

  rd_ws(r);
  for (;;) {
    c = rd_peek(r);
    if (c == EOF)
      return rd_fail(r, "unexpected end of input");
    if (depth == 0 && b->len &&
        (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' ||
         c == '\t' || c == '\r'))
      return 0;
    rd_next(r);
    buf_putc(b, (char)c);
    if (c == '"') {
      for (;;) {
        c = rd_next(r);
        if (c == EOF)
          return rd_fail(r, "unterminated string");
        buf_putc(b, (char)c);
        if (c == '\\') {
          c = rd_next(r);
          if (c == EOF)
            return rd_fail(r, "unterminated string");
          buf_putc(b, (char)c);
        }
        else if (c == '"') {
          break;
        }
      }
    }
    else if (c == '{' || c == '[') {
      if (++depth > JT_MAX_DEPTH)
        return rd_fail(r, "nested more than 64 levels deep");
    }
    else if (c == '}' || c == ']') {
      if (--depth < 0)
        return rd_fail(r, "unexpected text");
    }
    if (depth == 0 && (c == '}' || c == ']' || c == '"'))
      return 0;
  }
}

static int rd_parse(struct jt_reader *r, struct buf *b, size_t line,
                    struct jt *out)
{
  char err[160];

  if (jt_parse(out, b->s, b->len, err, sizeof(err)) < 0) {
    if (!r->failed)
      snprintf(r->err, sizeof(r->err), "in the value from line %zu: %s", line,
               err);
    r->failed = 1;
    return -1;
  }
  return 0;
}

int jt_reader_key(struct jt_reader *r, char **key)
{
  struct buf b;
  struct jt k;
  size_t line;
  int more = rd_more(r, '}');

  *key = NULL;
  if (more <= 0)
    return more;
  if (rd_peek(r) != '"')
    return rd_fail(r, "expected a member name");
  buf_init(&b, 0);
  line = r->line;
  if (rd_value_text(r, &b) < 0 || rd_parse(r, &b, line, &k) < 0) {
    buf_release(&b);
    return -1;
  }
  buf_release(&b);
  *key = k.s;
  k.s = NULL;
  jt_release(&k);
  rd_ws(r);
  if (rd_next(r) != ':') {
    FREE_AND_NULL(*key);
    return rd_fail(r, "expected ':'");
  }
  return 1;
}

int jt_reader_item(struct jt_reader *r)
{
  return rd_more(r, ']');
}

int jt_reader_value(struct jt_reader *r, struct jt *out)
{
  struct buf b;
  size_t line;
  int rc;

  memset(out, 0, sizeof(*out));
  buf_init(&b, 0);
  rd_ws(r);
  line = r->line;
  rc = rd_value_text(r, &b) < 0 ? -1 : rd_parse(r, &b, line, out);
  buf_release(&b);
  return rc;
}

int jt_reader_end(struct jt_reader *r)
{
  rd_ws(r);
  if (rd_peek(r) != EOF)
    return rd_fail(r, "text after the JSON value");
  if (ferror(r->f))
    return rd_fail(r, "read error");
  return 0;
}

int jt_reader_at_object(struct jt_reader *r)
{
  rd_ws(r);
  return rd_peek(r) == '{';
}
