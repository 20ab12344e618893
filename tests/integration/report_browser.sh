#!/bin/sh
# report_browser: the HTML report measured in Debian's headless Chromium
# as a person would see it in a 1000 x 800 px window (issue 15, SPEC 5
# html): tests/browser/measure.js (playwright-core driving
# /usr/bin/chromium, network off) checks that nothing is fetched, nothing
# is wider than the window, the summary is above the fold and names every
# target with its total, top finding and comparison verdict, the
# comparison is a chart, no raw machine names (snake_case keys, "_us")
# are visible, and a profile run shows its name and every check as PASS
# or FAIL with what was measured.
#
# Three reports: the saved three-target comparison
# (tests/data/golden/run.json), a live single-URL run with a redirect,
# and a live profile run with checks.  The screenshots are kept in
# $HOPSPLIT_BUILD/tests/screenshots/ (NAME-first.png is the first
# screen, NAME-full.png the whole page) to be looked at.
#
# Needs node, chromium and playwright-core, which scripts/test installs
# into $HOPSPLIT_BUILD/node (npm ci of tests/browser/package-lock.json);
# skips without them unless HOPSPLIT_TEST_REQUIRE is set.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_browser
hs_require node python3 timeout nginx dnsmasq openssl curl
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || hs_require chromium
export CHROMIUM
NODE_PATH=$HOPSPLIT_BUILD/node/node_modules${NODE_PATH:+:$NODE_PATH}
export NODE_PATH
if ! node -e "require('playwright-core')" >/dev/null 2>&1; then
  [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ] &&
    hs_fail "playwright-core missing in $HOPSPLIT_BUILD/node (scripts/test installs it)"
  hs_skip "playwright-core missing in $HOPSPLIT_BUILD/node (scripts/test installs it)"
fi
SHOTS=$HOPSPLIT_BUILD/tests/screenshots
mkdir -p "$SHOTS"
bad=0

# measure NAME RUN.json: render RUN.json as HTML with `hopsplit report`,
# derive what the page must show from the JSON, and measure the page.
# The expectations come from the document as `hopsplit report` analyses
# it again (findings are recomputed, not copied from the file).
measure() {
  hs_run 0 report -o "$HS_DIR/$1.html" --format json "$2"
  cp "$HS_OUT" "$HS_DIR/$1.again.json"
  "$HS_PYTHON" - "$HS_DIR/$1.again.json" >"$HS_DIR/$1.expect.json" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
e = {"targets": [t["name"] for t in d["targets"]], "verdicts": {},
     "findings": {}, "profile": (d.get("profile") or {}).get("name"),
     "checks": len(d.get("checks") or [])}
for c in d.get("comparison", []):
    # Without a pair (a side failed in every round) there is no verdict.
    e["verdicts"][c["target"]] = (c["verdict"] if c["n_pairs"]
                                  else "not compared")
for t in d["targets"]:
    if t.get("findings"):
        e["findings"][t["name"]] = t["findings"][0]["title"]
json.dump(e, sys.stdout)
PY
    hs_fail "cannot read $2"
  if timeout -k 5 120 node "$HOPSPLIT_SRC/tests/browser/measure.js" \
    "$HS_DIR/$1.html" "$HS_DIR/$1.expect.json" "$SHOTS/$1" \
    >"$HS_DIR/$1.measure" 2>&1; then
    hs_log "$1: ok ($SHOTS/$1-first.png, $SHOTS/$1-full.png)"
  else
    hs_log "$1: the page fails its measurements:"
    sed 's/^/  /' "$HS_DIR/$1.measure" >&2
    bad=1
  fi
}

measure golden "$HOPSPLIT_SRC/tests/data/golden/run.json"

hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
B="https://origin.test:$HTTPS_PORT"
hs_run 0 -n 5 --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" \
  -o "$HS_DIR/single.json" "$B/redirect-same"
measure single "$HS_DIR/single.json"

cat >"$HS_DIR/p.yaml" <<EOF
name: shop-front
rounds: 3
modes: [cold, warm]
defaults:
  cacert: $CA_FILE
  dns-server: 127.0.0.1:$DNS_PORT
targets:
  - name: base
    url: $B/files/42.jpg
  - name: direct
    url: https://other.test:$OTHER_PORT/b/42.jpg
checks:
  - {target: direct, metric: total.p95, mode: cold, max: 30s}
  - {target: base, cache: {not: [BYPASS, UNCACHEABLE]}}
  - {target: direct, compare: base, verdict: [faster, no clear difference]}
outputs:
  - $HS_DIR/profile.json
EOF
# The cache check fails (nginx's mimic bypasses its cache): exit 1.
hs_run 1 run "$HS_DIR/p.yaml"
measure profile "$HS_DIR/profile.json"

[ "$bad" = 0 ] || hs_fail "the HTML report fails in the browser (see above)"
hs_pass
