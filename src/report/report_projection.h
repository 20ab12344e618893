/*
 * report_projection.h: the projections of --project in each format
 * (hopsplit(1) PROJECTION): what analysis/projection.c decided, written
 * out; nothing is computed here.  Private to report.
 */
#ifndef HOPSPLIT_REPORT_PROJECTION_H
#define HOPSPLIT_REPORT_PROJECTION_H

#include <stddef.h>

#include "buf.h"
#include "report.h"

struct json;

/* Text: target t's projections (a table of phases per hop and network,
 * the total beside the measured one, the findings re-ranked). */
void report_projection_text(const struct report_ctx *c, struct buf *b,
                            size_t t);
/* Text: the comparison verdicts on each network. */
void report_projection_comparisons_text(const struct report_ctx *c,
                                        struct buf *b);
/* --brief: one line per target, mode and network. */
void report_projection_brief(const struct report_ctx *c, struct buf *b);
/* JSON: target t's "projection" array, in the open target object. */
void report_projection_json(const struct report_ctx *c, struct json *j,
                            size_t t);
/* JSON: the top-level "projected_comparison" array and settings' networks
 * ("project"). */
void report_projection_json_top(const struct report_ctx *c, struct json *j);
void report_projection_json_settings(const struct report_ctx *c,
                                     struct json *j);
/* HTML: target t's table, a column per network. */
void report_projection_html(const struct report_ctx *c, struct buf *b,
                            size_t t);

#endif
