/*
 * cli.c: the command line of every command (the URL form, run, report,
 * merge, serve).  Input: argv and the command.  Output: struct options
 * (through the one option table and setter) and the positional
 * arguments.  As curl's and git's parsers: short flags bundle (-sSv), a
 * short option's value may follow it (-n5, -n 5), a long one's after '='
 * (--rounds=5) or as the next argument, and "--" ends the options.  Each
 * command takes the options whose table row names it (opt_def.cmds).
 * Usage errors name the option and the value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "cli.h"
#include "msg.h"
#include "option_table.h"
#include "xalloc.h"
#include "banned.h"

/* The names of the commands in messages ("report: unknown option ..."):
 * the URL form and run say none. */
static const char *const cmd_names[OPT_CMD_COUNT] = {"", "report", "merge",
                                                     "serve"};
/* What the commands other than the URL form are for, in the message
 * about an option they do not take. */
static const char *const cmd_what[OPT_CMD_COUNT] = {
    "", "re-renders a saved document", "merges saved documents",
    "measures as Prometheus asks"};

static int apply(struct cli *c, const struct opt_def *d, const char *val,
                 const char *shown)
{
  char err[512];

  err[0] = '\0';
  if (options_set(&c->opts, d, val, err, sizeof(err)) < 0)
    return msg_error("option %s: %s", shown, err);
  return 0;
}

/*
 * Options of the curl tool that hopsplit does not take, each with what
 * hopsplit does instead, so that a curl command line pasted in gets an
 * answer rather than "unknown option".  Sorted by long name.
 */
static const struct {
  const char *name;
  char short_name;
  const char *instead;
} curl_only[] = {
    {"compressed-ssh", 0, "hopsplit measures HTTP(S) only"},
    {"config", 'K', "a batch is a YAML profile: hopsplit run PROFILE.yaml"},
    {"cookie", 'b', "send it as a header: -H 'Cookie: NAME=VALUE'"},
    {"cookie-jar", 'c',
     "hopsplit keeps no cookies: every sample starts "
     "alike"},
    {"create-dirs", 0,
     "-o FILE is a report; hopsplit run creates the "
     "directories of a profile's outputs"},
    {"data-urlencode", 0, "encode it yourself and give it with --data-raw"},
    {"form", 'F',
     "multipart bodies are not built: give the encoded body "
     "with --data-binary @FILE and -H 'Content-Type: ...'"},
    {"get", 'G', "put the data in the URL's query"},
    {"http0.9", 0,
     "hopsplit speaks HTTP/1.1, HTTP/2 and HTTP/3 (--http1.1, "
     "--http2, --http3)"},
    {"http1", 0, "did you mean --http1.1?"},
    {"http1.0", 0,
     "hopsplit speaks HTTP/1.1, HTTP/2 and HTTP/3 (--http1.1, "
     "--http2, --http3)"},
    {"interface", 0, "hopsplit uses the route the system picks"},
    {"netrc", 0, "give credentials with -H 'Authorization: ...'"},
    {"no-keepalive", 0,
     "warm mode measures kept connections, cold mode new "
     "ones (--mode)"},
    {"noproxy", 0,
     "hopsplit never uses a proxy: it measures the direct "
     "path"},
    {"parallel", 'Z',
     "samples run one at a time, interleaved (--order); batches of "
     "targets take --parallel N"},
    {"progress-bar", '#', "--progress always"},
    {"proxy", 'x',
     "hopsplit never uses a proxy: it measures the direct "
     "path"},
    {"range", 'r', "send it as a header: -H 'Range: bytes=0-99'"},
    {"referer", 'e', "send it as a header: -H 'Referer: URL'"},
    {"remote-name", 'O', "bodies are counted, never stored"},
    {"retry", 0, "a failure is a sample, counted in the report"},
    {"url", 0, "give the URL as an argument"},
    {"user", 'u',
     "send it as a header: -H 'Authorization: Basic "
     "BASE64(USER:PASSWORD)'"},
};
#define N_CURL_ONLY (ARRAY_SIZE(curl_only))

/* The answer for a curl option hopsplit does not take, or NULL. */
static const char *curl_instead(const char *name, char short_name)
{
  size_t i;

  for (i = 0; i < N_CURL_ONLY; i++)
    if ((name && !strcmp(name, curl_only[i].name)) ||
        (!name && short_name && short_name == curl_only[i].short_name))
      return curl_only[i].instead;
  return NULL;
}

/* An option the command does not take: what is wrong, and what to do
 * (curl's answer for its own options, a near miss of the command's). */
