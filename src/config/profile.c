/*
 * profile.c: a YAML profile -> struct profile (SPEC 6, hopsplit-profile(5)).
 * Input: the bytes of one file, read with libyaml's document API, and the
 * options of the command line.  Output: the options of the run and of each
 * target, built by replaying every key through options_set (the setter of
 * the command line), then the command line over them; and the checks.
 *
 * Every problem is collected with its place in the file and printed at the
 * end, sorted, as "FILE:LINE:COL: message"; libyaml's marks are 0-based.
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
#include "plan.h"
#include "profile.h"
#include "units.h"
#include "url.h"
#include "strutil.h"
#include "xalloc.h"
#include "banned.h"

static const char *const top_keys[] = {
    "name",  "rounds",   "modes",   "order",  "seed",
    "pause", "defaults", "targets", "checks", "outputs"};
#define N_TOP_KEYS (sizeof(top_keys) / sizeof(top_keys[0]))

static const char *const check_keys[] = {"target", "metric",  "mode",
                                         "max",    "min",     "cache",
                                         "hop",    "compare", "verdict"};
#define N_CHECK_KEYS (sizeof(check_keys) / sizeof(check_keys[0]))

static const char *const cache_keys[] = {"not", "is", "hop"};
#define N_CACHE_KEYS (sizeof(cache_keys) / sizeof(cache_keys[0]))

/* One problem; line and col are 0-based as libyaml's marks. */
struct problem {
  size_t line, col, seq;
  char *msg;
};

/* One option as the profile gives it, applied later through options_set.
 * A flag set to false (off) undoes the same flag given before it. */
struct entry {
  const struct opt_def *def;
  char *key; /* as written, for messages */
  char *val; /* NULL for a flag */
  int off;
  size_t line, col;
};

struct entries {
  struct entry *v;
  size_t n;
};

struct tspec {
  char *name;
  char *url;
  struct entries e;
  size_t line, col;
};

struct loader {
  struct profile *p;
  const char *file;
  yaml_document_t *doc;
  struct problem *probs;
  size_t n_probs;
  struct entries glob; /* top level and defaults, in file order */
  struct tspec *t;
  size_t n_t;
  yaml_node_t **checks;
  size_t n_checks;
  int have_targets;
  unsigned own_modes; /* the modes of the profile, before the command line */
};

static void problem_at(struct loader *L, size_t line, size_t col,
                       const char *fmt, ...) MSG_PRINTF(4, 5);

static void problem_at(struct loader *L, size_t line, size_t col,
                       const char *fmt, ...)
{
  struct problem *pr;
  struct buf b;
  va_list ap;

  buf_init(&b, 0);
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  L->probs = xrealloc(L->probs, (L->n_probs + 1) * sizeof(*L->probs));
  pr = &L->probs[L->n_probs];
  pr->line = line;
  pr->col = col;
  pr->seq = L->n_probs++;
  pr->msg = buf_detach(&b);
}

#define complain(L, n, ...)                                                   \
  problem_at((L), (n)->start_mark.line, (n)->start_mark.column, __VA_ARGS__)

static yaml_node_t *node(struct loader *L, int id)
{
  return yaml_document_get_node(L->doc, id);
}

static const char *type_name(const yaml_node_t *n)
{
  switch (n->type) {
  case YAML_MAPPING_NODE:
    return "a mapping";
  case YAML_SEQUENCE_NODE:
    return "a list";
  default:
    return "a single value";
  }
}

static const char *text(const yaml_node_t *n)
{
  return (const char *)n->data.scalar.value;
}

