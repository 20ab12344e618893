/*
 * test_options.c: the option table (sorted, unique short names), the
 * setter's validation, and the command line parser.
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

#include "cli.h"
#include "option_table.h"
#include "options.h"
#include "plan.h"

static void test_table_sorted(void **state)
{
  size_t i, j;

  (void)state;
  for (i = 1; i < OPT_COUNT; i++)
    assert_true(strcmp(options_table[i - 1].name, options_table[i].name) < 0);
  for (i = 0; i < OPT_COUNT; i++) {
    assert_int_equal(options_table[i].id, (int)i);
    assert_ptr_equal(options_find(options_table[i].name), &options_table[i]);
    for (j = i + 1; j < OPT_COUNT; j++)
      if (options_table[i].short_name)
        assert_true(options_table[i].short_name !=
                    options_table[j].short_name);
  }
  assert_null(options_find("nope"));
  assert_string_equal(options_suggest("round", OPT_CMD_MEASURE), "rounds");
  assert_string_equal(options_suggest("max-redir", OPT_CMD_MEASURE),
                      "max-redirs");
  assert_null(options_suggest("zzzzzzzz", OPT_CMD_MEASURE));
  /* A near miss among the command's own options only. */
  assert_string_equal(options_suggest("formt", OPT_CMD_REPORT), "format");
  assert_null(options_suggest("round", OPT_CMD_REPORT));
  assert_string_equal(options_suggest("listn", OPT_CMD_SERVE), "listen");
  assert_null(options_suggest("listn", OPT_CMD_MEASURE));
  /* Every option is taken by some command; measuring ones by serve. */
  for (i = 0; i < OPT_COUNT; i++) {
    assert_true(options_table[i].cmds != 0);
    if (options_table[i].cmds & OPT_IN(OPT_CMD_MEASURE))
      assert_true(options_table[i].cmds & OPT_IN(OPT_CMD_SERVE));
  }
}

static int set(struct options *o, const char *name, const char *val)
{
  char err[256];

  return options_set(o, options_find(name), val, err, sizeof(err));
}

static void test_values(void **state)
{
  static const struct {
    const char *name;
    const char *val;
    int ok;
  } c[] = {
      {"rounds", "30", 1},
      {"rounds", "0", 0},
      {"rounds", "abc", 0},
      {"rounds", "-3", 0},
      {"mode", "cold,warm,resumed", 1},
      {"mode", "cold,,warm", 0},
      {"mode", "hot", 0},
      {"mode", "", 0},
      {"order", "shuffle", 1},
      {"order", "random", 0},
      {"pause", "250ms", 1},
      {"pause", "1x", 0},
      {"connect-timeout", "2s", 1},
      {"connect-timeout", "0", 0},
      {"max-time", "1.5", 1},
      {"max-redirs", "0", 1},
      {"max-redirs", "x", 0},
      {"header", "Accept: image/*", 1},
      {"header", "no colon", 0},
      {"header", ": empty name", 0},
      {"resolve", "example.com:443:192.0.2.1", 1},
      {"resolve", "example.com:443:192.0.2.1,2001:db8::1", 1},
      {"resolve", "example.com:443:[2001:db8::1]", 1},
      {"resolve", "example.com:443:[2001:db8::1", 0},
      {"resolve", "example.com:99999:192.0.2.1", 0},
      {"resolve", "example.com:443:not-an-ip", 0},
      {"resolve", "example.com", 0},
      {"dns-server", "127.0.0.1:5353", 1},
      {"dns-server", "127.0.0.1,[::1]:53", 1},
      {"dns-server", "::1", 1},
      {"dns-server", "dns.example", 0},
      {"dns-server", "127.0.0.1:0", 0},
      {"format", "json", 1},
      {"format", "xml", 0},
      {"color", "never", 1},
      {"color", "sometimes", 0},
      {"request", "HEAD", 1},
      {"request", "GET X", 0},
      {"seed", "12345", 1},
      {"seed", "-1", 0},
      {"output", "run.json", 1},
      {"output", "run.unknown", 1},
      {"output", "-", 0},
      {"output", "", 0},
      {"trace", "never", 1},
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
    struct options o;
    int rc;

    options_init(&o);
    rc = set(&o, c[i].name, c[i].val);
    if ((rc == 0) != c[i].ok)
      print_error("--%s '%s': got %s want %s\n", c[i].name, c[i].val,
                  rc == 0 ? "ok" : "error", c[i].ok ? "ok" : "error");
    assert_int_equal(rc == 0, c[i].ok);
    options_release(&o);
  }
}

/* argv with writable strings, as main() gets them. */
static char **mkargv(const char *const *a, int n)
{
  char **v = calloc((size_t)n + 1, sizeof(*v));
  int i;

  for (i = 0; i < n; i++)
    v[i] = strdup(a[i]);
  return v;
}

static void freeargv(char **v)
{
  size_t i;

  for (i = 0; v[i]; i++)
    free(v[i]);
  free(v);
}

