/*
 * main.c: the command line entry.  "run", "report", "merge", "serve" and
 * "help" are subcommands only as the first argument (a near miss of one
 * there is a usage error); otherwise argv -> options (cmd_cli.c) -> a
 * run of libhopsplit (plan, probe, analysis, report), and the outcome
 * becomes the exit status (hopsplit(1) EXIT STATUS).  Nothing else
 * happens here.
 */
#include <stdio.h>
#include <string.h>

#include <hopsplit/hopsplit.h>

#include "arraysize.h"
#include "cmd_cli.h"
#include "cmd_measure.h"
#include "cmd_merge.h"
#include "cmd_msg.h"
#include "cmd_run.h"
#include "cmd_report.h"
#include "version.h"
#include "serve.h"
#include "strutil.h"
#include "banned.h"

/* hs_write_fn to a FILE. */
static int put(const char *data, size_t len, void *ud)
{
  return fwrite(data, 1, len, ud) == len ? 0 : -1;
}

static int measure_urls(int argc, char **argv)
{
  struct cmd_cli cli;
  struct hs_run *run = NULL;
  size_t i;
  int rc = EXIT_STATUS_USAGE;

  if (cmd_cli_parse(&cli, HS_COMMAND_MEASURE, argc, argv) < 0)
    goto out;
  cmd_verbosity((int)hs_options_query(cli.opts, HS_QUERY_VERBOSITY));
  if (hs_options_query(cli.opts, HS_QUERY_HELP)) {
    cmd_cli_usage(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  if (hs_options_query(cli.opts, HS_QUERY_VERSION)) {
    /* The version calls need no library set-up: -V starts fast. */
    version_print(stdout);
    rc = EXIT_STATUS_OK;
    goto out;
  }
  for (i = 0; i < cli.n_args; i++)
    hs_options_add_target(cli.opts, cli.args[i]);
  if (hs_run_new(cli.opts, NULL, &run) != HS_OK)
    goto out;
  /* Every check a run makes before it measures, --dry-run included: the
   * files options name, then the outputs (an output that cannot be
   * written is found before anything is measured, not after). */
  if (hs_run_preflight(run) != HS_OK)
    goto out;
  rc = EXIT_STATUS_SETUP;
  if (hs_options_outputs(cli.opts, HS_OUTPUTS_WRITABLE) != HS_OK)
    goto out;
  if (hs_options_query(cli.opts, HS_QUERY_DRY_RUN)) {
    hs_run_describe(run, put, stdout);
    rc = fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_SETUP;
    goto out;
  }
  rc = cmd_measure(run, cli.opts, NULL);
out:
  hs_run_free(run);
  cmd_cli_release(&cli);
  return rc;
}

/* The subcommands, as the first argument only (hopsplit(1)). */
static const char *const commands[] = {"help", "merge", "report", "run",
                                       "serve"};
#define N_COMMANDS (ARRAY_SIZE(commands))

/* A first argument that is plainly a URL or a NAME=URL target: it has a
 * dot, a colon, a slash or an '=' (a host name without one is not
 * plainly one: "rnu" is a typo of "run", not a host to measure). */
static int plainly_url(const char *a)
{
  return strpbrk(a, ".:/=[") != NULL;
}

/* A profile given where a URL goes: "hopsplit p.yaml" means "run". */
static int looks_like_profile(const char *a)
{
  size_t n = strlen(a);

  if (strstr(a, "://"))
    return 0;
  return (n > 5 && !strcmp(a + n - 5, ".yaml")) ||
         (n > 4 && !strcmp(a + n - 4, ".yml"));
}

/* "hopsplit help [COMMAND]": the usage of hopsplit or of COMMAND. */
static int help(int argc, char **argv)
{
  char help_opt[] = "--help";
  char *args[3];

  if (argc < 2) {
    cmd_cli_usage(stdout);
    return EXIT_STATUS_OK;
  }
  if (argc > 2) {
    cmd_error("'help' takes one command (usage: hopsplit help "
              "[run|report|merge|serve])");
    return EXIT_STATUS_USAGE;
  }
  args[0] = argv[1];
  args[1] = help_opt;
  args[2] = NULL;
  if (!strcmp(argv[1], "run"))
    return cmd_run(2, args);
  if (!strcmp(argv[1], "report"))
    return cmd_report(2, args);
  if (!strcmp(argv[1], "merge"))
    return cmd_merge(2, args);
  if (!strcmp(argv[1], "serve"))
    return cmd_serve(2, args);
  if (!strcmp(argv[1], "help")) {
    cmd_cli_usage(stdout);
    return EXIT_STATUS_OK;
  }
  {
    const char *hint = str_closest(argv[1], commands, N_COMMANDS);

    cmd_error("no command '%s'%s%s%s (commands: run, report, merge, serve, "
              "help)",
              argv[1], hint ? " (did you mean '" : "", hint ? hint : "",
              hint ? "'?)" : "");
  }
  return EXIT_STATUS_USAGE;
}

int main(int argc, char **argv)
{
  int rc;
  const char *first = argc > 1 ? argv[1] : "";
  const char *near = NULL;

  if (*first && first[0] != '-' && !plainly_url(first))
    near = str_closest(first, commands, N_COMMANDS);
  if (!strcmp(first, "report"))
    rc = cmd_report(argc - 1, argv + 1);
  else if (!strcmp(first, "run"))
    rc = cmd_run(argc - 1, argv + 1);
  else if (!strcmp(first, "merge"))
    rc = cmd_merge(argc - 1, argv + 1);
  else if (!strcmp(first, "serve"))
    rc = cmd_serve(argc - 1, argv + 1);
  else if (!strcmp(first, "help"))
    rc = help(argc - 1, argv + 1);
  else if (*first && looks_like_profile(first)) {
    cmd_error("'%s' looks like a profile, not a URL (did you mean "
              "'hopsplit run %s'?)",
              first, first);
    rc = EXIT_STATUS_USAGE;
  }
  else if (near) {
    /* A near miss of a command would otherwise be measured as
     * https://NAME/, a DNS query for a typo. */
    cmd_error("unknown command '%s' (did you mean 'hopsplit %s'?); to "
              "measure a host of that name, write https://%s/",
              first, near, first);
    rc = EXIT_STATUS_USAGE;
  }
  else
    rc = measure_urls(argc, argv);
  /* What planning and reading left in the library's pool of strings. */
  hs_global_cleanup();
  return rc;
}
