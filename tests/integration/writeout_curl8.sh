#!/bin/sh
# writeout_curl8: every -w variable of curl 8.14 (docs/cmdline-opts/
# write-out.md) is accepted, or refused saying why it cannot apply, and a
# near miss gets "did you mean".  Ground truth: curl's own -w for the same
# request to nginx (a POST with a body and a Referer, so size_request,
# size_upload, referer, %header{name}, num_headers and header_json have
# values); values that differ by nature (ports, times, Date) are compared
# by kind.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init writeout_curl8
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
B="https://origin.test:$HTTPS_PORT"
T="--resolve origin.test:$HTTPS_PORT:127.0.0.1 --cacert $CA_FILE"
REQ="-d hello=world -H Referer:https://ref.test/page -A writeout-test/1"

# The same variables, the same request: curl's line and hopsplit's.
W='%{size_request}|%{size_upload}|%header{content-type}|%header{X-None}|%{num_headers}|%{local_ip}|%{http_connect}|%{proxy_ssl_verify_result}|%{size_download}|%{http_code}\n'
# shellcheck disable=SC2086
hs_origin_curl -o /dev/null $REQ -w "$W" "$B/echo" >"$HS_DIR/curl.w" ||
  hs_fail "curl failed"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold $REQ -w "$W" $T "$B/echo"
diff -u "$HS_DIR/curl.w" "$HS_OUT" >&2 ||
  hs_fail "-w differs from curl's for the curl 8 variables"
grep -q '^[1-9][0-9]*|11|text/plain||[1-9]' "$HS_OUT" ||
  hs_fail "the values are not what the request sent and nginx answered"
# referer: the Referer the request sent (curl gives only -e's, which
# hopsplit does not have: it prints "" for this request).
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold $REQ -w '[%{referer}]\n' $T "$B/echo"
grep -qx '\[https://ref.test/page\]' "$HS_OUT" || hs_fail "referer"

# header_json: the same names, in the same order, the same values but
# Date's; speed_download a positive integer as curl's.
# shellcheck disable=SC2086
hs_origin_curl -o /dev/null $REQ -w '%{header_json}' "$B/echo" \
  >"$HS_DIR/curl.hj" || hs_fail "curl failed"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold $REQ -w '%{header_json}' $T "$B/echo"
"$HS_PYTHON" - "$HS_DIR/curl.hj" "$HS_OUT" <<'EOP' || hs_fail "header_json"
import json, sys
c, h = (json.load(open(f)) for f in sys.argv[1:])
assert list(c) == list(h), (list(c), list(h))
for k in c:
    if k != "date":
        assert c[k] == h[k], (k, c[k], h[k])
EOP
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold -w '%{speed_download} %{speed_upload} %{size_download} %{time_total}\n' $T "$B/ok"
"$HS_PYTHON" - "$HS_OUT" <<'EOP' || hs_fail "speed_download"
import sys
sd, su, size, t = open(sys.argv[1]).read().split()
assert sd.isdigit() and su == "0" and int(size) == 3, (sd, su, size)
# bytes over the transfer's time: at least the size over the sample's total
assert int(sd) >= int(int(size) / float(t)) - 1, (sd, size, t)
EOP
# onerror: the rest only for a failed sample.
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold -w 'a%{onerror}b\n' $T "$B/ok"
[ "$(cat "$HS_OUT")" = a ] || hs_fail "onerror printed the rest of a success"
DEAD=$(hs_free_port) || hs_fail "no free port"
hs_run 3 -n 1 --mode cold -w 'a%{onerror}b %{exitcode}\n' \
  "http://127.0.0.1:$DEAD/"
grep -qx 'ab 3' "$HS_OUT" || hs_fail "onerror: not 'ab 3' after a failure"

# Refused, saying why; near misses get the name.
hs_run 2 -w '%{filename_effective}' "$B/ok"
hs_grep_err "'%\{filename_effective\}' cannot apply to hopsplit: hopsplit writes no body to a file"
hs_run 2 -w '%{ftp_entry_path}' "$B/ok"
hs_grep_err "cannot apply to hopsplit: hopsplit measures HTTP and HTTPS only"
hs_run 2 -w '%{ssl_verify_result}' "$B/ok"
hs_grep_err "keeps no OpenSSL verify result"
hs_run 2 -w '%output{x.txt}' "$B/ok"
hs_grep_err "'%output\{...\}' cannot apply to hopsplit"
hs_run 2 -w '%{speed_downlod}' "$B/ok"
hs_grep_err "did you mean '%\{speed_download\}'"
hs_run 2 -w '%{header{date}}' "$B/ok"
hs_grep_err "did you mean '%header\{date\}'"
hs_run 2 -w '%{header_jsn}' "$B/ok"
hs_grep_err "did you mean '%\{header_json\}'"
hs_pass
