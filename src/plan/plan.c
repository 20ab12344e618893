/*
 * plan.c: options and target arguments -> struct plan.  Validates every
 * target, reports every problem in one pass, names targets, lists the
 * (target, mode) pairs and fixes the seed.  No network.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "edge.h"
#include "msg.h"
#include "plan.h"
#include "schedule.h"
#include "strutil.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* NAME=URL when the part before '=' is a plain name (no ':' or '/'), so
 * that "https://x/?a=b" stays a URL. */
static int split_named(const char *arg, char **name, const char **url)
{
  const char *eq = strchr(arg, '=');
  const char *p;

  if (!eq || eq == arg)
    return 0;
  for (p = arg; p < eq; p++)
    if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
      return 0;
  *name = xstrndup(arg, (size_t)(eq - arg));
  *url = eq + 1;
  return 1;
}

static int check_url(const char *arg)
{
  char msg[1024];

  if (url_target_problem(arg, msg, sizeof(msg)) < 0)
    return msg_error("%s", msg);
  return 0;
}

static char *host_of(const char *url)
{
  struct url u;
  char err[256];
  char *h = NULL;

  memset(&u, 0, sizeof(u));
  if (url_parse(&u, url, err, sizeof(err)) == 0 && u.host)
    h = xstrdup(u.host);
  url_release(&u);
  return h;
}

/* HOST/PATH of url (the path without its query, of the redacted URL: a
 * name is shown everywhere, a token in a path never), or NULL when url
 * does not parse; caller frees. */
static char *host_path_of(const char *url)
{
  struct url u;
  char err[256];
  char *h = NULL, *red = url_redact(url);

  memset(&u, 0, sizeof(u));
  if (url_parse(&u, red, err, sizeof(err)) == 0 && u.host)
    h = xasprintf("%s%s", u.host, u.path && strcmp(u.path, "/") ? u.path : "");
  url_release(&u);
  free(red);
  return h;
}

/* Whether name is free for target i: no other target has it, as its
 * given name or as the candidate of the same kind (by kind(url)). */
static int name_unique(const struct plan *p, const int *named, size_t i,
                       const char *name, char *(*kind)(const char *))
{
  size_t j;
  int unique = 1;

  for (j = 0; unique && j < p->n_targets; j++) {
    char *o;

    if (j == i)
      continue;
    if (named[j] && !strcmp(p->targets[j].name, name))
      unique = 0;
    o = kind(p->targets[j].url);
    if (o && !strcmp(o, name))
      unique = 0;
    free(o);
  }
  return unique;
}

/* Unnamed targets are named after their host when that host is unique
 * among all targets and no other target has that name, else after their
 * host and path (origin.test/img/1.jpg) when those are unique, else t1,
 * t2 ... by position (hopsplit(1) MEASUREMENT): a batch of 50 URLs on one
 * host gets names a reader can tell apart. */
static void name_targets(struct plan *p, const int *named)
{
  size_t i;

  for (i = 0; i < p->n_targets; i++) {
    char *h;

    if (named[i])
      continue;
    h = host_of(p->targets[i].url);
    if (h && name_unique(p, named, i, h, host_of)) {
      p->targets[i].name = h;
      continue;
    }
    free(h);
    h = host_path_of(p->targets[i].url);
    if (h && name_unique(p, named, i, h, host_path_of)) {
      p->targets[i].name = h;
      continue;
    }
    free(h);
    p->targets[i].name = xasprintf("t%zu", i + 1);
  }
}

static void plan_items(struct plan *p, const struct options *o, int written);

static const char *protocol_name(enum http_pref h)
{
  return h == HTTP_PREF_1_1 ? "h1" : h == HTTP_PREF_2 ? "h2" : "h3";
}

/*
 * --protocols: every target of p becomes one target per protocol, in the
 * order given, each with its own options (the HTTP version of that
 * protocol; h3 is --http3-only, so that its leg is HTTP/3 or fails) and
 * named after it ("h2", "h3"; "NAME-h2" with several URLs).  The first
 * protocol's target of the first URL is the baseline; rounds pair them.
 * With an h3 leg, the h1 and h2 legs run on the HTTP/3 library too
 * (gnutls_leg): one TLS library for every leg, like for like.
 */
