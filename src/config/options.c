/*
 * options.c: the one option table and the one setter shared by the command
 * line and profiles.  Input: option name and value text.  Output: fields
 * of struct options, validated; errors come back as text for the caller
 * to prefix with where the option was given.
 */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "msg.h"
#include "option_table.h"
#include "options.h"
#include "units.h"
#include "url.h"
#include "strutil.h"
#include "xalloc.h"
#include "banned.h"

/* Sorted by name: options_find uses bsearch, and a unit test checks it. */
const struct opt_def options_table[OPT_COUNT] = {
    {"baseline", 0, OPT_ARG_REQUIRED, OPT_BASELINE, "NAME",
     "the target others are compared with (default first)", OPT_IN_MEASURING},
    {"brief", 0, OPT_ARG_NONE, OPT_BRIEF, NULL,
     "text report: one line per target and mode, failure reasons, "
     "verdicts, findings",
     OPT_IN_ALL},
    {"cacert", 0, OPT_ARG_REQUIRED, OPT_CACERT, "FILE",
     "CA certificates to verify peers with", OPT_IN_MEASURING},
    {"capath", 0, OPT_ARG_REQUIRED, OPT_CAPATH, "DIR",
     "directory of CA certificates", OPT_IN_MEASURING},
    {"cert", 'E', OPT_ARG_REQUIRED, OPT_CERT, "FILE",
     "client certificate (PEM), as curl's", OPT_IN_MEASURING},
    {"client-location", 0, OPT_ARG_REQUIRED, OPT_CLIENT_LOCATION, "CC|LAT,LON",
     "where the client is, for edge distance", OPT_IN_MEASURING},
    {"color", 0, OPT_ARG_REQUIRED, OPT_COLOR, "auto|always|never",
     "colour in text output (NO_COLOR is honoured)", OPT_IN_ALL},
    {"compare", 0, OPT_ARG_REQUIRED, OPT_COMPARE, "all",
     "also compare every pair of targets", OPT_IN_MEASURING},
    {"compressed", 0, OPT_ARG_NONE, OPT_COMPRESSED, NULL,
     "ask for and decode compressed bodies", OPT_IN_MEASURING},
    {"config", 0, OPT_ARG_REQUIRED, OPT_CONFIG, "PROFILE.yaml",
     "modules: the profile's targets and \"defaults\" (or "
     "blackbox_exporter's modules file)",
     OPT_IN(OPT_CMD_SERVE)},
    {"connect-timeout", 0, OPT_ARG_REQUIRED, OPT_CONNECT_TIMEOUT, "DURATION",
     "limit per connection (default 10s)", OPT_IN_MEASURING},
    {"data", 'd', OPT_ARG_REQUIRED, OPT_DATA, "DATA|@FILE",
     "request body as curl's -d (POST unless -X); repeatable",
     OPT_IN_MEASURING},
    {"data-binary", 0, OPT_ARG_REQUIRED, OPT_DATA_BINARY, "DATA|@FILE",
     "request body, @FILE sent byte for byte", OPT_IN_MEASURING},
    {"data-raw", 0, OPT_ARG_REQUIRED, OPT_DATA_RAW, "DATA",
     "request body, '@' not special", OPT_IN_MEASURING},
    {"dns-server", 0, OPT_ARG_REQUIRED, OPT_DNS_SERVER, "ADDR[:PORT][,...]",
     "resolvers for c-ares (IPv6 as [addr]:port)", OPT_IN_MEASURING},
    {"dry-run", 0, OPT_ARG_NONE, OPT_DRY_RUN, NULL,
     "print the plan and measure nothing", OPT_IN_MEASURING},
    {"dump-header", 'D', OPT_ARG_REQUIRED, OPT_DUMP_HEADER, "FILE",
     "response headers of one sample per target into FILE, as curl's",
     OPT_IN_MEASURING},
    {"fail", 'f', OPT_ARG_NONE, OPT_FAIL, NULL,
     "a final status >= 400 fails the sample (class http-status)",
     OPT_IN_MEASURING},
    {"format", 0, OPT_ARG_REQUIRED, OPT_FORMAT,
     "text|json|ndjson|csv|har|html|prom|junit",
     "what goes to stdout (default text)", OPT_IN_ALL},
    {"head", 'I', OPT_ARG_NONE, OPT_HEAD, NULL, "send HEAD requests",
     OPT_IN_MEASURING},
    {"header", 'H', OPT_ARG_REQUIRED, OPT_HEADER, "\"NAME: VALUE\"",
     "extra request header, repeatable", OPT_IN_MEASURING},
    {"help", 'h', OPT_ARG_NONE, OPT_HELP, NULL, "show this help", OPT_IN_ALL},
    {"http1.1", 0, OPT_ARG_NONE, OPT_HTTP1_1, NULL, "use HTTP/1.1 only",
     OPT_IN_MEASURING},
    {"http2", 0, OPT_ARG_NONE, OPT_HTTP2, NULL,
     "use HTTP/2 (h2 over TLS, h2c upgrade over http)", OPT_IN_MEASURING},
    {"http3", 0, OPT_ARG_NONE, OPT_HTTP3, NULL,
     "try HTTP/3 over QUIC, fall back to TCP as curl (recorded per hop)",
     OPT_IN_MEASURING},
    {"http3-only", 0, OPT_ARG_NONE, OPT_HTTP3_ONLY, NULL,
     "HTTP/3 over QUIC only: no fallback (failure class quic)",
     OPT_IN_MEASURING},
    {"include", 'i', OPT_ARG_NONE, OPT_INCLUDE, NULL,
     "response headers of one sample per target first on stdout, as curl",
     OPT_IN_MEASURING},
    {"insecure", 'k', OPT_ARG_NONE, OPT_INSECURE, NULL,
     "do not verify TLS certificates (shown in reports)", OPT_IN_MEASURING},
    {"ipv4", '4', OPT_ARG_NONE, OPT_IPV4, NULL, "use IPv4 addresses only",
     OPT_IN_MEASURING},
    {"ipv6", '6', OPT_ARG_NONE, OPT_IPV6, NULL, "use IPv6 addresses only",
     OPT_IN_MEASURING},
    {"json", 0, OPT_ARG_REQUIRED, OPT_JSON, "DATA|@FILE",
     "JSON request body, as curl's --json (sets Content-Type, Accept)",
     OPT_IN_MEASURING},
    {"keep-interfered", 0, OPT_ARG_NONE, OPT_KEEP_INTERFERED, NULL,
     "keep samples measured on a busy loop in the statistics",
     OPT_IN_MEASURING},
    {"key", 0, OPT_ARG_REQUIRED, OPT_KEY, "FILE",
     "private key of --cert (PEM), as curl's", OPT_IN_MEASURING},
    {"listen", 0, OPT_ARG_REQUIRED, OPT_LISTEN, "ADDR:PORT",
     "where to listen (default 127.0.0.1:9116)", OPT_IN(OPT_CMD_SERVE)},
    {"location", 'L', OPT_ARG_NONE, OPT_LOCATION, NULL,
     "follow redirects (the default; accepted as curl users type it)",
     OPT_IN_MEASURING},
    {"location-trusted", 0, OPT_ARG_NONE, OPT_LOCATION_TRUSTED, NULL,
     "keep Authorization/Cookie on cross-origin redirects", OPT_IN_MEASURING},
    {"max-concurrent", 0, OPT_ARG_REQUIRED, OPT_MAX_CONCURRENT, "N",
     "probes measured at once (default 10000, or a quarter of the "
     "open-file limit)",
     OPT_IN(OPT_CMD_SERVE)},
    {"max-redirs", 0, OPT_ARG_REQUIRED, OPT_MAX_REDIRS, "N",
     "redirects to follow hop by hop (default 10)", OPT_IN_MEASURING},
    {"max-time", 'm', OPT_ARG_REQUIRED, OPT_MAX_TIME, "DURATION",
     "limit per hop (default 30s)", OPT_IN_MEASURING},
    {"mode", 0, OPT_ARG_REQUIRED, OPT_MODE, "LIST",
     "comma list of cold, warm, resumed (default cold,warm)",
     OPT_IN_MEASURING},
    {"no-follow", 0, OPT_ARG_NONE, OPT_NO_FOLLOW, NULL,
     "do not follow redirects", OPT_IN_MEASURING},
    {"order", 0, OPT_ARG_REQUIRED, OPT_ORDER, "rotate|shuffle|fixed",
     "order of samples inside a round (default rotate)", OPT_IN_MEASURING},
    {"output", 'o', OPT_ARG_REQUIRED, OPT_OUTPUT, "FILE",
     "also write FILE, format from its extension (.json .ndjson .csv "
     ".summary.csv .har .html .prom .junit.xml .txt; another needs "
     "--format); "
     "repeatable",
     OPT_IN_ALL},
    {"parallel", 0, OPT_ARG_REQUIRED, OPT_PARALLEL, "N",
     "batches: up to N targets measured at once (default 1)",
     OPT_IN_MEASURING},
    {"pause", 0, OPT_ARG_REQUIRED, OPT_PAUSE, "DURATION",
     "sleep between samples (default 0)", OPT_IN_MEASURING},
    {"payload-size", 0, OPT_ARG_REQUIRED, OPT_PAYLOAD_SIZE, "SIZE",
     "the body size the payload finding prices on each connection "
     "(20KB, 1.5MiB; default: what arrives in the first round)",
     OPT_IN_ALL},
    {"post301", 0, OPT_ARG_NONE, OPT_POST301, NULL,
     "keep POST and its body after a 301, as curl", OPT_IN_MEASURING},
    {"post302", 0, OPT_ARG_NONE, OPT_POST302, NULL,
     "keep POST and its body after a 302, as curl", OPT_IN_MEASURING},
    {"post303", 0, OPT_ARG_NONE, OPT_POST303, NULL,
     "keep POST and its body after a 303, as curl", OPT_IN_MEASURING},
    {"prime", 0, OPT_ARG_REQUIRED, OPT_PRIME, "[NAME=]URL",
     "fetch URL unmeasured before each sample; repeatable", OPT_IN_MEASURING},
    {"progress", 0, OPT_ARG_REQUIRED, OPT_PROGRESS, "auto|always|never",
     "progress on stderr (default auto: only on a TTY)", OPT_IN_MEASURING},
    {"project", 0, OPT_ARG_REQUIRED, OPT_PROJECT, "PROFILE[,PROFILE...]",
     "also project each target onto these networks: slow-4g, fast-4g, 3g, "
     "slow-3g or rtt=150ms,down=1.6Mbit,up=750kbit[,loss=1%]",
     OPT_IN_ALL},
    {"protocols", 0, OPT_ARG_REQUIRED, OPT_PROTOCOLS, "LIST",
     "comma list of h1, h2, h3: each URL measured over each, as targets "
     "compared in paired rounds (first: baseline)",
     OPT_IN_MEASURING},
    {"quiet", 'q', OPT_ARG_NONE, OPT_QUIET, NULL, "less on stderr",
     OPT_IN_ALL},
    {"request", 'X', OPT_ARG_REQUIRED, OPT_REQUEST, "METHOD",
     "request method (default GET); unsafe ones are sent once unless -n",
     OPT_IN_MEASURING},
    {"resolve", 0, OPT_ARG_REQUIRED, OPT_RESOLVE, "HOST:PORT:ADDR[,ADDR]",
     "pin addresses for HOST:PORT, skipping DNS; repeatable",
     OPT_IN_MEASURING},
    {"rounds", 'n', OPT_ARG_REQUIRED, OPT_ROUNDS, "N",
     "rounds; each measures every target in every mode (default 10)",
     OPT_IN_MEASURING},
    {"seed", 0, OPT_ARG_REQUIRED, OPT_SEED, "N",
     "seed for shuffle (default time-based, printed)", OPT_IN_MEASURING},
    {"show-error", 'S', OPT_ARG_NONE, OPT_SHOW_ERROR, NULL,
     "with -s, still show errors", OPT_IN_MEASURING},
    {"show-secrets", 0, OPT_ARG_NONE, OPT_SHOW_SECRETS, NULL,
     "do not redact credentials in outputs", OPT_IN_MEASURING},
    {"silent", 's', OPT_ARG_NONE, OPT_SILENT, NULL, "as --quiet (curl's name)",
     OPT_IN_MEASURING},
    {"timeout-offset", 0, OPT_ARG_REQUIRED, OPT_TIMEOUT_OFFSET, "SECONDS",
     "less than the scrape timeout (default 0.5)", OPT_IN(OPT_CMD_SERVE)},
    {"trace", 0, OPT_ARG_REQUIRED, OPT_TRACE, "auto|always|never",
     "fetch /cdn-cgi/trace of Cloudflare-fronted hosts (default auto)",
     OPT_IN_MEASURING},
    {"upload-file", 'T', OPT_ARG_REQUIRED, OPT_UPLOAD_FILE, "FILE",
     "upload FILE with PUT, streamed from the file by every sample",
     OPT_IN_MEASURING},
    {"user-agent", 'A', OPT_ARG_REQUIRED, OPT_USER_AGENT, "STRING",
     "User-Agent (default hopsplit/VERSION)", OPT_IN_MEASURING},
    {"vantage", 0, OPT_ARG_REQUIRED, OPT_VANTAGE, "NAME",
     "where this runs, recorded in every output (default: host name)",
     OPT_IN_MEASURING},
    {"verbose", 'v', OPT_ARG_NONE, OPT_VERBOSE, NULL, "more on stderr",
     OPT_IN_ALL},
    {"version", 'V', OPT_ARG_NONE, OPT_VERSION, NULL,
     "show versions of hopsplit and its libraries", OPT_IN_MEASURING},
    {"write-out", 'w', OPT_ARG_REQUIRED, OPT_WRITE_OUT, "FORMAT",
     "print FORMAT (curl's %{variable} names) once per sample",
     OPT_IN_MEASURING},
};

