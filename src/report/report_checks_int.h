/*
 * report_checks_int.h: the checks section of the text and JSON reports of a
 * profile run.  Reads only the plan's check set (check.h), which
 * check_evaluate has filled; prints nothing for the URL form (no checks).
 */
#ifndef HOPSPLIT_REPORT_CHECKS_H
#define HOPSPLIT_REPORT_CHECKS_H

#include "buf.h"
#include "json.h"
#include "report.h"

/* "checks" lines at the end of the text report. */
void report_checks_text(const struct report_ctx *c, struct buf *b);

/* "profile" {name, file}, "checks" [...] and "checks_failed" members of
 * the top-level JSON object. */
void report_checks_json(const struct report_ctx *c, struct json *j);

#endif
