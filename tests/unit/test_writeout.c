/*
 * test_writeout.c: -w/--write-out over a made-up sample (curl's variables,
 * times added up over the hops as curl adds them, escapes, %{stderr}),
 * the check of a format, the profile check's status specs, and request
 * bodies as the setter joins them (-d with '&', --json without, @FILE).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "option_table.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "report_fields.h"
#include "strpool.h"

/* A two-hop sample: a 302 on a new TLS connection, then a 200 reused. */
static void make_sample(struct sample *s)
{
  static const int64_t h1[PHASE_COUNT] = {100, 200, 300, 0, 400, 50, 1050};
  static const int64_t h2[PHASE_COUNT] = {0, 0, 0, 0, 150, 25, 175};
  struct hop *h;
  int ph;

  sample_init(s);
  s->round = 3;
  h = sample_add_hop(s);
  hop_info_edit(h)->url = strpool_intern("https://origin.test/a");
  hop_info_edit(h)->method = strpool_intern("POST");
  hop_info_edit(h)->status = 302;
  hop_tls_edit(h)->version = strpool_intern("TLSv1.3");
  hop_info_edit(h)->remote_ip = strpool_intern("127.0.0.1");
  hop_info_edit(h)->remote_port = 443;
  h->local_port = 40001;
  hop_info_edit(h)->size_header = 100;
  hop_add_header(h, "Content-Type", "text/html");
  for (ph = 0; ph < PHASE_COUNT; ph++)
    h->phases[ph] = h1[ph];
  h = sample_add_hop(s);
  hop_info_edit(h)->url = strpool_intern("https://origin.test/b?token=secret");
  hop_info_edit(h)->method = strpool_intern("GET");
  hop_info_edit(h)->status = 200;
  hop_info_edit(h)->http_version = strpool_intern("2");
  hop_tls_edit(h)->version = strpool_intern("TLSv1.3");
  h->reused = 1;
  hop_info_edit(h)->remote_ip = strpool_intern("127.0.0.1");
  hop_info_edit(h)->remote_port = 443;
  h->local_port = 40002;
  hop_info_edit(h)->size_download = 1234;
  hop_info_edit(h)->size_header = 50;
  /* the last Content-Type of the last response, as libcurl keeps */
  hop_add_header(h, "content-type", "text/plain");
  hop_add_header(h, "Content-Type", "application/json");
  for (ph = 0; ph < PHASE_COUNT; ph++)
    h->phases[ph] = h2[ph];
  s->total_us = 1300;
  s->status = 200;
  sample_close_accounts(s);
}

static void render(const char *fmt, const struct sample *s, struct buf *out,
                   struct buf *err)
{
  struct options o;
  struct target t;
  struct plan p;
  struct report_ctx c;
  char name[] = "api", url[] = "https://origin.test/a";

  options_init(&o);
  memset(&t, 0, sizeof(t));
  t.name = name;
  t.url = url;
  memset(&p, 0, sizeof(p));
  p.opts = &o;
  p.targets = &t;
  p.n_targets = 1;
  memset(&c, 0, sizeof(c));
  c.plan = &p;
  report_writeout(&c, fmt, s, out, err);
  options_release(&o);
}

static void test_variables(void **state)
{
  static const struct {
    const char *fmt, *want;
  } cases[] = {
      {"%{http_code}", "200"},
      {"%{response_code}", "200"},
      {"%{num_redirects}", "1"},
      {"%{num_connects}", "1"},
      {"%{url}", "https://origin.test/a"},
      /* redacted as every output is */
      {"%{url_effective}", "https://origin.test/b?token=REDACTED"},
      {"%{method} %{http_version} %{scheme}", "GET 2 https"},
      {"%{remote_ip}:%{remote_port}", "127.0.0.1:443"},
      {"%{size_download} %{size_header}", "1234 150"},
      /* curl adds each hop's offsets: 100, then 0 */
      {"%{time_namelookup}", "0.000100"},
      {"%{time_connect}", "0.000300"},
      {"%{time_appconnect}", "0.000600"},
      {"%{time_pretransfer}", "0.000600"},
      {"%{time_starttransfer}", "0.001150"},
      {"%{time_total} %{time_redirect}", "0.001300 0.001050"},
      {"%{target} %{mode} %{round} %{exitcode}", "api cold 3 0"},
      {"a\\tb\\nc%%d\\q", "a\tb\nc%d\\q"},
      {"%{errormsg}|%{error_class}", "|"},
      {"%{content_type} %{local_port} %{urlnum}", "application/json 40002 0"},
  };
  struct sample s;
  size_t i;

  (void)state;
  make_sample(&s);
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    struct buf out, err;
    char e[256];

    buf_init(&out, 0);
    buf_init(&err, 0);
    CHECK_INT(cases[i].fmt, report_writeout_check(cases[i].fmt, e, sizeof(e)),
              0);
    render(cases[i].fmt, &s, &out, &err);
    CHECK_STR(cases[i].fmt, out.s, cases[i].want);
    CHECK_STR(cases[i].fmt, err.s, "");
    buf_release(&out);
    buf_release(&err);
  }
  sample_release(&s);
}

