#!/bin/sh
# man: man/hopsplit.1 formats without a single groff warning (-ww), and
# mandoc -Tlint finds nothing above style level (both tools required:
# skipped without them, a failure under HOPSPLIT_TEST_REQUIRE).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
HS_NAME="man"
[ -n "${HOPSPLIT_SRC:-}" ] || HOPSPLIT_SRC=$(cd "$HS_LIB_DIR/../.." && pwd)
PAGE=$HOPSPLIT_SRC/man/hopsplit.1
[ -f "$PAGE" ] || hs_fail "$PAGE is missing"
hs_require groff mandoc

out=$(groff -ww -man -z "$PAGE" 2>&1)
[ -z "$out" ] || {
  printf '%s\n' "$out" >&2
  hs_fail "groff -ww -man reports problems in $PAGE"
}
out=$(mandoc -Tlint -Wwarning "$PAGE" 2>&1)
[ -z "$out" ] || {
  printf '%s\n' "$out" >&2
  hs_fail "mandoc -Tlint reports problems in $PAGE"
}
hs_pass
