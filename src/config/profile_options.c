/*
 * profile_options.c: option keys of a profile (top level, defaults and
 * each target) as entries, replayed through options_set, the setter of
 * the command line, so a key and a flag cannot behave differently.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "buf.h"
#include "check.h"
#include "msg.h"
#include "option_table.h"
#include "profile.h"
#include "units.h"
#include "url.h"
#include "strutil.h"
#include "xalloc.h"
#include "profile_int.h"
#include "banned.h"

static void push_entry(struct entries *es, const struct opt_def *d,
                       const char *key, char *val, int off,
                       const yaml_node_t *at)
{
  struct entry *e;

  es->v = xgrow(es->v, &es->cap, es->n + 1, sizeof(*es->v));
  e = &es->v[es->n++];
  e->def = d;
  e->key = xstrdup(key);
  e->val = val;
  e->off = off;
  e->line = at->start_mark.line;
  e->col = at->start_mark.column;
}

void pf_entries_release(struct entries *es)
{
  size_t i;

  for (i = 0; i < es->n; i++) {
    free(es->v[i].key);
    free(es->v[i].val);
  }
  free(es->v);
  es->v = NULL;
  es->n = es->cap = 0;
}

/* Options a target may set for itself: what a request does.  The rest
 * concerns the whole run. */
static int per_target(enum opt_id id)
{
  switch (id) {
  case OPT_CACERT:
  case OPT_CAPATH:
  case OPT_CERT:
  case OPT_KEY:
  case OPT_COMPRESSED:
  case OPT_CONNECT_TIMEOUT:
  case OPT_DATA:
  case OPT_DATA_BINARY:
  case OPT_DATA_RAW:
  case OPT_DNS_SERVER:
  case OPT_FAIL:
  case OPT_HEAD:
  case OPT_HEADER:
  case OPT_HTTP1_1:
  case OPT_HTTP2:
  case OPT_HTTP3:
  case OPT_HTTP3_ONLY:
  case OPT_INSECURE:
  case OPT_IPV4:
  case OPT_IPV6:
  case OPT_JSON:
  case OPT_LOCATION:
  case OPT_LOCATION_TRUSTED:
  case OPT_MAX_REDIRS:
  case OPT_MAX_TIME:
  case OPT_NO_FOLLOW:
  case OPT_POST301:
  case OPT_POST302:
  case OPT_POST303:
  case OPT_PRIME:
  case OPT_REQUEST:
  case OPT_RESOLVE:
  case OPT_UPLOAD_FILE:
  case OPT_USER_AGENT:
    return 1;
  default:
    return 0;
  }
}

/* Profile spellings of options: plural lists and the method. */
const char *pf_alias(const char *key)
{
  if (!strcmp(key, "headers"))
    return "header";
  if (!strcmp(key, "method"))
    return "request";
  if (!strcmp(key, "modes"))
    return "mode";
  if (!strcmp(key, "outputs"))
    return "output";
  return key;
}

/* A scalar of a list (or of a header map) for option key, expanded. */
static char *list_item(struct loader *L, const char *key,
                       const yaml_node_t *it)
{
  if (it->type != YAML_SCALAR_NODE || pf_is_null(it)) {
    complain(L, it, "expected a single value in the list of '%s', not %s", key,
             pf_is_null(it) ? "an empty one" : pf_type_name(it));
    return NULL;
  }
  return pf_value(L, it);
}

/* The value v of option d, given as key k, into es. */
void pf_option_value(struct loader *L, const yaml_node_t *k,
                     const yaml_node_t *v, const struct opt_def *d,
                     struct entries *es)
{
  const char *key = pf_text(k);
  yaml_node_item_t *it;
  char *val;

  if (pf_is_null(v)) {
    complain(L, k, "'%s' has no value", key);
    return;
  }
  if (d->arg == OPT_ARG_NONE) {
    int b = pf_boolean(v);

    if (b < 0) {
      if (v->type == YAML_SCALAR_NODE)
        complain(L, v, "'%s' is a flag: expected true or false, not '%s'", key,
                 pf_text(v));
      else
        complain(L, v, "'%s' is a flag: expected true or false, not %s", key,
                 pf_type_name(v));
      return;
    }
    push_entry(es, d, key, NULL, !b, v);
    return;
  }
  if (d->id == OPT_HEADER && v->type == YAML_MAPPING_NODE) {
    yaml_node_pair_t *pr;

    for (pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top;
         pr++) {
      yaml_node_t *hk = pf_node(L, pr->key), *hv = pf_node(L, pr->value);
      const char *name = pf_key_of(L, hk);

      if (!name || pf_duplicate(L, v, pr))
        continue;
      if (hv->type != YAML_SCALAR_NODE) {
        complain(L, hv, "header '%s': expected a single value, not %s", name,
                 pf_type_name(hv));
        continue;
      }
      val = pf_is_null(hv) ? xstrdup("") : pf_value(L, hv);
      if (val) {
        char *h = xasprintf("%s: %s", name, val);

        free(val);
        push_entry(es, d, key, h, 0, hk);
      }
    }
    return;
  }
  if (v->type == YAML_SEQUENCE_NODE) {
    int repeat = d->id == OPT_HEADER || d->id == OPT_RESOLVE ||
                 d->id == OPT_OUTPUT || d->id == OPT_PRIME;
    int join =
        d->id == OPT_MODE || d->id == OPT_DNS_SERVER || d->id == OPT_PROJECT;
    struct buf b;
    int ok = 1;

    if (!repeat && !join) {
      complain(L, v, "'%s' takes a single value, not a list", key);
      return;
    }
    if (v->data.sequence.items.start == v->data.sequence.items.top) {
      complain(L, v, "'%s' is an empty list", key);
      return;
    }
    buf_init(&b, 0);
    for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++) {
      yaml_node_t *in = pf_node(L, *it);

      val = list_item(L, key, in);
      if (!val) {
        ok = 0;
        continue;
      }
      if (repeat) {
        push_entry(es, d, key, val, 0, in);
        continue;
      }
      buf_printf(&b, "%s%s", b.len ? "," : "", val);
      free(val);
    }
    if (join && ok)
      push_entry(es, d, key, buf_detach(&b), 0, v);
    buf_release(&b);
    return;
  }
  if (v->type != YAML_SCALAR_NODE) {
    complain(L, v, "'%s' takes %s, not %s", key,
             d->id == OPT_HEADER ? "a map of names to values" : "a value",
             pf_type_name(v));
    return;
  }
  val = pf_value(L, v);
  if (val)
    push_entry(es, d, key, val, 0, v);
}

