#!/bin/sh
# servers_dns: resolvers that refuse, fail or say nothing (issue 17, item
# 4).  NSD is authoritative for test. (a CNAME chain, a name without
# addresses, a zone it cannot load: SERVFAIL; anything else REFUSED);
# unbound resolves through it; a second unbound refuses every query, as a
# resolver locked to other clients does (its REFUSED has no question
# section); a port where nothing listens (port unreachable); a UDP socket
# that never answers (timeout).
#
# Ground truth: a capture of the DNS datagrams (root): when the refusal
# (or the ICMP error) came and when the next resolver was asked; dig and
# NSD's answers for the rcodes.  Asserted: a refusing or unreachable first
# resolver is left at once (the next one is asked within a tenth of the
# per-try timeout, 5 s here), the hop records which server failed and how
# (dns.failed_servers), and every failure has its own words in the error.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/servers.sh"
hs_init servers_dns
hs_require openssl python3 curl timeout nginx nsd unbound dig
sv_make_cert
sv_start_nginx "$HS_DIR/nginx"
sv_start_nsd "$HS_DIR/nsd"
sv_start_unbound "$HS_DIR/unbound" resolve
sv_start_unbound "$HS_DIR/refuser" refuse
hs_start_tcp dns-blackhole "$HS_DIR/blackhole"
BLACKHOLE=$TCP_PORT
DEAD=$(sv_free_port) || hs_fail "no free port"
GOOD=127.0.0.1:$UNBOUND_PORT
REFUSER=127.0.0.1:$REFUSER_PORT
U="https://origin.test:$NGINX_TLS_PORT/ok"
# --connect-timeout 10 s: c-ares gets two tries of 5 s each.
T="--connect-timeout 10s -m 25s"

PROBLEMS=
problem() {
  hs_log "PROBLEM: $*"
  PROBLEMS="$PROBLEMS
  $*"
}

# The servers answer as described (dig is the ground truth of rcodes).
rcode() {
  dig +time=2 +tries=1 -p "$1" @127.0.0.1 "$2" A |
    sed -n 's/.*status: \([A-Z]*\),.*/\1/p'
}
[ "$(rcode "$REFUSER_PORT" origin.test)" = REFUSED ] ||
  hs_fail "the refusing unbound does not refuse"
[ "$(rcode "$NSD_PORT" x.broken.test)" = SERVFAIL ] ||
  hs_fail "NSD does not answer SERVFAIL for the broken zone"
[ "$(rcode "$NSD_PORT" nosuch.test)" = NXDOMAIN ] || hs_fail "no NXDOMAIN"
[ "$(rcode "$NSD_PORT" example.org)" = REFUSED ] || hs_fail "NSD does not refuse"

PCAP=
if [ "$(id -u)" = 0 ] && command -v tcpdump >/dev/null 2>&1; then
  PCAP=$HS_DIR/dns.pcap
  sv_pcap_start "$PCAP" "udp port $REFUSER_PORT or udp port $DEAD or udp port $UNBOUND_PORT or icmp"
elif [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ]; then
  hs_fail "the capture needs root and tcpdump"
fi