static int expand_protocols(struct plan *p, const struct options *o)
{
  size_t n = p->n_targets, m = (size_t)o->n_protocols, i, k;
  struct target *t;
  int h3 = 0;

  if (o->http != HTTP_PREF_DEFAULT)
    return msg_error("option --protocols sets each target's HTTP version: "
                     "drop --http1.1, --http2, --http3 and --http3-only");
  for (k = 0; k < m; k++)
    h3 |= o->protocols[k] == HTTP_PREF_3_ONLY;
  t = xcalloc(n * m, sizeof(*t));
  for (i = 0; i < n; i++)
    for (k = 0; k < m; k++) {
      struct target *d = &t[i * m + k];

      d->name = n == 1 ? xstrdup(protocol_name(o->protocols[k]))
                       : xasprintf("%s-%s", p->targets[i].name,
                                   protocol_name(o->protocols[k]));
      d->url = xstrdup(p->targets[i].url);
      d->own_opts = xmalloc(sizeof(*d->own_opts));
      options_copy(d->own_opts, o);
      d->own_opts->http = o->protocols[k];
      d->own_opts->gnutls_leg = h3 && o->protocols[k] != HTTP_PREF_3_ONLY;
      d->opts = d->own_opts;
    }
  for (i = 0; i < n; i++) {
    free(p->targets[i].name);
    free(p->targets[i].url);
  }
  free(p->targets);
  p->targets = t;
  p->n_targets = n * m;
  return 0;
}

int plan_build(struct plan *p, const struct options *o, char *const *args,
               size_t n_args)
{
  size_t i, j;
  int bad = 0;
  int *named;

  memset(p, 0, sizeof(*p));
  p->opts = o;
  if (!n_args)
    return msg_error("no URL given (usage: hopsplit [OPTIONS] URL ...; "
                     "see hopsplit --help)");
  named = xcalloc(n_args, sizeof(*named));
  p->targets = xcalloc(n_args, sizeof(*p->targets));
  p->n_targets = n_args;
  for (i = 0; i < n_args; i++) {
    char *name = NULL;
    const char *raw = args[i];

    if (split_named(args[i], &name, &raw)) {
      named[i] = 1;
      p->targets[i].name = name;
    }
    if (!*raw) {
      bad |= msg_error("target '%s': empty URL", args[i]) < 0;
      p->targets[i].url = xstrdup("");
      continue;
    }
    p->targets[i].url = url_normalize_arg(raw);
    p->targets[i].opts = o;
    if (check_url(raw) < 0)
      bad = 1;
  }
  for (i = 0; i < n_args; i++)
    for (j = i + 1; j < n_args; j++)
      if (named[i] && named[j] &&
          !strcmp(p->targets[i].name, p->targets[j].name)) {
        msg_error("target name '%s' is used twice (targets %zu and %zu)",
                  p->targets[i].name, i + 1, j + 1);
        bad = 1;
      }
  if (o->client_location) {
    struct edge_client cl;
    char *err = NULL;

    if (edge_client_parse(o->client_location, &cl, &err) < 0) {
      msg_error("option --client-location: %s", err ? err : "bad value");
      bad = 1;
    }
    free(err);
  }
  if (!bad)
    name_targets(p, named);
  free(named);
  if (!bad && o->n_protocols && expand_protocols(p, o) < 0)
    bad = 1;
  if (bad) {
    plan_release(p);
    return -1;
  }
  plan_items(p, o, o->rounds_set);
  if (plan_resolve_names(p) < 0) {
    plan_release(p);
    return -1;
  }
  return 0;
}

