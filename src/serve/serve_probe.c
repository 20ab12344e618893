/*
 * serve_probe.c: one /probe request of "hopsplit serve".  Input: the
 * module, the target URL and the time budget.  Output: struct serve_probe
 * with the plan, the samples, the analysis, the verdict (probe_success)
 * and a log for debug=true.
 *
 * The measurement is the CLI's: a plan of one target built from the
 * module's options, the runner, the analysis, in three steps on three
 * threads: serve_probe_prepare builds the plan (on libmicrohttpd's
 * thread), serve_probe_start runs it on the engine (runner_start, on the
 * engine's thread), serve_probe_finish analyses the samples and judges
 * (on libmicrohttpd's thread again, so that the engine's loop only
 * measures).  The budget bounds the probe twice: every hop's --max-time
 * and --connect-timeout are cut to it, and the run's deadline stops a
 * later hop or sample that would start after it, as a timeout.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "blackbox.h"
#include "lib_embed.h"
#include "runner.h"
#include "serve_int.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* A logfmt value: bare when it is a plain word, else quoted. */
static void log_value(struct buf *b, const char *v)
{
  const char *p;
  int plain = v && *v;

  for (p = v; plain && *p; p++)
    if (*p <= ' ' || *p == '"' || *p == '=' || *p == '\\' || *p == 0x7f)
      plain = 0;
  if (plain) {
    buf_puts(b, v);
    return;
  }
  buf_putc(b, '"');
  for (p = v ? v : ""; *p; p++) {
    if (*p == '"' || *p == '\\')
      buf_printf(b, "\\%c", *p);
    else if (*p == '\n')
      buf_puts(b, "\\n");
    else if ((unsigned char)*p < ' ' || *p == 0x7f)
      buf_printf(b, "\\x%02x", (unsigned)(unsigned char)*p);
    else
      buf_putc(b, *p);
  }
  buf_putc(b, '"');
}

/* One log line: ts, level and msg, then key/value pairs (NULL ends). */
static void plog(struct serve_probe *sp, const char *level, const char *msg,
                 ...)
{
  int64_t now_us;
  time_t sec;
  struct tm tm;
  va_list ap;
  const char *k;

  if (!sp->want_log)
    return;
  now_us = clock_wall_us();
  sec = (time_t)(now_us / 1000000);
  gmtime_r(&sec, &tm);
  buf_printf(&sp->log, "ts=%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ",
             tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, (long)(now_us % 1000000));
  buf_puts(&sp->log, " module=");
  log_value(&sp->log, sp->module_name);
  buf_puts(&sp->log, " target=");
  {
    char *shown = url_redact(sp->target);

    log_value(&sp->log, shown);
    free(shown);
  }
  buf_printf(&sp->log, " level=%s msg=", level);
  log_value(&sp->log, msg);
  va_start(ap, msg);
  while ((k = va_arg(ap, const char *)) != NULL) {
    const char *v = va_arg(ap, const char *);

    buf_printf(&sp->log, " %s=", k);
    log_value(&sp->log, v);
  }
  va_end(ap);
  buf_putc(&sp->log, '\n');
}

static void fail(struct serve_probe *sp, const char *reason)
{
  if (!sp->reason)
    sp->reason = xstrdup(reason);
  plog(sp, "error", reason, (const char *)NULL);
}

/* A value of a field as stored (phases summed raw: -1 is not measured). */
static long long raw(struct hs_results *r, size_t i, size_t k,
                     const struct hs_field *f)
{
  struct hs_value v;

  return hs_results_get(r, i, k, f, &v) == HS_OK ? (long long)v.i : 0;
}

/* A text field, "" when null. */
static const char *text(struct hs_results *r, size_t i, size_t k,
                        const struct hs_field *f)
{
  const char *t = serve_get_text(r, i, k, f);

  return t ? t : "";
}

