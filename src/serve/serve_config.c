/*
 * serve_config.c: the command line of "hopsplit serve" and its modules.
 * Input: argv, and the profile of --config.  Output: struct serve_config.
 *
 * The command line goes through the one option table (cli_parse), whose
 * rows for serve are its own options (--listen, --config, --max-concurrent,
 * --timeout-offset) and every measurement option, so a measurement option
 * means the same here as anywhere: given on the serve command line it
 * applies to every module, over the profile, as "hopsplit run" applies its
 * command line.
 *
 * Modules: without --config one, "default": one cold sample per probe (the
 * command line's --rounds and --mode change that).  With --config, one per
 * profile target, named as the target, with its settings (its URL is only
 * shown on the / page: ?target gives the URL probed), and "defaults", the
 * profile's own settings.  "http_2xx", blackbox_exporter's default module
 * name, and a missing ?module mean the default module ("default" or
 * "defaults"), so a scrape configuration written for blackbox works as it
 * is.  A module's rounds and modes are the profile's where it gives them,
 * else one round, cold.
 */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blackbox.h"
#include "cli.h"
#include "option_table.h"
#include "probe.h"
#include "profile.h"
#include "serve_int.h"
#include "serve_msg.h"
#include "xalloc.h"
#include "banned.h"

static void serve_usage(FILE *f)
{
  fputs("usage: hopsplit serve [--listen ADDR:PORT] [--config PROFILE.yaml]\n"
        "                      [--max-concurrent N] [--timeout-offset "
        "SECONDS] [OPTIONS]\n"
        "\n"
        "Answer Prometheus as blackbox_exporter does:\n"
        "  GET /probe?target=URL[&module=NAME][&debug=true]  measure URL "
        "once:\n"
        "      blackbox's probe_* series and hopsplit's per-hop series\n"
        "  GET /metrics  the server's own counters;  GET /  a page "
        "linking both\n"
        "\n"
        "serve options:\n",
        f);
  cli_usage_options(f, OPT_CMD_SERVE, OPT_IN(OPT_CMD_MEASURE));
  fputs("\n"
        "Without --config the module is \"default\": one cold sample per "
        "probe.\n\"http_2xx\" or no module means the default one.  OPTIONS "
        "are those of\nhopsplit --help and apply to every module.  A probe "
        "lasts at most the\nscrape timeout Prometheus sends "
        "(X-Prometheus-Scrape-Timeout-Seconds, else\n120 s) less the "
        "offset.  SIGTERM or SIGINT: stop accepting, answer the\nprobes "
        "under way, exit 0.  SIGHUP: read --config again.  See SERVE in\n"
        "hopsplit(1).\n",
        f);
}

/* Whether the options gave option id (on the command line or in the
 * profile). */
static int was_given(const struct options *o, enum opt_id id)
{
  size_t i;

  for (i = 0; i < o->n_given; i++)
    if (o->given[i].def->id == id)
      return 1;
  return 0;
}

/* What a probe needs of a module's options: no progress bar, no files,
 * one cold sample unless rounds and modes were given. */
static void module_settle(struct options *o)
{
  size_t i;

  if (!was_given(o, OPT_ROUNDS))
    o->rounds = 1;
  if (!was_given(o, OPT_MODE))
    o->modes = 1u << MODE_COLD;
  o->progress = TRI_NEVER;
  o->color = TRI_NEVER;
  o->dry_run = 0;
  for (i = 0; i < o->n_outputs; i++)
    free(o->outputs[i].path);
  free(o->outputs);
  o->outputs = NULL;
  o->n_outputs = 0;
}

static void module_describe(struct serve_module *m, const char *what)
{
  char modes[64] = "";
  int k;

  for (k = 0; k < MODE_COUNT; k++)
    if (m->opts.modes & (1u << k)) {
      if (*modes)
        strncat(modes, ",", sizeof(modes) - strlen(modes) - 1);
      strncat(modes, sample_mode_names[k], sizeof(modes) - strlen(modes) - 1);
    }
  m->about = xasprintf("%s: %ld round%s of %s", what, m->opts.rounds,
                       m->opts.rounds == 1 ? "" : "s", modes);
}

static struct serve_module *
module_add(struct serve_config *c, const char *name, const struct options *o)
{
  struct serve_module *m;

  c->modules = xrealloc(c->modules, (c->n_modules + 1) * sizeof(*c->modules));
  m = &c->modules[c->n_modules++];
  memset(m, 0, sizeof(*m));
  m->name = xstrdup(name);
  options_copy(&m->opts, o);
  module_settle(&m->opts);
  return m;
}

