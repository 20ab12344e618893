#!/bin/sh
# serve_blackbox: hopsplit serve answers /probe with blackbox_exporter's
# series as the real prometheus-blackbox-exporter (Debian's) answers the
# same probe of the same nginx targets: TLS expiry of the earliest
# certificate and of the verified chain (also against openssl's reading of
# the certificates nginx serves), TLS version, content length, HTTP
# version, SSL, redirects, status, body length; and promtool accepts the
# answer with the new series.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_blackbox
hs_require nginx openssl python3 curl promtool prometheus-blackbox-exporter
hs_make_ca "$HS_DIR/pki"
# Bodies for the body regexps: 300 KB of text, the phrase a module looks
# for across the 128 KiB mark (every chunk size up to 128 KiB splits it),
# or the failure phrase near the end.
mkdir -p "$HS_DIR/nginx/locations.d" "$HS_DIR/nginx/www" ||
  hs_fail "cannot create the nginx directories"
python3 - "$HS_DIR/nginx/www" <<'EOP' || hs_fail "cannot write the pages"
import sys
d = sys.argv[1]
fill = ("filler line of the page, nothing to see here\n" * 8000)
mark = 131072 - 10
good = fill[:mark] + "Download the latest version here" + fill[mark:]
open(d + "/good.txt", "w").write(good + "tail line\n")
open(d + "/bad.txt", "w").write(good + "Could not connect to database\n"
                                + "tail line\n")
open(d + "/notail.txt", "w").write(good + "tail line, then more\n")
EOP
for f in good bad notail; do
  printf 'location = /%s.txt { default_type text/plain; root %s; }\n' \
    "$f" "$HS_DIR/nginx/www"
done >"$HS_DIR/nginx/locations.d/pages.conf"
# For blackbox's example.yml: a page its http_2xx_example accepts, one
# whose body it refuses, one nginx compresses.
cat >>"$HS_DIR/nginx/locations.d/pages.conf" <<EOC
location = /example {
  add_header Access-Control-Allow-Origin "*";
  default_type text/plain;
  return 200 "Download the latest version here\\n";
}
location = /example-down {
  add_header Access-Control-Allow-Origin "*";
  default_type text/plain;
  return 200 "Could not connect to database\\nDownload the latest version here\\n";
}
location = /gz.txt {
  gzip on;
  gzip_min_length 1;
  gzip_types text/plain;
  default_type text/plain;
  alias $HS_DIR/nginx/www/good.txt;
}
EOC
hs_start_nginx "$HS_DIR/nginx"
hs_start_blackbox "$HS_DIR/blackbox"
hs_start_serve "$HS_DIR/serve" --cacert "$CA_FILE" -4

OK="https://127.0.0.1:$HTTPS_PORT/ok"
CHAIN="https://127.0.0.1:$HTTPS_PORT/redirect-chain"
PLAIN="http://127.0.0.1:$HTTP_PORT/ok"
BIG="https://127.0.0.1:$HTTPS_PORT/big"
SAME="probe_success probe_http_status_code probe_http_redirects probe_http_ssl
probe_http_version probe_http_content_length
probe_http_uncompressed_body_length probe_failed_due_to_regex
probe_ip_addr_hash"
# probe_ssl_last_chain_info without serialnumber: Debian's blackbox 0.23
# has the other four labels (0.24 added it; checked against openssl below).
TLS="probe_ssl_earliest_cert_expiry probe_ssl_last_chain_expiry_timestamp_seconds
probe_tls_version_info probe_ssl_last_chain_info!serialnumber"

probe() { # probe NAME PORT TARGET [MODULE]
  curl -q -sS --noproxy '*' --max-time 20 -o "$HS_DIR/$1.prom" \
    "http://127.0.0.1:$2/probe?target=$3&module=${4:-http_2xx}" ||
    hs_fail "cannot fetch /probe of $1"
}
both() { # both URL MODULE: probe the two, answers in bb$n and hs$n
  n=$((n + 1))
  probe bb$n "$BLACKBOX_PORT" "$1" "$2"
  probe hs$n "$SERVE_PORT" "$1" "$2"
}
n=0
: >"$HS_DIR/pairs0"
for u in "$OK" "$CHAIN" "$PLAIN" "$BIG"; do
  both "$u" http_2xx
  names=$SAME
  case $u in https:*) names="$SAME $TLS" ;; esac
  # Both ways: the same values, and no series of one the other lacks.
  echo "$HS_DIR/bb$n.prom $HS_DIR/hs$n.prom" $names >>"$HS_DIR/pairs0"
  echo "$HS_DIR/hs$n.prom $HS_DIR/bb$n.prom" $names >>"$HS_DIR/pairs0"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs0" ||
  hs_fail "/probe differs from blackbox_exporter's"
promtool check metrics <"$HS_DIR/hs1.prom" >"$HS_DIR/hs1.check" 2>&1 || {
  cat "$HS_DIR/hs1.check" >&2
  hs_fail "promtool check metrics rejects /probe of $OK"
}
grep -q '^probe_ssl_' "$HS_DIR/hs3.prom" && hs_fail "TLS series for plain HTTP"

