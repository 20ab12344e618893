/*
 * blackbox.h: blackbox_exporter's module file, read for "hopsplit serve
 * --config" (config stage: libyaml).  Each module of prober http becomes
 * a struct options (the base options with the module's keys applied
 * through the one option table) and the checks blackbox makes after the
 * request (status codes, HTTP versions, SSL or not, header regexps).  A
 * key hopsplit cannot honour is an error naming the key and its
 * file:line:col, never silently ignored; a module of another prober (tcp,
 * dns, icmp, grpc) is kept with the reason it cannot be probed.
 *
 * The modules own everything they point to; blackbox_modules_free frees
 * them.
 */
#ifndef HOPSPLIT_BLACKBOX_H
#define HOPSPLIT_BLACKBOX_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"

#define BLACKBOX_STATUS_MAX 32

/* fail_if_header_matches (must_match 0) / fail_if_header_not_matches
 * (must_match 1): a PCRE2 pattern (as the body's, a superset of Go's RE2
 * syntax) searched in every value of header; serve compiles them, with
 * line and col for its error. */
struct blackbox_header_check {
  char *header;
  char *regexp;
  int allow_missing;
  int must_match;
  unsigned long line, col;
};

/* fail_if_body_matches_regexp (must_match 0) and
 * fail_if_body_not_matches_regexp (must_match 1): a PCRE2 pattern searched
 * in the final response's body as it streams (serve compiles them, with
 * line and col for its error). */
struct blackbox_body_check {
  char *regexp;
  int must_match;
  unsigned long line, col;
};

/* valid_http_versions bits */
enum blackbox_version {
  BB_HTTP_1_0,
  BB_HTTP_1_1,
  BB_HTTP_2,
  BB_HTTP_3,
  BB_HTTP_COUNT
};
/* "HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "HTTP/3.0" */
extern const char *const blackbox_version_names[BB_HTTP_COUNT];

struct blackbox_module {
  char *name;
  char *unsupported; /* another prober: why it cannot be probed, or NULL */
  struct options opts;
  int64_t timeout_us; /* the module's timeout, 0 when not given */
  long status_lo[BLACKBOX_STATUS_MAX], status_hi[BLACKBOX_STATUS_MAX];
  size_t n_status;   /* 0: 2xx, as blackbox */
  unsigned versions; /* bits of enum blackbox_version, 0: any */
  int fail_if_ssl, fail_if_not_ssl;
  struct blackbox_header_check *headers;
  size_t n_headers;
  struct blackbox_body_check *bodies;
  size_t n_bodies;
  /* compression: the coding the body must arrive in ("gzip", "br",
   * "deflate"; "identity": any), or NULL. */
  char *compression;
};

/* Whether path is a blackbox_exporter module file (its top level has
 * "modules"): 1, 0 for another YAML file, -1 when it cannot be read. */
int blackbox_is_file(const char *path);

/*
 * Read the modules of path over base (copied into each module).  Returns
 * 0, or -1 after printing every problem as "FILE:LINE:COL: ..." (nothing
 * is kept then).
 */
int blackbox_load(const char *path, const struct options *base,
                  struct blackbox_module **mods, size_t *n);
void blackbox_modules_free(struct blackbox_module *m, size_t n);

/* "HTTP/1.1" for the hop's http_version "1.1" and so on, as blackbox's
 * valid_http_versions names them; NULL when unknown. */
const char *blackbox_version_name(const char *http_version);

#endif
