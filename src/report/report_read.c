/*
 * report_read.c: a saved hopsplit/1 document -> options, plan and results
 * (see report_read.h).  Input: the JSON text a run wrote.  Output: the
 * structs the run had, as far as the document keeps them: URLs, header
 * values and settings come back redacted when the run redacted them, and
 * headers come back once per name, lowercase, as the document lists them,
 * which renders the same again.  Checks types and names; anything else
 * is an error naming the field.  Samples and hops are read by the rows of
 * the field table that writes them (report_fields.c, rows_of below); the
 * settings, targets, traces and checks by hand, as report_json.c and
 * report_checks.c write them.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arraysize.h"
#include "buf.h"
#include "json.h"
#include "jtree.h"
#include "msg.h"
#include "option_table.h"
#include "report_fields.h"
#include "report_read.h"
#include "strpool.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

struct rd {
  const char *name; /* file name, for messages */
  int bad;
};

/* "FILE: PATH.KEY: what" for the first problem only; at is the JSON path
 * of the object ("" for the document), key the member (may be NULL). */
static void problem(struct rd *r, const char *at, const char *key,
                    const char *what)
{
  if (!r->bad)
    msg_error("'%s': %s%s%s: %s", r->name, at, *at && key ? "." : "",
              key ? key : "", what);
  r->bad = 1;
}

/* Member key of o; a null member counts as absent. */
static const struct jt *member(const struct jt *o, const char *key)
{
  const struct jt *v = jt_get(o, key);

  return v && v->type == JT_NULL ? NULL : v;
}

/* String member, or NULL when absent or null; anything else is an error. */
static const char *str_of(struct rd *r, const struct jt *o, const char *at,
                          const char *key)
{
  const struct jt *v = member(o, key);

  if (v && v->type != JT_STRING) {
    problem(r, at, key, "expected a string");
    return NULL;
  }
  return v ? v->s : NULL;
}

static char *opt_str(struct rd *r, const struct jt *o, const char *at,
                     const char *key)
{
  const char *s = str_of(r, o, at, key);

  return s ? xstrdup(s) : NULL;
}

/* Integer member in [min, max], in any JSON number form ("2e2" is 200);
 * dflt when absent or null. */
static int64_t int_in(struct rd *r, const struct jt *o, const char *at,
                      const char *key, int64_t min, int64_t max, int64_t dflt)
{
  const struct jt *v = member(o, key);
  int64_t n;
  int inexact = 0, rc;
  char what[96];

  if (!v)
    return dflt;
  rc = jt_scaled(v, 0, max > -min ? max : -min, &n, &inexact);
  if (rc == -1 || inexact || rc < 0 || n < min || n > max) {
    snprintf(what, sizeof(what), "%sexpected an integer %lld..%lld",
             rc == -1 || inexact ? "" : "out of range: ", (long long)min,
             (long long)max);
    problem(r, at, key, what);
    return dflt;
  }
  return n;
}

/* A duration in microseconds (may be negative, as a signed difference). */
static int64_t us_of(struct rd *r, const struct jt *o, const char *at,
                     const char *key)
{
  return int_in(r, o, at, key, -FIELD_MAX_US, FIELD_MAX_US, 0);
}

/* A duration that cannot be negative: a phase, a total, a start. */
static int64_t pos_us_of(struct rd *r, const struct jt *o, const char *at,
                         const char *key)
{
  return int_in(r, o, at, key, 0, FIELD_MAX_US, 0);
}

/* A required true or false. */
static int bool_of(struct rd *r, const struct jt *o, const char *at,
                   const char *key)
{
  const struct jt *v = jt_get(o, key);

  if (!v || v->type != JT_BOOL) {
    problem(r, at, key, "expected true or false");
    return 0;
  }
  return v->b;
}

/* An array member, or NULL when absent or null; anything else is an
 * error. */
static const struct jt *arr_of(struct rd *r, const struct jt *o,
                               const char *at, const char *key)
{
  const struct jt *v = member(o, key);

  if (v && v->type != JT_ARRAY) {
    problem(r, at, key, "expected an array");
    return NULL;
  }
  return v;
}

static const struct jt *obj_of(struct rd *r, const struct jt *o,
                               const char *at, const char *key)
{
  const struct jt *v = member(o, key);

  if (v && v->type != JT_OBJECT) {
    problem(r, at, key, "expected an object");
    return NULL;
  }
  return v;
}

/* curl's seconds (any JSON number, "9e-06" too) -> microseconds, exactly,
 * truncated past the sixth decimal; -1 when absent. */
static int64_t secs_us(struct rd *r, const struct jt *o, const char *at,
                       const char *key)
{
  const struct jt *v = member(o, key);
  int64_t us;
  int rc;

  if (!v)
    return -1;
  rc = jt_scaled(v, 6, FIELD_MAX_US, &us, NULL);
  if (rc == -1 || us < 0 || (rc == 0 && v->s[0] == '-' && us == 0)) {
    problem(r, at, key, "expected seconds (a number, not negative)");
    return -1;
  }
  if (rc < 0) {
    problem(r, at, key, "out of range (at most 100000 s)");
    return -1;
  }
  return us;
}

static int64_t time_of(struct rd *r, const struct jt *o, const char *at,
                       const char *key)
{
  const char *s = str_of(r, o, at, key);
  int64_t ms = 0;

  if (!s)
    return 0;
  if (units_parse_rfc3339_ms(s, &ms) < 0)
    problem(r, at, key, "expected a time like 2024-01-31T12:00:00.000Z");
  return ms;
}

/* The strings of array member key, copied; other items are errors. */
static void strv(struct rd *r, const struct jt *o, const char *at,
                 const char *key, char ***v, size_t *n)
{
  const struct jt *a = arr_of(r, o, at, key);
  size_t i;

  for (i = 0; i < jt_len(a); i++) {
    if (!jt_str(jt_at(a, i))) {
      problem(r, at, key, "expected an array of strings");
      return;
    }
    *v = xrealloc(*v, (*n + 1) * sizeof(**v));
    (*v)[(*n)++] = xstrdup(jt_str(jt_at(a, i)));
  }
}

