/*
 * url.c: URL parsing, reference resolution and origins through libcurl's
 * URL API (curl_url), so that a hop's URL is the one libcurl requests and
 * a Location is resolved as libcurl resolves it when it follows a
 * redirect itself; plus the command line's default scheme.  Input:
 * strings from argv, profiles and Location headers.  Output: struct url
 * or malloc'd strings.  No I/O.
 *
 * What libcurl's parser accepts and refuses is its own; this file adds the
 * checks that make a message name the part that is wrong (a control
 * character, a space, a missing scheme, an international name) and keeps
 * http and https to libcurl: other schemes (a Location to "ftp:" or
 * "javascript:") are only split, to be refused by url_scheme_allowed.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "msg.h"
#include "strutil.h"
#include "arraysize.h"
#include "url.h"
#include "url_int.h"
#include "xalloc.h"
#include "banned.h"

/* The flags libcurl 7.88 uses: parsing a transfer's URL (url.c,
 * parseurlandfillconn, less CURLU_GUESS_SCHEME: a target without a scheme
 * has "https://" put in front by url_normalize_arg) and following a
 * Location (transfer.c, Curl_follow). */
#define URL_PARSE_FLAGS  (CURLU_NON_SUPPORT_SCHEME)
#define URL_FOLLOW_FLAGS (CURLU_URLENCODE | CURLU_ALLOW_SPACE)

static int is_http_scheme(const char *s, size_t n)
{
  return (n == 4 && !strncasecmp(s, "http", 4)) ||
         (n == 5 && !strncasecmp(s, "https", 5));
}

static char *span_dup(const struct span *sp)
{
  return xstrndup(sp->p, sp->n);
}

static char *lower(char *s)
{
  size_t i;

  for (i = 0; s && s[i]; i++)
    s[i] = url_to_lower(s[i]);
  return s;
}

/* Reject control characters and spaces anywhere in s[0..n). */
static int check_chars(const char *s, size_t n, char *err, size_t errlen)
{
  size_t i;

  for (i = 0; i < n; i++) {
    if (url_is_ctl(s[i])) {
      msg_set(err, errlen, "control character in URL");
      return -1;
    }
    if (s[i] == ' ') {
      msg_set(err, errlen, "space in URL");
      return -1;
    }
  }
  return 0;
}

/* The "host[:port]" part of an authority: after the first '@', where
 * libcurl ends the user name. */
static struct span hostport_of(const struct span *auth)
{
  struct span hp = *auth;
  const char *at = memchr(auth->p, '@', auth->n);

  if (at) {
    hp.p = at + 1;
    hp.n = auth->n - (size_t)(at + 1 - auth->p);
  }
  return hp;
}

/* The port text of "host[:port]" or "[v6]:port"; n == 0 when none. */
static struct span port_of(const struct span *hp)
{
  struct span port = {hp->p + hp->n, 0, 0};
  const char *end = hp->p + hp->n, *s = hp->p, *c;

  if (hp->n && *s == '[') {
    const char *br = memchr(s, ']', hp->n);

    if (!br)
      return port;
    s = br;
  }
  c = memchr(s, ':', (size_t)(end - s));
  if (c) {
    port.p = c + 1;
    port.n = (size_t)(end - c - 1);
    port.set = 1;
  }
  return port;
}

/*
 * An international domain name: a byte >= 0x80 in the host, or one that
 * its percent-encoding decodes to.  The resolver is given the name as it
 * is, so hopsplit asks for the ASCII form instead of converting it.
 */
static int is_idn(const struct span *hp)
{
  size_t i;

  for (i = 0; i < hp->n && hp->p[i] != ':'; i++) {
    unsigned char c = (unsigned char)hp->p[i];

    if (c >= 0x80)
      return 1;
    if (c == '%' && i + 2 < hp->n && url_is_hex(hp->p[i + 1]) &&
        url_is_hex(hp->p[i + 2]) &&
        url_hex_val(hp->p[i + 1]) * 16 + url_hex_val(hp->p[i + 2]) >= 0x80)
      return 1;
  }
  return 0;
}

