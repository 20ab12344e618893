#!/bin/sh
# cname: one CNAME per name in the chain (issue 16).  hostile.py dns
# answers cname.test with CNAME alias1.test, CNAME ok2.test and an address
# in both the A and the AAAA answer; c-ares hands the chain over once per
# answer, the hop lists it once: ["alias1.test", "ok2.test"].
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init cname
hs_require python3 timeout dig
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
P=$HOSTILE_PORT
hs_start_hostile dns "$HS_DIR/dns"
DP=$HOSTILE_PORT
# Ground truth: what the resolver sends, by dig.
for t in A AAAA; do
  n=$(dig +short +tries=1 +time=2 -p "$DP" @127.0.0.1 cname.test "$t" |
    grep -c '\.test\.$')
  [ "$n" = 2 ] || hs_fail "dig: the $t answer has $n CNAMEs, expected 2"
done
hs_run 0 -n 1 --mode cold --format json -m 5s --dns-server "127.0.0.1:$DP" \
  "http://cname.test:$P/ok"
hs_jcheck --all-ok \
  "samples[0]['hops'][0]['dns']['cnames'] == ['alias1.test', 'ok2.test']"
hs_run 0 -n 1 --mode cold -m 5s --dns-server "127.0.0.1:$DP" \
  "http://cname.test:$P/ok"
grep -q "CNAME ok2.test" "$HS_OUT" || { hs_show; hs_fail "text shows no CNAME"; }
hs_pass