static int pick(const char *v, const char *const *names, int n)
{
  int i;

  for (i = 0; v && i < n; i++)
    if (!strcmp(v, names[i]))
      return i;
  return -1;
}

/* String member key that must be one of names[0..n) when present (what
 * hopsplit writes): its index, dflt when absent or null; anything else is
 * an error listing the names. */
static int name_of(struct rd *r, const struct jt *o, const char *at,
                   const char *key, const char *const *names, int n, int dflt)
{
  const struct jt *v = member(o, key);
  char what[160];
  size_t len;
  int k;

  if (!v)
    return dflt;
  k = v->type == JT_STRING ? pick(v->s, names, n) : -1;
  if (k >= 0)
    return k;
  len = (size_t)snprintf(what, sizeof(what), "expected one of");
  for (k = 0; k < n && len < sizeof(what); k++)
    len += (size_t)snprintf(what + len, sizeof(what) - len, "%s \"%s\"",
                            k ? "," : "", names[k]);
  problem(r, at, key, what);
  return dflt;
}

/* settings.project: the networks of --project, each as netprofile_format
 * wrote it (hopsplit report projects again from them). */
static void project(struct rd *r, const struct jt *s, struct options *o)
{
  const struct jt *a = jt_get(s, "project");
  size_t i, n;
  char err[256];

  o->n_project = 0;
  if (!a)
    return;
  if (a->type != JT_ARRAY) {
    problem(r, "settings", "project", "expected an array of networks");
    return;
  }
  for (i = 0; i < jt_len(a) && o->n_project < NETPROFILES_MAX; i++) {
    const char *v = jt_str(jt_at(a, i));
    /* A list parses into as many as NETPROFILES_MAX networks: into room
     * of its own, never past the options' array (a saved "a,b,c,..."). */
    struct net_profile one[NETPROFILES_MAX];

    if (!v || netprofile_parse_list(v, one, &n, err, sizeof(err)) < 0 ||
        n != 1) {
      problem(r, "settings", "project", "not a network --project reads");
      return;
    }
    o->project[o->n_project++] = one[0];
  }
}

static void settings(struct rd *r, const struct jt *s, struct options *o)
{
  static const char *const http[] = {"default", "1.1", "2", "3", "3-only"};
  static const char *const trace[] = {"auto", "always", "never"};
  static const char *const at = "settings";
  const struct jt *modes;
  const char *v;
  size_t i;
  int k;

  if (!s || s->type != JT_OBJECT) {
    problem(r, "", "settings", s ? "expected an object" : "missing");
    return;
  }
  o->rounds = (long)int_in(r, s, at, "rounds", 0, 1000000, 0);
  o->parallel = (long)int_in(r, s, at, "parallel", 1, 1024, 1);
  o->keep_interfered =
      member(s, "keep_interfered") && bool_of(r, s, at, "keep_interfered");
  o->modes = 0;
  modes = arr_of(r, s, at, "modes");
  for (i = 0; i < jt_len(modes); i++) {
    enum sample_mode m = MODE_COUNT;

    if (jt_str(jt_at(modes, i)))
      m = sample_mode_from_name(jt_str(jt_at(modes, i)));
    if (m == MODE_COUNT)
      problem(r, at, "modes", "unknown mode");
    else
      o->modes |= 1u << m;
  }
  if (!o->modes)
    problem(r, at, "modes", "no mode");
  k = pick(str_of(r, s, at, "order"), schedule_order_names, ORDER_COUNT);
  if (k < 0)
    problem(r, at, "order", "unknown order");
  else
    o->order = (enum schedule_order)k;
  o->seed = (uint64_t)int_in(r, s, at, "seed", INT64_MIN + 1, INT64_MAX, 0);
  o->seed_set = 1;
  o->pause_us = int_in(r, s, at, "pause_us", 0, FIELD_MAX_US, 0);
  o->payload_size =
      int_in(r, s, at, "payload_size", 0, 1099511627776LL, 0); /* 1 TiB */
  o->follow = bool_of(r, s, at, "follow");
  o->max_redirs = (long)int_in(r, s, at, "max_redirs", 0, 1000, 10);
  v = str_of(r, s, at, "method");
  free(o->method);
  o->method = xstrdup(v ? v : "GET");
  o->method_set = 1; /* the method as it was sent */
  if (jt_get(s, "fail"))
    o->fail = bool_of(r, s, at, "fail");
  strv(r, s, at, "headers", &o->headers, &o->n_headers);
  free(o->user_agent);
  o->user_agent = opt_str(r, s, at, "user_agent");
  o->compressed = bool_of(r, s, at, "compressed");
  strv(r, s, at, "resolve", &o->resolve, &o->n_resolve);
  o->dns_servers = opt_str(r, s, at, "dns_servers");
  o->ip_family = (int)int_in(r, s, at, "ip_family", 0, 6, 0);
  if (o->ip_family != 0 && o->ip_family != 4 && o->ip_family != 6)
    problem(r, at, "ip_family", "expected 0 (any), 4 or 6");
  o->http = (enum http_pref)name_of(r, s, at, "http", http, 5, 0);
  project(r, s, o);
  o->cacert = opt_str(r, s, at, "cacert");
  o->capath = opt_str(r, s, at, "capath");
  o->insecure = bool_of(r, s, at, "insecure");
  o->location_trusted = bool_of(r, s, at, "location_trusted");
  o->connect_timeout_us =
      int_in(r, s, at, "connect_timeout_us", 0, FIELD_MAX_US, 0);
  o->max_time_us = int_in(r, s, at, "max_time_us", 0, FIELD_MAX_US, 0);
  o->trace = (enum trace_mode)name_of(r, s, at, "trace", trace, 3, 0);
  o->client_location = opt_str(r, s, at, "client_location");
  o->show_secrets = bool_of(r, s, at, "show_secrets");
  /* Added with --baseline and --prime; older documents have neither:
   * first target, no other pairs. */
  o->baseline = opt_str(r, s, at, "baseline");
  {
    const struct jt *pv = arr_of(r, s, at, "prime");
    char err[512];
    size_t n;

    for (n = 0; n < jt_len(pv); n++)
      if (!jt_str(jt_at(pv, n)) ||
          options_set(o, options_find("prime"), jt_str(jt_at(pv, n)), err,
                      sizeof(err)) < 0)
        problem(r, at, "prime", "expected [NAME=]URL strings");
  }
  o->compare_all =
      member(s, "compare_all") ? bool_of(r, s, at, "compare_all") : 0;
}

