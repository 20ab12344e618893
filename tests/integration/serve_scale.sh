#!/bin/sh
# serve_scale: hopsplit serve with many probes in flight at once (issue 25;
# SPEC 8 has the figures, tests/bench/serve_load measures them).  Not timed:
#   - 1,000 probes sent at once of a target that answers after 1 s are all
#     answered 200 with probe_success 1, while a fast target probed every
#     100 ms meanwhile always succeeds; the slow target's own count is the
#     ground truth that each probe reached it, and the most requests it held
#     at once shows they were in flight together (more than a pool of
#     threads would run);
#   - 1,000 probes at once of a target whose connect never completes (its
#     accept queue is full) are all answered 200 with probe_success 0, each
#     before Prometheus' scrape timeout (the budget is the scrape timeout
#     less --timeout-offset) and none before its budget (2 s): they waited
#     for the connect until the deadline;
#   - /metrics shows no probe in flight afterwards and every probe counted;
#   - serve's -v log, written by the engine threads (a line per sample) and
#     libmicrohttpd's thread (a line per probe) at once, has every line
#     whole: none without its "hopsplit: " or with two.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_scale
hs_require python3 curl
N=1000
hs_start_loadtarget slow "$HS_DIR/slow" 1
SLOW="http://127.0.0.1:$LT_PORT/slow"
SLOW_PID=$LT_PID
hs_start_loadtarget slow "$HS_DIR/fast" 0
FAST="http://127.0.0.1:$LT_PORT/fast"
hs_start_loadtarget dead "$HS_DIR/dead"
DEAD="http://127.0.0.1:$LT_PORT/dead"
# The offset is what serve keeps for itself beside the budget: accepting
# and answering 1,000 requests at once on a loaded machine (the budget is
# the scrape timeout less it, as blackbox_exporter's --timeout-offset).
OFFSET=$((8 * HS_TF))
hs_start_serve "$HS_DIR/serve" --timeout-offset "$OFFSET" -v
grep -q "listening on .* probes at once" "$SERVE_ERR" || hs_fail "no limits"

# load NAME ARGS...: probeload.py against serve, its JSON in $HS_DIR/NAME.
load() {
  hs_n=$1
  shift
  "$HS_PYTHON" "$HS_LIB_DIR/probeload.py" "$SERVE_PORT" "$@" \
    >"$HS_DIR/$hs_n.json" 2>"$HS_DIR/$hs_n.err" || {
    cat "$HS_DIR/$hs_n.err" >&2
    hs_fail "probeload $hs_n failed"
  }
  cat "$HS_DIR/$hs_n.json" >&2
}
# check NAME PYEXPR: PYEXPR holds on the JSON (as d).
check() {
  "$HS_PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$HS_DIR/$1.json" "$2" ||
    hs_fail "$1: does not hold: $2"
}

# Slow: scrape timeout 60 s (budget 52 s), far beyond the 1 s delay: a
# loaded machine (ASan, other tests) may take seconds to start 1,000.
load slow "$SLOW" "$N" --timeout $((60 * HS_TF)) --expect 1 --live "$FAST" \
  --live-timeout $((60 * HS_TF))
check slow "d['answered'] == $N and d['right'] == $N and d['errors'] == 0"
check slow "d['live']['sent'] > 0 and d['live']['ok'] == d['live']['sent']"
kill -TERM "$SLOW_PID"
wait "$SLOW_PID" 2>/dev/null
line=$(tail -1 "$HS_DIR/slow/slow.log")
hs_log "slow target: $line"
answered=$(echo "$line" | sed -n 's/^answered \([0-9]*\),.*/\1/p')
most=$(echo "$line" | sed -n 's/.*at most \([0-9]*\) at once/\1/p')
[ "$answered" = "$N" ] || hs_fail "the slow target answered '$answered', not $N"
# More than the 16 threads of the old server (or any pool of 32): how many
# more depends on how fast a loaded machine starts them.
[ "${most:-0}" -gt 32 ] ||
  hs_fail "the slow target never held more than ${most:-0} requests at once"

# Dead: budget 2 s; every answer before the scrape timeout (the client
# gives up then, as Prometheus would).
load dead "$DEAD" "$N" --timeout $((OFFSET + 2)) --slack 0 --expect 0
check dead "d['answered'] == $N and d['right'] == $N and d['errors'] == 0"
check dead "d['answer_wall_max_s'] <= $OFFSET + 2"
# Nothing answers a dead connect early: each waited for its budget.
check dead "d['answer_wall_min_s'] >= 2"

curl -q -sS --noproxy '*' --max-time 5 -o "$HS_DIR/metrics" \
  "http://127.0.0.1:$SERVE_PORT/metrics" || hs_fail "no /metrics"
for want in 'hopsplit_serve_probes_in_flight 0' \
  'hopsplit_serve_probes_waiting 0' 'hopsplit_serve_probes_rejected_total 0'; do
  grep -qx "$want" "$HS_DIR/metrics" || {
    cat "$HS_DIR/metrics" >&2
    hs_fail "/metrics lacks '$want'"
  }
done
total=$(sed -n 's/^hopsplit_serve_probes_total //p' "$HS_DIR/metrics")
live=$("$HS_PYTHON" -c 'import json, sys
print(json.load(open(sys.argv[1]))["live"]["sent"])' "$HS_DIR/slow.json")
[ "$total" = $((2 * N + live)) ] ||
  hs_fail "/metrics counts $total probes, sent $((2 * N + live))"
mixed=$(grep -c -v -e '^hopsplit: ' -e '^$' "$SERVE_ERR")
twice=$(grep -c '^hopsplit: .*hopsplit: ' "$SERVE_ERR")
probes=$(grep -c '^hopsplit: probe http://127\.0\.0\.1:[0-9]*/[a-z]* (module http_2xx, ' "$SERVE_ERR")
hs_log "serve -v: $(wc -l <"$SERVE_ERR") lines, $probes of probes"
[ "$mixed" = 0 ] && [ "$twice" = 0 ] || {
  grep -v '^hopsplit: ' "$SERVE_ERR" | head -5 >&2
  grep '^hopsplit: .*hopsplit: ' "$SERVE_ERR" | head -5 >&2
  hs_fail "serve -v: $mixed lines without 'hopsplit: ', $twice with two"
}
[ "$probes" = "$total" ] ||
  hs_fail "serve -v logged $probes probes, /metrics counts $total"
hs_pass
