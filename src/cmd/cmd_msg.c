/*
 * cmd_msg.c: the tool's messages (cmd_msg.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include <hopsplit/hopsplit.h>

#include "buf.h"
#include "cmd_msg.h"
#include "strutil.h"
#include "banned.h"

static int verbosity;

void cmd_verbosity(int level)
{
  verbosity = level;
  hs_set_verbosity(level);
}

/* One line on stderr in one write, after whatever stdio still holds. */
static void say(const char *prefix, const char *fmt, va_list ap)
    CMD_PRINTF(2, 0);

static void say(const char *prefix, const char *fmt, va_list ap)
{
  struct buf text, line;

  buf_init(&text, 0);
  buf_init(&line, 0);
  buf_vprintf(&text, fmt, ap);
  buf_puts(&line, "hopsplit: ");
  buf_puts(&line, prefix);
  str_escape_ctl(&line, text.s ? text.s : "", text.len, 0);
  buf_putc(&line, '\n');
  fflush(stdout);
  fflush(stderr);
  buf_write_fd(STDERR_FILENO, line.s, line.len);
  buf_release(&line);
  buf_release(&text);
}

int cmd_error(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  say("error: ", fmt, ap);
  va_end(ap);
  return -1;
}

void cmd_info(const char *fmt, ...)
{
  va_list ap;

  if (verbosity < 1)
    return;
  va_start(ap, fmt);
  say("", fmt, ap);
  va_end(ap);
}
