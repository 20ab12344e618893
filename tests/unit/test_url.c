/*
 * test_url.c: unit tests of url.c: parsing, RFC 3986 5.4 reference
 * resolution, Location edge cases, origins, the default scheme and
 * redaction.  Every case is a row in a table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "arraysize.h"
#include "url.h"
#include "xalloc.h"
#include "banned.h"

/*
 * url.c resolves and parses with libcurl's URL API, as curl does, so a
 * few results are the libcurl's at hand: 8.x follows RFC 3986 where 7.88
 * did not.  The rows below keep 7.88's results; these are 8's.
 */
static int curl8(void)
{
  return curl_version_info(CURLVERSION_NOW)->version_num >= 0x080000;
}

static const struct {
  const char *base, *ref, *want; /* want NULL: refused */
} curl8_results[] = {
    /* RFC 3986 5.4.1: "#s" = "http://a/b/c/d;p?q#s" */
    {"http://a/b/c/d;p?q", "#s", "http://a/b/c/d;p?q#s"},
    {"http://a/b?q#f", "#g", "http://a/b?q#g"},
    /* "1x:y" is no scheme (a scheme starts with a letter): a path */
    {"https://api.example.com/v1/", "1x:y", "https://api.example.com/v1/1x:y"},
};

/* What libcurl 8 gives for base and ref where 7.88 differed; *found 0
 * when they agree. */
static const char *curl8_result(const char *base, const char *ref, int *found)
{
  size_t i;

  *found = 0;
  if (!curl8())
    return NULL;
  for (i = 0; i < sizeof(curl8_results) / sizeof(curl8_results[0]); i++)
    if (!strcmp(curl8_results[i].base, base) &&
        !strcmp(curl8_results[i].ref, ref)) {
      *found = 1;
      return curl8_results[i].want;
    }
  return NULL;
}

/*
 * Compare got with want (either may be NULL for "absent") and fail naming
 * the row, so a table failure points at its case.
 */
static void check_str(const char *row, const char *got, const char *want)
{
  if (!got && !want)
    return;
  if (!got || !want || strcmp(got, want)) {
    print_error("case %s: got '%s', want '%s'\n", row, got ? got : "(null)",
                want ? want : "(null)");
    fail();
  }
}

static void check_int(const char *row, const char *what, long got, long want)
{
  if (got != want) {
    print_error("case %s: %s is %ld, want %ld\n", row, what, got, want);
    fail();
  }
}

