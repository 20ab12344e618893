#!/bin/sh
# report_outputs: files named with -o are written as users expect (SPEC 5,
# issue 15 item 3):
#   - device nodes are written through, never replaced: -o /dev/null keeps
#     the character device; -o /dev/full fails with an error naming the
#     file, exit 4, and the other outputs are still written;
#   - /dev/stdout, FIFOs and symlinks (also dangling ones) are written
#     through, never replaced;
#   - a new regular file honours the umask, an existing one keeps its mode,
#     and is replaced atomically (a new inode);
#   - an output that fails while it is written does not stop the others,
#     and its error names it; one that cannot be a file is refused first;
#   - no temporary file is left on any exit path: after each case, after a
#     SIGINT and after a second SIGINT while the files are being written,
#     and any file that exists then is whole;
#   - stdout survives EINTR: a SIGINT while hopsplit is blocked writing
#     the JSON into a slow pipe loses nothing from the document;
#   - a run cut by SIGINT is marked partial in JSON and CSV.
#
# As root the device and /dev/stdout cases run inside a private mount
# namespace (unshare -m) with a tmpfs of fresh device nodes over /dev, so
# the host's /dev is never touched; without root they use the host's /dev,
# which an unprivileged hopsplit cannot replace.
if [ "$(id -u)" = 0 ] && [ -z "${HS_IN_NS:-}" ]; then
  command -v unshare >/dev/null 2>&1 || {
    echo "report_outputs: unshare missing (util-linux)" >&2
    [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ] && exit 1
    exit 77
  }
  HS_IN_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_outputs
hs_require python3 timeout mkfifo nginx openssl curl

if [ -n "${HS_IN_NS:-}" ]; then
  # A /dev of our own, in this mount namespace only.
  mount -t tmpfs -o mode=0755,size=1m hs-private-dev /dev ||
    hs_fail "cannot mount a private /dev in the mount namespace"
  [ "$(stat -f -c %T /dev)" = tmpfs ] || hs_fail "/dev is not the private tmpfs"
  : >/dev/.hopsplit-private || hs_fail "cannot mark the private /dev"
  mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/zero c 1 5 &&
    mknod -m 666 /dev/full c 1 7 && mknod -m 666 /dev/random c 1 8 &&
    mknod -m 666 /dev/urandom c 1 9 || hs_fail "mknod in the private /dev"
  ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/0 /dev/stdin &&
    ln -s /proc/self/fd/1 /dev/stdout && ln -s /proc/self/fd/2 /dev/stderr ||
    hs_fail "symlinks in the private /dev"
  DEV_PRIVATE=1
else
  DEV_PRIVATE=
fi
# Every case below that names /dev runs only with the private /dev, or
# unprivileged (which cannot replace anything in /dev).
dev_ok() {
  [ -n "$DEV_PRIVATE" ] && [ -e /dev/.hopsplit-private ] && return 0
  [ "$(id -u)" != 0 ]
}

RUN=$HOPSPLIT_SRC/tests/data/golden/run.json
D=$HS_DIR/o
mkdir -p "$D"
bad=0
problem() {
  hs_log "FAIL: $*"
  bad=1
}
# try RC ARGS...: hs_run that records a problem instead of stopping, so
# that every case is reported.
try() {
  try_want=$1
  shift
  HS_RUNS=$((HS_RUNS + 1))
  HS_OUT=$HS_DIR/run$HS_RUNS.out
  HS_ERR=$HS_DIR/run$HS_RUNS.err
  timeout -k 5 60 "$HOPSPLIT" "$@" </dev/null >"$HS_OUT" 2>"$HS_ERR"
  try_rc=$?
  [ "$try_rc" = "$try_want" ] ||
    problem "exit $try_rc, not $try_want: hopsplit $* ($(head -c 300 "$HS_ERR"))"
}
no_temps() {
  left=$(find "$D" /dev -maxdepth 1 -name '*.tmp.*' 2>/dev/null)
  [ -z "$left" ] || problem "$1: temporary files left: $left"
}
# expected FORMAT: what `report --format FORMAT` prints, in $D/want.FORMAT
expected() {
  hs_run 0 report --format "$1" "$RUN"
  cp "$HS_OUT" "$D/want.$1"
}
for f in text json csv prom html; do expected "$f"; done