static int is_null(const yaml_node_t *n)
{
  const char *s;

  if (n->type != YAML_SCALAR_NODE ||
      n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return 0;
  s = text(n);
  return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
         !strcmp(s, "NULL");
}

/*
 * Where byte at of the value of scalar n is in the file: exact for a
 * scalar on one line whose source length matches its value (no escapes,
 * no folding), else the start of the scalar.
 */
static void scalar_pos(const yaml_node_t *n, size_t at, size_t *line,
                       size_t *col)
{
  size_t q = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                     n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE
                 ? 1
                 : 0;

  *line = n->start_mark.line;
  *col = n->start_mark.column;
  if (n->start_mark.line == n->end_mark.line &&
      n->end_mark.column - n->start_mark.column ==
          n->data.scalar.length + 2 * q)
    *col += q + at;
}

char *profile_expand(const char *s, char *err, size_t errlen, size_t *at)
{
  struct buf b;
  const char *p = s;

  buf_init(&b, 0);
  while (*p) {
    const char *end, *q, *val, *dflt;
    char name[128];
    size_t len;

    if (p[0] == '$' && p[1] == '$' && p[2] == '{') {
      buf_puts(&b, "${");
      p += 3;
      continue;
    }
    if (p[0] != '$' || p[1] != '{') {
      buf_putc(&b, *p++);
      continue;
    }
    end = strchr(p + 2, '}');
    if (!end) {
      snprintf(err, errlen, "'${' without a closing '}'");
      goto fail;
    }
    /* ${NAME:-default}: the default (no '}' in it) when NAME is unset or
     * empty, as in sh. */
    for (q = p + 2; q < end; q++)
      if (!(*q == '_' || (*q >= 'A' && *q <= 'Z') ||
            (*q >= 'a' && *q <= 'z') || (q > p + 2 && *q >= '0' && *q <= '9')))
        break;
    len = (size_t)(q - p - 2);
    dflt = q + 1 < end && q[0] == ':' && q[1] == '-' ? q + 2 : NULL;
    if (!len && (dflt || q == end)) {
      snprintf(err, errlen, "empty variable name in '%.*s'",
               (int)(end - p + 1 > 64 ? 64 : end - p + 1), p);
      goto fail;
    }
    if ((q < end && !dflt) || len >= sizeof(name)) {
      snprintf(err, errlen,
               "bad variable name '%.*s' (letters, digits and '_', not "
               "starting with a digit)",
               (int)(end - p - 2 > 64 ? 64 : end - p - 2), p + 2);
      goto fail;
    }
    memcpy(name, p + 2, len);
    name[len] = '\0';
    val = getenv(name);
    if (dflt && (!val || !*val)) {
      buf_add(&b, dflt, (size_t)(end - dflt));
      p = end + 1;
      continue;
    }
    if (!val) {
      snprintf(err, errlen, "environment variable '%s' is not set", name);
      goto fail;
    }
    buf_puts(&b, val);
    p = end + 1;
  }
  return buf_detach(&b);
fail:
  if (at)
    *at = (size_t)(p - s);
  buf_release(&b);
  return NULL;
}

/* The value of scalar n with ${VAR} expanded, or NULL after a problem. */
static char *value(struct loader *L, const yaml_node_t *n)
{
  char err[256];
  size_t at = 0, line, col;
  char *v;

  if (strlen(text(n)) != n->data.scalar.length) {
    complain(L, n, "value contains a NUL character");
    return NULL;
  }
  v = profile_expand(text(n), err, sizeof(err), &at);
  if (!v) {
    scalar_pos(n, at, &line, &col);
    problem_at(L, line, col, "%s", err);
  }
  return v;
}

/* The text of a key node, or NULL after a problem (not a scalar). */
static const char *key_of(struct loader *L, const yaml_node_t *k)
{
  if (k->type != YAML_SCALAR_NODE) {
    complain(L, k, "a key must be a name, not %s", type_name(k));
    return NULL;
  }
  return text(k);
}

/* Whether the key of pair repeats a key before it in mapping m; says so. */
static int duplicate(struct loader *L, const yaml_node_t *m,
                     const yaml_node_pair_t *pair)
{
  const yaml_node_pair_t *q;
  yaml_node_t *k = node(L, pair->key);

  if (k->type != YAML_SCALAR_NODE)
    return 0;
  for (q = m->data.mapping.pairs.start; q < pair; q++) {
    yaml_node_t *o = node(L, q->key);

    if (o->type == YAML_SCALAR_NODE && !strcmp(text(o), text(k))) {
      complain(L, k, "duplicate key '%s' (first at line %lu)", text(k),
               (unsigned long)o->start_mark.line + 1);
      return 1;
    }
  }
  return 0;
}

/* "unknown key 'k'IN (did you mean 'x'?)" or "(expected ...)". */
static void unknown_key(struct loader *L, const yaml_node_t *k, const char *in,
                        const char *const *names, size_t n)
{
  const char *hint = str_closest(text(k), names, n);
  struct buf b;
  size_t i;

  if (hint) {
    complain(L, k, "unknown key '%s'%s (did you mean '%s'?)", text(k), in,
             hint);
    return;
  }
  buf_init(&b, 0);
  for (i = 0; i < n; i++)
    buf_printf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
  complain(L, k, "unknown key '%s'%s (expected %s)", text(k), in, b.s);
  buf_release(&b);
}

static void push_entry(struct entries *es, const struct opt_def *d,
                       const char *key, char *val, int off,
                       const yaml_node_t *at)
{
  struct entry *e;

  es->v = xrealloc(es->v, (es->n + 1) * sizeof(*es->v));
  e = &es->v[es->n++];
  e->def = d;
  e->key = xstrdup(key);
  e->val = val;
  e->off = off;
  e->line = at->start_mark.line;
  e->col = at->start_mark.column;
}

static void entries_release(struct entries *es)
{
  size_t i;

  for (i = 0; i < es->n; i++) {
    free(es->v[i].key);
    free(es->v[i].val);
  }
  free(es->v);
  es->v = NULL;
  es->n = 0;
}

/* true/false (YAML 1.1 also allows yes/no and on/off); -1 otherwise. */
static int boolean(const yaml_node_t *n)
{
  static const char *const yes[] = {"true", "yes", "on"};
  static const char *const no[] = {"false", "no", "off"};
  size_t i;

  if (n->type != YAML_SCALAR_NODE)
    return -1;
  for (i = 0; i < 3; i++) {
    if (!strcasecmp(text(n), yes[i]))
      return 1;
    if (!strcasecmp(text(n), no[i]))
      return 0;
  }
  return -1;
}

/* Options a target may set for itself: what a request does.  The rest
 * concerns the whole run. */
static int per_target(enum opt_id id)
{
  switch (id) {
  case OPT_CACERT:
  case OPT_CAPATH:
  case OPT_COMPRESSED:
  case OPT_CONNECT_TIMEOUT:
  case OPT_DNS_SERVER:
  case OPT_HEADER:
  case OPT_HTTP1_1:
  case OPT_HTTP2:
  case OPT_INSECURE:
  case OPT_IPV4:
  case OPT_IPV6:
  case OPT_LOCATION_TRUSTED:
  case OPT_MAX_REDIRS:
  case OPT_MAX_TIME:
  case OPT_NO_FOLLOW:
  case OPT_REQUEST:
  case OPT_RESOLVE:
  case OPT_USER_AGENT:
    return 1;
  default:
    return 0;
  }
}

/* Profile spellings of options: plural lists and the method. */
static const char *alias(const char *key)
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
  if (it->type != YAML_SCALAR_NODE || is_null(it)) {
    complain(L, it, "expected a single value in the list of '%s', not %s", key,
             is_null(it) ? "an empty one" : type_name(it));
    return NULL;
  }
  return value(L, it);
}

