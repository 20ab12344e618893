#!/bin/sh
# curl_flags: curl's options as curl users type them, against nginx and
# real curl.  The final status is data (a 404 is measured, counted in the
# summary and in json/csv/prom; -f/--fail makes it a failed sample of class
# http-status, exit 3); -L is accepted, --max-redirs has no short form;
# -I sends HEAD as curl -I does; -w prints curl's %{variable} values once
# per sample, the same as curl's for the same transfer where they are not
# times, times in curl's order; -s hides warnings and -S brings them back;
# a curl option hopsplit does not take says what to do instead.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init curl_flags
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
T="--resolve $R --cacert $CA_FILE"

# A 404 is a measured sample: exit 0, its status in every output.
# shellcheck disable=SC2086
hs_run 0 -n 2 --format json $T "$B/status/404"
hs_jcheck --all-ok "col(samples, 'status') == [404] * 4" \
  "targets[0]['summary']['cold']['statuses'] == {'404': 2}" \
  "targets[0]['summary']['warm']['statuses'] == {'404': 2}"
# shellcheck disable=SC2086
hs_run 0 -n 2 $T "$B/status/404"
[ "$(grep -c '^    status 404 in 2 of 2 samples (-f fails them)$' "$HS_OUT")" = 2 ] ||
  { hs_show; hs_fail "text: no '404 in 2 of 2' line per mode"; }
# shellcheck disable=SC2086
hs_run 0 -n 2 --format csv $T "$B/status/404"
"$HS_PYTHON" - "$HS_OUT" <<'PY' || hs_fail "csv: final_status is not 404"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["final_status"] == "404" for r in rows), rows
PY
# shellcheck disable=SC2086
hs_run 0 -n 2 --format prom $T "$B/status/404"
grep -q '^hopsplit_final_status_total{target="origin.test",mode="cold",status="404"} 2$' \
  "$HS_OUT" || { hs_show; hs_fail "prom: no final status 404"; }
if hs_want promtool; then
  promtool check metrics <"$HS_OUT" >&2 || hs_fail "promtool rejects the prom"
fi

# -f and --fail: the same samples fail, class http-status, exit 3, and the
# failure is said once for both modes.
for f in -f --fail; do
  # shellcheck disable=SC2086
  hs_run 3 -n 2 --format json $f $T "$B/status/404"
  hs_jcheck "classes() == ['http-status'] * 4" \
    "col(samples, 'status') == [404] * 4" \
    "targets[0]['summary']['cold']['failures'] == {'http-status': 2}"
done
# shellcheck disable=SC2086
hs_run 3 -n 2 -f $T "$B/status/404"
grep -q "^  2 of 2 cold and 2 of 2 warm samples failed: http-status: HTTP 404" \
  "$HS_OUT" || { hs_show; hs_fail "text: the failure is not said once"; }
[ "$(grep -c 'HTTP 404' "$HS_OUT")" = 1 ] ||
  { hs_show; hs_fail "text: the failure is said more than once"; }
# stderr: the one failure line of SPEC 2, with what to do.
[ "$(grep -c . "$HS_ERR")" = 1 ] && hs_grep_err \
  "^hopsplit: \(http-status\) origin\.test: 4 of 4 samples failed \(2 of 2 cold, 2 of 2 warm\): HTTP 404.*; the final status is 400 or more and -f fails such samples" ||
  { hs_show; hs_fail "stderr: not one failure line"; }
# -f with a 200: nothing fails.
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json -f $T "$B/redirect-same"
hs_jcheck --all-ok "col(samples, 'status') == [200]"

# -L is curl's "follow": a flag, not a number; --max-redirs has no short
# form.
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json -L $T "$B/redirect-chain"
hs_jcheck --all-ok "nhops() == [3]"
# shellcheck disable=SC2086
hs_run 3 -n 1 --mode cold --format json --location --max-redirs 1 $T \
  "$B/redirect-chain"
hs_jcheck "classes() == ['redirect']"
# "-L 5", as before -L was curl's: a usage error, not a target "5".
hs_nginx_log_clear
# shellcheck disable=SC2086
hs_run 2 -L 5 $T "$B/ok"
hs_grep_err "option -L takes no value \('5'\): the number of redirects is --max-redirs 5"
hs_nothing_logged "-L 5 still measured"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json --no-follow -L $T "$B/redirect-same"
hs_jcheck "nhops() == [2]"

# -I and --head: what curl -I sends, seen by nginx.
hs_nginx_log_clear
hs_origin_curl -o /dev/null -I "$B/ok"
hs_what_logged "$HS_DIR/curl-head.log"
for f in -I --head; do
  # shellcheck disable=SC2086
  hs_run 0 -n 1 --mode cold --format json $f $T "$B/ok"
  hs_jcheck --all-ok "col(H('cold', 0), 'method') == ['HEAD']" \
    "col(H('cold', 0), 'size_download') == [0]"
  hs_what_logged "$HS_DIR/hs-head.log"
  diff -u "$HS_DIR/curl-head.log" "$HS_DIR/hs-head.log" >&2 ||
    hs_fail "$f sends otherwise than curl -I"