static void plan_of(struct rd *r, const struct jt *doc,
                    const struct options *o, struct plan *p)
{
  const struct jt *targets = arr_of(r, doc, "", "targets");
  char at[64];
  size_t i, j;
  int m;

  p->opts = o;
  p->n_targets = jt_len(targets);
  if (!p->n_targets)
    problem(r, "", "targets", "no target");
  p->targets = xcalloc(p->n_targets ? p->n_targets : 1, sizeof(*p->targets));
  for (i = 0; i < p->n_targets && !r->bad; i++) {
    const struct jt *t = jt_at(targets, i);

    snprintf(at, sizeof(at), "targets[%zu]", i);
    if (t->type != JT_OBJECT) {
      problem(r, at, NULL, "expected an object");
      break;
    }
    p->targets[i].name = opt_str(r, t, at, "name");
    p->targets[i].url = opt_str(r, t, at, "url");
    p->targets[i].vantage = opt_str(r, t, at, "vantage");
    p->targets[i].opts = o;
    if (!r->bad && (!p->targets[i].name || !p->targets[i].url))
      problem(r, at, NULL, "a target without name or url");
  }
  for (m = 0; m < MODE_COUNT; m++)
    if (o->modes & (1u << m))
      p->modes[p->n_modes++] = (enum sample_mode)m;
  p->n_items = p->n_targets * p->n_modes;
  p->items = xcalloc(p->n_items ? p->n_items : 1, sizeof(*p->items));
  for (i = 0; i < p->n_targets; i++)
    for (j = 0; j < p->n_modes; j++) {
      p->items[i * p->n_modes + j].target = i;
      p->items[i * p->n_modes + j].mode = p->modes[j];
    }
  p->rounds = o->rounds;
  p->seed = o->seed;
  p->compare_all = o->compare_all;
  for (i = 0; o->baseline && i < p->n_targets; i++)
    if (p->targets[i].name && !strcmp(p->targets[i].name, o->baseline))
      break;
  if (o->baseline && i == p->n_targets)
    problem(r, "settings", "baseline", "not the name of a target");
  else if (o->baseline)
    p->baseline = i;
}

/* A hop's headers: lowercase names, repeated ones joined (value_json of
 * report_fields.c writes them so). */
static void headers_of(struct rd *r, const struct jt *hd, const char *at,
                       struct hop *h)
{
  size_t i;

  for (i = 0; i < jt_len(hd); i++)
    if (hd->v[i].type != JT_STRING) {
      problem(r, at, hd->k[i], "expected a string");
      return;
    }
  for (i = 0; i < jt_len(hd); i++)
    hop_add_header(h, hd->k[i], hd->v[i].s);
}

/* A hop's failed resolvers: [{server, rcode, us}], as value_json writes
 * them. */
static void failed_of(struct rd *r, const struct jt *fl, const char *at,
                      const char *key, struct hop *h)
{
  char fat[256];
  size_t i;

  if (jt_len(fl) > DNS_FAILURES_MAX) {
    problem(r, at, key, "more than 4 resolvers (a run keeps at most 4)");
    return;
  }
  for (i = 0; i < jt_len(fl) && !r->bad; i++) {
    const struct jt *f = &fl->v[i];
    const char *server, *rcode, *query = NULL;
    const struct jt *q;

    snprintf(fat, sizeof(fat), "%s.%s[%zu]", at, key, i);
    if (f->type != JT_OBJECT) {
      problem(r, fat, NULL, "expected an object");
      return;
    }
    server = str_of(r, f, fat, "server");
    rcode = str_of(r, f, fat, "rcode");
    /* Both are said wherever the failure is shown: required. */
    if (!server || !rcode) {
      problem(r, fat, server ? "rcode" : "server", "missing");
      return;
    }
    q = member(f, "query");
    if (q && q->type != JT_NULL)
      query = str_of(r, f, fat, "query");
    hop_add_dns_failure(h, server, rcode, pos_us_of(r, f, fat, "us"), query);
  }
}

/* A hop's tcp.round_list: [{start_us, us, bytes}], at most HOP_ROUNDS_MAX
 * (what a run keeps). */
static void rounds_of(struct rd *r, const struct jt *rl, const char *at,
                      const char *key, struct hop *h)
{
  struct hop_round v[HOP_ROUNDS_MAX];
  char rat[256];
  size_t i, n = jt_len(rl);

  if (n > HOP_ROUNDS_MAX) {
    problem(r, at, key, "more than 64 rounds (a run keeps at most 64)");
    return;
  }
  for (i = 0; i < n && !r->bad; i++) {
    const struct jt *o = &rl->v[i];

    snprintf(rat, sizeof(rat), "%s.%s[%zu]", at, key, i);
    if (o->type != JT_OBJECT) {
      problem(r, rat, NULL, "expected an object");
      return;
    }
    v[i].start_us = (int32_t)int_in(r, o, rat, "start_us", 0, INT32_MAX, 0);
    v[i].us = (int32_t)int_in(r, o, rat, "us", 0, INT32_MAX, 0);
    v[i].bytes = int_in(r, o, rat, "bytes", 0, FIELD_MAX_INT, 0);
  }
  if (!r->bad && n)
    hop_set_rounds(h, v, n, h->tcp.flow->n_rounds);
}

/* Member key of o (at is its path) as row f's type says, checked, into
 * *v; the types that are not one value are read into in->h here. */
