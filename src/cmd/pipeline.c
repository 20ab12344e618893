/*
 * pipeline.c: plan -> probe (runner) -> analysis -> reports, and the exit
 * status.  Used by the URL form and by profile runs so both behave alike.
 */
#include <sys/stat.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arraysize.h"
#include "cmd_signals.h"
#include "buf.h"
#include "msg.h"
#include "option_table.h"
#include "pipeline.h"
#include "probe.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

int pipeline_want_color(const struct options *o)
{
  const char *nc = getenv("NO_COLOR");

  if (o->color == TRI_ALWAYS)
    return 1;
  if (o->color == TRI_NEVER || (nc && *nc))
    return 0;
  return isatty(STDOUT_FILENO) && o->format == FORMAT_TEXT;
}

int pipeline_format_given(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_given; i++)
    if (o->given[i].def->id == OPT_FORMAT)
      return 1;
  return 0;
}

int pipeline_check_outputs(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_outputs; i++)
    if (report_check_path(o->outputs[i].path) < 0)
      return -1;
  if (o->dump_header && strcmp(o->dump_header, "-") &&
      report_check_path(o->dump_header) < 0)
    return -1;
  return 0;
}

/* The nearest existing ancestor of path's directory is a writable
 * directory: a profile run creates the rest (cmd_run.c make_parents). */
static int creatable(const char *path)
{
  char *d = xstrdup(path);
  char *slash;
  int rc = -1;
  struct stat st;

  for (;;) {
    slash = strrchr(d, '/');
    if (!slash) {
      rc = access(".", W_OK | X_OK) == 0 ? 0 : -1;
      break;
    }
    *slash = '\0';
    if (!*d) {
      rc = access("/", W_OK | X_OK) == 0 ? 0 : -1;
      break;
    }
    if (stat(d, &st) == 0) {
      rc = S_ISDIR(st.st_mode) && access(d, W_OK | X_OK) == 0 ? 0 : -1;
      break;
    }
  }
  if (rc < 0)
    msg_error("cannot write '%s': no writable directory to create it in",
              path);
  free(d);
  return rc;
}

int pipeline_check_outputs_dry(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_outputs; i++)
    if (creatable(o->outputs[i].path) < 0)
      return -1;
  return 0;
}

/* A file or directory an option (or, env set, a variable) names: there,
 * readable, of the kind. */
static int check_named_file(const char *opt, const char *env, const char *path,
                            int dir)
{
  struct stat st;
  char who[64];

  if (env)
    snprintf(who, sizeof(who), "%s", env);
  else
    snprintf(who, sizeof(who), "option %s", opt);
  if (stat(path, &st) < 0)
    return msg_error("%s: cannot read '%s': %s", who, path, strerror(errno));
  if (dir && !S_ISDIR(st.st_mode))
    return msg_error("%s: '%s' is not a directory", who, path);
  if (!dir && S_ISDIR(st.st_mode))
    return msg_error(
        "%s: '%s' is a directory%s", who, path,
        strcmp(opt, "--cacert") ? "" : " (--capath takes directories)");
  if (access(path, dir ? (R_OK | X_OK) : R_OK) < 0)
    return msg_error("%s: cannot read '%s': %s", who, path, strerror(errno));
  return 0;
}

static int check_target_files(const struct options *o)
{
  int rc = 0;
  char err[512];

  if (o->cacert &&
      check_named_file("--cacert", o->cacert_env, o->cacert, 0) < 0)
    rc = -1;
  if (o->capath &&
      check_named_file("--capath", o->capath_env, o->capath, 1) < 0)
    rc = -1;
  if (o->tls_cert && check_named_file("--cert", NULL, o->tls_cert, 0) < 0)
    rc = -1;
  if (o->tls_key && check_named_file("--key", NULL, o->tls_key, 0) < 0)
    rc = -1;
  if (o->write_out &&
      report_writeout_check(o->write_out, err, sizeof(err)) < 0)
    rc = msg_error("option --write-out: %s", err);
  return rc;
}

