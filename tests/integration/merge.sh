#!/bin/sh
# merge: two runs of the same two URLs "from two places" (--vantage seoul
# with --client-location KR, --vantage berlin with DE) against the nginx
# origin, merged by hopsplit merge into one document in every format.
# Asserts: targets TARGET@VANTAGE, the vantage points recorded, every
# sample kept, each place's own statistics (p50s equal to those of its own
# document), its own edge distance (the CloudFront ICN mimic is near KR and
# far from DE) and cache verdict, an unpaired comparison like with like:
# each target and mode of berlin against the same target of seoul (marked
# unpaired in JSON, text, HTML and prom; one text table per baseline), the
# formats consistent with the JSON (report_check.py, promtool), hopsplit
# report of the merged document, and bad inputs.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init merge
hs_require nginx openssl python3 curl
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
THUMB="https://127.0.0.1:$HTTPS_PORT/thumb/42.jpg"
OK="https://127.0.0.1:$HTTPS_PORT/ok"
hs_run 0 -q -n 6 --cacert "$CA_FILE" --vantage seoul --client-location KR \
  -o "$HS_DIR/seoul.json" "thumb=$THUMB" "ok=$OK"
hs_run 0 -q -n 6 --cacert "$CA_FILE" --vantage berlin --client-location DE \
  -o "$HS_DIR/berlin.json" "thumb=$THUMB" "ok=$OK"
hs_jcheck --file "$HS_DIR/seoul.json" "d['vantage'] == 'seoul'"

O=$HS_DIR/out
mkdir -p "$O"
hs_run 0 merge -o "$O/r.json" -o "$O/r.ndjson" -o "$O/r.csv" -o "$O/r.har" \
  -o "$O/r.html" -o "$O/r.prom" "$HS_DIR/seoul.json" "$HS_DIR/berlin.json"
cp "$HS_OUT" "$O/r.txt"
hs_jcheck --file "$O/r.json" --shape --closure --all-ok --samples 48 \
  "d['vantage'] == 'seoul, berlin'" \
  "[t['name'] for t in targets] == ['thumb@seoul', 'ok@seoul', 'thumb@berlin', 'ok@berlin']" \
  "[t['vantage'] for t in targets] == ['seoul', 'seoul', 'berlin', 'berlin']" \
  "sorted(set(col(samples, 'target'))) == ['ok@berlin', 'ok@seoul', 'thumb@berlin', 'thumb@seoul']" \
  "len(S(target='thumb@berlin')) == 12" \
  "targets[0]['edge'][0]['pop'] == 'ICN' and targets[2]['edge'][0]['pop'] == 'ICN'" \
  "targets[0]['edge'][0]['distance_km'] < 1000" \
  "targets[2]['edge'][0]['distance_km'] > 5000" \
  "targets[2]['edge'][0]['distant'] == True" \
  "targets[0]['cache'][0]['verdict'] == 'HIT' and targets[2]['cache'][0]['verdict'] == 'HIT'" \
  "len(d['comparison']) == 4" \
  "sorted((c['target'], c['baseline']) for c in d['comparison']) == [('ok@berlin', 'ok@seoul')] * 2 + [('thumb@berlin', 'thumb@seoul')] * 2" \
  "all(c['paired'] is False for c in d['comparison'])" \
  "all('Hodges-Lehmann' in c['method'] for c in d['comparison'])" \
  "all(c['n_baseline'] == 6 and c['n_target'] == 6 and c['n_pairs'] == 36 for c in d['comparison'])" \
  "all(c['ci_low_us'] <= c['median_diff_us'] <= c['ci_high_us'] for c in d['comparison'])" \
  "all(c['verdict'] in ('faster', 'slower', 'no clear difference') for c in d['comparison'])" \
  "sorted(set(c['target'] for c in d['comparison'])) == ['ok@berlin', 'thumb@berlin']"
# Each place keeps its own statistics: the merged summaries equal those of
# the document it came from.
for v in seoul berlin; do
  "$HS_PYTHON" - "$HS_DIR/$v.json" "$O/r.json" "$v" <<'EOF' ||
import json, sys
own = json.load(open(sys.argv[1]))
merged = json.load(open(sys.argv[2]))
v = sys.argv[3]
byname = {t["name"]: t for t in merged["targets"]}
for t in own["targets"]:
    m = byname[t["name"] + "@" + v]
    for mode in ("cold", "warm"):
        for ph in ("total", "tls", "wait"):
            a = t["summary"][mode]["phases"][ph]
            b = m["summary"][mode]["phases"][ph]
            if (a["p50_us"], a["p95_us"], a["n"]) != (b["p50_us"], b["p95_us"], b["n"]):
                sys.exit("%s@%s %s %s: own %s, merged %s" % (t["name"], v, mode, ph, a, b))
    if [c["verdict"] for c in t["cache"]] != [c["verdict"] for c in m["cache"]]:
        sys.exit("%s@%s: cache verdicts differ" % (t["name"], v))
EOF
    hs_fail "the merged document changed the statistics of $v"
done
"$HS_PYTHON" "$HOPSPLIT_SRC/tests/integration/report_check.py" \
  "$HOPSPLIT_SRC/tests/data" "$O" || hs_fail "format checks failed"
grep -q 'unpaired: different places' "$O/r.txt" ||
  hs_fail "the text comparison does not say it is unpaired"
[ "$(grep -c '^comparison against \(thumb\|ok\)@seoul ' "$O/r.txt")" = 2 ] ||
  hs_fail "text: not one comparison table per baseline"
grep -q '^vantage: seoul, berlin$' "$O/r.txt" || hs_fail "text: no vantage"
grep -q 'Mann&ndash;Whitney' "$O/r.html" || hs_fail "html: not unpaired"
grep -q 'paired="false"' "$O/r.prom" || hs_fail "prom: not unpaired"
grep -q 'hopsplit_run_info{vantage="seoul, berlin"} 1' "$O/r.prom" ||
  hs_fail "prom: no vantage"
if hs_want promtool; then
  promtool check metrics <"$O/r.prom" >"$HS_DIR/promtool.out" 2>&1 || {
    cat "$HS_DIR/promtool.out" >&2
    hs_fail "promtool check metrics rejects the merged prom file"
  }
fi
# Re-rendered by hopsplit report, the comparison stays unpaired.
hs_run 0 report --format json "$O/r.json"
hs_jcheck "all(c['paired'] is False for c in d['comparison'])" \
  "[t['vantage'] for t in targets] == ['seoul', 'seoul', 'berlin', 'berlin']" \
  "len(d['comparison']) == 4" "d['vantage'] == 'seoul, berlin'" \
  "all(c['baseline'].split('@')[0] == c['target'].split('@')[0] for c in d['comparison'])"

# Bad inputs.
hs_run 2 merge "$HS_DIR/seoul.json"
hs_grep_err "two or more"
hs_run 2 merge "$HS_DIR/seoul.json" "$O/r.json"
hs_grep_err "merged document already"
printf 'not json' >"$HS_DIR/bad.json"
hs_run 2 merge "$HS_DIR/seoul.json" "$HS_DIR/bad.json"
hs_grep_err "bad.json"
hs_run 4 merge "$HS_DIR/seoul.json" "$HS_DIR/missing.json"
hs_grep_err "cannot read"
hs_run 2 merge --rounds 3 "$HS_DIR/seoul.json" "$HS_DIR/berlin.json"
hs_grep_err "unknown option"
hs_pass