static int parse(struct cli *c, const char *const *a, int n)
{
  char **v = mkargv(a, n);
  int rc = cli_parse(c, OPT_CMD_MEASURE, n, v);

  /* Only for cases whose positional arguments are not looked at: cli
   * borrows them from argv, which goes here. */
  freeargv(v);
  return rc;
}

static void test_cli(void **state)
{
  static const char *const a[] = {
      "hopsplit", "-n5",    "--mode=cold,resumed", "-qk", "-H", "X-A: 1",
      "--",       "-weird", "https://example.com/"};
  char **argv = mkargv(a, 9);
  struct cli c;

  (void)state;
  assert_int_equal(cli_parse(&c, OPT_CMD_MEASURE, 9, argv), 0);
  assert_int_equal(c.opts.rounds, 5);
  assert_int_equal(c.opts.modes, (1u << MODE_COLD) | (1u << MODE_RESUMED));
  assert_int_equal(c.opts.verbosity, -1);
  assert_int_equal(c.opts.insecure, 1);
  assert_int_equal(c.opts.n_headers, 1);
  assert_string_equal(c.opts.headers[0], "X-A: 1");
  assert_int_equal(c.n_args, 2);
  assert_string_equal(c.args[0], "-weird");
  cli_release(&c);
  freeargv(argv);
}

static void test_cli_errors(void **state)
{
  static const char *const a1[] = {"hopsplit", "--rounds"};
  static const char *const a2[] = {"hopsplit", "--roundz", "3"};
  static const char *const a3[] = {"hopsplit", "--insecure=yes"};
  static const char *const a4[] = {"hopsplit", "-Z"};
  struct cli c;

  (void)state;
  assert_int_equal(parse(&c, a1, 2), -1);
  cli_release(&c);
  assert_int_equal(parse(&c, a2, 3), -1);
  cli_release(&c);
  assert_int_equal(parse(&c, a3, 2), -1);
  cli_release(&c);
  assert_int_equal(parse(&c, a4, 2), -1);
  cli_release(&c);
}

/* One case of the one parser: a command line of a command, the status,
 * and a part of what stderr says (NULL: nothing), or what it set. */
struct cmd_case {
  enum opt_cmd cmd;
  const char *argv[6];
  int rc;
  const char *err;
};

static const struct cmd_case cmd_cases[] = {
    /* report and merge: their options, bundled, --opt=value, -oFILE. */
    {OPT_CMD_REPORT, {"report", "-qv", "--format=json", "r.json"}, 0, NULL},
    {OPT_CMD_REPORT, {"report", "-ox.csv", "--brief", "r.json"}, 0, NULL},
    {OPT_CMD_REPORT,
     {"report", "--formt", "json"},
     -1,
     "report: unknown option '--formt' (did you mean '--format'?)"},
    {OPT_CMD_REPORT,
     {"report", "--rounds", "3", "r.json"},
     -1,
     "report: unknown option '--rounds': hopsplit report re-renders"},
    {OPT_CMD_REPORT, {"report", "-qn3"}, -1, "report: unknown option '-n'"},
    {OPT_CMD_REPORT, {"report", "--format"}, -1, "--format needs a value"},
    {OPT_CMD_REPORT, {"report", "--brief=1"}, -1, "--brief takes no value"},
    {OPT_CMD_REPORT,
     {"report", "--listen", "x"},
     -1,
     "report: unknown option '--listen'"},
    {OPT_CMD_MERGE, {"merge", "-q", "a.json", "b.json"}, 0, NULL},
    {OPT_CMD_MERGE,
     {"merge", "--rounds=3", "a.json"},
     -1,
     "merge: unknown option '--rounds': hopsplit merge merges"},
    {OPT_CMD_MERGE,
     {"merge", "--colr", "never"},
     -1,
     "merge: unknown option '--colr' (did you mean '--color'?)"},
    /* serve: its own options and every measuring one. */
    {OPT_CMD_SERVE,
     {"serve", "--listen=127.0.0.1:1", "--max-concurrent", "5", "-k"},
     0,
     NULL},
    {OPT_CMD_SERVE,
     {"serve", "--max-concurrent=0"},
     -1,
     "option --max-concurrent: '0' is not a number from 1 to 100000"},
    {OPT_CMD_SERVE,
     {"serve", "--max-concurrent", "2.5"},
     -1,
     "option --max-concurrent: '2.5' is not a whole number"},
    {OPT_CMD_SERVE,
     {"serve", "--timeout-offset=-1"},
     -1,
     "option --timeout-offset: '-1' is not a number from 0 to 3600"},
    {OPT_CMD_SERVE,
     {"serve", "--max-concurrent"},
     -1,
     "option --max-concurrent needs a value"},
    {OPT_CMD_SERVE,
     {"serve", "--lsten", "x"},
     -1,
     "unknown option '--lsten' (did you mean '--listen'?)"},
    /* The URL form: serve's options are serve's, curl's answered. */
    {OPT_CMD_MEASURE,
     {"hopsplit", "--listen", "x"},
     -1,
     "unknown option '--listen': it is hopsplit serve's"},
    {OPT_CMD_MEASURE,
     {"hopsplit", "--config", "x"},
     -1,
     "curl's option '--config' is not hopsplit's"},
    {OPT_CMD_MEASURE,
     {"hopsplit", "-sSvK", "x"},
     -1,
     "curl's option '-K' is not hopsplit's"},
    {OPT_CMD_MEASURE,
     {"hopsplit", "--roundz=3"},
     -1,
     "unknown option '--roundz' (did you mean '--rounds'?)"},
};

