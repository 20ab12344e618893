/*
 * test_lib_cli.c: unit tests of libhopsplit's command line side
 * (hopsplit.h), through the public header alone, as the tool uses it:
 * the option table, options finished and queried, a profile's errors,
 * the outputs' checks, a saved document that is not there.
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

#include <hopsplit/hopsplit.h>

#include "banned.h"

/* Every row of the table, sorted by name, each for some command; no
 * short letter twice; a row past the last is HS_E_RANGE. */
static void test_option_table(void **state)
{
  struct hs_option_info d, prev;
  unsigned seen[256] = {0};
  size_t i;

  (void)state;
  for (i = 0; hs_option_info(i, &d) == HS_OK; i++) {
    assert_non_null(d.name);
    assert_non_null(d.help);
    assert_true(d.commands != 0);
    assert_int_equal(d.takes_value != 0, d.argname != NULL);
    if (i)
      assert_true(strcmp(prev.name, d.name) < 0);
    if (d.short_name)
      assert_int_equal(seen[(unsigned char)d.short_name]++, 0);
    prev = d;
  }
  assert_true(i > 50);
  assert_int_equal(hs_option_info(i, &d), HS_E_RANGE);
  assert_null(d.name);
  assert_string_equal(hs_option_suggest("round", HS_COMMAND_MEASURE),
                      "rounds");
  assert_string_equal(hs_option_suggest("formt", HS_COMMAND_REPORT), "format");
  assert_null(hs_option_suggest("round", HS_COMMAND_REPORT));
  assert_null(hs_option_suggest("round", HS_COMMAND_COUNT));
}

/* The queries a front end asks, before and after options; finish's error
 * for an -o FILE no format names. */
static void test_options_query_finish(void **state)
{
  struct hs_options *o = hs_options_new();

  (void)state;
  assert_int_equal(hs_options_query(o, HS_QUERY_HELP), 0);
  assert_int_equal(hs_options_query(o, HS_QUERY_VERBOSITY), 0);
  assert_int_equal(hs_options_query(o, HS_QUERY_PROGRESS), -1);
  assert_int_equal(hs_options_query(o, HS_QUERY_TEXT_REPORT), 1);
  assert_int_equal(hs_options_set(o, "silent", NULL), HS_OK);
  assert_int_equal(hs_options_query(o, HS_QUERY_VERBOSITY), -1);
  assert_int_equal(hs_options_query(o, HS_QUERY_PROGRESS), 0);
  assert_int_equal(hs_options_set(o, "show-error", NULL), HS_OK);
  assert_int_equal(hs_options_query(o, HS_QUERY_VERBOSITY), 0);
  assert_int_equal(hs_options_set(o, "write-out", "%{time_total}\n"), HS_OK);
  assert_int_equal(hs_options_query(o, HS_QUERY_TEXT_REPORT), 0);
  assert_int_equal(hs_options_set(o, "format", "text"), HS_OK);
  assert_int_equal(hs_options_query(o, HS_QUERY_TEXT_REPORT), 1);
  assert_int_equal(hs_options_set(o, "dry-run", NULL), HS_OK);
  assert_int_equal(hs_options_query(o, HS_QUERY_DRY_RUN), 1);
  assert_int_equal(hs_options_set(o, "rounds", "x"), HS_E_BAD_VALUE);
  assert_int_equal(strncmp(hs_options_error(o), "option 'rounds': ", 17), 0);
  hs_options_free(o);

  o = hs_options_new();
  assert_int_equal(hs_options_set(o, "output", "photo.jpg"), HS_OK);
  assert_int_equal(hs_options_finish(o, HS_COMMAND_MEASURE), HS_E_BAD_VALUE);
  assert_non_null(strstr(hs_options_error(o), "option -o: 'photo.jpg'"));
  assert_null(hs_options_profile(o, NULL));
  hs_options_free(o);
}

/* A profile's problems come back as FILE:LINE:COL, the first in
 * hs_options_error; a good one gives its name and file. */
static void test_profile(void **state)
{
  char path[] = "/tmp/test_lib_cli.XXXXXX";
  const char *file = NULL;
  struct hs_options *o = hs_options_new();
  int fd = mkstemp(path);
  FILE *f;

  (void)state;
  assert_true(fd >= 0);
  f = fdopen(fd, "w");
  assert_non_null(f);
  fputs("name: p\ntargets:\n  - url: https://a.invalid/\n    bogus: 1\n", f);
  fclose(f);
  hs_set_verbosity(-1);
  assert_int_equal(hs_options_load_profile(o, path, NULL), HS_E_BAD_VALUE);
  assert_int_equal(strncmp(hs_options_error(o), path, strlen(path)), 0);
  assert_null(hs_options_profile(o, NULL));
  f = fopen(path, "w");
  assert_non_null(f);
  fputs("name: p\ntargets:\n  - url: https://a.invalid/\n", f);
  fclose(f);
  assert_int_equal(hs_options_load_profile(o, path, NULL), HS_OK);
  assert_string_equal(hs_options_profile(o, &file), "p");
  assert_string_equal(file, path);
  assert_int_equal(hs_options_outputs(o, HS_OUTPUTS_WRITABLE), HS_OK);
  hs_options_free(o);
  unlink(path);
  hs_set_verbosity(0);
}

/* Outputs that cannot be written, a document that is not there. */
static void test_outputs_open(void **state)
{
  struct hs_options *o = hs_options_new();
  struct hs_results *r = (struct hs_results *)1;
  const char *paths[] = {"/nonexistent/a.json", "/nonexistent/b.json"};

  (void)state;
  hs_set_log(NULL, NULL);
  hs_set_verbosity(-1);
  /* Under a regular file: no directory to create it in, even as root. */
  assert_int_equal(hs_options_set(o, "output", "/dev/null/dir/r.json"), HS_OK);
  assert_int_equal(hs_options_finish(o, HS_COMMAND_REPORT), HS_OK);
  assert_int_equal(hs_options_outputs(o, HS_OUTPUTS_WRITABLE), HS_E_IO);
  assert_int_equal(hs_options_outputs(o, HS_OUTPUTS_CREATABLE), HS_E_IO);
  assert_int_equal(hs_options_outputs(o, HS_OUTPUTS_MAKE_DIRS), HS_OK);
  assert_int_equal(hs_results_open("/nonexistent/r.json", o, &r), HS_E_IO);
  assert_null(r);
  r = (struct hs_results *)1;
  assert_int_equal(hs_results_merge(paths, 2, o, &r), HS_E_IO);
  assert_null(r);
  assert_int_equal(hs_results_merge(paths, 1, o, &r), HS_E_RANGE);
  assert_string_equal(hs_strerror(HS_E_IO), "cannot read or write a file");
  hs_options_free(o);
  hs_set_verbosity(0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_option_table),
      cmocka_unit_test(test_options_query_finish),
      cmocka_unit_test(test_profile),
      cmocka_unit_test(test_outputs_open),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
