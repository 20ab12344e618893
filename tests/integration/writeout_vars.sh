#!/bin/sh
# writeout_vars: the -w variables hopsplit took from curl after the first
# set (content_type, urlnum, local_port), against real curl and nginx.
# Ground truth: curl's own -w for the same URLs (content_type of the last
# response, urlnum the URL's index on the command line, curl's values for
# a connection that was refused), and nginx's $remote_port in its access
# log for local_port, which differs per connection (the method is checked
# with curl's local_port first).
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

# A refused connection: what curl prints when nothing answered.
P=$(hs_free_port)
W0='[%{content_type}] %{local_port} %{http_code} %{urlnum}\n'
want=$(curl -q -s --max-time 5 --noproxy '*' -o /dev/null -w "$W0" \
  "http://127.0.0.1:$P/" || true)
[ "$want" = "[] 0 000 0" ] || hs_fail "curl to a closed port printed '$want'"
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
: >"$NGINX_LOG"
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
