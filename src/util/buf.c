/*
 * buf.c: growable, optionally capped, always NUL-terminated text buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "stall.h"
#include "strutil.h"
#include "xalloc.h"
#include "banned.h"

static char buf_empty[1];

void buf_init(struct buf *b, size_t cap)
{
  b->s = buf_empty;
  b->len = 0;
  b->alloc = 0;
  b->cap = cap;
  b->truncated = 0;
  b->sink = -1;
  b->sink_failed = 0;
  b->sink_errno = 0;
}

void buf_init_sink(struct buf *b, int fd)
{
  buf_init(b, 0);
  b->sink = fd;
}

int buf_put_int(struct buf *b, int64_t v)
{
  char t[24], *p = t + sizeof(t);
  /* The magnitude as unsigned: INT64_MIN has no positive int64_t. */
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0)
    *--p = '-';
  return buf_add(b, p, (size_t)(t + sizeof(t) - p));
}

int buf_put_us_seconds(struct buf *b, int64_t us)
{
  uint64_t a = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;
  uint64_t sec = a / 1000000;
  unsigned frac = (unsigned)(a % 1000000);
  char t[32], *p = t + sizeof(t);
  int i;

  for (i = 0; i < 6; i++) {
    *--p = (char)('0' + frac % 10);
    frac /= 10;
  }
  *--p = '.';
  do {
    *--p = (char)('0' + sec % 10);
    sec /= 10;
  } while (sec);
  if (us < 0)
    *--p = '-';
  return buf_add(b, p, (size_t)(t + sizeof(t) - p));
}

int buf_write_fd(int fd, const char *data, size_t n)
{
  int64_t t0 = stall_now_ns();
  int rc = 0;

  msg_note_written(n);
  while (n) {
    ssize_t w = write(fd, data, n);

    if (w < 0) {
      if (errno == EINTR)
        continue;
      rc = -1;
      break;
    }
    if (w == 0) {
      errno = EIO;
      rc = -1;
      break;
    }
    data += w;
    n -= (size_t)w;
  }
  stall_output_add(stall_now_ns() - t0);
  return rc;
}

int buf_flush(struct buf *b)
{
  if (b->sink < 0)
    return 0;
  /* After a failure the rest is dropped: the output is lost already. */
  if (b->len && !b->sink_failed && buf_write_fd(b->sink, b->s, b->len) < 0) {
    b->sink_failed = 1;
    b->sink_errno = errno;
  }
  b->len = 0;
  if (b->alloc)
    b->s[0] = '\0';
  if (b->sink_failed)
    errno = b->sink_errno;
  return b->sink_failed ? -1 : 0;
}

void buf_release(struct buf *b)
{
  size_t cap = b->cap;
  int sink = b->sink;

  if (b->alloc)
    free(b->s);
  buf_init(b, cap);
  b->sink = sink;
}

void buf_reset(struct buf *b)
{
  b->len = 0;
  b->truncated = 0;
  if (b->alloc)
    b->s[0] = '\0';
}

char *buf_detach(struct buf *b)
{
  char *s = b->alloc ? b->s : xstrdup("");
  size_t cap = b->cap;

  buf_init(b, cap);
  return s;
}

static int buf_reserve(struct buf *b, size_t extra)
{
  size_t need;

  if (b->sink >= 0 && b->len && b->len + extra > BUF_SINK_CHUNK)
    buf_flush(b);
  need = b->len + extra + 1;

  if (b->cap && b->len + extra > b->cap) {
    b->truncated = 1;
    return -1;
  }
  if (need <= b->alloc)
    return 0;
  if (!b->alloc) {
    size_t n = 64;

    while (n < need)
      n *= 2;
    b->s = xmalloc(n);
    b->s[0] = '\0';
    b->alloc = n;
    return 0;
  }
  b->s = xgrow(b->s, &b->alloc, need, 1);
  return 0;
}

int buf_room(struct buf *b, size_t n)
{
  return buf_reserve(b, n);
}

int buf_add_grow(struct buf *b, const char *data, size_t n)
{
  if (buf_reserve(b, n) < 0)
    return -1;
  if (n)
    memcpy(b->s + b->len, data, n);
  b->len += n;
  b->s[b->len] = '\0';
  return 0;
}

int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
  va_list cp;
  int n;

  /* Formatted once, in place, when it fits the room already there (the
   * NDJSON stream's numbers between two samples); else measured first. */
  if (b->alloc > b->len + 1) {
    size_t room = b->alloc - b->len;

    va_copy(cp, ap);
    n = vsnprintf(b->s + b->len, room, fmt, cp);
    va_end(cp);
    if (n < 0)
      BUG("vsnprintf failed for \"%s\"", fmt);
    if ((size_t)n < room && (!b->cap || b->len + (size_t)n <= b->cap) &&
        (b->sink < 0 || b->len + (size_t)n <= BUF_SINK_CHUNK)) {
      b->len += (size_t)n;
      return 0;
    }
    b->s[b->len] = '\0';
  }
  va_copy(cp, ap);
  n = vsnprintf(NULL, 0, fmt, cp);
  va_end(cp);
  if (n < 0)
    BUG("vsnprintf failed for \"%s\"", fmt);
  if (buf_reserve(b, (size_t)n) < 0)
    return -1;
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
  return 0;
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
  va_list ap;
  int rc;

  va_start(ap, fmt);
  rc = buf_vprintf(b, fmt, ap);
  va_end(ap);
  return rc;
}

static void put_vis(void *ctx, const char *p, size_t n)
{
  buf_add(ctx, p, n);
}

void buf_put_vis(struct buf *b, const char *s)
{
  if (s)
    str_escape_ctl_to(s, strlen(s), 0, put_vis, b);
}

static void put_prom(void *ctx, const char *p, size_t n)
{
  struct buf *b = ctx;
  size_t i;

  for (i = 0; i < n; i++) {
    if (p[i] == '\\' || p[i] == '"')
      buf_putc(b, '\\');
    buf_putc(b, p[i]);
  }
}

void buf_put_prom(struct buf *b, const char *s)
{
  /* A newline is escaped as \x0a, which reads the same to a person. */
  if (s)
    str_escape_ctl_to(s, strlen(s), 0, put_prom, b);
}

static void put_html(void *ctx, const char *p, size_t n)
{
  struct buf *b = ctx;
  size_t i;

  for (i = 0; i < n; i++)
    switch (p[i]) {
    case '<':
      buf_puts(b, "&lt;");
      break;
    case '>':
      buf_puts(b, "&gt;");
      break;
    case '&':
      buf_puts(b, "&amp;");
      break;
    case '"':
      buf_puts(b, "&quot;");
      break;
    default:
      buf_putc(b, p[i]);
    }
}

void buf_put_html(struct buf *b, const char *s)
{
  if (s)
    str_escape_ctl_to(s, strlen(s), 0, put_html, b);
}