# Ground truth of the expiries: the certificates nginx serves, as openssl
# reads them (the earliest one sent: the server's; the verified chain's
# earliest: the server's or the CA's).
epoch() {
  date -d "$(openssl x509 -enddate -noout -in "$1" | cut -d= -f2)" +%s
}
srv=$(epoch "$HS_DIR/pki/server.crt")
ca=$(epoch "$HS_DIR/pki/ca.crt")
chain=$srv
[ "$ca" -lt "$chain" ] && chain=$ca
grep -qx "probe_ssl_earliest_cert_expiry $srv" "$HS_DIR/hs1.prom" ||
  hs_fail "earliest expiry is not the server certificate's $srv"
grep -qx "probe_ssl_last_chain_expiry_timestamp_seconds $chain" \
  "$HS_DIR/hs1.prom" || hs_fail "chain expiry is not $chain"
# The leaf as openssl reads it: fingerprint, serial number (blackbox 0.24's
# lowercase hex of the minimal bytes), subject, issuer, DNS names.
fp=$(openssl x509 -noout -fingerprint -sha256 -in "$HS_DIR/pki/server.crt" |
  cut -d= -f2 | tr -d : | tr 'A-F' 'a-f')
sn=$(openssl x509 -noout -serial -in "$HS_DIR/pki/server.crt" | cut -d= -f2 |
  tr 'A-F' 'a-f' | sed 's/^\(00\)*//')
sub=$(openssl x509 -noout -subject -nameopt RFC2253 -in "$HS_DIR/pki/server.crt" |
  sed 's/^subject=//')
iss=$(openssl x509 -noout -issuer -nameopt RFC2253 -in "$HS_DIR/pki/server.crt" |
  sed 's/^issuer=//')
want="probe_ssl_last_chain_info{fingerprint_sha256=\"$fp\",issuer=\"$iss\",serialnumber=\"$sn\",subject=\"$sub\",subjectalternative=\"origin.test,other.test,alias.test,localhost\"} 1"
grep -qxF "$want" "$HS_DIR/hs1.prom" || {
  grep probe_ssl_last_chain_info "$HS_DIR/hs1.prom" >&2
  hs_fail "probe_ssl_last_chain_info is not $want"
}

# serve --config with blackbox_exporter's own module file: the same file
# beside the real blackbox_exporter, the same targets, the same answers.
BB=$HS_DIR/modules.yml
sed "s|@CA@|$CA_FILE|" "$HOPSPLIT_SRC/tests/data/blackbox/modules.yml" >"$BB"
hs_start_blackbox "$HS_DIR/blackbox2" "$BB"
hs_start_serve "$HS_DIR/serve2" --config "$BB"
grep -q "module 'tcp_connect' uses prober 'tcp'" "$HS_DIR/serve2/serve.err" ||
  hs_fail "serve does not say it cannot probe module tcp_connect"
MISSING="http://127.0.0.1:$HTTP_PORT/status/404"
BASE="https://127.0.0.1:$HTTPS_PORT"
hs_nginx_log_clear
: >"$HS_DIR/pairs"
# Each module on the targets where its keys decide something.
for case in "http_2xx $OK $MISSING" "http_post_2xx $OK $CHAIN" \
  "http_404 $OK $MISSING" "no_redirects $CHAIN" "need_ssl $OK $PLAIN" \
  "no_ssl $OK $PLAIN" "h11_only $OK $PLAIN" "headers_ok $OK $PLAIN" \
  "headers_bad $OK" "headers_re2 $OK $BIG $PLAIN" "headers_re2_bad $OK" \
  "body_regexps $OK $BASE/good.txt $BASE/bad.txt \
  $BASE/notail.txt http://127.0.0.1:$HTTP_PORT/good.txt"; do
  set -- $case
  mod=$1
  shift
  for u in "$@"; do
    both "$u" "$mod"
    names="probe_success probe_http_status_code probe_http_redirects"
    names="$names probe_failed_due_to_regex"
    echo "$HS_DIR/bb$n.prom $HS_DIR/hs$n.prom $names" >>"$HS_DIR/pairs"
  done
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs" ||
  hs_fail "module /probe answers differ from blackbox_exporter's"
promtool check metrics <"$HS_DIR/hs$n.prom" >/dev/null 2>&1 ||
  hs_fail "promtool check metrics rejects /probe of module headers_bad"
# The body regexps' verdicts themselves (beside being blackbox's): the
# phrase across the 128 KiB mark found, the failure phrase found, the
# multi-line anchor not matched on a longer line.
for want in "good.txt 1 0" "bad.txt 0 1" "notail.txt 0 1"; do
  set -- $want
  probe hsb "$SERVE_PORT" "$BASE/$1" body_regexps
  grep -qx "probe_success $2" "$HS_DIR/hsb.prom" &&
    grep -qx "probe_failed_due_to_regex $3" "$HS_DIR/hsb.prom" ||
    hs_fail "body_regexps on /$1: not probe_success $2, regex $3"
