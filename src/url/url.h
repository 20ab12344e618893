/*
 * url.h: URLs as libcurl reads them (its URL API, curl_url), shared by the
 * command line, the plan and the redirect walk, so that a hop's URL is
 * the one libcurl requests and a Location resolves as libcurl resolves it
 * when it follows a redirect itself; and credential redaction.  No I/O;
 * no library types cross this header.
 *
 * Every function that returns a char * hands a malloc'd string to the
 * caller, who frees it.  Functions that take err/errlen write a lowercase
 * message without trailing period there on failure (err may be NULL).
 */
#ifndef HOPSPLIT_URL_H
#define HOPSPLIT_URL_H

#include <stddef.h>

/* Longest URL or Location value accepted, in bytes (hopsplit(1) Redaction). */
#define URL_MAX_LEN 8192

/*
 * A parsed absolute URL.  All strings are owned by the struct and freed by
 * url_release.  scheme and host are lowercased; host never has brackets
 * (ipv6 says it was a bracketed literal) and is "" when the URL has no
 * authority (e.g. "javascript:x").  port is the explicit port or the
 * scheme default (80 http, 443 https, -1 for other schemes).  path is never
 * NULL; it is "/" when empty for http and https.  userinfo, query and
 * fragment are NULL when absent and exclude the '@', '?' and '#'.
 */
struct url {
  char *scheme;
  char *userinfo;
  char *host;
  int ipv6;
  int port;
  int port_explicit;
  char *path;
  char *query;
  char *fragment;
};

/*
 * Parse the absolute URL s into u (u need not be initialised).  Returns 0,
 * or -1 with a message in err and u zeroed, so url_release is always safe.
 * http and https URLs are parsed by libcurl (host percent-decoded and
 * lowercased, dot segments removed from the path, as libcurl requests
 * it); other schemes are only split, for url_scheme_allowed to refuse.
 * Refused, with a message naming the part: control characters (< 0x20,
 * 0x7f) and spaces, a missing scheme or host, a port outside 1..65535, a
 * malformed host or IPv6 literal, an international domain name (give its
 * xn-- form), what else libcurl refuses, and URLs longer than URL_MAX_LEN
 * bytes.  A URL quoted in a message has gone through url_redact.
 */
int url_parse(struct url *u, const char *s, char *err, size_t errlen);

/* Free what u owns and zero it. */
void url_release(struct url *u);

/*
 * Resolve the reference ref (a Location header value) against the
 * absolute URL base as libcurl 7.88 does when it follows a redirect
 * (curl_url_set with CURLU_URLENCODE | CURLU_ALLOW_SPACE): whitespace
 * around ref is stripped, spaces inside are sent as %20, the fragment of
 * ref is kept, and what libcurl refuses to follow ("http:g") is an error
 * with libcurl's words.  A ref whose scheme is neither http nor https is
 * returned as written (scheme lowercased): use url_scheme_allowed.
 *
 * Returns a malloc'd absolute URL the caller frees, or NULL with a message
 * in err when ref or base has control characters, base has no scheme, or
 * ref or the result is longer than URL_MAX_LEN bytes.
 */
char *url_resolve(const char *base, const char *ref, char *err, size_t errlen);

/*
 * "scheme://host:port" of url, the port always written (IPv6 hosts in
 * brackets; no port for schemes without a default).  Malloc'd, caller
 * frees; NULL if url does not parse.
 */
char *url_origin(const char *url);

/*
 * The part NAME (scheme, user, password, options, host, port, path,
 * query, fragment or zoneid) of url as curl's -w url.NAME prints it: the
 * port the scheme's default when none is written, an IPv6 host in
 * brackets, nothing decoded.  Malloc'd; NULL when url has no such part
 * or does not parse.
 */
char *url_curl_part(const char *url, const char *name);

/* 1 if a and b both parse and have the same origin, else 0. */
int url_same_origin(const char *a, const char *b);

/*
 * A URL from the command line: without a "scheme://" prefix it gets
 * "https://" (hopsplit(1)).  Malloc'd, caller frees; never NULL.
 */
char *url_normalize_arg(const char *arg);

/* 1 if the scheme of url is http or https (any case), else 0. */
int url_scheme_allowed(const char *url);

/*
 * A copy of url that is safe to print (hopsplit(1) Redaction).  Malloc'd,
 * caller frees; never NULL.  Any string is accepted, also a relative
 * reference; only these parts change, everything else is kept byte for byte:
 *
 * - the userinfo: the password of "user:pass@" ("user:REDACTED@"), and a
 *   userinfo without ':' as a whole, a token ("https://TOKEN@host/"
 *   becomes "https://REDACTED@host/");
 * - in the query and in the fragment (OAuth puts tokens there), split at
 *   '&' and ';', the non-empty value of each "name=value" whose name looks
 *   like a credential, or whose value carries "~hmac=" (an Akamai token),
 *   becomes REDACTED;
 * - in the path, the same for ";name=value" parameters of a segment
 *   (";jsessionid=...") and for segments that are "name=value"
 *   ("/hdnts=exp=...~hmac=.../").
 *
 * A name looks like a credential when, percent-decoded and compared
 * without regard to case, it is one of sig, signature, token, key, secret,
 * password, passwd, pass, pwd, passphrase, credential, auth, authorization,
 * jwt, apikey, api_key, access_token, id_token, refresh_token,
 * client_secret, code (OAuth), otp, ticket, session, sid, sessionid,
 * session_id, jsessionid, phpsessid, aspsessionid, hmac, md5 (nginx
 * secure_link), hdnts, hdnea, __hdnea__, __hdnts__ (Akamai), policy,
 * key-pair-id (CloudFront), awsaccesskeyid (AWS SigV2), googleaccessid
 * (GCS), x-amz-signature, x-amz-credential, x-amz-security-token (SigV4),
 * x-goog-signature, x-goog-credential; or contains token, secret,
 * signature, password, passwd, credential, session, sessid or hmac; or
 * ends in "key" or "_sig"; or one of its words (split at what is not a
 * letter or digit and at a lower-to-upper case change: "X-Upload-Sig",
 * "mySig") is sig, auth, key, pass, pwd, jwt, otp, sid or apikey.  The
 * rule errs on the side of hiding (e.g. "monkey" is redacted); sv, se, sp
 * and expires of signed URLs are not secrets and are kept.
 */
char *url_redact(const char *url);

/* Every URL inside a header value redacted as url_redact does: the
 * value is split at whitespace, '<', '>' and quotes; each piece is taken
 * as a URL or a reference ("url=https://...", "<https://...>; rel=...",
 * an X-Cache-Key such as "S/L/1/2/1d/host/path?sig=...").  Caller frees. */
char *url_redact_text(const char *text);

/* Whether a query parameter or header name looks like a credential, by
 * the rule of url_redact. */
int url_name_is_credential(const char *name);

/* Whether a request header name (name[0..n)) is one hopsplit redacts:
 * Authorization, Proxy-Authorization, Cookie, Set-Cookie or a name that
 * looks like a credential (X-Api-Key, X-Auth-Token, Private-Token ...).
 * The same headers are dropped on a cross-origin redirect. */
int url_header_is_secret(const char *name, size_t n);

/* "Name: value" with the value REDACTED when url_header_is_secret says
 * so; caller frees. */
char *url_redact_header(const char *line);

/* Whether a target URL argument can be measured (parses, http or https,
 * "https://" added when it has no scheme).  0, or -1 with a message that
 * quotes the URL redacted. */
int url_target_problem(const char *arg, char *msg, size_t len);

#endif
