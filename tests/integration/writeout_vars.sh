#!/bin/sh
# writeout_vars: the -w variables hopsplit took from curl after the first
# set (content_type, urlnum, local_port), against real curl and nginx.
# Ground truth: curl's own -w for the same URLs (content_type of the last
# response, urlnum the URL's index on the command line, curl's values for
# a connection that was refused), and nginx's $remote_port in its access
# log for local_port, which differs per connection (the method is checked
# with curl's local_port first).  curl 8's variables (certs, num_certs,
# conn_id, xfer_id, time_posttransfer, ...) against curl 8's -w.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init writeout_vars
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
T="--resolve $R --cacert $CA_FILE"

# content_type and urlnum: the lines curl prints for three URLs (a
# followed redirect, a 404, a 200 with its own headers), once per sample.
W='%{urlnum} %{http_code} [%{content_type}] %{url_effective}\n'
hs_origin_curl -L -o /dev/null -o /dev/null -o /dev/null -w "$W" \
  "$B/redirect-same" \
  "$B/status/404" "$B/cacheable" | sort >"$HS_DIR/curl.w"
[ "$(wc -l <"$HS_DIR/curl.w")" = 3 ] || hs_fail "curl -w: not 3 lines"
grep -q '^0 200 \[text/plain\] ' "$HS_DIR/curl.w" ||
  hs_fail "curl's content_type after the redirect is not text/plain"
# shellcheck disable=SC2086
hs_run 0 -n 2 --mode cold,warm -w "$W" $T "$B/redirect-same" "$B/status/404" \
  "$B/cacheable"
[ "$(wc -l <"$HS_OUT")" = 12 ] || { hs_show; hs_fail "-w: not 12 lines"; }
sort -u "$HS_OUT" | diff -u "$HS_DIR/curl.w" - >&2 ||
  hs_fail "-w content_type/urlnum differ from curl's"
# %{json} has them too, as curl's %{json}.
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold -w '%{json}\n' $T "$B/ok"
hs_origin_curl -o /dev/null -w '%{json}\n' "$B/ok" >"$HS_DIR/curl.json"
"$HS_PYTHON" - "$HS_OUT" "$HS_DIR/curl.json" <<'PY' || hs_fail "%{json}"
import json, sys
hs, curl = (json.loads(open(f).read()) for f in sys.argv[1:])
for k in ("content_type", "urlnum"):
    assert hs[k] == curl[k], (k, hs[k], curl[k])
assert isinstance(hs["local_port"], int) and 0 < hs["local_port"] < 65536, hs
PY

# curl 8's variables, against curl 8 on the same URL (one hop, a new
# connection): the certificate chain byte for byte, libcurl's connection
# and transfer ids, no retries, no proxy, no early data; and the stamps in
# order (pretransfer <= posttransfer <= starttransfer).  With a libcurl
# older than 8.10 hopsplit has no time_posttransfer (empty, never faked).
W8='%{num_certs} %{conn_id} %{xfer_id} %{num_retries} %{proxy_used} %{tls_earlydata}\n'
if curl -q -s --max-time 5 -o /dev/null -w '%{time_posttransfer}' \
  "http://127.0.0.1:$HTTP_PORT/ok" 2>/dev/null | grep -q '^[0-9]'; then
  hs_origin_curl -o /dev/null -w "$W8" "$B/ok" >"$HS_DIR/curl8.w"
  # shellcheck disable=SC2086
  hs_run 0 -n 2 --mode cold -w "$W8" $T "$B/ok"
  sort -u "$HS_OUT" | diff -u "$HS_DIR/curl8.w" - >&2 ||
    hs_fail "-w of curl 8's variables differs from curl's"
  hs_origin_curl -o /dev/null -w '%{certs}' "$B/ok" >"$HS_DIR/curl.certs"
  grep -q 'BEGIN CERTIFICATE' "$HS_DIR/curl.certs" ||
    hs_fail "curl's %{certs} has no certificate"
  # shellcheck disable=SC2086
  hs_run 0 -n 1 --mode cold -w '%{certs}' $T "$B/ok"
  cmp -s "$HS_DIR/curl.certs" "$HS_OUT" || {
    diff -u "$HS_DIR/curl.certs" "$HS_OUT" >&2
    hs_fail "%{certs} differs from curl's"
  }
  W9='%{time_pretransfer} %{time_posttransfer} %{time_starttransfer}\n'
  hs_origin_curl -o /dev/null -w "$W9" "$B/ok" >"$HS_DIR/curl9.w"
  # shellcheck disable=SC2086
  hs_run 0 -n 2 --mode cold,warm -w "$W9" $T "$B/ok" "$B/redirect-same"
  # curl's own stamps can have posttransfer after starttransfer (HTTP/2:
  # libcurl ends its send state after the response began): present is
  # all that holds there; hopsplit's are in order.
  read -r pre post start <"$HS_DIR/curl9.w"
  awk -v b="$post" 'BEGIN { exit !(b + 0 > 0) }' ||
    hs_fail "curl's time_posttransfer is not positive: $post"
  # (On a reused connection whose send libcurl could not time, send is
  # counted in wait and posttransfer equals pretransfer, 0 there.)
  while read -r pre post start; do
    awk -v a="$pre" -v b="$post" -v c="$start" \
      'BEGIN { exit !(a + 0 <= b + 0 && b + 0 <= c + 0 && c + 0 > 0) }' ||
      hs_fail "time_posttransfer out of order: $pre $post $start"
  done <"$HS_OUT"
