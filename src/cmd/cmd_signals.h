/*
 * cmd_signals.h: the tool's SIGINT and SIGTERM (hopsplit(1) EXIT STATUS):
 * the first stops the run at its next sample (hs_run_cancel: what was
 * measured is reported, exit 130); a second leaves at once, after
 * on_second (async-signal-safe: the report's temporary files are
 * unlinked), with 130.  SIGPIPE is ignored.  The library installs no
 * handler: signals are the tool's (issue 34).
 */
#ifndef HOPSPLIT_CMD_SIGNALS_H
#define HOPSPLIT_CMD_SIGNALS_H

void cmd_signals_install(void (*on_second)(void));
/* For commands that do not measure (hopsplit report): SIGINT, SIGTERM
 * and SIGHUP remove the report's temporary files (hs_unlink_temps), then
 * end the process as the signal would have. */
void cmd_signals_catch(void);

#endif
