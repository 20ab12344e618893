/*
 * hopsplit/hopsplit.h: libhopsplit, the measurement core of hopsplit(1),
 * as a library: the one public header (hopsplit(3)).
 *
 * A program fills an options handle through one setter fed by the same
 * option table as the command line and profiles, runs it (to the end, or
 * a step at a time on a loop of its own), and reads the results: samples
 * and hops through the field table that every report format uses (a field
 * handle by name, a value by handle, as curl_easy_getinfo reads by
 * CURLINFO_*), the analysis, and any report format rendered to a write
 * callback.  Every function returns a code; none prints unless no log
 * callback is set (messages then go to stderr), and none exits (running
 * out of memory aside, which aborts, as in the tool).
 *
 * There is no ABI promise before 1.0: rebuild against each release.
 * Handles are used by one thread at a time; distinct handles on distinct
 * threads are independent.
 */
#ifndef HOPSPLIT_HOPSPLIT_H
#define HOPSPLIT_HOPSPLIT_H

#include <stddef.h>
#include <stdint.h>

#include <hopsplit/version.h>

#if defined(HS_BUILDING_LIBRARY) && defined(__GNUC__)
#define HS_EXTERN __attribute__((visibility("default")))
#else
#define HS_EXTERN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What every function returns (hs_strerror says it in words). */
enum hs_code {
  HS_OK = 0,
  HS_E_UNKNOWN_OPTION, /* no option of that name measures */
  HS_E_BAD_VALUE,      /* the option's value, or a target, is wrong */
  HS_E_NO_TARGET,      /* a run of options with no target */
  HS_E_SETUP,          /* libcurl, c-ares or a loop could not be set up */
  HS_E_STATE,          /* a call out of order: a run started twice */
  HS_E_RANGE,          /* no such sample or hop */
  HS_E_FIELD,          /* a field of the other kind (a hop's for a sample) */
  HS_E_FORMAT,         /* no report format of that name */
  HS_E_WRITE,          /* the write callback returned non-zero */
  HS_E_READ,           /* not a document hopsplit wrote */
  HS_E_CANCELLED,      /* the run was cancelled before every sample */
  HS_E_IO,             /* a file cannot be read or written */
  HS_CODE_COUNT
};

/* The code in words ("unknown option"); never NULL. */
HS_EXTERN const char *hs_strerror(enum hs_code code);
/* The library's version ("0.1.0"), which may differ from HS_VERSION. */
HS_EXTERN const char *hs_version(void);

/* Set up libcurl, c-ares and OpenSSL once per process, before any other
 * thread runs (as curl_global_init); hs_global_cleanup undoes it. */
HS_EXTERN enum hs_code hs_global_init(void);
HS_EXTERN void hs_global_cleanup(void);

/* Messages (errors, warnings, notes, -v information), one line each,
 * without the program name or a newline: to fn when set, else to stderr
 * as "hopsplit: ...".  Process-wide; set it before the first run. */
enum hs_log_level { HS_LOG_ERROR, HS_LOG_WARNING, HS_LOG_NOTE, HS_LOG_INFO };
typedef void hs_log_fn(enum hs_log_level level, const char *line, void *ud);
HS_EXTERN void hs_set_log(hs_log_fn *fn, void *ud);

/* Options and targets.  hs_options_set takes an option by its long name
 * without "--" ("mode", "samples", "connect-timeout", "header") and its
 * value as the command line would, NULL for a flag; the last setting
 * wins, a repeatable option (header) adds.  hs_options_add_target adds a
 * URL or NAME=URL.  On an error, hs_options_error says what was wrong. */
struct hs_options;
HS_EXTERN struct hs_options *hs_options_new(void);
HS_EXTERN void hs_options_free(struct hs_options *o);
HS_EXTERN enum hs_code hs_options_set(struct hs_options *o, const char *name,
                                      const char *value);
HS_EXTERN enum hs_code hs_options_add_target(struct hs_options *o,
                                             const char *target);
