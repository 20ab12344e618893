/*
 * msg.c: diagnostics on stderr.  stdout carries only the report.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "stall.h"
#include "strutil.h"
#include "banned.h"

int msg_verbosity;

static _Atomic uint64_t written_total;

uint64_t msg_written_total(void)
{
  return written_total;
}

void msg_note_written(size_t n)
{
  written_total += n;
}

static void vmsg(enum msg_level level, const char *fmt, va_list ap)
    MSG_PRINTF(2, 0);

static msg_sink_fn *sink;
static void *sink_ud;

void msg_set_sink(msg_sink_fn *fn, void *ud)
{
  sink = fn;
  sink_ud = ud;
}

/* A line for a sink or stderr: escaped into a growing heap string (not
 * xmalloc, which reports through here; a line that cannot grow is cut). */
struct sink_line {
  char small[1024];
  char *p;
  size_t len, cap;
};

static void put_line(void *ctx, const char *p, size_t n)
{
  struct sink_line *l = ctx;

  if (l->len + n + 1 > l->cap) {
    size_t cap = (l->len + n + 1) * 2;
    char *q = l->p == l->small ? malloc(cap) : realloc(l->p, cap);

    if (!q)
      return;
    if (l->p == l->small)
      memcpy(q, l->small, l->len);
    l->p = q;
    l->cap = cap;
  }
  memcpy(l->p + l->len, p, n);
  l->len += n;
  l->p[l->len] = '\0';
}

static void to_sink(enum msg_level level, const char *text, size_t n)
{
  struct sink_line l;

  l.p = l.small;
  l.len = 0;
  l.cap = sizeof(l.small);
  l.small[0] = '\0';
  str_escape_ctl_to(text, n, 0, put_line, &l);
  sink(level, l.p, sink_ud);
  if (l.p != l.small)
    free(l.p);
}

/* One line on stderr, in one write(2): hopsplit serve's engine threads
 * and libmicrohttpd's thread write lines at once, and a line written
 * whole is never mixed with another (a write of a regular file, pipe or
 * terminal of this size is not split), with no lock held meanwhile.
 * What a message quotes may come from the network (a header, an error
 * text of a server): control characters are written as \xNN, never raw.
 * Formatted on the stack, or with malloc when longer (not xmalloc, which
 * reports through here). */
static void vmsg(enum msg_level level, const char *fmt, va_list ap)
{
  static const char *const prefixes[] = {"error: ", "warning: ", NULL, NULL};
  const char *prefix = prefixes[level];
  char small[1024], *text = small;
  struct sink_line l;
  va_list again;
  size_t off;
  int n;
  /* Saying it, all of it, is output time (stall.h). */
  int64_t t0 = stall_now_ns();

  va_copy(again, ap);
  n = vsnprintf(small, sizeof(small), fmt, ap);
  if (n >= (int)sizeof(small)) {
    char *big = malloc((size_t)n + 1);

    if (big && vsnprintf(big, (size_t)n + 1, fmt, again) == n)
      text = big;
    else
      free(big);
  }
  va_end(again);
  if (n < 0)
    n = 0;
  if (text == small && n >= (int)sizeof(small))
    n = (int)sizeof(small) - 1;
  if (sink) {
    to_sink(level, text, (size_t)n);
    if (text != small)
      free(text);
    stall_output_add(stall_now_ns() - t0);
    return;
  }
  l.p = l.small;
  l.len = 0;
  l.cap = sizeof(l.small);
  put_line(&l, "hopsplit: ", 10);
  if (prefix)
    put_line(&l, prefix, strlen(prefix));
  str_escape_ctl_to(text, (size_t)n, 0, put_line, &l);
  put_line(&l, "\n", 1);
  fflush(stdout);
  fflush(stderr); /* anything stdio still holds goes first */
  msg_note_written(l.len);
  for (off = 0; off < l.len;) {
    ssize_t w = write(STDERR_FILENO, l.p + off, l.len - off);

    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    off += (size_t)w;
  }
  if (l.p != l.small)
    free(l.p);
  if (text != small)
    free(text);
  stall_output_add(stall_now_ns() - t0);
}

int msg_error(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vmsg(MSG_ERROR, fmt, ap);
  va_end(ap);
  return -1;
}

void msg_warn(const char *fmt, ...)
{
  va_list ap;

  if (msg_verbosity < 0)
    return;
  va_start(ap, fmt);
  vmsg(MSG_WARNING, fmt, ap);
  va_end(ap);
}

void msg_note(const char *fmt, ...)
{
  va_list ap;

  if (msg_verbosity < 0)
    return;
  va_start(ap, fmt);
  vmsg(MSG_NOTE, fmt, ap);
  va_end(ap);
}

void msg_info(const char *fmt, ...)
{
  va_list ap;

  if (msg_verbosity < 1)
    return;
  va_start(ap, fmt);
  vmsg(MSG_INFO, fmt, ap);
  va_end(ap);
}

void msg_die(int status, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vmsg(MSG_ERROR, fmt, ap);
  va_end(ap);
  exit(status);
}

void msg_bug(const char *file, int line, const char *fmt, ...)
{
  va_list ap;

  fprintf(stderr, "hopsplit: BUG: %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

void msg_set(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;

  if (!err || !errlen)
    return;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}
