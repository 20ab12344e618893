/*
 * pipeline.c: plan -> probe (runner) -> analysis -> reports, and the exit
 * status.  Used by the URL form and by profile runs so both behave alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "pipeline.h"
#include "probe.h"
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

int pipeline_check_outputs(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_outputs; i++)
    if (report_check_path(o->outputs[i].path) < 0)
      return -1;
  return 0;
}

/*
 * ndjson streaming (SPEC 5): while a plan is measured, each sample's line
 * goes to stdout (--format ndjson) and to every -o FILE.ndjson as soon as
 * the sample ends, flushed, so that a killed run keeps every finished
 * sample.  These files are written in place, not through a temporary file;
 * pipeline_report then adds the summary line and closes them.  One
 * measurement runs at a time, so the state is file-local.
 */
struct stream {
  FILE *f;
  char *path; /* NULL for stdout */
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

  for (i = 0; i < streams.n; i++) {
    if (streams.s[i].path && streams.s[i].f)
      fclose(streams.s[i].f);
    free(streams.s[i].path);
  }
  free(streams.s);
  memset(&streams, 0, sizeof(streams));
}

static void streams_add(FILE *f, const char *path)
{
  streams.s = xrealloc(streams.s, (streams.n + 1) * sizeof(*streams.s));
  streams.s[streams.n].f = f;
  streams.s[streams.n].path = path ? xstrdup(path) : NULL;
  streams.n++;
}

static void streams_open(const struct options *o)
{
  size_t i;

  if (o->format == FORMAT_NDJSON)
    streams_add(stdout, NULL);
  for (i = 0; i < o->n_outputs; i++) {
    FILE *f;

    if (o->outputs[i].format != FORMAT_NDJSON)
      continue;
    f = fopen(o->outputs[i].path, "w");
    if (!f)
      msg_warn("cannot stream to '%s' (written at the end instead): %s",
               o->outputs[i].path, strerror(errno));
    else
      streams_add(f, o->outputs[i].path);
  }
}

/* The stream for path (NULL: stdout), or NULL when it is not streamed. */
static struct stream *streams_find(const char *path)
{
  size_t i;

  for (i = 0; i < streams.n; i++) {
    const char *sp = streams.s[i].path;

    if (streams.s[i].f &&
        ((!path && !sp) || (path && sp && !strcmp(path, sp))))
      return &streams.s[i];
  }
  return NULL;
}

static void stream_sample(const struct plan *p, const struct sample *s,
                          void *ud)
{
  struct report_ctx ctx;
  struct buf line;
  size_t i;

  (void)ud;
  if (streams.n) {
    pipeline_context(streams.pl, &ctx, 0);
    buf_init(&line, 0);
    report_ndjson_sample(&ctx, s, streams.pl->results.n - 1, &line);
    for (i = 0; i < streams.n; i++) {
      if (!streams.s[i].f)
        continue;
      fwrite(line.s, 1, line.len, streams.s[i].f);
      fflush(streams.s[i].f);
    }
    buf_release(&line);
  }
  if (streams.cb)
    streams.cb(p, s, streams.ud);
}

int pipeline_measure(struct pipeline *pl, const struct plan *plan,
                     runner_sample_cb cb, void *ud)
{
  struct buf libs;

  memset(pl, 0, sizeof(*pl));
  pl->plan = plan;
  results_init(&pl->results);
  if (probe_global_init() < 0)
    return msg_error("cannot initialise libcurl or c-ares");
  buf_init(&libs, 0);
  probe_versions(&libs);
  pl->libraries = buf_detach(&libs);
  if (plan->opts->insecure)
    msg_warn("TLS verification is off (-k): results say so");
  runner_signals();
  streams_close();
  streams_open(plan->opts);
  streams.pl = pl;
  streams.cb = cb;
  streams.ud = ud;
  pl->interrupted = runner_run(plan, &pl->results, stream_sample, NULL) == 1;
  analysis_build(&pl->analysis, plan, &pl->results);
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

int pipeline_report(const struct pipeline *pl, const struct options *o)
{
  struct report_ctx ctx;
  struct buf out;
  size_t i;
  int rc = 0;

  pipeline_context(pl, &ctx, pipeline_want_color(o));
  /* stdout gets the report as it is rendered, never whole in memory. */
  buf_init_sink(&out, stdout);
  if (o->format == FORMAT_NDJSON && streams_find(NULL))
    report_ndjson_summary(&ctx, &out);
  else
    report_render(&ctx, o->format, &out);
  if (buf_flush(&out) < 0 || fflush(stdout) != 0)
    rc = msg_error("cannot write the report to stdout");
  buf_release(&out);
  buf_init(&out, 0);
  ctx.color = 0;
  for (i = 0; i < o->n_outputs; i++) {
    struct stream *st = o->outputs[i].format == FORMAT_NDJSON
                            ? streams_find(o->outputs[i].path)
                            : NULL;

    buf_reset(&out);
    if (st) {
      report_ndjson_summary(&ctx, &out);
      if (fwrite(out.s, 1, out.len, st->f) != out.len || fclose(st->f) != 0)
        rc = msg_error("cannot write '%s': %s", o->outputs[i].path,
                       strerror(errno));
      st->f = NULL;
      continue;
    }
    if (report_write_rendered(o->outputs[i].path, &ctx, o->outputs[i].format) <
        0)
      rc = -1;
  }
  buf_release(&out);
  return rc;
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
  results_release(&pl->results);
  free(pl->libraries);
  memset(pl, 0, sizeof(*pl));
}