/* Each sample as it ends (on the engine's thread, the run in flight:
 * read through field handles, the analysis' fields null until the end):
 * what debug=true shows of it. */
static void on_sample(const struct plan *p, const struct sample *s, void *ud)
{
  struct serve_probe *sp = ud;
  const struct serve_fields *F = serve_fields();
  struct hs_results *r = sp->res;
  /* The sample just stored, by its place (the runner may hand over
   * several at once, in order). */
  size_t i = lib_embed_index(r, s), n, k;
  char a[64], b[64], c[64];

  (void)p;
  if (!sp->want_log)
    return;
  n = hs_results_hops(r, i);
  snprintf(a, sizeof(a), "%lld", raw(r, i, 0, F->round));
  snprintf(b, sizeof(b), "%.6f", (double)raw(r, i, 0, F->total) / 1e6);
  snprintf(c, sizeof(c), "%zu", n);
  if (serve_get_int(r, i, 0, F->ok, 0))
    plog(sp, "info", "Sample measured", "mode", text(r, i, 0, F->mode),
         "round", a, "total_seconds", b, "hops", c, (const char *)NULL);
  else
    plog(sp, "error", "Sample failed", "mode", text(r, i, 0, F->mode), "round",
         a, "class", text(r, i, 0, F->err_class), "error",
         text(r, i, 0, F->err_message), (const char *)NULL);
  for (k = 0; k < n; k++) {
    const char *tls = serve_get_text(r, i, k, F->tls_version);
    long long resumed = serve_get_int(r, i, k, F->tls_resumed, -1);
    char hop[32], st[32], ph[256];
    char *shown = url_redact(text(r, i, k, F->url));

    snprintf(hop, sizeof(hop), "%zu", k + 1);
    snprintf(st, sizeof(st), "%d", (int)serve_get_int(r, i, k, F->status, 0));
    snprintf(ph, sizeof(ph),
             "dns=%lld connect=%lld tls=%lld send=%lld wait=%lld "
             "transfer=%lld total=%lld",
             raw(r, i, k, F->ph_dns), raw(r, i, k, F->ph_connect),
             raw(r, i, k, F->ph_tls), raw(r, i, k, F->ph_send),
             raw(r, i, k, F->ph_wait), raw(r, i, k, F->ph_transfer),
             raw(r, i, k, F->ph_total));
    plog(sp, "info", "Hop", "hop", hop, "url", shown, "status", st,
         "http_version", text(r, i, k, F->http_version), "remote_ip",
         text(r, i, k, F->remote_ip), "connection",
         serve_get_int(r, i, k, F->reused, 0) ? "reused" : "new", "tls",
         tls ? tls : "none", "tls_resumed",
         resumed == 1   ? "yes"
         : resumed == 0 ? "no"
                        : "unknown",
         "phases_us", ph, (const char *)NULL);
    free(shown);
  }
}

/* Verdict as blackbox_exporter's default: every sample measured and its
 * final status 2xx (read through field handles, after the analysis). */
static void judge(struct serve_probe *sp)
{
  const struct serve_fields *F = serve_fields();
  size_t i, n = hs_results_samples(sp->res);
  char why[1024];

  if (!n) {
    fail(sp, "no sample was measured before the deadline");
    return;
  }
  for (i = 0; i < n; i++) {
    size_t hops = hs_results_hops(sp->res, i);
    long st =
        hops ? (long)serve_get_int(sp->res, i, hops - 1, F->status, 0) : 0;
    const char *mode = serve_get_text(sp->res, i, 0, F->mode);
    int round = (int)serve_get_int(sp->res, i, 0, F->round, 0);

    if (!serve_get_int(sp->res, i, 0, F->ok, 0)) {
      const char *msg = serve_get_text(sp->res, i, 0, F->err_message);

      snprintf(why, sizeof(why), "%s sample of round %d failed: %s: %s", mode,
               round, serve_get_text(sp->res, i, 0, F->err_class),
               msg ? msg : "");
      fail(sp, why);
      return;
    }
    if (!serve_blackbox_status_ok(sp->module, st)) {
      snprintf(why, sizeof(why),
               "%s sample of round %d: final status %ld, not %s", mode, round,
               st,
               sp->module->bb && sp->module->bb->n_status
                   ? "among valid_status_codes"
                   : "2xx");
      fail(sp, why);
      return;
    }
    if (serve_blackbox_judge(sp, i, why, sizeof(why)) < 0) {
      fail(sp, why);
      return;
    }
  }
  sp->success = 1;
}