/* An option key k with value v, under defaults (target 0) or in a target
 * (target 1). */
void pf_option_pair(struct loader *L, const yaml_node_t *k,
                    const yaml_node_t *v, int target)
{
  const char *key = pf_text(k);
  const struct opt_def *d = options_find_for(pf_alias(key), OPT_CMD_MEASURE);
  struct entries *es = target ? &L->t[L->n_t - 1].e : &L->glob;

  if (!d) {
    static const char *const spellings[] = {"name",   "url",   "headers",
                                            "method", "modes", "outputs"};
    const char *hint =
        str_closest(key, spellings + (target ? 0 : 2), target ? 6 : 4);

    if (!hint)
      hint = options_suggest(key, OPT_CMD_MEASURE);
    if (hint)
      complain(L, k, "unknown option '%s' (did you mean '%s'?)", key, hint);
    else
      complain(L, k,
               "unknown option '%s' (options are the long names of "
               "hopsplit --help)",
               key);
    return;
  }
  if (d->id == OPT_HELP || d->id == OPT_VERSION || d->id == OPT_DRY_RUN) {
    complain(L, k, "'%s' belongs on the command line, not in a profile", key);
    return;
  }
  if (d->id == OPT_PROTOCOLS) {
    complain(L, k,
             "'protocols' belongs on the command line: in a profile, write "
             "one target per protocol (http2: true, http3-only: true)");
    return;
  }
  if (target && !per_target(d->id)) {
    complain(L, k,
             "'%s' applies to the whole run, not to one target: set "
             "it under 'defaults'",
             key);
    return;
  }
  pf_option_value(L, k, v, d, es);
}

/*
 * Build o: the entries of a, then those of b (may be NULL), through the
 * setter; problems of a are reported only when report_a is set (they are
 * the same for every target).  Then the command line, which wins.
 */
void pf_build_options(struct loader *L, struct options *o,
                      const struct entries *a, const struct entries *b,
                      int report_a, const struct options *cli)
{
  size_t n = a->n + (b ? b->n : 0), i, bad = 0;
  size_t last_off[OPT_COUNT];
  char err[512];

  /* An entry is undone by a later "flag: false" of the same option: the
   * last of those per option, found in one pass. */
  memset(last_off, 0, sizeof(last_off));
  for (i = 0; i < n; i++) {
    const struct entry *e = i < a->n ? &a->v[i] : &b->v[i - a->n];

    if (e->off)
      last_off[e->def->id] = i + 1;
  }
  options_init(o);
  for (i = 0; i < n; i++) {
    const struct entry *e = i < a->n ? &a->v[i] : &b->v[i - a->n];

    if (e->off || last_off[e->def->id] > i)
      continue;
    err[0] = '\0';
    if (options_set(o, e->def, e->val, err, sizeof(err)) < 0 &&
        (report_a || i >= a->n))
      pf_problem_at(L, e->line, e->col, "%s: %s", e->key, err);
  }
  for (i = 0; cli && i < cli->n_given; i++)
    options_override(o, cli->given[i].def, cli->given[i].val, err,
                     sizeof(err));
  /* Every output without a report's extension is a problem, each said
   * at the entry that named it (the profile is refused, so the format
   * set to go on does not matter); from the command line, where
   * cli_parse would have refused it, there is none. */
  while (options_finish(o, &bad, err, sizeof(err)) < 0) {
    o->outputs[bad].format = FORMAT_TEXT;
    for (i = 0; i < n && report_a; i++) {
      const struct entry *e = i < a->n ? &a->v[i] : &b->v[i - a->n];

      if (e->def->id == OPT_OUTPUT && e->val &&
          !strcmp(e->val, o->outputs[bad].path)) {
        pf_problem_at(L, e->line, e->col, "%s: %s", e->key, err);
        break;
      }
    }
  }
  options_ca_from_env(o);
}
