/*
 * say.c: one message line on stderr (say.h).
 */
#include <stdio.h>
#include <unistd.h>

#include "buf.h"
#include "say.h"
#include "strutil.h"
#include "banned.h"

void say_line(const char *prefix, const char *fmt, va_list ap)
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
