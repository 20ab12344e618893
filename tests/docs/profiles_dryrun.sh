#!/bin/sh
# profiles_dryrun: every example in profiles/ loads and plans cleanly with
# --dry-run (exit 0, nothing on stderr, its targets and checks listed, no
# secret shown) and measures nothing: dry runs never touch the network, so
# this test never leaves the machine.  Also: at least the three examples
# of issue 5, each opening with comments that say what it is for.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init profiles_dryrun
DIR=$HOPSPLIT_SRC/profiles
# The examples take their URLs and tokens from these, with defaults.
unset PHOTO_API_URL PHOTO_DIRECT_URL PHOTO_THUMB_URL API_BASE API_TOKEN \
  CDN_A_URL CDN_B_URL

n=0
for y in "$DIR"/*.yaml; do
  [ -f "$y" ] || continue
  n=$((n + 1))
  head -n 1 "$y" | grep -q '^# ' || hs_fail "$y does not open with a comment"
  hs_run 0 run --dry-run "$y"
  [ ! -s "$HS_ERR" ] || { hs_show; hs_fail "$y: messages on stderr"; }
  grep -q '^profile: ' "$HS_OUT" || { hs_show; hs_fail "$y: no profile"; }
  grep -q '^targets:' "$HS_OUT" || { hs_show; hs_fail "$y: no targets"; }
  grep -q '^checks:' "$HS_OUT" || { hs_show; hs_fail "$y: no checks"; }
  grep -q '  output  ' "$HS_OUT" || { hs_show; hs_fail "$y: no outputs"; }
  grep -qiE 'Bearer [a-z0-9]' "$HS_OUT" &&
    { hs_show; hs_fail "$y: a secret in the dry run"; }
  # A secret given through the environment stays hidden too.
  API_TOKEN=s3cr3t-t0ken hs_run 0 run --dry-run "$y"
  grep -q 's3cr3t-t0ken' "$HS_OUT" &&
    { hs_show; hs_fail "$y: API_TOKEN shown in the dry run"; }
  # Options on the command line override the profile.
  hs_run 0 run --dry-run -n 3 --mode cold "$y"
  grep -q '^plan: .* 3 rounds, modes cold,' "$HS_OUT" ||
    { hs_show; hs_fail "$y: -n 3 --mode cold not applied"; }
done
[ "$n" -ge 3 ] || hs_fail "only $n example profiles in $DIR (want 3)"
for want in image-path api-budget cdn-ab; do
  [ -f "$DIR/$want.yaml" ] || hs_fail "profiles/$want.yaml is missing"
done
hs_run 0 run --dry-run "$DIR"/*.yaml
[ "$(grep -c '^profile: ' "$HS_OUT")" = "$n" ] ||
  { hs_show; hs_fail "not one plan per profile"; }
hs_pass
