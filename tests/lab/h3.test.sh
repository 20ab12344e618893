#!/bin/sh
# lab/h3: HTTP/3 against HTTP/2 of one URL (--protocols h2,h3) on a link
# with a 25 ms one-way delay (RTT 50 ms): caddy in the server namespace
# serves both on one port, the lab's dnsmasq names it.  QUIC sets up a new
# connection in one round trip where TCP then TLS 1.3 take two: a cold h3
# request should cost one round trip less.  Like for like: --protocols
# runs the h2 leg on libcurl-gnutls too (tls.library of both legs), so the
# TLS work and the trust store (the test CA alone, --cacert) are the same
# library's on both.  Asserted structurally:
# - h2 cold: connect and tls each at least one RTT (TCP, then TLS 1.3);
# - h3 cold: connect (to the server's first packet) at least one RTT, and
#   the whole handshake (connect + tls) below two RTT in the median: the
#   QUIC handshake does not hold a second round trip;
# - both: the phases close, http_version 2 and 3, both legs on
#   libcurl-gnutls, the h2 hops carry the Alt-Svc h3 offer of caddy's port,
#   the comparison of h3 against h2 and the http-version finding are there.
# The saving itself (median paired difference of the totals with its 95 %
# interval, against the RTT, and whether within 20 % of one RTT) and each
# leg's local handshake cost (its handshake less the round trips it must
# wait) are printed, not asserted: figures, not a timed pass/fail.
# HOPSPLIT_LAB_H3_ROUNDS (default 20) and HOPSPLIT_LAB_H3_DELAY_MS (one
# way, default 25) change the run.
. "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HOPSPLIT_SRC/tests/lab/lab.sh"
lab_init lab-h3
hs_require caddy
hs_run 0 -V
grep -q '^HTTP/3: libcurl-gnutls/.*HTTP3' "$HS_OUT" ||
  hs_skip "no HTTP/3 library: $(grep '^HTTP/3' "$HS_OUT")"
DELAY_MS=${HOPSPLIT_LAB_H3_DELAY_MS:-25}
lab_up "$DELAY_MS"

RTT=$((2 * DELAY_MS * 1000))
CD=$LAB_DIR/caddy
mkdir -p "$CD/www" "$CD/data" || hs_fail "cannot create $CD"
printf 'ok\n' >"$CD/www/ok"
hs_caddy_conf "$CD" "$LAB_SERVER_IP:8443"
ip netns exec "$LAB_S" env HOME="$CD" XDG_DATA_HOME="$CD/data" \
  XDG_CONFIG_HOME="$CD/data" caddy run --config "$CD/caddy.json" \
  </dev/null >"$CD/caddy.out" 2>&1 &
CADDY_PID=$!
lab_track "$CADDY_PID"
lab_wait_ready "$CADDY_PID" caddy lab_c curl -sS -f -o /dev/null \
  --max-time 3 --noproxy '*' --cacert "$CA_FILE" "https://$LAB_HOST:8443/ok" || {
  cat "$CD/caddy.out" >&2
  hs_fail "caddy did not start in $LAB_S"
}

N=${HOPSPLIT_LAB_H3_ROUNDS:-20}
H2="[s['hops'][0] for s in S('cold', target='h2')]"
H3="[s['hops'][0] for s in S('cold', target='h3')]"
lab_run 0 -n $N --mode cold --protocols h2,h3 --format json \
  --dns-server "$LAB_DNS" --cacert "$CA_FILE" "https://$LAB_HOST:8443/ok"
hs_jcheck --shape --closure --all-ok --samples $((2 * N)) \
  "col($H2, 'http_version') == ['2'] * $N" \
  "col($H3, 'http_version') == ['3'] * $N" \
  "col($H2 + $H3, 'tls.library') == ['libcurl-gnutls'] * (2 * $N)" \
  "col($H2, 'alt_svc.protocol') == ['h3'] * $N" \
  "col($H2, 'alt_svc.port') == [8443] * $N" \
  "min(col($H2, 'phases_us.connect')) >= $RTT" \
  "min(col($H2, 'phases_us.tls')) >= $RTT" \
  "min(col($H3, 'phases_us.connect')) >= $RTT" \
  "sorted(a + b for a, b in zip(col($H3, 'phases_us.connect'), col($H3, 'phases_us.tls')))[$N // 2] < 2 * $RTT" \
  "[c['target'] for c in d['comparison']] == ['h3']" \
  "all(h['tcp'] is None and 'QUIC' in h['tcp_missing'] for h in $H3)" \
  "all(h['tcp'] is not None and -200 <= h['tcp']['min_rtt_us'] - $RTT < 5000 for h in $H2)" \
  "min(h['tcp']['min_rtt_us'] for h in $H2) - $RTT < 1000" \
  "any(f['kind'] == 'http-version' for t in d['targets'] if t['name'] == 'h2' for f in t['findings'])"
hs_log "command: $HS_CMD"
"$HS_PYTHON" - "$HS_OUT" "$RTT" <<'PY' >&2 || hs_fail "cannot read the figures"
import json, sys
d = json.load(open(sys.argv[1]))
rtt = int(sys.argv[2])
c = d["comparison"][0]
def hops(t):
    return [h for s in d["samples"] if s["target"] == t for h in s["hops"][:1]]
def med(v):
    v = sorted(v)
    return v[len(v) // 2]
for t in ("h2", "h3"):
    hs = hops(t)
    print("lab/h3: %s cold samples (dns/connect/tls/send/wait/total ms): %s"
          % (t, " ".join("%.0f/%.0f/%.0f/%.0f/%.0f/%.0f" % tuple(
              h["phases_us"][k] / 1e3 for k in ("dns", "connect", "tls",
                                                "send", "wait", "total"))
              for h in hs)))
    # The handshake's round trips: TCP and TLS 1.3 one each, QUIC one.
    trips = 2 if t == "h2" else 1
    hand = [h["phases_us"]["connect"] + h["phases_us"]["tls"] for h in hs]
    print("lab/h3: %s cold p50: connect %.1f ms, tls %.1f ms, total %.1f ms; "
          "TLS by %s; local handshake cost (connect + tls less %d RTT) "
          "p50 %.1f ms, first sample %.1f ms"
          % (t, med(h["phases_us"]["connect"] for h in hs) / 1e3,
             med(h["phases_us"]["tls"] for h in hs) / 1e3,
             med(h["phases_us"]["total"] for h in hs) / 1e3,
             hs[0]["tls"].get("library") or "libcurl (OpenSSL)", trips,
             (med(hand) - trips * rtt) / 1e3, (hand[0] - trips * rtt) / 1e3))
diff = -c["median_diff_us"]
print("lab/h3: h3 against h2, cold, %d rounds, RTT %.0f ms (expected saving "
      "one RTT, %.0f ms): median paired difference %.1f ms [95%% %.1f, %.1f] "
      "(%s), saving %.2f RTT: %s"
      % (c["n_pairs"] if "n_pairs" in c else len(hops("h3")), rtt / 1e3,
         rtt / 1e3, c["median_diff_us"] / 1e3, c["ci_low_us"] / 1e3,
         c["ci_high_us"] / 1e3, c["verdict"], diff / rtt,
         "within 20 % of one RTT" if abs(diff - rtt) <= 0.2 * rtt
         else "NOT within 20 % of one RTT"))
PY
hs_pass
