/*
 * version.h: hopsplit -V (version.c).
 */
#ifndef HOPSPLIT_VERSION_H
#define HOPSPLIT_VERSION_H

#include <stdio.h>

/* Print the versions of hopsplit and of every library it runs on, and
 * libcurl's features, to f. */
void version_print(FILE *f);

#endif