static const char *const tristate_names[TRI_COUNT] = {"auto", "always",
                                                      "never"};

static int cmp_opt(const void *key, const void *elem)
{
  return strcmp((const char *)key, ((const struct opt_def *)elem)->name);
}

const struct opt_def *options_find(const char *name)
{
  return bsearch(name, options_table, OPT_COUNT, sizeof(options_table[0]),
                 cmp_opt);
}

const struct opt_def *options_find_short(char c)
{
  size_t i;

  for (i = 0; i < OPT_COUNT; i++)
    if (c && options_table[i].short_name == c)
      return &options_table[i];
  return NULL;
}

const struct opt_def *options_find_for(const char *name, enum opt_cmd cmd)
{
  const struct opt_def *d = options_find(name);

  return d && (d->cmds & OPT_IN(cmd)) ? d : NULL;
}

const char *options_suggest(const char *name, enum opt_cmd cmd)
{
  size_t i, best = (size_t)-1;
  const char *hit = NULL;

  for (i = 0; i < OPT_COUNT; i++) {
    size_t d;

    if (!(options_table[i].cmds & OPT_IN(cmd)))
      continue;
    d = str_edit_distance(name, options_table[i].name);

    if (d < best) {
      best = d;
      hit = options_table[i].name;
    }
  }
  return best <= 2 ? hit : NULL;
}

