/*
 * cmd_msg.h: the tool's own messages on stderr, in the library's form
 * ("hopsplit: error: ...", one write a line, control characters escaped),
 * and the verbosity that silences them.
 *
 * The tool does not include msg.h: its verbosity, its sink (hs_set_log)
 * and its count of bytes written are the library's process state, which
 * a client reaches only through hopsplit.h (hs_set_verbosity, hs_set_log).
 * In the shared build the tool's copy of util and the library's are two;
 * cmd_verbosity sets both.
 */
#ifndef HOPSPLIT_CMD_MSG_H
#define HOPSPLIT_CMD_MSG_H

#if defined(__GNUC__)
#define CMD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CMD_PRINTF(a, b)
#endif

/* -1 quiet, 0 normal, 1+ verbose: the tool's and the library's. */
void cmd_verbosity(int level);
/* "hopsplit: error: ..."; returns -1. */
int cmd_error(const char *fmt, ...) CMD_PRINTF(1, 2);
/* "hopsplit: ...", only with -v. */
void cmd_info(const char *fmt, ...) CMD_PRINTF(1, 2);

#endif
