/*
 * version.c: hopsplit -V, the versions of hopsplit and of every library it
 * runs on.  The library version calls live in their own files (probe for
 * libcurl, c-ares and OpenSSL); libyaml's in profile.c.
 */
#include <stdio.h>

#include "buf.h"
#include "version.h"
#include "probe.h"
#include "profile.h"
#include "banned.h"

void version_print(FILE *f)
{
  struct buf b;

  buf_init(&b, 0);
  probe_versions(&b);
  buf_printf(&b, " libyaml/%s\n", profile_yaml_version());
  probe_features(&b);
  fprintf(f, "hopsplit %s\n%s\n", HOPSPLIT_VERSION, b.s);
  buf_release(&b);
}