/* A message for libcurl's refusal rc of s, naming the part. */
static void parse_error(CURLUcode rc, const char *s, const struct parts *p,
                        char *err, size_t errlen)
{
  struct span hp = hostport_of(&p->auth), port = port_of(&hp);
  char *quote = url_redact(s);

  switch (rc) {
  case CURLUE_NO_HOST:
    msg_set(err, errlen, "missing host in '%s'", quote);
    break;
  case CURLUE_BAD_PORT_NUMBER:
    if (port.n)
      msg_set(err, errlen, "bad port '%.*s'", (int)port.n, port.p);
    else
      msg_set(err, errlen, "bad host '%.*s'", (int)hp.n, hp.p);
    break;
#if LIBCURL_VERSION_NUM >= 0x075100
  case CURLUE_BAD_IPV6:
    msg_set(err, errlen, "bad IPv6 address '%.*s'", (int)hp.n, hp.p);
    break;
  case CURLUE_BAD_HOSTNAME:
    msg_set(err, errlen, "bad host '%.*s'", (int)hp.n, hp.p);
    break;
  case CURLUE_BAD_LOGIN:
  case CURLUE_BAD_USER:
  case CURLUE_BAD_PASSWORD:
    msg_set(err, errlen, "bad user name or password in '%s'", quote);
    break;
#endif
  default:
    msg_set(err, errlen, "bad URL '%s': %s", quote, curl_url_strerror(rc));
    break;
  }
  free(quote);
}

/* A part of h, malloc'd by xstrdup (NULL when the URL has none). */
static char *part(CURLU *h, CURLUPart what, unsigned flags)
{
  char *v = NULL, *copy;

  if (curl_url_get(h, what, &v, flags) != CURLUE_OK || !v)
    return NULL;
  copy = xstrdup(v);
  curl_free(v);
  return copy;
}

/* Fill u from the http(s) URL libcurl parsed into h. */
static int fill_from_curl(struct url *u, CURLU *h, const struct parts *p,
                          char *err, size_t errlen)
{
  char *user, *pass, *host, *zone, *port;
  size_t hl;

  u->scheme = lower(part(h, CURLUPART_SCHEME, 0));
  host = part(h, CURLUPART_HOST, CURLU_URLDECODE);
  if (!u->scheme || !host || !*host) {
    free(host);
    msg_set(err, errlen, "missing host");
    return -1;
  }
  hl = strlen(host);
  if (host[0] == '[' && hl >= 2 && host[hl - 1] == ']') {
    u->ipv6 = 1;
    host[hl - 1] = '\0';
    memmove(host, host + 1, hl - 1);
  }
  zone = part(h, CURLUPART_ZONEID, 0);
  if (zone) {
    u->host = xasprintf("%s%%25%s", host, zone);
    free(host);
    free(zone);
  }
  else {
    u->host = host;
  }
  lower(u->host);
  if (!u->ipv6 && strchr(u->host, '%')) {
    /* libcurl decoded every valid escape: what is left is broken. */
    struct span hp = hostport_of(&p->auth);

    msg_set(err, errlen, "bad host '%.*s'", (int)hp.n, hp.p);
    return -1;
  }
  port = part(h, CURLUPART_PORT, 0);
  if (port) {
    char *end;
    long v = strtol(port, &end, 10);

    if (*end || v < 1 || v > 65535) {
      struct span hp = hostport_of(&p->auth), ps = port_of(&hp);

      msg_set(err, errlen, "bad port '%.*s'", (int)ps.n, ps.p);
      free(port);
      return -1;
    }
    u->port = (int)v;
    u->port_explicit = 1;
    free(port);
  }
  else {
    u->port = strcmp(u->scheme, "https") ? 80 : 443;
  }
  user = part(h, CURLUPART_USER, 0);
  pass = part(h, CURLUPART_PASSWORD, 0);
  if (user || pass)
    u->userinfo =
        pass ? xasprintf("%s:%s", user ? user : "", pass) : xstrdup(user);
  free(user);
  free(pass);
  u->path = part(h, CURLUPART_PATH, 0);
  if (!u->path || !*u->path) {
    free(u->path);
    u->path = xstrdup("/");
  }
  u->query = part(h, CURLUPART_QUERY, 0);
  u->fragment = part(h, CURLUPART_FRAGMENT, 0);
  return 0;
}

/* Another scheme: only split (host "" without an authority). */
static void fill_other(struct url *u, const struct parts *p)
{
  u->scheme = lower(span_dup(&p->scheme));
  u->port = -1;
  if (p->auth.set) {
    struct span hp = hostport_of(&p->auth), port = port_of(&hp);
    size_t hn = port.set ? (size_t)(port.p - 1 - hp.p) : hp.n;

    if (hp.p != p->auth.p)
      u->userinfo = xstrndup(p->auth.p, (size_t)(hp.p - p->auth.p) - 1);
    u->host = lower(xstrndup(hp.p, hn));
  }
  else {
    u->host = xstrdup("");
  }
  u->path = span_dup(&p->path);
  if (p->query.set)
    u->query = span_dup(&p->query);
  if (p->frag.set)
    u->fragment = span_dup(&p->frag);
}