static void value_of(struct rd *r, const struct field *f, const struct jt *o,
                     const char *at, const char *key, struct field_in *in,
                     struct field_value *v)
{
  const struct jt *j = member(o, key);
  size_t i;

  v->null = j == NULL;
  switch (f->type) {
  case FIELD_INT:
  case FIELD_US:
  case FIELD_BYTES:
    v->i = int_in(r, o, at, key, f->min, f->max, 0);
    return;
  case FIELD_SECONDS:
    v->i = secs_us(r, o, at, key);
    return;
  case FIELD_BOOL:
    if (j && j->type != JT_BOOL)
      problem(r, at, key, "expected true or false");
    v->i = j && j->b;
    return;
  case FIELD_TEXT:
    v->s = str_of(r, o, at, key);
    v->null = v->s == NULL;
    return;
  case FIELD_TIME:
    v->i = time_of(r, o, at, key);
    return;
  case FIELD_TEXTS:
    j = arr_of(r, o, at, key);
    v->n = jt_len(j);
    if (!v->n)
      return;
    v->owned_v = xcalloc(v->n, sizeof(*v->owned_v));
    for (i = 0; i < v->n; i++)
      if (!jt_str(jt_at(j, i))) {
        problem(r, at, key, "expected an array of strings");
        v->n = i; /* owned_v holds borrowed strings: free none */
        return;
      }
      else
        v->owned_v[i] = jt_at(j, i)->s;
    v->v = (const char *const *)v->owned_v;
    return;
  case FIELD_HEADERS:
    j = obj_of(r, o, at, key);
    if (j) {
      char sub[256];

      snprintf(sub, sizeof(sub), "%s.%s", at, key);
      headers_of(r, j, sub, in->h);
    }
    return;
  case FIELD_DNS_FAILED:
    failed_of(r, arr_of(r, o, at, key), at, key, in->h);
    return;
  case FIELD_ROUNDS:
    rounds_of(r, arr_of(r, o, at, key), at, key, in->h);
    return;
  case FIELD_DOUBLE:
  case FIELD_LAYERS:
  case FIELD_TYPE_COUNT:
    break;
  }
  BUG("field '%s': its type is not read", f->name);
}

/* The rows of table t that are read back, from the object o at path at,
 * into in: the loop field_json of report_fields.c writes them with.  A
 * dotted name is a member of a nested object; rows of an absent or null
 * object are not read (their defaults stand). */
static void rows_of(struct rd *r, const struct field *t, const struct jt *o,
                    const char *at, struct field_in *in)
{
  char gat[160], group[64];

  for (; t->name && !r->bad; t++) {
    const char *key = t->name, *where = at, *dot = strchr(t->name, '.');
    const struct jt *obj = o;
    struct field_value v;
    const char *what;

    if (!t->set)
      continue;
    if (dot) {
      size_t glen = (size_t)(dot - t->name);

      if (glen >= sizeof(group))
        BUG("field group too long: %s", t->name);
      memcpy(group, t->name, glen);
      group[glen] = '\0';
      obj = obj_of(r, o, at, group);
      if (!obj)
        continue;
      snprintf(gat, sizeof(gat), "%s.%s", at, group);
      where = gat;
      key = dot + 1;
    }
    memset(&v, 0, sizeof(v));
    value_of(r, t, obj, where, key, in, &v);
    if (!r->bad) {
      what = t->set(in, &v);
      if (what)
        problem(r, where, key, what);
    }
    /* The strings are the tree's: only the vector is freed. */
    free(v.owned_v);
  }
}

static void sample_of(struct rd *r, const struct jt *j, size_t index,
                      const struct plan *p, struct sample *s)
{
  struct field_in in;
  const struct jt *hops;
  char at[48], hat[80];
  size_t i;

  snprintf(at, sizeof(at), "samples[%zu]", index);
  if (j->type != JT_OBJECT) {
    problem(r, at, NULL, "expected an object");
    return;
  }
  memset(&in, 0, sizeof(in));
  in.plan = p;
  in.s = s;
  hops = arr_of(r, j, at, "hops");
  rows_of(r, report_sample_fields, j, at, &in);
  if (!r->bad && !s->ok && s->err == ERR_NONE) {
    /* No error object at all. */
    snprintf(hat, sizeof(hat), "%s.error", at);
    problem(r, hat, "class", "unknown error class");
  }
  if (s->ok && !jt_len(hops))
    problem(r, at, "hops", "a successful sample has at least one hop");
  if (jt_len(hops) > FIELD_MAX_HOPS)
    problem(r, at, "hops", "more hops than --max-redirs allows (1001)");
  for (i = 0; i < jt_len(hops) && !r->bad; i++) {
    const struct jt *hj = jt_at(hops, i);

    snprintf(hat, sizeof(hat), "%s.hops[%zu]", at, i);
    if (hj->type != JT_OBJECT) {
      problem(r, hat, NULL, "expected an object");
      return;
    }
    in.h = sample_add_hop(s);
    memset(&in.fb, 0, sizeof(in.fb));
    in.has_fb = 0;
    rows_of(r, report_hop_fields, hj, hat, &in);
    if (in.has_fb)
      hop_set_fallback(in.h, &in.fb);
    hop_pool_arrays(in.h);
  }
  /* Documents from before the sample's own status: the last hop's. */
  if (!s->status && s->n_hops)
    s->status = s->hops[s->n_hops - 1].info->status;
}

/* /cdn-cgi/trace fetches, when the document keeps them. */
static void traces_of(struct rd *r, const struct jt *doc, struct results *res)
{
  const struct jt *list = arr_of(r, doc, "", "traces");
  char at[48];
  size_t i;

  for (i = 0; i < jt_len(list) && !r->bad; i++) {
    const struct jt *t = jt_at(list, i);
    const char *origin, *host;
    struct trace_fetch *f;

    snprintf(at, sizeof(at), "traces[%zu]", i);
    if (t->type != JT_OBJECT) {
      problem(r, at, NULL, "expected an object");
      break;
    }
    origin = str_of(r, t, at, "origin");
    host = str_of(r, t, at, "host");
    if (!origin || !host) {
      problem(r, at, NULL, "expected origin and host");
      continue;
    }
    f = results_add_trace(res, origin, host);
    f->body = opt_str(r, t, at, "body");
    f->len = f->body ? strlen(f->body) : 0;
    f->status = (long)int_in(r, t, at, "status", 0, 999, 0);
    f->error = opt_str(r, t, at, "error");
  }
}