static int is_ip_literal(const char *s)
{
  unsigned char tmp[16];

  return inet_pton(AF_INET, s, tmp) == 1 || inet_pton(AF_INET6, s, tmp) == 1;
}

static int pick(const char *val, const char *const *names, int count,
                char *err, size_t errlen)
{
  int i;

  for (i = 0; i < count; i++)
    if (!strcmp(val, names[i]))
      return i;
  snprintf(err, errlen, "unknown value '%s' (expected %s", val, names[0]);
  for (i = 1; i < count; i++) {
    size_t l = strlen(err);

    snprintf(err + l, errlen - l, "%s%s", i == count - 1 ? " or " : ", ",
             names[i]);
  }
  {
    size_t l = strlen(err);

    snprintf(err + l, errlen - l, ")");
  }
  return -1;
}

static int set_modes(struct options *o, const char *val, char *err,
                     size_t errlen)
{
  unsigned modes = 0;
  const char *p = val;

  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char word[32];
    enum sample_mode m;

    if (len == 0 || len >= sizeof(word)) {
      snprintf(err, errlen, "bad mode list '%s' (expected e.g. cold,warm)",
               val);
      return -1;
    }
    memcpy(word, p, len);
    word[len] = '\0';
    m = sample_mode_from_name(word);
    if (m == MODE_COUNT) {
      snprintf(err, errlen,
               "unknown mode '%s' (expected cold, warm or resumed)", word);
      return -1;
    }
    modes |= 1u << m;
    p += len;
    if (*p == ',')
      p++;
  }
  if (!modes) {
    snprintf(err, errlen, "empty mode list (expected e.g. cold,warm)");
    return -1;
  }
  o->modes = modes;
  return 0;
}

/* HOST:PORT:ADDR[,ADDR] as curl's --resolve; IPv6 as [addr]. */
static int check_resolve(const char *val, char *err, size_t errlen)
{
  const char *c1 = strchr(val, ':'), *c2, *a;
  long port;
  char portbuf[8];

  if (!c1 || c1 == val)
    goto bad;
  c2 = strchr(c1 + 1, ':');
  if (!c2 || (size_t)(c2 - c1 - 1) >= sizeof(portbuf) || c2 == c1 + 1)
    goto bad;
  memcpy(portbuf, c1 + 1, (size_t)(c2 - c1 - 1));
  portbuf[c2 - c1 - 1] = '\0';
  if (units_parse_uint(portbuf, 1, 65535, &port, err, errlen) < 0) {
    snprintf(err, errlen, "bad port '%s' in '%s'", portbuf, val);
    return -1;
  }
  a = c2 + 1;
  if (!*a)
    goto bad;
  while (*a) {
    const char *end = strchr(a, ',');
    size_t len = end ? (size_t)(end - a) : strlen(a);
    char addr[64];

    if (len == 0 || len >= sizeof(addr))
      goto bad;
    if (len > 2 && a[0] == '[' && a[len - 1] == ']') {
      memcpy(addr, a + 1, len - 2); /* [IPv6] as curl accepts it */
      addr[len - 2] = '\0';
    }
    else {
      memcpy(addr, a, len);
      addr[len] = '\0';
    }
    if (!is_ip_literal(addr)) {
      snprintf(err, errlen, "'%s' in '%s' is not an IP address", addr, val);
      return -1;
    }
    a += len;
    if (*a == ',')
      a++;
  }
  return 0;
bad:
  snprintf(err, errlen,
           "bad value '%s' (expected HOST:PORT:ADDR[,ADDR], e.g. "
           "example.com:443:192.0.2.1)",
           val);
  return -1;
}