static int load_profile(struct serve_config *c, const struct options *cli)
{
  struct profile pr;
  size_t i;
  int rc = -1;

  profile_init(&pr);
  if (profile_load(&pr, c->profile, cli) < 0)
    goto out;
  for (i = 0; i < pr.n_targets; i++) {
    struct serve_module *m;
    char *what;

    if (!strcmp(pr.targets[i].name, "defaults") ||
        !strcmp(pr.targets[i].name, "http_2xx")) {
      serve_error("profile '%s': target name '%s' is taken by serve's "
                  "default module",
                  c->profile, pr.targets[i].name);
      goto out;
    }
    m = module_add(c, pr.targets[i].name, &pr.targets[i].opts);
    what = xasprintf("target of %s (%s)", pr.name, pr.targets[i].url);
    module_describe(m, what);
    free(what);
  }
  c->default_module = c->n_modules;
  module_describe(module_add(c, "defaults", &pr.opts),
                  "the defaults of the profile");
  rc = 0;
out:
  profile_release(&pr);
  return rc;
}

/* A regexp of a blackbox module as the file gave it. */
struct bb_pattern {
  const char *regexp, *key;
  unsigned long line, col;
};

/* The patterns p[0..n) of module compiled into *out (NULL for none): 0,
 * or -1 after naming the key and the pattern PCRE2 refuses at its
 * file:line:col. */
static int compile_patterns(const char *path, const char *module,
                            const struct bb_pattern *p, size_t n,
                            struct body_regexps **out)
{
  const char **pats;
  size_t k, bad = 0;
  char err[256];

  *out = NULL;
  if (!n)
    return 0;
  pats = xcalloc(n, sizeof(*pats));
  for (k = 0; k < n; k++)
    pats[k] = p[k].regexp;
  *out = probe_body_regexps_new(pats, n, &bad, err, sizeof(err));
  free(pats);
  if (*out)
    return 0;
  if (bad >= n)
    bad = n - 1;
  return serve_error(
      "%s:%lu:%lu: module '%s': '%s': regexp '%s' is not one "
      "hopsplit can search (PCRE2, a superset of the RE2 syntax "
      "blackbox_exporter uses): %s",
      path, p[bad].line, p[bad].col, module, p[bad].key, p[bad].regexp, err);
}

static void pattern_of(struct bb_pattern *p, const char *regexp, int must,
                       const char *key_must, const char *key_not,
                       unsigned long line, unsigned long col)
{
  p->regexp = regexp;
  p->key = must ? key_must : key_not;
  p->line = line;
  p->col = col;
}

/* The body and header regexps of module bb, compiled once. */
static int compile_module(const char *path, const struct blackbox_module *bb,
                          struct body_regexps **bodies,
                          struct body_regexps **headers)
{
  size_t n = bb->n_bodies > bb->n_headers ? bb->n_bodies : bb->n_headers;
  struct bb_pattern *p = xcalloc(n ? n : 1, sizeof(*p));
  size_t k;
  int rc;

  for (k = 0; k < bb->n_bodies; k++)
    pattern_of(&p[k], bb->bodies[k].regexp, bb->bodies[k].must_match,
               "fail_if_body_not_matches_regexp",
               "fail_if_body_matches_regexp", bb->bodies[k].line,
               bb->bodies[k].col);
  rc = compile_patterns(path, bb->name, p, bb->n_bodies, bodies);
  for (k = 0; k < bb->n_headers; k++)
    pattern_of(&p[k], bb->headers[k].regexp, bb->headers[k].must_match,
               "fail_if_header_not_matches", "fail_if_header_matches",
               bb->headers[k].line, bb->headers[k].col);
  if (compile_patterns(path, bb->name, p, bb->n_headers, headers) < 0)
    rc = -1;
  free(p);
  return rc;
}

/* --config FILE of blackbox_exporter's format: a module per module of the
 * file, over the command line's options; the file's http_2xx (else a
 * built-in "default") is the default module. */
static int load_blackbox(struct serve_config *c, const struct options *cli)
{
  size_t i;
  int have_default = 0, bad = 0;

  if (blackbox_load(c->profile, cli, &c->bb, &c->n_bb) < 0)
    return -1;
  c->bodyre = xcalloc(c->n_bb ? c->n_bb : 1, sizeof(*c->bodyre));
  c->headre = xcalloc(c->n_bb ? c->n_bb : 1, sizeof(*c->headre));
  for (i = 0; i < c->n_bb; i++) {
    if (compile_module(c->profile, &c->bb[i], &c->bodyre[i], &c->headre[i]) <
        0)
      bad = 1;
    c->bb[i].opts.body_regexps = c->bodyre[i];
  }
  if (bad)
    return -1;
  for (i = 0; i < c->n_bb; i++) {
    struct serve_module *m;
    char *what;

    if (c->bb[i].unsupported) {
      serve_warn("%s: %s: /probe answers probe_success 0 for it", c->profile,
                 c->bb[i].unsupported);
    }
    if (c->bb[i].n_headers || c->bb[i].compression)
      c->bb[i].opts.keep_heads = 1;
    m = module_add(c, c->bb[i].name, &c->bb[i].opts);
    m->bb = &c->bb[i];
    m->header_re = c->headre[i];
    what = xasprintf("blackbox_exporter module of %s", c->profile);
    module_describe(m, what);
    free(what);
    if (!strcmp(c->bb[i].name, "http_2xx")) {
      c->default_module = c->n_modules - 1;
      have_default = 1;
    }
  }
  if (!have_default) {
    c->default_module = c->n_modules;
    module_describe(module_add(c, "default", cli), "built-in default");
  }
  return 0;
}