HS_EXTERN const char *hs_options_error(const struct hs_options *o);

/* Lock mu, a pthread_mutex_t * (void * here: the header includes only the
 * C library), as pthread_mutex_lock does, from a loop's thread: when another
 * thread holds it, the wait is timed and counted in the interference of
 * the samples in flight on the calling thread (interference_lock_us,
 * hopsplit(1) INTERFERENCE).  Uncontended it costs one trylock.  For the
 * locks an application shares between its loops and other threads. */
HS_EXTERN void hs_mutex_lock(void *mu);

/* A loop: one thread's event loop (epoll) that runs are measured on,
 * any number of them at once.  hs_loop_step waits at most timeout_ms
 * (negative: until something happens), runs what is ready, then the done
 * callbacks of the runs that ended, and returns the transfers and timers
 * still pending.  hs_loop_wake, from any thread or a signal handler,
 * makes the loop's current or next step return at once.  Free a loop's
 * runs before it. */
struct hs_loop;
HS_EXTERN enum hs_code hs_loop_new(struct hs_loop **out);
HS_EXTERN void hs_loop_free(struct hs_loop *l);
HS_EXTERN size_t hs_loop_step(struct hs_loop *l, long timeout_ms);
HS_EXTERN void hs_loop_wake(struct hs_loop *l);

/* A run of the options' plan.  hs_run_new copies what it needs of o (o
 * may be freed after) and plans it; loop is the loop to measure on, or
 * NULL for a loop of its own.  Then either hs_run_perform (to the end, as
 * the tool measures; the library draws no progress line), or
 * hs_run_start and hs_run_step (or hs_loop_step of its loop) until it has
 * ended.  hs_run_cancel(r), from any thread or a signal handler, stops
 * that run alone: no sample starts after the one in flight, which ends
 * as it would; what was measured stays, and the run ends HS_E_CANCELLED.
 * A run in hs_run_perform on a loop of its own is stopped as by the
 * process's interrupt.  hs_run_cancel(NULL) is the process's interrupt, for a
 * signal handler that holds no run (the tool's first SIGINT): every run in
 * flight stops, its sample in flight abandoned. */
struct hs_run;
struct hs_results;
HS_EXTERN enum hs_code hs_run_new(const struct hs_options *o,
                                  struct hs_loop *loop, struct hs_run **out);
HS_EXTERN enum hs_code hs_run_perform(struct hs_run *r);
HS_EXTERN enum hs_code hs_run_start(struct hs_run *r);
HS_EXTERN enum hs_code hs_run_step(struct hs_run *r, long timeout_ms,
                                   int *running);
HS_EXTERN void hs_run_cancel(struct hs_run *r);
/* Bound the run to timeout_ms from its start (0: no bound; set before
 * the start): every lookup and transfer is cut to what is left, and a
 * sample that would start after it fails at once as a timeout.
 * HS_E_BAD_VALUE for a negative timeout or one past a century,
 * HS_E_STATE once the run has started (the bound stays as it was). */
HS_EXTERN enum hs_code hs_run_set_timeout(struct hs_run *r, long timeout_ms);
/* Callbacks on the loop's thread (set before the start; either may be
 * NULL): each(r, i, ud) once sample i is stored, its fields readable
 * (hs_results_get; those the analysis makes, cache.* and edge.*, are
 * null until the run has ended); done(r, code, ud) once the run has
 * ended (HS_OK or HS_E_CANCELLED), after the step that ended it, from
 * hs_loop_step, hs_run_step or hs_run_perform.  Neither may free r, but
 * done may when the loop is stepped with hs_loop_step. */
typedef void hs_sample_fn(struct hs_run *r, size_t i, void *ud);
typedef void hs_done_fn(struct hs_run *r, enum hs_code code, void *ud);
HS_EXTERN void hs_run_set_callbacks(struct hs_run *r, hs_sample_fn *each,
                                    hs_done_fn *done, void *ud);