/* The value v of option d, given as key k, into es. */
static void option_value(struct loader *L, const yaml_node_t *k,
                         const yaml_node_t *v, const struct opt_def *d,
                         struct entries *es)
{
  const char *key = text(k);
  yaml_node_item_t *it;
  char *val;

  if (is_null(v)) {
    complain(L, k, "'%s' has no value", key);
    return;
  }
  if (d->arg == OPT_ARG_NONE) {
    int b = boolean(v);

    if (b < 0) {
      if (v->type == YAML_SCALAR_NODE)
        complain(L, v, "'%s' is a flag: expected true or false, not '%s'", key,
                 text(v));
      else
        complain(L, v, "'%s' is a flag: expected true or false, not %s", key,
                 type_name(v));
      return;
    }
    push_entry(es, d, key, NULL, !b, v);
    return;
  }
  if (d->id == OPT_HEADER && v->type == YAML_MAPPING_NODE) {
    yaml_node_pair_t *pr;

    for (pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top;
         pr++) {
      yaml_node_t *hk = node(L, pr->key), *hv = node(L, pr->value);
      const char *name = key_of(L, hk);

      if (!name || duplicate(L, v, pr))
        continue;
      if (hv->type != YAML_SCALAR_NODE) {
        complain(L, hv, "header '%s': expected a single value, not %s", name,
                 type_name(hv));
        continue;
      }
      val = is_null(hv) ? xstrdup("") : value(L, hv);
      if (val) {
        char *h = xasprintf("%s: %s", name, val);

        free(val);
        push_entry(es, d, key, h, 0, hk);
      }
    }
    return;
  }
  if (v->type == YAML_SEQUENCE_NODE) {
    int repeat =
        d->id == OPT_HEADER || d->id == OPT_RESOLVE || d->id == OPT_OUTPUT;
    int join = d->id == OPT_MODE || d->id == OPT_DNS_SERVER;
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
      yaml_node_t *in = node(L, *it);

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
             type_name(v));
    return;
  }
  val = value(L, v);
  if (val)
    push_entry(es, d, key, val, 0, v);
}

/* An option key k with value v, under defaults (target 0) or in a target
 * (target 1). */
static void option_pair(struct loader *L, const yaml_node_t *k,
                        const yaml_node_t *v, int target)
{
  const char *key = text(k);
  const struct opt_def *d = options_find(alias(key));
  struct entries *es = target ? &L->t[L->n_t - 1].e : &L->glob;

  if (!d) {
    static const char *const spellings[] = {"name",   "url",   "headers",
                                            "method", "modes", "outputs"};
    const char *hint =
        str_closest(key, spellings + (target ? 0 : 2), target ? 6 : 4);

    if (!hint)
      hint = options_suggest(key);
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
  if (target && !per_target(d->id)) {
    complain(L, k,
             "'%s' applies to the whole run, not to one target: set "
             "it under 'defaults'",
             key);
    return;
  }
  option_value(L, k, v, d, es);
}

static int name_ok(const char *s)
{
  const char *p;

  if (!*s)
    return 0;
  for (p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || strchr("_.-", *p)))
      return 0;
  return 1;
}

static void check_url(struct loader *L, const yaml_node_t *n, const char *raw)
{
  char msg[1024];

  if (url_target_problem(raw, msg, sizeof(msg)) < 0)
    complain(L, n, "%s", msg);
}

