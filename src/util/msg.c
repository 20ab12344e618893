/*
 * msg.c: diagnostics on stderr.  stdout carries only the report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "msg.h"
#include "banned.h"

int msg_verbosity;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
    MSG_PRINTF(2, 0);

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
  fflush(stdout);
  fputs("hopsplit: ", stderr);
  if (prefix)
    fputs(prefix, stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
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
