#!/bin/sh
# interfered_text: a sample left out for interference is said as such,
# never as a failure, and the threshold is relative as well as absolute
# (hopsplit(1) INTERFERENCE; issue 35).  The test hook
# HOPSPLIT_TEST_INTERFERENCE_US=3000 (hopsplit(1) ENVIRONMENT) makes every
# sample's stamps 3 ms late: past 1 ms and 1 % of a loopback /ok request
# (well under a millisecond: interfered), not past 1 % of a request nginx
# spreads over about a second with limit_rate (kept).  From the JSON:
# which samples are flagged, interfered_max_us, the comparison's
# n_left_interfered and no n_left_failed, the settings' threshold; from
# the text: the comparison's "left out: interfered, ... ms late" and never
# "a side failed", the phase table's note; from --brief: the counted and
# left-out counts (and, from a run's document with one sample's run-queue
# delay raised past the threshold, the samples that waited for a CPU,
# kept).  Ground truth for the request durations: nginx's own
# log of each request's time ($request_time).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init interfered_text
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_nginx_slow "$HS_DIR/nginx"
hs_start_nginx "$HS_DIR/nginx"
TLOG=$HS_DIR/nginx/timing.log
FAST="http://127.0.0.1:$HTTP_PORT/ok"
SLOW="http://127.0.0.1:$HTTP_PORT/slow/s"

export HOPSPLIT_TEST_INTERFERENCE_US=3000
: >"$TLOG"
hs_run 0 -n 2 --mode warm --format json slow="$SLOW" fast="$FAST"
hs_jcheck --shape --closure --all-ok \
  "d['settings']['interference_max_us'] == 1000" \
  "d['settings']['interference_max_pct'] == 1" \
  "all(s['interfered'] for s in samples if s['target'] == 'fast')" \
  "not any(s['interfered'] for s in samples if s['target'] == 'slow')" \
  "all(s['interference_us'] >= 3000 for s in samples)" \
  "T('fast')['summary']['warm']['n_interfered'] == 2" \
  "T('fast')['summary']['warm']['interfered_max_us'] >= 3000" \
  "T('fast')['summary']['warm']['phases']['total']['n'] == 0" \
  "T('slow')['summary']['warm']['n_interfered'] == 0" \
  "T('slow')['summary']['warm']['interfered_max_us'] is None" \
  "T('slow')['summary']['warm']['phases']['total']['n'] == 2" \
  "len(d['comparison']) == 1" \
  "d['comparison'][0]['n_dropped'] == 2" \
  "d['comparison'][0]['n_left_interfered'] == 2" \
  "d['comparison'][0]['n_left_failed'] == 0" \
  "d['comparison'][0]['left_interfered_max_us'] == max(s['interference_us'] for s in samples if s['target'] == 'fast')"
# The slow requests did last long enough for 3 ms to be under 1 %: nginx's
# own request_time of each is at least 0.3 s (the threshold needs 0.3).
hs_nginx_barrier
"$HS_PYTHON" - "$TLOG" "$HTTP_PORT" <<'EOP' || hs_fail "timing log"
import sys
took = [float(t) for end, t, p, uri in (l.split() for l in open(sys.argv[1]))
        if p == sys.argv[2] and uri.startswith("/slow/")]
print("slow requests took", took)
sys.exit(0 if len(took) >= 3 and min(took) >= 0.3 else 1)
EOP

# Text: said as left out for interference, with how late; never a failure.
hs_run 0 -n 2 --mode warm slow="$SLOW" fast="$FAST"
cat "$HS_OUT" >&2
grep -qE '^    2 rounds left out: interfered, up to [0-9]+\.[0-9] ms late$' \
  "$HS_OUT" || {
  hs_show
  hs_fail "the comparison does not say the rounds were left out for interference"
}
! grep -q 'a side failed' "$HS_OUT" || {
  hs_show
  hs_fail "interference said as a failure"
}
grep -qE '2 samples left out: interfered, up to [0-9]+\.[0-9] ms late' \
  "$HS_OUT" || {
  hs_show
  hs_fail "the phase table does not say its samples were left out"
}

# --brief: counted and left-out counts beside the figures, or on the
# line under them (indented) where the row would pass 80 columns.
hs_run 0 -n 2 --mode warm --brief slow="$SLOW" fast="$FAST"
cat "$HS_OUT" >&2
awk '
  /^fast +warm +2 +- +- +-  0 counted, 2 left out: interfered, up to [0-9]+\.[0-9] ms late(,|$)/ { ok = 1 }
  row && /^  0 counted, 2 left out: interfered, up to [0-9]+\.[0-9] ms late(,|$)/ { ok = 1 }
  { row = ($0 ~ /^fast +warm +2 +- +- +-$/) }
  length($0) > 80 { wide = 1 }
  END { exit !(ok && !wide) }
' "$HS_OUT" || {
  hs_show
  hs_fail "--brief does not show the counted and left-out samples"
}
grep -E '^slow ' "$HS_OUT" | grep -qv 'left out' || {
  hs_show
  hs_fail "--brief says the slow target's samples were left out"
}

# --keep-interfered: kept, said as kept.
hs_run 0 -n 2 --mode warm --brief --keep-interfered slow="$SLOW" fast="$FAST"
awk '
  /^fast +warm +2 .*2 interfered \(kept\), up to [0-9]+\.[0-9] ms late(,|$)/ { ok = 1 }
  row && /^  2 interfered \(kept\), up to [0-9]+\.[0-9] ms late(,|$)/ { ok = 1 }
  { row = ($0 ~ /^fast +warm +2 /) }
  length($0) > 80 { wide = 1 }
  END { exit !(ok && !wide) }
' "$HS_OUT" || {
  hs_show
  hs_fail "--brief --keep-interfered does not say the samples were kept"
}

# --brief: the samples that waited for a CPU, said beside the counts and
# kept.  A real run's document, one sample's interference_runq_us raised
# to 5 s (past 1 ms and 1 % of any loopback request).
unset HOPSPLIT_TEST_INTERFERENCE_US
hs_run 0 -n 3 --mode warm --format json fast="$FAST"
"$HS_PYTHON" - "$HS_OUT" "$HS_DIR/cpu.json" <<'EOP' || hs_fail "edit"
import json, sys
d = json.load(open(sys.argv[1]))
d["samples"][1]["interference_runq_us"] = 5000000
json.dump(d, open(sys.argv[2], "w"))
EOP
hs_run 0 report --brief "$HS_DIR/cpu.json"
cat "$HS_OUT" >&2
awk '
  /^fast +warm +3 .*[0-9]+ waited for a CPU, (up to )?5000\.0 ms \(kept\)$/ { ok = 1 }
  row && /^  ([^ ].*, )?[0-9]+ waited for a CPU, (up to )?5000\.0 ms \(kept\)$/ { ok = 1 }
  { row = ($0 ~ /^fast +warm +3 /) }
  length($0) > 80 { wide = 1 }
  END { exit !(ok && !wide) }
' "$HS_OUT" || {
  hs_show
  hs_fail "--brief does not say the sample that waited for a CPU"
}
hs_pass
