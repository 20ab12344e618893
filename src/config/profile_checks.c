/*
 * profile_checks.c: the checks of a profile (hopsplit-profile(5), CHECKS)
 * into struct check entries, with every problem at its place.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "arraysize.h"
#include "buf.h"
#include "check.h"
#include "msg.h"
#include "profile.h"
#include "units.h"
#include "url.h"
#include "strutil.h"
#include "verdict.h"
#include "xalloc.h"
#include "profile_int.h"
#include "banned.h"

static const char *const check_keys[] = {
    "target", "metric", "mode",    "max",     "min",
    "cache",  "hop",    "compare", "verdict", "status"};
#define N_CHECK_KEYS (ARRAY_SIZE(check_keys))
static const char *const cache_keys[] = {"not", "is", "hop"};
#define N_CACHE_KEYS (ARRAY_SIZE(cache_keys))

/* hop: a number from 1, or "last". */
static int parse_hop(struct loader *L, const yaml_node_t *n, long *hop)
{
  long v;

  if (n->type == YAML_SCALAR_NODE && !strcmp(pf_text(n), "last")) {
    *hop = CHECK_HOP_LAST;
    return 0;
  }
  if (n->type != YAML_SCALAR_NODE ||
      units_parse_uint(pf_text(n), 1, 1000, &v, NULL, 0) < 0) {
    complain(L, n, "bad hop '%s' (expected a hop number from 1, or last)",
             n->type == YAML_SCALAR_NODE ? pf_text(n) : pf_type_name(n));
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

  if (n->type == YAML_SCALAR_NODE && !pf_is_null(n)) {
    if (parse(pf_text(n), bits, err, sizeof(err)) < 0)
      complain(L, n, "%s", err);
    return;
  }
  if (n->type != YAML_SEQUENCE_NODE ||
      n->data.sequence.items.start == n->data.sequence.items.top) {
    complain(L, n, "expected a verdict or a list of verdicts, not %s",
             pf_is_null(n) || n->type == YAML_SEQUENCE_NODE ? "nothing"
                                                            : pf_type_name(n));
    return;
  }
  for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
       it++) {
    yaml_node_t *in = pf_node(L, *it);

    if (in->type != YAML_SCALAR_NODE) {
      complain(L, in, "expected a verdict, not %s", pf_type_name(in));
      continue;
    }
    if (parse(pf_text(in), bits, err, sizeof(err)) < 0)
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
             pf_type_name(n));
    return;
  }
  for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = pf_node(L, pr->key), *v = pf_node(L, pr->value);
    const char *key = pf_key_of(L, k);

    if (!key || pf_duplicate(L, n, pr))
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
      pf_unknown_key(L, k, " in 'cache'", cache_keys, N_CACHE_KEYS);
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

/*
 * A check the configured rounds cannot decide (hopsplit(1) COMPARISON): a
 * comparison below COMPARE_CI_MIN_PAIRS pairs has no 95 % interval, so its
 * verdict is always "no clear difference"; a p95 below 20 samples is the
 * largest sample by nearest rank.  Warned at load time, so --dry-run shows it.
 */
static void rounds_warning(struct loader *L, const yaml_node_t *n,
                           const struct check *c)
{
  /* COMPARE_CI_MIN_PAIRS of compare.h (analysis), which config cannot
   * include: keep the two in step. */
  enum { MIN_PAIRS = 6 };
  long rounds = L->p->opts.rounds;
  unsigned ncd = 1u << COMPARE_NO_CLEAR_DIFFERENCE;

  if (c->kind == CHECK_COMPARE && rounds < MIN_PAIRS)
    msg_warn("%s:%lu:%lu: this check cannot be decided with %ld round%s: "
             "a comparison needs %d pairs for a 95 %% interval, below that "
             "the verdict is always 'no clear difference', so the check "
             "%s (use rounds: %d or more)",
             L->file, (unsigned long)n->start_mark.line + 1,
             (unsigned long)n->start_mark.column + 1, rounds,
             rounds == 1 ? "" : "s", (int)MIN_PAIRS,
             c->verdicts & ncd ? "always passes" : "can never pass",
             (int)MIN_PAIRS);
  if (c->kind == CHECK_METRIC && c->stat == CHECK_STAT_P95 && rounds < 20)
    msg_warn("%s:%lu:%lu: a p95 of %ld sample%s is low-confidence: by "
             "nearest rank it is the largest one (use rounds: 20 or more)",
             L->file, (unsigned long)n->start_mark.line + 1,
             (unsigned long)n->start_mark.column + 1, rounds,
             rounds == 1 ? "" : "s");
}

