/*
 * report.c: dispatch on the output format.  Output files are
 * report_out.c's, redaction report_util.c's.
 */
#include <string.h>

#include "msg.h"
#include "report.h"
#include "banned.h"

void report_render(const struct report_ctx *c, enum report_format f,
                   struct buf *out)
{
  switch (f) {
  case FORMAT_TEXT:
    report_text(c, out);
    return;
  case FORMAT_JSON:
    report_json(c, out);
    return;
  case FORMAT_NDJSON:
    report_ndjson(c, out);
    return;
  case FORMAT_CSV:
    report_csv(c, out);
    return;
  case FORMAT_HAR:
    report_har(c, out);
    return;
  case FORMAT_HTML:
    report_html(c, out);
    return;
  case FORMAT_PROM:
    report_prom(c, out);
    return;
  case FORMAT_JUNIT:
    report_junit(c, out);
    return;
  case FORMAT_COUNT:
    break;
  }
  BUG("report format %d", (int)f);
}

void report_render_path(const struct report_ctx *c, enum report_format f,
                        const char *path, struct buf *out)
{
  static const char summary[] = ".summary.csv";
  size_t n = path ? strlen(path) : 0;

  if (f == FORMAT_CSV && n >= sizeof(summary) - 1 &&
      !strcmp(path + n - (sizeof(summary) - 1), summary)) {
    report_csv_summary(c, out);
    return;
  }
  report_render(c, f, out);
}