static void load_target(struct loader *L, const yaml_node_t *m)
{
  yaml_node_pair_t *pr;
  struct tspec *ts;
  const yaml_node_t *name_node = NULL;
  size_t i;
  int has_url = 0;

  if (m->type != YAML_MAPPING_NODE) {
    complain(L, m, "a target is a mapping with 'name' and 'url', not %s",
             type_name(m));
    return;
  }
  L->t = xrealloc(L->t, (L->n_t + 1) * sizeof(*L->t));
  ts = &L->t[L->n_t++];
  memset(ts, 0, sizeof(*ts));
  ts->line = m->start_mark.line;
  ts->col = m->start_mark.column;
  for (pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = node(L, pr->key), *v = node(L, pr->value);
    const char *key = key_of(L, k);
    char **slot;

    if (!key || duplicate(L, m, pr))
      continue;
    if (strcmp(key, "name") && strcmp(key, "url")) {
      option_pair(L, k, v, 1);
      continue;
    }
    if (!strcmp(key, "url"))
      has_url = 1;
    if (v->type != YAML_SCALAR_NODE || is_null(v)) {
      complain(L, is_null(v) ? k : v, "'%s' of a target takes a value, not %s",
               key, is_null(v) ? "nothing" : type_name(v));
      continue;
    }
    slot = !strcmp(key, "name") ? &ts->name : &ts->url;
    *slot = value(L, v);
    if (!*slot)
      continue;
    if (slot == &ts->url) {
      check_url(L, v, ts->url);
      continue;
    }
    name_node = v;
    if (!name_ok(ts->name)) {
      complain(L, v,
               "bad target name '%s' (letters, digits, '_', '.' and "
               "'-')",
               ts->name);
      continue;
    }
    for (i = 0; i + 1 < L->n_t; i++)
      if (L->t[i].name && !strcmp(L->t[i].name, ts->name))
        complain(L, v, "target name '%s' is used twice (first at line %lu)",
                 ts->name, (unsigned long)L->t[i].line + 1);
  }
  if (!has_url && ts->name)
    complain(L, m, "target '%s' has no 'url'", ts->name);
  else if (!has_url)
    complain(L, m, "target %zu has no 'url'", L->n_t);
  if (!ts->name && !name_node)
    ts->name = xasprintf("t%zu", L->n_t);
}

/* outputs, modes and the top-level options that go through the table. */
static void top_option(struct loader *L, const yaml_node_t *k,
                       const yaml_node_t *v)
{
  option_value(L, k, v, options_find(alias(text(k))), &L->glob);
}

static void load_top(struct loader *L, const yaml_node_t *root)
{
  yaml_node_pair_t *pr;
  yaml_node_item_t *it;

  if (root->type != YAML_MAPPING_NODE) {
    complain(L, root,
             "a profile is a mapping of keys such as 'targets' and "
             "'rounds', not %s",
             type_name(root));
    return;
  }
  for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = node(L, pr->key), *v = node(L, pr->value);
    const char *key = key_of(L, k);

    if (!key || duplicate(L, root, pr))
      continue;
    if (!strcmp(key, "name")) {
      if (v->type != YAML_SCALAR_NODE || is_null(v)) {
        complain(L, is_null(v) ? k : v, "'name' takes a value, not %s",
                 is_null(v) ? "nothing" : type_name(v));
        continue;
      }
      free(L->p->name);
      L->p->name = value(L, v);
    }
    else if (!strcmp(key, "rounds") || !strcmp(key, "modes") ||
             !strcmp(key, "order") || !strcmp(key, "seed") ||
             !strcmp(key, "pause") || !strcmp(key, "outputs")) {
      top_option(L, k, v);
    }
    else if (!strcmp(key, "defaults")) {
      yaml_node_pair_t *dp;

      if (v->type != YAML_MAPPING_NODE) {
        if (!is_null(v))
          complain(L, v, "'defaults' is a mapping of options, not %s",
                   type_name(v));
        continue;
      }
      for (dp = v->data.mapping.pairs.start; dp < v->data.mapping.pairs.top;
           dp++) {
        yaml_node_t *dk = node(L, dp->key);

        if (key_of(L, dk) && !duplicate(L, v, dp))
          option_pair(L, dk, node(L, dp->value), 0);
      }
    }
    else if (!strcmp(key, "targets")) {
      L->have_targets = 1;
      if (is_null(v) ||
          (v->type == YAML_SEQUENCE_NODE &&
           v->data.sequence.items.start == v->data.sequence.items.top)) {
        complain(L, k,
                 "'targets' is empty (a profile measures at least "
                 "one URL)");
        continue;
      }
      if (v->type != YAML_SEQUENCE_NODE) {
        complain(L, v,
                 "'targets' is a list of targets, each with a 'url', "
                 "not %s",
                 type_name(v));
        continue;
      }
      for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
           it++)
        load_target(L, node(L, *it));
    }
    else if (!strcmp(key, "checks")) {
      if (is_null(v))
        continue;
      if (v->type != YAML_SEQUENCE_NODE) {
        complain(L, v, "'checks' is a list of checks, not %s", type_name(v));
        continue;
      }
      for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
           it++) {
        L->checks =
            xrealloc(L->checks, (L->n_checks + 1) * sizeof(*L->checks));
        L->checks[L->n_checks++] = node(L, *it);
      }
    }
    else if (options_find(alias(key))) {
      complain(L, k,
               "'%s' is an option: set it under 'defaults' (or in a "
               "target)",
               key);
    }
    else {
      unknown_key(L, k, "", top_keys, N_TOP_KEYS);
    }
  }
  if (!L->have_targets)
    complain(L, root, "no 'targets' (a profile measures at least one URL)");
}

/* Whether entry i of a (then b) is undone by a later "flag: false". */
static int undone(const struct entries *a, const struct entries *b, size_t i)
{
  size_t n = a->n + (b ? b->n : 0), j;
  const struct entry *e = i < a->n ? &a->v[i] : &b->v[i - a->n];

  for (j = i + 1; j < n; j++) {
    const struct entry *f = j < a->n ? &a->v[j] : &b->v[j - a->n];

    if (f->off && f->def == e->def)
      return 1;
  }
  return 0;
}

