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
  for (i = 0; i < o->n_targets; i++)
    free(o->targets[i]);
  free(o->targets);
  free(o);
}

enum hs_code hs_options_set(struct hs_options *o, const char *name,
                            const char *value)
{
  const struct opt_def *d;
  char err[448];

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
  if (!target || !*target) {
    msg_set(o->err, sizeof(o->err), "an empty target");
    return HS_E_BAD_VALUE;
  }
  o->targets = xrealloc(o->targets, (o->n_targets + 1) * sizeof(*o->targets));
  o->targets[o->n_targets++] = xstrdup(target);
  return HS_OK;
}

const char *hs_options_error(const struct hs_options *o)
{
  return o->err;
}
