/*
 * version.c: hopsplit -V, the versions of hopsplit and of every library it
 * runs on, as libhopsplit says them (hs_version_text).
 */
#include <stdio.h>

#include <hopsplit/hopsplit.h>

#include "version.h"

static int put(const char *data, size_t len, void *ud)
{
  return fwrite(data, 1, len, ud) == len ? 0 : -1;
}

void version_print(FILE *f)
{
  fprintf(f, "hopsplit %s\n", HOPSPLIT_VERSION);
  hs_version_text(put, f);
  fputc('\n', f);
}
