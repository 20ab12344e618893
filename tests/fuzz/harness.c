/*
 * harness.c: the bodies of the libFuzzer targets (issue 8), one function
 * per parser that reads outside input.  Input: any bytes.  Output:
 * nothing; a crash, a sanitizer report or a failed invariant (abort) is a
 * finding.
 *
 * The same functions run in two places: each fuzz_main.c executable calls
 * one of them from LLVMFuzzerTestOneInput (tests/fuzz/CMakeLists.txt picks
 * it with FUZZ_TARGET), and tests/unit/test_regress.c, which includes this
 * file, replays the seed corpora and every kept finding
 * (tests/fuzz/regress/TARGET-*) through fuzz_targets[] on every build.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blackbox.h"
#include "buf.h"
#include "cache.h"
#include "edge.h"
#include "json.h"
#include "option_table.h"
#include "options.h"
#include "probe.h"
#include "profile.h"
#include "report.h"
#include "report_read.h"
#include "msg.h"
#include "netprofile.h"
#include "analysis.h"
#include "sample.h"
#include "strpool.h"
#include "transport.h"
#include "units.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* Inputs longer than this are cut: the parsers cap their own inputs far
 * below (URL_MAX_LEN, EDGE_TRACE_MAX, the header cap), and long inputs only
 * slow the fuzzer down. */
#define FUZZ_MAX_INPUT (64 * 1024)

/* An invariant every parser promises; abort names it for the report. */
#define FUZZ_CHECK(cond)                                                      \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, \
              __LINE__);                                                      \
      abort();                                                                \
    }                                                                         \
  } while (0)

