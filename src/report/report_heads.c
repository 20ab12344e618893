/*
 * report_heads.c: the header blocks of one sample per target, as curl
 * shows them (-i, -D, -v; hopsplit(1)).  Input: the results (each hop's
 * head_out and head_in, kept by the probe under options_heads) and the
 * analysis (which sample is the median cold one).  Output: curl's -i and
 * --dump-header form (the response blocks of each hop as received, CRLF
 * and all) or its -v form (each request line after "> ", each response
 * line after "< ").  Credentials are redacted as in every report, and
 * what a terminal would act on is escaped (report_vis).
 */
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "report.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

const struct sample *report_heads_sample(const struct report_ctx *c, size_t t,
                                         const char **which)
{
  const struct target_analysis *ta;
  const struct mode_summary *ms;
  size_t i;

  if (t >= c->analysis->n_targets)
    return NULL;
  ta = &c->analysis->targets[t];
  ms = &ta->modes[MODE_COLD];
  if (ms->present && ms->median_sample >= 0 &&
      (size_t)ms->median_sample < c->results->n) {
    *which = "the median cold one";
    return &c->results->samples[ms->median_sample];
  }
  for (i = 0; i < c->results->n; i++)
    if (c->results->samples[i].target == t &&
        c->results->samples[i].mode == MODE_COLD) {
      *which = "the first cold one: none succeeded";
      return &c->results->samples[i];
    }
  for (i = 0; i < c->plan->n_modes; i++) {
    ms = &ta->modes[c->plan->modes[i]];
    if (ms->median_sample >= 0 && (size_t)ms->median_sample < c->results->n) {
      *which = "the median one of its first mode";
      return &c->results->samples[ms->median_sample];
    }
  }
  return NULL;
}

/* One line (without its line end) as the reports show it: a header's
 * value redacted by its name, a request or status line's URLs redacted. */
static void put_line(const struct report_ctx *c, const char *line, size_t n,
                     int first, struct buf *out)
{
  char *l = xmalloc(n + 1), *shown;
  const char *colon;

  memcpy(l, line, n);
  l[n] = '\0';
  colon = first ? NULL : strchr(l, ':');
  if (c->plan->opts->show_secrets || !n) {
    shown = xstrdup(l);
  }
  else if (colon && colon > l) {
    const char *v = colon + 1;
    char *name = xmalloc((size_t)(colon - l) + 1), *value;

    memcpy(name, l, (size_t)(colon - l));
    name[colon - l] = '\0';
    while (*v == ' ' || *v == '\t')
      v++;
    value = report_header_value(c, name, v);
    shown = xasprintf("%s: %s", name, value);
    free(name);
    free(value);
  }
  else {
    shown = url_redact_text(l);
  }
  buf_puts(out, report_vis(shown));
  free(shown);
  free(l);
}

/* Each line of block after prefix, with its CRLF (or LF) as received. */
static void put_block(const struct report_ctx *c, const char *block,
                      const char *prefix, struct buf *out)
{
  const char *p = block;
  int first = 1;

  while (*p) {
    size_t n = strcspn(p, "\n"), body = n;

    if (body && p[body - 1] == '\r')
      body--;
    /* A status or request line starts each block (1xx responses come
     * before the final one). */
    if (body >= 5 && !memcmp(p, "HTTP/", 5))
      first = 1;
    buf_puts(out, prefix);
    put_line(c, p, body, first, out);
    buf_add(out, p + body, n - body + (p[n] == '\n'));
    first = !body;
    p += n + (p[n] == '\n');
  }
}

void report_heads_note(const struct report_ctx *c)
{
  size_t t;

  for (t = 0; t < c->plan->n_targets; t++) {
    const char *which = NULL;
    const struct sample *s = report_heads_sample(c, t, &which);

    if (s)
      msg_note("headers of '%s': its %s sample of round %d, %s",
               c->plan->targets[t].name, sample_mode_names[s->mode],
               (int)s->round, which);
  }
}

void report_heads(const struct report_ctx *c, int verbose, struct buf *out)
{
  size_t t, k;

  for (t = 0; t < c->plan->n_targets; t++) {
    const char *which = NULL;
    const struct sample *s = report_heads_sample(c, t, &which);

    if (!s)
      continue;
    for (k = 0; k < s->n_hops; k++) {
      const struct hop *h = &s->hops[k];

      if (verbose && h->info->head_out)
        put_block(c, h->info->head_out, "> ", out);
      if (h->info->head_in)
        put_block(c, h->info->head_in, verbose ? "< " : "", out);
    }
  }
  report_vis_release();
}
