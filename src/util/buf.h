/*
 * buf.h: growable text buffer (git strbuf, curl dynbuf).
 *
 * Invariants: b->s is never NULL and always NUL-terminated; b->len is the
 * string length.  A buffer initialised with a cap refuses to grow past it
 * (buf_add returns -1 and sets b->truncated).  buf_release frees and
 * re-initialises; buf_detach hands the string to the caller, who frees it.
 */
#ifndef HOPSPLIT_BUF_H
#define HOPSPLIT_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "msg.h"

struct buf {
  char *s;
  size_t len;
  size_t alloc;
  size_t cap; /* 0: unlimited */
  int truncated;
  int sink;        /* file descriptor chunks go to as they grow, or -1 */
  int sink_failed; /* a write to sink failed */
  int sink_errno;  /* errno of the first failed write */
};

/*
 * A buffer that streams: once it holds more than a chunk, its contents go
 * to the file descriptor fd and it starts over, so a large report never
 * sits in memory whole.  Writes survive EINTR and short writes (the rest
 * is written again), so a signal never drops a chunk.  Only for writers
 * that never read back what they wrote; buf_flush writes the rest and
 * returns 0, or -1 if any write failed (errno then as sink_errno).
 */
void buf_init_sink(struct buf *b, int fd);
int buf_flush(struct buf *b);
/* Write n bytes of data to fd whole, through EINTR and short writes;
 * 0, or -1 with errno set. */
int buf_write_fd(int fd, const char *data, size_t n);

void buf_init(struct buf *b, size_t cap);
void buf_release(struct buf *b);
void buf_reset(struct buf *b);
char *buf_detach(struct buf *b);
/* What passes the room already there, a sink's chunk or the cap. */
int buf_add_grow(struct buf *b, const char *data, size_t n);
/* Room for n more bytes now, so that appending them later allocates
 * nothing; 0, or -1 past the cap. */
int buf_room(struct buf *b, size_t n);
/* A sink's chunk (buf_init_sink). */
#define BUF_SINK_CHUNK (64 * 1024)

/* Appending: inline while the bytes fit the room already there (the
 * NDJSON stream renders a line of some 150 fields, each a few appends,
 * between two samples), else buf_add_grow. */
static inline int buf_add(struct buf *b, const char *data, size_t n)
{
  if (b->len + n >= b->alloc || b->cap ||
      (b->sink >= 0 && b->len + n > BUF_SINK_CHUNK))
    return buf_add_grow(b, data, n);
  if (n)
    memcpy(b->s + b->len, data, n);
  b->len += n;
  b->s[b->len] = '\0';
  return 0;
}

static inline int buf_puts(struct buf *b, const char *s)
{
  return buf_add(b, s, strlen(s));
}

static inline int buf_putc(struct buf *b, char c)
{
  if (b->len + 1 >= b->alloc || b->cap ||
      (b->sink >= 0 && b->len + 1 > BUF_SINK_CHUNK))
    return buf_add_grow(b, &c, 1);
  b->s[b->len++] = c;
  b->s[b->len] = '\0';
  return 0;
}
int buf_printf(struct buf *b, const char *fmt, ...) MSG_PRINTF(2, 3);
/* Append v in decimal, as "%lld" would, without printf's cost (the
 * NDJSON stream renders a line between two samples, where its time
 * lengthens the pause before the next one). */
int buf_put_int(struct buf *b, int64_t v);
/* Append a count of microseconds as seconds, "-S.UUUUUU" (six
 * decimals, a sign only when negative), exactly and without printf. */
int buf_put_us_seconds(struct buf *b, int64_t us);
int buf_vprintf(struct buf *b, const char *fmt, va_list ap) MSG_PRINTF(2, 0);

/* Append s (NULL: nothing) with <, >, & and " as HTML character
 * references, for text and attribute values, and what a terminal would act
 * on written visibly as buf_put_vis does (someone may cat the file). */
void buf_put_html(struct buf *b, const char *s);

/* Append s (NULL: nothing) with what a terminal would act on written
 * visibly as \xNN: C0 controls, DEL, C1 controls, bytes that are not
 * UTF-8 and the bidirectional controls (str_escape_ctl without flags, see
 * strutil.h).  For every string from the network or a saved document that
 * text for a terminal shows. */
void buf_put_vis(struct buf *b, const char *s);

/* Append s (NULL: nothing) as the inside of a Prometheus label value:
 * made visible as buf_put_vis does (the format wants UTF-8, and a .prom
 * file gets read with cat), then \\, \" and \n escaped as the text
 * exposition format requires. */
void buf_put_prom(struct buf *b, const char *s);

#endif