static int refuse(const struct cli *c, const char *dashes, const char *name,
                  char short_name, const struct opt_def *known)
{
  const char *instead = curl_instead(short_name ? NULL : name, short_name);
  const char *hint = short_name ? NULL : options_suggest(name, c->cmd);
  const char *cmd = cmd_names[c->cmd];
  char shown[80];

  if (short_name)
    snprintf(shown, sizeof(shown), "-%c", short_name);
  else
    snprintf(shown, sizeof(shown), "%s%s", dashes, name);
  if (c->cmd == OPT_CMD_MEASURE) {
    if (instead)
      return msg_error("curl's option '%s' is not hopsplit's: %s", shown,
                       instead);
    if (known)
      return msg_error("unknown option '%s': it is hopsplit serve's (see "
                       "hopsplit serve --help)",
                       shown);
    if (hint)
      return msg_error("unknown option '%s' (did you mean '--%s'?)", shown,
                       hint);
    return msg_error("unknown option '%s' (see hopsplit --help)", shown);
  }
  if (known && hint && !strcmp(hint, name))
    hint = NULL;
  if (known)
    return msg_error("%s: unknown option '%s': hopsplit %s %s, it does not "
                     "measure (see hopsplit %s --help)",
                     cmd, shown, cmd, cmd_what[c->cmd], cmd);
  if (hint)
    return msg_error("%s: unknown option '%s' (did you mean '--%s'?)", cmd,
                     shown, hint);
  return msg_error("%s: unknown option '%s' (see hopsplit %s --help)", cmd,
                   shown, cmd);
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
    return refuse(c, "", argv[*i], 0, NULL);
  memcpy(name, arg, len);
  name[len] = '\0';
  d = options_find(name);
  if (!d || !(d->cmds & OPT_IN(c->cmd)))
    return refuse(c, "--", name, 0, d);
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

static int all_digits(const char *s)
{
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

static int parse_short(struct cli *c, int argc, char **argv, int *i)
{
  const char *p = argv[*i] + 1;

  for (; *p; p++) {
    const struct opt_def *d = options_find_short(*p);
    char shown[80];

    if (!d || !(d->cmds & OPT_IN(c->cmd)))
      return refuse(c, "-", "", *p, d);
    snprintf(shown, sizeof(shown), "-%c", *p);
    if (d->arg == OPT_ARG_NONE) {
      if (apply(c, d, NULL, shown) < 0)
        return -1;
      /* "-L 5" from before -L became curl's flag: 5 would be a target. */
      if (d->id == OPT_LOCATION && !p[1] && *i + 1 < argc &&
          all_digits(argv[*i + 1]))
        return msg_error("option -L takes no value ('%s'): the number of "
                         "redirects is --max-redirs %s",
                         argv[*i + 1], argv[*i + 1]);
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

int cli_parse(struct cli *c, enum opt_cmd cmd, int argc, char **argv)
{
  int i, only_args = 0;
  char err[512];

  options_init(&c->opts);
  c->cmd = cmd;
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
  if (options_finish(&c->opts, NULL, err, sizeof(err)) < 0)
    return msg_error("option -o: %s", err);
  /* report and merge replay the options recorded in the document. */
  if (cmd == OPT_CMD_MEASURE || cmd == OPT_CMD_SERVE)
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

/* "  LEFT  HELP" in 80 columns: HELP starts at column 32 and wraps there;
 * a LEFT too long for its column gets a line of its own. */
static void help_line(FILE *f, const char *left, const char *help)
{
  const char *p = help;
  int col;

  if (strlen(left) > 28)
    fprintf(f, "  %s\n%32s", left, "");
  else
    fprintf(f, "  %-28s  ", left);
  col = 32;
  while (*p) {
    size_t len = strcspn(p, " ");

    if (col > 32 && col + 1 + (int)len > 80) {
      fprintf(f, "\n%32s", "");
      col = 32;
    }
    else if (col > 32) {
      fputc(' ', f);
      col++;
    }
    fprintf(f, "%.*s", (int)len, p);
    col += (int)len;
    p += len;
    while (*p == ' ')
      p++;
  }
  fputc('\n', f);
}

void cli_usage_options(FILE *f, enum opt_cmd cmd, unsigned except)
{
  size_t i;

  for (i = 0; i < OPT_COUNT; i++) {
    const struct opt_def *d = &options_table[i];
    char left[64];

    if (!(d->cmds & OPT_IN(cmd)) || (d->cmds & except))
      continue;
    if (d->short_name)
      snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name, d->name,
               d->argname ? " " : "", d->argname ? d->argname : "");
    else
      snprintf(left, sizeof(left), "    --%s%s%s", d->name,
               d->argname ? " " : "", d->argname ? d->argname : "");
    help_line(f, left, d->help);
  }
}
