/*
 * cli.c: the command line.  Input: argv.  Output: struct options (through
 * the shared option table and setter) and the positional target
 * arguments.  Usage errors name the option and the value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "msg.h"
#include "xalloc.h"
#include "banned.h"

static int apply(struct cli *c, const struct opt_def *d, const char *val,
                 const char *shown)
{
  char err[512];

  err[0] = '\0';
  if (options_set(&c->opts, d, val, err, sizeof(err)) < 0)
    return msg_error("option %s: %s", shown, err);
  return 0;
}

static int parse_long(struct cli *c, int argc, char **argv, int *i)
{
  const char *arg = argv[*i] + 2;
  const char *eq = strchr(arg, '=');
  char name[64], shown[80];
  const struct opt_def *d;
  const char *val = NULL;
  size_t len = eq ? (size_t)(eq - arg) : strlen(arg);

  if (len >= sizeof(name))
    return msg_error("unknown option '%s'", argv[*i]);
  memcpy(name, arg, len);
  name[len] = '\0';
  d = options_find(name);
  if (!d) {
    const char *hint = options_suggest(name);

    if (hint)
      return msg_error("unknown option '--%s' (did you mean '--%s'?)", name,
                       hint);
    return msg_error("unknown option '--%s' (see hopsplit --help)", name);
  }
  snprintf(shown, sizeof(shown), "--%s", d->name);
  if (d->arg == OPT_ARG_NONE) {
    if (eq)
      return msg_error("option %s takes no value", shown);
    return apply(c, d, NULL, shown);
  }
  if (eq)
    val = eq + 1;
  else if (*i + 1 < argc)
    val = argv[++*i];
  else
    return msg_error("option %s needs a value (%s)", shown, d->argname);
  return apply(c, d, val, shown);
}

static int parse_short(struct cli *c, int argc, char **argv, int *i)
{
  const char *p = argv[*i] + 1;

  for (; *p; p++) {
    const struct opt_def *d = options_find_short(*p);
    char shown[80];

    if (!d)
      return msg_error("unknown option '-%c' (see hopsplit --help)", *p);
    snprintf(shown, sizeof(shown), "-%c", *p);
    if (d->arg == OPT_ARG_NONE) {
      if (apply(c, d, NULL, shown) < 0)
        return -1;
      continue;
    }
    if (p[1])
      return apply(c, d, p + 1, shown);
    if (*i + 1 >= argc)
      return msg_error("option %s needs a value (%s)", shown, d->argname);
    return apply(c, d, argv[++*i], shown);
  }
  return 0;
}

int cli_parse(struct cli *c, int argc, char **argv)
{
  int i, only_args = 0;

  options_init(&c->opts);
  c->args = xcalloc((size_t)argc, sizeof(*c->args));
  c->n_args = 0;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];

    if (only_args || a[0] != '-' || !a[1]) {
      c->args[c->n_args++] = argv[i];
      continue;
    }
    if (!strcmp(a, "--")) {
      only_args = 1;
      continue;
    }
    if (a[1] == '-') {
      if (parse_long(c, argc, argv, &i) < 0)
        return -1;
    }
    else if (parse_short(c, argc, argv, &i) < 0) {
      return -1;
    }
  }
  options_finish(&c->opts);
  options_ca_from_env(&c->opts);
  return 0;
}

void cli_release(struct cli *c)
{
  options_release(&c->opts);
  free(c->args);
  c->args = NULL;
  c->n_args = 0;
}

void cli_usage(FILE *f)
{
  size_t i;

  fputs("usage: hopsplit [OPTIONS] URL|NAME=URL ...\n"
        "\n"
        "Measure where the time of an HTTP(S) request goes: DNS, TCP "
        "connect,\nTLS, send, wait and transfer of every redirect hop, in "
        "cold, warm\nand resumed requests.  Several URLs are compared "
        "side by side; the\nfirst is the baseline.\n\noptions:\n",
        f);
  for (i = 0; i < OPT_COUNT; i++) {
    const struct opt_def *d = &options_table[i];
    char left[64];

    if (d->short_name)
      snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name, d->name,
               d->argname ? " " : "", d->argname ? d->argname : "");
    else
      snprintf(left, sizeof(left), "    --%s%s%s", d->name,
               d->argname ? " " : "", d->argname ? d->argname : "");
    if (strlen(left) > 30)
      fprintf(f, "  %s\n  %-30s %s\n", left, "", d->help);
    else
      fprintf(f, "  %-30s %s\n", left, d->help);
  }
  fputs("\nDurations take us, ms or s; a bare number is seconds.\n"
        "Exit status: 0 ok, 2 usage error, 3 a sample failed, 4 setup "
        "error,\n130 interrupted.  See hopsplit(1).\n"
        "\ncommands (each has --help):\n"
        "  hopsplit run [OPTIONS] PROFILE.yaml ...     run YAML profiles\n"
        "  hopsplit report [--format F] [-o FILE] RESULTS.json\n"
        "                                              re-render saved "
        "results\n"
        "  hopsplit merge [--format F] [-o FILE] A.json B.json ...\n"
        "                                              one comparison across "
        "vantage points\n"
        "  hopsplit serve [--listen ADDR:PORT] [--config PROFILE.yaml]\n"
        "                                              prober for Prometheus "
        "(/probe, /metrics)\n",
        f);
}
