#!/bin/sh
# report_ndjson: ndjson is streamed: each sample's line is in the -o file
# (and on stdout) as soon as the sample ends, so a run killed with
# SIGKILL keeps every finished sample as a whole line; an interrupted run
# (SIGINT) ends the file with a summary line marked partial and exits 130.
# The lines are a writer thread's: when the output does not keep up (a
# pipe read late, a queue of 1 through the test hook), every line is still
# written, in order, the measuring waits and says so, and an interrupt
# meanwhile loses none of the samples measured.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_ndjson
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
U="https://origin.test:$HTTPS_PORT/ok"

# lines FILE: number of complete lines.
lines() {
  wc -l <"$1" | tr -d ' '
}

# wait_lines FILE N: FILE has at least N lines (at most 10 s x $HS_TF).
wait_lines() {
  i=0
  while [ "$i" -lt $((100 * HS_TF)) ]; do
    [ -f "$1" ] && [ "$(lines "$1")" -ge "$2" ] && return 0
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

# check FILE KIND: every line is a JSON object; KIND "killed": only
# sample lines, "interrupted": samples then a partial summary.
check() {
  "$HS_PYTHON" - "$1" "$2" <<'PY' || hs_fail "bad ndjson in $1"
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
assert text.endswith("\n"), "last line is not whole"
objs = [json.loads(l) for l in text.splitlines()]
kinds = [o["type"] for o in objs]
if sys.argv[2] == "killed":
    assert kinds and set(kinds) == {"sample"}, kinds
else:
    assert kinds[-1] == "summary" and set(kinds[:-1]) == {"sample"}, kinds
    assert objs[-1]["partial"] is True, objs[-1]["partial"]
    assert objs[-1]["n_samples"] == len(objs) - 1
idx = [o["index"] for o in objs if o["type"] == "sample"]
assert idx == list(range(len(idx))), idx
print("%s: %d lines ok" % (sys.argv[2], len(objs)))
PY
}

"$HOPSPLIT" -n 50 --mode cold --pause 200ms --format ndjson -q \
  --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" \
  -o "$HS_DIR/k.ndjson" "$U" >"$HS_DIR/k.out" 2>"$HS_DIR/k.err" &
pid=$!
hs_track "$pid"
wait_lines "$HS_DIR/k.ndjson" 3 || hs_fail "no streamed lines after 10 s"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "$HS_DIR/k.ndjson" killed
check "$HS_DIR/k.out" killed

"$HOPSPLIT" -n 50 --mode cold --pause 200ms -q \
  --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" \
  -o "$HS_DIR/i.ndjson" "$U" >"$HS_DIR/i.out" 2>"$HS_DIR/i.err" &
pid=$!
hs_track "$pid"
wait_lines "$HS_DIR/i.ndjson" 2 || hs_fail "no streamed lines after 10 s"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || hs_fail "interrupted run exited $rc, expected 130"
check "$HS_DIR/i.ndjson" interrupted

# A slow reader: the pipe fills and the loop waits between samples; and
# the same with the benchmark's writer thread (a test hook), whose queue
# (1 line) fills too.
for hook in "" "HOPSPLIT_TEST_WRITER_THREAD=1 HOPSPLIT_TEST_WRITER_QUEUE=1"; do
  # shellcheck disable=SC2086 # $hook: the variables or nothing
  env $hook "$HOPSPLIT" -n 60 --mode warm --format ndjson \
    --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" "$U" \
    2>"$HS_DIR/s.err" | { sleep 2; cat >"$HS_DIR/s.out"; } ||
    hs_fail "slow-reader run ($hook) failed: $(cat "$HS_DIR/s.err")"
  "$HS_PYTHON" - "$HS_DIR/s.out" <<'PY' || hs_fail "bad slow-reader ndjson ($hook)"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert [o["type"] for o in objs] == ["sample"] * 60 + ["summary"], len(objs)
assert [o["index"] for o in objs[:-1]] == list(range(60))
assert objs[-1]["partial"] is False and objs[-1]["n_samples"] == 60
PY
  grep -q "the output did not keep up: measuring waited for it" "$HS_DIR/s.err" ||
    hs_fail "no word of the waits ($hook): $(cat "$HS_DIR/s.err")"
done

# Interrupted while it waits for the slow reader: every sample measured
# has its line.
mkfifo "$HS_DIR/w.fifo" || hs_fail "cannot make a fifo"
{ sleep 3; cat; } <"$HS_DIR/w.fifo" >"$HS_DIR/w.out" &
rpid=$!
hs_track "$rpid"
"$HOPSPLIT" -n 100000 --mode warm \
  --format ndjson -q --dns-server "127.0.0.1:$DNS_PORT" \
  --cacert "$CA_FILE" "$U" >"$HS_DIR/w.fifo" 2>"$HS_DIR/w.err" &
pid=$!
hs_track "$pid"
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || hs_fail "interrupted run exited $rc, expected 130"
wait "$rpid"
check "$HS_DIR/w.out" interrupted
hs_pass
