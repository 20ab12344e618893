#!/bin/sh
# cross_origin: every request header hopsplit redacts is dropped on a
# redirect to another origin unless --location-trusted, as Authorization
# and Cookie are (issue 16; curl drops only those two).  One hostile.py
# redirects (/xo) to a second one on another port, which logs the request
# headers it got (/hdrs): ground truth from the receiving server.
#   without --location-trusted: no X-Api-Key, X-Auth-Token, Private-Token,
#   X-Amz-Security-Token, Authorization, Cookie; Accept and X-Plain arrive
#   with --location-trusted: all of them arrive
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init cross_origin
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/a"
PA=$HOSTILE_PORT
hs_start_hostile http "$HS_DIR/b"
PB=$HOSTILE_PORT
LOG=$(ls "$HS_DIR"/b/http.*.port.log)
set -- -H "X-Api-Key: K1" -H "X-Auth-Token: K2" -H "Private-Token: K3" \
  -H "X-Amz-Security-Token: K4" -H "Authorization: Bearer K5" \
  -H "Cookie: c=K6" -H "X-Plain: visible" -m 5s -n 1 --mode cold

# got ERE: the receiving server logged a header line matching ERE (it
# logs as it reads, before it answers).
got() {
  grep -Eqi "^hdr $1" "$LOG"
}

hs_run 0 "$@" --format json "http://127.0.0.1:$PA/xo?to=$PB"
hs_jcheck --all-ok "nhops() == [2]"
got "X-Plain: visible" || { cat "$LOG" >&2; hs_fail "X-Plain did not arrive"; }
for h in X-Api-Key X-Auth-Token Private-Token X-Amz-Security-Token \
  Authorization Cookie; do
  if got "$h:"; then
    cat "$LOG" >&2
    hs_fail "$h was sent to another origin without --location-trusted"
  fi
done

: >"$LOG"
hs_run 0 "$@" --location-trusted --format json "http://127.0.0.1:$PA/xo?to=$PB"
for h in X-Api-Key X-Auth-Token Private-Token X-Amz-Security-Token \
  Authorization Cookie X-Plain; do
  got "$h:" || { cat "$LOG" >&2; hs_fail "$h did not arrive with --location-trusted"; }
done
hs_pass
