#!/bin/sh
# http_peers: servers that misbehave after the connection stood (issue 8,
# SPEC 7).  Each bad target is followed by a good one in the same round:
# the bad sample fails with its class and a clear message, the good one is
# measured (the run goes on), the exit status is 3, the JSON complete, and
# -m bounds the wall time.
#   ~1 MiB of headers        http     "larger than 256 KiB"
#   never answers            timeout  (-m 2s)
#   a body byte a second     timeout  (-m 2s), some bytes were received
#   reset mid-body           http     (a reset after connect is http)
#   non-HTTP bytes           http
#   HTTP/0.9 (no status)     http
#   a bad chunk size         http
#   body shorter than its Content-Length   http
#   a NUL byte in a header   http (libcurl refuses it)
# and 4000 short header lines under the 256 KiB cap are measured (6000
# are over libcurl 8's 5000: a failed sample, as curl fails), with
# the report staying small.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init http_peers
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
B="http://127.0.0.1:$HOSTILE_PORT"
T="-m 2s --connect-timeout 2s"

# shellcheck disable=SC2086
hs_bad_then_good http 'headers larger than 256 KiB' $T \
  "bad=$B/bigheaders" "good=$B/ok"
hs_elapsed_below 10000
# shellcheck disable=SC2086
hs_bad_then_good timeout 'timed out|timeout' $T "bad=$B/silent" "good=$B/ok"
hs_jcheck "samples[0]['hops'][0]['status'] in (0, None)"
hs_elapsed_below 10000
# shellcheck disable=SC2086
hs_bad_then_good timeout 'timed out|timeout' $T "bad=$B/drip" "good=$B/ok"
hs_jcheck "samples[0]['hops'][0]['status'] == 200"
hs_elapsed_below 10000
# shellcheck disable=SC2086
hs_bad_then_good http 'reset|recv|receiv' $T "bad=$B/reset" "good=$B/ok"
# shellcheck disable=SC2086
hs_bad_then_good http 'HTTP/0\.9|protocol|weird' $T "bad=$B/garbage" \
  "good=$B/ok"
# shellcheck disable=SC2086
hs_bad_then_good http 'HTTP/0\.9' $T "bad=$B/http09" "good=$B/ok"
# shellcheck disable=SC2086
hs_bad_then_good http 'chunk' $T "bad=$B/badchunk" "good=$B/ok"
# shellcheck disable=SC2086
hs_bad_then_good http 'partial|remaining' $T "bad=$B/short" "good=$B/ok"
# A NUL in a header line: libcurl refuses the response before the redirect
# walk sees the Location.
# shellcheck disable=SC2086
hs_bad_then_good http 'nul' $T "bad=$B/loc-nul" "good=$B/ok"
# 4000 header lines under the caps: measured, and only the first of a
# repeated diagnostic header is kept (the report stays small).
# shellcheck disable=SC2086
hs_run 0 -n 2 --mode cold,warm --format json $T "$B/manyheaders"
hs_jcheck --shape --closure --all-ok \
  "max(len(s['hops'][0]['headers']) for s in samples) < 20" \
  "targets[0]['cache'][0]['verdict'] == 'HIT'"
[ "$(wc -c <"$HS_OUT")" -lt 200000 ] || hs_fail "report grew with the headers"
# 6000 lines: over libcurl 8's 5000 (7.88 had no count limit; then the
# sample is measured): a failed sample of class http with libcurl's
# reason, as curl fails it.
if curl -q -s -o /dev/null --max-time 5 "$B/toomanyheaders" 2>/dev/null; then
  # shellcheck disable=SC2086
  hs_run 0 -n 1 --mode cold --format json $T "$B/toomanyheaders"
  hs_jcheck --all-ok
else
  # shellcheck disable=SC2086
  hs_run 3 -n 1 --mode cold --format json $T "$B/toomanyheaders"
  hs_jcheck "classes() == ['http']" \
    "'Too many response headers' in samples[0]['error']['message']"
fi

# Several rounds and both modes: every bad sample fails alike, the good
# ones are all measured, and the text report names the failure.
# shellcheck disable=SC2086
hs_run 3 -n 2 --mode cold,warm --format json $T "bad=$B/reset" "good=$B/ok"
hs_jcheck --shape --closure --samples 8 \
  "[s['error']['class'] for s in samples if s['target'] == 'bad'] == ['http'] * 4" \
  "all(s['ok'] for s in samples if s['target'] == 'good')"
# shellcheck disable=SC2086
hs_run 3 -n 1 --mode cold $T "bad=$B/http09" "good=$B/ok"
grep -qi 'HTTP/0.9' "$HS_OUT" "$HS_ERR" ||
  { hs_show; hs_fail "the text report does not say what failed"; }
hs_pass
