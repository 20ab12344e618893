/*
 * blackbox.c: blackbox_exporter's module file for "hopsplit serve
 * --config" (see blackbox.h).  Input: the YAML file and the base options.
 * Output: struct blackbox_module per module.  Every key of an http module
 * is either applied (through options_set, the one option table) or an
 * error at its file:line:col; every problem is reported in one pass.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "arraysize.h"
#include "blackbox.h"
#include "msg.h"
#include "option_table.h"
#include "profile.h"
#include "units.h"
#include "xalloc.h"
#include "yaml_bounds_int.h"
#include "banned.h"

struct bb_loader {
  const char *path;
  yaml_document_t doc;
  int bad;
};

static void complain(struct bb_loader *L, const yaml_node_t *n,
                     const char *fmt, ...) MSG_PRINTF(3, 4);
static void complain(struct bb_loader *L, const yaml_node_t *n,
                     const char *fmt, ...)
{
  char text[1024];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(text, sizeof(text), fmt, ap);
  va_end(ap);
  msg_error("%s:%lu:%lu: %s", L->path, (unsigned long)n->start_mark.line + 1,
            (unsigned long)n->start_mark.column + 1, text);
  L->bad = 1;
}

static yaml_node_t *node(struct bb_loader *L, int id)
{
  return yaml_document_get_node(&L->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                          : NULL;
}

static int as_bool(struct bb_loader *L, const yaml_node_t *k,
                   const yaml_node_t *v, int *out)
{
  const char *s = scalar(v);

  if (s && !strcmp(s, "true"))
    *out = 1;
  else if (s && !strcmp(s, "false"))
    *out = 0;
  else {
    complain(L, v, "'%s' takes true or false", scalar(k));
    return -1;
  }
  return 0;
}

static void set_opt(struct bb_loader *L, struct blackbox_module *m,
                    const yaml_node_t *at, const char *key, const char *opt,
                    const char *val)
{
  char err[512];

  if (options_set(&m->opts, options_find(opt), val, err, sizeof(err)) < 0)
    complain(L, at, "'%s': %s", key, err);
}

static void header_checks(struct bb_loader *L, struct blackbox_module *m,
                          const yaml_node_t *k, const yaml_node_t *v,
                          int must_match)
{
  yaml_node_item_t *it;

  if (v->type != YAML_SEQUENCE_NODE) {
    complain(L, v, "'%s' takes a list of {header, regexp, allow_missing}",
             scalar(k));
    return;
  }
  for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
       it++) {
    yaml_node_t *e = node(L, *it);
    struct blackbox_header_check hc;
    yaml_node_pair_t *p;

    memset(&hc, 0, sizeof(hc));
    hc.must_match = must_match;
    if (e->type != YAML_MAPPING_NODE) {
      complain(L, e, "'%s' entries are {header, regexp, allow_missing}",
               scalar(k));
      continue;
    }
    for (p = e->data.mapping.pairs.start; p < e->data.mapping.pairs.top; p++) {
      yaml_node_t *ek = node(L, p->key), *ev = node(L, p->value);
      const char *name = scalar(ek), *val = scalar(ev);

      if (name && !strcmp(name, "header") && val) {
        free(hc.header);
        hc.header = xstrdup(val);
      }
      else if (name && !strcmp(name, "regexp") && val) {
        free(hc.regexp);
        hc.regexp = xstrdup(val);
        hc.line = (unsigned long)ev->start_mark.line + 1;
        hc.col = (unsigned long)ev->start_mark.column + 1;
      }
      else if (name && !strcmp(name, "allow_missing"))
        as_bool(L, ek, ev, &hc.allow_missing);
      else
        complain(L, ek,
                 "unknown key '%s' in '%s' (header, regexp, "
                 "allow_missing)",
                 name ? name : "?", scalar(k));
    }
    if (!hc.header || !hc.regexp)
      complain(L, e, "'%s' entry needs 'header' and 'regexp'", scalar(k));
    else {
      m->headers = xrealloc(m->headers, (m->n_headers + 1) * sizeof(hc));
      m->headers[m->n_headers++] = hc;
      continue;
    }
    free(hc.header);
    free(hc.regexp);
  }
}

static void body_checks(struct bb_loader *L, struct blackbox_module *m,
                        const yaml_node_t *k, const yaml_node_t *v,
                        int must_match)
{
  yaml_node_item_t *it;

  if (v->type != YAML_SEQUENCE_NODE) {
    complain(L, v, "'%s' takes a list of regular expressions", scalar(k));
    return;
  }
  for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
       it++) {
    yaml_node_t *e = node(L, *it);
    struct blackbox_body_check *bc;

    if (!scalar(e)) {
      complain(L, e, "'%s' entries are regular expressions", scalar(k));
      continue;
    }
    m->bodies = xrealloc(m->bodies, (m->n_bodies + 1) * sizeof(*m->bodies));
    bc = &m->bodies[m->n_bodies++];
    bc->regexp = xstrdup(scalar(e));
    bc->must_match = must_match;
    bc->line = (unsigned long)e->start_mark.line + 1;
    bc->col = (unsigned long)e->start_mark.column + 1;
  }
}

/* RFC 4648 base64 of s[0..n). */
static char *base64(const char *s, size_t n)
{
  static const char a[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char *out = xmalloc(4 * ((n + 2) / 3) + 1), *o = out;
  size_t i;

  for (i = 0; i + 2 < n; i += 3) {
    unsigned v = (unsigned char)s[i] << 16 | (unsigned char)s[i + 1] << 8 |
                 (unsigned char)s[i + 2];

    *o++ = a[v >> 18];
    *o++ = a[(v >> 12) & 63];
    *o++ = a[(v >> 6) & 63];
    *o++ = a[v & 63];
  }
  if (i < n) {
    unsigned v = (unsigned)(unsigned char)s[i] << 16;

    if (i + 1 < n)
      v |= (unsigned)(unsigned char)s[i + 1] << 8;
    *o++ = a[v >> 18];
    *o++ = a[(v >> 12) & 63];
    *o++ = i + 1 < n ? a[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
  *o = '\0';
  return out;
}

/* The password of password_file as blackbox reads it (surrounding white
 * space trimmed), or NULL after complaining. */
static char *read_secret(struct bb_loader *L, const yaml_node_t *at,
                         const char *key, const char *path)
{
  FILE *f = fopen(path, "rb");
  char buf[4096];
  size_t n, b = 0;

  if (!f) {
    complain(L, at, "'%s': cannot read '%s'", key, path);
    return NULL;
  }
  n = fread(buf, 1, sizeof(buf) - 1, f);
  if (ferror(f)) {
    /* A directory opens but does not read. */
    fclose(f);
    complain(L, at, "'%s': cannot read '%s'", key, path);
    return NULL;
  }
  fclose(f);
  buf[n] = '\0';
  while (n && strchr(" \t\r\n", buf[n - 1]))
    buf[--n] = '\0';
  while (b < n && strchr(" \t\r\n", buf[b]))
    b++;
  return xstrdup(buf + b);
}

/* basic_auth {username, password | password_file}: blackbox's client
 * sends "Authorization: Basic ..." on every request it makes, redirects
 * to other hosts included (curl's -u with --location-trusted). */
static void basic_auth(struct bb_loader *L, struct blackbox_module *m,
                       const yaml_node_t *v)
{
  yaml_node_pair_t *p;
  const char *user = NULL;
  char *pass = NULL, *pair, *line, *enc;
  int have_secret = 0;

  if (v->type != YAML_MAPPING_NODE) {
    complain(L, v, "'basic_auth' takes a mapping");
    return;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(L, p->key), *val = node(L, p->value);
    const char *key = scalar(k);

    int secret =
        key && (!strcmp(key, "password") || !strcmp(key, "password_file"));

    if ((secret || (key && !strcmp(key, "username"))) && !scalar(val))
      complain(L, val, "basic_auth '%s' takes a string", key);
    else if (key && !strcmp(key, "username"))
      user = scalar(val);
    else if (secret && have_secret)
      complain(L, k,
               "at most one of basic_auth password & password_file must be "
               "configured (as blackbox_exporter says)");
    else if (secret) {
      have_secret = 1;
      pass = !strcmp(key, "password") ? xstrdup(scalar(val))
                                      : read_secret(L, val, key, scalar(val));
    }
    else
      complain(L, k,
               "basic_auth key '%s' is not one hopsplit serve honours "
               "(username, password or password_file)",
               key ? key : "?");
  }
  pair = xasprintf("%s:%s", user ? user : "", pass ? pass : "");
  enc = base64(pair, strlen(pair));
  line = xasprintf("Authorization: Basic %s", enc);
  set_opt(L, m, v, "basic_auth", "header", line);
  set_opt(L, m, v, "basic_auth", "location-trusted", NULL);
  free(line);
  free(enc);
  free(pair);
  free(pass);
}

/* proxy_url: every request of the module goes through it (libcurl's
 * CURLOPT_PROXY; the schemes libcurl speaks to a proxy). */
static void proxy_url(struct bb_loader *L, struct blackbox_module *m,
                      const yaml_node_t *v)
{
  static const char *const schemes[] = {"http://",   "https://",
                                        "socks4://", "socks4a://",
                                        "socks5://", "socks5h://"};
  const char *u = scalar(v);
  size_t i;

  for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
    if (!strncasecmp(u, schemes[i], strlen(schemes[i])) &&
        u[strlen(schemes[i])])
      break;
  if (i == sizeof(schemes) / sizeof(schemes[0])) {
    complain(L, v,
             "'proxy_url': '%s' is not a proxy URL (http://, https://, "
             "socks4://, socks4a://, socks5:// or socks5h://HOST:PORT)",
             u);
    return;
  }
  free(m->opts.proxy);
  m->opts.proxy = xstrdup(u);
}

/* proxy_connect_header: {Name: [value, ...]}, each value a header line of
 * the CONNECT requests (as Go's ProxyConnectHeader). */
static void proxy_headers(struct bb_loader *L, struct blackbox_module *m,
                          const yaml_node_t *k, const yaml_node_t *v)
{
  yaml_node_pair_t *p;

  if (v->type != YAML_MAPPING_NODE) {
    complain(L, v, "'%s' takes a mapping of header names to lists", scalar(k));
    return;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    const yaml_node_t *hn = node(L, p->key), *hv = node(L, p->value);
    yaml_node_item_t *it;

    if (!scalar(hn) || hv->type != YAML_SEQUENCE_NODE) {
      complain(L, hn, "'%s' takes Name: [value, ...]", scalar(k));
      continue;
    }
    for (it = hv->data.sequence.items.start; it < hv->data.sequence.items.top;
         it++) {
      const char *val = scalar(node(L, *it));

      if (!val) {
        complain(L, node(L, *it), "'%s': a header value is a string",
                 scalar(k));
        continue;
      }
      m->opts.proxy_headers =
          xrealloc(m->opts.proxy_headers, (m->opts.n_proxy_headers + 1) *
                                              sizeof(*m->opts.proxy_headers));
      m->opts.proxy_headers[m->opts.n_proxy_headers++] =
          xasprintf("%s: %s", scalar(hn), val);
    }
  }
}

/* The module's credentials as prometheus/common's client (blackbox
 * 0.23) takes them: bearer_token, bearer_token_file or authorization
 * {type (default Bearer), credentials | credentials_file}, at most one of
 * them and never beside basic_auth; "Authorization: TYPE SECRET" (the
 * secret trimmed) on every request, redirects to other hosts included,
 * unless the module's own headers carry an Authorization. */
struct bb_auth {
  const yaml_node_t *basic, *token, *token_file, *authz;
  int has_header;
};

static void authorization(struct bb_loader *L, struct blackbox_module *m,
                          const struct bb_auth *a)
{
  const yaml_node_t *at = a->authz   ? a->authz
                          : a->token ? a->token
                                     : a->token_file;
  const yaml_node_t *cred = a->token, *cred_file = a->token_file;
  const char *type = "Bearer";
  char *secret = NULL, *line;
  yaml_node_pair_t *p;

  if (!at)
    return;
  if (a->token && a->token_file) {
    complain(L, a->token_file,
             "at most one of bearer_token & "
             "bearer_token_file must be configured");
    return;
  }
  if (a->authz && (a->token || a->token_file)) {
    complain(L, a->authz,
             "authorization is not compatible with "
             "bearer_token & bearer_token_file");
    return;
  }
  if (a->basic) {
    complain(L, at,
             "at most one of basic_auth, bearer_token, "
             "bearer_token_file & authorization must be configured");
    return;
  }
  if (a->authz && a->authz->type != YAML_MAPPING_NODE) {
    complain(L, a->authz, "'authorization' takes a mapping");
    return;
  }
  for (p = a->authz ? a->authz->data.mapping.pairs.start : NULL;
       p && p < a->authz->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = node(L, p->key), *v = node(L, p->value);
    const char *key = scalar(k);

    if (key && !strcmp(key, "type") && scalar(v)) {
      if (*scalar(v))
        type = scalar(v);
    }
    else if (key && !strcmp(key, "credentials") && scalar(v))
      cred = v;
    else if (key && !strcmp(key, "credentials_file") && scalar(v))
      cred_file = v;
    else if (key && (!strcmp(key, "type") || !strcmp(key, "credentials") ||
                     !strcmp(key, "credentials_file")))
      complain(L, v, "authorization '%s' takes a string", key);
    else
      complain(L, k,
               "authorization key '%s' is not one hopsplit serve honours "
               "(type, credentials, credentials_file)",
               key ? key : "?");
  }
  if (cred && cred_file) {
    complain(L, cred_file,
             "at most one of authorization credentials & "
             "credentials_file must be configured");
    return;
  }
  if (!strcasecmp(type, "basic")) {
    complain(L, at,
             "authorization type cannot be set to \"basic\", use "
             "\"basic_auth\" instead");
    return;
  }
  if (cred_file)
    secret = read_secret(
        L, cred_file, a->token_file ? "bearer_token_file" : "credentials_file",
        scalar(cred_file));
  else if (cred && scalar(cred) && *scalar(cred))
    secret = xstrdup(scalar(cred));
  if (a->has_header || !secret) {
    free(secret);
    return;
  }
  line = xasprintf("Authorization: %s %s", type, secret);
  set_opt(L, m, at, "authorization", "header", line);
  set_opt(L, m, at, "authorization", "location-trusted", NULL);
  free(line);
  free(secret);
}

static void tls_config(struct bb_loader *L, struct blackbox_module *m,
                       const yaml_node_t *v)
{
  yaml_node_pair_t *p;

  if (v->type != YAML_MAPPING_NODE) {
    complain(L, v, "'tls_config' takes a mapping");
    return;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(L, p->key), *val = node(L, p->value);
    const char *key = scalar(k);
    int b;

    if (key && !strcmp(key, "ca_file") && scalar(val))
      set_opt(L, m, val, key, "cacert", scalar(val));
    else if (key && !strcmp(key, "insecure_skip_verify")) {
      if (as_bool(L, k, val, &b) == 0 && b)
        set_opt(L, m, val, key, "insecure", NULL);
    }
    else if (key && !strcmp(key, "server_name") && scalar(val)) {
      const char *name = scalar(val);

      free(m->opts.tls_server_name);
      m->opts.tls_server_name = name && *name ? xstrdup(name) : NULL;
    }
    else if (key && (!strcmp(key, "cert_file") || !strcmp(key, "key_file")) &&
             scalar(val)) {
      char **to = key[0] == 'c' ? &m->opts.tls_cert : &m->opts.tls_key;
      const char *file = scalar(val);

      free(*to);
      *to = file && *file ? xstrdup(file) : NULL;
    }
    else if (key &&
             (!strcmp(key, "min_version") || !strcmp(key, "max_version"))) {
      static const char *const names[] = {"TLS10", "TLS11", "TLS12", "TLS13"};
      int *to = key[1] == 'i' ? &m->opts.tls_min : &m->opts.tls_max;
      size_t i;

      for (i = 0; scalar(val) && i < ARRAY_SIZE(names); i++)
        if (!strcmp(scalar(val), names[i]))
          break;
      if (!scalar(val) || i == ARRAY_SIZE(names))
        complain(L, val,
                 "'%s': unknown TLS version: %s (TLS10, TLS11, TLS12, "
                 "TLS13)",
                 key, scalar(val) ? scalar(val) : "?");
      else
        *to = 10 + (int)i;
    }
    else if (key && (!strcmp(key, "ca_file") || !strcmp(key, "server_name") ||
                     !strcmp(key, "cert_file") || !strcmp(key, "key_file")))
      complain(L, val, "tls_config '%s' takes a %s", key,
               key[0] == 's' ? "name" : "file name");
    else
      complain(L, k,
               "tls_config key '%s' is not one hopsplit serve honours "
               "(ca_file, cert_file, key_file, insecure_skip_verify, "
               "server_name, min_version, max_version)",
               key ? key : "?");
  }
}

/*
 * body_size_limit, a size as Go's units.ParseBase2Bytes reads it: one or
 * more numbers (a fraction allowed), each with a unit B, KB, KiB, MB,
 * MiB, GB, GiB, TB, TiB, PB, PiB, EB or EiB, all powers of 1024 ("10MB",
 * "1KB512B", "1.5KB"), or "0"; the sum truncated to whole bytes.
 */
static void body_size(struct bb_loader *L, struct blackbox_module *m,
                      const yaml_node_t *v)
{
  static const char prefixes[] = "KMGTPE";
  const char *s = scalar(v), *p = s;
  long double total = 0;
  int bad = !s || !*s;

  if (s && !strcmp(s, "0")) {
    m->opts.body_limit = 0;
    return;
  }
  while (!bad && *p) {
    long double num = 0, scale = 1, frac = 0.1L;
    int digits = 0, shift = 0;
    const char *c;

    for (; *p >= '0' && *p <= '9'; p++, digits++)
      num = num * 10 + (*p - '0');
    if (*p == '.')
      for (p++; *p >= '0' && *p <= '9'; p++, digits++, frac /= 10)
        num += frac * (*p - '0');
    if (!digits) {
      bad = 1;
      break;
    }
    if (*p && (c = strchr(prefixes, *p)) != NULL) {
      shift = 10 * (int)(c - prefixes + 1);
      p++;
      if (*p == 'i')
        p++;
    }
    if (*p != 'B') {
      bad = 1;
      break;
    }
    p++;
    while (shift--)
      scale *= 2;
    total += num * scale;
  }
  if (bad || total > (long double)INT64_MAX) {
    complain(L, v,
             "'body_size_limit': '%s' is not a size (a number and a unit "
             "of B, KB, KiB, MB, MiB, GB, GiB, TB, PB or EB, e.g. 10MB)",
             s ? s : "?");
    return;
  }
  m->opts.body_limit = (int64_t)total;
}

static void status_codes(struct bb_loader *L, struct blackbox_module *m,
                         const yaml_node_t *v)
{
  yaml_node_item_t *it;

  if (v->type != YAML_SEQUENCE_NODE) {
    complain(L, v, "'valid_status_codes' takes a list of codes");
    return;
  }
  for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
       it++) {
    yaml_node_t *e = node(L, *it);
    long code;
    char err[128];

    if (!scalar(e) ||
        units_parse_uint(scalar(e), 100, 599, &code, err, sizeof(err)) < 0) {
      complain(L, e, "'valid_status_codes': '%s' is not a status code",
               scalar(e) ? scalar(e) : "?");
      continue;
    }
    if (m->n_status < BLACKBOX_STATUS_MAX) {
      m->status_lo[m->n_status] = m->status_hi[m->n_status] = code;
      m->n_status++;
    }
  }
}

const char *const blackbox_version_names[BB_HTTP_COUNT] = {
    "HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "HTTP/3.0"};

static void versions(struct bb_loader *L, struct blackbox_module *m,
                     const yaml_node_t *v)
{
  const char *const *names = blackbox_version_names;
  yaml_node_item_t *it;
  int i;

  if (v->type != YAML_SEQUENCE_NODE) {
    complain(L, v, "'valid_http_versions' takes a list");
    return;
  }
  for (it = v->data.sequence.items.start; it < v->data.sequence.items.top;
       it++) {
    const char *s = scalar(node(L, *it));

    for (i = 0; s && i < BB_HTTP_COUNT; i++)
      if (!strcmp(s, names[i]))
        break;
    if (!s || i == BB_HTTP_COUNT)
      complain(L, node(L, *it),
               "'valid_http_versions': '%s' is not one of HTTP/1.0, "
               "HTTP/1.1, HTTP/2.0, HTTP/3.0",
               s ? s : "?");
    else
      m->versions |= 1u << i;
  }
}

const char *blackbox_version_name(const char *v)
{
  if (!v)
    return NULL;
  if (!strcmp(v, "1.0"))
    return "HTTP/1.0";
  if (!strcmp(v, "1.1"))
    return "HTTP/1.1";
  if (!strcmp(v, "2"))
    return "HTTP/2.0";
  if (!strcmp(v, "3"))
    return "HTTP/3.0";
  return NULL;
}

/* compression: blackbox (0.23, as Debian's answers nginx) decodes the
 * body with that coding whatever the response says, failing the probe
 * when the body is not in it; it asks for no coding itself: the module's
 * own Accept-Encoding header, which must accept it, does.  So hopsplit
 * decodes (curl's --compressed, the module's header replacing libcurl's
 * Accept-Encoding) only when the module names one, and the probe fails
 * when the final response's Content-Encoding is not that coding. */
static void compression_key(struct bb_loader *L, struct blackbox_module *m,
                            const yaml_node_t *v, const yaml_node_t *accept)
{
  static const char *const known[] = {"gzip", "br", "deflate", "identity"};
  const char *c = scalar(v);
  size_t i;

  for (i = 0; i < ARRAY_SIZE(known); i++)
    if (!strcmp(c, known[i]))
      break;
  if (i == ARRAY_SIZE(known)) {
    complain(L, v,
             "'compression': '%s' is not one of gzip, br, deflate, identity",
             c);
    return;
  }
  if (accept && !strstr(scalar(accept), c)) {
    complain(L, accept,
             "'Accept-Encoding: %s' does not accept 'compression: %s' (as "
             "blackbox_exporter refuses it)",
             scalar(accept), c);
    return;
  }
  free(m->compression);
  m->compression = xstrdup(c);
  if (accept && strcmp(c, "identity"))
    set_opt(L, m, v, "compression", "compressed", NULL);
}

/* What a key of the http block that takes a string takes, for the
 * message when it is given something else; NULL for other keys. */
static const char *http_takes(const char *key)
{
  static const char *const takes[][2] = {
      {"method", "a string"},
      {"body", "a string"},
      {"headers", "a mapping of header names to values"},
      {"preferred_ip_protocol", "ip4 or ip6"},
      {"bearer_token", "a string"},
      {"bearer_token_file", "a file name"},
      {"proxy_url", "a URL"},
      {"compression", "gzip, br, deflate or identity"}};
  size_t i;

  for (i = 0; i < ARRAY_SIZE(takes); i++)
    if (!strcmp(key, takes[i][0]))
      return takes[i][1];
  return NULL;
}

static void http_block(struct bb_loader *L, struct blackbox_module *m,
                       const yaml_node_t *v)
{
  yaml_node_pair_t *p;
  const char *family = "ip6";
  const yaml_node_t *fam_at = v, *method = NULL, *body = NULL,
                    *compression = NULL, *accept = NULL;
  const char *host = NULL;
  const yaml_node_t *proxy_header = NULL;
  const char *takes;
  int fallback = 1, follow = 1, no_follow = -1;
  const yaml_node_t *follow_at = NULL;
  struct bb_auth auth;

  memset(&auth, 0, sizeof(auth));
  if (v->type != YAML_MAPPING_NODE) {
    complain(L, v, "'http' takes a mapping");
    return;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(L, p->key), *val = node(L, p->value);
    const char *key = scalar(k), *s = scalar(val);
    int b;

    if (!key) {
      complain(L, k, "a key must be a name");
    }
    else if (!strcmp(key, "method") && s) {
      method = val;
    }
    else if (!strcmp(key, "body") && s) {
      body = val;
      set_opt(L, m, val, key, "data-raw", s);
    }
    else if (!strcmp(key, "headers") && val->type == YAML_MAPPING_NODE) {
      yaml_node_pair_t *h;

      for (h = val->data.mapping.pairs.start; h < val->data.mapping.pairs.top;
           h++) {
        const char *hn = scalar(node(L, h->key)),
                   *hv = scalar(node(L, h->value));
        char *line;

        if (!hn || !hv) {
          complain(L, node(L, h->key), "'headers' takes name: value pairs");
          continue;
        }
        if (!strcasecmp(hn, "Accept-Encoding"))
          accept = node(L, h->value);
        if (!strcasecmp(hn, "Host"))
          host = hv;
        auth.has_header |= !strcasecmp(hn, "Authorization");
        line = xasprintf("%s: %s", hn, hv);
        set_opt(L, m, node(L, h->value), key, "header", line);
        free(line);
      }
    }
    else if (!strcmp(key, "valid_status_codes")) {
      status_codes(L, m, val);
    }
    else if (!strcmp(key, "valid_http_versions")) {
      versions(L, m, val);
    }
    else if (!strcmp(key, "follow_redirects")) {
      if (as_bool(L, k, val, &b) == 0)
        follow = b;
      if (!follow_at)
        follow_at = val;
    }
    else if (!strcmp(key, "no_follow_redirects")) {
      /* blackbox 0.23: when given (true or false) it decides, whatever
       * follow_redirects says. */
      if (as_bool(L, k, val, &b) == 0)
        no_follow = b;
      follow_at = val;
    }
    else if (!strcmp(key, "enable_http2")) {
      /* blackbox 0.23 (prometheus/common's default true) offers h2 by
       * ALPN over TLS; false is HTTP/1.1 only. */
      if (as_bool(L, k, val, &b) == 0 && !b)
        set_opt(L, m, val, key, "http1.1", NULL);
    }
    else if (!strcmp(key, "enable_http3")) {
      /* blackbox_exporter 0.28: quic-go's HTTP/3 transport, which never
       * falls back to TCP, so --http3-only. */
      if (as_bool(L, k, val, &b) == 0 && b)
        set_opt(L, m, val, key, "http3-only", NULL);
    }
    else if (!strcmp(key, "fail_if_ssl")) {
      as_bool(L, k, val, &m->fail_if_ssl);
    }
    else if (!strcmp(key, "fail_if_not_ssl")) {
      as_bool(L, k, val, &m->fail_if_not_ssl);
    }
    else if (!strcmp(key, "fail_if_header_matches")) {
      header_checks(L, m, k, val, 0);
    }
    else if (!strcmp(key, "fail_if_header_not_matches")) {
      header_checks(L, m, k, val, 1);
    }
    else if (!strcmp(key, "tls_config")) {
      tls_config(L, m, val);
    }
    else if (!strcmp(key, "preferred_ip_protocol") && s &&
             (!strcmp(s, "ip4") || !strcmp(s, "ip6"))) {
      family = s;
      fam_at = val;
    }
    else if (!strcmp(key, "ip_protocol_fallback")) {
      as_bool(L, k, val, &fallback);
    }
    else if (!strcmp(key, "basic_auth")) {
      auth.basic = k;
      basic_auth(L, m, val);
    }
    else if (!strcmp(key, "bearer_token") && s) {
      auth.token = val;
    }
    else if (!strcmp(key, "bearer_token_file") && s) {
      auth.token_file = val;
    }
    else if (!strcmp(key, "authorization")) {
      auth.authz = val;
    }
    else if (!strcmp(key, "proxy_url") && s) {
      proxy_url(L, m, val);
    }
    else if (!strcmp(key, "skip_resolve_phase_with_proxy")) {
      as_bool(L, k, val, &m->opts.proxy_skip_resolve);
    }
    else if (!strcmp(key, "proxy_connect_header")) {
      proxy_header = k;
      proxy_headers(L, m, k, val);
    }
    else if (!strcmp(key, "body_size_limit")) {
      body_size(L, m, val);
    }
    else if (!strcmp(key, "compression") && s) {
      compression = val;
    }
    else if (!strcmp(key, "fail_if_body_matches_regexp")) {
      body_checks(L, m, k, val, 0);
    }
    else if (!strcmp(key, "fail_if_body_not_matches_regexp")) {
      body_checks(L, m, k, val, 1);
    }
    else if ((takes = http_takes(key)) != NULL) {
      complain(L, val, "'%s' takes %s", key, takes);
    }
    else {
      complain(L, k,
               "'%s' is not a key hopsplit serve honours in an http module "
               "(method, headers, body, valid_status_codes, "
               "valid_http_versions, follow_redirects, no_follow_redirects, "
               "enable_http2, enable_http3, "
               "fail_if_ssl, "
               "fail_if_not_ssl, fail_if_header_matches, "
               "fail_if_header_not_matches, fail_if_body_matches_regexp, "
               "fail_if_body_not_matches_regexp, tls_config, basic_auth, "
               "bearer_token, bearer_token_file, authorization, "
               "body_size_limit, compression, preferred_ip_protocol, "
               "ip_protocol_fallback, "
               "proxy_url, skip_resolve_phase_with_proxy, "
               "proxy_connect_header)",
               key);
    }
  }
  authorization(L, m, &auth);
  if (no_follow >= 0)
    follow = !no_follow;
  if (!follow)
    set_opt(L, m, follow_at, "follow_redirects", "no-follow", NULL);
  if (compression)
    compression_key(L, m, compression, accept);
  if (proxy_header && !m->opts.proxy)
    complain(L, proxy_header,
             "if proxy_connect_header is configured proxy_url must also be "
             "configured (as blackbox_exporter says)");
  /* Without server_name blackbox (0.23) names the module's Host header in
   * TLS, else the target's host. */
  if (!m->opts.tls_server_name && host && *host)
    m->opts.tls_server_name = xstrdup(host);
  /* A POST with a body is curl's -d (and Go's client): a 301, 302 or 303
   * turns it into a GET; another method is sent on every hop. */
  if (method && !(body && !strcmp(scalar(method), "POST")))
    set_opt(L, m, method, "method", "request", scalar(method));
  /* blackbox connects to one address: with the fallback it looks both
   * families up and takes the first of the preferred one, else the last
   * of the other; without, it looks the preferred family up only. */
  m->opts.ip_prefer = !strcmp(family, "ip4") ? 4 : 6;
  if (!fallback)
    set_opt(L, m, fam_at, "preferred_ip_protocol",
            m->opts.ip_prefer == 4 ? "ipv4" : "ipv6", NULL);
}

static void module(struct bb_loader *L, struct blackbox_module *m,
                   const yaml_node_t *v)
{
  yaml_node_pair_t *p;
  const char *prober = NULL;
  const yaml_node_t *http = NULL;

  if (v->type != YAML_MAPPING_NODE) {
    complain(L, v, "module '%s' takes a mapping", m->name);
    return;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(L, p->key), *val = node(L, p->value);
    const char *key = scalar(k);

    if (key && !strcmp(key, "prober"))
      prober = scalar(val);
    else if (key && !strcmp(key, "http"))
      http = val;
    else if (key && !strcmp(key, "timeout") && scalar(val)) {
      char err[256];

      if (units_parse_duration_unit(scalar(val), &m->timeout_us, err,
                                    sizeof(err)) < 0)
        complain(L, val, "'timeout': %s", err);
    }
  }
  if (!prober || strcmp(prober, "http")) {
    /* Its own block (tcp, dns, icmp, grpc) is that prober's. */
    m->unsupported =
        xasprintf("module '%s' uses prober '%s'; hopsplit serve probes http "
                  "only",
                  m->name, prober ? prober : "(none)");
    return;
  }
  for (p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
    yaml_node_t *k = node(L, p->key);
    const char *key = scalar(k);

    if (key && strcmp(key, "prober") && strcmp(key, "http") &&
        strcmp(key, "timeout"))
      complain(L, k,
               "'%s' is not a key of an http module (prober, timeout, "
               "http)",
               key);
  }
  if (http)
    http_block(L, m, http);
  if (m->timeout_us > 0) {
    m->opts.max_time_us = m->timeout_us;
    if (m->opts.connect_timeout_us > m->timeout_us)
      m->opts.connect_timeout_us = m->timeout_us;
  }
}

int blackbox_is_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  char line[512];
  int rc = 0;

  if (!f)
    return -1;
  /* A top-level "modules:" line: the YAML is blackbox's. */
  while (fgets(line, sizeof(line), f))
    if (!strncmp(line, "modules:", 8)) {
      rc = 1;
      break;
    }
  fclose(f);
  return rc;
}

/* What blackbox_exporter (Go's yaml.v3) refuses before it reads a key:
 * aliases that expand the file into itself or by more than
 * PROFILE_MAX_ALIAS_NODES nodes ("document contains excessive aliasing";
 * a few lines of aliases would otherwise make millions of modules or
 * regexps), and a key written twice in one mapping ("mapping key already
 * defined").  -1 when the file cannot be walked. */
static int bounds(struct bb_loader *L, const yaml_node_t *root)
{
  const yaml_node_t *cycle = NULL;
  yaml_node_t *n;
  int rc = pf_alias_walk(&L->doc, PROFILE_MAX_ALIAS_NODES, &cycle);

  if (rc < 0) {
    complain(L, cycle,
             "an alias refers to a node that contains it (the file would be "
             "infinite)");
    return -1;
  }
  if (rc > 0) {
    complain(L, root,
             "aliases expand the file by more than %d nodes (as "
             "blackbox_exporter, which refuses excessive aliasing)",
             PROFILE_MAX_ALIAS_NODES);
    return -1;
  }
  for (n = L->doc.nodes.start; n < L->doc.nodes.top; n++) {
    struct pf_map keys;
    yaml_node_pair_t *p;

    if (n->type != YAML_MAPPING_NODE)
      continue;
    memset(&keys, 0, sizeof(keys));
    for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
      const yaml_node_t *k = node(L, p->key);
      size_t *first;

      if (!scalar(k))
        continue;
      first = pf_map_find(&keys, scalar(k));
      if (!first)
        pf_map_put(&keys, scalar(k), k->start_mark.line + 1);
      else
        complain(L, k, "duplicate key '%s' (first at line %zu)", scalar(k),
                 *first);
    }
    pf_map_release(&keys);
  }
  return 0;
}

int blackbox_load(const char *path, const struct options *base,
                  struct blackbox_module **mods, size_t *n)
{
  struct bb_loader L;
  yaml_parser_t parser;
  yaml_node_t *root, *ms = NULL;
  yaml_node_pair_t *p;
  FILE *f;
  int rc = -1;

  *mods = NULL;
  *n = 0;
  memset(&L, 0, sizeof(L));
  L.path = path;
  f = fopen(path, "rb");
  if (!f)
    return msg_error("cannot read '%s'", path);
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_file(&parser, f);
  if (!yaml_parser_load(&parser, &L.doc)) {
    msg_error("%s:%lu:%lu: %s", path,
              (unsigned long)parser.problem_mark.line + 1,
              (unsigned long)parser.problem_mark.column + 1,
              parser.problem ? parser.problem : "not YAML");
    yaml_parser_delete(&parser);
    fclose(f);
    return -1;
  }
  root = yaml_document_get_root_node(&L.doc);
  if (!root) {
    /* No document at all (an empty file, or comments only). */
    msg_error("%s: empty: not a blackbox_exporter module file", path);
    goto out;
  }
  if (bounds(&L, root) < 0)
    goto out;
  for (p = root->type == YAML_MAPPING_NODE ? root->data.mapping.pairs.start
                                           : NULL;
       p && p < root->data.mapping.pairs.top; p++) {
    const char *key = scalar(node(&L, p->key));

    if (key && !strcmp(key, "modules"))
      ms = node(&L, p->value);
    else
      complain(&L, node(&L, p->key),
               "'%s' is not a key of a blackbox_exporter module file "
               "(modules)",
               key ? key : "?");
  }
  if (!ms || ms->type != YAML_MAPPING_NODE) {
    if (!L.bad)
      complain(&L, root,
               "no 'modules' mapping: not a blackbox_exporter module file");
    goto out;
  }
  for (p = ms->data.mapping.pairs.start; p < ms->data.mapping.pairs.top; p++) {
    const char *name = scalar(node(&L, p->key));
    struct blackbox_module *m;

    if (!name) {
      complain(&L, node(&L, p->key), "a module name must be a name");
      continue;
    }
    *mods = xrealloc(*mods, (*n + 1) * sizeof(**mods));
    m = &(*mods)[(*n)++];
    memset(m, 0, sizeof(*m));
    m->name = xstrdup(name);
    options_copy(&m->opts, base);
    module(&L, m, node(&L, p->value));
  }
  rc = L.bad ? -1 : 0;
out:
  yaml_document_delete(&L.doc);
  yaml_parser_delete(&parser);
  fclose(f);
  if (rc < 0) {
    blackbox_modules_free(*mods, *n);
    *mods = NULL;
    *n = 0;
  }
  return rc;
}

void blackbox_modules_free(struct blackbox_module *m, size_t n)
{
  size_t i, k;

  for (i = 0; i < n; i++) {
    free(m[i].name);
    free(m[i].unsupported);
    options_release(&m[i].opts);
    for (k = 0; k < m[i].n_headers; k++) {
      free(m[i].headers[k].header);
      free(m[i].headers[k].regexp);
    }
    free(m[i].headers);
    for (k = 0; k < m[i].n_bodies; k++)
      free(m[i].bodies[k].regexp);
    free(m[i].bodies);
    free(m[i].compression);
  }
  free(m);
}