typedef void (*fuzz_fn)(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (cut at the first NUL, as a C
 * string from a header or the command line would be). */
static char *fuzz_str(const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    size = FUZZ_MAX_INPUT;
  return xstrndup((const char *)data, size);
}

/* Split s in place at '\n' into at most max pieces; return their number.
 * Every piece is NUL-terminated; a final '\r' is kept, as a server may
 * send it. */
static size_t fuzz_lines(char *s, char **out, size_t max)
{
  size_t n = 0;

  while (n < max) {
    char *nl = strchr(s, '\n');

    out[n++] = s;
    if (!nl)
      break;
    *nl = '\0';
    s = nl + 1;
  }
  return n;
}

/* A hop from a raw response head: an optional status line, then
 * "name: value" lines (lines without a colon are skipped, as libcurl's
 * header callback would pass them but the probe ignores them).  Lines
 * starting with "cname " add to the CNAME chain. */
static void fuzz_hop(char *s, struct hop *h)
{
  char *lines[512];
  size_t n = fuzz_lines(s, lines, 512), i;

  hop_init(h);
  hop_info_edit(h)->method = strpool_intern("GET");
  hop_info_edit(h)->status = 200;
  hop_info_edit(h)->host = strpool_intern("origin.test");
  hop_info_edit(h)->url = strpool_intern("https://origin.test/x");
  for (i = 0; i < n; i++) {
    char *l = lines[i], *colon;

    if (!strncmp(l, "HTTP/", 5)) {
      char *sp = strchr(l, ' ');

      if (sp)
        hop_info_edit(h)->status = (int32_t)strtol(sp + 1, NULL, 10);
      continue;
    }
    if (!strncmp(l, "method ", 7)) {
      hop_info_edit(h)->method = strpool_intern(l + 7);
      continue;
    }
    if (!strncmp(l, "cname ", 6)) {
      hop_strv_push(&hop_dns_edit(h)->cnames, &hop_dns_edit(h)->n_cnames,
                    l + 6);
      continue;
    }
    colon = strchr(l, ':');
    if (!colon)
      continue;
    *colon = '\0';
    colon++;
    while (*colon == ' ' || *colon == '\t')
      colon++;
    hop_add_header(h, l, colon);
  }
}

static void check_cache_result(const struct cache_result *r)
{
  size_t i;

  FUZZ_CHECK((int)r->verdict >= 0 && r->verdict < CACHE_VERDICT_COUNT);
  FUZZ_CHECK(r->n_reasons == 0 || r->reasons);
  for (i = 0; i < r->n_reasons; i++)
    FUZZ_CHECK(r->reasons[i] != NULL);
  /* The hop's verdict is its nearest cache layer's, or, when that one
   * forwarded the request, the verdict of the layer that served it (SPEC
   * 4.1). */
  FUZZ_CHECK(r->n_layers == 0 || r->layers);
  if (r->n_layers && r->layers[0].verdict != r->verdict) {
    int served = 0;

    FUZZ_CHECK(!cache_verdict_served_from_cache(r->layers[0].verdict));
    for (i = 1; i < r->n_layers; i++)
      served |= r->layers[i].verdict == r->verdict;
    FUZZ_CHECK(served && cache_verdict_served_from_cache(r->verdict));
  }
  for (i = 0; i < r->n_layers; i++) {
    size_t j;

    FUZZ_CHECK((int)r->layers[i].verdict >= 0 &&
               r->layers[i].verdict < CACHE_VERDICT_COUNT);
    for (j = 0; j < r->layers[i].n_reasons; j++)
      FUZZ_CHECK(r->layers[i].reasons[j] != NULL);
  }
}

/* Response-header classification: cache verdict and edge of a whole
 * header block, as the analysis runs them on every hop. */
static void fuzz_headers(const uint8_t *data, size_t size)
{
  char *s = fuzz_str(data, size);
  int auth = size > 0 ? (data[0] & 3) : 0; /* CACHE_REQ_AUTH, _COOKIE */
  struct hop h;
  struct cache_result r;
  struct edge_id id;
  struct edge_result er;
  struct edge_client cl;
  char *err = NULL;

  fuzz_hop(s, &h);
  /* Alt-Svc (RFC 7838) as the probe reads it from the hop's header. */
  hop_set_alt_svc(&h, hop_header(&h, "alt-svc"));
  FUZZ_CHECK(!h.info->alt_svc || strlen(h.info->alt_svc) < 32);
  FUZZ_CHECK(h.info->alt_svc ||
             (!h.info->alt_svc_port && h.info->alt_svc_ma == -1));
  FUZZ_CHECK(h.info->alt_svc_ma >= -1);
  cache_classify(h.info->headers, h.info->n_headers, auth, &r);
  check_cache_result(&r);
  cache_result_release(&r);
  cache_classify_hop(&h, auth, &r);
  check_cache_result(&r);
  cache_result_release(&r);
  edge_identify(h.info->headers, h.info->n_headers, h.dns->cnames,
                h.dns->n_cnames, &id);
  FUZZ_CHECK(memchr(id.pop, '\0', sizeof(id.pop)) != NULL);
  FUZZ_CHECK(memchr(id.upstream, '\0', sizeof(id.upstream)) != NULL);
  (void)edge_vendor_from_headers(h.info->headers, h.info->n_headers);
  (void)edge_wants_trace(&h);
  edge_client_init(&cl);
  if (edge_client_parse("KR", &cl, &err) < 0)
    free(err);
  edge_locate(&h, 1, NULL, &cl, 3.5, &er);
  edge_result_release(&er);
  hop_release(&h);
  /* Nothing else holds pooled strings: the pool does not grow from one
   * input to the next. */
  strpool_release_all();
  free(s);
}

/* RFC 9211 Cache-Status and Cache-Control values. */
static void fuzz_cache_status(const uint8_t *data, size_t size)
{
  char *s = fuzz_str(data, size);
  struct cache_status cs;
  struct cache_control cc;
  size_t i;

  memset(&cs, 0, sizeof(cs));
  if (cache_status_parse(s, &cs) < 0)
    FUZZ_CHECK(cs.n == 0);
  for (i = 0; i < cs.n; i++)
    FUZZ_CHECK(cs.m[i].id != NULL);
  cache_status_release(&cs);
  cache_control_parse(s, &cc);
  FUZZ_CHECK(cc.max_age >= -1 && cc.s_maxage >= -1);
  free(s);
}

/* Vendor and POP headers: each line of the input is the value of the
 * next header of a fixed list, so the fuzzer works on values rather than
 * on finding the names. */
static void fuzz_edge_id(const uint8_t *data, size_t size)
{
  static const char *const names[] = {"cf-ray",
                                      "server",
                                      "x-amz-cf-pop",
                                      "x-served-by",
                                      "x-vercel-id",
                                      "via",
                                      "server-timing",
                                      "x-cache",
                                      "cdn-requestcountrycode",
                                      "cdn-pullzone",
                                      "x-azure-ref",
                                      "x-msedge-ref",
                                      "akamai-cache-status",
                                      "x-akamai-request-id",
                                      "x-nf-request-id",
                                      "x-goog-hash",
                                      "eo-log-uuid",
                                      "x-bunny-edge"};
  char *s = fuzz_str(data, size);
  char *lines[32];
  size_t n = fuzz_lines(s, lines, 32), i, nh;
  struct header h[sizeof(names) / sizeof(names[0])];
  const char *cn[8];
  size_t ncn = 0;
  struct edge_id id;

  nh = n < sizeof(names) / sizeof(names[0]) ? n
                                            : sizeof(names) / sizeof(names[0]);
  for (i = 0; i < nh; i++) {
    h[i].name = (char *)(uintptr_t)names[i];
    h[i].value = lines[i];
  }
  for (i = nh; i < n && ncn < 8; i++)
    cn[ncn++] = lines[i];
  edge_identify(h, nh, cn, ncn, &id);
  FUZZ_CHECK(memchr(id.pop, '\0', sizeof(id.pop)) != NULL);
  FUZZ_CHECK(memchr(id.upstream, '\0', sizeof(id.upstream)) != NULL);
  (void)edge_vendor_from_cnames(cn, ncn);
  (void)edge_pop_lookup(lines[0]);
  (void)edge_country_lookup(lines[0]);
  free(s);
}

/* A /cdn-cgi/trace body (raw bytes, not NUL-terminated), and the client
 * location derived from it. */
static void fuzz_trace(const uint8_t *data, size_t size)
{
  struct edge_trace t;
  struct edge_client opt, out;
  char *copy = xmalloc(size ? size : 1);
  char *err = NULL;
  int rc;

  /* An exact-size copy, so ASan sees a read past the end. */
  memcpy(copy, data, size);
  edge_trace_init(&t);
  rc = edge_trace_parse(copy, size, &t);
  if (rc < 0)
    FUZZ_CHECK(t.colo == NULL && t.loc == NULL);
  else
    FUZZ_CHECK(t.colo != NULL);
  (void)edge_trace_hides_client(&t);
  edge_client_init(&opt);
  edge_client_resolve(&opt, &t, &out);
  edge_trace_release(&t);
  free(copy);
  /* The same bytes as --client-location. */
  {
    char *s = fuzz_str(data, size);

    if (edge_client_parse(s, &opt, &err) == 0) {
      FUZZ_CHECK(isnan(opt.lat) || (opt.lat >= -90 && opt.lat <= 90));
      FUZZ_CHECK(isnan(opt.lon) || (opt.lon >= -180 && opt.lon <= 180));
    }
    free(err);
    free(s);
  }
}

/* What the walk does with any resolved URL. */
static void fuzz_use_url(const char *url)
{
  struct url u;
  char err[256];
  char *o, *r;

  if (url_parse(&u, url, err, sizeof(err)) == 0) {
    FUZZ_CHECK(u.scheme && u.host && u.path);
    FUZZ_CHECK(u.port == -1 || (u.port >= 1 && u.port <= 65535));
  }
  url_release(&u);
  o = url_origin(url);
  free(o);
  r = url_redact(url);
  FUZZ_CHECK(r != NULL);
  free(r);
  (void)url_scheme_allowed(url);
  (void)url_same_origin(url, "https://origin.test/");
}

/* Location resolution against a fixed base, as the redirect walk does. */
static void fuzz_url_resolve(const uint8_t *data, size_t size)
{
  char *s = fuzz_str(data, size);
  char err[256];
  char *next;

  next = url_resolve("https://user:pw@origin.test:8443/a/b/c?token=x#f", s,
                     err, sizeof(err));
  if (next) {
    FUZZ_CHECK(strlen(next) <= URL_MAX_LEN);
    fuzz_use_url(next);
    free(next);
  }
  next = url_resolve("http://[::1]/", s, err, sizeof(err));
  free(next);
  free(s);
}

/* url_parse and the helpers that take a URL from the command line; the
 * first line may also serve as a base for the second. */
static void fuzz_url_parse(const uint8_t *data, size_t size)
{
  char *s = fuzz_str(data, size);
  char *lines[2];
  char *n, *r;
  char err[256];

  fuzz_use_url(s);
  n = url_normalize_arg(s);
  fuzz_use_url(n);
  free(n);
  if (fuzz_lines(s, lines, 2) == 2) {
    r = url_resolve(lines[0], lines[1], err, sizeof(err));
    if (r)
      fuzz_use_url(r);
    free(r);
  }
  free(s);
}

/* Durations and counts (-m, --connect-timeout, --pause, -n). */
static void fuzz_duration(const uint8_t *data, size_t size)
{
  char *s = fuzz_str(data, size);
  char err[256], out[UNITS_FMT_SIZE];
  int64_t us = -1;
  long v = -1;

  if (units_parse_duration(s, &us, err, sizeof(err)) == 0) {
    FUZZ_CHECK(us >= 0);
    units_format_us(us, out, sizeof(out));
    units_format_us(-us, out, sizeof(out));
    units_format_bytes(us, out, sizeof(out));
    units_rfc3339_ms(us, out, sizeof(out));
  }
  if (units_parse_uint(s, 0, 1000000, &v, err, sizeof(err)) == 0)
    FUZZ_CHECK(v >= 0 && v <= 1000000);
  free(s);
}

/* A Server-Timing value (transport_server_timing_us): a duration it finds
 * is never negative.  The same bytes as a body's arrivals (two bytes of
 * gap in 10 us steps, two of size each): grouped into rounds, the rounds'
 * bytes add up to the arrivals', their starts never go back, and the time
 * of any prefix of the body is within the rounds. */
static void fuzz_server_timing(const uint8_t *data, size_t size)
{
  static struct tcp_arrivals t;
  struct hop_round r[HOP_ROUNDS_MAX];
  char *s = fuzz_str(data, size);
  int64_t st = transport_server_timing_us(s), now = 1000000, sum = 0, got;
  size_t i, n, kept;

  FUZZ_CHECK(st >= -1);
  free(s);
  tcp_arrivals_init(&t, 1 + (size ? data[0] : 0));
  for (i = 1; i + 4 <= size; i += 4) {
    int64_t b = (int64_t)(data[i + 2] << 8 | data[i + 3]);

    now += (int64_t)(data[i] << 8 | data[i + 1]) * 10;
    tcp_arrivals_add(&t, now, b);
    sum += b;
  }
  FUZZ_CHECK(t.n <= TCP_ARRIVALS_MAX);
  n = tcp_rounds_group(t.a, t.n, 1000000, 1 + (size > 1 ? data[1] : 0) * 1000,
                       r, HOP_ROUNDS_MAX);
  kept = n < HOP_ROUNDS_MAX ? n : HOP_ROUNDS_MAX;
  for (i = 0, got = 0; i < kept; i++) {
    FUZZ_CHECK(r[i].bytes >= 0 && r[i].us >= 0);
    FUZZ_CHECK(!i || r[i].start_us >= r[i - 1].start_us);
    got += r[i].bytes;
  }
  FUZZ_CHECK(!t.n || got == sum);
  if (kept && sum > 0) {
    int64_t at = tcp_rounds_time_for(r, kept, sum / 2 + 1);

    FUZZ_CHECK(at >= 0 && at <= r[kept - 1].start_us + r[kept - 1].us);
  }
}

/* A --project value (netprofile_parse_list): what it accepts is in range,
 * and the recorded form of each network reads back to the same figures. */
static void fuzz_netprofile(const uint8_t *data, size_t size)
{
  char *s = fuzz_str(data, size);
  char err[256], back[256];
  struct net_profile nets[NETPROFILES_MAX], again[NETPROFILES_MAX];
  size_t n = 0, m = 0, i;

  if (netprofile_parse_list(s, nets, &n, err, sizeof(err)) == 0) {
    FUZZ_CHECK(n >= 1 && n <= NETPROFILES_MAX);
    for (i = 0; i < n; i++) {
      FUZZ_CHECK(nets[i].rtt_us >= 0 && nets[i].rtt_us <= 10000000);
      FUZZ_CHECK(nets[i].down_bps >= 1000 && nets[i].up_bps >= 1000);
      FUZZ_CHECK(nets[i].loss_ppm >= 0 && nets[i].loss_ppm <= 500000);
      FUZZ_CHECK(nets[i].name[0] != '\0');
      netprofile_format(&nets[i], back, sizeof(back));
      FUZZ_CHECK(netprofile_parse_list(back, again, &m, err, sizeof(err)) ==
                 0);
      FUZZ_CHECK(m == 1 && again[0].rtt_us == nets[i].rtt_us &&
                 again[0].down_bps == nets[i].down_bps &&
                 again[0].up_bps == nets[i].up_bps &&
                 again[0].loss_ppm == nets[i].loss_ppm &&
                 !strcmp(again[0].name, nets[i].name));
    }
  }
  else {
    FUZZ_CHECK(err[0] != '\0');
  }
  free(s);
}

/* Option values through the one setter: the first byte picks the option
 * (--resolve and --dns-server mostly), the rest is the value; then the
 * same value again as an override, and the options are copied. */
static void fuzz_options(const uint8_t *data, size_t size)
{
  static const enum opt_id ids[] = {
      OPT_RESOLVE, OPT_DNS_SERVER,      OPT_RESOLVE,         OPT_DNS_SERVER,
      OPT_HEADER,  OPT_CLIENT_LOCATION, OPT_CONNECT_TIMEOUT, OPT_MAX_TIME,
      OPT_MODE,    OPT_OUTPUT,          OPT_ROUNDS,          OPT_SEED};
  struct options o, c;
  const struct opt_def *d = NULL;
  char *s;
  char err[512];
  size_t i;

  if (size < 1)
    return;
  for (i = 0; i < OPT_COUNT; i++)
    if (options_table[i].id == ids[data[0] % (sizeof(ids) / sizeof(ids[0]))])
      d = &options_table[i];
  FUZZ_CHECK(d != NULL);
  s = fuzz_str(data + 1, size - 1);
  options_init(&o);
  (void)options_set(&o, d, s, err, sizeof(err));
  (void)options_override(&o, d, s, err, sizeof(err));
  (void)options_finish(&o, NULL, err, sizeof(err));
  options_copy(&c, &o);
  options_release(&c);
  options_release(&o);
  free(s);
}

/* The YAML profile loader, from a buffer. */
static void fuzz_profile(const uint8_t *data, size_t size)
{
  struct profile p;
  size_t i;

  if (size > FUZZ_MAX_INPUT)
    size = FUZZ_MAX_INPUT;
  profile_init(&p);
  if (profile_load_buf(&p, "fuzz.yaml", (const char *)data, size, NULL) < 0)
    FUZZ_CHECK(p.n_errors > 0);
  for (i = 0; i < p.n_errors; i++)
    FUZZ_CHECK(p.errors[i] != NULL);
  profile_release(&p);
}

/* The JSON writer's string escaping: any bytes a server sends must give
 * valid JSON (json.h), i.e. valid UTF-8 without raw control characters. */
static void fuzz_json(const uint8_t *data, size_t size)
{
  char *s = fuzz_str(data, size);
  struct buf b;
  const unsigned char *p;

  buf_init(&b, 0);
  json_quote(&b, s);
  FUZZ_CHECK(b.len >= 2 && b.s[0] == '"' && b.s[b.len - 1] == '"');
  for (p = (const unsigned char *)b.s; *p; p++) {
    unsigned c = *p;
    int more;

    FUZZ_CHECK(c >= 0x20);
    if (c < 0x80)
      continue;
    FUZZ_CHECK(c >= 0xc2 && c <= 0xf4);
    more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
    while (more--) {
      p++;
      FUZZ_CHECK((*p & 0xc0) == 0x80);
    }
  }
  buf_release(&b);
  free(s);
}

/* A saved hopsplit/1 document as "hopsplit report" reads it: the reader,
 * the analysis built again, the checks evaluated again and every
 * renderer, with and without colour (issue 16). */
static void report_of(const uint8_t *data, size_t size, const char *name)
{
  struct report_saved saved;
  struct analysis a;
  struct report_ctx c;
  int verbosity = msg_verbosity, f;

  if (size > FUZZ_MAX_INPUT)
    size = FUZZ_MAX_INPUT;
  msg_verbosity = -1;
  if (report_read(&saved, (const char *)data, size, name) < 0) {
    msg_verbosity = verbosity;
    strpool_release_all();
    return;
  }
  analysis_build(&a, &saved.plan, &saved.results);
  if (saved.has_checks)
    check_evaluate(&saved.checks, &saved.plan, &a);
  memset(&c, 0, sizeof(c));
  c.plan = &saved.plan;
  c.results = &saved.results;
  c.analysis = &a;
  c.libraries = saved.libraries;
  for (f = 0; f < FORMAT_COUNT; f++) {
    struct buf b;

    buf_init(&b, 0);
    c.color = f == FORMAT_TEXT && (size & 1);
    report_render(&c, (enum report_format)f, &b);
    FUZZ_CHECK(b.len > 0);
    buf_release(&b);
  }
  analysis_release(&a);
  report_saved_release(&saved);
  strpool_release_all();
  msg_verbosity = verbosity;
}

static void fuzz_report(const uint8_t *data, size_t size)
{
  report_of(data, size, "fuzz.json");
}

/* NDJSON as "hopsplit report" reads it (sample lines, a summary, a cut
 * last line, issue 38): the input follows the '{"type":"' every line of
 * hopsplit's NDJSON begins with, so the NDJSON reader always runs. */
static void fuzz_ndjson(const uint8_t *data, size_t size)
{
  static const char lead[] = "{\"type\":\"";
  uint8_t *b;

  if (size > FUZZ_MAX_INPUT)
    size = FUZZ_MAX_INPUT;
  b = malloc(sizeof(lead) - 1 + size);
  if (!b)
    return;
  memcpy(b, lead, sizeof(lead) - 1);
  if (size)
    memcpy(b + sizeof(lead) - 1, data, size);
  report_of(b, sizeof(lead) - 1 + size, "fuzz.ndjson");
  free(b);
}

/* A response body searched as it streams (probe_bodyre.c): the first
 * byte picks the chunk size, the rest is the body.  Every pattern here
 * matches at most a few bytes, so fed in chunks the body must give the
 * same answer as fed whole (matches span chunks; the window is 64 KiB). */
static void fuzz_body_scan(const uint8_t *data, size_t size)
{
  static const char *const pat[] = {
      "hopsplit", "^<html",     "(?i)error",         "a[^a]{0,8}b",
      "(?m)^x$",  "\\bword\\b", "\xc3\xa9t\xc3\xa9", "\\d{3}-\\d{4}",
      "\\Aab",    "z\\z"};
  static struct body_regexps *re;
  struct body_scan *whole, *parts;
  size_t step, at;
  uint32_t a, b;

  if (!re) {
    size_t bad;
    char err[256];

    re = probe_body_regexps_new(pat, sizeof(pat) / sizeof(pat[0]), &bad, err,
                                sizeof(err));
    FUZZ_CHECK(re != NULL);
  }
  if (!size)
    return;
  step = (size_t)(data[0] % 17) + 1;
  data++;
  size--;
  whole = probe_body_scan_new(re);
  parts = probe_body_scan_new(re);
  FUZZ_CHECK(whole && parts);
  probe_body_scan_feed(whole, (const char *)data, size);
  for (at = 0; at < size; at += step)
    probe_body_scan_feed(parts, (const char *)data + at,
                         size - at < step ? size - at : step);
  a = probe_body_scan_end(whole);
  b = probe_body_scan_end(parts);
  FUZZ_CHECK(a < (1u << (sizeof(pat) / sizeof(pat[0]))));
  FUZZ_CHECK(a == b);
  probe_body_scan_free(whole);
  probe_body_scan_free(parts);
}

/* blackbox_exporter's module file as "hopsplit serve --config FILE" reads
 * it: blackbox_is_file, then blackbox_load over the default options.  The
 * loader takes a path, so the bytes go to one unlinked temporary file,
 * rewritten for each input and read back through /proc/self/fd. */
static void fuzz_blackbox(const uint8_t *data, size_t size)
{
  static int fd = -1;
  static char path[64];
  struct options base;
  struct blackbox_module *mods = NULL;
  size_t n = 0, i, k;
  int is, rc;

  if (size > FUZZ_MAX_INPUT)
    size = FUZZ_MAX_INPUT;
  if (fd < 0) {
    char tmpl[] = "/tmp/hopsplit-fuzz-blackbox-XXXXXX";

    fd = mkstemp(tmpl);
    FUZZ_CHECK(fd >= 0);
    unlink(tmpl);
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  }
  FUZZ_CHECK(ftruncate(fd, 0) == 0);
  FUZZ_CHECK(pwrite(fd, data, size, 0) == (ssize_t)size);
  is = blackbox_is_file(path);
  FUZZ_CHECK(is == 0 || is == 1);
  options_init(&base);
  rc = blackbox_load(path, &base, &mods, &n);
  if (rc < 0)
    FUZZ_CHECK(mods == NULL && n == 0);
  for (i = 0; rc == 0 && i < n; i++) {
    const struct blackbox_module *m = &mods[i];

    FUZZ_CHECK(m->name != NULL);
    FUZZ_CHECK(m->n_status <= BLACKBOX_STATUS_MAX);
    for (k = 0; k < m->n_status; k++)
      FUZZ_CHECK(m->status_lo[k] >= 100 && m->status_hi[k] <= 599 &&
                 m->status_lo[k] <= m->status_hi[k]);
    FUZZ_CHECK(m->versions < 1u << BB_HTTP_COUNT);
    FUZZ_CHECK(m->timeout_us >= 0 && m->opts.body_limit >= 0);
    for (k = 0; k < m->n_headers; k++)
      FUZZ_CHECK(m->headers[k].header && m->headers[k].regexp &&
                 m->headers[k].line >= 1 && m->headers[k].col >= 1);
    for (k = 0; k < m->n_bodies; k++)
      FUZZ_CHECK(m->bodies[k].regexp && m->bodies[k].line >= 1);
  }
  blackbox_modules_free(mods, n);
  options_release(&base);
}

struct fuzz_target {
  const char *name;
  fuzz_fn fn;
};

/* Every target; the names are the directories of tests/fuzz/corpus and
 * the prefixes of the files in tests/fuzz/regress. */
static const struct fuzz_target fuzz_targets[] = {
    {"headers", fuzz_headers},         {"cache_status", fuzz_cache_status},
    {"edge_id", fuzz_edge_id},         {"trace", fuzz_trace},
    {"url_resolve", fuzz_url_resolve}, {"url_parse", fuzz_url_parse},
    {"duration", fuzz_duration},       {"options", fuzz_options},
    {"profile", fuzz_profile},         {"json", fuzz_json},
    {"report", fuzz_report},           {"body_scan", fuzz_body_scan},
    {"blackbox", fuzz_blackbox},       {"netprofile", fuzz_netprofile},
    {"ndjson", fuzz_ndjson},           {"server_timing", fuzz_server_timing},
};