int plan_build_targets(struct plan *p, const struct options *o,
                       const struct plan_target_spec *specs, size_t n)
{
  size_t i, j;
  int bad = 0;

  memset(p, 0, sizeof(*p));
  p->opts = o;
  if (!n)
    return msg_error("no target given");
  p->targets = xcalloc(n, sizeof(*p->targets));
  p->n_targets = n;
  for (i = 0; i < n; i++) {
    struct target *t = &p->targets[i];

    t->name = xstrdup(specs[i].name);
    t->url = url_normalize_arg(specs[i].url);
    t->own_opts = xmalloc(sizeof(*t->own_opts));
    options_copy(t->own_opts, specs[i].opts);
    t->opts = t->own_opts;
    if (check_url(specs[i].url) < 0)
      bad = 1;
    for (j = 0; j < i; j++)
      if (!strcmp(specs[j].name, specs[i].name)) {
        msg_error("target name '%s' is used twice (targets %zu and %zu)",
                  specs[i].name, j + 1, i + 1);
        bad = 1;
      }
  }
  if (bad) {
    plan_release(p);
    return -1;
  }
  /* A profile states its rounds: it runs as written. */
  plan_items(p, o, 1);
  if (plan_resolve_names(p) < 0) {
    plan_release(p);
    return -1;
  }
  return 0;
}

static long target_index(const struct plan *p, const char *name)
{
  size_t i;

  for (i = 0; i < p->n_targets; i++)
    if (!strcmp(p->targets[i].name, name))
      return (long)i;
  return -1;
}

static void unknown_target(const struct plan *p, const char *what,
                           const char *name)
{
  const char **names = xcalloc(p->n_targets, sizeof(*names));
  const char *hint;
  size_t i;

  for (i = 0; i < p->n_targets; i++)
    names[i] = p->targets[i].name;
  hint = str_closest(name, names, p->n_targets);
  if (hint)
    msg_error("option %s: no target is named '%s' (did you mean '%s'?)", what,
              name, hint);
  else
    msg_error("option %s: no target is named '%s' (targets: %s%s)", what, name,
              names[0], p->n_targets > 1 ? ", ..." : "");
  free(names);
}

/* Whoever built the plan (plan_build from options, report_read from a
 * saved document) releases it here. */
void plan_release(struct plan *p)
{
  size_t i;

  for (i = 0; i < p->n_targets; i++) {
    free(p->targets[i].name);
    free(p->targets[i].url);
    free(p->targets[i].vantage);
    free(p->targets[i].primes);
    if (p->targets[i].own_opts) {
      options_release(p->targets[i].own_opts);
      free(p->targets[i].own_opts);
    }
  }
  free(p->targets);
  free(p->items);
  free(p->vantage);
  memset(p, 0, sizeof(*p));
}

/* Whether an unknown --prime name was already reported: an earlier spec
 * of target i, or any spec of an earlier target, names it too (profile
 * targets each carry a copy of the defaults). */
static int seen_before(const struct plan *p, size_t i, size_t k,
                       const char *name)
{
  size_t j, m;

  for (j = 0; j <= i; j++) {
    const struct options *to =
        p->targets[j].opts ? p->targets[j].opts : p->opts;

    for (m = 0; m < (j == i ? k : to->n_primes); m++)
      if (to->primes[m].target && !strcmp(to->primes[m].target, name))
        return 1;
  }
  return 0;
}

int plan_resolve_names(struct plan *p)
{
  const struct options *o = p->opts;
  size_t i, k;
  int bad = 0;

  p->baseline = 0;
  p->compare_all = o->compare_all;
  if (o->parallel > 1 && (o->baseline || o->compare_all)) {
    msg_error("option --parallel: a comparison (%s) is measured in paired "
              "rounds, strictly one sample at a time: drop --parallel or %s",
              o->baseline ? "--baseline" : "--compare all",
              o->baseline ? "--baseline" : "--compare");
    bad = 1;
  }
  if (o->baseline) {
    long b = target_index(p, o->baseline);

    if (b < 0) {
      unknown_target(p, "--baseline", o->baseline);
      bad = 1;
    }
    else
      p->baseline = (size_t)b;
  }
  for (i = 0; i < p->n_targets; i++) {
    const struct options *to = p->targets[i].opts ? p->targets[i].opts : o;
    struct target *t = &p->targets[i];

    for (k = 0; k < to->n_primes; k++) {
      const struct prime_spec *ps = &to->primes[k];

      if (ps->target && target_index(p, ps->target) < 0) {
        if (!seen_before(p, i, k, ps->target))
          unknown_target(p, "--prime", ps->target);
        bad = 1;
        continue;
      }
      if (ps->target && strcmp(ps->target, t->name))
        continue;
      t->primes = xrealloc(t->primes, (t->n_primes + 1) * sizeof(*t->primes));
      t->primes[t->n_primes++] = ps->url;
    }
  }
  return bad ? -1 : 0;
}

