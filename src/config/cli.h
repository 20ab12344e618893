/*
 * cli.h: argv -> struct options plus the list of target arguments, for
 * hopsplit serve (the tool parses its own: src/cmd/cmd_cli.c).
 */
#ifndef HOPSPLIT_CLI_H
#define HOPSPLIT_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "option_table.h"
#include "options.h"

struct cli {
  enum opt_cmd cmd; /* the command parsed for */
  struct options opts;
  char **args; /* positional arguments, borrowed from argv */
  size_t n_args;
};

/* Parse argv (argv[0] is the program or the command's name) for command
 * cmd: only the options whose table row names cmd are taken.  Returns 0,
 * or -1 after printing a usage error naming the option and the value.
 * cli_release frees what cli_parse allocated, also after an error. */
int cli_parse(struct cli *c, enum opt_cmd cmd, int argc, char **argv);
void cli_release(struct cli *c);
/* The option lines of --help for the options of cmd, except those also
 * taken by the commands of the OPT_IN bits except. */
void cli_usage_options(FILE *f, enum opt_cmd cmd, unsigned except);

#endif
