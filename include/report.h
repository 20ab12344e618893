/*
 * report.h: rendering (STYLE 5.1 step 5).  Renderers read the plan, the
 * results and the analysis and never compute statistics.  Each writes
 * into a struct buf; report_write_rendered writes a file atomically (temporary
 * file in the same directory, then rename).
 */
#ifndef HOPSPLIT_REPORT_H
#define HOPSPLIT_REPORT_H

#include <stdio.h>

#include "analysis.h"
#include "buf.h"
#include "options.h"
#include "plan.h"
#include "results.h"

/* What the reports describe besides plan, results and analysis. */
struct report_ctx {
  const struct plan *plan;
  const struct results *results;
  const struct analysis *analysis;
  const char *libraries; /* "libcurl/... c-ares/... OpenSSL ..." */
  int color;             /* ANSI colours in text */
  int brief;             /* text: the short form (--brief, stdout only) */
};

void report_text(const struct report_ctx *c, struct buf *out);
void report_json(const struct report_ctx *c, struct buf *out);
void report_ndjson(const struct report_ctx *c, struct buf *out);
void report_csv(const struct report_ctx *c, struct buf *out);
void report_har(const struct report_ctx *c, struct buf *out);
void report_html(const struct report_ctx *c, struct buf *out);
void report_prom(const struct report_ctx *c, struct buf *out);

/* ndjson in two parts, for streaming (report_ndjson is both): the line
 * of sample s, index-th of the run (needs only the plan and libraries of
 * c), and the final summary line (needs all of c). */
void report_ndjson_sample(const struct report_ctx *c, const struct sample *s,
                          size_t index, struct buf *out);
void report_ndjson_summary(const struct report_ctx *c, struct buf *out);

struct jt;
/* The hopsplit/1 document of c as a tree (report_json parsed back), so
 * that other formats carry the same facts; release with jt_release. */
void report_json_tree(const struct report_ctx *c, struct jt *root);
void report_render(const struct report_ctx *c, enum report_format f,
                   struct buf *out);

/* Whether path can be written (its directory exists and is writable);
 * returns 0 or -1 with a message printed. */
int report_check_path(const char *path);
/* Render format f of c straight into path, atomically (temporary file,
 * then rename), without holding the whole report in memory; 0 or -1 with
 * a message printed. */
int report_write_rendered(const char *path, const struct report_ctx *c,
                          enum report_format f);

/*
 * -w/--write-out (writeout.c): FORMAT with curl's %{variable} names,
 * \n \r \t escapes and %% for one sample, appended to out (%{stderr}
 * switches to err_out, %{stdout} back).  report_writeout_check returns 0,
 * or -1 with a message naming the unknown variable (and the closest).
 */
int report_writeout_check(const char *fmt, char *err, size_t errlen);
void report_writeout(const struct report_ctx *c, const char *fmt,
                     const struct sample *s, struct buf *out,
                     struct buf *err_out);

/* Redaction helpers used by every renderer (SPEC 7). */
char *report_url(const struct report_ctx *c, const char *url);
/* Value of a response header as reports show it; caller frees. */
char *report_header_value(const struct report_ctx *c, const char *name,
                          const char *value);

#endif