/* The (target, mode) items, rounds and seed of a plan whose targets are
 * set.  An unsafe request (options_unsafe) is sent once, cold, without
 * priming, as curl sends it, unless the rounds are written (-n, a
 * profile): a DELETE or a POST is not repeated unasked (hopsplit(1)). */
static void plan_items(struct plan *p, const struct options *o, int written)
{
  size_t i, j;
  unsigned modes = o->modes;
  int m;

  p->rounds = o->rounds;
  if (!written && options_unsafe(o)) {
    p->unsafe_once = 1;
    p->rounds = 1;
    modes = 1u << MODE_COLD;
  }
  for (m = 0; m < MODE_COUNT; m++)
    if (modes & (1u << m))
      p->modes[p->n_modes++] = (enum sample_mode)m;
  p->n_items = p->n_targets * p->n_modes;
  p->items = xcalloc(p->n_items, sizeof(*p->items));
  for (i = 0; i < p->n_targets; i++)
    for (j = 0; j < p->n_modes; j++) {
      p->items[i * p->n_modes + j].target = i;
      p->items[i * p->n_modes + j].mode = p->modes[j];
    }
  if (o->vantage) {
    p->vantage = xstrdup(o->vantage);
  }
  else {
    char host[256];

    /* POSIX leaves a truncated name unterminated. */
    if (gethostname(host, sizeof(host) - 1) < 0)
      snprintf(host, sizeof(host), "unknown");
    host[sizeof(host) - 1] = '\0';
    p->vantage = xstrdup(host);
  }
  if (o->seed_set) {
    p->seed = o->seed;
  }
  else {
    uint64_t now = (uint64_t)clock_wall_us();

    p->seed = ((now / 1000000) * 1000003u ^ (now % 1000000) * 1000 ^
               (uint64_t)getpid()) &
              0x7fffffffu;
  }
}

void plan_round_order(const struct plan *p, long round, size_t *perm)
{
  schedule_round(p->opts->order, p->n_items, (int)round, p->seed, perm);
}

long plan_unsafe_requests(const struct plan *p, size_t t)
{
  long n = 0;
  size_t i;

  if (!options_unsafe(p->targets[t].opts))
    return 0;
  for (i = 0; i < p->n_items; i++)
    if (p->items[i].target == t)
      n += p->rounds + (p->items[i].mode != MODE_COLD);
  return n;
}

void plan_unsafe_notice(const struct plan *p)
{
  size_t t;

  for (t = 0; t < p->n_targets; t++) {
    long n = plan_unsafe_requests(p, t);
    const struct options *o = p->targets[t].opts;

    if (!n || p->unsafe_once)
      continue;
    msg_warn("%ld %s request%s%s will be sent to '%s' (%ld round%s; an "
             "unsafe request is sent once unless rounds are given)",
             n, options_method(o), n == 1 ? "" : "s",
             options_has_body(o) ? " with a body" : "", p->targets[t].name,
             p->rounds, p->rounds == 1 ? "" : "s");
  }
}

static void print_duration(FILE *f, const char *label, int64_t us)
{
  char t[32];

  /* As the option takes it ("10s", "250ms"): one style for every
   * duration of the plan, never "5000 ms" beside "10.0 s". */
  units_format_setting(us, t, sizeof(t));
  fprintf(f, "  %-18s %s\n", label, t);
}

/* The settings of o, one "  name value" line each; only what differs
 * from the defaults for the less common ones. */