#define CHECK_STR(row, got, want) check_str((row), (got), (want))
#define CHECK_OPT(row, got, want) check_str((row), (got), (want))
#define CHECK_INT(row, got, want)                                             \
  check_int((row), #got, (long)(got), (long)(want))

/* ---- url_parse ---- */

struct parse_ok {
  const char *in;
  const char *scheme, *userinfo, *host;
  int ipv6, port, port_explicit;
  const char *path, *query, *fragment;
};

static const struct parse_ok parse_ok_cases[] = {
    /* Percent-encoding in a host is decoded, as libcurl does. */
    {"http://Ex%61mple.COM:8080/", "http", NULL, "example.com", 0, 8080, 1,
     "/", NULL, NULL},
    {"http://example.com", "http", NULL, "example.com", 0, 80, 0, "/", NULL,
     NULL},
    {"HTTPS://Example.COM/A/b?X=Y#Frag", "https", NULL, "example.com", 0, 443,
     0, "/A/b", "X=Y", "Frag"},
    {"https://[::1]:8443/", "https", NULL, "::1", 1, 8443, 1, "/", NULL, NULL},
    {"http://[2001:DB8::1]/x", "http", NULL, "2001:db8::1", 1, 80, 0, "/x",
     NULL, NULL},
    {"http://[fe80::1%25eth0]:81/", "http", NULL, "fe80::1%25eth0", 1, 81, 1,
     "/", NULL, NULL},
    {"http://[::ffff:192.0.2.1]/", "http", NULL, "::ffff:192.0.2.1", 1, 80, 0,
     "/", NULL, NULL},
    {"https://user:pa%40ss@host:1/p", "https", "user:pa%40ss", "host", 0, 1, 1,
     "/p", NULL, NULL},
    {"http://host:65535", "http", NULL, "host", 0, 65535, 1, "/", NULL, NULL},
    {"http://host:/", "http", NULL, "host", 0, 80, 0, "/", NULL, NULL},
    {"http://host?", "http", NULL, "host", 0, 80, 0, "/", "", NULL},
    {"http://host#", "http", NULL, "host", 0, 80, 0, "/", NULL, NULL},
    {"http://192.0.2.1:8080/a?b#c", "http", NULL, "192.0.2.1", 0, 8080, 1,
     "/a", "b", "c"},
    {"http://host/a?b?c#d#e", "http", NULL, "host", 0, 80, 0, "/a", "b?c",
     "d#e"},
    {"ftp://files.example/pub", "ftp", NULL, "files.example", 0, -1, 0, "/pub",
     NULL, NULL},
    {"file:///etc/passwd", "file", NULL, "", 0, -1, 0, "/etc/passwd", NULL,
     NULL},
    {"javascript:alert(1)", "javascript", NULL, "", 0, -1, 0, "alert(1)", NULL,
     NULL},
    {"mailto:a@b.example", "mailto", NULL, "", 0, -1, 0, "a@b.example", NULL,
     NULL},
};

static void test_parse_ok(void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(parse_ok_cases); i++) {
    const struct parse_ok *c = &parse_ok_cases[i];
    struct url u;
    char err[256] = "";

    if (url_parse(&u, c->in, err, sizeof(err)) != 0) {
      print_error("case %s: failed: %s\n", c->in, err);
      fail();
    }
    CHECK_STR(c->in, u.scheme, c->scheme);
    CHECK_OPT(c->in, u.userinfo, c->userinfo);
    CHECK_STR(c->in, u.host, c->host);
    CHECK_INT(c->in, u.ipv6, c->ipv6);
    CHECK_INT(c->in, u.port, c->port);
    CHECK_INT(c->in, u.port_explicit, c->port_explicit);
    CHECK_STR(c->in, u.path, c->path);
    /* libcurl 8 has no query for an empty one ("http://host?"). */
    CHECK_OPT(c->in, u.query,
              curl8() && c->query && !*c->query ? NULL : c->query);
    CHECK_OPT(c->in, u.fragment, c->fragment);
    url_release(&u);
    assert_null(u.scheme);
    url_release(&u); /* twice is harmless */
  }
}

struct parse_bad {
  const char *in;
  const char *err; /* expected message */
};

static const struct parse_bad parse_bad_cases[] = {
    {"", "empty URL"},
    {"example.com", "missing scheme in 'example.com'"},
    {"//example.com/", "missing scheme in '//example.com/'"},
    {"http://", "missing host in 'http://'"},
    {"https:///path", "missing host in 'https:///path'"},
    {"http:foo", "missing host in 'http:foo'"},
    {"http://user@:80/", "missing host in 'http://REDACTED@:80/'"},
    {"http://u:secret@/", "missing host in 'http://u:REDACTED@/'"},
    {"host/?token=t", "missing scheme in 'host/?token=REDACTED'"},
    {"http://host:99999/", "bad port '99999'"},
    {"http://host:0/", "bad port '0'"},
    {"http://host:65536/", "bad port '65536'"},
    {"http://host:-1/", "bad port '-1'"},
    {"http://host:8o/", "bad port '8o'"},
    {"http://host:123456789012345678901/", "bad port '123456789012345678901'"},
    {"http://[::1]:99999/", "bad port '99999'"},
    {"http://host/a b", "space in URL"},
    {"http://ho st/", "space in URL"},
    {"http://host/\x01", "control character in URL"},
    {"http://host/a\r\nX-Injected: 1", "control character in URL"},
    {"http://host/\t", "control character in URL"},
    {"http://host/\x7f", "control character in URL"},
    {"http://[::1/", "bad IPv6 address '[::1'"},
    {"http://[]/", "bad IPv6 address '[]'"},
    {"http://[v1.x]/", "bad IPv6 address '[v1.x]'"},
    {"http://[::g]/", "bad IPv6 address '[::g]'"},
    {"http://[::1]x/", "bad host '[::1]x'"},
    /* libcurl takes the user name to the first '@' */
    {"https://a@b@host/", "bad host 'b@host'"},
    {"http://ho<st/", "bad host 'ho<st'"},
    {"https://b\xc3\xbc"
     "cher.test:8443/",
     "host 'b\xc3\xbc"
     "cher.test' is an international domain name: give its "
     "ASCII form (xn--...), hopsplit does not convert it"},
    {"http://a[b]/", "bad host 'a[b]'"},
    {"https://b%C3%BC"
     "cher.test/",
     "host 'b%C3%BC"
     "cher.test' is an international domain name: give its "
     "ASCII form (xn--...), hopsplit does not convert it"},
    {"http://ho%2Fst/", "bad host 'ho%2Fst'"},
    {"http://ho%zzst/", "bad host 'ho%zzst'"},
    {"http://ho%2/", "bad host 'ho%2'"},
};