int serve_probe_prepare(struct serve_probe *sp, const struct serve_config *c,
                        const char *module, const char *target,
                        double budget_s, int want_log)
{
  struct plan_target_spec spec;
  char msg[1024], t[64];
  int64_t budget_us = (int64_t)(budget_s * 1e6);

  memset(sp, 0, sizeof(sp[0]));
  sp->want_log = want_log;
  buf_init(&sp->log, 0);
  sp->res = lib_embed_new();
  sp->opts = lib_embed_options(sp->res);
  sp->plan = lib_embed_plan(sp->res);
  sp->results = lib_embed_samples(sp->res);
  sp->analysis = lib_embed_analysis(sp->res);
  sp->started_us = clock_mono_us();
  sp->budget_s = budget_s;
  sp->module_name = xstrdup(module && *module ? module : "http_2xx");
  sp->target = xstrdup(target ? target : "");
  snprintf(t, sizeof(t), "%.3f", budget_s);
  plog(sp, "info", "Beginning probe", "probe", "http", "timeout_seconds", t,
       "vantage", c->vantage, (const char *)NULL);
  sp->module = serve_module_find(c, module);
  if (!sp->module) {
    snprintf(msg, sizeof(msg), "unknown module \"%s\" (see / for the modules)",
             sp->module_name);
    fail(sp, msg);
    return 0;
  }
  if (sp->module->bb && sp->module->bb->unsupported) {
    fail(sp, sp->module->bb->unsupported);
    return 0;
  }
  if (url_target_problem(sp->target, msg, sizeof(msg)) < 0) {
    fail(sp, msg);
    return 0;
  }
  options_copy(sp->opts, &sp->module->opts);
  sp->have_opts = 1;
  /* No trace inside the probe: the cache fetches it after (serve_trace.c),
   * and a blackbox module, which never sends one, fetches none. */
  sp->trace = sp->module->bb ? TRACE_NEVER : sp->opts->trace;
  sp->opts->trace = TRACE_NEVER;
  if (budget_us < 1000)
    budget_us = 1000;
  if (sp->opts->max_time_us <= 0 || sp->opts->max_time_us > budget_us)
    sp->opts->max_time_us = budget_us;
  if (sp->opts->connect_timeout_us <= 0 ||
      sp->opts->connect_timeout_us > budget_us)
    sp->opts->connect_timeout_us = budget_us;
  sp->deadline_us = sp->started_us + budget_us;
  spec.name = sp->module->name;
  spec.url = sp->target;
  spec.opts = sp->opts;
  if (plan_build_targets(sp->plan, sp->opts, &spec, 1) < 0) {
    fail(sp, "the module's settings cannot be used with this target (see "
             "the server's log)");
    return 0;
  }
  sp->have_plan = 1;
  return 1;
}

/* The run is over (on the engine's thread): its end is the probe's. */
static void on_run_done(const struct plan *p, struct results *r, int rc,
                        void *ud)
{
  struct serve_probe *sp = ud;

  (void)p;
  (void)r;
  (void)rc;
  lib_embed_live(sp->res, 0);
  sp->ended_us = clock_mono_us();
  sp->ran = 1;
  if (serve_trace_after(sp, sp->engine)) {
    char iv[32];

    snprintf(iv, sizeof(iv), "%d", SERVE_TRACE_INTERVAL_S);
    plog(sp, "info",
         "Fetching /cdn-cgi/trace after the probe, for later probes (at most "
         "once per origin every interval_seconds)",
         "interval_seconds", iv, (const char *)NULL);
  }
  sp->done(sp);
}