static void print_settings(const struct options *o, int show_secrets, FILE *f)
{
  size_t i;

  if (o->follow)
    fprintf(f, "  %-18s %ld\n", "max-redirs", o->max_redirs);
  else
    fprintf(f, "  %-18s %s\n", "redirects", "not followed");
  print_duration(f, "connect-timeout", o->connect_timeout_us);
  print_duration(f, "max-time", o->max_time_us);
  print_duration(f, "pause", o->pause_us);
  fprintf(f, "  %-18s %s\n", "tls verification",
          o->insecure ? "OFF (-k)" : "on");
  fprintf(f, "  %-18s %s\n", "http",
          o->http == HTTP_PREF_1_1 ? "1.1"
          : o->http == HTTP_PREF_2 ? "2"
          : o->http == HTTP_PREF_3 ? "3 over QUIC, falling back to TCP"
          : o->http == HTTP_PREF_3_ONLY
              ? "3 over QUIC only"
              : "libcurl default (h2 offered by ALPN)");
  fprintf(f, "  %-18s %s\n", "ip",
          o->ip_family == 4   ? "IPv4 only"
          : o->ip_family == 6 ? "IPv6 only"
                              : "both");
  fprintf(f, "  %-18s %s\n", "dns-server",
          o->dns_servers ? o->dns_servers : "system (/etc/resolv.conf)");
  for (i = 0; i < o->n_resolve; i++)
    fprintf(f, "  %-18s %s\n", "resolve", o->resolve[i]);
  for (i = 0; i < o->n_headers; i++) {
    char *h = show_secrets ? xstrdup(o->headers[i])
                           : url_redact_header(o->headers[i]);

    fprintf(f, "  %-18s %s\n", "header", h);
    free(h);
  }
  for (i = 0; i < o->n_outputs; i++)
    fprintf(f, "  %-18s %s (%s)\n", "output", o->outputs[i].path,
            report_format_names[o->outputs[i].format]);
  if (strcmp(o->user_agent, "hopsplit/" HOPSPLIT_VERSION))
    fprintf(f, "  %-18s %s\n", "user-agent", o->user_agent);
  if (o->compressed)
    fprintf(f, "  %-18s %s\n", "compressed", "yes");
  if (o->location_trusted)
    fprintf(f, "  %-18s %s\n", "location-trusted", "yes");
  if (o->cacert)
    fprintf(f, "  %-18s %s\n", "cacert", o->cacert);
  if (o->capath)
    fprintf(f, "  %-18s %s\n", "capath", o->capath);
  for (i = 0; i < o->n_project; i++) {
    const struct net_profile *np = &o->project[i];
    char rtt[UNITS_FMT_SIZE], down[32], up[32];

    units_format_us(np->rtt_us, rtt, sizeof(rtt));
    netprofile_format_rate(np->down_bps, down, sizeof(down));
    netprofile_format_rate(np->up_bps, up, sizeof(up));
    fprintf(f, "  %-18s %s: RTT %s, %s down, %s up", "project", np->name, rtt,
            down, up);
    if (np->loss_ppm)
      fprintf(f, ", loss %g %%", np->loss_ppm / 10000.0);
    fputc('\n', f);
  }
}

/*
 * The settings of target t that differ from those of the run: its lines
 * of print_settings that the run's lines do not have.
 */