/* The run's results, owned by the run (valid until hs_run_free), complete
 * once the run has ended, and analysed then (on the first call that
 * needs the analysis, on the thread that makes it). */
HS_EXTERN struct hs_results *hs_run_results(struct hs_run *r);
HS_EXTERN void hs_run_free(struct hs_run *r);

/* Results own every string they hand out: each pointer read from them is
 * valid until they are freed.  hs_results_read reads a JSON document a
 * run wrote (-o FILE.json) into results freed by hs_results_free (which
 * does nothing for a run's own). */
HS_EXTERN enum hs_code hs_results_read(const char *text, size_t len,
                                       struct hs_results **out);
HS_EXTERN void hs_results_free(struct hs_results *r);
HS_EXTERN size_t hs_results_samples(const struct hs_results *r);
/* Hops of sample i (0 when there is no sample i). */
HS_EXTERN size_t hs_results_hops(const struct hs_results *r, size_t i);
/* Failed samples, by the analysis (statistics, cache and edge, findings,
 * comparisons: made on the first call that needs it). */
HS_EXTERN size_t hs_results_failed(struct hs_results *r);

/* Render a report format by name ("text", "json", "ndjson", "csv",
 * "har", "html", "prom", "junit"), exactly as hopsplit -o writes it, to
 * fn(data, len, ud), which returns 0 to go on. */
typedef int hs_write_fn(const char *data, size_t len, void *ud);
HS_EXTERN enum hs_code hs_results_render(struct hs_results *r,
                                         const char *format, hs_write_fn *fn,
                                         void *ud);
/* The libraries libhopsplit runs on, with their versions, and what they
 * can measure, as hopsplit -V prints them under its first line, to fn. */
HS_EXTERN enum hs_code hs_version_text(hs_write_fn *fn, void *ud);

/* Fields: the rows of the JSON document's sample objects
 * (HS_FIELD_SAMPLE: "total_us", "ok", "error.class") and hop objects
 * (HS_FIELD_HOP: "phases_us.dns", "status", "tls.version"), by the names
 * the document uses.  hs_field_find returns NULL for an unknown name;
 * hs_field_at the i-th row, NULL past the last. */
enum hs_field_kind { HS_FIELD_SAMPLE, HS_FIELD_HOP };
enum hs_type {
  HS_TYPE_INT,     /* a count or an index: i */
  HS_TYPE_US,      /* microseconds: i */
  HS_TYPE_BYTES,   /* bytes: i */
  HS_TYPE_SECONDS, /* microseconds shown as seconds: i */
  HS_TYPE_TEXT,    /* s */
  HS_TYPE_BOOL,    /* 0 or 1: i */
  HS_TYPE_TIME,    /* milliseconds since the epoch: i */
  HS_TYPE_DOUBLE,  /* d */
  HS_TYPE_TEXTS,   /* n strings: v */
  HS_TYPE_OTHER    /* a structure: only its text, s */
};
struct hs_field;
HS_EXTERN const struct hs_field *hs_field_find(enum hs_field_kind kind,
                                               const char *name);
HS_EXTERN const struct hs_field *hs_field_at(enum hs_field_kind kind,
                                             size_t i);
HS_EXTERN const char *hs_field_name(const struct hs_field *f);
HS_EXTERN enum hs_type hs_field_type(const struct hs_field *f);

/* A field's value.  null: not measured (never 0 for a value that was not
 * measured).  s is every value as the CSV column writes it ("" for
 * null), owned by the results. */
struct hs_value {
  enum hs_type type;
  int null;
  int64_t i;
  double d;
  const char *s;
  const char *const *v;
  size_t n;
};
/* The value of field f of sample i (and of its hop k for a hop field;
 * k is ignored for a sample field) into *out. */
HS_EXTERN enum hs_code hs_results_get(struct hs_results *r, size_t i, size_t k,
                                      const struct hs_field *f,
                                      struct hs_value *out);