done

# -w: once per sample on stdout (no report there unless --format), the
# values curl prints for the same request, and curl's time order.
W='%{http_code} %{num_redirects} %{url_effective} %{remote_ip} %{remote_port} %{http_version} %{method} %{scheme} %{size_download}\n'
want=$(hs_origin_curl -o /dev/null -L -w "$W" "$B/redirect-same")
[ -n "$want" ] || hs_fail "curl -w printed nothing"
# shellcheck disable=SC2086
hs_run 0 -n 3 -w "$W" $T "$B/redirect-same"
[ "$(wc -l <"$HS_OUT")" = 6 ] || { hs_show; hs_fail "-w: not 6 lines"; }
[ "$(sort -u "$HS_OUT")" = "$want" ] ||
  { hs_show; hs_fail "-w differs from curl's: $want"; }
T6='%{time_namelookup} %{time_connect} %{time_appconnect} %{time_pretransfer} %{time_starttransfer} %{time_total} %{time_redirect}\n'
# shellcheck disable=SC2086
hs_run 0 -n 3 --mode cold -w "$T6" -o "$HS_DIR/r.json" $T "$B/redirect-same"
hs_origin_curl -o /dev/null -L -w "$T6" "$B/redirect-same" >"$HS_DIR/curl-times"
"$HS_PYTHON" - "$HS_OUT" "$HS_DIR/curl-times" <<'PY' || hs_fail "-w times"
import re, sys
for name in sys.argv[1:]:
    lines = open(name).read().splitlines()
    assert lines, name
    for line in lines:
        v = line.split()
        assert len(v) == 7 and all(re.fullmatch(r"\d+\.\d{6}", x) for x in v), line
        t = [float(x) for x in v]
        # as curl: lookup <= connect <= appconnect <= pretransfer <=
        # starttransfer <= total, and the redirect within the total
        assert t[0] <= t[1] <= t[2] <= t[3] <= t[4] <= t[5], (name, line)
        assert 0 < t[6] < t[5], (name, line)
PY
hs_jcheck --file "$HS_DIR/r.json" --all-ok --samples 3
# -w @FILE: the format from a file, as curl.
printf '%%{http_code} %%{method}\n' >"$HS_DIR/w.txt"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold -w "@$HS_DIR/w.txt" $T "$B/ok"
[ "$(cat "$HS_OUT")" = "200 GET" ] || { hs_show; hs_fail "-w @FILE"; }
# %{json} is one JSON object per sample; --format brings the report back.
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold -w '%{json}\n' $T "$B/ok"
"$HS_PYTHON" -c 'import json,sys; d=json.loads(open(sys.argv[1]).read()); assert d["http_code"] == 200 and d["url_effective"].endswith("/ok"), d' \
  "$HS_OUT" || hs_fail "%{json} is not curl's"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold -w 'code=%{http_code}\n' --format text $T "$B/ok"
grep -q '^code=200$' "$HS_OUT" && grep -q '^origin.test ' "$HS_OUT" ||
  { hs_show; hs_fail "-w with --format: lines and report"; }
hs_nginx_log_clear
# shellcheck disable=SC2086
hs_run 2 -w '%{time_totl}' $T "$B/ok"
hs_grep_err "unknown variable '%\{time_totl\}' \(did you mean '%\{time_total\}'\?\)"
hs_nothing_logged "a refused -w still measured"

# -s hides warnings, -S brings them back (an unused --resolve warns).
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json --resolve other.test:1:127.0.0.1 \
  $T "$B/ok"
hs_grep_err "--resolve 'other\.test:1:127\.0\.0\.1' matches no target"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json -s --resolve other.test:1:127.0.0.1 \
  $T "$B/ok"
[ ! -s "$HS_ERR" ] || { hs_show; hs_fail "-s did not silence the warning"; }
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json -sS \
  --resolve other.test:1:127.0.0.1 $T "$B/ok"
hs_grep_err "matches no target"

# curl's options that hopsplit does not take: what to do instead; nothing
# is measured.
hs_nginx_log_clear
hs_run 2 -u user:pw "$B/ok"
hs_grep_err "curl's option '-u' is not hopsplit's: .*-H 'Authorization"
hs_run 2 --http1 "$B/ok"
hs_grep_err "did you mean --http1\.1"
hs_run 2 -x http://127.0.0.1:1/ "$B/ok"
hs_grep_err "never uses a proxy"
hs_run 2 -O "$B/ok"
hs_grep_err "bodies are counted, never stored"
hs_nothing_logged "a refused option still measured"

hs_pass
