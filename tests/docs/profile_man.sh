#!/bin/sh
# profile_man: man/hopsplit-profile.5 documents the whole profile format:
# every option of the table (as --help lists them) is an item
# (.It Cm NAME) of its option list, and so is every top-level key, every
# key of a target and of a check (.It Ic KEY), every phase and statistic
# of a metric check and every exit status; the page formats without a
# warning (groff -ww -mandoc, mandoc -Tlint; both required).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init profile_man
hs_require groff mandoc
PAGE=$HOPSPLIT_SRC/man/hopsplit-profile.5
[ -f "$PAGE" ] || hs_fail "$PAGE does not exist"
problems=0
problem() {
  hs_log "$*"
  problems=$((problems + 1))
}

hs_run 0 --help
opts=$(sed -n 's/^  \(-[A-Za-z0-9], \)\{0,1\} *--\([a-z0-9][a-z0-9.-]*\).*/\2/p' \
  "$HS_OUT")
[ "$(printf '%s\n' "$opts" | wc -l)" -ge 30 ] ||
  hs_fail "found too few options in --help: $opts"
for o in $opts; do
  q=$(printf '%s' "$o" | sed 's/\./\\./g')
  grep -qE "^\.It Cm $q( |$)" "$PAGE" ||
    problem "option '$o' has no item (.It Cm $o) in $PAGE"
done
for k in name rounds modes order seed pause defaults targets checks \
  outputs url metric max min mode cache not is hop compare verdict status; do
  grep -qE "^\.It Ic $k( |$)" "$PAGE" ||
    problem "key '$k' has no item (.It Ic $k) in $PAGE"
done
# Phases and statistics of metric checks, as the parser knows them.
for w in dns connect tls send wait transfer redirect other total p50 p95 \
  min max mean faster slower BYPASS UNCACHEABLE HIT; do
  grep -qw -e "$w" "$PAGE" || problem "'$w' is not in $PAGE"
done
for s in 0 1 2 3 4 130; do
  sed -n '/^\.Sh EXIT STATUS/,/^\.Sh /p' "$PAGE" | grep -qx "\.It $s" ||
    problem "exit status $s is not in EXIT STATUS of $PAGE"
done
grep -q 'FILE:LINE:COLUMN' "$PAGE" || problem "the error format is missing"
grep -q 'did you mean' "$PAGE" || problem "no near-miss example"

out=$(groff -ww -mandoc -z "$PAGE" 2>&1)
[ -z "$out" ] || problem "groff -ww -mandoc -z $PAGE: $out"
out=$(mandoc -Tlint -Wwarning "$PAGE" 2>&1)
[ -z "$out" ] || problem "mandoc -Tlint: $out"
# hopsplit(1) points to this page and documents exit status 1.
grep -q '^\.Xr hopsplit-profile 5' "$HOPSPLIT_SRC/man/hopsplit.1" ||
  problem "hopsplit.1 does not refer to hopsplit-profile(5)"
[ "$problems" = 0 ] || hs_fail "$problems problem(s)"
hs_pass
