/*
 * cmd_int.h: what the subcommands of the cmd stage share (cmd_report.c
 * for cmd_merge.c).
 */
#ifndef HOPSPLIT_CMD_INT_H
#define HOPSPLIT_CMD_INT_H

#include <stddef.h>

#include "options.h"

/* Parse argv[1..] (argv[0] names the subcommand in messages) with the
 * options of "report" (--color, --format, --output, --quiet, --verbose,
 * --help) into o; the other arguments, at most max of them, into files
 * (borrowed from argv), their number in *n_files.  Returns 0, or -1 after
 * a message. */
int cmd_report_parse(struct options *o, int argc, char **argv,
                     const char **files, size_t max, size_t *n_files);

/* The whole file at path, malloc'd (caller frees), its size in *len;
 * NULL after a message when it cannot be read, or when it is larger than
 * REPORT_MAX_SIZE (then *too_large, may be NULL, is set). */
char *cmd_report_slurp(const char *path, size_t *len, int *too_large);

#endif