# 1. The first resolver refuses, or nothing listens there: the second one
# answers and the hop names the one that failed.
for first in "$REFUSER:REFUSED" "127.0.0.1:$DEAD:unreachable"; do
  srv=${first%:*}
  why=${first##*:}
  # shellcheck disable=SC2086
  hs_run 0 -n 1 --mode cold --format json $T --dns-server "$srv,$GOOD" \
    --cacert "$CA_FILE" "$U"
  cp "$HS_OUT" "$HS_DIR/first-$why.json"
  hs_log "first resolver $why: hopsplit took $HS_ELAPSED_MS ms in all"
  (hs_jcheck --shape --closure --all-ok \
    "col(H('cold', 0), 'dns.server') == ['$GOOD']" \
    "col(H('cold', 0), 'dns.failed_servers.0.server') == ['$srv']" \
    "col(H('cold', 0), 'dns.failed_servers.0.rcode') == ['$why']" \
    "col(H('cold', 0), 'dns.us')[0] < 500000") ||
    problem "first resolver $why: not left at once, or not recorded"
done
[ -n "$PCAP" ] && sv_pcap_stop

# From the capture: when the first resolver's answer (or the ICMP error)
# came, and when the good resolver was first asked after it.
if [ -n "$PCAP" ]; then
  tcpdump -r "$PCAP" -tt -nn 2>/dev/null >"$HS_DIR/dns.txt"
  "$HS_PYTHON" - "$HS_DIR/dns.txt" "$REFUSER_PORT" "$DEAD" "$UNBOUND_PORT" \
    >"$HS_DIR/lost.txt" <<'PY' 
import re, sys
lines = open(sys.argv[1]).read().splitlines()
refuser, dead, good = sys.argv[2], sys.argv[3], sys.argv[4]
rows = []
for l in lines:
    m = re.match(r"^(\d+\.\d+) IP (\S+) > (\S+): (.*)$", l)
    if m:
        rows.append((float(m.group(1)), m.group(2), m.group(3), m.group(4)))
def to(port, dst):
    return dst.endswith("." + port)
def span(port, what, until):
    # the lookup of this run: from the first query to the failing resolver
    # to the last answer of the good one, before the next run began
    t0 = next((t for t, s, d, r in rows if to(port, d)), None)
    t9 = next((t for t, s, d, r in rows if until and to(until, d)), None)
    if t0 is None:
        print("no query to port %s" % port, file=sys.stderr)
        sys.exit(1)
    fail = next((t for t, s, d, r in rows if t >= t0 and
                 (s.endswith("." + port) or
                  ("udp port %s unreachable" % port) in r)), None)
    answers = [t for t, s, d, r in rows
               if t >= t0 and (t9 is None or t < t9) and s.endswith("." + good)]
    if fail is None or not answers:
        print("%s: no failure or no answer seen" % what, file=sys.stderr)
        sys.exit(1)
    print("%s: failure %d us after the first query, last answer of the "
          "next resolver %d us after the failure"
          % (what, int((fail - t0) * 1e6), int((answers[-1] - fail) * 1e6)))
    return int((answers[-1] - fail) * 1e6)
a = span(refuser, "REFUSED", dead)
b = span(dead, "unreachable", None)
# the per-try timeout is 5 s: "at once" is well below it
sys.exit(1 if max(a, b) >= 500000 else 0)
PY
  rc=$?
  sed 's/^/servers_dns: capture: /' "$HS_DIR/lost.txt" >&2
  [ "$rc" = 0 ] ||
    problem "capture: the lookup went on long after the first resolver failed (5 s is the per-try timeout)"
fi

# 2. Every failure in its own words, and a refusal is quick to report.
# shellcheck disable=SC2086
hs_run 3 -n 1 --mode cold --format json $T --dns-server "$REFUSER" "$U"
(hs_jcheck "classes() == ['dns']" \
  "'REFUSED' in S()[0]['error']['message']" \
  "'$REFUSER' in S()[0]['error']['message']" \
  "col(H('cold', 0), 'dns.us')[0] < 500000") ||
  problem "a refusing resolver alone: no REFUSED in the error, or slow"
# shellcheck disable=SC2086
hs_run 3 -n 1 --mode cold --format json $T --dns-server "127.0.0.1:$NSD_PORT" \
  "https://x.broken.test:$NGINX_TLS_PORT/ok"
(hs_jcheck "classes() == ['dns']" \
  "'SERVFAIL' in S()[0]['error']['message']" \
  "'127.0.0.1:$NSD_PORT' in S()[0]['error']['message']") ||
  problem "SERVFAIL is not named"
# shellcheck disable=SC2086
hs_run 3 -n 1 --mode cold --format json $T --dns-server "127.0.0.1:$NSD_PORT" \
  "https://nosuch.test:$NGINX_TLS_PORT/ok"
(hs_jcheck "classes() == ['dns']" \
  "'NXDOMAIN' in S()[0]['error']['message']") || problem "NXDOMAIN is not named"
# shellcheck disable=SC2086
hs_run 3 -n 1 --mode cold --format json $T --dns-server "127.0.0.1:$NSD_PORT" \
  "https://txtonly.test:$NGINX_TLS_PORT/ok"
(hs_jcheck "classes() == ['dns']" \
  "'no address' in S()[0]['error']['message']" \
  "'NXDOMAIN' not in S()[0]['error']['message']") ||
  problem "a name without addresses is not told apart"
hs_run 3 -n 1 --mode cold --format json --connect-timeout 1s -m 5s \
  --dns-server "127.0.0.1:$BLACKHOLE" "$U"
(hs_jcheck "classes() == ['dns']" \
  "'timeout' in S()[0]['error']['message']" \
  "'127.0.0.1:$BLACKHOLE' in S()[0]['error']['message']") ||
  problem "a resolver that never answers: no timeout in the error"
# shellcheck disable=SC2086
hs_run 3 -n 1 --mode cold --format json $T --dns-server "127.0.0.1:$DEAD" "$U"
(hs_jcheck "classes() == ['dns']" \
  "'unreachable' in S()[0]['error']['message']" \
  "'127.0.0.1:$DEAD' in S()[0]['error']['message']") ||
  problem "no resolver listening: not named as unreachable"

[ -z "$PROBLEMS" ] || hs_fail "$(echo "$PROBLEMS" | grep -c .) problem(s):$PROBLEMS"
hs_pass
