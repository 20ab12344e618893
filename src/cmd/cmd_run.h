/*
 * cmd_run.h: "hopsplit run [OPTIONS] PROFILE.yaml ...", the batch of YAML
 * profiles (hopsplit(1), hopsplit-profile(5)).
 */
#ifndef HOPSPLIT_CMD_RUN_H
#define HOPSPLIT_CMD_RUN_H

/* argv[0] is "run".  Returns the exit status (hopsplit(1)): the most severe of
 * the profiles' (130, then 4, 1, 3, 0), 2 when a profile has problems
 * (then nothing is measured). */
int cmd_run(int argc, char **argv);

#endif
