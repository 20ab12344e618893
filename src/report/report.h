/*
 * report.h: rendering (step 5 of the pipeline, README.md Layout).  Renderers
 * read the plan, the results and the analysis and never compute statistics.
 * Each writes into a struct buf; report_write_rendered writes a file
 * atomically (temporary file in the same directory, then rename).
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
/* JUnit XML of the checks of a profile run (and of the samples of every
 * target), for CI (report_junit.c). */
void report_junit(const struct report_ctx *c, struct buf *out);

/* ndjson in two parts, for streaming (report_ndjson is both): the line
 * of sample s, index-th of the run, whose hops' facts are facts (see
 * analysis_hop_facts; needs only the plan and libraries of c, no
 * analysis), and the final summary line (needs all of c). */
void report_ndjson_sample(const struct report_ctx *c, const struct sample *s,
                          size_t index, const struct hop_fact *facts,
                          struct buf *out);
void report_ndjson_summary(const struct report_ctx *c, struct buf *out);

struct json;
/* Parts of the hopsplit/1 document, for ndjson: every member of the top
 * object before "samples", and the members of one sample object, into
 * an open object of j. */
void report_json_head(const struct report_ctx *c, struct json *j);
void report_json_sample(const struct report_ctx *c, struct json *j,
                        const struct sample *s, size_t index,
                        const struct hop_fact *facts);

void report_render(const struct report_ctx *c, enum report_format f,
                   struct buf *out);
/* As report_render, for the file path: a CSV named *.summary.csv is the
 * summary CSV (report_csv_summary). */
void report_render_path(const struct report_ctx *c, enum report_format f,
                        const char *path, struct buf *out);
/* The summary CSV (hopsplit(1) OUTPUT csv): per target x mode x phase n, p50,
 * p95, min, max, mean, stddev, and the comparison rows. */
void report_csv_summary(const struct report_ctx *c, struct buf *out);

/*
 * Output files (report_out.c).  A regular file, new or existing, also one
 * reached through symlinks, is written to a temporary file beside it and
 * renamed onto it when complete: a new file gets 0666 less the umask, an
 * existing one keeps its mode.  Anything else is written through, never
 * replaced: device nodes (/dev/null, /dev/full), FIFOs, /dev/stdout,
 * /dev/stderr, /dev/fd/N and /proc/self/fd/N (the open descriptor
 * itself).  in_place opens a regular file directly instead (truncated),
 * for ndjson streams, which must keep every line written if killed.
 * Every error names the file.  No temporary file survives: commit renames
 * it, abort removes it, and report_out_unlink_temps (async-signal-safe)
 * and exit() remove any left.
 */
struct report_out {
  char *path; /* as given, for messages */
  char *dest; /* the regular file replaced (symlinks resolved), or NULL */
  char *tmp;  /* the temporary file, or NULL */
  int fd;     /* -1 when closed */
  int mode;   /* of the file when it is renamed into place */
  int slot;   /* in the table of temporary files, or -1 */
};

/* Whether path can be written (its directory exists and is writable, or
 * it is a device, FIFO or descriptor that can be); 0 or -1 printed. */
int report_check_path(const char *path);
/* 0, or -1 with a message printed; o is then closed. */
int report_out_open(struct report_out *o, const char *path, int in_place);
/* Flush to disk, close and rename into place; 0, or -1 with a message
 * printed naming the file (the temporary file is then removed). */
int report_out_commit(struct report_out *o);
/* Close and remove the temporary file, if any. */
void report_out_abort(struct report_out *o);
/* Remove every temporary file still open; async-signal-safe. */
void report_out_unlink_temps(void);
/* For commands without their own handlers (hopsplit report): SIGINT,
 * SIGTERM and SIGHUP remove the temporary files, then end the process as
 * the signal would have. */
void report_out_catch_signals(void);

/* Render format f of c straight into path (see above), never whole in
 * memory; 0 or -1 with a message printed naming path. */
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

/*
 * s as text for a terminal shows it (buf_put_vis): s itself when it has
 * nothing to escape, else a copy that lives until report_vis_release.
 * The text report passes every string from the network or a saved
 * document through it where it places the string, so that a server's
 * ESC [ ... m cannot pass for the report's own colours (--color always).
 */
const char *report_vis(const char *s);
/* Free this thread's copies of report_vis. */
void report_vis_release(void);

/* Why a comparison's rounds were left out, appended to b ("1 round left
 * out: interfered, 3.1 ms late", "3 rounds left out: 2 interfered, up to
 * 3.1 ms late; 1 with a side failed"); nothing when none was. */
void report_left_out(struct buf *b, const struct comparison *cmp);

/*
 * The header blocks of one sample per target (report_heads.c): with
 * verbose 0 the response blocks of each hop as received, as curl's -i and
 * --dump-header write them; with verbose 1 each hop's request lines after
 * "> " and response lines after "< ", as curl's -v.  Redacted as every
 * report.  report_heads_sample is
 * that sample of target t (the median cold one when there is one) and
 * its description in *which, or NULL.
 */
void report_heads(const struct report_ctx *c, int verbose, struct buf *out);
/* Say on stderr (msg_note) which sample report_heads shows per target. */
void report_heads_note(const struct report_ctx *c);
const struct sample *report_heads_sample(const struct report_ctx *c, size_t t,
                                         const char **which);

/* Redaction helpers used by every renderer (hopsplit(1) Redaction). */
char *report_url(const struct report_ctx *c, const char *url);
/* Value of a response header as reports show it; caller frees. */
char *report_header_value(const struct report_ctx *c, const char *name,
                          const char *value);
/* The value of every header of h called as h->headers[i] is (any case),
 * redacted as report_header_value does and joined with ", " (RFC 9110
 * 5.3), with the name lowercased in *name; both malloc'd.  NULL when an
 * earlier header has that name (it carried them all). */
char *report_header_joined(const struct report_ctx *c, const struct hop *h,
                           size_t i, char **name);

#endif
