/*
 * report_read.c: a saved hopsplit/1 document -> options, plan and results
 * (see report_read.h).  Input: the JSON text a run wrote.  Output: the
 * structs the run had, as far as the document keeps them: URLs, header
 * values and settings come back redacted when the run redacted them, and
 * headers come back once per name, lowercase, as the document lists them,
 * which renders the same again.  Checks types and names; anything else
 * is an error naming the field.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jtree.h"
#include "msg.h"
#include "report_read.h"
#include "strpool.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

struct rd {
  const char *name; /* file name, for messages */
  int bad;
};

static void problem(struct rd *r, const char *where, const char *what)
{
  if (!r->bad)
    msg_error("'%s': %s: %s", r->name, where, what);
  r->bad = 1;
}

static char *opt_str(const struct jt *v)
{
  return jt_str(v) ? xstrdup(jt_str(v)) : NULL;
}

/* Samples keep pooled strings (sample.h). */
static const char *pool_str(const struct jt *v)
{
  return strpool_intern(jt_str(v));
}

static int64_t int_or(struct rd *r, const struct jt *v, const char *where,
                      int64_t dflt)
{
  int64_t n;

  if (!v || v->type == JT_NULL)
    return dflt;
  if (jt_int(v, &n) < 0) {
    problem(r, where, "expected an integer");
    return dflt;
  }
  return n;
}

static int bool_of(struct rd *r, const struct jt *v, const char *where)
{
  if (!v || v->type != JT_BOOL) {
    problem(r, where, "expected true or false");
    return 0;
  }
  return v->b;
}

/* curl's seconds with up to six decimals -> microseconds, exactly. */
static int64_t secs_us(struct rd *r, const struct jt *v, const char *where)
{
  const char *s, *dot;
  int64_t us = 0;
  int i;

  if (!v || v->type == JT_NULL)
    return -1;
  if (v->type != JT_NUMBER || v->s[0] == '-' || strpbrk(v->s, "eE")) {
    problem(r, where, "expected seconds");
    return -1;
  }
  s = v->s;
  dot = strchr(s, '.');
  for (; *s && s != dot; s++)
    us = us * 10 + (*s - '0');
  for (i = 0; i < 6; i++) {
    int d = 0;

    if (dot && dot[1 + i] >= '0' && dot[1 + i] <= '9')
      d = dot[1 + i] - '0';
    else
      dot = NULL;
    us = us * 10 + d;
  }
  return us;
}

static int64_t time_of(struct rd *r, const struct jt *v, const char *where)
{
  int64_t ms = 0;

  if (!v || v->type == JT_NULL)
    return 0;
  if (units_parse_rfc3339_ms(jt_str(v), &ms) < 0)
    problem(r, where, "expected a time like 2024-01-31T12:00:00.000Z");
  return ms;
}

static void strv(const struct jt *a, char ***v, size_t *n)
{
  size_t i;

  for (i = 0; i < jt_len(a); i++)
    if (jt_str(jt_at(a, i))) {
      *v = xrealloc(*v, (*n + 1) * sizeof(**v));
      (*v)[(*n)++] = xstrdup(jt_str(jt_at(a, i)));
    }
}

/* The strings of array a, pooled, in an exact-size vector. */
static void pool_strv(const struct jt *a, const char ***v, uint32_t *n)
{
  size_t i, count = 0;

  for (i = 0; i < jt_len(a); i++)
    if (jt_str(jt_at(a, i)))
      count++;
  if (!count)
    return;
  *v = xmalloc(count * sizeof(**v));
  for (i = 0; i < jt_len(a); i++)
    if (jt_str(jt_at(a, i)))
      (*v)[(*n)++] = strpool_intern(jt_str(jt_at(a, i)));
}

static int pick(const char *v, const char *const *names, int n)
{
  int i;

  for (i = 0; v && i < n; i++)
    if (!strcmp(v, names[i]))
      return i;
  return -1;
}

