/*
 * redact.c: credentials out of URLs and header lines before they are
 * printed (SPEC 7; the rule in url.h).  Any string is accepted, also a
 * relative or broken reference: it is split by RFC 3986 Appendix B, not
 * parsed.  Pure.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    if (name[i] == '%' && i + 2 < n && url_is_hex(name[i + 1]) &&
        url_is_hex(name[i + 2])) {
      low[j++] = url_to_lower(
          (char)(url_hex_val(name[i + 1]) * 16 + url_hex_val(name[i + 2])));
      i += 2;
    }
    else
      low[j++] = url_to_lower(name[i]);
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
  url_parts_split(&p, url, strlen(url));
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