static void test_stderr_and_json(void **state)
{
  struct sample s;
  struct buf out, err;

  (void)state;
  make_sample(&s);
  buf_init(&out, 0);
  buf_init(&err, 0);
  render("1%{stderr}2%{stdout}3", &s, &out, &err);
  assert_string_equal(out.s, "13");
  assert_string_equal(err.s, "2");
  buf_reset(&out);
  render("%{json}", &s, &out, &err);
  assert_non_null(strstr(out.s, "\"http_code\":200"));
  assert_non_null(strstr(out.s, "\"time_total\":0.001300"));
  assert_non_null(strstr(out.s, "\"errormsg\":null"));
  assert_true(out.s[0] == '{' && out.s[out.len - 1] == '}');
  buf_release(&out);
  buf_release(&err);
  sample_release(&s);
}

/* A sample that failed before any response: curl's values for nothing
 * known ("000", 0, "0", ""), the texts curl leaves out null in %{json}. */
static void test_no_response(void **state)
{
  static const struct {
    const char *fmt, *want;
  } cases[] = {
      {"%{http_code} %{response_code}", "000 000"},
      {"%{num_redirects} %{num_connects} %{exitcode}", "0 0 3"},
      {"[%{remote_ip}]:%{remote_port} [%{method}] %{http_version}",
       "[]:0 [] 0"},
      {"%{size_download} %{size_header} [%{redirect_url}]", "0 0 []"},
      {"%{time_connect} %{time_appconnect} %{time_total} %{time_redirect}",
       "0.000000 0.000000 2.500001 0.000000"},
      {"%{url_effective} %{scheme}", "https://origin.test/a https"},
      {"%{error_class}: %{errormsg}", "dns: no such name"},
      {"[%{content_type}] %{local_port}", "[] -1"},
  };
  struct sample s;
  struct buf out, err;
  size_t i;

  (void)state;
  sample_init(&s);
  s.ok = 0;
  s.err = ERR_DNS;
  sample_set_err_message(&s, strpool_intern("no such name"));
  s.total_us = 2500001;
  sample_close_accounts(&s);
  buf_init(&out, 0);
  buf_init(&err, 0);
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    buf_reset(&out);
    render(cases[i].fmt, &s, &out, &err);
    CHECK_STR(cases[i].fmt, out.s, cases[i].want);
  }
  buf_reset(&out);
  render("%{json}", &s, &out, &err);
  assert_non_null(strstr(out.s, "\"http_code\":0,"));
  assert_non_null(strstr(out.s, "\"redirect_url\":null,"));
  assert_non_null(strstr(out.s, "\"remote_ip\":\"\","));
  assert_non_null(strstr(out.s, "\"http_version\":\"0\","));
  assert_non_null(strstr(out.s, "\"error_class\":\"dns\","));
  assert_non_null(strstr(out.s, "\"content_type\":null,"));
  /* curl 8's values where nothing connected: no chain, no retries, no
   * proxy (conn_id and xfer_id are libcurl's, null without a hop). */
  assert_non_null(strstr(out.s, "{\"certs\":\"\","));
  assert_non_null(strstr(out.s, "\"num_certs\":0,"));
  assert_non_null(strstr(out.s, "\"num_retries\":0,"));
  assert_non_null(strstr(out.s, "\"proxy_used\":0,"));
  buf_release(&out);
  buf_release(&err);
  sample_release(&s);
}

/* The table: sorted by name (curl's %{json} order), every name accepted
 * by the check and written once by %{json}. */
static void test_table(void **state)
{
  const struct field *f;
  struct sample s;
  struct buf out, err;

  (void)state;
  make_sample(&s);
  buf_init(&out, 0);
  buf_init(&err, 0);
  render("%{json}", &s, &out, &err);
  for (f = report_writeout_fields; f->name; f++) {
    char fmt[64], key[64], e[256];

    if (f != report_writeout_fields && strcmp(f[-1].name, f->name) >= 0) {
      print_error("%s is not after %s\n", f->name, f[-1].name);
      fail();
    }
    snprintf(fmt, sizeof(fmt), "%%{%s}", f->name);
    CHECK_INT(fmt, report_writeout_check(fmt, e, sizeof(e)), 0);
    snprintf(key, sizeof(key), "\"%s\":", f->name);
    assert_non_null(strstr(out.s, key));
    assert_null(strstr(strstr(out.s, key) + 1, key));
  }
  buf_release(&out);
  buf_release(&err);
  sample_release(&s);
}

