#!/bin/sh
# serve_interfered: an interfered probe keeps its durations and says it was
# interfered (hopsplit(1) INTERFERENCE; issue 35): never a
# hopsplit_duration_seconds of 0 s for a probe whose samples were measured.
#   - serve runs one loop per processor it may run on, never more (its
#     thread count under taskset -c 0 against on every CPU);
#   - on cue: serve with the test hook HOPSPLIT_TEST_INTERFERENCE_US=50000
#     (every sample 50 ms late, past 1 ms and 1 % of a loopback request)
#     probing nginx: hopsplit_probe_interfered 1, the interference at least
#     the 50 ms, every phase of hopsplit_duration_seconds present with the
#     total above 0 and at least connect + wait, the request in nginx's
#     access log (the ground truth that it was measured);
#   - under load, without the hook: 200 /probe requests at once of the
#     same nginx URL, every answer read whole: each one with probe_success
#     1 has hopsplit_duration_seconds{phase="total"} above 0 and a
#     hopsplit_probe_interfered line, and each whose interference passes
#     both thresholds says so (hopsplit_probe_interfered 1).
# Structure only: no assertion on a measured time beyond the injected one.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_interfered
hs_require nginx openssl python3 curl
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
OK="http://127.0.0.1:$HTTP_PORT/ok"

# check FILE PYEXPR: PYEXPR holds on the exposition FILE, read as m (name
# to a list of (labels dict, value)).
check() {
  "$HS_PYTHON" - "$1" "$2" <<'EOP' || hs_fail "$1: does not hold: $2"
import re, sys
m = {}
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    g = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$', line)
    if not g:
        sys.exit("not an exposition line: %r" % line)
    labels = dict(re.findall(r'(\w+)="([^"]*)"', g.group(3) or ""))
    m.setdefault(g.group(1), []).append((labels, float(g.group(4))))
def one(name, **want):
    rows = [v for l, v in m.get(name, []) if all(l.get(k) == x
            for k, x in want.items())]
    return rows[0] if len(rows) == 1 else None
ok = eval(sys.argv[2])
if not ok:
    print(open(sys.argv[1]).read())
sys.exit(0 if ok else 1)
EOP
}

# Loops never more than the processors serve may run on: pinned to one
# CPU it runs one loop thread fewer than on two (its other threads are
# the same), and on N CPUs N loops.
threads() {
  ls "/proc/$SERVE_PID/task" | wc -l
}
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  hs_start_serve "$HS_DIR/all"
  all=$(threads)
  kill -TERM "$SERVE_PID"
  wait "$SERVE_PID" 2>/dev/null
  HOPSPLIT_REAL=$HOPSPLIT
  cat >"$HS_DIR/pinned" <<EOS
#!/bin/sh
exec taskset -c 0 "$HOPSPLIT_REAL" "\$@"
EOS
  chmod +x "$HS_DIR/pinned"
  HOPSPLIT=$HS_DIR/pinned hs_start_serve "$HS_DIR/one"
  one=$(threads)
  kill -TERM "$SERVE_PID"
  wait "$SERVE_PID" 2>/dev/null
  n=$(nproc)
  [ $((all - one)) -eq $((n > 16 ? 15 : n - 1)) ] ||
    hs_fail "serve ran $all threads on $n CPUs and $one on one: not one loop per CPU"
  hs_log "threads: $all on $n CPUs, $one on one"
fi

HOPSPLIT_TEST_INTERFERENCE_US=50000 hs_start_serve "$HS_DIR/hook"
curl -q -sS --max-time $((20 * HS_TF)) --noproxy '*' \
  -o "$HS_DIR/hook.prom" \
  "http://127.0.0.1:$SERVE_PORT/probe?target=$OK" ||
  hs_fail "no answer from serve with the hook"
hs_log "$(grep -E '^(probe_success|probe_duration|hopsplit_probe_interf|hopsplit_duration)' "$HS_DIR/hook.prom")"
check "$HS_DIR/hook.prom" "one('probe_success') == 1"
check "$HS_DIR/hook.prom" "one('hopsplit_probe_interfered') == 1"
check "$HS_DIR/hook.prom" "one('hopsplit_probe_interference_seconds') >= 0.05"
check "$HS_DIR/hook.prom" \
  "sorted(l['phase'] for l, v in m['hopsplit_duration_seconds']) == sorted(['dns', 'connect', 'tls', 'send', 'wait', 'transfer', 'redirect', 'other', 'total'])"
