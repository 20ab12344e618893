#!/bin/sh
# h3_caddy: HTTP/3 over QUIC against Debian's caddy (h1, h2 and h3 on one
# port, started here on loopback with the test CA's certificate).  Ground
# truth is caddy's JSON access log: the protocol of every request it
# served (request.proto, and the client's port) beside hopsplit's hops.
#  - --http3-only cold and warm: every hop http_version 3, caddy logged
#    HTTP/3.0 for each of them, warm hops reused the QUIC connection (one
#    client port), the phases close, connect and tls measured on cold hops;
#  - --http3-only resumed: sessions offered from libcurl-gnutls's share,
#    0-RTT early data on some samples (tls_earlydata, tls.resumed);
#  - the default (HTTP/2 over TCP) records caddy's Alt-Svc h3 offer with
#    its port (caddy's own port) and caddy logged HTTP/2.0;
#  - --http3 against nginx (TCP only): the hop is HTTP/2 over TCP with
#    h3_fallback saying why, and nginx logged the request;
#  - --http3-only against nginx fails with class quic, exit status 3.
# Skipped when libcurl-gnutls with HTTP/3 is missing (hopsplit -V says).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init h3_caddy
hs_require nginx
hs_h3_caddy "$HS_DIR/caddy"
hs_start_nginx "$HS_DIR/nginx"

U=$H3_URL
R=$H3_RESOLVE

# Caddy's log lines of the requests that follow, as "proto port" lines.
caddy_log() {
  "$HS_PYTHON" -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    r = d["request"]
    print(r["proto"], r["remote_port"] if "remote_port" in r else
          r["remote_addr"].rsplit(":", 1)[1], r["uri"])' "$CADDY_LOG"
}

: >"$CADDY_LOG"
hs_run 0 -n 3 --mode cold,warm --format json --resolve "$R" \
  --cacert "$CA_FILE" --http3-only "$U"
hs_jcheck --shape --closure --all-ok --samples 6 \
  "col(H('cold', 0) + H('warm', 0), 'http_version') == ['3'] * 6" \
  "col(H('cold', 0) + H('warm', 0), 'tls.alpn') == ['h3'] * 6" \
  "col(H('cold', 0) + H('warm', 0), 'tls.library') == ['libcurl-gnutls'] * 6" \
  "col(H('cold', 0), 'reused') == [False] * 3" \
  "col(H('warm', 0), 'reused') == [True] * 3" \
  "min(col(H('cold', 0), 'phases_us.connect')) > 0" \
  "min(col(H('cold', 0), 'phases_us.tls')) > 0" \
  "len(set(col(H('warm', 0), 'local_port'))) == 1"
# The priming request of warm mode is not a sample: caddy saw 7.
sleep 0.3
caddy_log >"$HS_DIR/caddy.txt"
hs_log "caddy's log:"
cat "$HS_DIR/caddy.txt" >&2
"$HS_PYTHON" - "$HS_OUT" "$HS_DIR/caddy.txt" <<'PY' || hs_fail "caddy's log and hopsplit's hops disagree"
import json, sys
d = json.load(open(sys.argv[1]))
log = [l.split() for l in open(sys.argv[2]) if l.strip()]
protos = [l[0] for l in log]
if protos != ["HTTP/3.0"] * 7:
    sys.exit("caddy logged %s, expected 7 x HTTP/3.0" % protos)
ports = {int(l[1]) for l in log}
for s in d["samples"]:
    for h in s["hops"]:
        print("hopsplit %-4s http_version %s local_port %s reused %s"
              % (s["mode"], h["http_version"], h["local_port"], h["reused"]),
              file=sys.stderr)
        if h["local_port"] not in ports:
            sys.exit("hop from port %s is not in caddy's log" % h["local_port"])
PY

# Resumed: the sessions libcurl-gnutls keeps in the target's share are
# offered on new connections; a safe request goes as 0-RTT early data
# (tls_earlydata > 0, tls.resumed true), its phases closing all the same.
hs_run 0 -n 6 --mode resumed --format json --resolve "$R" \
  --cacert "$CA_FILE" --http3-only "$U"
hs_jcheck --shape --closure --all-ok --samples 6 \
  "col(H('resumed', 0), 'http_version') == ['3'] * 6" \
  "col(H('resumed', 0), 'reused') == [False] * 6" \
  "any(e > 0 for e in col(H('resumed', 0), 'tls_earlydata'))" \
  "all(r is True for r, e in zip(col(H('resumed', 0), 'tls.resumed'), col(H('resumed', 0), 'tls_earlydata')) if e > 0)"
hs_log "resumed: $("$HS_PYTHON" -c 'import json,sys; print([(h["tls_earlydata"], h["phases_us"]["total"]) for s in json.load(open(sys.argv[1]))["samples"] for h in s["hops"]])' "$HS_OUT")"

# Over TCP caddy offers h3 on its own port: Alt-Svc recorded per hop.
: >"$CADDY_LOG"
hs_run 0 -n 1 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" "$U"
hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'http_version') == ['2']" \
  "col(H('cold', 0), 'alt_svc.protocol') == ['h3']" \
  "col(H('cold', 0), 'alt_svc.port') == [$CADDY_PORT]" \
  "all('library' not in h['tls'] for h in H('cold', 0))"
sleep 0.3
caddy_log | grep -q '^HTTP/2.0 ' || hs_fail "caddy did not log HTTP/2.0"

# --http3 against nginx, which has no HTTP/3: libcurl falls back to TCP.
N="https://origin.test:$HTTPS_PORT/"
RN="origin.test:$HTTPS_PORT:127.0.0.1"
hs_run 0 -n 2 --mode cold --format json --resolve "$RN" --cacert "$CA_FILE" \
  --http3 "$N"
hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'http_version') == ['2'] * 2" \
  "all(col(H('cold', 0), 'h3_fallback'))" \
  "col(H('cold', 0), 'tls.library') == ['libcurl-gnutls'] * 2"
hs_log "fallback: $("$HS_PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["samples"][0]["hops"][0]["h3_fallback"])' "$HS_OUT")"
hs_nginx_barrier
hs_logged 2 "^$HTTPS_PORT GET / " || hs_fail "nginx did not log the fallback requests"
# The text report says so under the hop.
hs_run 0 -n 1 --mode cold --resolve "$RN" --cacert "$CA_FILE" --http3 "$N"
grep -q '^      http/3: fell back to HTTP/2 over TCP: ' "$HS_OUT" || {
  cat "$HS_OUT" >&2
  hs_fail "the text report does not show the --http3 fall-back"
}

# --http3-only against nginx: class quic.
hs_run 3 -n 1 --mode cold --format json --resolve "$RN" --cacert "$CA_FILE" \
  --http3-only "$N"
hs_jcheck "S('cold')[0]['error']['class'] == 'quic'"
hs_log "failure: $(grep -m1 'quic' "$HS_ERR")"
grep -q '(quic)' "$HS_ERR" || hs_fail "stderr does not name the class quic"

hs_pass