static size_t target_index(struct rd *r, const struct plan *p,
                           const char *name, const char *at, const char *key)
{
  size_t i;

  for (i = 0; name && i < p->n_targets; i++)
    if (p->targets[i].name && !strcmp(p->targets[i].name, name))
      return i;
  problem(r, at, key, "unknown target");
  return 0;
}

/* Verdict names of array member key of j into c->verdicts. */
static void verdicts_of(struct rd *r, const struct jt *j, const char *at,
                        const char *key, int cache, struct check *c)
{
  const struct jt *v = arr_of(r, j, at, key);
  char err[160];
  size_t k;

  for (k = 0; k < jt_len(v) && !r->bad; k++) {
    const char *name = jt_str(jt_at(v, k));
    int rc;

    if (!name) {
      problem(r, at, key, "expected an array of strings");
      return;
    }
    rc = cache
             ? check_parse_cache_verdict(name, &c->verdicts, err, sizeof(err))
             : check_parse_compare_verdict(name, &c->verdicts, err,
                                           sizeof(err));
    if (rc < 0)
      problem(r, at, key, err);
  }
}

/* The definitions of a profile run's checks, as report_checks.c wrote
 * them; evaluated again from the rebuilt analysis. */
static void checks_of(struct rd *r, const struct jt *doc,
                      struct report_saved *saved)
{
  const struct jt *list = arr_of(r, doc, "", "checks");
  const struct jt *prof = obj_of(r, doc, "", "profile");
  struct check_set *cs = &saved->checks;
  char err[160], at[48];
  size_t i;

  check_set_init(cs);
  if (!list || r->bad)
    return;
  saved->has_checks = 1;
  cs->profile = opt_str(r, prof, "profile", "name");
  cs->file = opt_str(r, prof, "profile", "file");
  for (i = 0; i < jt_len(list) && !r->bad; i++) {
    const struct jt *j = jt_at(list, i);
    const char *kind, *mode;
    struct check *c;
    int ki;

    snprintf(at, sizeof(at), "checks[%zu]", i);
    if (j->type != JT_OBJECT) {
      problem(r, at, NULL, "expected an object");
      return;
    }
    kind = str_of(r, j, at, "kind");
    mode = str_of(r, j, at, "mode");
    ki = kind ? pick(kind, check_kind_names, CHECK_KIND_COUNT) : -1;
    if (ki < 0) {
      problem(r, at, "kind", "unknown check kind");
      return;
    }
    c = check_set_add(cs);
    c->kind = (enum check_kind)ki;
    c->where = opt_str(r, j, at, "source");
    c->target = target_index(r, &saved->plan, str_of(r, j, at, "target"), at,
                             "target");
    if (mode) {
      int m = pick(mode, sample_mode_names, MODE_COUNT);

      if (m < 0)
        problem(r, at, "mode", "unknown mode");
      c->mode = m < 0 ? MODE_COLD : (enum sample_mode)m;
    }
    else if (c->kind == CHECK_STATUS) {
      c->mode = MODE_COUNT; /* every mode */
    }
    if (c->kind == CHECK_METRIC) {
      const char *metric = str_of(r, j, at, "metric");

      if (check_parse_metric(metric ? metric : "", &c->phase, &c->stat, err,
                             sizeof(err)) < 0)
        problem(r, at, "metric", err);
      c->has_max = member(j, "max_us") != NULL;
      c->has_min = member(j, "min_us") != NULL;
      if (c->has_max)
        c->max_us = us_of(r, j, at, "max_us");
      if (c->has_min)
        c->min_us = us_of(r, j, at, "min_us");
    }
    else if (c->kind == CHECK_CACHE) {
      const struct jt *hop = member(j, "hop");

      c->cache_is = member(j, "is") != NULL;
      verdicts_of(r, j, at, c->cache_is ? "is" : "not", 1, c);
      if (hop && hop->type == JT_STRING) {
        static const char *const hops[] = {"every", "last"};

        c->hop = name_of(r, j, at, "hop", hops, 2, 0) ? CHECK_HOP_LAST
                                                      : CHECK_HOP_EVERY;
      }
      else
        c->hop = (long)int_in(r, j, at, "hop", 0, FIELD_MAX_HOPS, 0);
    }
    else if (c->kind == CHECK_STATUS) {
      const struct jt *v = arr_of(r, j, at, "statuses");
      size_t k;

      for (k = 0; k < jt_len(v) && !r->bad; k++) {
        if (!jt_str(jt_at(v, k))) {
          problem(r, at, "statuses", "expected an array of strings");
          break;
        }
        if (check_parse_status(jt_str(jt_at(v, k)), c, err, sizeof(err)) < 0)
          problem(r, at, "statuses", err);
      }
    }
    else {
      c->baseline = target_index(r, &saved->plan, str_of(r, j, at, "baseline"),
                                 at, "baseline");
      verdicts_of(r, j, at, "verdicts", 0, c);
    }
  }
  saved->plan.checks = cs;
}

/* What comes before "samples": the schema, the settings and the plan. */
static int head_of(struct rd *r, const struct jt *doc,
                   struct report_saved *saved)
{
  const struct jt *tool;
  const char *schema = str_of(r, doc, "", "schema");

