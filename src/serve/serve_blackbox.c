/*
 * serve_blackbox.c: the checks a blackbox_exporter http module makes
 * after its request (blackbox.h), on the probe's sample: the final status
 * among valid_status_codes (else 2xx), the header regexps over every
 * value of the final response's header (from the header block the probe
 * kept, options.keep_heads; PCRE2 patterns, as the body's), the body regexps
 * (searched by the probe as the body streamed, options.body_regexps), the HTTP
 * version among valid_http_versions, fail_if_ssl / fail_if_not_ssl.  Input:
 * the module and the sample.  Output: a verdict and its reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blackbox.h"
#include "probe.h"
#include "serve_int.h"
#include "xalloc.h"
#include "banned.h"

/* Whether the list value[0..n) ("gzip, br;q=1") names token, in any
 * case. */
static int has_token(const char *value, size_t n, const char *token)
{
  size_t tl = strlen(token), i = 0;

  while (i < n) {
    size_t b, e;

    while (i < n && (value[i] == ' ' || value[i] == ','))
      i++;
    b = i;
    while (i < n && value[i] != ',' && value[i] != ';' && value[i] != ' ')
      i++;
    e = i;
    if (e - b == tl && !strncasecmp(value + b, token, tl))
      return 1;
    while (i < n && value[i] != ',')
      i++;
  }
  return 0;
}

int serve_blackbox_status_ok(const struct serve_module *m, long st)
{
  size_t i;

  if (!m || !m->bb || !m->bb->n_status)
    return st >= 200 && st <= 299;
  for (i = 0; i < m->bb->n_status; i++)
    if (st >= m->bb->status_lo[i] && st <= m->bb->status_hi[i])
      return 1;
  return 0;
}

/* Does any value of header name in the response block head (the final
 * response's: after its last status line) match pattern k of re (or, with
 * re NULL, contain the token k_token)?  *seen says whether the header was
 * there at all. */
static int header_matches(const char *head, const char *name,
                          const struct body_regexps *re, size_t k,
                          const char *token, int *seen)
{
  const char *p = head, *last = head;
  size_t n = strlen(name);
  int hit = 0;

  /* The final response: the last block that starts with a status line. */
  for (p = head; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
    if (!strncmp(p, "HTTP/", 5))
      last = p;
  *seen = 0;
  for (p = last; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
    size_t len = strcspn(p, "\r\n"), vlen;
    const char *value;

    if (len <= n || p[n] != ':' || strncasecmp(p, name, n))
      continue;
    *seen = 1;
    /* The value as Go's textproto reads it: without the white space
     * around it. */
    value = p + n + 1;
    vlen = len - n - 1;
    while (vlen && (*value == ' ' || *value == '\t')) {
      value++;
      vlen--;
    }
    while (vlen && (value[vlen - 1] == ' ' || value[vlen - 1] == '\t'))
      vlen--;
    if (re ? probe_body_regexps_match(re, k, value, vlen)
           : has_token(value, vlen, token))
      hit = 1;
  }
  return hit;
}

/* The body regexps (all of fail_if_body_matches_regexp, then all of
 * fail_if_body_not_matches_regexp, as blackbox checks them) over what
 * the probe found searching the final body as it streamed. */
static int bodies_ok(struct serve_probe *sp, const struct blackbox_module *bb,
                     size_t i, size_t fin, char *why, size_t len)
{
  const struct serve_fields *F = serve_fields();
  uint64_t matched;
  int pass;
  size_t k;

  if (!bb->n_bodies || !serve_get_int(sp->res, i, fin, F->body_scanned, 0))
    return 0;
  matched = (uint64_t)serve_get_int(sp->res, i, fin, F->body_matched, 0);
  for (pass = 0; pass < 2; pass++)
    for (k = 0; k < bb->n_bodies; k++) {
      int hit = (int)((matched >> k) & 1u);

      if (bb->bodies[k].must_match != pass || hit == pass)
        continue;
      snprintf(why, len, "body %s regular expression %s",
               pass ? "did not match" : "matched", bb->bodies[k].regexp);
      sp->regex_failed = 1;
      return -1;
    }
  return 0;
}

int serve_blackbox_judge(struct serve_probe *sp, size_t s, char *why,
                         size_t len)
{
  const struct serve_fields *F = serve_fields();
  const struct blackbox_module *bb = sp->module ? sp->module->bb : NULL;
  size_t hops = hs_results_hops(sp->res, s), fin = hops ? hops - 1 : 0;
  const char *head, *tls;
  size_t i;

  if (!bb || !hops)
    return 0;
  head = serve_get_text(sp->res, s, fin, F->response_head);
  if (!head)
    head = "";
  tls = serve_get_text(sp->res, s, fin, F->tls_version);
  /* blackbox's order: header regexps, body regexps, HTTP version, SSL. */
  for (i = 0; i < bb->n_headers; i++) {
    const struct blackbox_header_check *hc = &bb->headers[i];
    int seen = 0, hit;

    hit = header_matches(head, hc->header, sp->module->header_re, i, NULL,
                         &seen);
    if (!seen && !hc->allow_missing) {
      snprintf(why, len, "missing required header %s", hc->header);
      sp->regex_failed = 1;
      return -1;
    }
    if (seen && hit != hc->must_match) {
      snprintf(why, len, "header %s %s regular expression %s", hc->header,
               hc->must_match ? "did not match" : "matched", hc->regexp);
      sp->regex_failed = 1;
      return -1;
    }
  }
  /* blackbox decodes the body with the module's coding whatever the
   * response says: a body not in it fails (after the header checks,
   * before the body regexps). */
  if (bb->compression && strcmp(bb->compression, "identity")) {
    int seen = 0, hit;

    hit = header_matches(head, "Content-Encoding", NULL, 0, bb->compression,
                         &seen);
    if (!hit) {
      snprintf(why, len,
               "failed to decompress the body: compression is %s, the "
               "response's Content-Encoding is not",
               bb->compression);
      return -1;
    }
  }
  /* body_size_limit: blackbox's body regexps, else its read of the rest
   * of the body, fail on a body that passed it. */
  if (serve_get_int(sp->res, s, fin, F->body_limited, 0)) {
    snprintf(why, len,
             "failed to read the HTTP response body: it is larger than the "
             "module's body_size_limit");
    if (bb->n_bodies)
      sp->regex_failed = 1;
    return -1;
  }
  if (bodies_ok(sp, bb, s, fin, why, len) < 0)
    return -1;
  if (bb->versions) {
    const char *v = blackbox_version_name(
        serve_get_text(sp->res, s, fin, F->http_version));
    int k, ok = 0;

    for (k = 0; v && k < BB_HTTP_COUNT; k++)
      if (bb->versions & (1u << k))
        ok |= !strcmp(v, blackbox_version_names[k]);
    if (!ok) {
      snprintf(why, len, "invalid HTTP version number: %s", v ? v : "unknown");
      return -1;
    }
  }
  if (bb->fail_if_ssl && tls) {
    snprintf(why, len, "final request was over SSL");
    return -1;
  }
  if (bb->fail_if_not_ssl && !tls) {
    snprintf(why, len, "final request was not over SSL");
    return -1;
  }
  return 0;
}
