#!/bin/sh
# junit: a profile's checks as JUnit XML (-o FILE.junit.xml, --format
# junit) for CI readers: well-formed (xmllint), read back by junitparser
# (the reader of CI publishers) with a suite per profile and target, a
# case per check, a failure that carries the measured value and the
# budget; the values agree with the JSON of the same run, and the samples
# case fails as nginx's log says the samples did (-f, status 500).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init junit
hs_require nginx openssl python3 curl timeout xmllint
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import junitparser' 2>/dev/null ||
  hs_lack "python3-junitparser missing" || hs_skip "no junitparser"
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
P=$HS_DIR/p
mkdir -p "$P"
cat >"$P/budget.yaml" <<EOF2
name: budget
rounds: 2
modes: [cold]
defaults:
  cacert: $CA_FILE
  resolve: ["origin.test:$HTTPS_PORT:127.0.0.1"]
targets:
  - name: api
    url: $B/ok
  - name: broken
    url: $B/status/500
    fail: true
checks:
  - {target: api, metric: total.p50, max: 1us}
  - {target: api, metric: total.max, max: 60s}
  - {target: api, status: 2xx}
  - {target: broken, status: 2xx}
EOF2
hs_nginx_log_clear
hs_run 1 run -o "$HS_DIR/r.junit.xml" -o "$HS_DIR/r.json" "$P/budget.yaml"
hs_logged 2 "^$HTTPS_PORT GET /status/500 "
xmllint --noout "$HS_DIR/r.junit.xml" || hs_fail "not well-formed XML"
/usr/bin/python3 - "$HS_DIR/r.junit.xml" "$HS_DIR/r.json" <<'PY' ||
import json, sys
from junitparser import JUnitXml, Failure, Skipped
x = JUnitXml.fromfile(sys.argv[1])
d = json.load(open(sys.argv[2]))
suites = {s.name: s for s in x}
assert sorted(suites) == ["budget / api", "budget / broken"], sorted(suites)
api = {c.name: c for c in suites["budget / api"]}
assert len(api) == 4, list(api)
assert suites["budget / api"].tests == 4 and suites["budget / api"].failures == 1
p50 = [c for c in d["checks"] if c.get("metric") == "total.p50"][0]
case = [c for n, c in api.items() if n.startswith("total.p50 <= 1 us")][0]
f = [r for r in case.result if isinstance(r, Failure)]
assert f and "budget <= 1 us" in f[0].message, case.result
assert "total.p50 of api (cold) is " in f[0].message, f[0].message
# The measured value is the JSON's, in seconds, as the case's time.
assert abs(case.time - p50["value_us"] / 1e6) < 1e-6, (case.time, p50)
for n, c in api.items():
    if not n.startswith("total.p50"):
        assert not c.result, (n, c.result)
broken = {c.name: c for c in suites["budget / broken"]}
s = broken["every sample measured"]
f = [r for r in s.result if isinstance(r, Failure)]
assert f and f[0].message == "2 of 2 samples failed", s.result
assert "http-status" in f[0].text, f[0].text
st = broken["final status 2xx (all modes)"]
assert [r for r in st.result if isinstance(r, Failure)], st.result
props = {p.name: p.value for p in suites["budget / api"].properties()}
assert props["url"] == d["targets"][0]["url"], props
assert x.failures == 3 and x.tests == 6, (x.failures, x.tests)
PY
  hs_fail "junitparser: the JUnit file does not say what the run measured"

# --format junit on stdout; a passing profile has no failure.
sed 's/max: 1us/max: 60s/; /name: broken/,/fail: true/d; /target: broken/d' \
  "$P/budget.yaml" >"$P/pass.yaml"
hs_run 0 run --format junit "$P/pass.yaml"
xmllint --noout "$HS_OUT" || hs_fail "stdout is not well-formed XML"
grep -q '<failure' "$HS_OUT" && hs_fail "a passing profile has a failure"
grep -q 'tests="4" failures="0"' "$HS_OUT" || hs_fail "wrong counts: $(cat "$HS_OUT")"

# The URL form: the samples cases alone.
hs_run 0 -n 1 --mode cold --format junit --resolve \
  "origin.test:$HTTPS_PORT:127.0.0.1" --cacert "$CA_FILE" "$B/ok"
xmllint --noout "$HS_OUT" || hs_fail "URL form: not well-formed XML"
grep -q '<testcase name="every sample measured"' "$HS_OUT" ||
  hs_fail "URL form: no samples case"

hs_pass