/* "HOST:PORT:" of url appended to keys (*n of them) unless there. */
static void add_key(char ***keys, size_t *n, const char *url)
{
  struct url u;
  char err[256];
  char *k;
  size_t i;

  memset(&u, 0, sizeof(u));
  if (url_parse(&u, url, err, sizeof(err)) < 0) {
    url_release(&u);
    return;
  }
  k = xasprintf("%s:%d:", u.host, u.port);
  url_release(&u);
  for (i = 0; i < *n; i++)
    if (!strcasecmp((*keys)[i], k)) {
      free(k);
      return;
    }
  *keys = xrealloc(*keys, (*n + 1) * sizeof(**keys));
  (*keys)[(*n)++] = k;
}

/* A batch's median total this much above its serial control's (and by
 * more than PARALLEL_SLOWER_MIN_US) says the lanes slowed each other: a
 * link or a server they share, whose saturation changes phases. */
#define PARALLEL_SLOWER_PCT    25.0
#define PARALLEL_SLOWER_MIN_US 1000

/* --parallel: one warning for the run when the lanes' interference or a
 * shared link's saturation could have changed its phases, with what the
 * serial control cost (hopsplit(1) INTERFERENCE). */
static void warn_parallel(const struct plan *p, const struct results *r,
                          const struct analysis *a)
{
  size_t i, t, m, n_batch = 0, n_late = 0, n_ctl = 0, n_slower = 0;
  int64_t late = 0, c0 = INT64_MAX, c1 = 0;
  double worst = 0;
  struct buf b;

  if (p->opts->parallel <= 1)
    return;
  for (i = 0; i < r->n; i++) {
    const struct sample *s = &r->samples[i];

    if (s->control) {
      int64_t start = s->started_at_ms * 1000;

      n_ctl++;
      if (start < c0)
        c0 = start;
      if (start + s->total_us > c1)
        c1 = start + s->total_us;
      continue;
    }
    n_batch++;
    if (s->interfered) {
      n_late++;
      if (s->interference_us > late)
        late = s->interference_us;
    }
  }
  for (t = 0; t < a->n_targets; t++)
    for (m = 0; m < p->n_modes; m++) {
      const struct mode_summary *ms = &a->targets[t].modes[p->modes[m]];

      if (!ms->control.n || !ms->phases[SUM_TOTAL].n ||
          ms->control_diff_us <= PARALLEL_SLOWER_MIN_US ||
          ms->control_diff_pct <= PARALLEL_SLOWER_PCT)
        continue;
      n_slower++;
      if (ms->control_diff_pct > worst)
        worst = ms->control_diff_pct;
    }
  if (!n_late && !n_slower)
    return;
  buf_init(&b, 0);
  buf_printf(&b, "--parallel %ld may have changed the phases it measured:",
             p->opts->parallel);
  if (n_late)
    buf_printf(&b,
               " %zu of %zu samples were measured while other lanes kept "
               "the loop busy (stamps up to %.1f ms late; %s)",
               n_late, n_batch, (double)late / 1000.0,
               p->opts->keep_interfered ? "kept, --keep-interfered"
                                        : "left out");
  if (n_slower)
    buf_printf(&b,
               "%s %zu target and mode%s took longer in the batch than alone "
               "(median total up to %+.0f %% against the serial control: "
               "lanes sharing a link or a server slow each other)",
               n_late ? ";" : "", n_slower, n_slower == 1 ? "" : "s", worst);
  if (n_ctl && c1 > c0)
    buf_printf(&b,
               "; the serial control (%zu sample%s alone, before the batch) "
               "took %.2f s of the run's %.2f s",
               n_ctl, n_ctl == 1 ? "" : "s", (double)(c1 - c0) / 1e6,
               (double)(r->finished_at_ms - r->started_at_ms) / 1000.0);
  msg_warn("%s", b.s);
  buf_release(&b);
}

/* At most this many warnings of unused --resolve entries, then a count. */
#define RESOLVE_WARN_MAX 10

