/*
 * redact.c: credentials out of URLs and header lines before they are
 * printed (hopsplit(1) Redaction; the rule in url.h).  Any string is accepted,
 * also a relative or broken reference: it is split by RFC 3986 Appendix B, not
 * parsed.  Pure.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arraysize.h"
#include "buf.h"
#include "url.h"
#include "url_int.h"
#include "xalloc.h"
#include "banned.h"

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
                                         "code",
                                         "otp",
                                         "ticket",
                                         "session",
                                         "sid",
                                         "sessionid",
                                         "session_id",
                                         "jsessionid",
                                         "phpsessid",
                                         "aspsessionid",
                                         "hmac",
                                         "md5",
                                         "hdnts",
                                         "hdnea",
                                         "__hdnea__",
                                         "__hdnts__",
                                         "policy",
                                         "key-pair-id",
                                         "awsaccesskeyid",
                                         "googleaccessid",
                                         "x-amz-signature",
                                         "x-amz-credential",
                                         "x-amz-security-token",
                                         "x-goog-signature",
                                         "x-goog-credential"};
static const char *const cred_parts[] = {"token",    "secret",     "signature",
                                         "password", "credential", "session",
                                         "sessid",   "hmac",       "passwd"};
/* Words (split at what is not a letter or digit, and before an upper-case
 * letter after a lower-case one) that make any name credential-like. */
static const char *const cred_words[] = {"sig", "auth", "key", "pass",  "pwd",
                                         "jwt", "otp",  "sid", "apikey"};

static int ends_with(const char *s, size_t n, const char *suffix)
{
  size_t sn = strlen(suffix);

  return n >= sn && !memcmp(s + n - sn, suffix, sn);
}

static int is_alnum(char c)
{
  return url_is_alpha(c) || url_is_digit(c);
}

/* Whether one of the words of name (as written, before lowercasing) is in
 * cred_words. */
static int has_cred_word(const char *name, size_t n)
{
  size_t i = 0, k;

  while (i < n) {
    size_t start, len;

    while (i < n && !is_alnum(name[i]))
      i++;
    start = i;
    while (i < n && is_alnum(name[i])) {
      i++;
      if (i < n && name[i] >= 'A' && name[i] <= 'Z' && name[i - 1] >= 'a' &&
          name[i - 1] <= 'z')
        break;
    }
    len = i - start;
    for (k = 0; len && k < ARRAY_SIZE(cred_words); k++)
      if (strlen(cred_words[k]) == len &&
          !strncasecmp(name + start, cred_words[k], len))
        return 1;
  }
  return 0;
}

static int is_cred_name(const char *name, size_t n)
{
  /* On the stack when short (every header name of a rendered line). */
  char low_s[128], orig_s[128];
  char *low = n < sizeof(low_s) ? low_s : xmalloc(n + 1);
  char *orig = n < sizeof(orig_s) ? orig_s : xmalloc(n + 1);
  size_t i, j = 0;
  int hit = 0;

  /* Percent-decode (orig) and lowercase (low), so "X%2DAmz%2DSignature"
   * matches. */
  for (i = 0; i < n; i++) {
    char c = name[i];

    if (name[i] == '%' && i + 2 < n && url_is_hex(name[i + 1]) &&
        url_is_hex(name[i + 2])) {
      c = (char)(url_hex_val(name[i + 1]) * 16 + url_hex_val(name[i + 2]));
      i += 2;
    }
    orig[j] = c;
    low[j++] = url_to_lower(c);
  }
  low[j] = orig[j] = '\0';
  for (i = 0; !hit && i < ARRAY_SIZE(cred_exact); i++)
    hit = j == strlen(cred_exact[i]) && !memcmp(low, cred_exact[i], j);
  for (i = 0; !hit && i < ARRAY_SIZE(cred_parts); i++)
    hit = strstr(low, cred_parts[i]) != NULL;
  if (!hit)
    hit = ends_with(low, j, "key") || ends_with(low, j, "_sig") ||
          has_cred_word(orig, j);
  if (low != low_s)
    free(low);
  if (orig != orig_s)
    free(orig);
  return hit;
}

int url_name_is_credential(const char *name)
{
  return is_cred_name(name, strlen(name));
}

/* Request headers whose whole value is a credential. */
int url_header_is_secret(const char *name, size_t n)
{
  static const char *const always[] = {"cookie", "set-cookie",
                                       "proxy-authorization", "authorization"};
  size_t i;
  int secret = 0;

  /* Compared in place (name need not end at n): no copy per header. */
  for (i = 0; i < ARRAY_SIZE(always); i++)
    if (n == strlen(always[i]) && !strncasecmp(name, always[i], n))
      secret = 1;
  /* CORS names (Access-Control-Allow-Credentials) carry no secret. */
  if (!secret && (n < 15 || strncasecmp(name, "access-control-", 15)))
    secret = is_cred_name(name, n);
  return secret;
}

