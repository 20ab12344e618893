/*
 * lib_options.c: libhopsplit's options handle (hopsplit(3)): the option
 * table's one setter (options_set), as the command line and profiles use
 * it, and the targets.
 */
#include <stdlib.h>
#include <string.h>

#include "lib_int.h"
#include "msg.h"
#include "option_table.h"
#include "profile.h"
#include "xalloc.h"
#include "banned.h"

struct hs_options *hs_options_new(void)
{
  struct hs_options *o = xcalloc(1, sizeof(*o));

  options_init(&o->opts);
  return o;
}

void hs_options_free(struct hs_options *o)
{
  size_t i;

  if (!o)
    return;
  options_release(&o->opts);
  if (o->prof) {
    profile_release(o->prof);
    free(o->prof);
  }
  for (i = 0; i < o->n_targets; i++)
    free(o->targets[i]);
  free(o->targets);
  free(o);
}

enum hs_code hs_options_set(struct hs_options *o, const char *name,
                            const char *value)
{
  const struct opt_def *d;
  char err[512];

  o->err[0] = '\0';
  d = name ? options_find_for(name, OPT_CMD_MEASURE) : NULL;
  if (!d) {
    const char *near = name ? options_suggest(name, OPT_CMD_MEASURE) : NULL;

    msg_set(o->err, sizeof(o->err), "unknown option '%s'%s%s%s",
            name ? name : "(null)", near ? " (did you mean '" : "",
            near ? near : "", near ? "'?)" : "");
    return HS_E_UNKNOWN_OPTION;
  }
  if (d->arg == OPT_ARG_REQUIRED && !value) {
    msg_set(o->err, sizeof(o->err), "option '%s' takes a value", d->name);
    return HS_E_BAD_VALUE;
  }
  if (d->arg == OPT_ARG_NONE && value) {
    msg_set(o->err, sizeof(o->err), "option '%s' takes no value", d->name);
    return HS_E_BAD_VALUE;
  }
  err[0] = '\0';
  if (options_set(&o->opts, d, value, err, sizeof(err)) < 0) {
    msg_set(o->err, sizeof(o->err), "option '%s': %s", d->name, err);
    return HS_E_BAD_VALUE;
  }
  return HS_OK;
}

enum hs_code hs_options_add_target(struct hs_options *o, const char *target)
{
  o->err[0] = '\0';
  if (!target) {
    msg_set(o->err, sizeof(o->err), "no target");
    return HS_E_BAD_VALUE;
  }
  /* An empty one is planning's error, as the command line's. */
  o->targets = xrealloc(o->targets, (o->n_targets + 1) * sizeof(*o->targets));
  o->targets[o->n_targets++] = xstrdup(target);
  return HS_OK;
}

const char *hs_options_error(const struct hs_options *o)
{
  return o->err;
}

/* ---- The command line's side (hopsplit.h) ---- */

_Static_assert((int)HS_COMMAND_MEASURE == (int)OPT_CMD_MEASURE &&
                   (int)HS_COMMAND_REPORT == (int)OPT_CMD_REPORT &&
                   (int)HS_COMMAND_MERGE == (int)OPT_CMD_MERGE &&
                   (int)HS_COMMAND_SERVE == (int)OPT_CMD_SERVE &&
                   (int)HS_COMMAND_COUNT == (int)OPT_CMD_COUNT,
               "hs_command and opt_cmd in the same order");

const struct options *lib_opts(const struct hs_options *o)
{
  return o->prof ? &o->prof->opts : &o->opts;
}

int lib_format_given(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_given; i++)
    if (o->given[i].def->id == OPT_FORMAT)
      return 1;
  return 0;
}

enum hs_code hs_option_info(size_t i, struct hs_option_info *out)
{
  const struct opt_def *d;

  memset(out, 0, sizeof(*out));
  if (i >= OPT_COUNT)
    return HS_E_RANGE;
  d = &options_table[i];
  out->name = d->name;
  out->short_name = d->short_name;
  out->takes_value = d->arg != OPT_ARG_NONE;
  out->argname = d->argname;
  out->help = d->help;
  /* enum hs_command and enum opt_cmd are in the same order. */
  out->commands = d->cmds;
  return HS_OK;
}

const char *hs_option_suggest(const char *name, enum hs_command cmd)
{
  if (!name || (unsigned)cmd >= HS_COMMAND_COUNT)
    return NULL;
  return options_suggest(name, (enum opt_cmd)cmd);
}

enum hs_code hs_options_finish(struct hs_options *o, enum hs_command cmd)
{
  char err[512];

  o->err[0] = '\0';
  if (options_finish(&o->opts, NULL, err, sizeof(err)) < 0) {
    msg_set(o->err, sizeof(o->err), "option -o: %s", err);
    return HS_E_BAD_VALUE;
  }
  /* report and merge replay the options recorded in the document. */
  if (cmd == HS_COMMAND_MEASURE || cmd == HS_COMMAND_SERVE)
    options_ca_from_env(&o->opts);
  return HS_OK;
}

enum hs_code hs_options_load_profile(struct hs_options *o, const char *path,
                                     const struct hs_options *over)
{
  struct profile *p = xcalloc(1, sizeof(*p));

  o->err[0] = '\0';
  profile_init(p);
  if (profile_load(p, path, over ? lib_opts(over) : NULL) < 0) {
    msg_set(o->err, sizeof(o->err), "%s",
            p->n_errors ? p->errors[0] : "the profile cannot be loaded");
    profile_release(p);
    free(p);
    return HS_E_BAD_VALUE;
  }
  if (o->prof) {
    profile_release(o->prof);
    free(o->prof);
  }
  o->prof = p;
  return HS_OK;
}

const char *hs_options_profile(const struct hs_options *o, const char **file)
{
  if (file)
    *file = o->prof ? o->prof->file : NULL;
  return o->prof ? o->prof->name : NULL;
}

long hs_options_query(const struct hs_options *ho, enum hs_query q)
{
  const struct options *o = lib_opts(ho);

  switch (q) {
  case HS_QUERY_HELP:
    return o->help;
  case HS_QUERY_VERSION:
    return o->version;
  case HS_QUERY_DRY_RUN:
    return o->dry_run;
  case HS_QUERY_VERBOSITY:
    return options_verbosity(o);
  case HS_QUERY_PROGRESS:
    if (o->progress == TRI_NEVER || o->verbosity < 0)
      return 0;
    return o->progress == TRI_ALWAYS ? 1 : -1;
  case HS_QUERY_TEXT_REPORT:
    return o->format == FORMAT_TEXT && (!o->write_out || lib_format_given(o));
  case HS_QUERY_COUNT:
    break;
  }
  return 0;
}

void hs_set_verbosity(int level)
{
  msg_verbosity = level;
}
