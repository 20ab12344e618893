/*
 * serve_msg.c: serve's messages (serve_msg.h).
 */
#include <stdarg.h>
#include <stdatomic.h>

#include <hopsplit/hopsplit.h>

#include "serve_msg.h"
#include "banned.h"

/* Read on the HTTP and measuring threads, set at start-up and on reload. */
static atomic_int verbosity;

void serve_verbosity(int level)
{
  atomic_store(&verbosity, level);
  hs_set_verbosity(level);
}

int serve_verbose(void)
{
  return atomic_load(&verbosity);
}

int serve_error(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  say_line("error: ", fmt, ap);
  va_end(ap);
  return -1;
}

void serve_warn(const char *fmt, ...)
{
  va_list ap;

  if (serve_verbose() < 0)
    return;
  va_start(ap, fmt);
  say_line("warning: ", fmt, ap);
  va_end(ap);
}

void serve_note(const char *fmt, ...)
{
  va_list ap;

  if (serve_verbose() < 0)
    return;
  va_start(ap, fmt);
  say_line("", fmt, ap);
  va_end(ap);
}

void serve_info(const char *fmt, ...)
{
  va_list ap;

  if (serve_verbose() < 1)
    return;
  va_start(ap, fmt);
  say_line("", fmt, ap);
  va_end(ap);
}
