#!/bin/sh
# dns_refused: a resolver that answers A and REFUSES AAAA, each after a
# known delay (tests/server/dnsdelay.py, 300 ms).  A and AAAA are asked at
# once and the refusal of one family ends with the other's answer, as
# glibc's resolver does: the server's log (ground truth) shows one A and one
# AAAA query per lookup, never a second AAAA (c-ares 1.18 alone asks the
# refusing server again: two round trips), and the lookup takes one delay,
# not two (lower bound: the delay; upper bound: twice it).  The hop records
# the refusal (dns.failed_servers, query AAAA), the text report says it
# beside the DNS time and the DNS finding names it.  Both refused: the
# sample fails with REFUSED in its error, still within one retry.  -4 asks
# A only.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init dns_refused
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
DELAY=300
U="http://origin.test:$HTTP_PORT/ok"

start_dns() { # start_dns NAME RULES...: $DNSD_PORT, log in $HS_DIR/NAME.log
  hs_n=$1
  shift
  rm -f "$HS_DIR/$hs_n.port"
  : >"$HS_DIR/$hs_n.log"
  "$HS_PYTHON" "$HS_LIB_DIR/dnsdelay.py" "$HS_DIR/$hs_n.port" \
    "$HS_DIR/$hs_n.log" "$DELAY" "$@" 2>"$HS_DIR/$hs_n.err" &
  hs_track $!
  hs_i=0
  while [ ! -s "$HS_DIR/$hs_n.port" ] && [ "$hs_i" -lt $((50 * HS_TF)) ]; do
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  DNSD_PORT=$(cat "$HS_DIR/$hs_n.port") || hs_fail "dnsdelay.py did not start"
}
queries() { # queries NAME TYPE: how many TYPE queries the server got
  grep -c " $2 origin.test " "$HS_DIR/$1.log"
}

start_dns refuse AAAA=REFUSED
R=127.0.0.1:$DNSD_PORT
hs_run 0 -n 3 --mode cold --format json --dns-server "$R" "$U"
hs_jcheck --shape --closure --all-ok --samples 3 \
  "min(col(H('cold', 0), 'dns.us')) >= $DELAY * 1000" \
  "max(col(H('cold', 0), 'dns.us')) < 2 * $DELAY * 1000" \
  "col(H('cold', 0), 'dns.addresses') == [['127.0.0.1']] * 3" \
  "[[(f['rcode'], f['query'], f['server']) for f in x] for x in col(H('cold', 0), 'dns.failed_servers')] == [[('REFUSED', 'AAAA', '$R')]] * 3"
[ "$(queries refuse A)" = 3 ] || hs_fail "$(queries refuse A) A queries for 3 lookups"
[ "$(queries refuse AAAA)" = 3 ] || {
  cat "$HS_DIR/refuse.log" >&2
  hs_fail "$(queries refuse AAAA) AAAA queries for 3 lookups: the refusing server was asked again"
}
# Asked at once: each lookup's A and AAAA reached the server within a
# tenth of the delay of each other.
"$HS_PYTHON" - "$HS_DIR/refuse.log" "$DELAY" <<'EOP' || hs_fail "A and AAAA were not asked together"
import sys
rows = [l.split() for l in open(sys.argv[1])]
a = [float(r[0]) for r in rows if r[1] == "A"]
q = [float(r[0]) for r in rows if r[1] == "AAAA"]
assert len(a) == len(q) == 3, rows
for x, y in zip(a, q):
    assert abs(x - y) < float(sys.argv[2]) / 10, (x, y)
EOP

# The text report: the refusal beside the DNS time, and in the finding.
hs_run 0 -n 1 --mode cold --dns-server "$R" "$U"
grep -qF "dns: AAAA REFUSED by $R after" "$HS_OUT" || {
  cat "$HS_OUT" >&2
  hs_fail "the text report does not say AAAA was refused"
}
grep -qF "(the A answer was used)" "$HS_OUT" || hs_fail "the text does not say which answer was used"
tr '\n' ' ' <"$HS_OUT" | sed 's/  */ /g' |
  grep -qF "[dns] DNS takes" || hs_fail "no DNS finding"
tr '\n' ' ' <"$HS_OUT" | sed 's/  */ /g' |
  grep -qE "\[dns\] DNS takes [^[]*AAAA REFUSED by $R" || {
  cat "$HS_OUT" >&2
  hs_fail "the DNS finding does not name the refusal"
}

# Both refused: the sample fails, saying REFUSED.
start_dns both A=REFUSED AAAA=REFUSED
hs_run 3 -n 1 --mode cold --format json --dns-server "127.0.0.1:$DNSD_PORT" \
  --connect-timeout 10s "$U"
hs_jcheck "classes() == ['dns']" "'REFUSED' in S()[0]['error']['message']" \
  "S()[0]['total_us'] < 5 * $DELAY * 1000"

# -4: A only.
start_dns four AAAA=REFUSED
hs_run 0 -n 1 --mode cold --format json -4 --dns-server "127.0.0.1:$DNSD_PORT" "$U"
hs_jcheck --all-ok "col(H('cold', 0), 'dns.failed_servers') == [[]]"
[ "$(queries four AAAA)" = 0 ] || hs_fail "-4 asked AAAA"
hs_pass