check "$HS_DIR/hook.prom" \
  "one('hopsplit_duration_seconds', phase='total') > 0 and one('hopsplit_duration_seconds', phase='total') >= one('hopsplit_duration_seconds', phase='connect') + one('hopsplit_duration_seconds', phase='wait') and one('hopsplit_duration_seconds', phase='connect') > 0 and one('hopsplit_duration_seconds', phase='wait') > 0"
check "$HS_DIR/hook.prom" \
  "one('hopsplit_hop_duration_seconds', hop='1', phase='total') > 0"
hs_nginx_barrier
grep -q 'GET /ok ' "$HS_DIR/nginx/access.log" ||
  hs_fail "nginx never saw the probe's request"
kill -TERM "$SERVE_PID"
wait "$SERVE_PID" 2>/dev/null

# Under load: 200 probes at once, every answer kept.
hs_start_serve "$HS_DIR/load"
"$HS_PYTHON" - "$SERVE_PORT" "$OK" 200 $((60 * HS_TF)) "$HS_DIR/answers" \
  <<'EOP' || hs_fail "the concurrent scrapes failed"
import asyncio, os, sys, urllib.parse
port, target, n, timeout, out = (int(sys.argv[1]), sys.argv[2],
                                 int(sys.argv[3]), float(sys.argv[4]),
                                 sys.argv[5])
os.makedirs(out, exist_ok=True)
async def one(i):
    r, w = await asyncio.open_connection("127.0.0.1", port)
    q = urllib.parse.urlencode({"target": target})
    w.write(("GET /probe?%s HTTP/1.0\r\nHost: x\r\n"
             "X-Prometheus-Scrape-Timeout-Seconds: %d\r\n\r\n"
             % (q, int(timeout))).encode())
    await w.drain()
    data = await r.read()
    w.close()
    head, _, body = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.") or b" 200 " not in head.split(b"\r\n")[0]:
        raise SystemExit("probe %d: %r" % (i, head[:80]))
    open(os.path.join(out, "%03d.prom" % i), "wb").write(body)
async def main():
    await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(n))),
                           timeout + 10)
asyncio.run(main())
EOP
[ "$(ls "$HS_DIR/answers" | wc -l)" -eq 200 ] || hs_fail "not 200 answers"
"$HS_PYTHON" - "$HS_DIR/answers" >"$HS_DIR/answers.txt" <<'EOP' ||
import os, re, sys
d, bad, said = sys.argv[1], 0, 0
for f in sorted(os.listdir(d)):
    m = {}
    for line in open(os.path.join(d, f)):
        g = re.match(r'^(\w+)(\{(.*)\})? (\S+)$', line)
        if g and not line.startswith("#"):
            labels = dict(re.findall(r'(\w+)="([^"]*)"', g.group(3) or ""))
            m.setdefault(g.group(1), []).append((labels, float(g.group(4))))
    def one(name, **want):
        rows = [v for l, v in m.get(name, [])
                if all(l.get(k) == x for k, x in want.items())]
        return rows[0] if len(rows) == 1 else None
    total = one("hopsplit_duration_seconds", phase="total")
    late = one("hopsplit_probe_interference_seconds")
    said_here = one("hopsplit_probe_interfered")
    problems = []
    if one("probe_success") != 1:
        problems.append("probe_success is not 1")
    if said_here is None:
        problems.append("no hopsplit_probe_interfered")
    if total is None or total <= 0:
        problems.append("hopsplit_duration_seconds total %r" % total)
    # Past both thresholds (1 ms, and 1 % of probe_duration_seconds, which
    # bounds the sample's total from above): said interfered.
    if (late is not None and late > 0.001 and
            late > 0.01 * one("probe_duration_seconds") and
            not (said_here or 0) >= 1):
        problems.append("interference %r not said" % late)
    if problems:
        bad += 1
        print("%s: %s" % (f, "; ".join(problems)))
    elif said_here >= 1:
        said += 1
print("said interfered: %d" % said)
sys.exit(1 if bad else 0)
EOP
  { cat "$HS_DIR/answers.txt" >&2; hs_fail "answers under load"; }
interfered=$(sed -n 's/^said interfered: //p' "$HS_DIR/answers.txt")
hs_log "200 probes at once: $interfered said interfered, each with its durations"
hs_pass