static void settings(struct rd *r, const struct jt *s, struct options *o)
{
  static const char *const http[] = {"default", "1.1", "2"};
  static const char *const trace[] = {"auto", "always", "never"};
  const struct jt *modes = jt_get(s, "modes");
  size_t i;
  int k;

  if (!s || s->type != JT_OBJECT) {
    problem(r, "settings", "missing");
    return;
  }
  o->rounds = (long)int_or(r, jt_get(s, "rounds"), "settings.rounds", 0);
  o->modes = 0;
  for (i = 0; i < jt_len(modes); i++) {
    enum sample_mode m = MODE_COUNT;

    if (jt_str(jt_at(modes, i)))
      m = sample_mode_from_name(jt_str(jt_at(modes, i)));
    if (m == MODE_COUNT)
      problem(r, "settings.modes", "unknown mode");
    else
      o->modes |= 1u << m;
  }
  if (!o->modes)
    problem(r, "settings.modes", "no mode");
  k = pick(jt_str(jt_get(s, "order")), schedule_order_names, ORDER_COUNT);
  if (k < 0)
    problem(r, "settings.order", "unknown order");
  else
    o->order = (enum schedule_order)k;
  o->seed = (uint64_t)int_or(r, jt_get(s, "seed"), "settings.seed", 0);
  o->seed_set = 1;
  o->pause_us = int_or(r, jt_get(s, "pause_us"), "settings.pause_us", 0);
  o->follow = bool_of(r, jt_get(s, "follow"), "settings.follow");
  o->max_redirs =
      (long)int_or(r, jt_get(s, "max_redirs"), "settings.max_redirs", 10);
  free(o->method);
  o->method = xstrdup(jt_str(jt_get(s, "method")) ? jt_str(jt_get(s, "method"))
                                                  : "GET");
  o->method_set = 1; /* the method as it was sent */
  if (jt_get(s, "fail"))
    o->fail = bool_of(r, jt_get(s, "fail"), "settings.fail");
  strv(jt_get(s, "headers"), &o->headers, &o->n_headers);
  free(o->user_agent);
  o->user_agent = opt_str(jt_get(s, "user_agent"));
  o->compressed = bool_of(r, jt_get(s, "compressed"), "settings.compressed");
  strv(jt_get(s, "resolve"), &o->resolve, &o->n_resolve);
  o->dns_servers = opt_str(jt_get(s, "dns_servers"));
  o->ip_family =
      (int)int_or(r, jt_get(s, "ip_family"), "settings.ip_family", 0);
  k = pick(jt_str(jt_get(s, "http")), http, 3);
  o->http = k < 0 ? HTTP_PREF_DEFAULT : (enum http_pref)k;
  o->cacert = opt_str(jt_get(s, "cacert"));
  o->capath = opt_str(jt_get(s, "capath"));
  o->insecure = bool_of(r, jt_get(s, "insecure"), "settings.insecure");
  o->location_trusted =
      bool_of(r, jt_get(s, "location_trusted"), "settings.location_trusted");
  o->connect_timeout_us = int_or(r, jt_get(s, "connect_timeout_us"),
                                 "settings.connect_timeout_us", 0);
  o->max_time_us =
      int_or(r, jt_get(s, "max_time_us"), "settings.max_time_us", 0);
  k = pick(jt_str(jt_get(s, "trace")), trace, 3);
  o->trace = k < 0 ? TRACE_AUTO : (enum trace_mode)k;
  o->client_location = opt_str(jt_get(s, "client_location"));
  o->show_secrets =
      bool_of(r, jt_get(s, "show_secrets"), "settings.show_secrets");
}

