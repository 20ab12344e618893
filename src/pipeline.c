/*
 * pipeline.c: plan -> probe (runner) -> analysis -> reports, and the exit
 * status.  Used by the URL form and by profile runs so both behave alike.
 */
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
  pl->interrupted = runner_run(plan, &pl->results, cb, ud) == 1;
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
  buf_init(&out, 0);
  report_render(&ctx, o->format, &out);
  fwrite(out.s, 1, out.len, stdout);
  if (fflush(stdout) != 0)
    rc = msg_error("cannot write the report to stdout");
  ctx.color = 0;
  for (i = 0; i < o->n_outputs; i++) {
    buf_reset(&out);
    report_render(&ctx, o->outputs[i].format, &out);
    if (report_write_file(o->outputs[i].path, out.s, out.len) < 0)
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
  analysis_release(&pl->analysis);
  results_release(&pl->results);
  free(pl->libraries);
  memset(pl, 0, sizeof(*pl));
}
