#!/bin/sh
# parallel: --parallel N (SPEC 2, 3.4) against nginx, whose timing log
# (request end and duration) is the ground truth.  Three targets behind a
# rate-limited endpoint (each request lasts about a second), two cold
# rounds, --parallel 3.  Asserts, from the log: the serial control
# requests never overlap one another; in the batch, each target's own
# requests never overlap, and requests of different targets do.  From the
# document: the control samples (control true, round 0) and the batch
# samples (rounds 1..2) of every target, interference_us on every sample,
# the summary's control object, no comparison.  Then that a comparison
# asked for (--baseline) is a usage error with --parallel.  Then the cap:
# with every sample past the interference threshold (the test-only
# HOPSPLIT_TEST_INTERFERENCE_US, hopsplit(1) ENVIRONMENT), the batch
# starts its three lanes at once, and once the first of them has ended
# (flagged: the cap halves to 1) no two requests overlap any more, in
# nginx's log; the run warns once, with what the serial control cost.
# Structure only: no assertion on a measured time.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init parallel
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_nginx_slow "$HS_DIR/nginx"
hs_start_nginx "$HS_DIR/nginx"
TLOG=$HS_DIR/nginx/timing.log

R="origin.test:$HTTPS_PORT:127.0.0.1"

# slow_requests: the 12 requests to /slow/ of the last run, from nginx's
# timing log, as "start end target" lines in order of start in
# $HS_DIR/reqs.
slow_requests() {
  hs_nginx_barrier
  "$HS_PYTHON" - "$TLOG" "$HTTPS_PORT" >"$HS_DIR/reqs" <<'EOP' ||
import sys
path, port = sys.argv[1], sys.argv[2]
reqs = []
for line in open(path):
    end, took, p, uri = line.split()
    if p == port and uri.startswith("/slow/"):
        reqs.append((float(end) - float(took), float(end), uri[-1]))
if len(reqs) != 12:
    sys.exit("expected 12 requests to /slow/, got %d" % len(reqs))
for r in sorted(reqs):
    print("%.3f %.3f %s" % r)
EOP
    hs_fail "timing log: $HS_CMD"
}
B="https://origin.test:$HTTPS_PORT/slow"
: >"$TLOG"
hs_run 0 -n 2 --mode cold --parallel 3 --format json --resolve "$R" \
  --cacert "$CA_FILE" a="$B/a" b="$B/b" c="$B/c"
hs_jcheck --shape --closure --all-ok --samples 12 \
  "d['settings']['parallel'] == 3" \
  "d['settings']['interference_max_us'] == 1000" \
  "d['settings']['interference_max_pct'] == 1" \
  "d['comparison'] == []" \
  "sorted(col(S(), 'control')) == [False] * 6 + [True] * 6" \
  "all(s['round'] == 0 for s in samples if s['control'])" \
  "all(s['round'] in (1, 2) for s in samples if not s['control'])" \
  "sorted((s['target'], s['round']) for s in samples if not s['control']) == [(t, r) for t in 'abc' for r in (1, 2)]" \
  "sorted((s['target'], s['position']) for s in samples if s['control']) == [(t, p) for t in 'abc' for p in (1, 2)]" \
  "all(isinstance(s['interference_us'], int) for s in samples)" \
  "all(t['summary']['cold']['n'] == 2 for t in targets)" \
  "all(t['summary']['cold']['control']['n'] == 2 for t in targets)" \
  "all(t['summary']['cold']['control']['diff_us'] == t['summary']['cold']['phases']['total']['p50_us'] - t['summary']['cold']['control']['p50_us'] for t in targets if t['summary']['cold']['phases']['total']['n'])"

# The server's view: 12 requests to /slow/, in the order they began.
slow_requests
"$HS_PYTHON" - "$HS_DIR/reqs" <<'EOP' || hs_fail "timing log: $HS_CMD"
import sys
reqs = [(float(a), float(b), t) for a, b, t in
        (line.split() for line in open(sys.argv[1]))]
control, batch = reqs[:6], reqs[6:]
def overlap(x, y):
    return x[0] < y[1] and y[0] < x[1]
bad = 0
# Serial control: every target alone, one request at a time.
for i in range(5):
    if overlap(control[i], control[i + 1]):
        print("control requests overlap:", control[i], control[i + 1])
        bad = 1
if max(r[1] for r in control) > min(r[0] for r in batch):
    print("the batch started before the control ended")
    bad = 1
# Batch: each target's own requests in sequence, other targets' at once.
for t in "abc":
    own = [r for r in batch if r[2] == t]
    if len(own) != 2 or overlap(own[0], own[1]):
        print("target", t, "requests overlap or missing:", own)
        bad = 1
