/*
 * url.c: URL parsing, reference resolution (RFC 3986), origins, the
 * command-line default scheme and credential redaction.  Input: strings
 * from argv, profiles and Location headers.  Output: struct url or
 * malloc'd strings.  Pure: no I/O, no library types.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/* A slice of a string; set distinguishes "absent" from "empty". */
struct span {
  const char *p;
  size_t n;
  int set;
};

/* The five components of RFC 3986 Appendix B, as slices of one string. */
struct parts {
  struct span scheme;
  struct span auth;
  struct span path;
  struct span query;
  struct span frag;
};

static void seterr(char *err, size_t errlen, const char *fmt, ...)
    MSG_PRINTF(3, 4);

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;

  if (!err || !errlen)
    return;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

static int is_alpha(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
  return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int hex_val(char c)
{
  if (is_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return c - 'A' + 10;
}

static char to_lower(char c)
{
  if (c >= 'A' && c <= 'Z')
    return (char)(c - 'A' + 'a');
  return c;
}

static int is_ctl(char c)
{
  unsigned char u = (unsigned char)c;

  return u < 0x20 || u == 0x7f;
}

static int is_ws(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
         c == '\v';
}

static char *span_dup(const struct span *sp)
{
  return xstrndup(sp->p, sp->n);
}

static char *span_dup_lower(const struct span *sp)
{
  char *s = span_dup(sp);
  size_t i;

  for (i = 0; s[i]; i++)
    s[i] = to_lower(s[i]);
  return s;
}

/*
 * Length of the scheme at the start of s (RFC 3986 3.1: ALPHA *( ALPHA /
 * DIGIT / "+" / "-" / "." ) followed by ':'), or 0 if s has none.  A
 * string such as "1x:y" has no scheme and is a relative reference.
 */
static size_t scheme_len(const char *s, size_t n)
{
  size_t i;

  if (!n || !is_alpha(s[0]))
    return 0;
  for (i = 1; i < n; i++) {
    char c = s[i];

    if (c == ':')
      return i;
    if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.')
      return 0;
  }
  return 0;
}

/* Split s[0..n) into its components; never fails (RFC 3986 App. B). */
static void parts_split(struct parts *p, const char *s, size_t n)
{
  size_t i = 0, start, sl;

  memset(p, 0, sizeof(*p));
  sl = scheme_len(s, n);
  if (sl) {
    p->scheme.p = s;
    p->scheme.n = sl;
    p->scheme.set = 1;
    i = sl + 1;
  }
  if (n - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
    i += 2;
    start = i;
    while (i < n && s[i] != '/' && s[i] != '?' && s[i] != '#')
      i++;
    p->auth.p = s + start;
    p->auth.n = i - start;
    p->auth.set = 1;
  }
  start = i;
  while (i < n && s[i] != '?' && s[i] != '#')
    i++;
  p->path.p = s + start;
  p->path.n = i - start;
  p->path.set = 1;
  if (i < n && s[i] == '?') {
    start = ++i;
    while (i < n && s[i] != '#')
      i++;
    p->query.p = s + start;
    p->query.n = i - start;
    p->query.set = 1;
  }
  if (i < n && s[i] == '#') {
    start = ++i;
    p->frag.p = s + start;
    p->frag.n = n - start;
    p->frag.set = 1;
  }
}

static int span_is(const struct span *sp, const char *lit)
{
  size_t n = strlen(lit);

  return sp->set && sp->n == n && !strncasecmp(sp->p, lit, n);
}

static int default_port(const char *scheme)
{
  if (!strcmp(scheme, "http"))
    return 80;
  if (!strcmp(scheme, "https"))
    return 443;
  return -1;
}

/* reg-name characters: unreserved, pct-encoded, sub-delims (RFC 3986
 * 3.2.2).  Bytes >= 0x80 (an international domain name) are refused by
 * the caller with their own message: neither the resolver nor libcurl
 * converts them to their ASCII form. */
static int is_regname_char(char c)
{
  if (is_alpha(c) || is_digit(c))
    return 1;
  return c != '\0' && strchr("-._~%!$&'()*+,;=", c) != NULL;
}

/* The inside of "[...]": hex digits, ':' and '.' (embedded IPv4), with at
 * least one ':', optionally followed by a zone "%25..." (RFC 6874). */
static int valid_ipv6(const char *s, size_t n)
{
  size_t i, colons = 0;

  for (i = 0; i < n; i++) {
    if (s[i] == '%')
      break;
    if (s[i] == ':')
      colons++;
    else if (!is_hex(s[i]) && s[i] != '.')
      return 0;
  }
  if (colons < 2)
    return 0;
  if (i < n) {
    /* Zone identifier: "%25" then at least one unreserved or pct char. */
    if (n - i < 4 || strncmp(s + i, "%25", 3))
      return 0;
    for (i += 3; i < n; i++)
      if (!is_alpha(s[i]) && !is_digit(s[i]) && !strchr("-._~%", s[i]))
        return 0;
  }
  return 1;
}

/* An international domain name in the host of "host[:port]" s[0..n). */
static int idn_error(const char *s, size_t n, char *err, size_t errlen)
{
  const char *colon = memchr(s, ':', n);

  seterr(err, errlen,
         "host '%.*s' is an international domain name: give its ASCII form "
         "(xn--...), hopsplit does not convert it",
         (int)(colon ? (size_t)(colon - s) : n), s);
  return -1;
}

/* Decode the percent-encoding of a reg-name in place, as libcurl does
 * before it connects, so that the name looked up is the name libcurl
 * uses.  -1 when an escape is broken or decodes to a byte that is not a
 * reg-name character; then host[0] is 0x80 if that byte was non-ASCII
 * (an encoded international name), else 0. */
static int decode_host(char *host)
{
  char *r = host, *w = host;

  while (*r) {
    char c = *r;

    if (c == '%') {
      if (!is_hex(r[1]) || !is_hex(r[2])) {
        host[0] = '\0';
        return -1;
      }
      c = (char)(hex_val(r[1]) * 16 + hex_val(r[2]));
      r += 3;
      if ((unsigned char)c >= 0x80 || c == '%' || !is_regname_char(c)) {
        host[0] = (unsigned char)c >= 0x80 ? '\x80' : '\0';
        return -1;
      }
    }
    else
      r++;
    *w++ = c;
  }
  *w = '\0';
  return 0;
}

/* Parse "host[:port]" of an authority (userinfo already removed). */
static int parse_hostport(struct url *u, const char *s, size_t n, char *err,
                          size_t errlen)
{
  size_t i, hl;
  const char *port;
  size_t pl;
  long v = 0;

  if (n && s[0] == '[') {
    const char *end = memchr(s, ']', n);

    if (!end || !valid_ipv6(s + 1, (size_t)(end - s) - 1)) {
      seterr(err, errlen, "bad IPv6 address '%.*s'", (int)n, s);
      return -1;
    }
    hl = (size_t)(end - s) - 1;
    u->host = xstrndup(s + 1, hl);
    u->ipv6 = 1;
    i = (size_t)(end - s) + 1;
    if (i < n && s[i] != ':') {
      seterr(err, errlen, "bad host '%.*s'", (int)n, s);
      return -1;
    }
  }
  else {
    for (i = 0; i < n && s[i] != ':'; i++) {
      if ((unsigned char)s[i] >= 0x80)
        return idn_error(s, n, err, errlen);
      if (!is_regname_char(s[i])) {
        seterr(err, errlen, "bad host '%.*s'", (int)n, s);
        return -1;
      }
    }
    u->host = xstrndup(s, i);
    if (memchr(u->host, '%', i) && decode_host(u->host) < 0) {
      int idn = u->host[0] == '\x80';

      free(u->host);
      u->host = NULL;
      if (idn)
        return idn_error(s, n, err, errlen);
      seterr(err, errlen, "bad host '%.*s'", (int)n, s);
      return -1;
    }
  }
  for (hl = 0; u->host[hl]; hl++)
    u->host[hl] = to_lower(u->host[hl]);

  if (i >= n)
    return 0;
  /* s[i] == ':'; an empty port means the default (RFC 3986 3.2.3). */
  port = s + i + 1;
  pl = n - i - 1;
  if (!pl)
    return 0;
  for (i = 0; i < pl; i++) {
    if (!is_digit(port[i]) || v > 65535) {
      v = -1;
      break;
    }
    v = v * 10 + (port[i] - '0');
  }
  if (v < 1 || v > 65535) {
    seterr(err, errlen, "bad port '%.*s'", (int)pl, port);
    return -1;
  }
  u->port = (int)v;
  u->port_explicit = 1;
  return 0;
}

/* Reject control characters and spaces anywhere in s[0..n). */
static int check_chars(const char *s, size_t n, char *err, size_t errlen)
{
  size_t i;

  for (i = 0; i < n; i++) {
    if (is_ctl(s[i])) {
      seterr(err, errlen, "control character in URL");
      return -1;
    }
    if (s[i] == ' ') {
      seterr(err, errlen, "space in URL");
      return -1;
    }
  }
  return 0;
}

int url_parse(struct url *u, const char *s, char *err, size_t errlen)
{
  struct parts p;
  char *quote = NULL; /* URLs in messages are redacted (SPEC 7) */
  size_t n;
  int rc = -1, is_http;

  memset(u, 0, sizeof(*u));
  if (!s || !*s) {
    seterr(err, errlen, "empty URL");
    goto out;
  }
  n = strlen(s);
  if (n > URL_MAX_LEN) {
    seterr(err, errlen, "URL longer than %d bytes", URL_MAX_LEN);
    goto out;
  }
  if (check_chars(s, n, err, errlen) < 0)
    goto out;
  parts_split(&p, s, n);
  if (!p.scheme.set) {
    quote = url_redact(s);
    seterr(err, errlen, "missing scheme in '%s'", quote);
    goto out;
  }
  u->scheme = span_dup_lower(&p.scheme);
  is_http = !strcmp(u->scheme, "http") || !strcmp(u->scheme, "https");
  u->port = default_port(u->scheme);
  if (p.auth.set) {
    const char *a = p.auth.p, *hp = a;
    size_t i;

    /* The userinfo ends at the last '@' of the authority. */
    for (i = 0; i < p.auth.n; i++)
      if (a[i] == '@')
        hp = a + i + 1;
    if (hp != a)
      u->userinfo = xstrndup(a, (size_t)(hp - a) - 1);
    if (parse_hostport(u, hp, p.auth.n - (size_t)(hp - a), err, errlen) < 0)
      goto out;
  }
  else {
    u->host = xstrdup("");
  }
  if (is_http && !*u->host) {
    quote = url_redact(s);
    seterr(err, errlen, "missing host in '%s'", quote);
    goto out;
  }
  if (is_http && !p.path.n)
    u->path = xstrdup("/");
  else
    u->path = span_dup(&p.path);
  if (p.query.set)
    u->query = span_dup(&p.query);
  if (p.frag.set)
    u->fragment = span_dup(&p.frag);
  rc = 0;
out:
  if (rc < 0)
    url_release(u);
  free(quote);
  return rc;
}

void url_release(struct url *u)
{
  free(u->scheme);
  free(u->userinfo);
  free(u->host);
  free(u->path);
  free(u->query);
  free(u->fragment);
  memset(u, 0, sizeof(*u));
}

/*
 * RFC 3986 5.2.4 remove_dot_segments on s[0..n); the result is appended to
 * out.  It works on a copy: the input shrinks from the front, and the
 * steps that replace a prefix with "/" overwrite the last byte of that
 * prefix.  The output never grows longer than the input.
 */
static void remove_dot_segments(struct buf *out, const char *s, size_t n)
{
  char *copy = xstrndup(s, n), *in = copy;
  char *o = xmalloc(n + 1);
  size_t olen = 0;

  while (*in) {
    if (!strncmp(in, "../", 3)) {
      in += 3; /* A */
    }
    else if (!strncmp(in, "./", 2)) {
      in += 2; /* A */
    }
    else if (!strncmp(in, "/./", 3)) {
      in += 2; /* B */
    }
    else if (!strcmp(in, "/.")) {
      in += 1; /* B: "/." becomes "/" */
      *in = '/';
    }
    else if (!strncmp(in, "/../", 4) || !strcmp(in, "/..")) {
      /* C: drop the last output segment and its preceding '/'. */
      if (in[3] == '/') {
        in += 3;
      }
      else {
        in += 2;
        *in = '/';
      }
      while (olen && o[olen - 1] != '/')
        olen--;
      if (olen)
        olen--;
    }
    else if (!strcmp(in, ".") || !strcmp(in, "..")) {
      in += strlen(in); /* D */
    }
    else {
      /* E: move the first segment, with its leading '/', to the output. */
      size_t seg = *in == '/' ? 1 + strcspn(in + 1, "/") : strcspn(in, "/");

      memcpy(o + olen, in, seg);
      olen += seg;
      in += seg;
    }
  }
  buf_add(out, o, olen);
  free(o);
  free(copy);
}

/* Strip whitespace around ref and turn inner spaces into %20.  Returns a
 * malloc'd string or NULL with a message. */
static char *clean_ref(const char *ref, char *err, size_t errlen)
{
  const char *end;
  struct buf b;

  while (is_ws(*ref))
    ref++;
  end = ref + strlen(ref);
  while (end > ref && is_ws(end[-1]))
    end--;
  if ((size_t)(end - ref) > URL_MAX_LEN) {
    seterr(err, errlen, "location longer than %d bytes", URL_MAX_LEN);
    return NULL;
  }
  buf_init(&b, 0);
  for (; ref < end; ref++) {
    if (is_ctl(*ref)) {
      buf_release(&b);
      seterr(err, errlen, "control character in location");
      return NULL;
    }
    if (*ref == ' ')
      buf_puts(&b, "%20");
    else
      buf_putc(&b, *ref);
  }
  return buf_detach(&b);
}

char *url_resolve(const char *base, const char *ref, char *err, size_t errlen)
{
  struct parts b, r;
  const struct span *auth, *query;
  char *cref = NULL, *res = NULL, *quote = NULL;
  struct buf t;
  size_t bn;

  buf_init(&t, URL_MAX_LEN);
  if (!base || !ref) {
    seterr(err, errlen, "missing URL");
    goto out;
  }
  bn = strlen(base);
  if (bn > URL_MAX_LEN) {
    seterr(err, errlen, "URL longer than %d bytes", URL_MAX_LEN);
    goto out;
  }
  if (check_chars(base, bn, err, errlen) < 0)
    goto out;
  cref = clean_ref(ref, err, errlen);
  if (!cref)
    goto out;
  parts_split(&b, base, bn);
  parts_split(&r, cref, strlen(cref));
  if (!b.scheme.set) {
    quote = url_redact(base);
    seterr(err, errlen, "base URL '%s' has no scheme", quote);
    goto out;
  }

  /* RFC 3986 5.2.2, strict: a scheme in ref always wins.  The scheme is
   * lowercased so later comparisons need not care. */
  {
    struct span sch = r.scheme.set ? r.scheme : b.scheme;
    size_t i;

    for (i = 0; i < sch.n; i++)
      buf_putc(&t, to_lower(sch.p[i]));
    buf_putc(&t, ':');
  }
  if (r.scheme.set || r.auth.set) {
    auth = &r.auth;
    query = &r.query;
  }
  else {
    auth = &b.auth;
    query = (r.path.n || r.query.set) ? &r.query : &b.query;
  }
  if (auth->set) {
    buf_puts(&t, "//");
    buf_add(&t, auth->p, auth->n);
  }
  if (r.scheme.set || r.auth.set || (r.path.n && r.path.p[0] == '/')) {
    remove_dot_segments(&t, r.path.p, r.path.n);
  }
  else if (!r.path.n) {
    buf_add(&t, b.path.p, b.path.n);
  }
  else {
    /* 5.2.3 merge, then remove_dot_segments on the merged path. */
    struct buf m;
    size_t keep = b.path.n;

    buf_init(&m, 0);
    if (b.auth.set && !b.path.n) {
      buf_putc(&m, '/');
    }
    else {
      while (keep && b.path.p[keep - 1] != '/')
        keep--;
      buf_add(&m, b.path.p, keep);
    }
    buf_add(&m, r.path.p, r.path.n);
    remove_dot_segments(&t, m.s, m.len);
    buf_release(&m);
  }
  if (query->set) {
    buf_putc(&t, '?');
    buf_add(&t, query->p, query->n);
  }
  if (r.frag.set) {
    buf_putc(&t, '#');
    buf_add(&t, r.frag.p, r.frag.n);
  }
  if (t.truncated) {
    seterr(err, errlen, "resolved URL longer than %d bytes", URL_MAX_LEN);
    goto out;
  }
  res = buf_detach(&t);
out:
  buf_release(&t);
  free(cref);
  free(quote);
  return res;
}

char *url_origin(const char *url)
{
  struct url u;
  char *o;

  if (url_parse(&u, url, NULL, 0) < 0)
    return NULL;
  if (u.port < 0)
    o = xasprintf("%s://%s%s%s", u.scheme, u.ipv6 ? "[" : "", u.host,
                  u.ipv6 ? "]" : "");
  else
    o = xasprintf("%s://%s%s%s:%d", u.scheme, u.ipv6 ? "[" : "", u.host,
                  u.ipv6 ? "]" : "", u.port);
  url_release(&u);
  return o;
}

int url_same_origin(const char *a, const char *b)
{
  char *oa = url_origin(a), *ob = url_origin(b);
  int same = oa && ob && !strcmp(oa, ob);

  free(oa);
  free(ob);
  return same;
}

char *url_normalize_arg(const char *arg)
{
  size_t n = strlen(arg), sl = scheme_len(arg, n);

  if (sl && !strncmp(arg + sl, "://", 3))
    return xstrdup(arg);
  return xasprintf("https://%s", arg);
}

int url_scheme_allowed(const char *url)
{
  struct parts p;

  if (!url)
    return 0;
  parts_split(&p, url, strlen(url));
  return span_is(&p.scheme, "http") || span_is(&p.scheme, "https");
}

/* Credential-like parameter names; see url.h for the rule. */
static const char *const cred_exact[] = {"sig",
                                         "signature",
                                         "token",
                                         "key",
                                         "secret",
                                         "password",
                                         "passwd",
                                         "pass",
                                         "pwd",
                                         "passphrase",
                                         "credential",
                                         "auth",
                                         "authorization",
                                         "jwt",
                                         "apikey",
                                         "api_key",
                                         "access_token",
                                         "id_token",
                                         "refresh_token",
                                         "client_secret",
                                         "x-amz-signature",
                                         "x-amz-credential",
                                         "x-amz-security-token",
                                         "x-goog-signature",
                                         "x-goog-credential"};
static const char *const cred_parts[] = {"token", "secret", "signature",
                                         "password", "credential"};

static int ends_with(const char *s, size_t n, const char *suffix)
{
  size_t sn = strlen(suffix);

  return n >= sn && !memcmp(s + n - sn, suffix, sn);
}

static int is_cred_name(const char *name, size_t n)
{
  char *low = xmalloc(n + 1);
  size_t i, j = 0;
  int hit = 0;

  /* Percent-decode and lowercase, so "X%2DAmz%2DSignature" matches. */
  for (i = 0; i < n; i++) {
    if (name[i] == '%' && i + 2 < n && is_hex(name[i + 1]) &&
        is_hex(name[i + 2])) {
      low[j++] =
          to_lower((char)(hex_val(name[i + 1]) * 16 + hex_val(name[i + 2])));
      i += 2;
    }
    else
      low[j++] = to_lower(name[i]);
  }
  low[j] = '\0';
  for (i = 0; !hit && i < sizeof(cred_exact) / sizeof(cred_exact[0]); i++)
    hit = j == strlen(cred_exact[i]) && !memcmp(low, cred_exact[i], j);
  for (i = 0; !hit && i < sizeof(cred_parts) / sizeof(cred_parts[0]); i++)
    hit = strstr(low, cred_parts[i]) != NULL;
  if (!hit)
    hit = ends_with(low, j, "key") || ends_with(low, j, "_sig");
  free(low);
  return hit;
}

int url_name_is_credential(const char *name)
{
  return is_cred_name(name, strlen(name));
}

char *url_redact_header(const char *line)
{
  const char *colon = strchr(line, ':');
  char *name;
  int secret;

  if (!colon)
    return xstrdup(line);
  name = xstrndup(line, (size_t)(colon - line));
  secret = !strcasecmp(name, "cookie") || !strcasecmp(name, "set-cookie") ||
           !strcasecmp(name, "proxy-authorization") ||
           url_name_is_credential(name);
  free(name);
  if (!secret)
    return xstrdup(line);
  return xasprintf("%.*s: REDACTED", (int)(colon - line), line);
}

/* Append "a=b&c=d" to out with credential values replaced. */
static void redact_params(struct buf *out, const char *s, size_t n)
{
  size_t i = 0;

  while (i <= n) {
    size_t end = i, eq;

    while (end < n && s[end] != '&')
      end++;
    eq = i;
    while (eq < end && s[eq] != '=')
      eq++;
    if (eq + 1 < end && is_cred_name(s + i, eq - i)) {
      buf_add(out, s + i, eq - i + 1);
      buf_puts(out, "REDACTED");
    }
    else {
      buf_add(out, s + i, end - i);
    }
    if (end < n)
      buf_putc(out, '&');
    i = end + 1;
  }
}

char *url_redact(const char *url)
{
  struct parts p;
  struct buf b;
  parts_split(&p, url, strlen(url));
  buf_init(&b, 0);
  if (p.auth.set) {
    const char *a = p.auth.p, *at = NULL, *colon;
    size_t i;

    for (i = 0; i < p.auth.n; i++)
      if (a[i] == '@')
        at = a + i;
    colon = at ? memchr(a, ':', (size_t)(at - a)) : NULL;
    if (colon && colon + 1 < at) {
      buf_add(&b, url, (size_t)(colon + 1 - url));
      buf_puts(&b, "REDACTED");
      buf_add(&b, at, (size_t)(p.path.p - at));
    }
    else {
      buf_add(&b, url, (size_t)(p.path.p - url));
    }
  }
  else {
    buf_add(&b, url, (size_t)(p.path.p - url));
  }
  buf_add(&b, p.path.p, p.path.n);
  if (p.query.set) {
    buf_putc(&b, '?');
    redact_params(&b, p.query.p, p.query.n);
  }
  if (p.frag.set) {
    buf_putc(&b, '#');
    redact_params(&b, p.frag.p, p.frag.n);
  }
  return buf_detach(&b);
}

int url_target_problem(const char *arg, char *msg, size_t len)
{
  struct url u;
  char err[256];
  char *url = url_normalize_arg(arg);
  char *shown = url_redact(arg);
  int rc = 0;

  memset(&u, 0, sizeof(u));
  if (!*arg) {
    snprintf(msg, len, "empty URL");
    rc = -1;
  }
  else if (url_parse(&u, url, err, sizeof(err)) < 0) {
    snprintf(msg, len, "URL '%s': %s", shown, err);
    rc = -1;
  }
  else if (!url_scheme_allowed(url)) {
    snprintf(msg, len,
             "URL '%s': scheme '%s' is not supported (only http and https)",
             shown, u.scheme ? u.scheme : "");
    rc = -1;
  }
  free(shown);
  free(url);
  url_release(&u);
  return rc;
}
