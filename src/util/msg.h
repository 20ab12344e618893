/*
 * msg.h: messages on stderr, prefixed by the program name, lowercase,
 * without trailing period (git error/die/BUG).
 */
#ifndef HOPSPLIT_MSG_H
#define HOPSPLIT_MSG_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define MSG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define MSG_NORETURN     __attribute__((noreturn))
#else
#define MSG_PRINTF(a, b)
#define MSG_NORETURN
#endif

/* Bytes of output the process wrote so far (the diagnostics and
 * buf_write_fd, all threads): a sample's figure is the change while it
 * is in flight (engine.c); msg_note_written counts n more. */
uint64_t msg_written_total(void);
void msg_note_written(size_t n);

/* Verbosity: -1 quiet, 0 normal, 1+ verbose. */
extern int msg_verbosity;

/* Where messages go instead of stderr (libhopsplit's hs_set_log): each
 * line, control characters escaped, without "hopsplit: " or a newline;
 * level is MSG_ERROR..MSG_INFO.  NULL: stderr again.  Set before any
 * thread writes one. */
enum msg_level { MSG_ERROR, MSG_WARNING, MSG_NOTE, MSG_INFO };
typedef void msg_sink_fn(enum msg_level level, const char *line, void *ud);
void msg_set_sink(msg_sink_fn *fn, void *ud);

/* Print "hopsplit: error: ..." and return -1. */
int msg_error(const char *fmt, ...) MSG_PRINTF(1, 2);
/* A message into the caller's buffer err[errlen] (nothing when err is NULL
 * or errlen 0): how parsers hand an error back without printing it. */
void msg_set(char *err, size_t errlen, const char *fmt, ...) MSG_PRINTF(3, 4);
void msg_warn(const char *fmt, ...) MSG_PRINTF(1, 2);
/* What the user asked to be told (not a warning); silenced by -s. */
void msg_note(const char *fmt, ...) MSG_PRINTF(1, 2);
/* Only with -v. */
void msg_info(const char *fmt, ...) MSG_PRINTF(1, 2);
/* Print and exit with the given status. */
void msg_die(int status, const char *fmt, ...) MSG_PRINTF(2, 3) MSG_NORETURN;
void msg_bug(const char *file, int line, const char *fmt, ...)
    MSG_PRINTF(3, 4) MSG_NORETURN;

#define BUG(...) msg_bug(__FILE__, __LINE__, __VA_ARGS__)

#endif