  if (!schema || strcmp(schema, "hopsplit/1")) {
    problem(r, "", "schema", "not a hopsplit/1 document");
    return -1;
  }
  settings(r, jt_get(doc, "settings"), &saved->opts);
  if (r->bad)
    return -1;
  plan_of(r, doc, &saved->opts, &saved->plan);
  saved->plan.vantage = opt_str(r, doc, "", "vantage");
  tool = obj_of(r, doc, "", "tool");
  saved->libraries = opt_str(r, tool, "tool", "libraries");
  if (!saved->libraries)
    saved->libraries = xstrdup("");
  saved->results.started_at_ms = time_of(r, doc, "", "started_at");
  saved->results.finished_at_ms = time_of(r, doc, "", "finished_at");
  saved->results.partial = bool_of(r, doc, "", "partial");
  return r->bad ? -1 : 0;
}

/* Append member key (taken) = *v (moved) to the object doc. */
static void member_add(struct jt *doc, char *key, struct jt *v)
{
  doc->k = xrealloc(doc->k, (doc->n + 1) * sizeof(*doc->k));
  doc->v = xrealloc(doc->v, (doc->n + 1) * sizeof(*doc->v));
  doc->k[doc->n] = key;
  doc->v[doc->n] = *v;
  doc->n++;
  memset(v, 0, sizeof(*v));
}

/* The members head_of reads. */
static const char *const head_keys[] = {
    "schema", "settings",   "targets",     "vantage",
    "tool",   "started_at", "finished_at", "partial"};

static int read_json_file(struct report_saved *saved, FILE *f,
                          const char *name);

/* ---- NDJSON (report_ndjson.c): sample lines, then a summary line ---- */

#define NDJSON_SAMPLE  "{\"type\":\"sample\","
#define NDJSON_SUMMARY "{\"type\":\"summary\","

/* What a file of sample lines without a summary (a run that was killed)
 * says of its run: the targets, modes and rounds its samples name. */
struct nd_head {
  char **names, **urls;
  size_t n;
  unsigned modes;
  int64_t rounds;
  char *started, *last;
};

static void nd_head_release(struct nd_head *h)
{
  size_t i;

  for (i = 0; i < h->n; i++) {
    free(h->names[i]);
    free(h->urls[i]);
  }
  free(h->names);
  free(h->urls);
  free(h->started);
  free(h->last);
}

static void nd_head_add(struct nd_head *h, const struct jt *s)
{
  const char *name = jt_str(jt_get(s, "target"));
  const char *mode = jt_str(jt_get(s, "mode"));
  const char *at = jt_str(jt_get(s, "started_at"));
  const struct jt *hop = jt_at(jt_get(s, "hops"), 0);
  int64_t round = 0;
  size_t i;

  if (mode && sample_mode_from_name(mode) != MODE_COUNT)
    h->modes |= 1u << sample_mode_from_name(mode);
  if (jt_int(jt_get(s, "round"), &round) == 0 && round > h->rounds)
    h->rounds = round;
  if (at) {
    if (!h->started)
      h->started = xstrdup(at);
    free(h->last);
    h->last = xstrdup(at);
  }
  if (!name)
    return;
  for (i = 0; i < h->n; i++)
    if (!strcmp(h->names[i], name))
      return;
  h->names = xrealloc(h->names, (h->n + 1) * sizeof(*h->names));
  h->urls = xrealloc(h->urls, (h->n + 1) * sizeof(*h->urls));
  h->names[h->n] = xstrdup(name);
  h->urls[h->n] =
      xstrdup(jt_str(jt_get(hop, "url")) ? jt_str(jt_get(hop, "url")) : name);
  h->n++;
}

static void json_quoted(struct buf *b, const char *s)
{
  struct json j;

  json_init(&j, b, 0);
  json_string(&j, NULL, s);
}

/* The head a hopsplit/1 document has, from what the samples say: the
 * settings the reader needs at their defaults, the run marked partial. */
static void nd_head_write(const struct nd_head *h, struct buf *b)
{
  size_t i;
  int m, first = 1;

  buf_puts(b, "{\"schema\":\"hopsplit/1\",\"tool\":{\"libraries\":\"\"},"
              "\"settings\":{");
  buf_printf(b, "\"rounds\":%lld,\"parallel\":1,\"modes\":[",
             (long long)h->rounds);
  for (m = 0; m < MODE_COUNT; m++)
    if (h->modes & (1u << m)) {
      buf_printf(b, "%s\"%s\"", first ? "" : ",", sample_mode_names[m]);
      first = 0;
    }
  buf_puts(b, "],\"order\":\"rotate\",\"seed\":0,\"pause_us\":0,"
              "\"follow\":true,\"max_redirs\":10,\"method\":\"GET\","
              "\"compressed\":false,\"ip_family\":0,\"http\":\"default\","
              "\"insecure\":false,\"location_trusted\":false,"
              "\"trace\":\"auto\",\"show_secrets\":false},\"targets\":[");
  for (i = 0; i < h->n; i++) {
    buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
    json_quoted(b, h->names[i]);
    buf_puts(b, ",\"url\":");
    json_quoted(b, h->urls[i]);
    buf_putc(b, '}');
  }
  buf_puts(b, "],\"started_at\":");
  json_quoted(b, h->started ? h->started : "1970-01-01T00:00:00.000Z");
  buf_puts(b, ",\"finished_at\":");
  json_quoted(b, h->last ? h->last : "1970-01-01T00:00:00.000Z");
  buf_puts(b, ",\"partial\":true");
}

/*
 * getline(3) that reads no line past max bytes: a saved file is capped at
 * REPORT_MAX_SIZE, and a line without end (a stream of one endless line)
 * must end in that error, not in all the memory there is.  Returns the
 * line's length as getline does, -1 at the end of the file, -2 when the
 * line passed max (what was read of it stays in *line).
 */