cross = [(x, y) for x in batch for y in batch if x[2] < y[2] and overlap(x, y)]
if not cross:
    print("no two targets were served at the same time:", batch)
    bad = 1
sys.exit(bad)
EOP

# The NDJSON stream under --parallel: no line is written while a sample
# is in flight (its phases would pay for the writing), and every sample
# has its line.  Each batch line's arrival (the reader's wall clock) is
# outside every batch request nginx timed (its own log, same clock), by
# 20 ms.
: >"$TLOG"
"$HS_PYTHON" - "$HOPSPLIT" "$R" "$CA_FILE" "$B" >"$HS_DIR/arrivals" <<'EOP' ||
import subprocess, sys, time
exe, r, ca, b = sys.argv[1:5]
p = subprocess.Popen([exe, "-n", "2", "--mode", "cold", "--parallel", "3",
                      "--format", "ndjson", "--resolve", r, "--cacert", ca,
                      "a=%s/a" % b, "b=%s/b" % b, "c=%s/c" % b],
                     stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
for line in p.stdout:
    kind = ("summary" if b'"type":"summary"' in line else
            "control" if b'"control":true' in line else "batch")
    print("%.3f %s" % (time.time(), kind))
sys.exit(p.wait())
EOP
  hs_fail "the NDJSON run failed"
slow_requests
"$HS_PYTHON" - "$HS_DIR/reqs" "$HS_DIR/arrivals" <<'EOP' ||
import sys
reqs = [(float(a), float(b)) for a, b, t in
        (line.split() for line in open(sys.argv[1]))]
lines = [(float(t), k) for t, k in
         (line.split() for line in open(sys.argv[2]))]
kinds = sorted(k for t, k in lines)
print("lines: %s" % lines)
bad = kinds != ["batch"] * 6 + ["control"] * 6 + ["summary"]
if bad:
    print("expected 6 control lines, 6 batch lines and the summary")
# The batch's lines against the batch's requests (the control is one
# sample at a time: a line read late may fall in the next one's request).
for t in [t for t, k in lines if k == "batch"]:
    for a, b in reqs[6:]:
        if a + 0.02 < t < b - 0.02:
            print("a line arrived at %.3f inside a request %.3f-%.3f"
                  % (t, a, b))
            bad = True
sys.exit(1 if bad else 0)
EOP
  hs_fail "NDJSON lines written while a sample was in flight"

# The cap: every sample flagged (50 ms of interference added to each,
# past both 1 ms and 1 % of a request of about a second), so
# the first batch sample to end halves the cap from 3 to 1; the lanes
# wait until the samples in flight have ended, then run one at a time.
: >"$TLOG"
HOPSPLIT_TEST_INTERFERENCE_US=50000 hs_run 0 -n 2 --mode cold --parallel 3 \
  --keep-interfered --format json --resolve "$R" --cacert "$CA_FILE" \
  a="$B/a" b="$B/b" c="$B/c"
hs_jcheck --shape --closure --all-ok --samples 12 \
  "all(s['interfered'] for s in samples)" \
  "all(s['interference_us'] >= 50000 for s in samples)" \
  "sorted(col(S(), 'control')) == [False] * 6 + [True] * 6"
# One warning for the run, saying what was late and what the control cost.
[ "$(grep -c 'may have changed the phases' "$HS_ERR")" = 1 ] || {
  hs_show
  hs_fail "not one --parallel warning"
}
hs_grep_err '--parallel 3 may have changed the phases it measured: 6 of 6 samples were interfered with, mostly by the loop busy with other work \(stamps up to [0-9.]+ ms late; kept, --keep-interfered\)' \
  'the serial control \(6 samples alone, before the batch\) took [0-9.]+ s of the run.s [0-9.]+ s'
slow_requests
"$HS_PYTHON" - "$HS_DIR/reqs" <<'EOP' || hs_fail "cap: $HS_CMD"
import sys
reqs = [(float(a), float(b), t) for a, b, t in
        (line.split() for line in open(sys.argv[1]))]
batch = reqs[6:]
first_end = min(r[1] for r in batch)
wave = [r for r in batch if r[0] < first_end]
later = [r for r in batch if r[0] >= first_end]
print("batch: %d started at once, then %d" % (len(wave), len(later)))
bad = 0
if len(wave) < 2:
    print("the batch never ran two samples at once:", batch)
    bad = 1
for x in later:
    for y in batch:
        if y is not x and x[0] < y[1] and y[0] < x[1]:
            print("after a flagged sample, requests still overlap:", x, y)
            bad = 1
sys.exit(bad)
EOP

# A comparison is measured in paired rounds, one sample at a time.
hs_run 2 -n 2 --parallel 2 --baseline a --resolve "$R" --cacert "$CA_FILE" \
  a="$B/a" b="$B/b"
hs_grep_err "parallel" "baseline"
hs_pass
