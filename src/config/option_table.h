/*
 * option_table.h: the option table of the command line and of profiles
 * (config/options.c) and its one setter, so a flag and a profile key can
 * never behave differently (curl tool_getparam/tool_parsecfg).  The record
 * the setter fills, struct options, is model's (options.h).
 */
#ifndef HOPSPLIT_OPTION_TABLE_H
#define HOPSPLIT_OPTION_TABLE_H

#include <stddef.h>

#include "options.h"

enum opt_id {
  OPT_BASELINE,
  OPT_BRIEF,
  OPT_CACERT,
  OPT_CAPATH,
  OPT_CERT,
  OPT_CLIENT_LOCATION,
  OPT_COLOR,
  OPT_COMPARE,
  OPT_COMPRESSED,
  OPT_CONFIG,
  OPT_CONNECT_TIMEOUT,
  OPT_DATA,
  OPT_DATA_BINARY,
  OPT_DATA_RAW,
  OPT_DNS_SERVER,
  OPT_DRY_RUN,
  OPT_DUMP_HEADER,
  OPT_FAIL,
  OPT_FORMAT,
  OPT_HEAD,
  OPT_HEADER,
  OPT_HELP,
  OPT_HTTP1_1,
  OPT_HTTP2,
  OPT_HTTP3,
  OPT_HTTP3_ONLY,
  OPT_INCLUDE,
  OPT_INSECURE,
  OPT_IPV4,
  OPT_IPV6,
  OPT_JSON,
  OPT_KEEP_INTERFERED,
  OPT_KEY,
  OPT_LISTEN,
  OPT_LOCATION,
  OPT_LOCATION_TRUSTED,
  OPT_MAX_CONCURRENT,
  OPT_MAX_REDIRS,
  OPT_MAX_TIME,
  OPT_MODE,
  OPT_NO_FOLLOW,
  OPT_ORDER,
  OPT_OUTPUT,
  OPT_PARALLEL,
  OPT_PAUSE,
  OPT_PAYLOAD_SIZE,
  OPT_POST301,
  OPT_POST302,
  OPT_POST303,
  OPT_PRIME,
  OPT_PROGRESS,
  OPT_PROJECT,
  OPT_PROTOCOLS,
  OPT_QUIET,
  OPT_REQUEST,
  OPT_RESOLVE,
  OPT_ROUNDS,
  OPT_SEED,
  OPT_SHOW_ERROR,
  OPT_SHOW_SECRETS,
  OPT_SILENT,
  OPT_TIMEOUT_OFFSET,
  OPT_TRACE,
  OPT_UPLOAD_FILE,
  OPT_USER_AGENT,
  OPT_VANTAGE,
  OPT_VERBOSE,
  OPT_VERSION,
  OPT_WRITE_OUT,
  OPT_COUNT
};

enum opt_arg { OPT_ARG_NONE, OPT_ARG_REQUIRED };

/* The commands of the one parser (cli_parse), each with its allow-list:
 * the options whose struct opt_def.cmds has its bit.  OPT_CMD_MEASURE is
 * "hopsplit URL..." and "hopsplit run" (and the keys of a profile). */
enum opt_cmd {
  OPT_CMD_MEASURE,
  OPT_CMD_REPORT,
  OPT_CMD_MERGE,
  OPT_CMD_SERVE,
  OPT_CMD_COUNT
};
#define OPT_IN(cmd) (1u << (cmd))
/* What measures: the URL form, run, profiles, and serve's probes. */
#define OPT_IN_MEASURING (OPT_IN(OPT_CMD_MEASURE) | OPT_IN(OPT_CMD_SERVE))
/* What only renders: every command (report and merge re-render). */
#define OPT_IN_ALL                                                            \
  (OPT_IN_MEASURING | OPT_IN(OPT_CMD_REPORT) | OPT_IN(OPT_CMD_MERGE))

struct opt_def {
  const char *name; /* long name without "--" */
  char short_name;  /* 0 when none */
  enum opt_arg arg;
  enum opt_id id;
  const char *argname; /* shown in --help, NULL for flags */
  const char *help;
  unsigned cmds; /* OPT_IN(cmd) bits: the commands that take it */
};

/* The most probes hopsplit serve measures at once (--max-concurrent). */
#define OPTIONS_MAX_CONCURRENT_MAX 100000

/* The table, sorted by name; OPT_COUNT entries. */
extern const struct opt_def options_table[OPT_COUNT];

/* Look up an option by long name (without "--"); NULL when unknown. */
const struct opt_def *options_find(const char *name);
const struct opt_def *options_find_short(char c);
/* The option of that long name if command cmd takes it, else NULL. */
const struct opt_def *options_find_for(const char *name, enum opt_cmd cmd);
/* The long name of an option of cmd closest to name (for "did you
 * mean"), or NULL. */
const char *options_suggest(const char *name, enum opt_cmd cmd);

/*
 * Apply one option.  val is NULL for flags.  On error, writes a message
 * without the location prefix into err and returns -1; the caller adds
 * "option --x" or "file:line:col".
 */
int options_set(struct options *o, const struct opt_def *d, const char *val,
                char *err, size_t errlen);

/*
 * As options_set, for an option that overrides earlier settings of a
 * repeatable option with the same key: a header replaces the headers of
 * the same name (case-insensitive), a --resolve entry the entries for the
 * same HOST:PORT.  Used to apply command-line options over a profile.
 */
int options_override(struct options *o, const struct opt_def *d,
                     const char *val, char *err, size_t errlen);

/* The extensions of the report formats an -o FILE may have, for messages
 * and --help: ".json .ndjson ..." (hopsplit(1)). */
extern const char options_output_exts[];

/*
 * Settle what depends on several options; call once after the last
 * options_set.  An -o FILE without a report format's extension is written
 * in the format --format gives; when --format was not given, that is a
 * usage error (hopsplit(1): "-o photo.jpg" must not get a text report, and a
 * body is never stored): returns -1 with a message in err naming the file
 * (the caller adds where), and sets *bad (may be NULL) to the file's
 * index in o->outputs.  Returns 0 otherwise.
 */
int options_finish(struct options *o, size_t *bad, char *err, size_t errlen);

/* The trust store from the environment, as the curl tool takes it, when
 * neither --cacert nor --capath nor -k is given: CURL_CA_BUNDLE, else
 * SSL_CERT_DIR and SSL_CERT_FILE.  For runs that measure (not for
 * `hopsplit report`, which replays recorded options). */
void options_ca_from_env(struct options *o);

/* Format of an output file from its extension, FORMAT_COUNT if unknown. */
enum report_format options_format_from_path(const char *path);

#endif
