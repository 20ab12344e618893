/*
 * cmd_merge.h: "hopsplit merge [--format F] [-o FILE] A.json B.json ..."
 * (hopsplit(1)): runs saved in several places, one comparison across the
 * vantage points.
 */
#ifndef HOPSPLIT_CMD_MERGE_H
#define HOPSPLIT_CMD_MERGE_H

/* argv[0] is "merge".  Returns the exit status: 0, 2 for a usage error,
 * fewer than two files or a file that is not hopsplit/1 JSON, 4 when a
 * file cannot be read or written. */
int cmd_merge(int argc, char **argv);

#endif