void pf_load_check(struct loader *L, const yaml_node_t *n)
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
    K_VERDICT,
    K_STATUS
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
             pf_type_name(n));
    return;
  }
  memset(&c, 0, sizeof(c));
  c.mode = MODE_COLD;
  for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = pf_node(L, pr->key);
    const char *key = pf_key_of(L, k);

    if (!key || pf_duplicate(L, n, pr))
      continue;
    for (i = 0; i < N_CHECK_KEYS; i++)
      if (!strcmp(key, check_keys[i]))
        break;
    if (i == N_CHECK_KEYS) {
      pf_unknown_key(L, k, " in a check", check_keys, N_CHECK_KEYS);
      continue;
    }
    f[i] = pf_node(L, pr->value);
    fk[i] = k;
    if (i == K_METRIC || i == K_CACHE || i == K_COMPARE || i == K_STATUS) {
      if (kinds++)
        complain(L, k, "a check has one kind: '%s' cannot join '%s'", key,
                 pf_text(kind_key));
      else
        kind_key = k;
    }
  }
  if (!kinds) {
    complain(L, n, "a check needs 'metric', 'cache', 'compare' or 'status'");
    return;
  }
  if (L->n_probs != before)
    return;
  c.kind = f[K_METRIC]   ? CHECK_METRIC
           : f[K_CACHE]  ? CHECK_CACHE
           : f[K_STATUS] ? CHECK_STATUS
                         : CHECK_COMPARE;
  if (c.kind == CHECK_STATUS && !f[K_MODE])
    c.mode = MODE_COUNT; /* every sample of every mode */
  if (f[K_TARGET]) {
    t = pf_target_ref(L, f[K_TARGET]);
  }
  else if (c.kind == CHECK_COMPARE) {
    complain(L, n,
             "a compare check needs 'target' (the target compared "
             "with the baseline)");
  }
  for (i = 0; i < N_CHECK_KEYS; i++) {
    static const enum check_kind only[N_CHECK_KEYS] = {
        CHECK_KIND_COUNT, CHECK_METRIC, CHECK_KIND_COUNT, CHECK_METRIC,
        CHECK_METRIC,     CHECK_CACHE,  CHECK_CACHE,      CHECK_COMPARE,
        CHECK_COMPARE,    CHECK_STATUS};

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

    c.mode = m->type == YAML_SCALAR_NODE ? sample_mode_from_name(pf_text(m))
                                         : MODE_COUNT;
    if (c.mode == MODE_COUNT)
      complain(L, m, "unknown mode '%s' (expected cold, warm or resumed)",
               m->type == YAML_SCALAR_NODE ? pf_text(m) : pf_type_name(m));
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
               pf_type_name(m));
    else if (check_parse_metric(pf_text(m), &c.phase, &c.stat, err,
                                sizeof(err)) < 0)
      complain(L, m, "%s", err);
    for (i = K_MAX; i <= K_MIN; i++) {
      const yaml_node_t *d = f[i];
      int64_t us;

      if (!d)
        continue;
      if (d->type != YAML_SCALAR_NODE || pf_is_null(d)) {
        complain(L, d, "'%s' takes a duration such as 800ms, not %s",
                 check_keys[i], pf_is_null(d) ? "nothing" : pf_type_name(d));
        continue;
      }
      if (units_parse_duration_unit(pf_text(d), &us, err, sizeof(err)) < 0) {
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
  if (c.kind == CHECK_STATUS) {
    const yaml_node_t *v = f[K_STATUS];

    if (v->type == YAML_SCALAR_NODE && !pf_is_null(v)) {
      if (check_parse_status(pf_text(v), &c, err, sizeof(err)) < 0)
        complain(L, v, "%s", err);
    }
    else if (v->type == YAML_SEQUENCE_NODE &&
             v->data.sequence.items.top > v->data.sequence.items.start) {
      const yaml_node_item_t *it;

      for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
           it++) {
        const yaml_node_t *e = pf_node(L, *it);

        if (e->type != YAML_SCALAR_NODE || pf_is_null(e))
          complain(L, e,
                   "'status' lists codes such as 200 or classes such "
                   "as 2xx, not %s",
                   pf_type_name(e));
        else if (check_parse_status(pf_text(e), &c, err, sizeof(err)) < 0)
          complain(L, e, "%s", err);
      }
    }
    else {
      complain(L, v,
               "'status' takes a code (200), a class (2xx) or a list of "
               "them, not %s",
               pf_is_null(v) ? "nothing" : pf_type_name(v));
    }
  }
  if (c.kind == CHECK_COMPARE) {
    size_t b = pf_target_ref(L, f[K_COMPARE]);

    /* Any other target will do: the analysis compares every pair a check
     * names, beside those with the baseline (--baseline). */
    if (b != (size_t)-1 && b == t)
      complain(L, f[K_COMPARE], "target '%s' is compared with itself",
               L->t[b].name);
    c.baseline = b != (size_t)-1 ? b : 0;
    if (!f[K_VERDICT])
      complain(L, n,
               "a compare check needs 'verdict' (faster, slower or "
               "no clear difference)");
    else
      verdict_list(L, f[K_VERDICT], check_parse_compare_verdict, &c.verdicts);
  }
  if (L->n_probs != before)
    return;
  rounds_warning(L, n, &c);
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
