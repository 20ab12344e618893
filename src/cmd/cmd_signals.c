/*
 * cmd_signals.c: the tool's signal handlers (cmd_signals.h), a client of
 * libhopsplit's hs_run_cancel.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <hopsplit/hopsplit.h>

#include "cmd_signals.h"

static void (*volatile second_hook)(void);
static volatile sig_atomic_t signalled;

static void on_signal(int sig)
{
  (void)sig;
  if (signalled) {
    /* Second signal: leave at once, without a temporary file.  Nothing
     * unflushed is lost: ndjson lines are only ever written whole. */
    if (second_hook)
      second_hook();
    _exit(130);
  }
  signalled = 1;
  /* Every run stops at its next sample; a waiting loop is woken. */
  hs_run_cancel(NULL);
}

void cmd_signals_install(void (*on_second)(void))
{
  struct sigaction sa;

  second_hook = on_second;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
}

/* The temporary files go, then the process ends as the signal would have
 * ended it. */
static void on_signal_leave(int sig)
{
  hs_unlink_temps();
  signal(sig, SIG_DFL);
  raise(sig);
}

void cmd_signals_catch(void)
{
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction sa;
  size_t i;

  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal_leave;
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
    sigaction(sigs[i], &sa, NULL);
}
