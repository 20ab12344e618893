#!/bin/sh
# filecycles: no two source files need each other's symbols (STYLE 5.2),
# read from the stage libraries' objects with nm (filecycles.py).
set -u
SRC=${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${HOPSPLIT_BUILD:-$SRC/build}
if ! command -v nm >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  echo "filecycles: nm or python3 missing" >&2
  [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ] && exit 1
  exit 77
fi
exec python3 "$SRC/tests/docs/filecycles.py" "$BUILD"
