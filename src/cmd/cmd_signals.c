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