static void test_check(void **state)
{
  static const struct {
    const char *fmt, *err; /* NULL: accepted */
  } cases[] = {
      {"plain text", NULL},
      {"%{http_code}\\n", NULL},
      {"%%{not a variable}", NULL},
      {"%{time_totl}", "unknown variable '%{time_totl}' (did you mean "
                       "'%{time_total}'?)"},
      {"%{zzzzzzzzzzzz}", "unknown variable '%{zzzzzzzzzzzz}' (see"},
      {"%{http_code", "without a closing '}'"},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    char e[256] = "";
    int rc = report_writeout_check(cases[i].fmt, e, sizeof(e));

    CHECK_INT(cases[i].fmt, rc, cases[i].err ? -1 : 0);
    if (cases[i].err && !strstr(e, cases[i].err)) {
      print_error("case %s: '%s' lacks '%s'\n", cases[i].fmt, e, cases[i].err);
      fail();
    }
  }
}

static void test_status_specs(void **state)
{
  static const struct {
    const char *spec;
    long lo, hi; /* lo 0: refused */
  } cases[] = {
      {"200", 200, 200}, {"2xx", 200, 299}, {"5XX", 500, 599},
      {"404", 404, 404}, {"600", 0, 0},     {"2xxx", 0, 0},
      {"abc", 0, 0},     {"", 0, 0},        {"099", 0, 0},
  };
  size_t i;

  (void)state;
  for (i = 0; i < ARRAY_SIZE(cases); i++) {
    struct check c;
    char e[256];
    int rc;

    memset(&c, 0, sizeof(c));
    rc = check_parse_status(cases[i].spec, &c, e, sizeof(e));
    CHECK_INT(cases[i].spec, rc, cases[i].lo ? 0 : -1);
    if (cases[i].lo) {
      CHECK_INT(cases[i].spec, c.status_lo[0], cases[i].lo);
      CHECK_INT(cases[i].spec, c.status_hi[0], cases[i].hi);
    }
  }
}

static int set(struct options *o, const char *name, const char *val, char *err,
               size_t errlen)
{
  return options_set(o, options_find(name), val, err, errlen);
}

static void test_bodies(void **state)
{
  struct options o;
  char err[256], path[] = "/tmp/hopsplit-body-XXXXXX";
  int fd = mkstemp(path);
  FILE *f;

  (void)state;
  assert_true(fd >= 0);
  f = fdopen(fd, "w");
  fputs("a\r\nb\n", f);
  fclose(f);
  {
    char at[64];

    snprintf(at, sizeof(at), "@%s", path);
    /* -d: '&' between pieces, CR and LF of @FILE left out */
    options_init(&o);
    assert_int_equal(set(&o, "data", "x=1", err, sizeof(err)), 0);
    assert_int_equal(set(&o, "data", at, err, sizeof(err)), 0);
    assert_int_equal((int)o.body_len, 6);
    assert_memory_equal(o.body, "x=1&ab", 6);
    assert_string_equal(options_method(&o), "POST");
    options_release(&o);
    /* --data-binary keeps them; --json appends without '&' */
    options_init(&o);
    assert_int_equal(set(&o, "data-binary", at, err, sizeof(err)), 0);
    assert_int_equal(set(&o, "json", "{}", err, sizeof(err)), 0);
    assert_int_equal((int)o.body_len, 7);
    assert_memory_equal(o.body, "a\r\nb\n{}", 7);
    assert_true(o.body_json);
    options_release(&o);
    /* --data-raw: '@' is a character */
    options_init(&o);
    assert_int_equal(set(&o, "data-raw", at, err, sizeof(err)), 0);
    assert_string_equal(o.body, at);
    /* -X wins over the POST a body implies; -I excludes a body */
    assert_int_equal(set(&o, "request", "PUT", err, sizeof(err)), 0);
    assert_string_equal(options_method(&o), "PUT");
    assert_int_equal(set(&o, "head", NULL, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "HEAD request has no body"));
    options_release(&o);
  }
  unlink(path);
  options_init(&o);
  assert_int_equal(set(&o, "data", "@/nonexistent/body", err, sizeof(err)),
                   -1);
  assert_non_null(strstr(err, "cannot read '/nonexistent/body'"));
  assert_int_equal(set(&o, "data", "@", err, sizeof(err)), -1);
  assert_string_equal(options_method(&o), "GET");
  assert_int_equal(set(&o, "head", NULL, err, sizeof(err)), 0);
  assert_string_equal(options_method(&o), "HEAD");
  options_release(&o);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_variables),
      cmocka_unit_test(test_stderr_and_json),
      cmocka_unit_test(test_no_response),
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_check),
      cmocka_unit_test(test_status_specs),
      cmocka_unit_test(test_bodies),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);

  strpool_release_all();
  return rc;
}