int serve_config_parse(struct serve_config *c, int argc, char **argv)
{
  struct cli cli;
  int i, rc = -1;

  memset(c, 0, sizeof(*c));
  c->timeout_offset = SERVE_DEFAULT_TIMEOUT_OFFSET;
  if (cli_parse(&cli, OPT_CMD_SERVE, argc, argv) < 0)
    goto out;
  if (cli.opts.serve_listen)
    c->listen = xstrdup(cli.opts.serve_listen);
  if (cli.opts.serve_config)
    c->profile = xstrdup(cli.opts.serve_config);
  if (cli.opts.serve_max_concurrent) {
    c->max_concurrent = cli.opts.serve_max_concurrent;
    c->max_concurrent_given = 1;
  }
  if (cli.opts.serve_timeout_offset >= 0)
    c->timeout_offset = cli.opts.serve_timeout_offset;
  /* Written only when it changes: a reload (SIGHUP) parses the same
   * command line again while the probes' threads read it. */
  if (serve_verbose() != cli.opts.verbosity)
    serve_verbosity(cli.opts.verbosity);
  if (cli.opts.help) {
    serve_usage(stdout);
    rc = 1;
    goto out;
  }
  if (cli.opts.version) {
    printf("hopsplit %s serve, libmicrohttpd/%s (hopsplit -V lists every "
           "library)\n",
           HOPSPLIT_VERSION, MHD_get_version());
    rc = 1;
    goto out;
  }
  if (cli.n_args) {
    serve_error("serve takes no URL ('%s'): Prometheus gives it as "
                "/probe?target=URL",
                cli.args[0]);
    goto out;
  }
  if (cli.opts.n_outputs) {
    serve_error("option --output: serve writes no files; its answers go to "
                "Prometheus");
    goto out;
  }
  if (cli.opts.dry_run) {
    serve_error("option --dry-run: serve has no plan to print; see /probe?"
                "target=URL&debug=true");
    goto out;
  }
  if (!c->listen)
    c->listen = xstrdup(SERVE_DEFAULT_LISTEN);
  if (cli.opts.vantage) {
    c->vantage = xstrdup(cli.opts.vantage);
  }
  else {
    char host[256];

    if (gethostname(host, sizeof(host)) < 0)
      snprintf(host, sizeof(host), "unknown");
    host[sizeof(host) - 1] = '\0';
    c->vantage = xstrdup(host);
  }
  if (c->profile) {
    int bb = blackbox_is_file(c->profile);

    if (bb < 0) {
      serve_error("option --config: cannot read '%s'", c->profile);
      goto out;
    }
    if (bb ? load_blackbox(c, &cli.opts) < 0 : load_profile(c, &cli.opts) < 0)
      goto out;
  }
  else {
    module_describe(module_add(c, "default", &cli.opts), "built-in default");
    c->default_module = 0;
  }
  for (i = 0; i < (int)c->n_modules; i++) {
    struct buf b;

    buf_init(&b, 0);
    serve_module_info(&b, c->modules[i].name, c->vantage);
    c->modules[i].info = buf_detach(&b);
  }
  rc = 0;
out:
  cli_release(&cli);
  if (rc != 0)
    serve_config_release(c);
  return rc;
}

void serve_config_release(struct serve_config *c)
{
  size_t i;

  for (i = 0; i < c->n_modules; i++) {
    free(c->modules[i].name);
    free(c->modules[i].about);
    free(c->modules[i].info);
    options_release(&c->modules[i].opts);
  }
  free(c->modules);
  for (i = 0; c->bodyre && i < c->n_bb; i++)
    probe_body_regexps_free(c->bodyre[i]);
  free(c->bodyre);
  for (i = 0; c->headre && i < c->n_bb; i++)
    probe_body_regexps_free(c->headre[i]);
  free(c->headre);
  blackbox_modules_free(c->bb, c->n_bb);
  free(c->listen);
  free(c->profile);
  free(c->vantage);
  memset(c, 0, sizeof(*c));
}

const struct serve_module *serve_module_find(const struct serve_config *c,
                                             const char *name)
{
  size_t i;

  for (i = 0; name && i < c->n_modules; i++)
    if (!strcmp(c->modules[i].name, name))
      return &c->modules[i];
  if (!name || !*name || !strcmp(name, "http_2xx"))
    return &c->modules[c->default_module];
  return NULL;
}
