/*
 * cmd_int.h: what the subcommands of the cmd stage share (cmd_report.c
 * for cmd_merge.c).
 */
#ifndef HOPSPLIT_CMD_INT_H
#define HOPSPLIT_CMD_INT_H

#include <stddef.h>

/* The whole file at path, malloc'd (caller frees), its size in *len;
 * NULL after a message when it cannot be read, or when it is larger than
 * REPORT_MAX_SIZE (then *too_large, may be NULL, is set). */
char *cmd_report_slurp(const char *path, size_t *len, int *too_large);

#endif
