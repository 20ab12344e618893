/*
 * cli.h: argv -> struct options plus the list of target arguments.
 */
#ifndef HOPSPLIT_CLI_H
#define HOPSPLIT_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"

struct cli {
  struct options opts;
  char **args; /* positional arguments, borrowed from argv */
  size_t n_args;
};

/* Parse argv.  Returns 0, or -1 after printing a usage error naming the
 * option and the value.  cli_release frees what cli_parse allocated. */
int cli_parse(struct cli *c, int argc, char **argv);
void cli_release(struct cli *c);
void cli_usage(FILE *f);

#endif
