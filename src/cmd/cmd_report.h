/*
 * cmd_report.h: "hopsplit report [--format F] [-o FILE] RESULTS.json"
 * (hopsplit(1)): re-render saved results without touching the network.
 */
#ifndef HOPSPLIT_CMD_REPORT_H
#define HOPSPLIT_CMD_REPORT_H

/* argv[0] is "report".  Returns the exit status (hopsplit(1)): 0, 2 for a
 * usage error or a file that is not hopsplit/1 JSON, 4 when a file cannot
 * be read or written. */
int cmd_report(int argc, char **argv);

#endif