/* ---- The command line's side ------------------------------------------
 * What a front end such as hopsplit(1) needs besides measuring: the
 * option table, to parse its argv and write its --help; profiles; the
 * checks a run makes before it measures; the report written as the
 * command line asks for it; saved documents and their merge.  The tool
 * is a client of these: argv, --help texts, the progress line and the
 * signals are its own. */

/* The commands of hopsplit(1) an option belongs to: bits 1u << cmd. */
enum hs_command {
  HS_COMMAND_MEASURE, /* hopsplit URL..., hopsplit run, a profile's keys */
  HS_COMMAND_REPORT,  /* hopsplit report */
  HS_COMMAND_MERGE,   /* hopsplit merge */
  HS_COMMAND_SERVE,   /* hopsplit serve */
  HS_COMMAND_COUNT
};
/* One row of the option table. */
struct hs_option_info {
  const char *name;    /* the long name, without "--" */
  char short_name;     /* 0 when there is none */
  int takes_value;     /* 0 for a flag */
  const char *argname; /* the value's name in --help, NULL for a flag */
  const char *help;    /* what --help says of it */
  unsigned commands;   /* the commands that take it: 1u << HS_COMMAND_x */
};
/* Row i of the table (sorted by name) into *out; HS_E_RANGE past the
 * last row. */
HS_EXTERN enum hs_code hs_option_info(size_t i, struct hs_option_info *out);
/* The long name of an option of cmd closest to name (for "did you
 * mean"), or NULL. */
HS_EXTERN const char *hs_option_suggest(const char *name, enum hs_command cmd);

/* Settle what depends on several options, once after the last
 * hs_options_set: an -o FILE without a format's extension takes
 * --format's, and is an error without one (HS_E_BAD_VALUE,
 * hs_options_error "option -o: ...").  For HS_COMMAND_MEASURE, the trust
 * store also comes from the environment as curl takes it (CURL_CA_BUNDLE,
 * SSL_CERT_DIR, SSL_CERT_FILE) when no option gives one.  After a bad
 * value, hs_options_error reads "option 'NAME': WHY". */
HS_EXTERN enum hs_code hs_options_finish(struct hs_options *o,
                                         enum hs_command cmd);
/* Load the YAML profile at path (hopsplit-profile(5)) into o: its
 * settings, its targets each with their own, its checks; over (may be
 * NULL) holds options given on a command line, applied over the
 * profile's.  Every problem is logged as an error "FILE:LINE:COL: WHY";
 * HS_E_BAD_VALUE then, the first of them in hs_options_error.  A run of
 * o borrows the profile's targets and checks: free o after its runs. */
HS_EXTERN enum hs_code hs_options_load_profile(struct hs_options *o,
                                               const char *path,
                                               const struct hs_options *over);
/* The name of o's profile (its name:, else its file name without .yaml)
 * and, file not NULL, its path as given; NULL when o holds no profile. */
HS_EXTERN const char *hs_options_profile(const struct hs_options *o,
                                         const char **file);
/* What a front end asks of the options (a profile's, when o holds one). */
enum hs_query {
  HS_QUERY_HELP,        /* 1: --help */
  HS_QUERY_VERSION,     /* 1: -V */
  HS_QUERY_DRY_RUN,     /* 1: --dry-run */
  HS_QUERY_VERBOSITY,   /* what stderr says: -1 (-s; -S: 0), 0, 1+ (-v) */
  HS_QUERY_PROGRESS,    /* a progress line: 1 always, 0 never (or -s),
                         * -1 on a terminal only */
  HS_QUERY_TEXT_REPORT, /* 1: stdout gets the text report (--format text,
                         * and -w does not take its place) */
  HS_QUERY_COUNT
};
HS_EXTERN long hs_options_query(const struct hs_options *o, enum hs_query q);
/* The files o writes (-o FILE, -D FILE): HS_OUTPUTS_WRITABLE, each can
 * be written now; HS_OUTPUTS_CREATABLE, each could be created (its
 * nearest existing directory is writable), creating nothing;
 * HS_OUTPUTS_MAKE_DIRS, make the missing directories above each -o FILE
 * (as mkdir -p; what cannot be made is left for the check).  HS_E_IO
 * after logging the file that cannot be written. */
