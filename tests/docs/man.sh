#!/bin/sh
# man: man/hopsplit.1 formats without a single groff warning (-ww), and
# mandoc -Tlint finds nothing above style level when mandoc is installed.
# Skipped while the page does not exist.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
HS_NAME="man"
[ -n "${HOPSPLIT_SRC:-}" ] || HOPSPLIT_SRC=$(cd "$HS_LIB_DIR/../.." && pwd)
PAGE=$HOPSPLIT_SRC/man/hopsplit.1
[ -f "$PAGE" ] || hs_skip "$PAGE does not exist yet"
hs_require groff

out=$(groff -ww -man -z "$PAGE" 2>&1)
[ -z "$out" ] || {
  printf '%s\n' "$out" >&2
  hs_fail "groff -ww -man reports problems in $PAGE"
}
if command -v mandoc >/dev/null 2>&1; then
  out=$(mandoc -Tlint -Wwarning "$PAGE" 2>&1)
  [ -z "$out" ] || {
    printf '%s\n' "$out" >&2
    hs_fail "mandoc -Tlint reports problems in $PAGE"
  }
fi
hs_pass