static int cmp_line(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_target_settings(const struct plan *p, size_t t, FILE *f)
{
  char *run = NULL, *own = NULL, *line, *end, **lines = NULL;
  size_t run_len = 0, own_len = 0, n = 0, cap = 0;
  FILE *m;
  int first = 1;

  m = open_memstream(&run, &run_len);
  if (!m)
    return;
  print_settings(p->opts, p->opts->show_secrets, m);
  fclose(m);
  m = open_memstream(&own, &own_len);
  if (!m) {
    free(run);
    return;
  }
  print_settings(p->targets[t].opts, p->opts->show_secrets, m);
  fclose(m);
  /* The run's lines, sorted: each line of the target is looked up in
   * log time, not searched for in the whole text (a profile
   * with thousands of headers). */
  for (line = run; *line; line = end + 1) {
    end = strchr(line, '\n');
    if (!end)
      break;
    *end = '\0';
    lines = xgrow(lines, &cap, n + 1, sizeof(*lines));
    lines[n++] = line;
  }
  if (n > 1)
    qsort(lines, n, sizeof(*lines), cmp_line);
  for (line = own; *line; line = end + 1) {
    end = strchr(line, '\n');
    if (!end)
      break;
    *end = '\0';
    if (!n || !bsearch(&line, lines, n, sizeof(*lines), cmp_line)) {
      if (first)
        fprintf(f, "settings of %s:\n", p->targets[t].name);
      first = 0;
      fprintf(f, "%s\n", line);
    }
  }
  free(lines);
  free(run);
  free(own);
}

static void plan_print_raw(const struct plan *p, FILE *f)
{
  const struct options *o = p->opts;
  size_t i, k;
  int nw = 12;

  fprintf(f, "plan: %zu target%s, %ld round%s, modes", p->n_targets,
          p->n_targets == 1 ? "" : "s", p->rounds, p->rounds == 1 ? "" : "s");
  for (i = 0; i < p->n_modes; i++)
    fprintf(f, "%s%s", i ? "," : " ", sample_mode_names[p->modes[i]]);
  fprintf(f, ", order %s, seed %llu\n", schedule_order_name(o->order),
          (unsigned long long)p->seed);
  if (o->parallel > 1 && p->n_targets > 1)
    fprintf(
        f,
        "samples: %ld (%ld rounds x %zu target-mode pairs), up to %ld "
        "targets at once, after a serial control of %ld\n",
        p->rounds * (long)p->n_items, p->rounds, p->n_items, o->parallel,
        (p->rounds < PLAN_CONTROL_ROUNDS ? p->rounds : PLAN_CONTROL_ROUNDS) *
            (long)p->n_items);
  else
    fprintf(f,
            "samples: %ld (%ld rounds x %zu target-mode pairs), one at a "
            "time\n",
            p->rounds * (long)p->n_items, p->rounds, p->n_items);
  if (p->unsafe_once)
    fprintf(f,
            "unsafe request (%s): sent once, cold, without priming "
            "(-n N repeats it)\n",
            options_method(o));
  if (p->vantage)
    fprintf(f, "vantage: %s\n", p->vantage);
  fprintf(f, "targets:\n");
  /* The names' column as wide as the longest (of 40 columns at most), so
   * that the methods line up with names by host and path. */
  for (i = 0; i < p->n_targets; i++)
    if (strlen(p->targets[i].name) > (size_t)nw &&
        strlen(p->targets[i].name) <= 40)
      nw = (int)strlen(p->targets[i].name);
  for (i = 0; i < p->n_targets; i++) {
    char *u = o->show_secrets ? xstrdup(p->targets[i].url)
                              : url_redact(p->targets[i].url);

    fprintf(f, "  %-*s %s %s%s\n", nw, p->targets[i].name,
            options_method(p->targets[i].opts ? p->targets[i].opts : o), u,
            i == p->baseline && p->n_targets > 1 ? "  (baseline)" : "");
    free(u);
    for (k = 0; k < p->targets[i].n_primes; k++) {
      char *pu = o->show_secrets ? xstrdup(p->targets[i].primes[k])
                                 : url_redact(p->targets[i].primes[k]);

      fprintf(f, "  %-*s   primed by %s (unmeasured, before each sample)\n",
              nw, "", pu);
      free(pu);
    }
  }
  if (p->compare_all && p->n_targets > 2)
    fprintf(f, "comparisons: every pair of targets (--compare all)\n");
  fprintf(f, "settings:\n");
  print_settings(o, o->show_secrets, f);
  for (i = 0; i < p->n_targets; i++)
    if (p->targets[i].opts && p->targets[i].opts != o)
      print_target_settings(p, i, f);
}

static void put_file(void *ctx, const char *s, size_t n)
{
  fwrite(s, 1, n, ctx);
}

/* The plan as plan_print_raw writes it, with what a terminal would act on
 * (an ESC in a -H value or a URL given on the command line) written as
 * \xNN, as the text report and stderr do (hopsplit(1) Redaction). */
void plan_print(const struct plan *p, FILE *f)
{
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);

  if (!m) {
    msg_error("cannot show the plan: %s", strerror(errno));
    return;
  }
  plan_print_raw(p, m);
  if (fclose(m) == 0)
    str_escape_ctl_to(text, len, STR_KEEP_NL, put_file, f);
  free(text);
}