# --- device nodes -----------------------------------------------------------
if dev_ok; then
  try 0 report --format csv -o /dev/null "$RUN"
  [ -c /dev/null ] || problem "-o /dev/null replaced the device node"
  [ "$(stat -c %t:%T /dev/null)" = 1:3 ] || problem "/dev/null is not 1:3 any more"
  no_temps "-o /dev/null"

  try 4 report --format csv -o /dev/full -o "$D/beside.csv" "$RUN"
  grep -q "/dev/full" "$HS_ERR" || problem "the /dev/full error does not name it: $(cat "$HS_ERR")"
  [ -c /dev/full ] || problem "-o /dev/full replaced the device node"
  cmp -s "$D/beside.csv" "$D/want.csv" ||
    problem "an output beside the failing /dev/full was not written"
  no_temps "-o /dev/full"

  try 0 report --format csv -o /dev/stdout "$RUN"
  [ -L /dev/stdout ] || problem "-o /dev/stdout replaced the symlink"
  cat "$D/want.csv" "$D/want.csv" >"$D/want.twice"
  cmp -s "$HS_OUT" "$D/want.twice" ||
    problem "-o /dev/stdout did not write the CSV through to stdout"
  no_temps "-o /dev/stdout"
else
  hs_log "root outside a private mount namespace: /dev cases not run"
  problem "the /dev cases did not run"
fi

# --- FIFO -------------------------------------------------------------------
mkfifo "$D/fifo.prom"
timeout 20 cat "$D/fifo.prom" >"$D/fifo.out" &
reader=$!
try 0 report -o "$D/fifo.prom" "$RUN"
wait "$reader"
[ -p "$D/fifo.prom" ] || problem "-o FIFO replaced the FIFO"
cmp -s "$D/fifo.out" "$D/want.prom" ||
  problem "-o FIFO: the reader did not get the prom report"

# --- symlinks ---------------------------------------------------------------
printf 'old\n' >"$D/target.txt"
chmod 640 "$D/target.txt"
ln -s target.txt "$D/link.txt"
try 0 report -o "$D/link.txt" "$RUN"
[ -L "$D/link.txt" ] || problem "-o SYMLINK replaced the symlink"
cmp -s "$D/target.txt" "$D/want.text" ||
  problem "-o SYMLINK: the target does not hold the report"
[ "$(stat -c %a "$D/target.txt")" = 640 ] ||
  problem "-o SYMLINK: the target's mode changed to $(stat -c %a "$D/target.txt")"
ln -s "$D/fresh-target.json" "$D/dangling.json"
try 0 report -o "$D/dangling.json" "$RUN"
[ -L "$D/dangling.json" ] || problem "-o DANGLING-SYMLINK replaced the symlink"
cmp -s "$D/fresh-target.json" "$D/want.json" ||
  problem "-o DANGLING-SYMLINK: its target was not created with the report"
no_temps "symlinks"

# --- modes ------------------------------------------------------------------
for u in 027 077 002; do
  (umask "$u" && "$HOPSPLIT" report -o "$D/new-$u.json" "$RUN" >/dev/null 2>&1)
  want=$(printf '%o' $((0666 & ~0$u)))
  got=$(stat -c %a "$D/new-$u.json" 2>/dev/null)
  [ "$got" = "$want" ] || problem "umask $u: a new file got mode $got, not $want"
done
printf 'old\n' >"$D/keep.csv"
chmod 604 "$D/keep.csv"
ino=$(stat -c %i "$D/keep.csv")
try 0 report -o "$D/keep.csv" "$RUN"
[ "$(stat -c %a "$D/keep.csv")" = 604 ] ||
  problem "an existing file's mode changed to $(stat -c %a "$D/keep.csv")"
cmp -s "$D/keep.csv" "$D/want.csv" || problem "the existing file was not rewritten"
[ "$(stat -c %i "$D/keep.csv")" != "$ino" ] ||
  problem "the existing file was rewritten in place, not replaced atomically"
no_temps "modes"

# --- one output fails -------------------------------------------------------
# A path that cannot be a file at all is refused before anything is done
# (a run measures nothing for it), naming it; one that fails only while
# it is written (/dev/full above) leaves the others written.
mkdir "$D/adir.json"
try 4 report -o "$D/adir.json" -o "$D/after.csv" "$RUN"
grep -q "adir.json" "$HS_ERR" || problem "the error does not name adir.json: $(cat "$HS_ERR")"
[ -d "$D/adir.json" ] || problem "the directory adir.json was replaced"
no_temps "a failing output"

# --- interrupts while writing -----------------------------------------------
# A large saved run (samples of run.json repeated), so that writing takes a
# while; SIGINT once, or twice 10 ms apart, at several moments.
"$HS_PYTHON" - "$RUN" "$D/big.json" <<'PY' || hs_fail "cannot make big.json"
import copy, json, re, sys
# Numbers keep their digits (hopsplit reads curl's seconds exactly).
d = json.load(open(sys.argv[1]), parse_float=lambda t: "\0num:" + t)
base = d["samples"]
rounds = d["settings"]["rounds"]
out = []
for k in range(200):
    for s in base:
        s = copy.deepcopy(s)
        s["round"] += k * rounds
        s["index"] = len(out)
        out.append(s)
