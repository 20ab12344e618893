/*
 * report_ndjson.c: newline-delimited JSON (hopsplit(1) OUTPUT): one compact
 * object per sample, {"type":"sample", ...the sample of the hopsplit/1
 * document}, in the order measured, then one {"type":"summary", ...} line with
 * the rest of the document (settings, targets with their summaries, and
 * whatever the analysis adds) and cache_inferred[].  Lines end in LF.
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

#include "analysis.h"
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

/* The cache verdicts the analysis inferred across samples (later ones
 * too): a sample's streamed line said what that sample alone showed, so
 * these replace its hop's cache object (the JSON document has them in
 * place).  Written also when the lines were written at once, so the two
 * forms of a run say the same. */
static void cache_inferred(const struct report_ctx *c, struct json *j)
{
  size_t i, k;

  json_array_begin(j, "cache_inferred");
  for (i = 0; i < c->results->n; i++) {
    const struct hop_fact *f = field_facts(c, i);

    for (k = 0; f && k < c->results->samples[i].n_hops; k++) {
      struct field_row r;

      if (!f[k].across)
        continue;
      field_row_sample(&r, c, &c->results->samples[i], i, f);
      field_row_hop(&r, k);
      json_object_begin(j, NULL);
      json_int(j, "sample", (int64_t)i);
      json_int(j, "hop", (int64_t)(k + 1));
      json_object_begin(j, "cache");
      field_json(j, report_hop_fields, "cache.", &r);
      json_object_end(j);
      json_object_end(j);
    }
  }
  json_array_end(j);
}

void report_ndjson_summary(const struct report_ctx *c, struct buf *out)
{
  struct json j;

  json_init(&j, out, 0);
  json_object_begin(&j, NULL);
  json_string(&j, "type", "summary");
  report_json_head(c, &j);
  cache_inferred(c, &j);
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
