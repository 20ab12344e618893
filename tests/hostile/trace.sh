#!/bin/sh
# trace: hostile /cdn-cgi/trace bodies on hosts that send cf-ray (issue 8,
# SPEC 4.2, 7).  The run always succeeds (exit 0): the trace is reported
# as unavailable and the client stays unknown, while the edge still comes
# from the cf-ray header:
#   10 MB read until close         traces[].error "larger than 16 KiB"
#   10 MB with Content-Length      the same, refused before reading it
#   binary bytes around colo=/loc= not used: client unknown
#   never answers                  traces[].error names the timeout,
#                                  bounded by -m
# and the control case, a valid trace, gives the client country KR.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init trace
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
P=$HOSTILE_PORT

# trace_run HOST ARGS...: one cold sample of http://HOST:P/ with the trace.
trace_run() {
  tr_h=$1
  shift
  hs_run 0 -n 1 --mode cold --format json --trace always -m 3s \
    --resolve "$tr_h:$P:127.0.0.1" "$@" "http://$tr_h:$P/"
  hs_jcheck --shape --closure --all-ok \
    "[e['vendor'] for e in targets[0]['edge']] == ['cloudflare']" \
    "[e['pop'] for e in targets[0]['edge']] == ['HKG']" \
    "len(d['traces']) == 1"
}

trace_run goodtrace.test
hs_jcheck "d['traces'][0]['error'] is None" "d['client']['country'] == 'KR'"
for h in huge.test hugecl.test; do
  trace_run "$h"
  hs_jcheck "'16 KiB' in d['traces'][0]['error']" \
    "d['client']['country'] is None"
  hs_elapsed_below 15000
done
trace_run binary.test
hs_jcheck "d['client']['country'] is None" \
  "d['traces'][0]['error'] is not None or not d['traces'][0]['body']"
trace_run slowtrace.test
hs_jcheck "re.search('time', d['traces'][0]['error'], re.I) is not None" \
  "d['client']['country'] is None"
hs_elapsed_below 15000
# The text report of a run with a broken trace is still complete.
hs_run 0 -n 1 --mode cold --trace always -m 3s \
  --resolve "huge.test:$P:127.0.0.1" "http://huge.test:$P/"
grep -q HKG "$HS_OUT" || { hs_show; hs_fail "text report lost the POP"; }
hs_pass