/* ADDR[:PORT][,...] with IPv6 as [addr]:port or a bare IPv6 address. */
static int check_dns_servers(const char *val, char *err, size_t errlen)
{
  const char *p = val;

  if (!*p)
    goto bad;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[80], host[64];
    const char *port = NULL;

    if (len == 0 || len >= sizeof(item))
      goto bad;
    memcpy(item, p, len);
    item[len] = '\0';
    if (item[0] == '[') {
      char *rb = strchr(item, ']');

      if (!rb || (size_t)(rb - item - 1) >= sizeof(host))
        goto bad;
      memcpy(host, item + 1, (size_t)(rb - item - 1));
      host[rb - item - 1] = '\0';
      if (rb[1] == ':')
        port = rb + 2;
      else if (rb[1])
        goto bad;
    }
    else {
      char *colon = strchr(item, ':');

      if (colon && strchr(colon + 1, ':'))
        colon = NULL; /* bare IPv6 address without port */
      if (colon) {
        *colon = '\0';
        port = colon + 1;
      }
      if (strlen(item) >= sizeof(host))
        goto bad;
      memcpy(host, item, strlen(item) + 1);
    }
    if (!is_ip_literal(host)) {
      snprintf(err, errlen, "'%s' in '%s' is not an IP address", host, val);
      return -1;
    }
    if (port) {
      long n;

      if (units_parse_uint(port, 1, 65535, &n, err, errlen) < 0) {
        snprintf(err, errlen, "bad port '%s' in '%s'", port, val);
        return -1;
      }
    }
    p += len;
    if (*p == ',')
      p++;
  }
  return 0;
bad:
  snprintf(err, errlen,
           "bad value '%s' (expected ADDR[:PORT][,...], IPv6 as "
           "[ADDR]:PORT)",
           val);
  return -1;
}

static int check_header(const char *val, char *err, size_t errlen)
{
  const char *colon = strchr(val, ':');
  const char *p;

  if (!colon || colon == val) {
    snprintf(err, errlen, "bad header '%s' (expected \"Name: value\")", val);
    return -1;
  }
  for (p = val; p < colon; p++) {
    if (*p <= ' ' || *p >= 127) {
      snprintf(err, errlen, "bad header name in '%s'", val);
      return -1;
    }
  }
  for (p = val; *p; p++) {
    if (*p == '\r' || *p == '\n') {
      snprintf(err, errlen, "header '%.*s' contains a line break",
               (int)(colon - val), val);
      return -1;
    }
  }
  return 0;
}

const char options_output_exts[] =
    ".json .ndjson .csv .summary.csv .har .html .prom .junit.xml .txt";

static int format_given(const struct options *o)
{
  size_t i;

  for (i = 0; i < o->n_given; i++)
    if (o->given[i].def->id == OPT_FORMAT)
      return 1;
  return 0;
}

int options_finish(struct options *o, size_t *bad, char *err, size_t errlen)
{
  size_t i;
  int given = format_given(o);

  for (i = 0; i < o->n_outputs; i++) {
    const char *path = o->outputs[i].path;
    const char *base = strrchr(path, '/');
    const char *dot;

    if (o->outputs[i].format != FORMAT_COUNT)
      continue;
    /* curl's "-o /dev/null" stores nothing either: the report of
     * --format goes nowhere, as a pasted curl command line expects. */
    if (given || !strcmp(path, "/dev/null")) {
      o->outputs[i].format = o->format;
      continue;
    }
    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    if (bad)
      *bad = i;
    snprintf(err, errlen,
             "'%s' has %s%.*s%s (%s); -o writes hopsplit's report, never "
             "the response body (bodies are counted, never stored): give "
             "the file a report's extension, or --format to write that "
             "report under this name",
             path, dot ? "the extension '" : "no extension of a report",
             dot ? 40 : 0, dot ? dot : "", dot ? "', not a report's" : "",
             options_output_exts);
    return -1;
  }
  return 0;
}

void options_ca_from_env(struct options *o)
{
  const char *v;

  if (o->cacert || o->capath || o->insecure)
    return;
  v = getenv("CURL_CA_BUNDLE");
  if (v && *v) {
    o->cacert = xstrdup(v);
    o->cacert_env = "CURL_CA_BUNDLE";
    return;
  }
  v = getenv("SSL_CERT_DIR");
  if (v && *v) {
    o->capath = xstrdup(v);
    o->capath_env = "SSL_CERT_DIR";
  }
  v = getenv("SSL_CERT_FILE");
  if (v && *v) {
    o->cacert = xstrdup(v);
    o->cacert_env = "SSL_CERT_FILE";
  }
}

enum report_format options_format_from_path(const char *path)
{
  const char *dot = strrchr(path, '.');
  size_t n = strlen(path);