/*
 * Build o: the entries of a, then those of b (may be NULL), through the
 * setter; problems of a are reported only when report_a is set (they are
 * the same for every target).  Then the command line, which wins.
 */
static void build_options(struct loader *L, struct options *o,
                          const struct entries *a, const struct entries *b,
                          int report_a, const struct options *cli)
{
  size_t n = a->n + (b ? b->n : 0), i;
  char err[512];

  options_init(o);
  for (i = 0; i < n; i++) {
    const struct entry *e = i < a->n ? &a->v[i] : &b->v[i - a->n];

    if (e->off || undone(a, b, i))
      continue;
    err[0] = '\0';
    if (options_set(o, e->def, e->val, err, sizeof(err)) < 0 &&
        (report_a || i >= a->n))
      problem_at(L, e->line, e->col, "%s: %s", e->key, err);
  }
  for (i = 0; cli && i < cli->n_given; i++)
    options_override(o, cli->given[i].def, cli->given[i].val, err,
                     sizeof(err));
  options_finish(o);
  options_ca_from_env(o);
}

static size_t find_target(struct loader *L, const char *name)
{
  size_t i;

  for (i = 0; i < L->n_t; i++)
    if (L->t[i].name && !strcmp(L->t[i].name, name))
      return i;
  return (size_t)-1;
}

/* The target named by scalar n, or (size_t)-1 after a problem. */
static size_t target_ref(struct loader *L, const yaml_node_t *n)
{
  const char **names;
  const char *hint;
  char *name;
  size_t i, t;

  if (n->type != YAML_SCALAR_NODE || is_null(n)) {
    complain(L, n, "expected a target name, not %s",
             is_null(n) ? "nothing" : type_name(n));
    return (size_t)-1;
  }
  name = value(L, n);
  if (!name)
    return (size_t)-1;
  t = find_target(L, name);
  if (t != (size_t)-1) {
    free(name);
    return t;
  }
  names = xcalloc(L->n_t + 1, sizeof(*names));
  for (i = 0; i < L->n_t; i++)
    names[i] = L->t[i].name ? L->t[i].name : "";
  hint = str_closest(name, names, L->n_t);
  if (hint) {
    complain(L, n, "unknown target '%s' (did you mean '%s'?)", name, hint);
  }
  else {
    struct buf b;

    buf_init(&b, 0);
    for (i = 0; i < L->n_t; i++)
      buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    complain(L, n, "unknown target '%s' (targets: %s)", name, b.s);
    buf_release(&b);
  }
  free(names);
  free(name);
  return (size_t)-1;
}

/* hop: a number from 1, or "last". */
static int parse_hop(struct loader *L, const yaml_node_t *n, long *hop)
{
  long v;

  if (n->type == YAML_SCALAR_NODE && !strcmp(text(n), "last")) {
    *hop = CHECK_HOP_LAST;
    return 0;
  }
  if (n->type != YAML_SCALAR_NODE ||
      units_parse_uint(text(n), 1, 1000, &v, NULL, 0) < 0) {
    complain(L, n, "bad hop '%s' (expected a hop number from 1, or last)",
             n->type == YAML_SCALAR_NODE ? text(n) : type_name(n));
    return -1;
  }
  *hop = v;
  return 0;
}

/* A scalar or a list of scalars, each through parse into *bits. */
static void verdict_list(struct loader *L, const yaml_node_t *n,
                         int (*parse)(const char *, unsigned *, char *,
                                      size_t),
                         unsigned *bits)
{
  const yaml_node_item_t *it;
  char err[256];

  if (n->type == YAML_SCALAR_NODE && !is_null(n)) {
    if (parse(text(n), bits, err, sizeof(err)) < 0)
      complain(L, n, "%s", err);
    return;
  }
  if (n->type != YAML_SEQUENCE_NODE ||
      n->data.sequence.items.start == n->data.sequence.items.top) {
    complain(L, n, "expected a verdict or a list of verdicts, not %s",
             is_null(n) || n->type == YAML_SEQUENCE_NODE ? "nothing"
                                                         : type_name(n));
    return;
  }
  for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
       it++) {
    yaml_node_t *in = node(L, *it);

    if (in->type != YAML_SCALAR_NODE) {
      complain(L, in, "expected a verdict, not %s", type_name(in));
      continue;
    }
    if (parse(text(in), bits, err, sizeof(err)) < 0)
      complain(L, in, "%s", err);
  }
}

static void cache_spec(struct loader *L, const yaml_node_t *n, struct check *c,
                       const yaml_node_t **hop)
{
  yaml_node_pair_t *pr;
  const yaml_node_t *list = NULL;

  if (n->type != YAML_MAPPING_NODE) {
    complain(L, n,
             "'cache' takes a mapping such as {not: [BYPASS]} or "
             "{is: [HIT]}, not %s",
             type_name(n));
    return;
  }
  for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = node(L, pr->key), *v = node(L, pr->value);
    const char *key = key_of(L, k);

    if (!key || duplicate(L, n, pr))
      continue;
    if (!strcmp(key, "hop")) {
      if (*hop)
        complain(L, k, "'hop' is given twice");
      *hop = v;
    }
    else if (!strcmp(key, "not") || !strcmp(key, "is")) {
      if (list) {
        complain(L, k, "'cache' takes either 'not' or 'is', not both");
        continue;
      }
      list = v;
      c->cache_is = !strcmp(key, "is");
    }
    else {
      unknown_key(L, k, " in 'cache'", cache_keys, N_CACHE_KEYS);
    }
  }
  if (!list) {
    complain(L, n, "'cache' needs 'not' or 'is' with a list of verdicts");
    return;
  }
  verdict_list(L, list, check_parse_cache_verdict, &c->verdicts);
}