enum hs_outputs {
  HS_OUTPUTS_WRITABLE,
  HS_OUTPUTS_CREATABLE,
  HS_OUTPUTS_MAKE_DIRS
};
HS_EXTERN enum hs_code hs_options_outputs(const struct hs_options *o,
                                          enum hs_outputs what);
/* What the library's messages say, process-wide (as hs_set_log): -1
 * errors only, 0 also warnings and notes (the default), 1 or more also
 * information (-v). */
HS_EXTERN void hs_set_verbosity(int level);

/* The checks a run makes before it measures, also --dry-run's: the
 * files --cacert, --capath, --cert and --key name, the -w format (each
 * problem an error logged; HS_E_BAD_VALUE); under --dry-run, a --resolve
 * entry that matches no target is a warning. */
HS_EXTERN enum hs_code hs_run_preflight(struct hs_run *r);
/* The plan as --dry-run prints it (a profile's with its name and its
 * checks), to fn. */
HS_EXTERN enum hs_code hs_run_describe(struct hs_run *r, hs_write_fn *fn,
                                       void *ud);
/* A progress line's facts, before each sample: k of n samples started,
 * the target and mode of the one about to run, the milliseconds since
 * the run began; once more with target NULL when the samples are over.
 * hs_run_perform calls it; set it before. */
typedef void hs_progress_fn(size_t k, size_t n, const char *target,
                            const char *mode, int64_t elapsed_ms, void *ud);
HS_EXTERN void hs_run_set_progress(struct hs_run *r, hs_progress_fn *fn,
                                   void *ud);
/* Remove the temporary files of every output being written; safe from
 * a signal handler (as the process leaves on a second SIGINT). */
HS_EXTERN void hs_unlink_temps(void);

/* Write the report as the command line does with options o (the run's
 * own, or a report's or merge's): in o's format to stdout (first the
 * response headers with -i or -D -; with -v, the request and response
 * headers on stderr), then -D FILE and every -o FILE, each tried; an
 * output that fails is logged, and the end is HS_E_IO. */
HS_EXTERN enum hs_code hs_results_write(struct hs_results *r,
                                        const struct hs_options *o);
/* Log each distinct failure of the samples once, as notes (hopsplit(1)):
 * "(connect) api: 4 of 4 samples failed (...): WHY; WHAT TO DO". */
HS_EXTERN void hs_results_log_failures(struct hs_results *r);
/* The checks of the run's profile (or of a saved document) that
 * failed; 0 without checks. */
HS_EXTERN size_t hs_results_checks_failed(struct hs_results *r);
/* Read the document a run wrote (-o FILE.json) from path, one sample at
 * a time (at most 512 MiB), analysed with o's --project and
 * --payload-size when given (o may be NULL).  HS_E_READ when it is not
 * such a document or too large, HS_E_IO when it cannot be read (logged). */
HS_EXTERN enum hs_code hs_results_open(const char *path,
                                       const struct hs_options *o,
                                       struct hs_results **out);
/* One document from runs saved in several places (hopsplit merge): every
 * target of the n files at paths, named VANTAGE (or TARGET@VANTAGE),
 * each compared unpaired with the same target from the first place;
 * o's --project applies.  HS_E_READ or HS_E_IO (logged) as
 * hs_results_open. */
HS_EXTERN enum hs_code hs_results_merge(const char *const *paths, size_t n,
                                        const struct hs_options *o,
                                        struct hs_results **out);
/* ---- end of the command line's side ---- */

#ifdef __cplusplus
}
#endif

#endif