/* HOST:PORT of each --resolve entry of o against keys; what; says why. */
static void warn_unused_resolve(const struct options *o, char *const *keys,
                                size_t n_keys, const char *why, size_t *warned)
{
  size_t i, k;

  for (i = 0; i < o->n_resolve; i++) {
    const char *r = o->resolve[i];
    int used = 0;

    for (k = 0; k < n_keys && !used; k++)
      used = !strncasecmp(r, keys[k], strlen(keys[k]));
    if (!used && (*warned)++ < RESOLVE_WARN_MAX)
      msg_warn("--resolve '%s' matches no target%s", r, why);
  }
}

/* The --resolve entries of the plan (its options, and a target's own
 * when they differ) that match none of keys, each a warning. */
static void warn_unused_resolves(const struct plan *p, char *const *keys,
                                 size_t n_keys, const char *why)
{
  size_t t, warned = 0;

  warn_unused_resolve(p->opts, keys, n_keys, why, &warned);
  for (t = 0; t < p->n_targets; t++) {
    const struct options *o = p->targets[t].opts;

    if (o && o != p->opts && o->n_resolve != p->opts->n_resolve)
      warn_unused_resolve(o, keys, n_keys, why, &warned);
  }
  if (warned > RESOLVE_WARN_MAX)
    msg_warn("%zu more --resolve entries match no target",
             warned - RESOLVE_WARN_MAX);
}

/*
 * After a run: a --resolve entry is unused when no hop of any sample went
 * to its HOST:PORT (a redirect that leads there uses it) and no target's
 * URL names it (a sample that failed before its first hop still would
 * have).  The keys are "HOST:PORT:" of each target and of every hop of
 * every sample, each parsed once per distinct URL run.
 */
static void warn_unused_resolve_run(const struct plan *p,
                                    const struct results *r)
{
  char **keys = NULL;
  const char *last = NULL;
  size_t n = 0, i, h, any = p->opts->n_resolve;

  for (i = 0; i < p->n_targets && !any; i++)
    any = p->targets[i].opts ? p->targets[i].opts->n_resolve : 0;
  if (!any)
    return;
  for (i = 0; i < p->n_targets; i++)
    add_key(&keys, &n, p->targets[i].url);
  for (i = 0; i < r->n; i++)
    for (h = 0; h < r->samples[i].n_hops; h++) {
      const char *u = r->samples[i].hops[h].url;

      /* Pooled: the same URL is the same pointer, parsed once in a row. */
      if (u && u != last)
        add_key(&keys, &n, u);
      last = u;
    }
  warn_unused_resolves(p, keys, n,
                       ", and no redirect led there: no request used it");
  for (i = 0; i < n; i++)
    free(keys[i]);
  free(keys);
}

int pipeline_preflight(const struct plan *p)
{
  size_t t;
  int rc = EXIT_STATUS_OK;

  if (check_target_files(p->opts) < 0)
    rc = EXIT_STATUS_USAGE;
  for (t = 0; t < p->n_targets; t++) {
    const struct options *o = p->targets[t].opts;

    if (o && o != p->opts && check_target_files(o) < 0)
      rc = EXIT_STATUS_USAGE;
  }
  /* A run says which entries no request used once it has measured
   * (pipeline_measure); --dry-run can only say which match no target. */
  if (rc == EXIT_STATUS_OK && p->opts->dry_run) {
    char **keys = NULL;
    size_t n = 0;

    for (t = 0; t < p->n_targets; t++)
      add_key(&keys, &n, p->targets[t].url);
    warn_unused_resolves(p, keys, n,
                         " (HOST:PORT of a URL given); it is used only if "
                         "a redirect leads there");
    for (t = 0; t < n; t++)
      free(keys[t]);
    free(keys);
  }
  return rc;
}

/*
 * ndjson streaming (hopsplit(1) OUTPUT): while a plan is measured, each
 * sample's line goes to stdout (--format ndjson) and to every -o FILE.ndjson
 * as soon as the sample ends, written whole (through EINTR and short writes),
 * so that a killed run keeps every finished sample.  These files are written
 * in place, not through a temporary file (report_out_open in_place);
 * pipeline_report then adds the summary line and closes them.  A line
 * needs only the sample and its hops' facts, never an analysis of the
 * run.  One measurement runs at a time, so the state is file-local.
 */
