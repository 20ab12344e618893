#!/bin/sh
# format: every C file the project formats (the list .ci/run used to
# check) is as the repository's .clang-format wants it:
# clang-format --dry-run --Werror prints nothing.  Skipped without
# clang-format, a failure under HOPSPLIT_TEST_REQUIRE (scripts/test
# installs the Debian package).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init format
hs_require clang-format
cd "$HOPSPLIT_SRC" || hs_fail "cannot enter $HOPSPLIT_SRC"
[ -f .clang-format ] || hs_fail ".clang-format is missing"
set -- src/*.c src/*/*.c src/*/*.h include/hopsplit/*.h tests/unit/*.c \
  tests/fuzz/*.c
for f in "$@"; do
  [ -f "$f" ] || hs_fail "no file matches $f"
done
[ "$#" -ge 50 ] || hs_fail "only $# C files found: the globs are wrong"
clang-format --dry-run --Werror "$@" >"$HS_DIR/format.out" 2>&1 || {
  head -c 8000 "$HS_DIR/format.out" >&2
  hs_fail "clang-format wants changes (run clang-format -i on the files above)"
}
hs_pass