static void plan_of(struct rd *r, const struct jt *targets,
                    const struct options *o, struct plan *p)
{
  size_t i, j;
  int m;

  p->opts = o;
  p->n_targets = jt_len(targets);
  if (!p->n_targets)
    problem(r, "targets", "no target");
  p->targets = xcalloc(p->n_targets ? p->n_targets : 1, sizeof(*p->targets));
  for (i = 0; i < p->n_targets; i++) {
    const struct jt *t = jt_at(targets, i);

    p->targets[i].name = opt_str(jt_get(t, "name"));
    p->targets[i].url = opt_str(jt_get(t, "url"));
    p->targets[i].vantage = opt_str(jt_get(t, "vantage"));
    p->targets[i].opts = o;
    if (!p->targets[i].name || !p->targets[i].url)
      problem(r, "targets", "a target without name or url");
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
}

static void hop_of(struct rd *r, const struct jt *j, struct hop *h)
{
  const struct jt *tls = jt_get(j, "tls"), *dns = jt_get(j, "dns");
  const struct jt *ph = jt_get(j, "phases_us"), *cu = jt_get(j, "curl");
  const struct jt *hd = jt_get(j, "headers");
  size_t i, n = 0;
  int k;

  if (!j || j->type != JT_OBJECT) {
    problem(r, "samples[].hops[]", "expected an object");
    return;
  }
  h->url = pool_str(jt_get(j, "url"));
  h->method = pool_str(jt_get(j, "method"));
  h->host = pool_str(jt_get(j, "host"));
  h->status = (long)int_or(r, jt_get(j, "status"), "hop.status", 0);
  h->http_version = pool_str(jt_get(j, "http_version"));
  h->remote_ip = pool_str(jt_get(j, "remote_ip"));
  h->remote_port =
      (long)int_or(r, jt_get(j, "remote_port"), "hop.remote_port", 0);
  h->reused = bool_of(r, jt_get(j, "reused"), "hop.reused");
  h->start_us = int_or(r, jt_get(j, "start_us"), "hop.start_us", 0);
  h->tls.version = pool_str(jt_get(tls, "version"));
  h->tls.cipher = pool_str(jt_get(tls, "cipher"));
  h->tls.alpn = pool_str(jt_get(tls, "alpn"));
  if (jt_get(tls, "resumed") && jt_get(tls, "resumed")->type == JT_BOOL)
    h->tls.resumed = jt_get(tls, "resumed")->b;
  if (jt_get(tls, "offered") && jt_get(tls, "offered")->type == JT_BOOL)
    h->tls.offered = jt_get(tls, "offered")->b;
  h->tls.not_offered = pool_str(jt_get(tls, "not_offered"));
  h->local_port =
      (long)int_or(r, jt_get(j, "local_port"), "hop.local_port", 0);
  {
    const char *fam = jt_str(jt_get(j, "family"));
    const struct jt *fb = jt_get(j, "fallback");
    const struct jt *fl = jt_get(dns, "failed_servers");

    h->family = !fam                   ? 0
                : !strcmp(fam, "ipv6") ? 6
                : !strcmp(fam, "ipv4") ? 4
                                       : 0;
    if (fb && fb->type == JT_OBJECT) {
      const char *ff = jt_str(jt_get(fb, "family"));

      h->fallback.address = pool_str(jt_get(fb, "address"));
      h->fallback.family = ff && !strcmp(ff, "ipv6") ? 6 : 4;
      h->fallback.reason = pool_str(jt_get(fb, "reason"));
      h->fallback.lost_us =
          int_or(r, jt_get(fb, "lost_us"), "hop.fallback.lost_us", 0);
    }
    for (i = 0; i < jt_len(fl) && i < DNS_FAILURES_MAX; i++) {
      const struct jt *f = &fl->v[i];

      h->dns.failed[i].server = pool_str(jt_get(f, "server"));
      h->dns.failed[i].rcode = pool_str(jt_get(f, "rcode"));
      h->dns.failed[i].us = int_or(r, jt_get(f, "us"), "hop.dns.failed", 0);
      h->dns.n_failed = (uint32_t)i + 1;
    }
  }
  h->timing_anomaly = pool_str(jt_get(j, "timing_anomaly"));
  h->dns.us = int_or(r, jt_get(dns, "us"), "hop.dns.us", 0);
  h->dns.server = pool_str(jt_get(dns, "server"));
  pool_strv(jt_get(dns, "addresses"), &h->dns.addresses, &h->dns.n_addresses);
  pool_strv(jt_get(dns, "cnames"), &h->dns.cnames, &h->dns.n_cnames);
  h->dns.ttl = (long)int_or(r, jt_get(dns, "ttl"), "hop.dns.ttl", -1);
  h->dns.pinned = bool_of(r, jt_get(dns, "pinned"), "hop.dns.pinned");
  h->dns.cached = bool_of(r, jt_get(dns, "cached"), "hop.dns.cached");
  h->dns.literal = bool_of(r, jt_get(dns, "literal"), "hop.dns.literal");
  for (k = 0; k < PHASE_COUNT; k++)
    h->phases[k] = int_or(r, jt_get(ph, phase_names[k]), "hop.phases_us", 0);
  h->curl.namelookup = secs_us(r, jt_get(cu, "time_namelookup"), "hop.curl");
  h->curl.connect = secs_us(r, jt_get(cu, "time_connect"), "hop.curl");
  h->curl.appconnect = secs_us(r, jt_get(cu, "time_appconnect"), "hop.curl");
  h->curl.pretransfer = secs_us(r, jt_get(cu, "time_pretransfer"), "hop.curl");
  h->curl.posttransfer =
      secs_us(r, jt_get(cu, "time_posttransfer"), "hop.curl");
  h->curl.starttransfer =
      secs_us(r, jt_get(cu, "time_starttransfer"), "hop.curl");
  h->curl.total = secs_us(r, jt_get(cu, "time_total"), "hop.curl");
  h->size_download =
      int_or(r, jt_get(j, "size_download"), "hop.size_download", 0);
  h->size_decoded =
      int_or(r, jt_get(j, "size_decoded"), "hop.size_decoded", 0);
  h->size_header = int_or(r, jt_get(j, "size_header"), "hop.size_header", 0);
  h->location = pool_str(jt_get(j, "location"));
  for (i = 0; i < jt_len(hd); i++)
    if (jt_str(&hd->v[i]))
      n++;
  if (n)
    h->headers = xmalloc(n * sizeof(*h->headers));
  for (i = 0; i < jt_len(hd); i++)
    if (jt_str(&hd->v[i])) {
      h->headers[h->n_headers].name = strpool_intern(hd->k[i]);
      h->headers[h->n_headers].value = strpool_intern(jt_str(&hd->v[i]));
      h->n_headers++;
    }
}

static void sample_of(struct rd *r, const struct jt *j, const struct plan *p,
                      struct sample *s)
{
  const char *target = jt_str(jt_get(j, "target"));
  const char *mode = jt_str(jt_get(j, "mode"));
  const struct jt *err = jt_get(j, "error");
  const struct jt *hops = jt_get(j, "hops");
  size_t i;

  if (!j || j->type != JT_OBJECT) {
    problem(r, "samples[]", "expected an object");
    return;
  }
  for (i = 0; i < p->n_targets; i++)
    if (target && !strcmp(p->targets[i].name, target))
      break;
  if (i == p->n_targets)
    problem(r, "samples[].target", "not the name of a target");
  s->target = i < p->n_targets ? i : 0;
  s->mode = mode ? sample_mode_from_name(mode) : MODE_COUNT;
  if (s->mode == MODE_COUNT) {
    problem(r, "samples[].mode", "unknown mode");
    s->mode = MODE_COLD;
  }
  s->round = (int)int_or(r, jt_get(j, "round"), "samples[].round", 0);
  s->position = (int)int_or(r, jt_get(j, "position"), "samples[].position", 0);
  s->started_at_ms =
      time_of(r, jt_get(j, "started_at"), "samples[].started_at");
  s->ok = bool_of(r, jt_get(j, "ok"), "samples[].ok");
  s->primed = pool_str(jt_at(jt_get(j, "primed"), 0));
  if (!s->ok) {
    const char *cls = jt_str(jt_get(err, "class"));

    s->err = cls ? err_class_from_name(cls) : ERR_COUNT;
    if (s->err == ERR_COUNT || s->err == ERR_NONE) {
      problem(r, "samples[].error.class", "unknown error class");
      s->err = ERR_HTTP;
    }
    s->err_message = pool_str(jt_get(err, "message"));
  }
  s->total_us = int_or(r, jt_get(j, "total_us"), "samples[].total_us", 0);
  s->redirect_us =
      int_or(r, jt_get(j, "redirect_us"), "samples[].redirect_us", 0);
  s->other_us = int_or(r, jt_get(j, "other_us"), "samples[].other_us", 0);
  for (i = 0; i < jt_len(hops); i++) {
    struct hop *h = sample_add_hop(s);

    hop_of(r, jt_at(hops, i), h);
    hop_pool_arrays(h);
    s->status = h->status; /* older files: the last hop's */
  }
}

/* /cdn-cgi/trace fetches, when the document keeps them. */
static void traces_of(struct rd *r, const struct jt *list, struct results *res)
{
  size_t i;

  for (i = 0; i < jt_len(list); i++) {
    const struct jt *t = jt_at(list, i);
    const char *origin = jt_str(jt_get(t, "origin"));
    const char *host = jt_str(jt_get(t, "host"));
    struct trace_fetch *f;

    if (!origin || !host) {
      problem(r, "traces[]", "expected origin and host");
      continue;
    }
    f = results_add_trace(res, origin, host);
    f->body = opt_str(jt_get(t, "body"));
    f->len = f->body ? strlen(f->body) : 0;
    f->status = (long)int_or(r, jt_get(t, "status"), "traces[].status", 0);
    f->error = opt_str(jt_get(t, "error"));
  }
}

static size_t target_index(struct rd *r, const struct plan *p,
                           const char *name, const char *where)
{
  size_t i;

  for (i = 0; name && i < p->n_targets; i++)
    if (!strcmp(p->targets[i].name, name))
      return i;
  problem(r, where, "unknown target");
  return 0;
}

/* The definitions of a profile run's checks, as report_checks.c wrote
 * them; evaluated again from the rebuilt analysis. */
static void checks_of(struct rd *r, const struct jt *doc,
                      struct report_saved *saved)
{
  const struct jt *list = jt_get(doc, "checks");
  struct check_set *cs = &saved->checks;
  char err[160];
  size_t i, k;

  check_set_init(cs);
  if (!list || list->type != JT_ARRAY)
    return;
  saved->has_checks = 1;
  cs->profile = opt_str(jt_path(doc, "profile.name"));
  cs->file = opt_str(jt_path(doc, "profile.file"));
  for (i = 0; i < jt_len(list) && !r->bad; i++) {
    const struct jt *j = jt_at(list, i);
    const char *kind = jt_str(jt_get(j, "kind"));
    const char *mode = jt_str(jt_get(j, "mode"));
    struct check *c = check_set_add(cs);
    int ki = kind ? pick(kind, check_kind_names, CHECK_KIND_COUNT) : -1;

    if (ki < 0) {
      problem(r, "checks[].kind", "unknown check kind");
      return;
    }
    c->kind = (enum check_kind)ki;
    c->where = opt_str(jt_get(j, "source"));
    c->target = target_index(r, &saved->plan, jt_str(jt_get(j, "target")),
                             "checks[].target");
    if (mode) {
      int m = pick(mode, sample_mode_names, MODE_COUNT);

      c->mode = m < 0 ? MODE_COLD : (enum sample_mode)m;
    }
    else if (c->kind == CHECK_STATUS) {
      c->mode = MODE_COUNT; /* every mode */
    }
    if (c->kind == CHECK_METRIC) {
      const struct jt *mx = jt_get(j, "max_us"), *mn = jt_get(j, "min_us");

      if (check_parse_metric(
              jt_str(jt_get(j, "metric")) ? jt_str(jt_get(j, "metric")) : "",
              &c->phase, &c->stat, err, sizeof(err)) < 0)
        problem(r, "checks[].metric", err);
      c->has_max = mx && mx->type != JT_NULL;
      c->has_min = mn && mn->type != JT_NULL;
      if (c->has_max)
        c->max_us = int_or(r, mx, "checks[].max_us", 0);
      if (c->has_min)
        c->min_us = int_or(r, mn, "checks[].min_us", 0);
    }
    else if (c->kind == CHECK_CACHE) {
      const struct jt *is = jt_get(j, "is"), *hop = jt_get(j, "hop");
      const struct jt *v = is ? is : jt_get(j, "not");

      c->cache_is = is != NULL;
      for (k = 0; k < jt_len(v); k++)
        if (check_parse_cache_verdict(jt_str(jt_at(v, k)) ? jt_str(jt_at(v, k))
                                                          : "",
                                      &c->verdicts, err, sizeof(err)) < 0)
          problem(r, "checks[].is", err);
      if (hop && hop->type == JT_STRING)
        c->hop =
            strcmp(jt_str(hop), "last") ? CHECK_HOP_EVERY : CHECK_HOP_LAST;
      else
        c->hop = (long)int_or(r, hop, "checks[].hop", 0);
    }
    else if (c->kind == CHECK_STATUS) {
      const struct jt *v = jt_get(j, "statuses");

      for (k = 0; k < jt_len(v); k++)
        if (check_parse_status(jt_str(jt_at(v, k)) ? jt_str(jt_at(v, k)) : "",
                               c, err, sizeof(err)) < 0)
          problem(r, "checks[].statuses", err);
    }
    else {
      const struct jt *v = jt_get(j, "verdicts");

      c->baseline = target_index(
          r, &saved->plan, jt_str(jt_get(j, "baseline")), "checks[].baseline");
      for (k = 0; k < jt_len(v); k++)
        if (check_parse_compare_verdict(
                jt_str(jt_at(v, k)) ? jt_str(jt_at(v, k)) : "", &c->verdicts,
                err, sizeof(err)) < 0)
          problem(r, "checks[].verdicts", err);
    }
  }
  saved->plan.checks = cs;
}

/* What comes before "samples": the schema, the settings and the plan. */
static int head_of(struct rd *r, const struct jt *doc,
                   struct report_saved *saved)
{
  if (!jt_str(jt_get(doc, "schema")) ||
      strcmp(jt_str(jt_get(doc, "schema")), "hopsplit/1")) {
    problem(r, "schema", "not a hopsplit/1 document");
    return -1;
  }
  settings(r, jt_get(doc, "settings"), &saved->opts);
  if (r->bad)
    return -1;
  plan_of(r, jt_get(doc, "targets"), &saved->opts, &saved->plan);
  saved->plan.vantage = opt_str(jt_get(doc, "vantage"));
  saved->libraries = opt_str(jt_path(doc, "tool.libraries"));
  if (!saved->libraries)
    saved->libraries = xstrdup("");
  saved->results.started_at_ms =
      time_of(r, jt_get(doc, "started_at"), "started_at");
  saved->results.finished_at_ms =
      time_of(r, jt_get(doc, "finished_at"), "finished_at");
  saved->results.partial = bool_of(r, jt_get(doc, "partial"), "partial");
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

int report_read_file(struct report_saved *saved, FILE *f, const char *name)
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
  if (jt_reader_begin(&jr, 1) < 0)
    goto bad_json;
  /* Members one at a time; each sample is read, kept as a struct sample
   * and its tree freed before the next (hopsplit writes "samples"
   * last). */
  while ((more = jt_reader_key(&jr, &key)) > 0) {
    if (strcmp(key, "samples")) {
      if (jt_reader_value(&jr, &v) < 0)
        goto bad_json;
      member_add(&doc, key, &v);
      key = NULL;
      continue;
    }
    FREE_AND_NULL(key);
    if (have_samples++) {
      problem(&r, "samples", "given twice");
      goto out;
    }
    if (head_of(&r, &doc, saved) < 0)
      goto out;
    have_head = 1;
    if (jt_reader_begin(&jr, 0) < 0) {
      problem(&r, "samples", "expected an array");
      goto out;
    }
    while ((more = jt_reader_item(&jr)) > 0 && !r.bad) {
      struct sample s;

      if (jt_reader_value(&jr, &v) < 0)
        goto bad_json;
      sample_init(&s);
      sample_of(&r, &v, &saved->plan, &s);
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
    problem(&r, "samples", "expected an array");
    goto out;
  }
  traces_of(&r, jt_get(&doc, "traces"), &saved->results);
  {
    const struct jt *cl = jt_get(&doc, "comparison");

    for (i = 0; i < jt_len(cl); i++)
      if (jt_get(jt_at(cl, i), "paired"))
        saved->unpaired = 1;
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
