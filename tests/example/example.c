/*
 * example.c: a client of libhopsplit built from the installed header and
 * `pkg-config hopsplit` alone (hopsplit(3) EXAMPLES).  It measures one URL
 * three times (cold), then prints each sample and the phases of each of
 * its hops, read by field name, and the text report's first line.
 *
 *   cc -o example example.c $(pkg-config --cflags --static --libs hopsplit)
 *   ./example URL [CA_FILE]
 *
 * Output, one line per sample and per hop:
 *   sample 0 mode=cold ok=true total_us=1234 hops=1
 *     hop 0 status=200 phases_us.dns=0 phases_us.connect=97 ...
 * a field not measured prints as name=null, never as 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hopsplit/hopsplit.h>

static const char *const phases[] = {
    "phases_us.dns",  "phases_us.connect",  "phases_us.tls",  "phases_us.send",
    "phases_us.wait", "phases_us.transfer", "phases_us.total"};

static void print_field(struct hs_results *r, size_t i, size_t k,
                        enum hs_field_kind kind, const char *name)
{
  const struct hs_field *f = hs_field_find(kind, name);
  struct hs_value v;

  if (!f || hs_results_get(r, i, k, f, &v) != HS_OK) {
    printf(" %s=?", name);
    return;
  }
  if (v.null)
    printf(" %s=null", name);
  else
    printf(" %s=%s", name, v.s);
}

static void on_log(enum hs_log_level level, const char *line, void *ud)
{
  (void)ud;
  fprintf(stderr, "example: %s%s\n", level == HS_LOG_ERROR ? "error: " : "",
          line);
}

/* The first line of the text report. */
static int first_line(const char *data, size_t len, void *ud)
{
  int *done = ud;
  const char *nl = memchr(data, '\n', len);

  if (!*done)
    printf("text: %.*s\n", (int)(nl ? (size_t)(nl - data) : len), data);
  *done = 1;
  return 0;
}

int main(int argc, char **argv)
{
  struct hs_options *o = NULL;
  struct hs_run *run = NULL;
  struct hs_results *r;
  enum hs_code c;
  size_t i, k, p;
  int done = 0, rc = 1;

  if (argc < 2) {
    fprintf(stderr, "usage: example URL [CA_FILE]\n");
    return 2;
  }
  printf("libhopsplit %s (header %s, at least 0.1.0: %s)\n", hs_version(),
         HS_VERSION, HS_AT_LEAST_VERSION(0, 1, 0) ? "yes" : "no");
  hs_set_log(on_log, NULL);
  if (hs_global_init() != HS_OK)
    return 1;
  o = hs_options_new();
  if ((c = hs_options_set(o, "rounds", "3")) != HS_OK ||
      (c = hs_options_set(o, "mode", "cold")) != HS_OK ||
      (argc > 2 && (c = hs_options_set(o, "cacert", argv[2])) != HS_OK) ||
      (c = hs_options_add_target(o, argv[1])) != HS_OK) {
    fprintf(stderr, "example: %s: %s\n", hs_strerror(c), hs_options_error(o));
    goto out;
  }
  /* A misspelt option is an error, with a suggestion. */
  if (hs_options_set(o, "round", "3") == HS_E_UNKNOWN_OPTION)
    printf("misspelt: %s\n", hs_options_error(o));
  c = hs_run_new(o, NULL, &run);
  if (c != HS_OK) {
    fprintf(stderr, "example: %s\n", hs_strerror(c));
    goto out;
  }
  /* Step by step on the run's own loop (hs_run_perform would do it all). */
  c = hs_run_start(run);
  while (c == HS_OK) {
    int running;

    c = hs_run_step(run, 1000, &running);
    if (!running)
      break;
  }
  if (c != HS_OK) {
    fprintf(stderr, "example: %s\n", hs_strerror(c));
    goto out;
  }
  r = hs_run_results(run);
  for (i = 0; i < hs_results_samples(r); i++) {
    printf("sample %zu", i);
    print_field(r, i, 0, HS_FIELD_SAMPLE, "mode");
    print_field(r, i, 0, HS_FIELD_SAMPLE, "ok");
    print_field(r, i, 0, HS_FIELD_SAMPLE, "total_us");
    printf(" hops=%zu\n", hs_results_hops(r, i));
    for (k = 0; k < hs_results_hops(r, i); k++) {
      printf("  hop %zu", k);
      print_field(r, i, k, HS_FIELD_HOP, "status");
      for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++)
        print_field(r, i, k, HS_FIELD_HOP, phases[p]);
      printf("\n");
    }
  }
  printf("failed: %zu\n", hs_results_failed(r));
  if (hs_results_render(r, "text", first_line, &done) != HS_OK)
    goto out;
  rc = hs_results_failed(r) ? 1 : 0;
out:
  hs_run_free(run);
  hs_options_free(o);
  hs_global_cleanup();
  return rc;
}
