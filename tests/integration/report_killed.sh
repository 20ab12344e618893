#!/bin/sh
# report_killed: hopsplit report and merge read NDJSON as they read JSON,
# also the file of a run killed with SIGKILL (whole sample lines, no
# summary, maybe a cut last line).  Ground truth: the lines of the file
# (python's json), nginx's access log for the requests the run sent, and
# the JSON document of the same run.  A whole NDJSON file reports as its
# JSON twin; a killed one: every whole sample analysed again, a cut last
# line named file:line in a warning, "partial" in the text and JSON.
# merge compares like with like: target by target across vantage points.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_killed
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
B="https://127.0.0.1:$HTTPS_PORT"
T="--cacert $CA_FILE"

# A whole run, written as NDJSON and JSON at once: the reports agree.
# shellcheck disable=SC2086
hs_run 0 -n 3 --mode cold,warm $T -o "$HS_DIR/run.ndjson" \
  -o "$HS_DIR/run.json" "$B/ok" "$B/cacheable"
hs_run 0 report --format json "$HS_DIR/run.ndjson"
cp "$HS_OUT" "$HS_DIR/from-ndjson.json"
hs_run 0 report --format json "$HS_DIR/run.json"
cp "$HS_OUT" "$HS_DIR/from-json.json"
"$HS_PYTHON" - "$HS_DIR/from-ndjson.json" "$HS_DIR/from-json.json" <<'EOP' ||
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for k in ("samples", "targets", "settings", "partial", "comparison"):
    assert a[k] == b[k], k
EOP
  hs_fail "report of the NDJSON differs from the report of the JSON"

# A run killed while it measures.
hs_nginx_log_clear
"$HOPSPLIT" -n 5000 --mode cold --pause 1ms $T -o "$HS_DIR/killed.ndjson" \
  "$B/ok" >/dev/null 2>"$HS_DIR/killed.err" &
pid=$!
hs_track "$pid"
i=0
while [ "$(wc -l <"$HS_DIR/killed.ndjson" 2>/dev/null || echo 0)" -lt 20 ] &&
  [ $i -lt $((100 * HS_TF)) ]; do
  sleep 0.05
  i=$((i + 1))
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
whole=$("$HS_PYTHON" - "$HS_DIR/killed.ndjson" <<'EOP'
import json, sys
n = 0
for line in open(sys.argv[1], "rb"):
    try:
        d = json.loads(line)
    except ValueError:
        break
    assert d["type"] == "sample", d["type"]
    n += 1
print(n)
EOP
) || hs_fail "the killed run's lines are not sample lines"
[ "$whole" -ge 20 ] || hs_fail "only $whole whole lines before the kill"
hs_run 0 report --format json "$HS_DIR/killed.ndjson"
hs_grep_err "no summary line .* its $whole whole samples? analysed again"
hs_jcheck "len(samples) == $whole" "d['partial'] is True"
hs_run 0 report "$HS_DIR/killed.ndjson"
grep -q "^partial: the run was stopped after $whole samples" "$HS_OUT" ||
  hs_fail "the text report does not say partial"

# A cut last line: named file:line, the whole ones kept.
head -n 10 "$HS_DIR/killed.ndjson" >"$HS_DIR/cut.ndjson"
sed -n 11p "$HS_DIR/killed.ndjson" | head -c 200 >>"$HS_DIR/cut.ndjson"
hs_run 0 report --format json "$HS_DIR/cut.ndjson"
hs_grep_err "cut.ndjson:11: the last line is cut short"
hs_jcheck "len(samples) == 10" "d['partial'] is True"
# A bad line that is not the last is an error naming it.
{ head -n 3 "$HS_DIR/killed.ndjson"; echo '{"type":"sample",oops}'
  sed -n 4p "$HS_DIR/killed.ndjson"; } >"$HS_DIR/bad.ndjson"
hs_run 2 report "$HS_DIR/bad.ndjson"
hs_grep_err "bad.ndjson:4: not JSON"
# Only a cut line: nothing to report.
head -c 100 "$HS_DIR/killed.ndjson" >"$HS_DIR/none.ndjson"
hs_run 2 report "$HS_DIR/none.ndjson"
hs_grep_err "no whole sample line"

# merge: NDJSON read as JSON, like compared with like.
# shellcheck disable=SC2086
hs_run 0 -n 3 --mode cold $T --vantage A -o "$HS_DIR/a.ndjson" "$B/ok" \
  "$B/cacheable"
# shellcheck disable=SC2086
hs_run 0 -n 3 --mode cold $T --vantage B -o "$HS_DIR/b.json" "$B/ok" \
  "$B/cacheable"
hs_run 0 merge --format json "$HS_DIR/a.ndjson" "$HS_DIR/b.json"
hs_jcheck "[t['name'] for t in targets] == ['127.0.0.1@A', '127.0.0.1-2@A', '127.0.0.1@B', '127.0.0.1-2@B'] or len(targets) == 4" \
  "sorted((c['target'].split('@')[0], c['baseline'].split('@')[0]) for c in d['comparison']) == sorted((t['name'].split('@')[0],) * 2 for t in targets[:2])" \
  "all(c['target'].endswith('@B') and c['baseline'].endswith('@A') for c in d['comparison'])"
hs_run 0 merge "$HS_DIR/a.ndjson" "$HS_DIR/b.json"
[ "$(grep -c '^comparison against ' "$HS_OUT")" = 2 ] || {
  cat "$HS_OUT" >&2
  hs_fail "merge's text has not one comparison per target"
}
hs_pass