struct stream {
  struct report_out out; /* out.fd is 1 for stdout */
  int is_stdout;
  int failed;
};

static struct {
  struct stream *s;
  size_t n;
  const struct pipeline *pl;
  runner_sample_cb cb;
  void *ud;
} streams;

static void streams_close(void)
{
  size_t i;

  for (i = 0; i < streams.n; i++)
    if (!streams.s[i].is_stdout && streams.s[i].out.fd >= 0)
      report_out_abort(&streams.s[i].out);
  free(streams.s);
  memset(&streams, 0, sizeof(streams));
}

static struct stream *streams_add(void)
{
  struct stream *st;

  streams.s = xrealloc(streams.s, (streams.n + 1) * sizeof(*streams.s));
  st = &streams.s[streams.n++];
  memset(st, 0, sizeof(*st));
  st->out.fd = -1;
  st->out.slot = -1;
  return st;
}

static void streams_open(const struct options *o)
{
  size_t i;

  if (o->format == FORMAT_NDJSON) {
    struct stream *st = streams_add();

    st->is_stdout = 1;
    st->out.fd = STDOUT_FILENO;
  }
  for (i = 0; i < o->n_outputs; i++) {
    struct report_out out;

    if (o->outputs[i].format != FORMAT_NDJSON)
      continue;
    if (report_out_open(&out, o->outputs[i].path, 1) < 0)
      msg_warn("'%s' is written at the end instead", o->outputs[i].path);
    else
      streams_add()->out = out;
  }
}

/* The stream for path (NULL: stdout), or NULL when it is not streamed. */
static struct stream *streams_find(const char *path)
{
  size_t i;

  for (i = 0; i < streams.n; i++) {
    struct stream *st = &streams.s[i];

    if (st->out.fd < 0)
      continue;
    if (!path ? st->is_stdout : !st->is_stdout && !strcmp(path, st->out.path))
      return st;
  }
  return NULL;
}

static void stream_sample(const struct plan *p, const struct sample *s,
                          void *ud)
{
  struct report_ctx ctx;
  struct hop_fact *facts;
  struct buf line;
  size_t i;

  (void)ud;
  if (p->opts->write_out) {
    /* -w: after each sample, as curl after each transfer. */
    struct buf o, e;

    pipeline_context(streams.pl, &ctx, 0);
    buf_init(&o, 0);
    buf_init(&e, 0);
    report_writeout(&ctx, p->opts->write_out, s, &o, &e);
    fflush(stdout);
    if (buf_write_fd(STDOUT_FILENO, o.s, o.len) < 0 ||
        buf_write_fd(STDERR_FILENO, e.s, e.len) < 0)
      msg_error("cannot write the -w output: %s", strerror(errno));
    buf_release(&o);
    buf_release(&e);
  }
  if (streams.n) {
    pipeline_context(streams.pl, &ctx, 0);
    facts = s->n_hops ? xcalloc(s->n_hops, sizeof(*facts)) : NULL;
    if (facts)
      analysis_hop_facts(p, s, facts);
    buf_init(&line, 0);
    report_ndjson_sample(&ctx, s, (size_t)(s - streams.pl->results.samples),
                         facts, &line);
    for (i = 0; i < streams.n; i++) {
      struct stream *st = &streams.s[i];

      if (st->out.fd < 0 || st->failed)
        continue;
      if (buf_write_fd(st->out.fd, line.s, line.len) < 0) {
        msg_error("cannot write '%s': %s",
                  st->is_stdout ? "stdout" : st->out.path, strerror(errno));
        st->failed = 1;
      }
    }
    buf_release(&line);
    free(facts);
  }
  if (streams.cb)
    streams.cb(p, s, streams.ud);
}