static void test_parse_bad(void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(parse_bad_cases); i++) {
    const struct parse_bad *c = &parse_bad_cases[i];
    struct url u;
    char err[256] = "";

    CHECK_INT(c->err, url_parse(&u, c->in, err, sizeof(err)), -1);
    CHECK_STR(c->err, err, c->err);
    assert_null(u.scheme);
    assert_null(u.host);
    url_release(&u);
  }
}

static void test_parse_length(void **state)
{
  char *s = xmalloc(URL_MAX_LEN + 2);
  char err[128] = "";
  struct url u;

  (void)state;
  memset(s, 'a', URL_MAX_LEN + 1);
  memcpy(s, "http://h/", 9);
  s[URL_MAX_LEN] = '\0'; /* exactly URL_MAX_LEN bytes: accepted */
  assert_int_equal(url_parse(&u, s, err, sizeof(err)), 0);
  url_release(&u);
  s[URL_MAX_LEN] = 'a';
  s[URL_MAX_LEN + 1] = '\0';
  assert_int_equal(url_parse(&u, s, err, sizeof(err)), -1);
  assert_string_equal(err, "URL longer than 8192 bytes");
  /* A NULL or short err buffer is fine. */
  assert_int_equal(url_parse(&u, s, NULL, 0), -1);
  assert_int_equal(url_parse(&u, "http://host:99999/", err, 8), -1);
  assert_string_equal(err, "bad por");
  free(s);
}

/* ---- url_resolve ---- */

struct resolve_case {
  const char *ref;
  const char *want;
};

#define RFC_BASE "http://a/b/c/d;p?q"

/* RFC 3986 5.4.1 Normal Examples. */
static const struct resolve_case rfc_normal[] = {
    {"g:h", "g:h"},
    {"g", "http://a/b/c/g"},
    {"./g", "http://a/b/c/g"},
    {"g/", "http://a/b/c/g/"},
    {"/g", "http://a/g"},
    {"//g", "http://g/"}, /* libcurl adds the root path */
    {"?y", "http://a/b/c/d;p?y"},
    {"g?y", "http://a/b/c/g?y"},
    {"#s", "http://a/b/c/#s"}, /* libcurl 7.88 (RFC 3986: d;p?q#s) */
    {"g#s", "http://a/b/c/g#s"},
    {"g?y#s", "http://a/b/c/g?y#s"},
    {";x", "http://a/b/c/;x"},
    {"g;x", "http://a/b/c/g;x"},
    {"g;x?y#s", "http://a/b/c/g;x?y#s"},
    {"", "http://a/b/c/d;p?q"},
    {".", "http://a/b/c/"},
    {"./", "http://a/b/c/"},
    {"..", "http://a/b/"},
    {"../", "http://a/b/"},
    {"../g", "http://a/b/g"},
    {"../..", "http://a/"},
    {"../../", "http://a/"},
    {"../../g", "http://a/g"},
};

