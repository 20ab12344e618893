/*
 * report_ndjson.c: newline-delimited JSON (SPEC 5): one compact object per
 * sample, {"type":"sample", ...the sample of the hopsplit/1 document},
 * in the order measured, then one {"type":"summary", ...} line with the
 * rest of the document (settings, targets with their summaries, and
 * whatever the analysis adds).  Lines end in LF.
 *
 * Both are written by the JSON document's own writers (report_json.c,
 * over the field table), so the two formats always carry the same facts.
 * The pipeline streams the sample lines as samples end
 * (report_ndjson_sample, which needs only the sample and its hops' facts,
 * not an analysis) and adds the summary at the end; report_ndjson writes
 * the same bytes at once.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "report_fields.h"
#include "banned.h"

void report_ndjson_sample(const struct report_ctx *c, const struct sample *s,
                          size_t index, const struct hop_fact *facts,
                          struct buf *out)
{
  struct json j;

  json_init(&j, out, 0);
  json_object_begin(&j, NULL);
  json_string(&j, "type", "sample");
  report_json_sample(c, &j, s, index, facts);
  json_object_end(&j);
  buf_putc(out, '\n');
}

void report_ndjson_summary(const struct report_ctx *c, struct buf *out)
{
  struct json j;

  json_init(&j, out, 0);
  json_object_begin(&j, NULL);
  json_string(&j, "type", "summary");
  report_json_head(c, &j);
  json_object_end(&j);
  buf_putc(out, '\n');
}

void report_ndjson(const struct report_ctx *c, struct buf *out)
{
  size_t i;

  for (i = 0; i < c->results->n; i++)
    report_ndjson_sample(c, &c->results->samples[i], i, field_facts(c, i),
                         out);
  report_ndjson_summary(c, out);
}