static ssize_t getline_max(char **line, size_t *cap, FILE *f, size_t max)
{
  size_t len = 0;

  for (;;) {
    size_t room, got;

    if (!*line || *cap - len < 2) {
      *cap = *cap ? *cap * 2 : 4096;
      *line = xrealloc(*line, *cap);
    }
    /* Never more than one byte past max into memory. */
    room = *cap - len;
    if (room > max + 2 - len)
      room = max + 2 - len;
    if (!fgets(*line + len, room > INT_MAX ? INT_MAX : (int)room, f))
      return len ? (ssize_t)len : -1;
    got = strlen(*line + len);
    len += got;
    if (len > max)
      return -2;
    /* A line ends at its newline; fgets stopped short of the room only
     * there, at the end of the file, or at a NUL byte: then the line is
     * what came before it and the NUL, which is no JSON. */
    if (!got && !feof(f))
      return (ssize_t)len + 1;
    if (!got || (*line)[len - 1] == '\n' || got + 1 < room)
      return len ? (ssize_t)len : -1;
  }
}

/*
 * An NDJSON file (first line already read into *line): every whole line
 * checked, the sample lines and the summary put together as the JSON
 * document they are the lines of, which read_json_file reads.  A last
 * line cut short (the run was killed while writing it) is left out with
 * a warning naming it; without a summary line the document's head is
 * made from the samples and the report says partial.
 */
static int read_ndjson_file(struct report_saved *saved, FILE *f,
                            const char *name, char **line, size_t *cap,
                            ssize_t len)
{
  struct buf doc, samples;
  struct nd_head head;
  char *summary = NULL, err[256];
  size_t lineno = 0, n_samples = 0, summary_line = 0;
  int rc = -1;

  memset(saved, 0, sizeof(*saved));
  memset(&head, 0, sizeof(head));
  buf_init(&doc, 0);
  buf_init(&samples, 0);
  for (; len >= 0; len = getline_max(line, cap, f, REPORT_MAX_SIZE)) {
    struct jt v;
    size_t l = (size_t)len;
    int whole = l && (*line)[l - 1] == '\n';

    lineno++;
    while (l && ((*line)[l - 1] == '\n' || (*line)[l - 1] == '\r'))
      l--;
    if (!l)
      continue;
    if (summary) {
      msg_error("%s:%zu: a line after the summary line (%zu)", name, lineno,
                summary_line);
      goto out;
    }
    if (jt_parse(&v, *line, l, err, sizeof(err)) < 0) {
      int last = !whole || getc(f) == EOF;

      if (last) {
        msg_warn("%s:%zu: the last line is cut short (the run was stopped "
                 "while writing it): left out",
                 name, lineno);
        break;
      }
      msg_error("%s:%zu: not JSON: %s", name, lineno, err);
      goto out;
    }
    if (!strncmp(*line, NDJSON_SAMPLE, strlen(NDJSON_SAMPLE))) {
      nd_head_add(&head, &v);
      buf_puts(&samples, n_samples++ ? ",{" : "{");
      buf_add(&samples, *line + strlen(NDJSON_SAMPLE),
              l - strlen(NDJSON_SAMPLE));
    }
    else if (!strncmp(*line, NDJSON_SUMMARY, strlen(NDJSON_SUMMARY)) &&
             (*line)[l - 1] == '}') {
      summary = xstrndup(*line + strlen(NDJSON_SUMMARY),
                         l - 1 - strlen(NDJSON_SUMMARY));
      summary_line = lineno;
    }
    else {
      jt_release(&v);
      msg_error("%s:%zu: not a line of hopsplit's NDJSON (it begins "
                "{\"type\":\"sample\", or {\"type\":\"summary\",)",
                name, lineno);
      goto out;
    }
    jt_release(&v);
    if (doc.len + samples.len > REPORT_MAX_SIZE) {
      msg_error("'%s' is larger than %d MiB", name, REPORT_MAX_SIZE >> 20);
      goto out;
    }
  }
  if (len == -2) {
    msg_error("%s:%zu: a line longer than %d MiB (a saved file is at most "
              "that)",
              name, lineno + 1, REPORT_MAX_SIZE >> 20);
    goto out;
  }
  if (ferror(f)) {
    msg_error("cannot read '%s': %s", name, strerror(errno));
    goto out;
  }
  if (summary) {
    buf_putc(&doc, '{');
    buf_puts(&doc, summary);
  }
  else {
    if (!n_samples) {
      msg_error("'%s': no whole sample line and no summary line: nothing "
                "to report",
                name);
      goto out;
    }
    msg_warn("'%s': no summary line (the run was stopped): its %zu whole "
             "sample%s analysed again, the report marked partial",
             name, n_samples, n_samples == 1 ? "" : "s");
    nd_head_write(&head, &doc);
  }
  buf_puts(&doc, ",\"samples\":[");
  if (samples.len)
    buf_add(&doc, samples.s, samples.len);
  buf_puts(&doc, "]}");
  {
    FILE *m = fmemopen(doc.s, doc.len, "r");

    if (!m) {
      msg_error("cannot read '%s': %s", name, strerror(errno));
      goto out;
    }
    rc = read_json_file(saved, m, name);
    fclose(m);
    if (rc == 0 && !summary)
      saved->results.cut = 1;
  }
out:
  nd_head_release(&head);
  free(summary);
  buf_release(&doc);
  buf_release(&samples);
  return rc;
}

