#!/bin/sh
# interrupt: interrupts and outputs against a server that hangs (issue 8
# parts 5 and 6; tests/integration/interrupt.sh covers one SIGINT between
# samples):
#   one SIGINT while a hop hangs: exit 130 no later than -m allows, the
#     report (stdout and -o) is complete and partial
#   a second SIGINT: exit 130 at once, every ndjson line that was written
#     is a whole JSON document, the finished sample is among them
#   SIGKILL in the middle: an existing -o file is left as it was (files
#     are written through a temporary file and a rename)
#   an -o path that cannot be written: exit 4 before anything is measured
#     (the server sees no request)
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init interrupt_hostile
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
B="http://127.0.0.1:$HOSTILE_PORT"
SRVLOG=$(ls "$HS_DIR"/srv/*.port.log)

# bg ARGS...: start hopsplit in the background; $BG_PID, $HS_OUT, $HS_ERR.
# (hopsplit installs its own SIGINT handler, so the shell's "ignore
# SIGINT in background jobs" does not apply.)
bg() {
  HS_RUNS=$((HS_RUNS + 1))
  HS_OUT=$HS_DIR/run$HS_RUNS.out
  HS_ERR=$HS_DIR/run$HS_RUNS.err
  HS_CMD="hopsplit $*"
  BG_T0=$(date +%s%N)
  "$HOPSPLIT" "$@" </dev/null >"$HS_OUT" 2>"$HS_ERR" &
  BG_PID=$!
  hs_track "$BG_PID"
}

# bg_wait MAX_MS: wait for it (killing it after MAX_MS x $HS_TF); $HS_RC, and
# $HS_ELAPSED_MS since bg, or since the last signal sent with sig.
bg_wait() {
  while hs_is_running "$BG_PID"; do
    if [ $((($(date +%s%N) - BG_T0) / 1000000)) -gt $(($1 * HS_TF)) ]; then
      kill -KILL "$BG_PID" 2>/dev/null
      wait "$BG_PID"
      hs_show
      hs_fail "still running after $1 ms: $HS_CMD"
    fi
    sleep 0.1
  done
  wait "$BG_PID"
  HS_RC=$?
  HS_ELAPSED_MS=$((($(date +%s%N) - BG_T0) / 1000000))
}

# sig SIGNAL: send SIGNAL to it; bg_wait's clock starts again here (a
# loaded machine's slow start is not the time the signal took).
sig() {
  BG_T0=$(date +%s%N)
  kill -"$1" "$BG_PID"
}

# Wait until the server saw N requests for PATH.
seen() {
  s_i=0
  while [ "$(grep -c " $2\$" "$SRVLOG")" -lt "$1" ]; do
    [ "$s_i" -lt $((100 * HS_TF)) ] || hs_fail "the server never saw $2"
    sleep 0.1
    s_i=$((s_i + 1))
  done
}

# handled_int PID: the SIGINT sent to PID is no longer pending, so its
# handler has run (a second one sent now is a second one, not merged
# with the first): SigPnd and ShdPnd of /proc/PID/status lose bit 2.
handled_int() {
  h_i=0
  while grep -E '^(SigPnd|ShdPnd):' "/proc/$1/status" 2>/dev/null |
    awk '{ if (index("2367abefABEF", substr($2, length($2), 1))) f = 1 }
      END { exit !f }'; do
    [ "$h_i" -lt $((50 * HS_TF)) ] || hs_fail "SIGINT never reached $1"
    sleep 0.05
    h_i=$((h_i + 1))
  done
}

# One SIGINT while the hop hangs (-m 6s).
bg -n 5 --mode cold --order fixed -m 6s --format json -o "$HS_DIR/one.json" \
  "good=$B/ok" "bad=$B/silent"
seen 1 /silent
kill -INT "$BG_PID"
bg_wait 15000
[ "$HS_RC" = 130 ] || { hs_show; hs_fail "exit status $HS_RC, expected 130"; }
for f in "$HS_OUT" "$HS_DIR/one.json"; do
  hs_jcheck --file "$f" --shape --closure "d['partial'] == True" \
    "S(target='good', ok=True) != []" "len(samples) <= 2"
done

# Two SIGINTs: out at once, ndjson flushed line by line.
bg -n 50 --mode cold --order fixed -m 30s --format ndjson "good=$B/ok" \
  "bad=$B/silent"
seen 2 /silent
kill -INT "$BG_PID"
handled_int "$BG_PID"
sig INT
bg_wait 5000
[ "$HS_RC" = 130 ] || { hs_show; hs_fail "exit status $HS_RC, expected 130"; }
hs_log "two SIGINTs: out $HS_ELAPSED_MS ms after the second"
"$HS_PYTHON" - "$HS_OUT" <<'PY' || hs_fail "ndjson after two SIGINTs"
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "last line not terminated"
docs = [json.loads(l) for l in lines[:-1]]
good = [d for d in docs if d.get("target") == "good" and d.get("ok")]
assert good, "no finished sample in %r" % docs
PY

# SIGKILL: the old file stays whole.
echo '{"old": true}' >"$HS_DIR/keep.json"
bg -n 50 --mode cold -m 30s -o "$HS_DIR/keep.json" "$B/silent"
seen 3 /silent
kill -KILL "$BG_PID"
wait "$BG_PID" 2>/dev/null
[ "$(cat "$HS_DIR/keep.json")" = '{"old": true}' ] ||
  hs_fail "SIGKILL left keep.json changed: $(head -c 200 "$HS_DIR/keep.json")"

# An -o that cannot be written: nothing is measured.
: >"$HS_DIR/plainfile"
n0=$(grep -c . "$SRVLOG")
hs_run 4 -n 1 --mode cold -o "$HS_DIR/plainfile/r.json" "$B/ok?unwritable"
hs_grep_err 'plainfile/r\.json'
hs_run 4 -n 1 --mode cold -o "$HS_DIR/r.json" -o "/nonexistent-dir/r.html" \
  "$B/ok?unwritable"
hs_grep_err 'nonexistent-dir'
[ ! -e "$HS_DIR/r.json" ] || hs_fail "r.json written although the run failed"
[ "$(grep -c . "$SRVLOG")" = "$n0" ] ||
  { tail -3 "$SRVLOG" >&2; hs_fail "a request was made before exit 4"; }
hs_pass
