#!/bin/sh
# docs/shellcheck: the shell scripts pass shellcheck (Debian's package).
# scripts/, .ci/ and the package's maintainer files under debian/ at every
# severity; the test scripts (tests/) at severity warning and above, with
# their sourced fixtures not followed (SC1091: their paths are computed;
# SC2034: a variable set for a fixture function looks unused without them).
# And no function of a script that another sources assigns the caller's
# variables (sourced_vars.py): scripts/build once lost its package list
# to a function of scripts/backports that assigned "pkgs".  Skipped
# without shellcheck, a failure under HOPSPLIT_TEST_REQUIRE (scripts/test
# installs it).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init shellcheck
hs_require shellcheck
cd "$HOPSPLIT_SRC" || hs_fail "cannot enter $HOPSPLIT_SRC"

# A shell script: a file whose first line runs sh or bash.
is_sh() {
  head -n 1 "$1" 2>/dev/null | grep -Eq '^#! *(/usr)?/bin/(env +)?(ba|da)?sh( |$)'
}
strict=
for f in scripts/* .ci/* debian/*.postinst debian/*.postrm debian/*.preinst \
  debian/*.prerm; do
  [ -f "$f" ] && is_sh "$f" && strict="$strict $f"
done
case $strict in
  *scripts/build*scripts/test* | *scripts/test*scripts/build*) ;;
  *) hs_fail "scripts/build and scripts/test not among the scripts found:$strict" ;;
esac
# shellcheck disable=SC2086
shellcheck -f gcc $strict >"$HS_DIR/strict.out" 2>&1 || {
  head -c 8000 "$HS_DIR/strict.out" >&2
  hs_fail "shellcheck finds the problems above in scripts/, .ci/ or debian/"
}

tests=$(find tests -type f ! -path '*/node_modules/*' ! -name '*.py' \
  ! -name '*.c' ! -name '*.h' ! -name '*.txt' | sort | while read -r f; do
  is_sh "$f" && echo "$f"
done)
n=$(echo "$tests" | grep -c .)
[ "$n" -ge 50 ] || hs_fail "only $n shell scripts found under tests/"
# shellcheck disable=SC2086
shellcheck -S warning -e SC1091,SC2034 -f gcc $tests >"$HS_DIR/tests.out" 2>&1 || {
  head -c 8000 "$HS_DIR/tests.out" >&2
  hs_fail "shellcheck finds the problems above in the test scripts"
}

"${HS_PYTHON:-python3}" "$HOPSPLIT_SRC/tests/docs/sourced_vars.py" \
  "$HOPSPLIT_SRC" scripts .ci >"$HS_DIR/vars.out" 2>&1 || {
  cat "$HS_DIR/vars.out" >&2
  hs_fail "a function of a sourced script assigns its caller's variables"
}
# shellcheck disable=SC2086
set -- $strict
hs_log "$# scripts at every severity, $n test scripts at warning;" \
  "$(tail -n 1 "$HS_DIR/vars.out")"
hs_pass