void serve_probe_start(struct serve_probe *sp, struct engine *e,
                       void (*done)(struct serve_probe *sp))
{
  sp->done = done;
  sp->engine = e;
  /* In flight: its fields are read without the analysis (on_sample). */
  lib_embed_live(sp->res, 1);
  if (runner_start(e, sp->plan, sp->results, sp->deadline_us, on_sample,
                   on_run_done, sp) < 0) {
    lib_embed_live(sp->res, 0);
    fail(sp, "the probe could not be set up (see the server's log)");
    sp->ended_us = clock_mono_us();
    done(sp);
  }
}

void serve_probe_expired(struct serve_probe *sp)
{
  fail(sp, "the deadline came before the probe could start (the server was "
           "busy starting other probes)");
  sp->ended_us = clock_mono_us();
}

/* 1 when some mode of the probe has successful samples and none counted
 * (every one past the interference threshold). */
static int only_interfered(const struct serve_probe *sp)
{
  size_t i;

  for (i = 0; i < sp->plan->n_modes && sp->analysis->n_targets; i++) {
    const struct mode_summary *ms =
        &sp->analysis->targets[0].modes[sp->plan->modes[i]];

    if (ms->n_ok && !ms->phases[SUM_TOTAL].n)
      return 1;
  }
  return 0;
}

void serve_probe_finish(struct serve_probe *sp)
{
  char t[64];
  size_t i;

  if (sp->ran) {
    /* What the analysis stores goes to the probe's own results. */
    struct arena *was = results_use(sp->results);
    const struct serve_fields *F = serve_fields();
    size_t n = hs_results_samples(sp->res);

    if (serve_trace_copy(sp))
      plog(sp, "info",
           "Using the server's cached /cdn-cgi/trace (no trace request in "
           "this probe)",
           (const char *)NULL);
    analysis_build(sp->analysis, sp->plan, sp->results);
    sp->have_analysis = 1;
    lib_embed_analysed(sp->res, 1);
    /* A mode whose every successful sample was interfered with has no
     * counted value: its durations are then those samples', said so by
     * hopsplit_probe_interfered, never left as 0 s. */
    if (!sp->opts->keep_interfered && only_interfered(sp)) {
      analysis_release(sp->analysis);
      sp->opts->keep_interfered = 1;
      analysis_build(sp->analysis, sp->plan, sp->results);
      sp->interfered_kept = 1;
    }
    for (i = 0; i < n; i++) {
      int64_t us = serve_get_int(sp->res, i, 0, F->interference, 0);

      if (serve_get_int(sp->res, i, 0, F->interfered, 0) &&
          !serve_get_int(sp->res, i, 0, F->control, 0))
        sp->n_interfered++;
      if (us > sp->interference_us)
        sp->interference_us = us;
    }
    if (!sp->reason)
      judge(sp);
    results_unuse(sp->results, was);
  }
  if (!sp->ended_us)
    sp->ended_us = clock_mono_us();
  sp->duration_us = sp->ended_us - sp->started_us;
  snprintf(t, sizeof(t), "%.6f", (double)sp->duration_us / 1e6);
  if (sp->success)
    plog(sp, "info", "Probe succeeded", "duration_seconds", t,
         (const char *)NULL);
  else
    plog(sp, "error", "Probe failed", "duration_seconds", t, "reason",
         sp->reason ? sp->reason : "", (const char *)NULL);
}

void serve_probe_release(struct serve_probe *sp)
{
  /* The options, plan, samples and analysis (once built). */
  hs_results_free(sp->res);
  buf_release(&sp->log);
  free(sp->module_name);
  free(sp->target);
  free(sp->reason);
  memset(sp, 0, sizeof(*sp));
}
