/*
 * cmd_cli.h: the tool's command line: argv -> libhopsplit's options
 * handle (through the option table hs_option_info reads and its one
 * setter, hs_options_set) plus the positional arguments, and --help.
 */
#ifndef HOPSPLIT_CMD_CLI_H
#define HOPSPLIT_CMD_CLI_H

#include <stddef.h>
#include <stdio.h>

#include <hopsplit/hopsplit.h>

struct cmd_cli {
  enum hs_command cmd; /* the command parsed for */
  struct hs_options *opts;
  char **args; /* positional arguments, borrowed from argv */
  size_t n_args;
};

/* Parse argv (argv[0] is the program or the command's name) for command
 * cmd: only the options whose table row names cmd are taken.  Returns 0,
 * or -1 after printing a usage error naming the option and the value.
 * cmd_cli_release frees what cmd_cli_parse allocated, also after an
 * error. */
int cmd_cli_parse(struct cmd_cli *c, enum hs_command cmd, int argc,
                  char **argv);
void cmd_cli_release(struct cmd_cli *c);
/* hopsplit --help. */
void cmd_cli_usage(FILE *f);
/* The option lines of --help for the options of cmd. */
void cmd_cli_usage_options(FILE *f, enum hs_command cmd);

#endif