int url_parse(struct url *u, const char *s, char *err, size_t errlen)
{
  struct parts p;
  char *quote = NULL; /* URLs in messages are redacted */
  CURLU *h = NULL;
  CURLUcode rc;
  size_t n;
  int ret = -1;

  memset(u, 0, sizeof(*u));
  if (!s || !*s) {
    msg_set(err, errlen, "empty URL");
    goto out;
  }
  n = strlen(s);
  if (n > URL_MAX_LEN) {
    msg_set(err, errlen, "URL longer than %d bytes", URL_MAX_LEN);
    goto out;
  }
  if (check_chars(s, n, err, errlen) < 0)
    goto out;
  url_parts_split(&p, s, n);
  if (!p.scheme.set) {
    quote = url_redact(s);
    msg_set(err, errlen, "missing scheme in '%s'", quote);
    goto out;
  }
  if (!is_http_scheme(p.scheme.p, p.scheme.n)) {
    fill_other(u, &p);
    ret = 0;
    goto out;
  }
  if (p.auth.set) {
    struct span hp = hostport_of(&p.auth);

    if (is_idn(&hp)) {
      struct span port = port_of(&hp);
      size_t hn = port.set ? (size_t)(port.p - 1 - hp.p) : hp.n;

      msg_set(err, errlen,
              "host '%.*s' is an international domain name: give its ASCII "
              "form (xn--...), hopsplit does not convert it",
              (int)hn, hp.p);
      goto out;
    }
  }
  if (!p.auth.set || !hostport_of(&p.auth).n) {
    quote = url_redact(s);
    msg_set(err, errlen, "missing host in '%s'", quote);
    goto out;
  }
  h = curl_url();
  if (!h) {
    /* A library returns what went wrong, never exits (issue 34). */
    msg_set(err, errlen, "out of memory parsing a URL");
    goto out;
  }
  rc = curl_url_set(h, CURLUPART_URL, s, URL_PARSE_FLAGS);
  if (rc != CURLUE_OK) {
    parse_error(rc, s, &p, err, errlen);
    goto out;
  }
  ret = fill_from_curl(u, h, &p, err, errlen);
out:
  if (ret < 0)
    url_release(u);
  curl_url_cleanup(h);
  free(quote);
  return ret;
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

/* Strip whitespace around ref, as libcurl's header parser does before it
 * follows; a control character inside is refused.  Returns a malloc'd
 * string or NULL with a message. */
static char *clean_ref(const char *ref, char *err, size_t errlen)
{
  const char *end;
  size_t i;

  while (url_is_ws(*ref))
    ref++;
  end = ref + strlen(ref);
  while (end > ref && url_is_ws(end[-1]))
    end--;
  if ((size_t)(end - ref) > URL_MAX_LEN) {
    msg_set(err, errlen, "location longer than %d bytes", URL_MAX_LEN);
    return NULL;
  }
  for (i = 0; ref + i < end; i++) {
    if (url_is_ctl(ref[i])) {
      msg_set(err, errlen, "control character in location");
      return NULL;
    }
  }
  return xstrndup(ref, (size_t)(end - ref));
}

char *url_resolve(const char *base, const char *ref, char *err, size_t errlen)
{
  struct parts b;
  char *cref = NULL, *res = NULL, *quote = NULL, *v = NULL;
  CURLU *h = NULL;
  CURLUcode rc;
  size_t bn, sl;

  if (!base || !ref) {
    msg_set(err, errlen, "missing URL");
    goto out;
  }
  bn = strlen(base);
  if (bn > URL_MAX_LEN) {
    msg_set(err, errlen, "URL longer than %d bytes", URL_MAX_LEN);
    goto out;
  }
  if (check_chars(base, bn, err, errlen) < 0)
    goto out;
  cref = clean_ref(ref, err, errlen);
  if (!cref)
    goto out;
  url_parts_split(&b, base, bn);
  if (!*cref && b.scheme.set) {
    /* An empty reference is the base without its fragment (RFC 3986
     * 5.2.2); libcurl does not follow an empty Location at all. */
    res = xstrndup(base, b.frag.set ? (size_t)(b.frag.p - 1 - base) : bn);
    goto out;
  }
  if (!b.scheme.set) {
    quote = url_redact(base);
    msg_set(err, errlen, "base URL '%s' has no scheme", quote);
    goto out;
  }
  /* A scheme in ref always wins (RFC 3986 5.2.2, strict); one that is
   * not http or https is kept as written, for url_scheme_allowed to
   * refuse by name. */
  sl = url_scheme_len(cref, strlen(cref));
  if (sl && !is_http_scheme(cref, sl)) {
    size_t i;

    res = xstrdup(cref);
    for (i = 0; i < sl; i++)
      res[i] = url_to_lower(res[i]);
    goto out;
  }
  h = curl_url();
  if (!h) {
    msg_set(err, errlen, "out of memory resolving a URL");
    goto out;
  }
  rc = curl_url_set(h, CURLUPART_URL, base, URL_PARSE_FLAGS);
  if (rc == CURLUE_OK)
    rc = curl_url_set(h, CURLUPART_URL, cref, URL_FOLLOW_FLAGS);
  if (rc == CURLUE_OK)
    rc = curl_url_get(h, CURLUPART_URL, &v, 0);
  if (rc != CURLUE_OK) {
    quote = url_redact(cref);
    msg_set(err, errlen, "bad location '%s': %s", quote,
            curl_url_strerror(rc));
    goto out;
  }
  if (strlen(v) > URL_MAX_LEN) {
    msg_set(err, errlen, "resolved URL longer than %d bytes", URL_MAX_LEN);
    goto out;
  }
  res = xstrdup(v);
out:
  curl_free(v);
  curl_url_cleanup(h);
  free(cref);
  free(quote);
  return res;
}

/*
 * The part of url that curl 8.1's -w variables url.NAME and urle.NAME
 * print (curl's tool_writeout.c): the URL set with CURLU_GUESS_SCHEME and
 * CURLU_NON_SUPPORT_SCHEME, the part got with CURLU_DEFAULT_PORT, so the
 * port is the scheme's default when the URL names none, the host of an
 * IPv6 literal keeps its brackets and nothing is decoded.
 */
char *url_curl_part(const char *url, const char *name)
{
  static const struct {
    const char *name;
    CURLUPart part;
  } parts[] = {
      {"scheme", CURLUPART_SCHEME},     {"user", CURLUPART_USER},
      {"password", CURLUPART_PASSWORD}, {"options", CURLUPART_OPTIONS},
      {"host", CURLUPART_HOST},         {"port", CURLUPART_PORT},
      {"path", CURLUPART_PATH},         {"query", CURLUPART_QUERY},
      {"fragment", CURLUPART_FRAGMENT}, {"zoneid", CURLUPART_ZONEID},
  };
  CURLU *h;
  char *v = NULL;
  size_t i;

  for (i = 0; i < ARRAY_SIZE(parts); i++)
    if (!strcmp(parts[i].name, name))
      break;
  if (i == ARRAY_SIZE(parts) || !url)
    return NULL;
  h = curl_url();
  if (!h)
    return NULL;
  if (curl_url_set(h, CURLUPART_URL, url,
                   CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK)
    v = part(h, parts[i].part, CURLU_DEFAULT_PORT);
  curl_url_cleanup(h);
  return v;
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
  size_t n = strlen(arg), sl = url_scheme_len(arg, n);

  if (sl && !strncmp(arg + sl, "://", 3))
    return xstrdup(arg);
  return xasprintf("https://%s", arg);
}

int url_scheme_allowed(const char *url)
{
  size_t sl;

  if (!url)
    return 0;
  sl = url_scheme_len(url, strlen(url));
  return sl && is_http_scheme(url, sl);
}

/*
 * A scheme typed wrong: "http//x.test/", "https:/x.test", "htps://x.test",
 * "http:x.test".  Without this, "http//x.test/" is host "http", a DNS
 * query for a typo.  Writes the URL that was meant into fix and returns
 * 1; 0 when arg does not look like one.
 */
static int scheme_typo(const char *arg, char *fix, size_t len)
{
  static const char *const schemes[] = {"http", "https"};
  size_t w = 0, i;
  const char *rest, *best = NULL;
  size_t bd = (size_t)-1;
  char word[16];

  while (w < sizeof(word) - 1 && ((arg[w] >= 'a' && arg[w] <= 'z') ||
                                  (arg[w] >= 'A' && arg[w] <= 'Z')))
    w++;
  if (w < 3 || w >= sizeof(word) - 1)
    return 0;
  memcpy(word, arg, w);
  word[w] = '\0';
  for (i = 0; i < 2; i++) {
    size_t d = str_edit_distance(word, schemes[i]);

    if (d < bd) {
      bd = d;
      best = schemes[i];
    }
  }
  rest = arg + w;
  if (!strncmp(rest, "://", 3)) {
    /* A known scheme is fine; a near miss of one is a typo. */
    if (bd == 0 || bd > 1)
      return 0;
  }
  else if (!strncmp(rest, "//", 2) || !strncmp(rest, ":/", 2) ||
           (rest[0] == ':' && !(rest[1] >= '0' && rest[1] <= '9'))) {
    /* "http//x", "http:/x", "http:x" (not "host:8080"). */
    if (bd > 1)
      return 0;
  }
  else {
    return 0;
  }
  while (*rest == ':' || *rest == '/')
    rest++;
  if (!*rest)
    return 0;
  snprintf(fix, len, "%s://%s", best, rest);
  return 1;
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
  else if (scheme_typo(arg, err, sizeof(err))) {
    char *fixed = url_redact(err);

    snprintf(msg, len,
             "URL '%s': the scheme is mistyped (did you mean "
             "'%s'?)",
             shown, fixed);
    free(fixed);
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
