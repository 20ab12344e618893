#!/bin/sh
# dns: a hostile resolver (hostile.py dns, UDP and TCP on one port) that
# c-ares is pointed at with --dns-server (issue 8, SPEC 3.2, 7):
#   NXDOMAIN                  class dns, "NXDOMAIN"
#   SERVFAIL                  class dns, names the resolver
#   truncated (TC) over UDP   c-ares retries over TCP and gets the answer:
#                             the sample is measured (exit 0)
#   truncated, TCP closes     class dns
#   an answer 8 s late        class dns, "timeout", bounded by -m 2s
#   a record past the end     class dns ("misformatted")
# Each failing name is followed by a good one in the same round (the run
# goes on, exit 3).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init dns
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
P=$HOSTILE_PORT
hs_start_hostile dns "$HS_DIR/dns"
DNS="127.0.0.1:$HOSTILE_PORT"
T="-m 2s --connect-timeout 2s --dns-server $DNS"

# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json $T "http://ok.test:$P/ok"
hs_jcheck --shape --closure --all-ok \
  "samples[0]['hops'][0]['dns']['addresses'] == ['127.0.0.1']" \
  "samples[0]['hops'][0]['dns']['server'] == '$DNS'"

bad() {
  b_name=$1
  b_msg=$2
  # shellcheck disable=SC2086
  hs_bad_then_good dns "$b_msg" $T "bad=http://$b_name.test:$P/ok" \
    "good=http://ok.test:$P/ok"
  hs_jcheck "samples[0]['hops'][0]['dns']['addresses'] == []"
  hs_elapsed_below 12000
}
bad nx 'NXDOMAIN|not found'
bad servfail "$DNS|SERVFAIL|contact"
bad trunctcp 'resolv'
bad slow 'timeout|timed out'
bad badrr 'misformatted|bad|malformed'

# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json $T "http://trunc.test:$P/ok"
hs_jcheck --closure --all-ok \
  "samples[0]['hops'][0]['dns']['addresses'] == ['127.0.0.1']"
grep -q 'dns tcp trunc.test' "$HS_DIR"/dns/*.port.log ||
  hs_fail "c-ares did not retry the truncated answer over TCP"
hs_pass
