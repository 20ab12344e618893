#!/bin/sh
# headers: every function a header of src/<stage>/ declares is defined in
# that stage (STYLE 5.2, 5.6: a header's functions live in one stage), read
# from the stage libraries' objects with nm (headers.py).
set -u
SRC=${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${HOPSPLIT_BUILD:-$SRC/build}
if ! command -v nm >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  echo "headers: nm or python3 missing" >&2
  [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ] && exit 1
  exit 77
fi
exec python3 "$SRC/tests/docs/headers.py" "$SRC" "$BUILD"