else
  # shellcheck disable=SC2086
  hs_run 0 -n 1 --mode cold -w '[%{time_posttransfer}]\n' $T "$B/ok"
  [ "$(cat "$HS_OUT")" = "[]" ] ||
    { hs_show; hs_fail "time_posttransfer without libcurl 8.10 is not empty"; }
fi

# curl 8.1's url.* and urle.*: every part of the target's URL and of the
# last hop's, against curl -L on the same URLs (a redirect, so the two
# differ; a query and a fragment; the default port of a URL without one).
if [ "$(curl -q -s -o /dev/null -w '%{url.scheme}' "http://127.0.0.1:$HTTP_PORT/ok" 2>/dev/null)" = http ]; then
  WU=''
  for part in scheme user password options host port path query fragment zoneid; do
    WU="${WU}[%{url.$part}][%{urle.$part}]"
  done
  WU="$WU\n"
  for u in "$B/redirect-same?x=1#frag" "$B/ok" "http://origin.test:$HTTP_PORT/ok?a=%41"; do
    case $u in
    http://origin.test:*) opts="--resolve origin.test:$HTTP_PORT:127.0.0.1" ;;
    *) opts="" ;;
    esac
    # shellcheck disable=SC2086
    hs_origin_curl -L $opts -o /dev/null -w "$WU" "$u" >"$HS_DIR/curl.u" || true
    [ -s "$HS_DIR/curl.u" ] || hs_fail "curl -w url.* printed nothing for $u"
    # shellcheck disable=SC2086
    hs_run 0 -n 1 --mode cold -w "$WU" $T $opts "$u"
    diff -u "$HS_DIR/curl.u" "$HS_OUT" >&2 ||
      hs_fail "-w url.*/urle.* of $u differ from curl's"
    [ -f "$HS_DIR/curl.u1" ] || cp "$HS_DIR/curl.u" "$HS_DIR/curl.u1"
  done
  grep -q '^\[https\]\[https\].*\[/redirect-same\]\[/ok\]' "$HS_DIR/curl.u1" ||
    hs_fail "curl's url.path/urle.path of the redirect are not its hops'"
fi

# A refused connection: what curl prints when nothing answered.
P=$(hs_free_port)
W0='[%{content_type}] %{local_port} %{http_code} %{urlnum}\n'
want=$(curl -q -s --max-time 5 --noproxy '*' -o /dev/null -w "$W0" \
  "http://127.0.0.1:$P/" || true)
# curl 7.88 printed local_port 0 there, curl 8 prints -1.
case $want in
"[] 0 000 0" | "[] -1 000 0") ;;
*) hs_fail "curl to a closed port printed '$want'" ;;
esac
hs_run 3 -n 1 --mode cold -w "$W0" "http://127.0.0.1:$P/"
[ "$(cat "$HS_OUT")" = "$want" ] ||
  { hs_show; hs_fail "-w for a refused connection is not curl's '$want'"; }

# local_port: nginx logs the client's port as rp= once reloaded (SIGHUP to
# the master this test started).
# shellcheck disable=SC2016
sed -i 's/ body=\[\$request_body\]/ body=[$request_body] rp=$remote_port/' \
  "$HS_DIR/nginx/nginx.conf"
# shellcheck disable=SC2016
grep -q 'rp=\$remote_port' "$HS_DIR/nginx/nginx.conf" ||
  hs_fail "cannot add \$remote_port to nginx's log format"
kill -HUP "$NGINX_PID" || hs_fail "cannot reload nginx"
i=0
until hs_origin_curl -o /dev/null "$B/ok?reloaded" && sleep 0.2 &&
  grep -q 'GET /ok?reloaded .* rp=[0-9]' "$NGINX_LOG"; do
  [ "$i" -lt 30 ] || hs_fail "nginx did not reload its log format"
  i=$((i + 1))
done
# The method, on curl: its local_port is the rp= of its request.
cp=$(hs_origin_curl -o /dev/null -w '%{local_port}' "$B/ok?curl")
hs_logged 1 "GET /ok\?curl .* rp=$cp\$"
# hopsplit: each sample's local_port is the rp= of its last request (the
# /ok a redirect led to); cold samples each on a new connection.
hs_nginx_log_clear
# shellcheck disable=SC2086
hs_run 0 -n 3 --mode cold,warm -w '%{mode} %{local_port}\n' $T \
  "$B/redirect-same"
hs_nginx_barrier
[ "$(wc -l <"$HS_OUT")" = 6 ] || { hs_show; hs_fail "-w: not 6 lines"; }
while read -r mode port; do
  grep -q "^$HTTPS_PORT GET /ok .*ua=\[hopsplit/.* rp=$port\$" "$NGINX_LOG" ||
    { cat "$NGINX_LOG" >&2; hs_fail "$mode local_port $port: no /ok from it"; }
done <"$HS_OUT"
if [ "$(grep -c '^cold ' "$HS_OUT")" != 3 ] ||
  [ "$(grep '^cold ' "$HS_OUT" | sort -u | wc -l)" != 3 ]; then
  hs_show
  hs_fail "cold samples do not each have their own port"
fi

hs_pass