char *url_redact_header(const char *line)
{
  const char *colon = strchr(line, ':');

  if (!colon || !url_header_is_secret(line, (size_t)(colon - line)))
    return xstrdup(line);
  return xasprintf("%.*s: REDACTED", (int)(colon - line), line);
}

/* Whether a value carries an Akamai-style token inside ("exp=..~hmac=.."). */
static int value_has_token(const char *s, size_t n)
{
  size_t i;

  for (i = 0; i + 5 <= n; i++)
    if ((i == 0 || s[i - 1] == '~' || s[i - 1] == '!') &&
        !strncasecmp(s + i, "hmac=", 5))
      return 1;
  return 0;
}

/* Append "a=b&c=d;e=f" to out with credential values replaced; '&' and
 * ';' both separate parameters. */
static void redact_params(struct buf *out, const char *s, size_t n)
{
  size_t i = 0;

  while (i <= n) {
    size_t end = i, eq;

    while (end < n && s[end] != '&' && s[end] != ';')
      end++;
    eq = i;
    while (eq < end && s[eq] != '=')
      eq++;
    if (eq + 1 < end && (is_cred_name(s + i, eq - i) ||
                         value_has_token(s + eq + 1, end - eq - 1))) {
      buf_add(out, s + i, eq - i + 1);
      buf_puts(out, "REDACTED");
    }
    else {
      buf_add(out, s + i, end - i);
    }
    if (end < n)
      buf_putc(out, s[end]);
    i = end + 1;
  }
}

/* Append path s[0..n) with credentials in its segments replaced: a
 * ";name=value" parameter (";jsessionid=..."), a "name=value" segment
 * ("/hdnts=exp=..~hmac=../"). */
static void redact_path(struct buf *out, const char *s, size_t n)
{
  size_t i = 0;

  while (i < n) {
    size_t end = i, semi;

    if (s[i] == '/') {
      buf_putc(out, '/');
      i++;
      continue;
    }
    while (end < n && s[end] != '/')
      end++;
    semi = i;
    while (semi < end && s[semi] != ';')
      semi++;
    /* The segment itself when it is "name=value", then its parameters. */
    if (memchr(s + i, '=', semi - i))
      redact_params(out, s + i, semi - i);
    else
      buf_add(out, s + i, semi - i);
    if (semi < end) {
      buf_putc(out, ';');
      redact_params(out, s + semi + 1, end - semi - 1);
    }
    i = end;
  }
}

char *url_redact(const char *url)
{
  struct parts p;
  struct buf b;

  url_parts_split(&p, url, strlen(url));
  buf_init(&b, 0);
  if (p.auth.set) {
    const char *a = p.auth.p, *at = NULL, *colon;
    size_t i;

    for (i = 0; i < p.auth.n; i++)
      if (a[i] == '@')
        at = a + i;
    colon = at ? memchr(a, ':', (size_t)(at - a)) : NULL;
    if (colon) {
      /* user:password@: the password. */
      buf_add(&b, url, (size_t)(colon + 1 - url));
      if (colon + 1 < at)
        buf_puts(&b, "REDACTED");
      buf_add(&b, at, (size_t)(p.path.p - at));
    }
    else if (at && at > a) {
      /* TOKEN@: a userinfo without ':' is a token (GitHub, GitLab and
       * others take one as the user name). */
      buf_add(&b, url, (size_t)(a - url));
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
  redact_path(&b, p.path.p, p.path.n);
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

/* Whether c ends a URL inside a header value. */
static int url_stop(char c)
{
  return url_is_ws(c) || c == '<' || c == '>' || c == '"' || c == '\'' ||
         c == '\0';
}

char *url_redact_text(const char *text)
{
  struct buf b;
  const char *p = text;

  buf_init(&b, 0);
  while (*p) {
    const char *end = p, *sep;
    char *one;

    if (url_stop(*p)) {
      buf_putc(&b, *p++);
      continue;
    }
    while (*end && !url_stop(*end))
      end++;
    /* "url=https://...": what comes before the scheme stays as it is,
     * unless it is a parameter itself. */
    sep = p;
    {
      const char *css = strstr(p, "://");

      if (css && css < end) {
        const char *sc = css;

        while (sc > p && (is_alnum(sc[-1]) || sc[-1] == '+' || sc[-1] == '-' ||
                          sc[-1] == '.'))
          sc--;
        if (sc > p) {
          char *pre = xstrndup(p, (size_t)(sc - p));

          redact_params(&b, pre, strlen(pre));
          free(pre);
        }
        sep = sc;
      }
    }
    {
      char *tok = xstrndup(sep, (size_t)(end - sep));

      one = url_redact(tok);
      free(tok);
    }
    buf_puts(&b, one);
    free(one);
    p = end;
  }
  return buf_detach(&b);
}
