#!/bin/sh
# profile_status: the profile check 'status:' (a code, a class, a list; in
# one mode or every mode) decides from every sample's final status, exit 1
# when it fails; the JSON keeps the check and 'hopsplit report' decides it
# again; bad values name file:line:column; body options work per target.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init profile_status
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
P=$HS_DIR/p
mkdir -p "$P"
cat >"$P/ok.yaml" <<EOF2
name: statuses
rounds: 2
defaults:
  cacert: $CA_FILE
  resolve: ["origin.test:$HTTPS_PORT:127.0.0.1"]
targets:
  - name: ok
    url: $B/ok
  - name: gone
    url: $B/status/404
  - name: post
    url: $B/post-307
    json: '{"q": 1}'
checks:
  - {target: ok, status: 2xx}
  - {target: gone, status: [404, 410], mode: warm}
  - {target: gone, status: 404}
  - {target: post, status: 200}
EOF2
hs_nginx_log_clear
hs_run 0 run --format json "$P/ok.yaml"
hs_jcheck "[c['pass'] for c in d['checks']] == [True] * 4" \
  "[c['kind'] for c in d['checks']] == ['status'] * 4" \
  "d['checks'][0]['statuses'] == ['2xx'] and d['checks'][0]['mode'] is None" \
  "d['checks'][1]['statuses'] == ['404', '410'] and d['checks'][1]['mode'] == 'warm'"
# The post target's --json went to both hops (307 keeps the body).
hs_logged 5 "^$HTTPS_PORT POST /echo .* ct=\[application/json\] .* body=\[\{\\\\x22q\\\\x22: 1\}\]"

sed 's/status: 2xx/status: 5xx/' "$P/ok.yaml" >"$P/fail.yaml"
hs_run 1 run --format json -o "$HS_DIR/fail.json" "$P/fail.yaml"
hs_jcheck "[c['pass'] for c in d['checks']] == [False, True, True, True]" \
  "d['checks'][0]['measured'] == '200 x2 (cold), 200 x2 (warm)'"
hs_run 1 run "$P/fail.yaml"
grep -q "^  FAIL  ok           all   final status 5xx" "$HS_OUT" ||
  { hs_show; hs_fail "no FAIL line for the status check"; }
# Saved results: the check is decided again from the samples.
hs_run 0 report --format json "$HS_DIR/fail.json"
hs_jcheck "[c['pass'] for c in d['checks']] == [False, True, True, True]"
# Every format names the status check's mode ("all"), none prints "(null)"
# (the HTML checks table did).
for fmt in text html prom junit csv json ndjson har; do
  hs_run 0 report --format "$fmt" "$HS_DIR/fail.json"
  if grep -qF '(null)' "$HS_OUT"; then
    grep -nF '(null)' "$HS_OUT" >&2
    hs_fail "report --format $fmt prints (null)"
  fi
done
hs_run 0 report --format html "$HS_DIR/fail.json"
grep -q '<td class="l">ok</td><td class="l">all</td><td class="l">final status 5xx' "$HS_OUT" || {
  grep -n 'final status' "$HS_OUT" >&2
  hs_fail "html: the status check's mode is not 'all'"
}

# Bad values: where, and what was expected.
sed 's/status: 2xx/status: 2xxx/' "$P/ok.yaml" >"$P/bad.yaml"
hs_run 2 run "$P/bad.yaml"
hs_grep_err "bad\.yaml:15:26: bad status '2xxx' \(expected a code such as 200 or a class such as 2xx\)"
sed 's/status: 2xx/status: {a: 1}/' "$P/ok.yaml" >"$P/bad2.yaml"
hs_run 2 run "$P/bad2.yaml"
hs_grep_err "bad2\.yaml:15:26: 'status' takes a code \(200\), a class \(2xx\) or a list"
hs_run 0 run --dry-run "$P/ok.yaml"
grep -q '^  ok           all   final status 2xx' "$HS_OUT" ||
  { hs_show; hs_fail "--dry-run does not list the status check"; }
hs_pass