static int show_progress(const struct options *o)
{
  if (o->progress == TRI_NEVER || o->verbosity < 0)
    return 0;
  if (o->progress == TRI_ALWAYS)
    return 1;
  return isatty(STDERR_FILENO);
}

/* The progress line on stderr (runner_run_progress), the tool's: the
 * library draws none.  it NULL: the samples are over, the line goes. */
static void progress(const struct plan *p, size_t k, size_t n,
                     const struct plan_item *it, int64_t elapsed_ms, void *ud)
{
  /* One line of at most 79 columns: a 20-cell bar, sample k+1 of n, the
   * target (cut to fit), the mode, and the time left, estimated from the
   * mean time per sample so far (unknown before the first one ends). */
  char bar[21], eta[64];
  size_t fill = n ? (k * 20) / n : 0, i;
  long left =
      k ? (long)((elapsed_ms * (int64_t)(n - k)) / (int64_t)k / 1000) : -1;

  (void)ud;
  if (!it) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
    return;
  }
  for (i = 0; i < 20; i++)
    bar[i] = i < fill ? '#' : '.';
  bar[20] = '\0';
  if (left < 0)
    snprintf(eta, sizeof(eta), "--:--");
  else if (left >= 3600)
    snprintf(eta, sizeof(eta), "%ld:%02ld:%02ld", left / 3600, left / 60 % 60,
             left % 60);
  else
    snprintf(eta, sizeof(eta), "%ld:%02ld", left / 60, left % 60);
  fprintf(stderr, "\r\033[K[%s] %zu/%zu %-.24s %s eta %s", bar, k + 1, n,
          p->targets[it->target].name, sample_mode_names[it->mode], eta);
  fflush(stderr);
}

int pipeline_measure(struct pipeline *pl, const struct plan *plan,
                     runner_sample_cb cb, void *ud)
{
  struct buf libs;

  memset(pl, 0, sizeof(*pl));
  pl->plan = plan;
  results_init(&pl->results);
  /* The samples', analysis' and reports' strings live in the results'
   * arena, freed with them (pipeline_release). */
  pl->prev_arena = results_use(&pl->results);
  if (probe_global_init_plan(plan) < 0)
    return msg_error("cannot initialise libcurl or c-ares");
  {
    char err[512];

    if (probe_h3_check(plan, err, sizeof(err)) < 0) {
      probe_global_cleanup();
      return msg_error("%s", err);
    }
  }
  buf_init(&libs, 0);
  probe_versions_loaded(&libs); /* the libraries this run loaded */
  pl->libraries = buf_detach(&libs);
  if (plan->opts->insecure)
    msg_warn("TLS verification is off (-k): results say so");
  plan_unsafe_notice(plan);
  cmd_signals_install(report_out_unlink_temps);
  streams_close();
  streams_open(plan->opts);
  streams.pl = pl;
  streams.cb = cb;
  streams.ud = ud;
  pl->interrupted =
      runner_run_progress(plan, &pl->results, stream_sample, NULL,
                          show_progress(plan->opts) ? progress : NULL,
                          NULL) == 1;
  warn_unused_resolve_run(plan, &pl->results);
  analysis_build(&pl->analysis, plan, &pl->results);
  warn_parallel(plan, &pl->results, &pl->analysis);
  probe_global_cleanup();
  return 0;
}

void pipeline_context(const struct pipeline *pl, struct report_ctx *ctx,
                      int color)
{
  memset(ctx, 0, sizeof(*ctx));
  ctx->plan = pl->plan;
  ctx->results = &pl->results;
  ctx->analysis = &pl->analysis;
  ctx->libraries = pl->libraries;
  ctx->color = color;
}

/* -D FILE: the response headers, written as the reports are (atomically,
 * FILE named in any error). */
static int write_heads(const struct report_ctx *c, const char *path)
{
  struct report_out f;
  struct buf b;
  int rc = -1;

  if (report_out_open(&f, path, 0) < 0)
    return -1;
  buf_init_sink(&b, f.fd);
  report_heads(c, 0, &b);
  if (buf_flush(&b) < 0) {
    msg_error("cannot write '%s': %s", path, strerror(b.sink_errno));
    report_out_abort(&f);
  }
  else if (report_out_commit(&f) == 0) {
    rc = 0;
  }
  buf_release(&b);
  return rc;
}

