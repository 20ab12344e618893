#!/bin/sh
# lab/transport: the kernel's view of each connection (hops[].tcp,
# server_us, the body's rounds) against the lab link's own settings and
# counters (issue 36).  A link of 25 ms each way (RTT 50 ms); nginx serves
# a 450 KB body over HTTP/1.1, thinkserver.py a known think time and reads
# uploads.  Each case has its own lab, so the link's counters are its own:
#
#   rtt     no loss: the smallest min_rtt_us within [-0.2, +1] ms of the
#           link's 50 ms and every one within [-0.2, +5] ms of it (the link's own
#           lateness only adds), no retransmits, and in the sample the
#           link disturbed least the 450 KB body's rounds within one of the
#           slow-start model's (10 segments doubling per round trip)
#   think   a server thinking 150 ms: server_us within 1 ms of the time
#           the server's own clock says it took (its log; the smallest
#           of each, lateness on a loaded machine only adds); a server-wait
#           finding (basis measured) in a cold,warm run and in a warm-only
#           one, its saving within 10 ms of the server's median
#   out     the link drops the 20th data segment the client sends on each
#           connection (-x a:20) of a 300 KB upload: the retransmits of
#           the samples add up to the link's drops, exactly
#   in      the link drops the 30th data segment the client receives on
#           each connection (-x b:30) of the 450 KB body: the samples'
#           rcv_ooopack add up to the segments the link forwarded beyond
#           the hole, exactly, and the client retransmitted nothing
#
# transport_check.py compares and prints each case's link settings, link
# counters and hopsplit's tcp fields side by side.
. "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HOPSPLIT_SRC/tests/lab/lab.sh"
lab_init lab-transport

D=${TRANSPORT_D:-25}
N=${TRANSPORT_ROUNDS:-4}
BODY=460800
THINK_MS=150

# transport_lab OPTS: a lab with the link options OPTS, nginx's /big the
# 450 KB body, thinkserver.py on port 8080 of the server.
transport_lab() {
  HS_LABLINK_OPTS=$1 lab_up "$D"
  head -c "$BODY" /dev/urandom >"$LAB_DIR/nginx/www/big" ||
    hs_fail "cannot write /big"
  : >"$LAB_DIR/think.log"
  ip netns exec "$LAB_S" "$HS_PYTHON" "$HOPSPLIT_SRC/tests/lab/thinkserver.py" \
    "$LAB_SERVER_IP" 8080 "$LAB_DIR/think.log" </dev/null \
    >"$LAB_DIR/think.out" 2>&1 &
  lab_track $!
  lab_wait_ready $! thinkserver lab_c curl -sS -f -o /dev/null --max-time 3 \
    --noproxy '*' "http://$LAB_HOST:8080/ready" || {
    cat "$LAB_DIR/think.out" >&2
    hs_fail "thinkserver.py did not start"
  }
  : >"$LAB_DIR/think.log"
}

# transport_case NAME: the link's counters after the case's run, its
# document and the server's log kept under $HS_DIR/NAME.*
transport_case() {
  lab_counters >"$HS_DIR/$1.link" || hs_fail "$1: no link counters"
  cp "$HS_OUT" "$HS_DIR/$1.json"
  cp "$LAB_DIR/think.log" "$HS_DIR/$1.think"
  lab_down
}

transport_lab ""
lab_run 0 -n "$N" --mode cold --dns-server "$LAB_DNS" --format json \
  "http://$LAB_HOST/big"
transport_case rtt

transport_lab ""
lab_run 0 -n "$N" --mode warm --dns-server "$LAB_DNS" --format json \
  "http://$LAB_HOST:8080/think?think=$THINK_MS"
cp "$HS_OUT" "$HS_DIR/think_warm.json"
lab_run 0 -n "$N" --mode cold,warm --dns-server "$LAB_DNS" --format json \
  "http://$LAB_HOST:8080/think?think=$THINK_MS"
transport_case think

head -c 307200 /dev/urandom >"$HS_DIR/upload.bin" || hs_fail "upload file"
transport_lab "-x a:20"
lab_run 0 -n "$N" --mode cold --dns-server "$LAB_DNS" --format json \
  -T "$HS_DIR/upload.bin" "http://$LAB_HOST:8080/up"
transport_case out

transport_lab "-x b:30"
lab_run 0 -n "$N" --mode cold --dns-server "$LAB_DNS" --format json \
  "http://$LAB_HOST/big"
transport_case in

"$HS_PYTHON" "$HOPSPLIT_SRC/tests/lab/transport_check.py" --dir "$HS_DIR" \
  --delay-ms "$D" --body "$BODY" --think-ms "$THINK_MS" \
  >"$HS_DIR/check.txt" 2>&1
rc=$?
cat "$HS_DIR/check.txt" >&2
[ "$rc" = 0 ] ||
  hs_fail "transport: $(grep -c '^FAIL' "$HS_DIR/check.txt") check(s) failed"
if [ -n "${TRANSPORT_KEEP:-}" ]; then
  mkdir -p "$TRANSPORT_KEEP" && cp "$HS_DIR"/*.json "$HS_DIR"/*.link \
    "$HS_DIR"/*.think "$HS_DIR/check.txt" "$TRANSPORT_KEEP/"
fi
hs_pass
