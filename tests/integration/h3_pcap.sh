#!/bin/sh
# h3_pcap: a capture of caddy's port on loopback, not hopsplit, proves that
# --http3-only spoke QUIC.  tcpdump records every packet to and from the
# port while hopsplit measures cold and resumed HTTP/3 samples; quicscan.py
# reads the QUIC invariant headers (RFC 8999, RFC 9000 17.2) of each UDP
# flow.  Checked against hopsplit's hops and caddy's JSON access log:
#  - no TCP segment at all to the port during the --http3-only run;
#  - one UDP flow per connection: every hop's local port has one, and
#    caddy logged HTTP/3.0 from exactly the flows' ports (the resumed
#    priming connection included);
#  - each flow: QUIC version 1, the client's first packet an Initial, the
#    server's Initial and Handshake packets, the client's Handshake, then
#    short-header (1-RTT) packets both ways;
#  - a hop that reports tls_earlydata > 0 sent 0-RTT packets in its flow,
#    a hop that reports 0 sent none, and at least one resumed hop sent
#    0-RTT (8 rounds);
#  - and the default (HTTP/2) run against the same port: TCP only, no QUIC.
# Skipped when not root (tcpdump needs it) or without libcurl-gnutls.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/servers.sh"
hs_init h3_pcap
if [ "$(id -u)" != 0 ]; then
  [ -z "${HOPSPLIT_TEST_REQUIRE:-}" ] || hs_fail "the capture needs root"
  hs_skip "the capture needs root (tcpdump on lo); run as root"
fi
hs_require tcpdump
hs_h3_caddy "$HS_DIR/caddy"
U=$H3_URL
R=$H3_RESOLVE
PCAP=$HS_DIR/h3.pcap

# 8 rounds: whether a resumed connection sends 0-RTT is the QUIC stack's
# (a ticket with early data must have come on the connection before it);
# here about half did, so 3 rounds had none at all in about 1 run of 8,
# on eef1a52 and today alike, and 8 rounds had none in 1 CI run under
# ASan (stop 41).  Each try's capture, caddy's log and hops must agree;
# a try without any 0-RTT packet is tried again, at most 3 tries.
try=1
while :; do
  : >"$CADDY_LOG"
  sv_pcap_start "$PCAP" "port $CADDY_PORT"
  hs_run 0 -n 8 --mode cold,resumed --http3-only --format json \
    --resolve "$R" --cacert "$CA_FILE" "$U"
  sv_pcap_stop
  "$HS_PYTHON" "$HS_LIB_DIR/quicscan.py" --port "$CADDY_PORT" "$PCAP" >&2 ||
    hs_fail "cannot read the capture $PCAP"
  "$HS_PYTHON" "$HS_LIB_DIR/quicscan.py" --json --port "$CADDY_PORT" "$PCAP" \
    >"$HS_DIR/scan.json" || hs_fail "cannot read the capture $PCAP"
  rc=0
  "$HS_PYTHON" - "$HS_OUT" "$HS_DIR/scan.json" "$CADDY_LOG" <<'PY' || rc=$?
import json, sys
d = json.load(open(sys.argv[1]))
scan = json.load(open(sys.argv[2]))
log = [json.loads(l) for l in open(sys.argv[3]) if l.strip()]
bad = []
if scan["tcp"]:
    bad.append("%d TCP segments to caddy's port during --http3-only"
               % scan["tcp"])
flows = {f["cport"]: f for f in scan["flows"]}
logged = {}
for e in log:
    r = e["request"]
    port = int(r["remote_port"] if "remote_port" in r
               else r["remote_addr"].rsplit(":", 1)[1])
    logged[port] = r["proto"]
if set(logged) != set(flows):
    bad.append("caddy logged ports %s, the capture has flows from %s"
               % (sorted(logged), sorted(flows)))
if set(logged.values()) != {"HTTP/3.0"}:
    bad.append("caddy logged %s" % sorted(set(logged.values())))
for f in scan["flows"]:
    c, s = f["client"], f["server"]
    if f["versions"] != ["0x00000001"]:
        bad.append("flow %d: versions %s" % (f["cport"], f["versions"]))
    if not c or c[0] != "Initial" or "Handshake" not in c:
        bad.append("flow %d: client sent %s" % (f["cport"], c))
    if "Initial" not in s or "Handshake" not in s:
        bad.append("flow %d: server sent %s" % (f["cport"], s))
    if not f["short"][0] or not f["short"][1]:
        bad.append("flow %d: short-header packets %s" % (f["cport"],
                                                          f["short"]))
for smp in d["samples"]:
    for h in smp["hops"]:
        f = flows.get(h["local_port"])
        line = ("%-7s hop: http_version %s port %s tls_earlydata %s | "
                "caddy: %s | pcap: %s"
                % (smp["mode"], h["http_version"], h["local_port"],
                   h["tls_earlydata"], logged.get(h["local_port"]),
                   f and "version %s client %s server %s short %d/%d"
                   % (",".join(f["versions"]), ",".join(f["client"]),
                      ",".join(f["server"]), f["short"][0], f["short"][1])))
        print(line, file=sys.stderr)
        if not f:
            bad.append("hop from port %s has no flow in the capture"
                       % h["local_port"])
            continue
        if (h["tls_earlydata"] > 0) != ("0-RTT" in f["client"]):
            bad.append("hop from port %s: tls_earlydata %s, 0-RTT packets "
                       "in the capture: %s" % (h["local_port"],
                                               h["tls_earlydata"],
                                               "0-RTT" in f["client"]))
for b in bad:
    print("h3_pcap: " + b, file=sys.stderr)
if bad:
    sys.exit(1)
if not any("0-RTT" in f["client"] for f in scan["flows"]):
    print("h3_pcap: no 0-RTT packet in the resumed samples", file=sys.stderr)
    sys.exit(3)
sys.exit(0)
PY
  [ "$rc" != 3 ] && [ "$rc" != 0 ] &&
    hs_fail "the capture, caddy's log and hopsplit's hops disagree"
  [ "$rc" = 0 ] && break
  [ "$try" -lt 3 ] || hs_fail "no 0-RTT packet in the resumed samples of 3 tries"
  hs_log "try $try: no resumed connection sent 0-RTT; again"
  try=$((try + 1))
done

# The default, HTTP/2 over TCP, against the same port: no QUIC at all.
sv_pcap_start "$PCAP" "port $CADDY_PORT"
hs_run 0 -n 1 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" "$U"
sv_pcap_stop
hs_jcheck "col(H('cold', 0), 'http_version') == ['2']"
"$HS_PYTHON" "$HS_LIB_DIR/quicscan.py" --json --port "$CADDY_PORT" "$PCAP" \
  >"$HS_DIR/scan2.json" || hs_fail "cannot read the capture $PCAP"
"$HS_PYTHON" -c '
import json, sys
s = json.load(open(sys.argv[1]))
print("h3_pcap: HTTP/2 run: %d TCP segments, %d UDP flows" % (s["tcp"], len(s["flows"])), file=sys.stderr)
sys.exit(0 if s["tcp"] > 0 and not s["flows"] else 1)' "$HS_DIR/scan2.json" ||
  hs_fail "the HTTP/2 run is not TCP only in the capture"
hs_pass
