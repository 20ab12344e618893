/*
 * msg.c: diagnostics on stderr.  stdout carries only the report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "msg.h"
#include "strutil.h"
#include "banned.h"

int msg_verbosity;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
    MSG_PRINTF(2, 0);

static void put_stderr(void *ctx, const char *p, size_t n)
{
  (void)ctx;
  fwrite(p, 1, n, stderr);
}

/* One line on stderr.  What a message quotes may come from the network
 * (a header, an error text of a server): control characters are written
 * as \xNN, never raw.  Formatted on the stack, or with malloc
 * when longer (not xmalloc, which reports through here). */
static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
  char small[1024], *text = small;
  va_list again;
  int n;

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
  fflush(stdout);
  /* The line is written in pieces: hopsplit serve's engine threads and
   * libmicrohttpd's thread write lines at once, and each keeps stderr
   * for its whole line, so that lines are not mixed. */
  flockfile(stderr);
  fputs("hopsplit: ", stderr);
  if (prefix)
    fputs(prefix, stderr);
  str_escape_ctl_to(text, (size_t)n, 0, put_stderr, NULL);
  fputc('\n', stderr);
  funlockfile(stderr);
  if (text != small)
    free(text);
}

int msg_error(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vmsg("error: ", fmt, ap);
  va_end(ap);
  return -1;
}

void msg_warn(const char *fmt, ...)
{
  va_list ap;

  if (msg_verbosity < 0)
    return;
  va_start(ap, fmt);
  vmsg("warning: ", fmt, ap);
  va_end(ap);
}

void msg_note(const char *fmt, ...)
{
  va_list ap;

  if (msg_verbosity < 0)
    return;
  va_start(ap, fmt);
  vmsg(NULL, fmt, ap);
  va_end(ap);
}

void msg_info(const char *fmt, ...)
{
  va_list ap;

  if (msg_verbosity < 1)
    return;
  va_start(ap, fmt);
  vmsg(NULL, fmt, ap);
  va_end(ap);
}

void msg_die(int status, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vmsg("error: ", fmt, ap);
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
