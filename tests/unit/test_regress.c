/*
 * test_regress.c: replays every fuzz input kept in the tree through the
 * fuzz harness (tests/fuzz/harness.c) on every build, without clang or
 * libFuzzer: the seed corpora (every file of tests/fuzz/corpus/TARGET) and the
 * findings (tests/fuzz/regress/TARGET-NAME, one file per bug fixed).  A
 * crash, a sanitizer report (ASan CI build) or a failed invariant fails
 * the case; the table is fuzz_targets[], one case per target.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>

#include "../fuzz/harness.c"

#define FUZZ_DIR HOPSPLIT_TEST_DATA "/../fuzz"

/* Read a whole file; NULL when it cannot be read. */
static uint8_t *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  struct buf b;
  char chunk[4096];
  size_t n;

  if (!f)
    return NULL;
  buf_init(&b, 0);
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    buf_add(&b, chunk, n);
  fclose(f);
  *len = b.len;
  return (uint8_t *)buf_detach(&b);
}

/* Run fn over the files of dir whose names start with prefix ("" for
 * all); return how many ran. */
static size_t replay_dir(const char *dir, const char *prefix, fuzz_fn fn)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  size_t n = 0;

  if (!d)
    return 0;
  while ((e = readdir(d)) != NULL) {
    char *path;
    uint8_t *data;
    size_t len = 0;

    if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)))
      continue;
    path = xasprintf("%s/%s", dir, e->d_name);
    data = slurp(path, &len);
    if (!data) {
      print_error("cannot read %s\n", path);
      fail();
    }
    fn(data, len);
    free(data);
    free(path);
    n++;
  }
  closedir(d);
  return n;
}

static void test_target(void **state)
{
  const struct fuzz_target *t = *state;
  char *corpus = xasprintf("%s/corpus/%s", FUZZ_DIR, t->name);
  char *prefix = xasprintf("%s-", t->name);
  size_t n;

  n = replay_dir(corpus, "", t->fn);
  if (n == 0) {
    print_error("target %s: no seed inputs in %s\n", t->name, corpus);
    fail();
  }
  replay_dir(FUZZ_DIR "/regress", prefix, t->fn);
  /* The empty input, which every parser must take. */
  t->fn((const uint8_t *)"", 0);
  free(prefix);
  free(corpus);
}

/* Every file in regress/ belongs to a known target. */
static void test_regress_names(void **state)
{
  DIR *d = opendir(FUZZ_DIR "/regress");
  struct dirent *e;
  size_t i;

  (void)state;
  assert_non_null(d);
  while ((e = readdir(d)) != NULL) {
    int known = 0;

    if (e->d_name[0] == '.')
      continue;
    for (i = 0; i < sizeof(fuzz_targets) / sizeof(fuzz_targets[0]); i++) {
      size_t l = strlen(fuzz_targets[i].name);

      if (!strncmp(e->d_name, fuzz_targets[i].name, l) && e->d_name[l] == '-')
        known = 1;
    }
    if (!known) {
      print_error("regress/%s: name it TARGET-WHAT\n", e->d_name);
      fail();
    }
  }
  closedir(d);
}

int main(void)
{
  struct CMUnitTest tests[sizeof(fuzz_targets) / sizeof(fuzz_targets[0]) + 1];
  size_t i, n = sizeof(fuzz_targets) / sizeof(fuzz_targets[0]);

  for (i = 0; i < n; i++) {
    struct CMUnitTest c = {fuzz_targets[i].name, test_target, NULL, NULL,
                           (void *)(uintptr_t)&fuzz_targets[i]};

    tests[i] = c;
  }
  {
    struct CMUnitTest c = cmocka_unit_test(test_regress_names);

    tests[n] = c;
  }
  return cmocka_run_group_tests_name("regress", tests, NULL, NULL);
}
