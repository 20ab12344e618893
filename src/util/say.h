/*
 * say.h: one message line on stderr in one write, in the library's form
 * ("hopsplit: PREFIX text", control characters escaped), after whatever
 * stdio still holds.  Stateless: the tool's messages (src/cmd's
 * cmd_msg.c, src/serve's serve_msg.c) are written with it; the library's
 * go through msg.h, whose sink and accounting are its own.
 */
#ifndef HOPSPLIT_SAY_H
#define HOPSPLIT_SAY_H

#include <stdarg.h>

#if defined(__GNUC__)
#define SAY_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SAY_PRINTF(a, b)
#endif

/* "hopsplit: " prefix, then fmt's text with ap. */
void say_line(const char *prefix, const char *fmt, va_list ap)
    SAY_PRINTF(2, 0);

#endif