done
# The header regexps in Go's syntax (PCRE2 reads them alike): /ok's
# text/plain and Content-Length pass, /big's application/octet-stream
# does not, nginx's Server matches \bngin\w+.
for want in "headers_re2 $OK 1" "headers_re2 $BIG 0" "headers_re2_bad $OK 0"; do
  set -- $want
  probe hsr "$SERVE_PORT" "$2" "$1"
  grep -qx "probe_success $3" "$HS_DIR/hsr.prom" ||
    hs_fail "module $1 on $2: not probe_success $3"
done
# A pattern PCRE2 refuses: an error naming the key at its line, nothing
# served.
printf 'modules:\n  m:\n    prober: http\n    http:\n      fail_if_header_matches:\n        - header: Server\n          regexp: "(?<x"\n' \
  >"$HS_DIR/badre.yml"
hs_run 2 serve --listen 127.0.0.1:0 --config "$HS_DIR/badre.yml"
hs_grep_err "badre\.yml:7:19: module 'm': 'fail_if_header_matches': regexp '\(\?<x' is not one hopsplit can search"
grep -q listening "$HS_ERR" && hs_fail "serve listened with a bad regexp"

# The POST as both sent it: method, content type, length (nginx's log).
for ua in hopsplit Blackbox; do
  hs_logged 1 "^$HTTPS_PORT POST /ok .*ua=\[$ua.* ct=\[application/json\] cl=\[8\]"
done
# A module of another prober: probe_success 0, said why.
probe hst "$SERVE_PORT" "$OK" tcp_connect
grep -qx 'probe_success 0' "$HS_DIR/hst.prom" ||
  hs_fail "module tcp_connect is not probe_success 0"

# blackbox_exporter's own example file (Debian's, 0.23), with the test CA
# for its /certs/my_cert.crt, given to both: every http module on the
# targets where its keys decide something, the same answers (its proxy
# module, whose proxy listens nowhere here, is serve_blackbox_net's
# subject with a real Squid).
EX=/usr/share/doc/prometheus-blackbox-exporter/examples/example.yml
[ -f "$EX" ] || hs_fail "blackbox_exporter's example.yml is not installed"
EX2=$HS_DIR/example.yml
sed -e "s|/certs/my_cert.crt|$CA_FILE|" "$EX" >"$EX2"
hs_start_blackbox "$HS_DIR/blackbox3" "$EX2"
hs_start_serve "$HS_DIR/serve3" --config "$EX2"
H="http://127.0.0.1:$HTTP_PORT"
hs_nginx_log_clear
: >"$HS_DIR/pairs3"
for case in "http_2xx_example $H/example $H/example-down $H/ok" \
  "http_post_2xx $H/ok $OK" "http_basic_auth_example $H/ok" \
  "http_custom_ca_example $OK" "http_gzip $H/gz.txt $H/ok" \
  "http_gzip_with_accept_encoding $H/gz.txt $H/ok"; do
  set -- $case
  mod=$1
  shift
  for u in "$@"; do
    both "$u" "$mod"
    names="probe_success probe_http_status_code probe_http_redirects
probe_http_version probe_http_content_length probe_failed_due_to_regex"
    # After a failed decompression blackbox's body length counts what its
    # decoder left unread; hopsplit's counts the body.
    case $mod:$u in
    http_2xx_example:*)
      names="$names probe_http_uncompressed_body_length"
      ;;
    http_gzip*:*/ok) ;;
    http_gzip:*) ;;
    *) names="$names probe_http_uncompressed_body_length" ;;
    esac
    echo "$HS_DIR/bb$n.prom $HS_DIR/hs$n.prom" $names >>"$HS_DIR/pairs3"
    echo "$HS_DIR/hs$n.prom $HS_DIR/bb$n.prom" $names >>"$HS_DIR/pairs3"
  done
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs3" ||
  hs_fail "example.yml /probe answers differ from blackbox_exporter's"
# basic_auth as both sent it (nginx's log): username:mysecret, once each.
auth=$(printf 'username:mysecret' | base64)
for ua in hopsplit Blackbox; do
  hs_logged 1 "^$HTTP_PORT POST /ok auth=\[Basic $auth\] .*ua=\[$ua"
done
# The answers themselves: the example's body and header regexps pass only
# on /example; compression passes only where nginx compressed, which it
# does only when asked (http_gzip alone asks nothing: it fails as
# blackbox's does).
for want in "http_2xx_example $H/example 1" \
  "http_2xx_example $H/example-down 0" "http_2xx_example $H/ok 0" \
  "http_gzip $H/gz.txt 0" "http_gzip_with_accept_encoding $H/gz.txt 1" \
  "http_gzip_with_accept_encoding $H/ok 0" \
  "http_basic_auth_example $H/ok 1"; do
  set -- $want
  probe hsx "$SERVE_PORT" "$2" "$1"
  grep -qx "probe_success $3" "$HS_DIR/hsx.prom" ||
    hs_fail "module $1 on $2: not probe_success $3"
done

hs_pass

