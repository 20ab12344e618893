/*
 * report_ndjson.c: newline-delimited JSON (SPEC 5): one compact object per
 * sample, {"type":"sample", ...the sample of the hopsplit/1 document},
 * in the order measured, then one {"type":"summary", ...} line with the
 * rest of the document (settings, targets with their summaries, and
 * whatever the analysis adds).  Lines end in LF.
 *
 * Both come from the JSON document itself (report_json_tree), so the two
 * formats always carry the same facts.  The pipeline streams the sample
 * lines as samples end (report_ndjson_sample) and adds the summary at the
 * end; report_ndjson writes the same bytes at once.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jtree.h"
#include "report.h"
#include "banned.h"

/* {"type":"sample","index":N,...} from a sample object of the document,
 * with its index replaced by index. */
static void sample_line(struct buf *out, const struct jt *s, size_t index)
{
  size_t i;

  buf_puts(out, "{\"type\":\"sample\"");
  for (i = 0; i < s->n; i++) {
    buf_putc(out, ',');
    json_quote(out, s->k[i]);
    buf_putc(out, ':');
    if (!strcmp(s->k[i], "index"))
      buf_printf(out, "%zu", index);
    else
      jt_write(out, &s->v[i]);
  }
  buf_puts(out, "}\n");
}

void report_ndjson_sample(const struct report_ctx *c, const struct sample *s,
                          size_t index, struct buf *out)
{
  struct report_ctx one = *c;
  struct sample copy = *s;
  struct results r;
  struct analysis a;
  struct jt doc;
  const struct jt *js;

  /* A document of this one sample: a shallow copy, never released. */
  results_init(&r);
  r.samples = &copy;
  r.n = 1;
  analysis_build(&a, c->plan, &r);
  one.results = &r;
  one.analysis = &a;
  report_json_tree(&one, &doc);
  js = jt_path(&doc, "samples.0");
  if (!js || js->type != JT_OBJECT)
    BUG("no sample in the JSON document");
  sample_line(out, js, index);
  jt_release(&doc);
  analysis_release(&a);
}

static void summary_line(struct buf *out, const struct jt *doc)
{
  size_t i;

  buf_puts(out, "{\"type\":\"summary\"");
  for (i = 0; i < doc->n; i++) {
    if (!strcmp(doc->k[i], "samples"))
      continue;
    buf_putc(out, ',');
    json_quote(out, doc->k[i]);
    buf_putc(out, ':');
    jt_write(out, &doc->v[i]);
  }
  buf_puts(out, "}\n");
}

void report_ndjson_summary(const struct report_ctx *c, struct buf *out)
{
  struct jt doc;

  report_json_tree(c, &doc);
  summary_line(out, &doc);
  jt_release(&doc);
}

void report_ndjson(const struct report_ctx *c, struct buf *out)
{
  struct jt doc;
  const struct jt *samples;
  size_t i;

  report_json_tree(c, &doc);
  samples = jt_get(&doc, "samples");
  for (i = 0; i < jt_len(samples); i++)
    sample_line(out, &samples->v[i], i);
  summary_line(out, &doc);
  jt_release(&doc);
}