int pipeline_report(const struct pipeline *pl, const struct options *o)
{
  struct report_ctx ctx;
  struct stream *st;
  struct buf out;
  size_t i;
  int rc = 0;

  pipeline_context(pl, &ctx, pipeline_want_color(o));
  ctx.brief = o->brief;
  /* stdout gets the report as it is rendered, never whole in memory, and
   * written whole through EINTR and short writes.  With -w it carries the
   * write-out lines, as curl's does, and the report only when --format
   * asks for it. */
  fflush(stdout);
  if (o->include || o->dump_header || o->verbosity > 0)
    report_heads_note(&ctx);
  if (o->verbosity > 0) {
    /* curl's -v: the request and response headers on stderr. */
    buf_init_sink(&out, STDERR_FILENO);
    report_heads(&ctx, 1, &out);
    buf_flush(&out);
    buf_release(&out);
  }
  if (o->dump_header && strcmp(o->dump_header, "-") &&
      write_heads(&ctx, o->dump_header) < 0)
    rc = -1;
  buf_init_sink(&out, STDOUT_FILENO);
  /* curl's -i (and -D -): the response headers first on stdout. */
  if (o->include || (o->dump_header && !strcmp(o->dump_header, "-")))
    report_heads(&ctx, 0, &out);
  st = o->format == FORMAT_NDJSON ? streams_find(NULL) : NULL;
  if (o->write_out && !pipeline_format_given(o))
    ;
  else if (st && st->failed)
    rc = -1;
  else if (st)
    report_ndjson_summary(&ctx, &out);
  else
    report_render(&ctx, o->format, &out);
  if (buf_flush(&out) < 0)
    rc = msg_error("cannot write the report to stdout: %s",
                   strerror(out.sink_errno));
  buf_release(&out);
  ctx.color = 0;
  ctx.brief = 0; /* files get the whole report */
  /* Every output is tried: one that fails does not stop the others. */
  for (i = 0; i < o->n_outputs; i++) {
    st = o->outputs[i].format == FORMAT_NDJSON
             ? streams_find(o->outputs[i].path)
             : NULL;
    if (st) {
      buf_init_sink(&out, st->out.fd);
      report_ndjson_summary(&ctx, &out);
      if (st->failed || buf_flush(&out) < 0) {
        if (!st->failed)
          msg_error("cannot write '%s': %s", o->outputs[i].path,
                    strerror(out.sink_errno));
        report_out_abort(&st->out);
        rc = -1;
      }
      else if (report_out_commit(&st->out) < 0) {
        rc = -1;
      }
      buf_release(&out);
      continue;
    }
    if (report_write_rendered(o->outputs[i].path, &ctx, o->outputs[i].format) <
        0)
      rc = -1;
  }
  return rc;
}