/* RFC 3986 5.4.2 Abnormal Examples (strict parser). */
static const struct resolve_case rfc_abnormal[] = {
    {"../../../g", "http://a/g"},
    {"../../../../g", "http://a/g"},
    {"/./g", "http://a/g"},
    {"/../g", "http://a/g"},
    {"g.", "http://a/b/c/g."},
    {".g", "http://a/b/c/.g"},
    {"g..", "http://a/b/c/g.."},
    {"..g", "http://a/b/c/..g"},
    {"./../g", "http://a/b/g"},
    {"./g/.", "http://a/b/c/g/"},
    {"g/./h", "http://a/b/c/g/h"},
    {"g/../h", "http://a/b/c/h"},
    {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
    {"g;x=1/../y", "http://a/b/c/y"},
    {"g?y/./x", "http://a/b/c/g?y/./x"},
    {"g?y/../x", "http://a/b/c/g?y/../x"},
    {"g#s/./x", "http://a/b/c/g#s/./x"},
    {"g#s/../x", "http://a/b/c/g#s/../x"},
    /* "http:g" (RFC 3986 strict: itself) libcurl refuses, see test_resolve_bad
     */
};

/* Location values seen in the wild, against a realistic base. */
#define LOC_BASE "https://api.example.com/v1/files/42.jpg?size=l"

static const struct resolve_case locations[] = {
    {"/x", "https://api.example.com/x"},
    {"../y", "https://api.example.com/v1/y"},
    {"?q", "https://api.example.com/v1/files/42.jpg?q"},
    {"//host/p", "https://host/p"},
    {"//cdn.example.net", "https://cdn.example.net/"},
    {"https://storage.example/b/42.jpg?X-Amz-Signature=ab",
     "https://storage.example/b/42.jpg?X-Amz-Signature=ab"},
    {"HTTP://Other.example/", "http://Other.example/"},
    {"  /padded\r\n", "https://api.example.com/padded"},
    {"\t../../../../up", "https://api.example.com/up"},
    {"/a b/c d", "https://api.example.com/a%20b/c%20d"},
    {"43.jpg#frag", "https://api.example.com/v1/files/43.jpg#frag"},
    {"https://[::1]:8443/", "https://[::1]:8443/"},
    {"ftp://x", "ftp://x"},
    {"file:///etc/passwd", "file:///etc/passwd"},
    {"javascript:alert(1)", "javascript:alert(1)"},
    {"data:text/html,hi", "data:text/html,hi"},
};

static void run_resolve(const char *base, const struct resolve_case *cases,
                        size_t n)
{
  size_t i;

  for (i = 0; i < n; i++) {
    char err[256] = "";
    char *got = url_resolve(base, cases[i].ref, err, sizeof(err));
    int found;
    const char *want8 = curl8_result(base, cases[i].ref, &found);

    if (!got)
      print_error("case '%s': error %s\n", cases[i].ref, err);
    CHECK_STR(cases[i].ref, got, found ? want8 : cases[i].want);
    free(got);
  }
}

static void test_resolve_rfc_normal(void **state)
{
  (void)state;
  run_resolve(RFC_BASE, rfc_normal, ARRAY_SIZE(rfc_normal));
}

static void test_resolve_rfc_abnormal(void **state)
{
  (void)state;
  run_resolve(RFC_BASE, rfc_abnormal, ARRAY_SIZE(rfc_abnormal));
}

static void test_resolve_locations(void **state)
{
  (void)state;
  run_resolve(LOC_BASE, locations, ARRAY_SIZE(locations));
}

/* Bases without a path, with an empty path and a trailing slash. */
static void test_resolve_bases(void **state)
{
  static const struct {
    const char *base, *ref, *want;
  } cases[] = {
      {"http://a", "g", "http://a/g"},
      {"http://a", "", "http://a"},
      {"http://a", "?x", "http://a/?x"},
      {"http://a/", "../g", "http://a/g"},
      {"http://a/b/", ".", "http://a/b/"},
      {"http://a/b/c", "./", "http://a/b/"},
      {"http://u:p@a:81/b", "c", "http://u:p@a:81/c"},
      {"http://a/b?q#f", "", "http://a/b?q"},
      {"http://a/b?q#f", "#g", "http://a/#g"}, /* libcurl 7.88 */
      {"http://a/b", "?",
       "http://a/b"}, /* libcurl 7.88 drops an empty query */
      {"https://[::1]:8443/a/b", "../c", "https://[::1]:8443/c"},
      {"http://a/b/c/d;p?q", "/./g/../../h/.", "http://a/h/"},
      {"http://a/b/c/d;p?q", "mid/content=5/../6", "http://a/b/c/mid/6"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char err[256] = "";
    char *got = url_resolve(cases[i].base, cases[i].ref, err, sizeof(err));
    int found;
    const char *want8 = curl8_result(cases[i].base, cases[i].ref, &found);

    CHECK_STR(cases[i].ref, got, found ? want8 : cases[i].want);
    free(got);
  }
}

static void test_resolve_bad(void **state)
{
  static const struct {
    const char *base, *ref, *err;
  } cases[] = {
      {LOC_BASE, "/a\r\nSet-Cookie: x=1", "control character in location"},
      {LOC_BASE, "/a\x01", "control character in location"},
      {LOC_BASE, "/a\x7f", "control character in location"},
      {"/relative", "g", "base URL '/relative' has no scheme"},
      {"http://a/b/c/d;p?q", "http:g",
       "bad location 'http:g': Unsupported number of slashes following "
       "scheme"},
      /* A scheme may not start with a digit (RFC 3986); libcurl takes
       * "1x:" for one all the same and refuses to follow. */
      {"https://api.example.com/v1/", "1x:y",
       "bad location '1x:y': Unsupported URL scheme"},
      {"http://a/\n", "g", "control character in URL"},
  };
  char err[256];
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char *got;
    int found;
    const char *want8 = curl8_result(cases[i].base, cases[i].ref, &found);

    err[0] = '\0';
    got = url_resolve(cases[i].base, cases[i].ref, err, sizeof(err));
    if (found) { /* libcurl 8 resolves it */
      CHECK_OPT(cases[i].ref, got, want8);
      free(got);
      continue;
    }
    CHECK_OPT(cases[i].err, got, NULL);
    CHECK_STR(cases[i].err, err, cases[i].err);
  }
}

static void test_resolve_long(void **state)
{
  /* A 9 KB Location is refused, as is a result that grows past the limit. */
  size_t n = 9 * 1024;
  char *ref = xmalloc(n + 1);
  char err[256] = "";
  char *got;

  (void)state;
  memset(ref, 'a', n);
  ref[0] = '/';
  ref[n] = '\0';
  got = url_resolve(LOC_BASE, ref, err, sizeof(err));
  assert_null(got);
  assert_string_equal(err, "location longer than 8192 bytes");

  /* 8192 bytes of ref is accepted alone but not with the base prefix. */
  ref[URL_MAX_LEN] = '\0';
  err[0] = '\0';
  got = url_resolve(LOC_BASE, ref, err, sizeof(err));
  assert_null(got);
  assert_string_equal(err, "resolved URL longer than 8192 bytes");

  /* Whitespace around a long value does not count. */
  ref[0] = ' ';
  ref[1] = '/';
  ref[100] = '\0';
  got = url_resolve(LOC_BASE, ref, err, sizeof(err));
  assert_non_null(got);
  assert_int_equal(strlen(got), strlen("https://api.example.com") + 99);
  free(got);
  free(ref);
}

/* ---- origins, schemes, arguments ---- */

static void test_origin(void **state)
{
  static const struct {
    const char *url, *want;
  } cases[] = {
      {"https://Example.com/a?b", "https://example.com:443"},
      {"http://example.com:8080", "http://example.com:8080"},
      {"https://u:p@[::1]:8443/", "https://[::1]:8443"},
      {"ftp://x/y", "ftp://x"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char *o = url_origin(cases[i].url);

    CHECK_STR(cases[i].url, o, cases[i].want);
    free(o);
  }
  assert_null(url_origin("not a url"));
  assert_null(url_origin("http://host:0/"));
}

static void test_same_origin(void **state)
{
  static const struct {
    const char *a, *b;
    int want;
  } cases[] = {
      {"https://a.example/x", "https://A.EXAMPLE:443/y?z", 1},
      {"http://a.example/", "http://a.example:80", 1},
      {"http://a.example/", "https://a.example/", 0},
      {"https://a.example/", "https://a.example:8443/", 0},
      {"https://a.example/", "https://b.example/", 0},
      {"https://a.example/", "https://user@a.example/", 1},
      {"https://[::1]/", "https://[::1]:443/", 1},
      {"https://a.example/", "garbage", 0},
      {"garbage", "garbage", 0},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++)
    CHECK_INT(cases[i].b, url_same_origin(cases[i].a, cases[i].b),
              cases[i].want);
}

static void test_scheme_allowed(void **state)
{
  static const struct {
    const char *url;
    int want;
  } cases[] = {
      {"http://a/", 1},
      {"https://a/", 1},
      {"HTTPS://a/", 1},
      {"ftp://x", 0},
      {"file:///etc/passwd", 0},
      {"javascript:alert(1)", 0},
      {"httpx://a/", 0},
      {"/relative", 0},
      {"", 0},
      {"https", 0},
      {"data:,x", 0},
      {"gopher://a/", 0},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++)
    CHECK_INT(cases[i].url, url_scheme_allowed(cases[i].url), cases[i].want);
  assert_int_equal(url_scheme_allowed(NULL), 0);
}

static void test_resolve_then_check(void **state)
{
  /* Resolving an unsafe redirect succeeds; the scheme check refuses it. */
  static const char *const refs[] = {"ftp://x", "file:///etc/passwd",
                                     "javascript:alert(1)"};
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(refs); i++) {
    char *got = url_resolve(LOC_BASE, refs[i], NULL, 0);

    assert_non_null(got);
    CHECK_INT(refs[i], url_scheme_allowed(got), 0);
    free(got);
  }
}

static void test_normalize_arg(void **state)
{
  static const struct {
    const char *in, *want;
  } cases[] = {
      {"example.com", "https://example.com"},
      {"example.com/a?b", "https://example.com/a?b"},
      {"localhost:8080/x", "https://localhost:8080/x"},
      {"[::1]:8443/", "https://[::1]:8443/"},
      {"http://example.com", "http://example.com"},
      {"HTTP://example.com", "HTTP://example.com"},
      {"ftp://x", "ftp://x"},
      {"", "https://"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char *got = url_normalize_arg(cases[i].in);

    CHECK_STR(cases[i].in, got, cases[i].want);
    free(got);
  }
}

/* ---- url_redact ---- */

static void test_redact(void **state)
{
  static const struct {
    const char *in, *want;
  } cases[] = {
      {"https://s3.example/b/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F"
       "x&X-Amz-Date=20260101T000000Z&X-Amz-Expires=300&X-Amz-SignedHeaders="
       "host&X-Amz-Signature=abcdef",
       "https://s3.example/b/k?X-Amz-Algorithm=AWS4&X-Amz-Credential="
       "REDACTED&X-Amz-Date=20260101T000000Z&X-Amz-Expires=300&X-Amz-"
       "SignedHeaders=host&X-Amz-Signature=REDACTED"},
      {"https://api.example/x?token=abc&page=2",
       "https://api.example/x?token=REDACTED&page=2"},
      {"https://user:pass@host/p", "https://user:REDACTED@host/p"},
      {"https://user:p:a:ss@host:8443/p?q=1",
       "https://user:REDACTED@host:8443/p?q=1"},
      {"https://user@host/", "https://REDACTED@host/"},
      {"https://ghp_TOKEN123@github.example/o/r.git",
       "https://REDACTED@github.example/o/r.git"},
      {"https://@host/", "https://@host/"},
      {"https://user:@host/", "https://user:@host/"},
      {"https://host:8443/", "https://host:8443/"},
      {"https://a.blob.example/c?sv=2020&se=2026&sp=r&sig=Zz%3D",
       "https://a.blob.example/c?sv=2020&se=2026&sp=r&sig=REDACTED"},
      {"https://g.example/o?X-Goog-Signature=1&x-goog-credential=2",
       "https://g.example/o?X-Goog-Signature=REDACTED&x-goog-credential="
       "REDACTED"},
      {"https://h/?API_KEY=1&apikey=2&key=3&Key-Pair-Id=4&monkey=5",
       "https://h/?API_KEY=REDACTED&apikey=REDACTED&key=REDACTED&Key-Pair-"
       "Id=REDACTED&monkey=REDACTED"},
      /* AWS SigV2, GCS V2, CloudFront, Azure SAS (issue 16). */
      {"https://b.s3.example/k?AWSAccessKeyId=AKIA1&Expires=9&Signature=s",
       "https://b.s3.example/k?AWSAccessKeyId=REDACTED&Expires=9&Signature="
       "REDACTED"},
      {"https://storage.example/b/o?GoogleAccessId=sa%40p&Expires=9&"
       "Signature=s",
       "https://storage.example/b/o?GoogleAccessId=REDACTED&Expires=9&"
       "Signature=REDACTED"},
      {"https://d.cf.example/v?Policy=eyJ&Signature=s&Key-Pair-Id=K2",
       "https://d.cf.example/v?Policy=REDACTED&Signature=REDACTED&Key-Pair-"
       "Id=REDACTED"},
      {"https://a.blob.example/c?sv=2022&sr=b&sig=s%3D",
       "https://a.blob.example/c?sv=2022&sr=b&sig=REDACTED"},
      /* Akamai, nginx secure_link, OAuth code, session ids. */
      {"https://e.example/v.m3u8?hdnts=exp=1~acl=/*~hmac=abc&x=1",
       "https://e.example/v.m3u8?hdnts=REDACTED&x=1"},
      {"https://e.example/v?t=st=1~exp=2~hmac=abc",
       "https://e.example/v?t=REDACTED"},
      {"https://e.example/hdnts=exp=1~hmac=abc/v.m3u8",
       "https://e.example/hdnts=REDACTED/v.m3u8"},
      {"https://n.example/f?md5=AbC&expires=9",
       "https://n.example/f?md5=REDACTED&expires=9"},
      {"https://app.example/cb?code=abc&state=xyz",
       "https://app.example/cb?code=REDACTED&state=xyz"},
      {"https://s.example/a;jsessionid=ABC?session=S&sid=1&PHPSESSID=2",
       "https://s.example/a;jsessionid=REDACTED?session=REDACTED&sid="
       "REDACTED&PHPSESSID=REDACTED"},
      /* ';' separates parameters; unknown credential-like names. */
      {"https://h/p?a=1;sig=s;b=2", "https://h/p?a=1;sig=REDACTED;b=2"},
      {"https://h/?X-Upload-Sig=1&mySig=2&design=3&x_auth=4&uploadPass=5",
       "https://h/?X-Upload-Sig=REDACTED&mySig=REDACTED&design=3&x_auth="
       "REDACTED&uploadPass=REDACTED"},
      {"https://h/?access_token=a&refresh_token=b&csrfToken=c&my_sig=d",
       "https://h/?access_token=REDACTED&refresh_token=REDACTED&csrfToken="
       "REDACTED&my_sig=REDACTED"},
      {"https://h/?password=a&pwd=b&pass=c&passwd=d&client_secret=e",
       "https://h/?password=REDACTED&pwd=REDACTED&pass=REDACTED&passwd="
       "REDACTED&client_secret=REDACTED"},
      {"https://h/?auth=a&Signature=b&credentials=c&author=d",
       "https://h/?auth=REDACTED&Signature=REDACTED&credentials=REDACTED&"
       "author=d"},
      {"https://h/?x-amz-security-token=a%3D%3D",
       "https://h/?x-amz-security-token=REDACTED"},
      {"https://h/?X%2DAmz%2DSignature=a",
       "https://h/?X%2DAmz%2DSignature=REDACTED"},
      {"https://h/?token&token=&=x&&a=b", "https://h/?token&token=&=x&&a=b"},
      {"https://h/?", "https://h/?"},
      {"https://h/?sv=1&pass", "https://h/?sv=1&pass"},
      {"https://app.example/cb#access_token=xyz&token_type=bearer",
       "https://app.example/cb#access_token=REDACTED&token_type=REDACTED"},
      {"https://u:p@h/?sig=1#s", "https://u:REDACTED@h/?sig=REDACTED#s"},
      {"/relative?token=1", "/relative?token=REDACTED"},
      {"no url at all", "no url at all"},
      {"", ""},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char *got = url_redact(cases[i].in);

    CHECK_STR(cases[i].in, got, cases[i].want);
    free(got);
  }
}

/* Header values that carry URLs (issue 16). */
static void test_redact_text(void **state)
{
  static const struct {
    const char *in, *want;
  } cases[] = {
      {"S/L/1234/567/1d/origin.example/v.mp4?sig=abc&x=1",
       "S/L/1234/567/1d/origin.example/v.mp4?sig=REDACTED&x=1"},
      {"</a.css?token=t>; rel=preload, <https://u:p@h/b?x=1>; rel=next",
       "</a.css?token=REDACTED>; rel=preload, <https://u:REDACTED@h/b?x=1>; "
       "rel=next"},
      {"5; url=https://h/next?code=c&ok=1",
       "5; url=https://h/next?code=REDACTED&ok=1"},
      {"5;url=https://TOK@h/", "5;url=https://REDACTED@h/"},
      {"ExampleCache; hit; key=\"https://h/?X-Amz-Signature=s\"",
       "ExampleCache; hit; key=\"https://h/?X-Amz-Signature=REDACTED\""},
      {"Mon, 30 Nov 2026 04:34:04 GMT", "Mon, 30 Nov 2026 04:34:04 GMT"},
      {"max-age=60, public", "max-age=60, public"},
      {"", ""},
  };
  static const struct {
    const char *line, *want;
  } hdrs[] = {
      {"X-Api-Key: k", "X-Api-Key: REDACTED"},
      {"X-Auth-Token: t", "X-Auth-Token: REDACTED"},
      {"Private-Token: t", "Private-Token: REDACTED"},
      {"X-Amz-Security-Token: t", "X-Amz-Security-Token: REDACTED"},
      {"X-Session-Id: s", "X-Session-Id: REDACTED"},
      {"Accept: */*", "Accept: */*"},
      {"Access-Control-Allow-Credentials: true",
       "Access-Control-Allow-Credentials: true"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char *got = url_redact_text(cases[i].in);

    CHECK_STR(cases[i].in, got, cases[i].want);
    free(got);
  }
  for (i = 0; i < ARRAY_SIZE(hdrs); i++) {
    char *got = url_redact_header(hdrs[i].line);

    CHECK_STR(hdrs[i].line, got, hdrs[i].want);
    free(got);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_ok),
      cmocka_unit_test(test_redact_text),
      cmocka_unit_test(test_parse_bad),
      cmocka_unit_test(test_parse_length),
      cmocka_unit_test(test_resolve_rfc_normal),
      cmocka_unit_test(test_resolve_rfc_abnormal),
      cmocka_unit_test(test_resolve_locations),
      cmocka_unit_test(test_resolve_bases),
      cmocka_unit_test(test_resolve_bad),
      cmocka_unit_test(test_resolve_long),
      cmocka_unit_test(test_resolve_then_check),
      cmocka_unit_test(test_origin),
      cmocka_unit_test(test_same_origin),
      cmocka_unit_test(test_scheme_allowed),
      cmocka_unit_test(test_normalize_arg),
      cmocka_unit_test(test_redact),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