/* What cli_parse printed on stderr, read back from a temporary file. */
static int parse_captured(const struct cmd_case *k, struct cli *c, char *out,
                          size_t len)
{
  const char *const *a = k->argv;
  int n = 0, rc, saved;
  FILE *tmp = tmpfile();
  size_t got;

  while (n < 6 && a[n])
    n++;
  assert_non_null(tmp);
  fflush(stderr);
  saved = dup(2);
  dup2(fileno(tmp), 2);
  {
    char **v = mkargv(a, n);

    rc = cli_parse(c, k->cmd, n, v);
    fflush(stderr);
    freeargv(v);
  }
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  got = fread(out, 1, len - 1, tmp);
  out[got] = '\0';
  fclose(tmp);
  return rc;
}

static void test_cli_commands(void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(cmd_cases) / sizeof(cmd_cases[0]); i++) {
    const struct cmd_case *k = &cmd_cases[i];
    struct cli c;
    char err[1024];
    int rc = parse_captured(k, &c, err, sizeof(err));

    if (rc != k->rc || (k->err && !strstr(err, k->err)) || (!k->err && err[0]))
      fail_msg("case %zu (%s %s): rc %d, want %d; stderr '%s', want '%s'", i,
               k->argv[0], k->argv[1], rc, k->rc, err, k->err ? k->err : "");
    if (i == 0) {
      assert_int_equal(c.opts.format, FORMAT_JSON);
      assert_int_equal(c.n_args, 1);
    }
    if (i == 1) {
      assert_int_equal(c.opts.n_outputs, 1);
      assert_string_equal(c.opts.outputs[0].path, "x.csv");
      assert_int_equal(c.opts.brief, 1);
    }
    if (k->cmd == OPT_CMD_SERVE && rc == 0) {
      assert_string_equal(c.opts.serve_listen, "127.0.0.1:1");
      assert_int_equal(c.opts.serve_max_concurrent, 5);
      assert_int_equal(c.opts.insecure, 1);
    }
    cli_release(&c);
  }
}

static void test_plan_names(void **state)
{
  struct options o;
  struct plan p;
  char one0[] = "example.com/x";
  char two0[] = "https://a.example/", two1[] = "https://a.example/y",
       two2[] = "cdn=https://c.example/";
  char dup0[] = "a=https://x.example/", dup1[] = "a=https://y.example/";
  char ftp0[] = "ftp://x.example/";
  char same0[] = "https://b.example/y?a=1",
       same1[] = "https://b.example/y?a=2", same2[] = "https://b.example/z";
  char *same[] = {same0, same1, same2};
  char *one[] = {one0};
  char *two[] = {two0, two1, two2};
  char *dup[] = {dup0, dup1};
  char *ftp[] = {ftp0};

  (void)state;
  options_init(&o);
  assert_int_equal(plan_build(&p, &o, one, 1), 0);
  assert_string_equal(p.targets[0].name, "example.com");
  assert_string_equal(p.targets[0].url, "https://example.com/x");
  assert_int_equal(p.n_items, 2);
  plan_release(&p);
  /* One host twice: named by host and path, unique (issue 38). */
  assert_int_equal(plan_build(&p, &o, two, 3), 0);
  assert_string_equal(p.targets[0].name, "a.example");
  assert_string_equal(p.targets[1].name, "a.example/y");
  assert_string_equal(p.targets[2].name, "cdn");
  plan_release(&p);
  /* The same host and path (another query): by position. */
  assert_int_equal(plan_build(&p, &o, same, 3), 0);
  assert_string_equal(p.targets[0].name, "t1");
  assert_string_equal(p.targets[1].name, "t2");
  assert_string_equal(p.targets[2].name, "b.example/z");
  plan_release(&p);
  assert_int_equal(plan_build(&p, &o, dup, 2), -1);
  assert_int_equal(plan_build(&p, &o, ftp, 1), -1);
  assert_int_equal(plan_build(&p, &o, NULL, 0), -1);
  options_release(&o);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_sorted), cmocka_unit_test(test_values),
      cmocka_unit_test(test_cli),          cmocka_unit_test(test_cli_errors),
      cmocka_unit_test(test_plan_names),   cmocka_unit_test(test_cli_commands),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