  if (!dot || strchr(dot, '/'))
    return FORMAT_COUNT;
  if (n > 10 && !strcasecmp(path + n - 10, ".junit.xml"))
    return FORMAT_JUNIT;
  if (!strcasecmp(dot, ".json"))
    return FORMAT_JSON;
  if (!strcasecmp(dot, ".txt"))
    return FORMAT_TEXT;
  if (!strcasecmp(dot, ".ndjson"))
    return FORMAT_NDJSON;
  if (!strcasecmp(dot, ".csv"))
    return FORMAT_CSV;
  if (!strcasecmp(dot, ".har"))
    return FORMAT_HAR;
  if (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm"))
    return FORMAT_HTML;
  if (!strcasecmp(dot, ".prom"))
    return FORMAT_PROM;
  return FORMAT_COUNT;
}

/*
 * The setters, one per kind of option; set_value dispatches on the
 * option's id through setters[].  Each returns 0, or -1 with a message in
 * err.  A new option is a table entry, an id, and a case in the setter of
 * its kind.
 */
typedef int setter_fn(struct options *o, enum opt_id id, const char *val,
                      char *err, size_t errlen);

/* Flags: no value. */
static int set_flag(struct options *o, enum opt_id id, const char *val,
                    char *err, size_t errlen)
{
  (void)val;
  switch (id) {
  case OPT_BRIEF:
    o->brief = 1;
    break;
  case OPT_KEEP_INTERFERED:
    o->keep_interfered = 1;
    break;
  case OPT_COMPRESSED:
    o->compressed = 1;
    break;
  case OPT_DRY_RUN:
    o->dry_run = 1;
    break;
  case OPT_INCLUDE:
    o->include = 1;
    break;
  case OPT_FAIL:
    o->fail = 1;
    break;
  case OPT_HEAD:
    if (options_has_body(o)) {
      snprintf(err, errlen,
               "a HEAD request has no body: -I and -d/--json/-T exclude each "
               "other");
      return -1;
    }
    o->head = 1;
    break;
  case OPT_HELP:
    o->help = 1;
    break;
  case OPT_HTTP1_1:
    o->http = HTTP_PREF_1_1;
    break;
  case OPT_HTTP2:
    o->http = HTTP_PREF_2;
    break;
  case OPT_HTTP3:
    o->http = HTTP_PREF_3;
    break;
  case OPT_HTTP3_ONLY:
    o->http = HTTP_PREF_3_ONLY;
    break;
  case OPT_INSECURE:
    o->insecure = 1;
    break;
  case OPT_IPV4:
    o->ip_family = 4;
    break;
  case OPT_IPV6:
    o->ip_family = 6;
    break;
  case OPT_LOCATION:
    o->follow = 1;
    break;
  case OPT_LOCATION_TRUSTED:
    o->location_trusted = 1;
    break;
  case OPT_NO_FOLLOW:
    o->follow = 0;
    break;
  case OPT_POST301:
    o->post_keep |= 1u;
    break;
  case OPT_POST302:
    o->post_keep |= 2u;
    break;
  case OPT_POST303:
    o->post_keep |= 4u;
    break;
  case OPT_QUIET:
  case OPT_SILENT:
    o->verbosity = -1;
    break;
  case OPT_SHOW_ERROR:
    o->show_error = 1;
    break;
  case OPT_SHOW_SECRETS:
    o->show_secrets = 1;
    break;
  case OPT_VERBOSE:
    o->verbosity = o->verbosity < 0 ? 1 : o->verbosity + 1;
    break;
  case OPT_VERSION:
    o->version = 1;
    break;
  default:
    BUG("option id %d is not a flag", (int)id);
  }
  return 0;
}

/* Bodies held in memory (-d, --data-raw, --json, several pieces joined)
 * larger than this are refused, as curl refuses to read a file of more
 * than 1 GiB into memory (tool_paramhlp.c MAX_FILE2MEMORY).  A lone
 * --data-binary @FILE and -T FILE are streamed from the file instead, with
 * no limit. */
#define BODY_CAP (1024u * 1024 * 1024)

/* The bytes of FILE (or stdin for "-"), at most BODY_CAP; with strip, CR
 * and LF are left out as curl's -d @FILE does.  0, or -1 with err. */
static int read_body_file(const char *path, int strip, struct buf *out,
                          char *err, size_t errlen)
{
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  char chunk[8192];
  size_t n, i;
  int rc = -1;

  if (!f) {
    snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
    for (i = 0; i < n; i++) {
      if (strip && (chunk[i] == '\r' || chunk[i] == '\n'))
        continue;
      if (out->len >= BODY_CAP) {
        snprintf(err, errlen,
                 "'%s' is larger than %u MiB, the limit of a request body",
                 path, BODY_CAP / (1024 * 1024));
        goto out;
      }
      buf_putc(out, chunk[i]);
    }
  }
  if (ferror(f)) {
    snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    goto out;
  }
  rc = 0;
out:
  if (f != stdin)
    fclose(f);
  return rc;
}

/* Free text kept as given (file names, a location, the User-Agent). */
static int set_text(struct options *o, enum opt_id id, const char *val,
                    char *err, size_t errlen)
{
  char **field;

  (void)err, (void)errlen;
  switch (id) {
  case OPT_CACERT:
    field = &o->cacert;
    o->cacert_env = NULL;
    break;
  case OPT_CAPATH:
    field = &o->capath;
    o->capath_env = NULL;
    break;
  case OPT_CERT:
    field = &o->tls_cert;
    break;
  case OPT_KEY:
    field = &o->tls_key;
    break;
  case OPT_BASELINE:
    if (!*val) {
      snprintf(err, errlen, "empty target name");
      return -1;
    }
    field = &o->baseline;
    break;
  case OPT_CLIENT_LOCATION:
    field = &o->client_location;
    break;
  case OPT_LISTEN:
    field = &o->serve_listen;
    break;
  case OPT_CONFIG:
    field = &o->serve_config;
    break;
  case OPT_USER_AGENT:
    field = &o->user_agent;
    break;
  case OPT_VANTAGE:
    field = &o->vantage;
    break;
  case OPT_DUMP_HEADER:
    field = &o->dump_header;
    break;
  case OPT_WRITE_OUT:
    if (val[0] == '@' && val[1]) {
      /* curl's -w @FILE: the format from a file (or stdin for @-). */
      struct buf f;

      buf_init(&f, 0);
      if (read_body_file(val + 1, 0, &f, err, errlen) < 0) {
        buf_release(&f);
        return -1;
      }
      free(o->write_out);
      o->write_out = buf_detach(&f);
      return 0;
    }
    field = &o->write_out;
    break;
  default:
    BUG("option id %d is not text", (int)id);
  }
  free(*field);
  *field = xstrdup(val);
  return 0;
}

/* --protocols: h1, h2, h3, each at most once, in the order given. */
static int set_protocols(struct options *o, const char *val, char *err,
                         size_t errlen)
{
  static const char *const names[] = {"h1", "h2", "h3"};
  static const enum http_pref prefs[] = {HTTP_PREF_1_1, HTTP_PREF_2,
                                         HTTP_PREF_3_ONLY};
  const char *p = val;
  int n = 0, k;

  /* Bounded: each turn takes one name or fails. */
  while (*p) {
    size_t len = strcspn(p, ",");

    for (k = 0; k < 3; k++)
      if (len == 2 && !strncmp(p, names[k], 2))
        break;
    if (k == 3) {
      snprintf(err, errlen, "unknown protocol '%.*s' (expected h1, h2, h3)",
               (int)(len > 40 ? 40 : len), p);
      return -1;
    }
    for (int j = 0; j < n; j++)
      if (o->protocols[j] == prefs[k]) {
        snprintf(err, errlen, "protocol '%s' is given twice", names[k]);
        return -1;
      }
    o->protocols[n++] = prefs[k];
    p += len;
    if (*p == ',' && !*++p) {
      snprintf(err, errlen, "empty protocol after ','");
      return -1;
    }
  }
  if (!n) {
    snprintf(err, errlen, "no protocol (expected a list of h1, h2, h3)");
    return -1;
  }
  o->n_protocols = n;
  return 0;
}

/* One of a fixed list of names. */
static int set_choice(struct options *o, enum opt_id id, const char *val,
                      char *err, size_t errlen)
{
  int i;

  switch (id) {
  case OPT_COLOR:
  case OPT_PROGRESS:
  case OPT_TRACE:
    if ((i = pick(val, tristate_names, TRI_COUNT, err, errlen)) < 0)
      return -1;
    if (id == OPT_COLOR)
      o->color = (enum tristate)i;
    else if (id == OPT_PROGRESS)
      o->progress = (enum tristate)i;
    else
      o->trace = (enum trace_mode)i;
    return 0;
  case OPT_COMPARE:
    if (strcmp(val, "all")) {
      snprintf(err, errlen, "unknown value '%s' (expected all)", val);
      return -1;
    }
    o->compare_all = 1;
    return 0;
  case OPT_FORMAT:
    if ((i = pick(val, report_format_names, FORMAT_COUNT, err, errlen)) < 0)
      return -1;
    o->format = (enum report_format)i;
    return 0;
  case OPT_MODE:
    return set_modes(o, val, err, errlen);
  case OPT_PROTOCOLS:
    return set_protocols(o, val, err, errlen);
  case OPT_PROJECT: {
    /* The list replaces an earlier one (as --mode), whole or not at all. */
    struct net_profile nets[NETPROFILES_MAX];
    size_t n;

    if (netprofile_parse_list(val, nets, &n, err, errlen) < 0)
      return -1;
    memcpy(o->project, nets, n * sizeof(nets[0]));
    o->n_project = n;
    return 0;
  }
  case OPT_ORDER:
    if ((i = pick(val, schedule_order_names, ORDER_COUNT, err, errlen)) < 0)
      return -1;
    o->order = (enum schedule_order)i;
    return 0;
  default:
    BUG("option id %d is not a choice", (int)id);
  }
}

/* Durations: the timeouts must leave time to measure, a pause may be 0. */
static int set_duration(struct options *o, enum opt_id id, const char *val,
                        char *err, size_t errlen)
{
  int64_t us;

  /* --pause is hopsplit's own: a unit is required (hopsplit(1)).  The
   * timeouts are curl's options, where a bare number is seconds. */
  if ((id == OPT_PAUSE ? units_parse_duration_unit
                       : units_parse_duration)(val, &us, err, errlen) < 0)
    return -1;
  if (id != OPT_PAUSE && us < 1000) {
    snprintf(err, errlen, "'%s' is too short (at least 1ms)", val);
    return -1;
  }
  switch (id) {
  case OPT_CONNECT_TIMEOUT:
    o->connect_timeout_us = us;
    break;
  case OPT_MAX_TIME:
    o->max_time_us = us;
    break;
  case OPT_PAUSE:
    o->pause_us = us;
    break;
  default:
    BUG("option id %d is not a duration", (int)id);
  }
  return 0;
}

/* --payload-size: a size with its unit (B, KB, MB, GB in powers of 1000;
 * KiB, MiB, GiB in powers of 1024), more than 0 and at most 1 TiB. */
static int set_size(struct options *o, enum opt_id id, const char *val,
                    char *err, size_t errlen)
{
  static const struct {
    const char *unit;
    double mul;
  } units[] = {{"B", 1},           {"KB", 1e3},          {"kB", 1e3},
               {"MB", 1e6},        {"GB", 1e9},          {"KiB", 1024.0},
               {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
  char *end;
  double v;
  size_t i;

  if (id != OPT_PAYLOAD_SIZE)
    BUG("option id %d is not a size", (int)id);
  errno = 0;
  v = strtod(val, &end);
  if (end == val || errno || !(v > 0)) {
    snprintf(err, errlen,
             "'%s' is not a size: write a number and its unit, e.g. 20KB, "
             "24KiB, 1.5MB",
             val);
    return -1;
  }
  for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
    if (!strcmp(end, units[i].unit)) {
      double b = v * units[i].mul;

      if (b < 1 || b > 1099511627776.0) {
        snprintf(err, errlen, "'%s' is out of range (1B to 1TiB)", val);
        return -1;
      }
      o->payload_size = (int64_t)b;
      return 0;
    }
  snprintf(err, errlen,
           "'%s' needs a unit: B, KB, MB, GB (powers of 1000) or KiB, MiB, "
           "GiB (powers of 1024), e.g. 20KB",
           val);
  return -1;
}

/* serve's --max-concurrent (a whole number from 1) and --timeout-offset
 * (seconds from 0 to an hour). */
static int set_serve_number(struct options *o, enum opt_id id, const char *val,
                            char *err, size_t errlen)
{
  double lo = id == OPT_MAX_CONCURRENT ? 1 : 0;
  double hi = id == OPT_MAX_CONCURRENT ? OPTIONS_MAX_CONCURRENT_MAX : 3600;
  char *end;
  double d;

  errno = 0;
  d = strtod(val, &end);
  if (errno || end == val || *end || !(d >= lo && d <= hi)) {
    snprintf(err, errlen, "'%s' is not a number from %g to %g", val, lo, hi);
    return -1;
  }
  if (id == OPT_TIMEOUT_OFFSET) {
    o->serve_timeout_offset = d;
    return 0;
  }
  if (d != (double)(unsigned)d) {
    snprintf(err, errlen, "'%s' is not a whole number", val);
    return -1;
  }
  o->serve_max_concurrent = (unsigned)d;
  return 0;
}

static int set_seed(struct options *o, const char *val, char *err,
                    size_t errlen)
{
  long long v;
  char *end;

  if (*val && *val != '-') {
    errno = 0;
    v = strtoll(val, &end, 10);
    if (!*end && !errno && v >= 0) {
      o->seed = (uint64_t)v;
      o->seed_set = 1;
      return 0;
    }
  }
  snprintf(err, errlen, "bad seed '%s' (expected a non-negative integer)",
           val);
  return -1;
}

/* Counts and the seed. */
static int set_number(struct options *o, enum opt_id id, const char *val,
                      char *err, size_t errlen)
{
  long n;

  switch (id) {
  case OPT_MAX_REDIRS:
    if (units_parse_uint(val, 0, 1000, &n, err, errlen) < 0)
      return -1;
    o->max_redirs = n;
    o->follow = 1;
    return 0;
  case OPT_ROUNDS:
    if (units_parse_uint(val, 1, 1000000, &n, err, errlen) < 0)
      return -1;
    o->rounds = n;
    o->rounds_set = 1;
    return 0;
  case OPT_PARALLEL:
    if (units_parse_uint(val, 1, 1024, &n, err, errlen) < 0)
      return -1;
    o->parallel = n;
    return 0;
  case OPT_SEED:
    return set_seed(o, val, err, errlen);
  default:
    BUG("option id %d is not a number", (int)id);
  }
}

static int add_output(struct options *o, const char *val, char *err,
                      size_t errlen)
{
  enum report_format f = options_format_from_path(val);

  if (!*val) {
    snprintf(err, errlen, "empty file name");
    return -1;
  }
  if (!strcmp(val, "-")) {
    snprintf(err, errlen,
             "'-' is stdout, which always gets the report; choose its "
             "format with --format");
    return -1;
  }
  /* An unknown extension takes the --format of the run, resolved (or
   * refused when there is none) by options_finish once every option is
   * known. */
  o->outputs = xrealloc(o->outputs, (o->n_outputs + 1) * sizeof(*o->outputs));
  o->outputs[o->n_outputs].path = xstrdup(val);
  o->outputs[o->n_outputs].format = f;
  o->n_outputs++;
  return 0;
}

/* [NAME=]URL: NAME= only when what precedes the first '=' is a target
 * name (letters, digits, '_', '.', '-'), so a URL with a query string
 * is not split.  The name is checked against the targets by the plan. */
static int add_prime(struct options *o, const char *val, char *err,
                     size_t errlen)
{
  const char *eq = strchr(val, '='), *url = val, *p;
  char *name = NULL, msg[512];
  struct prime_spec *ps;

  if (eq && eq > val) {
    for (p = val; p < eq; p++)
      if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("_.-", *p)))
        break;
    if (p == eq) {
      name = xstrndup(val, (size_t)(eq - val));
      url = eq + 1;
    }
  }
  if (!*url) {
    snprintf(err, errlen, "'%s': empty URL (expected [NAME=]URL)", val);
    free(name);
    return -1;
  }
  if (url_target_problem(url, msg, sizeof(msg)) < 0) {
    snprintf(err, errlen, "%s", msg);
    free(name);
    return -1;
  }
  o->primes = xrealloc(o->primes, (o->n_primes + 1) * sizeof(*o->primes));
  ps = &o->primes[o->n_primes++];
  ps->target = name;
  ps->url = url_normalize_arg(url);
  return 0;
}

/* What a request is made of, checked for what a server would refuse. */
static int set_request(struct options *o, enum opt_id id, const char *val,
                       char *err, size_t errlen)
{
  const char *p;

  switch (id) {
  case OPT_DNS_SERVER:
    if (check_dns_servers(val, err, errlen) < 0)
      return -1;
    free(o->dns_servers);
    o->dns_servers = xstrdup(val);
    return 0;
  case OPT_HEADER:
    if (check_header(val, err, errlen) < 0)
      return -1;
    strv_push(&o->headers, &o->n_headers, val);
    return 0;
  case OPT_OUTPUT:
    return add_output(o, val, err, errlen);
  case OPT_PRIME:
    return add_prime(o, val, err, errlen);
  case OPT_REQUEST:
    if (!*val) {
      snprintf(err, errlen, "empty value");
      return -1;
    }
    for (p = val; *p; p++) {
      if (*p <= ' ' || *p >= 127 || strchr("()<>@,;:\\\"/[]?={}", *p)) {
        snprintf(err, errlen, "bad method '%s'", val);
        return -1;
      }
    }
    free(o->method);
    o->method = xstrdup(val);
    o->method_set = 1;
    return 0;
  case OPT_RESOLVE:
    if (check_resolve(val, err, errlen) < 0)
      return -1;
    strv_push(&o->resolve, &o->n_resolve, val);
    return 0;
  default:
    BUG("option id %d is not a request part", (int)id);
  }
}

/*
 * -d, --data-binary, --data-raw and --json as curl 7.82+ takes them: @FILE
 * reads the file (stripping CR and LF for -d only), every piece after the
 * first is joined with '&' except a --json piece, which is appended as it
 * is.  The body is read here, once.
 */
/* The size of a regular file to stream as the body; 0 or -1 with err. */
static int body_file_size(const char *path, int64_t *size, char *err,
                          size_t errlen)
{
  struct stat st;

  if (stat(path, &st) < 0) {
    snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen,
             "'%s' is not a regular file: every sample sends the same "
             "bytes, so a body is read from a file it can read again",
             path);
    return -1;
  }
  if (access(path, R_OK) < 0) {
    snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  *size = (int64_t)st.st_size;
  return 0;
}

static int is_regular(const char *path)
{
  struct stat st;

  return *path && strcmp(path, "-") && stat(path, &st) == 0 &&
         S_ISREG(st.st_mode);
}

/* A streamed body joined with another piece: read it into memory. */
static int body_file_to_memory(struct options *o, char *err, size_t errlen)
{
  struct buf f;

  if (!o->body_file)
    return 0;
  if (o->upload) {
    snprintf(err, errlen,
             "-T sends a file as it is: it cannot be joined with "
             "-d/--data-binary/--json");
    return -1;
  }
  buf_init(&f, 0);
  if (read_body_file(o->body_file, 0, &f, err, errlen) < 0) {
    buf_release(&f);
    return -1;
  }
  o->body_len = f.len;
  o->body = buf_detach(&f);
  free(o->body_file);
  o->body_file = NULL;
  return 0;
}

/* -T FILE: curl's upload (PUT unless -X), streamed by every sample. */
static int set_upload(struct options *o, enum opt_id id, const char *val,
                      char *err, size_t errlen)
{
  int64_t size = 0;

  (void)id;
  if (o->head) {
    snprintf(err, errlen,
             "a HEAD request has no body: -I and -T exclude each other");
    return -1;
  }
  if (!strcmp(val, "-")) {
    snprintf(err, errlen,
             "'-T -' is refused: every sample must send the same bytes, and "
             "standard input can be read only once (save it to a file)");
    return -1;
  }
  if (!*val) {
    snprintf(err, errlen, "-T names no file");
    return -1;
  }
  if (options_has_body(o) && !o->upload) {
    snprintf(err, errlen,
             "-T uploads a file with PUT: it cannot be combined with "
             "-d/--data-binary/--json (curl refuses both at once too)");
    return -1;
  }
  if (body_file_size(val, &size, err, errlen) < 0)
    return -1;
  free(o->body_file);
  o->body_file = xstrdup(val);
  o->body_file_size = size;
  o->upload = 1;
  return 0;
}

static int set_body(struct options *o, enum opt_id id, const char *val,
                    char *err, size_t errlen)
{
  struct buf piece;
  int rc = -1;

  if (o->head) {
    snprintf(err, errlen,
             "a HEAD request has no body: -I and -d/--json exclude each "
             "other");
    return -1;
  }
  if (o->upload) {
    snprintf(err, errlen,
             "-T uploads a file with PUT: it cannot be combined with "
             "-d/--data-binary/--json (curl refuses both at once too)");
    return -1;
  }
  if (id == OPT_DATA_BINARY && val[0] == '@' && is_regular(val + 1) &&
      !options_has_body(o)) {
    /* A lone --data-binary @FILE is sent byte for byte: streamed from the
     * file by every sample.  A FIFO or stdin is read once, into memory. */
    int64_t size = 0;

    if (body_file_size(val + 1, &size, err, errlen) < 0)
      return -1;
    o->body_file = xstrdup(val + 1);
    o->body_file_size = size;
    return 0;
  }
  if (body_file_to_memory(o, err, errlen) < 0)
    return -1;
  buf_init(&piece, 0);
  if (id != OPT_DATA_RAW && val[0] == '@') {
    if (!val[1]) {
      snprintf(err, errlen, "'@' names no file (expected @FILE or @-)");
      goto out;
    }
    if (read_body_file(val + 1, id == OPT_DATA, &piece, err, errlen) < 0)
      goto out;
  }
  else {
    buf_puts(&piece, val);
  }
  if (o->body && o->body_len + piece.len + 1 > BODY_CAP) {
    snprintf(err, errlen, "the request body would exceed %u MiB",
             BODY_CAP / (1024 * 1024));
    goto out;
  }
  if (!o->body) {
    o->body = xmalloc(piece.len + 1);
    memcpy(o->body, piece.s, piece.len + 1);
    o->body_len = piece.len;
  }
  else {
    int amp = id != OPT_JSON;
    size_t len = o->body_len + (amp ? 1 : 0) + piece.len;

    o->body = xrealloc(o->body, len + 1);
    if (amp)
      o->body[o->body_len++] = '&';
    memcpy(o->body + o->body_len, piece.s, piece.len + 1);
    o->body_len = len;
  }
  if (id == OPT_JSON)
    o->body_json = 1;
  rc = 0;
out:
  buf_release(&piece);
  return rc;
}

static setter_fn *const setters[OPT_COUNT] = {
    [OPT_BASELINE] = set_text,
    [OPT_BRIEF] = set_flag,
    [OPT_CACERT] = set_text,
    [OPT_CERT] = set_text,
    [OPT_KEY] = set_text,
    [OPT_CAPATH] = set_text,
    [OPT_CLIENT_LOCATION] = set_text,
    [OPT_COLOR] = set_choice,
    [OPT_COMPARE] = set_choice,
    [OPT_COMPRESSED] = set_flag,
    [OPT_CONFIG] = set_text,
    [OPT_CONNECT_TIMEOUT] = set_duration,
    [OPT_DATA] = set_body,
    [OPT_UPLOAD_FILE] = set_upload,
    [OPT_DATA_BINARY] = set_body,
    [OPT_DATA_RAW] = set_body,
    [OPT_DNS_SERVER] = set_request,
    [OPT_DRY_RUN] = set_flag,
    [OPT_DUMP_HEADER] = set_text,
    [OPT_FAIL] = set_flag,
    [OPT_FORMAT] = set_choice,
    [OPT_HEAD] = set_flag,
    [OPT_HEADER] = set_request,
    [OPT_HELP] = set_flag,
    [OPT_HTTP1_1] = set_flag,
    [OPT_HTTP2] = set_flag,
    [OPT_HTTP3] = set_flag,
    [OPT_HTTP3_ONLY] = set_flag,
    [OPT_INCLUDE] = set_flag,
    [OPT_INSECURE] = set_flag,
    [OPT_IPV4] = set_flag,
    [OPT_IPV6] = set_flag,
    [OPT_JSON] = set_body,
    [OPT_KEEP_INTERFERED] = set_flag,
    [OPT_LISTEN] = set_text,
    [OPT_LOCATION] = set_flag,
    [OPT_LOCATION_TRUSTED] = set_flag,
    [OPT_MAX_CONCURRENT] = set_serve_number,
    [OPT_MAX_REDIRS] = set_number,
    [OPT_MAX_TIME] = set_duration,
    [OPT_MODE] = set_choice,
    [OPT_PROTOCOLS] = set_choice,
    [OPT_NO_FOLLOW] = set_flag,
    [OPT_ORDER] = set_choice,
    [OPT_OUTPUT] = set_request,
    [OPT_PARALLEL] = set_number,
    [OPT_PAUSE] = set_duration,
    [OPT_PAYLOAD_SIZE] = set_size,
    [OPT_POST301] = set_flag,
    [OPT_POST302] = set_flag,
    [OPT_POST303] = set_flag,
    [OPT_PRIME] = set_request,
    [OPT_PROGRESS] = set_choice,
    [OPT_PROJECT] = set_choice,
    [OPT_QUIET] = set_flag,
    [OPT_REQUEST] = set_request,
    [OPT_RESOLVE] = set_request,
    [OPT_ROUNDS] = set_number,
    [OPT_SEED] = set_number,
    [OPT_SHOW_ERROR] = set_flag,
    [OPT_SHOW_SECRETS] = set_flag,
    [OPT_SILENT] = set_flag,
    [OPT_TIMEOUT_OFFSET] = set_serve_number,
    [OPT_TRACE] = set_choice,
    [OPT_USER_AGENT] = set_text,
    [OPT_VANTAGE] = set_text,
    [OPT_VERBOSE] = set_flag,
    [OPT_VERSION] = set_flag,
    [OPT_WRITE_OUT] = set_text,
};

static int set_value(struct options *o, const struct opt_def *d,
                     const char *val, char *err, size_t errlen)
{
  if ((unsigned)d->id >= OPT_COUNT || !setters[d->id])
    BUG("option id %d not handled", (int)d->id);
  return setters[d->id](o, d->id, val, err, errlen);
}

int options_set(struct options *o, const struct opt_def *d, const char *val,
                char *err, size_t errlen)
{
  struct opt_given *g;

  if (set_value(o, d, val, err, errlen) < 0)
    return -1;
  o->given = xrealloc(o->given, (o->n_given + 1) * sizeof(*o->given));
  g = &o->given[o->n_given++];
  g->def = d;
  g->val = val ? xstrdup(val) : NULL;
  return 0;
}

/* Length of the key of a repeatable value: the header name, or the
 * HOST:PORT of a --resolve entry (0 when there is none). */
static size_t override_key(enum opt_id id, const char *val)
{
  const char *c = strchr(val, ':');

  if (!c)
    return 0;
  if (id == OPT_HEADER)
    return (size_t)(c - val);
  c = strchr(c + 1, ':');
  return c ? (size_t)(c - val) : 0;
}

int options_override(struct options *o, const struct opt_def *d,
                     const char *val, char *err, size_t errlen)
{
  char ***v = NULL;
  size_t *n = NULL, i, k, len;

  if (d->id == OPT_HEADER) {
    v = &o->headers;
    n = &o->n_headers;
  }
  else if (d->id == OPT_RESOLVE) {
    v = &o->resolve;
    n = &o->n_resolve;
  }
  len = v && val ? override_key(d->id, val) : 0;
  if (len) {
    for (i = k = 0; i < *n; i++) {
      char *old = (*v)[i];

      if (override_key(d->id, old) == len && !strncasecmp(old, val, len))
        free(old);
      else
        (*v)[k++] = old;
    }
    *n = k;
  }
  return options_set(o, d, val, err, errlen);
}
