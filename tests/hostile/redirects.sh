#!/bin/sh
# redirects: hostile Location headers (issue 8, SPEC 7).  Each fails the
# sample with class redirect and a message that names the problem, the
# good target after it is measured, exit 3:
#   302 to file:///etc/passwd, ftp: (with a token: redacted in the
#   message), javascript: and data:     "only http and https"
#   a Location with a control character (0x01) or DEL   "control character"
#   a 9 KB Location                     "longer than 8192"
#   an international host name, raw UTF-8 or percent-encoded
#                                       "international domain name"
#   a 50-hop chain with the default --max-redirs 10   "too many", 11 hops
#   a loop through dot segments (/x/../loop)   "redirect loop"
# and --max-redirs 50 follows the whole chain (51 hops, exit 0).  Nothing hostile is
# ever requested: the refused URL never reaches the server's log.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init redirects
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
B="http://127.0.0.1:$HOSTILE_PORT"
SRVLOG=$(ls "$HS_DIR"/srv/*.port.log)
T="-m 5s --connect-timeout 2s"

for p in to-file to-ftp to-js to-data; do
  # shellcheck disable=SC2086
  hs_bad_then_good redirect 'only http and https' $T "bad=$B/$p" "good=$B/ok"
  hs_jcheck "nhops()[0] == 1" "samples[0]['hops'][0]['status'] == 302"
  if [ "$p" = to-ftp ]; then
    hs_jcheck "'token=REDACTED' in samples[0]['error']['message']"
    if grep -q SECRETFTP "$HS_OUT" "$HS_ERR"; then
      hs_fail "the token of a refused ftp: Location is shown"
    fi
  fi
done
for p in loc-ctl loc-del; do
  # shellcheck disable=SC2086
  hs_bad_then_good redirect 'control character' $T "bad=$B/$p" "good=$B/ok"
  hs_jcheck "nhops()[0] == 1"
done
# The refused hop is listed with its URL, never requested (no status).
for p in to-idn to-idn-pct; do
  # shellcheck disable=SC2086
  hs_bad_then_good redirect 'international domain name' $T "bad=$B/$p" \
    "good=$B/ok"
  hs_jcheck "nhops()[0] == 2" "samples[0]['hops'][1]['status'] is None" \
    "'cher.test/ok' in samples[0]['hops'][1]['url']"
done
# shellcheck disable=SC2086
hs_bad_then_good redirect 'longer than 8192' $T "bad=$B/loc-long" "good=$B/ok"
# The output stays small: the 9 KB value is not copied into messages.
[ "$(wc -c <"$HS_ERR")" -lt 4000 ] || hs_fail "stderr quotes the long Location"

# shellcheck disable=SC2086
hs_bad_then_good redirect 'too many redirects' $T "bad=$B/chain/0" \
  "good=$B/ok"
hs_jcheck "nhops()[0] == 11" \
  "samples[0]['hops'][10]['url'] == '$B/chain/10'"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json --max-redirs 50 $T "$B/chain/0"
hs_jcheck --closure --all-ok "nhops() == [51]" \
  "samples[0]['hops'][50]['status'] == 200"

# shellcheck disable=SC2086
hs_bad_then_good redirect 'redirect loop' $T "bad=$B/loop" "good=$B/ok"
hs_jcheck "nhops()[0] == 1"

# What the server saw: no request for a refused target.
if grep -Eq 'etc/passwd|/pub/x|alert|script' "$SRVLOG"; then
  cat "$SRVLOG" >&2
  hs_fail "a refused Location was requested"
fi
hs_pass