int report_read_file(struct report_saved *saved, FILE *f, const char *name)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int c, rc;

  /* NDJSON begins with a compact object on its first line; a document
   * with "{" and a newline (hopsplit's JSON) or anything else is read as
   * JSON. */
  c = getc(f);
  if (c == EOF || c != '{') {
    if (c != EOF)
      ungetc(c, f);
    return read_json_file(saved, f, name);
  }
  ungetc(c, f);
  len = getline_max(&line, &cap, f, REPORT_MAX_SIZE);
  if (len == -2) {
    free(line);
    memset(saved, 0, sizeof(*saved));
    return msg_error("%s:1: a line longer than %d MiB (a saved file is at "
                     "most that)",
                     name, REPORT_MAX_SIZE >> 20);
  }
  if (len > 9 && !strncmp(line, "{\"type\":\"", 9)) {
    rc = read_ndjson_file(saved, f, name, &line, &cap, len);
    free(line);
    return rc;
  }
  /* JSON after all: from the start again (a pipe is read whole). */
  if (fseek(f, 0, SEEK_SET) == 0) {
    free(line);
    return read_json_file(saved, f, name);
  }
  {
    struct buf all;
    char tmp[65536];
    size_t k;
    FILE *m;

    buf_init(&all, 0);
    if (len > 0)
      buf_add(&all, line, (size_t)len);
    free(line);
    while ((k = fread(tmp, 1, sizeof(tmp), f)) > 0 &&
           all.len <= REPORT_MAX_SIZE)
      buf_add(&all, tmp, k);
    if (all.len > REPORT_MAX_SIZE) {
      buf_release(&all);
      memset(saved, 0, sizeof(*saved));
      return msg_error("'%s' is larger than %d MiB", name,
                       REPORT_MAX_SIZE >> 20);
    }
    if (!all.s)
      buf_putc(&all, ' ');
    m = fmemopen(all.s, all.len, "r");
    if (!m) {
      buf_release(&all);
      memset(saved, 0, sizeof(*saved));
      return msg_error("cannot read '%s': %s", name, strerror(errno));
    }
    rc = read_json_file(saved, m, name);
    fclose(m);
    buf_release(&all);
    return rc;
  }
}

static int read_json_file(struct report_saved *saved, FILE *f,
                          const char *name)
{
  struct jt_reader jr;
  struct jt doc, v;
  struct rd r;
  char *key = NULL;
  size_t i;
  int more, have_head = 0, have_samples = 0;

  memset(saved, 0, sizeof(*saved));
  options_init(&saved->opts);
  results_init(&saved->results);
  memset(&r, 0, sizeof(r));
  memset(&doc, 0, sizeof(doc));
  doc.type = JT_OBJECT;
  r.name = name;
  jt_reader_init(&jr, f);
  if (!jt_reader_at_object(&jr)) {
    /* Not an object: read it whole, for the reason (bad JSON, too deep,
     * or a document of another shape). */
    if (jt_reader_value(&jr, &v) < 0)
      goto bad_json;
    jt_release(&v);
    problem(&r, "", "(document)", "expected an object");
    goto out;
  }
  if (jt_reader_begin(&jr, 1) < 0)
    goto bad_json;
  /* Members one at a time; each sample is read, kept as a struct sample
   * and its tree freed before the next (hopsplit writes "samples"
   * last). */
  while ((more = jt_reader_key(&jr, &key)) > 0) {
    if (have_head && pick(key, head_keys, (int)(ARRAY_SIZE(head_keys))) >= 0) {
      /* Read when "samples" begins, so it would be left unread. */
      problem(&r, "", key, "after \"samples\" (hopsplit writes it before)");
      goto out;
    }
    if (strcmp(key, "samples")) {
      if (jt_reader_value(&jr, &v) < 0)
        goto bad_json;
      member_add(&doc, key, &v);
      key = NULL;
      continue;
    }
    FREE_AND_NULL(key);
    if (have_samples++) {
      problem(&r, "", "samples", "given twice");
      goto out;
    }
    if (head_of(&r, &doc, saved) < 0)
      goto out;
    have_head = 1;
    if (jt_reader_begin(&jr, 0) < 0) {
      problem(&r, "", "samples", "expected an array");
      goto out;
    }
    while ((more = jt_reader_item(&jr)) > 0 && !r.bad) {
      struct sample s;

      if (jt_reader_value(&jr, &v) < 0)
        goto bad_json;
      sample_init(&s);
      sample_of(&r, &v, saved->results.n, &saved->plan, &s);
      results_add(&saved->results, &s);
      jt_release(&v);
    }
    if (r.bad)
      goto out;
    if (more < 0)
      goto bad_json;
  }
  if (more < 0 || jt_reader_end(&jr) < 0)
    goto bad_json;
  if (!have_head) {
    if (head_of(&r, &doc, saved) < 0)
      goto out;
    problem(&r, "", "samples", "expected an array");
    goto out;
  }
  traces_of(&r, &doc, &saved->results);
  {
    const struct jt *cl = arr_of(&r, &doc, "", "comparison");
    char at[48];

    /* Only "paired": false (a merged document) is read; the rest of a
     * comparison is computed again. */
    for (i = 0; i < jt_len(cl) && !r.bad; i++) {
      const struct jt *c = jt_at(cl, i);

      snprintf(at, sizeof(at), "comparison[%zu]", i);
      if (c->type != JT_OBJECT)
        problem(&r, at, NULL, "expected an object");
      else if (member(c, "paired") && !bool_of(&r, c, at, "paired"))
        saved->unpaired = 1;
    }
  }
  checks_of(&r, &doc, saved);
  goto out;
bad_json:
  if (!r.bad)
    msg_error("'%s' is not JSON: %s", name, jr.err);
  r.bad = 1;
out:
  free(key);
  jt_release(&doc);
  if (r.bad) {
    report_saved_release(saved);
    return -1;
  }
  return 0;
}

int report_read(struct report_saved *saved, const char *text, size_t len,
                const char *name)
{
  FILE *f;
  int rc;

  if (len > REPORT_MAX_SIZE) {
    memset(saved, 0, sizeof(*saved));
    return msg_error("'%s' is larger than %d MiB", name,
                     REPORT_MAX_SIZE >> 20);
  }
  if (!len) {
    memset(saved, 0, sizeof(*saved));
    return msg_error("'%s' is not JSON: line 1: unexpected end of input",
                     name);
  }
  f = fmemopen((void *)(uintptr_t)text, len, "r");
  if (!f) {
    memset(saved, 0, sizeof(*saved));
    return msg_error("cannot read '%s': %s", name, strerror(errno));
  }
  rc = report_read_file(saved, f, name);
  fclose(f);
  return rc;
}

void report_saved_release(struct report_saved *saved)
{
  if (saved->has_checks)
    check_set_release(&saved->checks);
  results_release(&saved->results);
  plan_release(&saved->plan);
  options_release(&saved->opts);
  free(saved->libraries);
  memset(saved, 0, sizeof(*saved));
}
