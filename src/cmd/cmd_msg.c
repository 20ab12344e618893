/*
 * cmd_msg.c: the tool's messages (cmd_msg.h).
 */
#include <stdarg.h>

#include <hopsplit/hopsplit.h>

#include "cmd_msg.h"
#include "say.h"
#include "banned.h"

static int verbosity;

void cmd_verbosity(int level)
{
  verbosity = level;
  hs_set_verbosity(level);
}

int cmd_error(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  say_line("error: ", fmt, ap);
  va_end(ap);
  return -1;
}

void cmd_info(const char *fmt, ...)
{
  va_list ap;

  if (verbosity < 1)
    return;
  va_start(ap, fmt);
  say_line("", fmt, ap);
  va_end(ap);
}
