#!/bin/sh
# report_formats: one run with -o r.json -o r.ndjson -o r.csv -o r.har
# -o r.html -o r.prom writes six valid files (SPEC 5, issue 6), and
# "hopsplit report" re-renders each of them byte for byte from r.json.
#   json    the hopsplit/1 shape (jcheck.py)
#   ndjson  one "sample" line per sample then one "summary" line, each
#           line equal to the JSON document's sample / rest (python)
#   csv     RFC 4180 (python csv), header row, one row per hop per sample,
#           values equal to the JSON document's
#   har     HAR 1.2 schema (python3-jsonschema, schema in
#           tests/data/har-1.2.schema.json) and node's har-validator;
#           timings per SPEC (-1, connect includes ssl)
#   html    self-contained: no script, no external reference, one svg per
#           chart
#   prom    promtool check metrics (Debian prometheus)
#   summary.csv  one row per target x mode x phase with the JSON summary's
#           statistics, and one per comparison x phase (python)
# The validators are skipped when missing, failures under
# HOPSPLIT_TEST_REQUIRE.
# Streaming: --format ndjson on stdout gives the same lines as the file.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_formats
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
DNS="127.0.0.1:$DNS_PORT"
O=$HS_DIR/out
mkdir -p "$O"

hs_run 0 -n 3 --dns-server "$DNS" --cacert "$CA_FILE" --format ndjson \
  -H "Authorization: Bearer s3cret" \
  -o "$O/r.json" -o "$O/r.ndjson" -o "$O/r.csv" -o "$O/r.har" \
  -o "$O/r.html" -o "$O/r.prom" -o "$O/r.txt" -o "$O/r.summary.csv" \
  base="$B/redirect-same?token=abc&x=1" other="$B/cacheable"
for f in json ndjson csv har html prom txt summary.csv; do
  [ -s "$O/r.$f" ] || hs_fail "r.$f missing or empty"
done
cmp -s "$HS_OUT" "$O/r.ndjson" ||
  hs_fail "ndjson on stdout differs from the -o file"
if grep -rq 's3cret\|token=abc' "$O"; then
  grep -rl 's3cret\|token=abc' "$O" >&2
  hs_fail "a secret was not redacted"
fi
hs_jcheck --file "$O/r.json" --shape --closure --all-ok --samples 12

"$HS_PYTHON" "$HOPSPLIT_SRC/tests/integration/report_check.py" \
  "$HOPSPLIT_SRC/tests/data" "$O" || hs_fail "format checks failed"

# har-validator (Debian node-har-validator) and promtool (prometheus):
# skipped without them, failures under HOPSPLIT_TEST_REQUIRE.
if hs_want node; then
  if NODE_PATH=/usr/share/nodejs node -e "require('har-validator')" \
    >/dev/null 2>&1 ||
    hs_lack "node cannot load har-validator (Debian node-har-validator)"; then
    NODE_PATH=/usr/share/nodejs node -e "
const v = require('har-validator');
v.har(JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')))
  .then(() => process.exit(0))
  .catch((e) => { console.error(e.errors || e); process.exit(1); });
" "$O/r.har" || hs_fail "har-validator rejects r.har"
  fi
fi

if hs_want promtool; then
  promtool check metrics <"$O/r.prom" >"$HS_DIR/promtool.out" 2>&1 || {
    cat "$HS_DIR/promtool.out" >&2
    hs_fail "promtool check metrics rejects r.prom"
  }
fi

# hopsplit report: every format again from r.json, byte for byte, to
# stdout and to -o files; no network (nginx is stopped first).
hs_cleanup
for f in json ndjson csv har html prom; do
  hs_run 0 report --format "$f" "$O/r.json"
  cmp "$HS_OUT" "$O/r.$f" >&2 || {
    diff "$HS_OUT" "$O/r.$f" | head -20 >&2
    hs_fail "hopsplit report --format $f differs from what the run wrote"
  }
done
hs_run 0 report -o "$HS_DIR/again.csv" -o "$HS_DIR/again.txt" "$O/r.json"
cmp "$HS_DIR/again.csv" "$O/r.csv" >&2 || hs_fail "report -o x.csv differs"
cmp "$HS_DIR/again.txt" "$O/r.txt" >&2 || hs_fail "report -o x.txt differs"
cmp "$HS_OUT" "$O/r.txt" >&2 || hs_fail "report (text) differs"

# -o with a name that is not a report's (SPEC 2): exit 2 and nothing
# written, unless --format says which report goes there.
hs_run 2 report -o "$HS_DIR/photo.jpg" -o "$HS_DIR/ok.csv" "$O/r.json"
hs_empty_out
hs_grep_err "option -o: '$HS_DIR/photo.jpg' has the extension '.jpg', not a report's"
hs_grep_err "never the response body \\(bodies are counted, never stored\\)"
[ ! -e "$HS_DIR/photo.jpg" ] && [ ! -e "$HS_DIR/ok.csv" ] ||
  hs_fail "a refused -o wrote a file"
hs_run 0 report --format csv -o "$HS_DIR/photo.jpg" "$O/r.json"
cmp "$HS_DIR/photo.jpg" "$O/r.csv" >&2 || hs_fail "--format csv -o x.jpg"
hs_run 0 report --format csv -o /dev/null "$O/r.json"
hs_run 0 report -o /dev/null "$O/r.json"

# Errors: no file, a missing file, not JSON, JSON of another kind, an
# option of measuring.
hs_run 2 report
hs_run 4 report "$HS_DIR/nope.json"
hs_grep_err "nope.json"
printf 'not json\n' >"$HS_DIR/bad.json"
hs_run 2 report "$HS_DIR/bad.json"
hs_grep_err "bad.json.*not JSON"
printf '{"schema":"other"}\n' >"$HS_DIR/other.json"
hs_run 2 report "$HS_DIR/other.json"
hs_grep_err "hopsplit/1"
hs_run 2 report -n 3 "$O/r.json"
hs_run 0 report --help
hs_pass