const char *pipeline_failure_hint(enum err_class e, const char *msg)
{
  static const char *const fixes[] = {" -k", "try ", "ulimit", "check the"};
  size_t i;

  /* The probe's own words often end in the fix already (probe_hops.c
   * describe: "give its CA with --cacert FILE, or skip verification with
   * -k", "try http://HOST:PORT"): said once is enough. */
  for (i = 0; msg && i < ARRAY_SIZE(fixes); i++)
    if (strstr(msg, fixes[i]))
      return NULL;
  switch (e) {
  case ERR_DNS:
    return "check the host name, or pin its address with --resolve "
           "HOST:PORT:ADDR or ask other resolvers with --dns-server";
  case ERR_CONNECT:
    return "check that a server listens at that address and port and that "
           "no firewall drops the connection";
  case ERR_TLS:
    return "check the server's TLS set-up (openssl s_client -connect "
           "HOST:PORT shows the handshake)";
  case ERR_TIMEOUT:
    return "the limit is -m/--max-time per hop and --connect-timeout per "
           "connection (bare numbers are seconds, as in curl)";
  case ERR_HTTP:
    return "the answer is not the HTTP hopsplit asked for: try "
           "--http1.1, or look at it with curl -v";
  case ERR_REDIRECT:
    return "follow more with --max-redirs N, or measure the first hop "
           "alone with --no-follow";
  case ERR_HTTP_STATUS:
    return "the final status is 400 or more and -f fails such samples: "
           "check the URL, or leave out -f to measure the error response";
  case ERR_UPLOAD:
    return "every sample sends the same bytes: leave the file of -T or "
           "--data-binary @FILE unchanged while hopsplit runs";
  case ERR_QUIC:
    return "no HTTP/3 over QUIC: the server may not listen on UDP (an "
           "Alt-Svc header says where it does), a firewall may drop UDP, "
           "or libcurl3-gnutls with HTTP/3 is missing (hopsplit -V); "
           "--http3 falls back to TCP";
  case ERR_NONE:
  case ERR_COUNT:
    break;
  }
  return "see the report for the samples that failed";
}

void pipeline_say_failures(const struct pipeline *pl)
{
  const struct plan *p = pl->plan;
  size_t t, i, j;
  int e;

  if (!pl->analysis.n_failed)
    return;
  for (t = 0; t < p->n_targets; t++) {
    const struct target_analysis *ta = &pl->analysis.targets[t];

    for (e = ERR_NONE + 1; e < ERR_COUNT; e++) {
      int said[MODE_COUNT] = {0};

      for (i = 0; i < p->n_modes; i++) {
        const struct mode_summary *m = &ta->modes[p->modes[i]];
        const char *msg = m->first_error[e];
        size_t failed = 0, n = 0, modes = 0;
        const char *hint;
        struct buf by;

        if (!m->failed_by_class[e] || said[p->modes[i]])
          continue;
        /* This mode and every later one whose first message of the
         * class is the same: one distinct failure. */
        buf_init(&by, 0);
        for (j = i; j < p->n_modes; j++) {
          const struct mode_summary *o = &ta->modes[p->modes[j]];

          if (!o->failed_by_class[e] || said[p->modes[j]] ||
              (j > i &&
               (!msg || !o->first_error[e] || strcmp(msg, o->first_error[e]))))
            continue;
          said[p->modes[j]] = 1;
          failed += o->failed_by_class[e];
          n += o->n_samples;
          buf_printf(&by, "%s%zu of %zu %s", modes++ ? ", " : "",
                     o->failed_by_class[e], o->n_samples,
                     sample_mode_names[p->modes[j]]);
        }
        hint = pipeline_failure_hint(e, msg);
        if (modes > 1)
          msg_note("(%s) %s: %zu of %zu samples failed (%s): %s%s%s",
                   err_class_names[e], p->targets[t].name, failed, n, by.s,
                   msg ? msg : "no detail", hint ? "; " : "",
                   hint ? hint : "");
        else
          msg_note("(%s) %s: %s samples failed: %s%s%s", err_class_names[e],
                   p->targets[t].name, by.s, msg ? msg : "no detail",
                   hint ? "; " : "", hint ? hint : "");
        buf_release(&by);
      }
    }
  }
}

int pipeline_exit_status(const struct pipeline *pl, int report_rc,
                         int checks_failed)
{
  if (pl->interrupted)
    return EXIT_STATUS_INTERRUPTED;
  if (report_rc < 0)
    return EXIT_STATUS_SETUP;
  if (checks_failed)
    return EXIT_STATUS_CHECK;
  if (pl->analysis.n_failed)
    return EXIT_STATUS_SAMPLES;
  return EXIT_STATUS_OK;
}

void pipeline_release(struct pipeline *pl)
{
  if (streams.pl == pl)
    streams_close();
  analysis_release(&pl->analysis);
  results_unuse(&pl->results, pl->prev_arena);
  results_release(&pl->results);
  free(pl->libraries);
  memset(pl, 0, sizeof(*pl));
}
