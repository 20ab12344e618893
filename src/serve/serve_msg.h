/*
 * serve_msg.h: serve's own messages on stderr, in the library's form
 * ("hopsplit: error: ...", one write a line, control characters escaped:
 * util's say.h), and the verbosity that silences them.  As the tool's
 * cmd_msg.h: serve does not include msg.h, whose verbosity, sink and
 * accounting are the library's (hs_set_verbosity reaches them).
 */
#ifndef HOPSPLIT_SERVE_MSG_H
#define HOPSPLIT_SERVE_MSG_H

#include "say.h"

/* -1 quiet, 0 normal, 1+ verbose: serve's and the library's. */
void serve_verbosity(int level);
int serve_verbose(void);
/* "hopsplit: error: ..."; returns -1. */
int serve_error(const char *fmt, ...) SAY_PRINTF(1, 2);
/* "hopsplit: warning: ...", not with -q. */
void serve_warn(const char *fmt, ...) SAY_PRINTF(1, 2);
/* "hopsplit: ...", not with -q. */
void serve_note(const char *fmt, ...) SAY_PRINTF(1, 2);
/* "hopsplit: ...", only with -v. */
void serve_info(const char *fmt, ...) SAY_PRINTF(1, 2);

#endif
