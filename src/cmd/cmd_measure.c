/*
 * cmd_measure.c: a measurement of the tool (cmd_measure.h): the progress
 * line and the signals are the tool's, the rest libhopsplit's.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <hopsplit/hopsplit.h>

#include "cmd_measure.h"
#include "cmd_signals.h"
#include "banned.h"

/* The progress line on stderr (hs_run_set_progress).  target NULL: the
 * samples are over, the line goes. */
static void progress(size_t k, size_t n, const char *target, const char *mode,
                     int64_t elapsed_ms, void *ud)
{
  /* One line of at most 79 columns: a 20-cell bar, sample k+1 of n, the
   * target (cut to fit), the mode, and the time left, estimated from the
   * mean time per sample so far (unknown before the first one ends). */
  static int64_t drawn_ms = -1;
  char bar[21], eta[64];
  size_t fill = n ? (k * 20) / n : 0, i;
  long left =
      k ? (long)((elapsed_ms * (int64_t)(n - k)) / (int64_t)k / 1000) : -1;

  (void)ud;
  if (!target) {
    drawn_ms = -1;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    return;
  }
  /* At most ten times a second (the first sample's always): a warm
   * loopback sample takes some 200 us, and a line drawn before each would
   * keep the terminal busy beside the measuring. */
  if (drawn_ms >= 0 && elapsed_ms >= drawn_ms && elapsed_ms - drawn_ms < 100)
    return;
  drawn_ms = elapsed_ms;
  for (i = 0; i < 20; i++)
    bar[i] = i < fill ? '#' : '.';
  bar[20] = '\0';
  if (left < 0)
    snprintf(eta, sizeof(eta), "--:--");
  else if (left >= 3600)
    snprintf(eta, sizeof(eta), "%ld:%02ld:%02ld", left / 3600, left / 60 % 60,
             left % 60);
  else
    snprintf(eta, sizeof(eta), "%ld:%02ld", left / 60, left % 60);
  fprintf(stderr, "\r\033[K[%s] %zu/%zu %-.24s %s eta %s", bar, k + 1, n,
          target, mode, eta);
  fflush(stderr);
}

int cmd_measure(struct hs_run *r, const struct hs_options *o,
                const char *heading)
{
  struct hs_results *res;
  long show = hs_options_query(o, HS_QUERY_PROGRESS);
  enum hs_code c;
  int report_rc;

  if (show > 0 || (show < 0 && isatty(STDERR_FILENO)))
    hs_run_set_progress(r, progress, NULL);
  cmd_signals_install(hs_unlink_temps);
  c = hs_run_perform(r);
  if (c == HS_E_SETUP)
    return EXIT_STATUS_SETUP;
  res = hs_run_results(r);
  if (heading && hs_options_query(o, HS_QUERY_TEXT_REPORT))
    fputs(heading, stdout);
  report_rc = hs_results_write(res, o) == HS_OK ? 0 : -1;
  /* After the report, as curl says "curl: (7) ..." last. */
  hs_results_log_failures(res);
  if (c == HS_E_CANCELLED)
    return EXIT_STATUS_INTERRUPTED;
  if (report_rc < 0)
    return EXIT_STATUS_SETUP;
  if (hs_results_checks_failed(res))
    return EXIT_STATUS_CHECK;
  if (hs_results_failed(res))
    return EXIT_STATUS_SAMPLES;
  return EXIT_STATUS_OK;
}