static void mode_names(const struct options *o, struct buf *b)
{
  int m;

  for (m = 0; m < MODE_COUNT; m++)
    if (o->modes & (1u << m))
      buf_printf(b, "%s%s", b->len ? ", " : "", sample_mode_names[m]);
}

static void load_check(struct loader *L, const yaml_node_t *n)
{
  const yaml_node_t *f[N_CHECK_KEYS] = {NULL}, *fk[N_CHECK_KEYS] = {NULL};
  const yaml_node_t *hop = NULL, *kind_key = NULL;
  enum {
    K_TARGET,
    K_METRIC,
    K_MODE,
    K_MAX,
    K_MIN,
    K_CACHE,
    K_HOP,
    K_COMPARE,
    K_VERDICT
  };
  yaml_node_pair_t *pr;
  struct check c;
  size_t before = L->n_probs, i, t = (size_t)-1;
  char err[256];
  int kinds = 0;

  if (n->type != YAML_MAPPING_NODE) {
    complain(L, n,
             "a check is a mapping such as {target: NAME, metric: "
             "total.p95, max: 800ms}, not %s",
             type_name(n));
    return;
  }
  memset(&c, 0, sizeof(c));
  c.mode = MODE_COLD;
  for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = node(L, pr->key);
    const char *key = key_of(L, k);

    if (!key || duplicate(L, n, pr))
      continue;
    for (i = 0; i < N_CHECK_KEYS; i++)
      if (!strcmp(key, check_keys[i]))
        break;
    if (i == N_CHECK_KEYS) {
      unknown_key(L, k, " in a check", check_keys, N_CHECK_KEYS);
      continue;
    }
    f[i] = node(L, pr->value);
    fk[i] = k;
    if (i == K_METRIC || i == K_CACHE || i == K_COMPARE) {
      if (kinds++)
        complain(L, k, "a check has one kind: '%s' cannot join '%s'", key,
                 text(kind_key));
      else
        kind_key = k;
    }
  }
  if (!kinds) {
    complain(L, n, "a check needs 'metric', 'cache' or 'compare'");
    return;
  }
  if (L->n_probs != before)
    return;
  c.kind = f[K_METRIC]  ? CHECK_METRIC
           : f[K_CACHE] ? CHECK_CACHE
                        : CHECK_COMPARE;
  if (f[K_TARGET]) {
    t = target_ref(L, f[K_TARGET]);
  }
  else if (c.kind == CHECK_COMPARE) {
    complain(L, n,
             "a compare check needs 'target' (the target compared "
             "with the baseline)");
  }
  for (i = 0; i < N_CHECK_KEYS; i++) {
    static const enum check_kind only[N_CHECK_KEYS] = {
        CHECK_KIND_COUNT, CHECK_METRIC,  CHECK_KIND_COUNT,
        CHECK_METRIC,     CHECK_METRIC,  CHECK_CACHE,
        CHECK_CACHE,      CHECK_COMPARE, CHECK_COMPARE};

    if (f[i] && only[i] != CHECK_KIND_COUNT && only[i] != c.kind)
      complain(L, fk[i], "'%s' does not apply to a %s check", check_keys[i],
               check_kind_names[c.kind]);
  }
  if (f[K_MODE] && c.kind == CHECK_CACHE)
    complain(L, fk[K_MODE],
             "'mode' does not apply to a cache check (cache "
             "verdicts are counted over every mode)");
  else if (f[K_MODE]) {
    const yaml_node_t *m = f[K_MODE];

    c.mode = m->type == YAML_SCALAR_NODE ? sample_mode_from_name(text(m))
                                         : MODE_COUNT;
    if (c.mode == MODE_COUNT)
      complain(L, m, "unknown mode '%s' (expected cold, warm or resumed)",
               m->type == YAML_SCALAR_NODE ? text(m) : type_name(m));
  }
  if (c.kind != CHECK_CACHE && c.mode != MODE_COUNT &&
      (L->own_modes & (1u << c.mode)) &&
      !(L->p->opts.modes & (1u << c.mode))) {
    /* Only --mode on the command line leaves it out: a quick run of the
     * profile, not a mistake in it. */
    msg_warn("%s:%lu:%lu: check skipped: mode '%s' is not measured (--mode)",
             L->file, (unsigned long)n->start_mark.line + 1,
             (unsigned long)n->start_mark.column + 1,
             sample_mode_names[c.mode]);
    return;
  }
  if (c.kind != CHECK_CACHE && c.mode != MODE_COUNT &&
      !(L->p->opts.modes & (1u << c.mode))) {
    struct buf b;

    buf_init(&b, 0);
    mode_names(&L->p->opts, &b);
    if (f[K_MODE])
      complain(L, f[K_MODE],
               "mode '%s' is not measured in this run (modes: "
               "%s)",
               sample_mode_names[c.mode], b.s);
    else
      complain(L, n,
               "mode 'cold' (the default of a check) is not measured "
               "in this run (modes: %s): give 'mode'",
               b.s);
    buf_release(&b);
  }
  if (c.kind == CHECK_METRIC) {
    const yaml_node_t *m = f[K_METRIC];

    if (m->type != YAML_SCALAR_NODE)
      complain(L, m, "'metric' takes PHASE.STAT, e.g. total.p95, not %s",
               type_name(m));
    else if (check_parse_metric(text(m), &c.phase, &c.stat, err, sizeof(err)) <
             0)
      complain(L, m, "%s", err);
    for (i = K_MAX; i <= K_MIN; i++) {
      const yaml_node_t *d = f[i];
      int64_t us;

      if (!d)
        continue;
      if (d->type != YAML_SCALAR_NODE || is_null(d)) {
        complain(L, d, "'%s' takes a duration such as 800ms, not %s",
                 check_keys[i], is_null(d) ? "nothing" : type_name(d));
        continue;
      }
      if (units_parse_duration(text(d), &us, err, sizeof(err)) < 0) {
        complain(L, d, "%s: %s", check_keys[i], err);
        continue;
      }
      if (i == K_MAX) {
        c.has_max = 1;
        c.max_us = us;
      }
      else {
        c.has_min = 1;
        c.min_us = us;
      }
    }
    if (!f[K_MAX] && !f[K_MIN])
      complain(L, m, "a metric check needs 'max' or 'min'");
    if (c.has_max && c.has_min && c.min_us > c.max_us)
      complain(L, f[K_MIN], "'min' is above 'max'");
  }
  if (c.kind == CHECK_CACHE) {
    hop = f[K_HOP];
    cache_spec(L, f[K_CACHE], &c, &hop);
    c.hop = CHECK_HOP_EVERY;
    if (hop)
      parse_hop(L, hop, &c.hop);
  }
  if (c.kind == CHECK_COMPARE) {
    size_t b = target_ref(L, f[K_COMPARE]);

    if (b != (size_t)-1 && b != 0)
      complain(L, f[K_COMPARE],
               "comparisons are made with the baseline, "
               "the first target '%s', not with '%s'",
               L->t[0].name, L->t[b].name);
    else if (b == 0 && t == 0)
      complain(L, f[K_TARGET], "target '%s' is the baseline itself",
               L->t[0].name);
    c.baseline = 0;
    if (!f[K_VERDICT])
      complain(L, n,
               "a compare check needs 'verdict' (faster, slower or "
               "no clear difference)");
    else
      verdict_list(L, f[K_VERDICT], check_parse_compare_verdict, &c.verdicts);
  }
  if (L->n_probs != before)
    return;
  for (i = 0; i < L->n_t; i++) {
    struct check *nc;

    if (t != (size_t)-1 && i != t)
      continue;
    nc = check_set_add(&L->p->checks);
    *nc = c;
    nc->target = i;
    nc->where =
        xasprintf("%s:%lu:%lu", L->file, (unsigned long)n->start_mark.line + 1,
                  (unsigned long)n->start_mark.column + 1);
  }
}