d["samples"] = out
d["settings"]["rounds"] = rounds * 200
d["n_samples"] = len(out)
text = json.dumps(d, indent=1)
open(sys.argv[2], "w").write(re.sub(r'"\\u0000num:([^"]*)"', r"\1", text))
PY
mkdir -p "$D/int"
for delay in 0.1 0.3 0.8 1.5; do
  for twice in 0 1; do
    rm -f "$D/int/"*
    # A background job of a script starts with SIGINT ignored: give
    # hopsplit the default disposition a shell user's command has.
    "$HS_PYTHON" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' \
      "$HOPSPLIT" report --format json -o "$D/int/a.json" -o "$D/int/a.html" \
      -o "$D/int/a.csv" -o "$D/int/a.har" "$D/big.json" \
      >"$D/int/stdout" 2>"$D/int/stderr" &
    pid=$!
    sleep "$delay"
    kill -INT "$pid" 2>/dev/null
    if [ "$twice" = 1 ]; then
      sleep 0.01
      kill -INT "$pid" 2>/dev/null
    fi
    wait "$pid"
    left=$(find "$D/int" -name '*.tmp.*')
    [ -z "$left" ] ||
      problem "SIGINT x$((twice + 1)) after ${delay}s: temporary files left: $left"
    # Whatever exists is whole.
    "$HS_PYTHON" - "$D/int" <<'PY' ||
import csv, json, os, sys
d = sys.argv[1]
for name in ("a.json", "a.har"):
    p = os.path.join(d, name)
    if os.path.exists(p):
        json.load(open(p))
p = os.path.join(d, "a.html")
if os.path.exists(p):
    assert open(p).read().rstrip().endswith("</html>"), "a.html cut short"
PY
      problem "SIGINT x$((twice + 1)) after ${delay}s: a written file is not whole"
  done
done

# --- measuring: EINTR on stdout, partial marking ----------------------------
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
URL="https://origin.test:$HTTPS_PORT/redirect-same"
RES="origin.test:$HTTPS_PORT:127.0.0.1"
# The reader takes one byte, waits until hopsplit is blocked writing the
# rest, then reads it all; meanwhile hopsplit gets a SIGINT.
sh -c 'echo $$ >"$0"; exec "$@"' "$D/eintr.pid" "$HOPSPLIT" -q -n 40 \
  --resolve "$RES" --cacert "$CA_FILE" --format json "$URL" \
  2>"$D/eintr.err" | "$HS_PYTHON" -c '
import sys, time
sys.stdin.buffer.read(1)
open(sys.argv[1], "w").write("reading\n")
time.sleep(2)
sys.stdout.buffer.write(b"{" + sys.stdin.buffer.read())
' "$D/eintr.started" >"$D/eintr.json" &
pipeline=$!
i=0
while [ "$i" -lt 200 ] && [ ! -s "$D/eintr.started" ]; do
  i=$((i + 1))
  sleep 0.05
done
sleep 0.5
pid=$(cat "$D/eintr.pid" 2>/dev/null)
[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null
wait "$pipeline"
"$HS_PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["samples"]) >= 1
' "$D/eintr.json" 2>"$D/eintr.check" ||
  problem "a SIGINT while stdout was blocked broke the JSON: $(tail -1 "$D/eintr.check")"

HS_OUT=$D/part.out
HS_ERR=$D/part.err
# SIGINT once the first sample is streamed (a loaded machine may take a
# while), so that something was measured.
"$HOPSPLIT" -n 200 --mode cold --pause 100ms --resolve "$RES" \
  --cacert "$CA_FILE" -o "$D/part.json" -o "$D/part.csv" \
  -o "$D/part.ndjson" "$URL" </dev/null >"$HS_OUT" 2>"$HS_ERR" &
pid=$!
i=0
while [ "$i" -lt 400 ] && ! grep -q '"type":"sample"' "$D/part.ndjson" 2>/dev/null; do
  i=$((i + 1))
  sleep 0.05
done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || problem "SIGINT during measuring: exit $rc, not 130"
"$HS_PYTHON" - "$D" <<'PY' 2>"$D/part.check" ||
import csv, json, os, sys
d = sys.argv[1]
j = json.load(open(os.path.join(d, "part.json")))
assert j["partial"] is True, "part.json not partial"
rows = list(csv.DictReader(open(os.path.join(d, "part.csv"), newline="")))
assert rows, "part.csv has no rows"
assert "partial" in rows[0], "part.csv has no partial column"
assert all(r["partial"] == "true" for r in rows), "part.csv rows not partial"
lines = [json.loads(l) for l in open(os.path.join(d, "part.ndjson"))]
assert lines[-1]["type"] == "summary" and lines[-1]["partial"] is True
PY
  problem "a run cut by SIGINT: $(tail -1 "$D/part.check")"
no_temps "SIGINT during measuring"

[ "$bad" = 0 ] || hs_fail "outputs are not written as users expect (see above)"
hs_pass
