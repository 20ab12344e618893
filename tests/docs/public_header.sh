#!/bin/sh
# public_header: include/hopsplit/hopsplit.h compiles on its own, as a user
# of the installed library includes it: C11 with -Wall -Wextra -Werror
# -pedantic, nothing on the include path but include/ (version.h is a file
# of the tree, not generated into the build).
set -u
SRC=${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
TMP=${HOPSPLIT_TMP:-${TMPDIR:-/tmp}/hs-public-header}
CC=${CC:-cc}
mkdir -p "$TMP"
printf '#include <hopsplit/hopsplit.h>\nint main(void) { return HS_AT_LEAST_VERSION(0, 0, 1) ? 0 : 1; }\n' >"$TMP/alone.c"
if ! "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$SRC/include" \
  -c "$TMP/alone.c" -o "$TMP/alone.o"; then
  echo "public_header: include/hopsplit/hopsplit.h does not compile on its own" >&2
  exit 1
fi
echo "public_header: ok"