/* Problems in file order; the same place keeps the order found. */
static int cmp_problem(const void *a, const void *b)
{
  const struct problem *x = a, *y = b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Line and column (0-based) of byte offset off of data. */
static void offset_pos(const char *data, size_t len, size_t off, size_t *line,
                       size_t *col)
{
  size_t i;

  *line = *col = 0;
  for (i = 0; i < off && i < len; i++) {
    if (data[i] == '\n') {
      (*line)++;
      *col = 0;
    }
    else {
      (*col)++;
    }
  }
}

static void syntax_error(struct loader *L, const yaml_parser_t *y,
                         const char *data, size_t len)
{
  size_t line = y->problem_mark.line, col = y->problem_mark.column;
  const char *what = y->problem ? y->problem : "cannot parse";

  if (y->error == YAML_READER_ERROR) {
    offset_pos(data, len, y->problem_offset, &line, &col);
    problem_at(L, line, col, "not UTF-8 text: %s", what);
  }
  else if (y->context &&
           (y->context_mark.line != line || y->context_mark.column != col))
    problem_at(L, line, col, "%s (%s at line %lu)", what, y->context,
               (unsigned long)y->context_mark.line + 1);
  else if (y->context)
    problem_at(L, line, col, "%s (%s)", what, y->context);
  else
    problem_at(L, line, col, "%s", what);
}

/* The file name without directories and without .yaml or .yml. */
static char *default_name(const char *file)
{
  const char *base = strrchr(file, '/');
  size_t len;

  base = base ? base + 1 : file;
  len = strlen(base);
  if (len > 5 && !strcmp(base + len - 5, ".yaml"))
    len -= 5;
  else if (len > 4 && !strcmp(base + len - 4, ".yml"))
    len -= 4;
  return xstrndup(base, len);
}

void profile_init(struct profile *p)
{
  memset(p, 0, sizeof(*p));
  options_init(&p->opts);
  check_set_init(&p->checks);
}

void profile_release(struct profile *p)
{
  size_t i;

  free(p->file);
  free(p->name);
  options_release(&p->opts);
  for (i = 0; i < p->n_targets; i++) {
    free(p->targets[i].name);
    free(p->targets[i].url);
    options_release(&p->targets[i].opts);
  }
  free(p->targets);
  check_set_release(&p->checks);
  for (i = 0; i < p->n_errors; i++)
    free(p->errors[i]);
  free(p->errors);
  memset(p, 0, sizeof(*p));
}

/* Everything after a successful parse: options, targets, checks. */
static void load_document(struct loader *L, const struct options *cli)
{
  struct profile *p = L->p;
  yaml_node_t *root = yaml_document_get_root_node(L->doc);
  size_t i;
  int insecure = 0;

  if (!root) {
    problem_at(L, 0, 0, "empty profile (it needs at least 'targets')");
    return;
  }
  load_top(L, root);
  options_release(&p->opts);
  build_options(L, &p->opts, &L->glob, NULL, 0, NULL);
  L->own_modes = p->opts.modes;
  options_release(&p->opts);
  build_options(L, &p->opts, &L->glob, NULL, 1, cli);
  p->targets = L->n_t ? xcalloc(L->n_t, sizeof(*p->targets)) : NULL;
  p->n_targets = L->n_t;
  for (i = 0; i < L->n_t; i++) {
    struct profile_target *pt = &p->targets[i];

    pt->name = L->t[i].name ? xstrdup(L->t[i].name) : NULL;
    pt->url = L->t[i].url ? xstrdup(L->t[i].url) : NULL;
    build_options(L, &pt->opts, &L->glob, &L->t[i].e, 0, cli);
    insecure |= pt->opts.insecure;
  }
  /* The reports say that verification is off when any target has it
   * off (SPEC 7); they read the options of the run. */
  if (insecure && !p->opts.insecure)
    p->opts.insecure = 1;
  for (i = 0; i < L->n_checks; i++)
    load_check(L, L->checks[i]);
}

int profile_load_buf(struct profile *p, const char *file, const char *data,
                     size_t len, const struct options *cli)
{
  struct loader L;
  yaml_parser_t y;
  yaml_document_t doc, more;
  size_t i;
  int parsed = 0;

  profile_release(p);
  profile_init(p);
  p->file = xstrdup(file);
  memset(&L, 0, sizeof(L));
  L.p = p;
  L.file = file;
  L.doc = &doc;
  if (!yaml_parser_initialize(&y))
    BUG("yaml_parser_initialize failed");
  yaml_parser_set_input_string(&y, (const unsigned char *)data, len);
  if (!yaml_parser_load(&y, &doc)) {
    syntax_error(&L, &y, data, len);
  }
  else {
    parsed = 1;
    load_document(&L, cli);
    if (!yaml_parser_load(&y, &more)) {
      syntax_error(&L, &y, data, len);
    }
    else {
      yaml_node_t *r = yaml_document_get_root_node(&more);

      if (r)
        complain(&L, r, "a profile is one YAML document; this is a second");
      yaml_document_delete(&more);
    }
  }
  if (!p->name)
    p->name = default_name(file);
  if (L.n_probs) {
    qsort(L.probs, L.n_probs, sizeof(*L.probs), cmp_problem);
    p->errors = xcalloc(L.n_probs, sizeof(*p->errors));
    for (i = 0; i < L.n_probs; i++)
      p->errors[i] =
          xasprintf("%s:%lu:%lu: %s", file, (unsigned long)L.probs[i].line + 1,
                    (unsigned long)L.probs[i].col + 1, L.probs[i].msg);
    p->n_errors = L.n_probs;
  }
  for (i = 0; i < L.n_probs; i++)
    free(L.probs[i].msg);
  free(L.probs);
  entries_release(&L.glob);
  for (i = 0; i < L.n_t; i++) {
    free(L.t[i].name);
    free(L.t[i].url);
    entries_release(&L.t[i].e);
  }
  free(L.t);
  free(L.checks);
  if (parsed)
    yaml_document_delete(&doc);
  yaml_parser_delete(&y);
  if (!p->checks.profile) {
    p->checks.profile = xstrdup(p->name);
    p->checks.file = xstrdup(file);
  }
  return p->n_errors ? -1 : 0;
}

int profile_load(struct profile *p, const char *path,
                 const struct options *cli)
{
  FILE *f = fopen(path, "rb");
  struct buf b;
  char chunk[8192];
  size_t n, i;
  int rc = -1;

  buf_init(&b, PROFILE_MAX_SIZE);
  if (!f) {
    profile_release(p);
    profile_init(p);
    p->file = xstrdup(path);
    return msg_error("cannot read profile '%s': %s", path, strerror(errno));
  }
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    if (buf_add(&b, chunk, n) < 0)
      break;
  if (ferror(f)) {
    rc = msg_error("cannot read profile '%s': %s", path, strerror(errno));
    goto out;
  }
  if (b.truncated) {
    rc = msg_error("profile '%s' is larger than %d bytes", path,
                   PROFILE_MAX_SIZE);
    goto out;
  }
  rc = profile_load_buf(p, path, b.s, b.len, cli);
  for (i = 0; i < p->n_errors; i++)
    msg_error("%s", p->errors[i]);
out:
  fclose(f);
  buf_release(&b);
  return rc;
}

const char *profile_yaml_version(void)
{
  return yaml_get_version_string();
}
