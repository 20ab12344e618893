#!/bin/sh
# profile_errors: every broken profile of tests/data/profiles/bad/ exits 2
# with nothing on stdout and exactly the messages of its .err file on
# stderr (FILE:LINE:COL, 1-based, every problem of the file in one pass).
# A bad profile next to a good one measures nothing at all: the server
# the good one points at sees no connection.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init profile_errors
hs_require python3 timeout diff
DATA=$HOPSPLIT_SRC/tests/data/profiles
unset HOPSPLIT_TEST_UNSET HOPSPLIT_TEST_UNSET_URL
HOPSPLIT_TEST_SET='set'
export HOPSPLIT_TEST_SET

cd "$DATA" || hs_fail "no $DATA"
n=0
for y in bad/*.yaml; do
  want=${y%.yaml}.err
  [ -f "$want" ] || hs_fail "$y has no expected messages ($want)"
  hs_run 2 run --dry-run "$y"
  hs_empty_out
  diff -u "$want" "$HS_ERR" >"$HS_DIR/diff" || {
    cat "$HS_DIR/diff" >&2
    hs_fail "messages of $y differ from $want"
  }
  n=$((n + 1))
done
[ "$n" -ge 20 ] || hs_fail "only $n broken profiles in $DATA/bad"

# The problems of every file are reported, in the order of the files.
hs_run 2 run --dry-run bad/unknown_key.yaml bad/dup_key.yaml
cat bad/unknown_key.err bad/dup_key.err | diff -u - "$HS_ERR" ||
  hs_fail "two broken profiles: messages differ"

# Not a dry run, a good profile first: still nothing measured.
hs_start_tcp garbage "$HS_DIR/tcp"
printf 'targets:\n  - url: http://127.0.0.1:%s/\n' "$TCP_PORT" \
  >"$HS_DIR/good.yaml"
hs_run 2 run -n 1 "$HS_DIR/good.yaml" bad/env_missing.yaml
hs_empty_out
diff -u bad/env_missing.err "$HS_ERR" || hs_fail "messages differ"
# A file that cannot be read, and no file at all.
hs_run 2 run "$HS_DIR/nonexistent.yaml"
hs_grep_err "cannot read profile '.*nonexistent.yaml'"
hs_run 2 run
hs_grep_err 'no profile given'
hs_run 2 run --rounds 0 "$HS_DIR/good.yaml"
hs_grep_err 'option --rounds'
hs_tcp_untouched "$HS_DIR/tcp" garbage "a profile error still measured something"
hs_run 0 run --help
grep -q 'usage: hopsplit run' "$HS_OUT" || hs_fail "run --help"

hs_pass
