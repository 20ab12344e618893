#!/bin/sh
# url_curl: every hop's URL is the one curl goes to.  A server answers a
# request whose query is l=VALUE with "302, Location: VALUE" (byte for
# byte) and anything else with 200; for each Location below, hop 2 of
# hopsplit's sample must be the URL of curl -L's second transfer
# (%{url_effective}), fragment included, and a Location curl refuses to
# follow must fail the sample.  Ground truth: the curl tool.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init url_curl
hs_require python3 curl timeout
hs_start_tcp location "$HS_DIR/srv"
B="http://127.0.0.1:$TCP_PORT"

enc() {
  "$HS_PYTHON" -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"
}

n=0
while IFS= read -r loc; do
  n=$((n + 1))
  url="$B/b/c/d;p?l=$(enc "$loc")"
  want=$(curl -sS -L --max-redirs 1 -o /dev/null -w '%{url_effective}' \
    "$url" 2>"$HS_DIR/curl.err") || want="FAIL"
  if [ "$want" = FAIL ]; then
    # A failed sample is data: exit 3, the sample says why.
    hs_run 3 -n 1 --mode cold --format json --max-redirs 1 "$url"
    hs_jcheck "S('cold')[0]['ok'] is False"
    continue
  fi
  hs_run 0 -n 1 --mode cold --format json --max-redirs 1 "$url"
  hs_jcheck "S('cold')[0]['ok'] is True" \
    "len(S('cold')[0]['hops']) == 2" \
    "S('cold')[0]['hops'][1]['url'] == '''$want'''" ||
    hs_fail "Location '$loc': curl went to $want"
done <<EOF2
/x#frag
#only-fragment
g?y#s
../y?q=1
?q2
//127.0.0.1:$TCP_PORT/other#f
/a b/c d
  /padded
/%7Euser/./x/../z
g;x=1/../y
HTTP://127.0.0.1:$TCP_PORT/Upper
http:g
1x:y
EOF2
[ "$n" -ge 13 ] || hs_fail "only $n cases ran"
hs_pass
