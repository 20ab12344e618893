#!/bin/sh
# serve_blackbox_net: the network keys of blackbox_exporter's http
# modules (issue 27) as the real prometheus-blackbox-exporter (Debian's
# 0.23) honours them, beside it on the same targets:
#   preferred_ip_protocol with ip_protocol_fallback: names with only an
#     AAAA (v6only.test), only an A (origin.test) or both (dual.test);
#     which address each prober came from is nginx's log ($remote_addr);
#   tls_config.server_name: a certificate whose only name is sni.test on
#     127.0.0.1; nginx's log shows the SNI and the Host each prober sent;
#   proxy_url, skip_resolve_phase_with_proxy, proxy_connect_header: Squid
#     as a forward proxy, whose log shows each request through it (the
#     absolute URL of plain HTTP, the CONNECT of HTTPS, their headers).
# hopsplit resolves through dnsmasq (--dns-server); blackbox's Go resolver
# reads the same records from an /etc/hosts bind-mounted in a private
# mount namespace (root and unshare -m; the machine's file is untouched).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init serve_blackbox_net
hs_require nginx openssl python3 curl dnsmasq unshare squid \
  prometheus-blackbox-exporter
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
  hs_lack "blackbox_exporter's names need root and unshare -m" || exit 77
fi
grep -q '00000000000000000000000000000001' /proc/net/if_inet6 2>/dev/null ||
  { hs_lack "no ::1 on this machine" || exit 77; }
hs_make_ca "$HS_DIR/pki"
# tls_config.server_name: a certificate made now whose only name is
# sni.test, on a server of its own; a second server (the test CA's
# server certificate: origin.test, no sni.test) for an absolute redirect.
(
  cd "$HS_PKI" || exit 1
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout sni.key -out sni.csr -subj /CN=sni.test &&
    printf '%s\n' 'basicConstraints = critical, CA:FALSE' \
      'extendedKeyUsage = serverAuth' 'subjectAltName = DNS:sni.test' \
      >sni.ext &&
    openssl x509 -req -in sni.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -days 2 -sha256 -extfile sni.ext -out sni.crt
) >"$HS_DIR/sni-cert.log" 2>&1 || {
  cat "$HS_DIR/sni-cert.log" >&2
  hs_fail "cannot make the sni.test certificate"
}
# tls_config.cert_file, key_file: a client certificate of the test CA.
(
  cd "$HS_PKI" || exit 1
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout client.key -out client.csr -subj /CN=probe-client &&
    printf '%s\n' 'basicConstraints = critical, CA:FALSE' \
      'extendedKeyUsage = clientAuth' >client.ext &&
    openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key \
      -CAcreateserial -days 2 -sha256 -extfile client.ext -out client.crt
) >"$HS_DIR/client-cert.log" 2>&1 || {
  cat "$HS_DIR/client-cert.log" >&2
  hs_fail "cannot make the client certificate"
}
openssl x509 -noout -ext subjectAltName -in "$HS_PKI/sni.crt" |
  grep -qx ' *DNS:sni.test' || hs_fail "sni.crt names more than sni.test"
SNI_PORT=$(hs_free_port)
SNI2_PORT=$(hs_free_port)
TLS12_PORT=$(hs_free_port)
MTLS_PORT=$(hs_free_port)
mkdir -p "$HS_DIR/nginx/servers.d" || hs_fail "cannot create servers.d"
cat >"$HS_DIR/nginx/servers.d/sni.conf" <<EOC
log_format hsauth '\$server_port \$request_uri auth=[\$http_authorization]'
                  ' ua=[\$http_user_agent]';
log_format hstls '\$server_port \$ssl_protocol ua=[\$http_user_agent]';
log_format hsmtls '\$server_port \$status \$ssl_client_verify'
                  ' dn=[\$ssl_client_s_dn] ua=[\$http_user_agent]';
server {
  listen 127.0.0.1:$MTLS_PORT ssl;
  ssl_certificate $HS_PKI/sni.crt;
  ssl_certificate_key $HS_PKI/sni.key;
  ssl_client_certificate $HS_PKI/ca.crt;
  ssl_verify_client on;
  access_log $HS_DIR/mtls.log hsmtls;
  location = /ok { return 200 "mtls\\n"; }
}
server {
  listen 127.0.0.1:$TLS12_PORT ssl;
  ssl_protocols TLSv1.2;
  ssl_certificate $HS_PKI/sni.crt;
  ssl_certificate_key $HS_PKI/sni.key;
  location = /tlsv { access_log $HS_DIR/tls.log hstls; return 200 "tls\\n"; }
}
server {
  listen 127.0.0.1:$SNI_PORT ssl http2;
  ssl_certificate $HS_PKI/sni.crt;
  ssl_certificate_key $HS_PKI/sni.key;
  location = /ok { return 200 "sni ok\\n"; }
  location = /redirect-rel { return 302 /ok; }
  location = /redirect-abs { return 302 https://origin.test:$SNI2_PORT/ok; }
  location = /tlsv { access_log $HS_DIR/tls.log hstls; return 200 "tls\\n"; }
  location = /auth-abs {
    access_log $HS_DIR/auth.log hsauth;
    return 302 https://origin.test:$SNI2_PORT/auth;
  }
}
server {
  listen 127.0.0.1:$SNI2_PORT ssl http2;
  location = /ok { return 200 "second ok\\n"; }
  location = /auth { access_log $HS_DIR/auth.log hsauth; return 200 "auth\\n"; }
}
EOC
# A followed redirect with a 64 KiB body (nginx's /big behind a 302 and a
# Location): body_size_limit is the final response's, as Go's client
# reads a redirect's body itself.
mkdir -p "$HS_DIR/nginx/locations.d"
cat >"$HS_DIR/nginx/locations.d/redirect-big.conf" <<EOC
location = /redirect-big {
  error_page 418 =302 /redirect-big-body;
  return 418;
}
location = /redirect-big-body {
  internal;
  add_header Location /ok always;
  default_type text/plain;
  alias $HS_DIR/nginx/www/big;
}
EOC
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
hc_start_squid_forward "$HS_DIR/squid"
printf '%s\n' '127.0.0.1 origin.test' '::1 v6only.test' \
  '127.0.0.1 dual.test' '::1 dual.test' >"$HS_DIR/hosts"
HS_BLACKBOX_HOSTS=$HS_DIR/hosts
export HS_BLACKBOX_HOSTS

MODS=$HS_DIR/modules.yml
cat >"$MODS" <<EOF
modules:
  ip4_fallback:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      tls_config: {insecure_skip_verify: true}
  ip4_only:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      ip_protocol_fallback: false
      tls_config: {insecure_skip_verify: true}
  ip6_fallback:
    prober: http
    timeout: 5s
    http:
      tls_config: {insecure_skip_verify: true}
  ip6_only:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip6
      ip_protocol_fallback: false
      tls_config: {insecure_skip_verify: true}
  sni:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      tls_config: {ca_file: $CA_FILE, server_name: sni.test}
  no_sni:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      tls_config: {ca_file: $CA_FILE}
  host_sni:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      headers: {Host: sni.test}
      tls_config: {ca_file: $CA_FILE}
  proxy:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      proxy_url: http://127.0.0.1:$SQUID_PORT
      proxy_connect_header: {X-Proxy-Test: [hs27]}
      tls_config: {ca_file: $CA_FILE}
  proxy_skip:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      proxy_url: http://127.0.0.1:$SQUID_PORT
      skip_resolve_phase_with_proxy: true
      tls_config: {ca_file: $CA_FILE}
  no_follow:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      follow_redirects: false
      tls_config: {ca_file: $CA_FILE, server_name: sni.test}
  follow_override:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      follow_redirects: false
      no_follow_redirects: false
      tls_config: {ca_file: $CA_FILE, server_name: sni.test}
  h1:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      enable_http2: false
      tls_config: {ca_file: $CA_FILE, server_name: sni.test}
  bearer:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      bearer_token: s3cret-tok
      tls_config: {ca_file: $CA_FILE, server_name: sni.test}
  bearer_file:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      bearer_token_file: $HS_DIR/token
      tls_config: {ca_file: $CA_FILE, server_name: sni.test}
  authz:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      authorization: {type: Token, credentials: s3cret-cred}
      tls_config: {ca_file: $CA_FILE, server_name: sni.test}
  tls12_max:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      tls_config: {ca_file: $CA_FILE, server_name: sni.test, max_version: TLS12}
  tls13_min:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      tls_config: {ca_file: $CA_FILE, server_name: sni.test, min_version: TLS13}
  client_cert:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      tls_config: {ca_file: $CA_FILE, server_name: sni.test, cert_file: $HS_PKI/client.crt, key_file: $HS_PKI/client.key}
  client_cert_missing:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      tls_config: {ca_file: $CA_FILE, server_name: sni.test, cert_file: $HS_DIR/none.crt, key_file: $HS_DIR/none.key}
  body_limit:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      body_size_limit: 1.5KB
  body_limit_re:
    prober: http
    timeout: 5s
    http:
      preferred_ip_protocol: ip4
      body_size_limit: 1KiB
      fail_if_body_matches_regexp: [nothing-like-this]
EOF
printf ' s3cret-file \n' >"$HS_DIR/token"
hs_start_blackbox "$HS_DIR/blackbox" "$MODS"
hs_start_serve "$HS_DIR/serve" --config "$MODS" \
  --dns-server "127.0.0.1:$DNS_PORT"

probe() { # probe NAME PORT TARGET MODULE
  curl -q -sS --noproxy '*' --max-time 20 -o "$HS_DIR/$1.prom" \
    "http://127.0.0.1:$2/probe?target=$3&module=$4" ||
    hs_fail "cannot fetch /probe of $1"
}
n=0
both() { # both URL MODULE: the answers of each in bb$n.prom and hs$n.prom
  n=$((n + 1))
  probe bb$n "$BLACKBOX_PORT" "$1" "$2"
  probe hs$n "$SERVE_PORT" "$1" "$2"
}
pair() { # pair FILE NAMES: bb$n against hs$n on NAMES, both ways
  echo "$HS_DIR/bb$n.prom $HS_DIR/hs$n.prom $2" >>"$1"
  echo "$HS_DIR/hs$n.prom $HS_DIR/bb$n.prom $2" >>"$1"
}
show() { # show N: the lines of the report
  grep -E '^probe_(success|ip_protocol|ip_addr_hash|http_status_code) ' \
    "$HS_DIR/$1" | tr '\n' ' '
}
# logged FILE N ERE: FILE has N lines matching ERE ("+": one or more),
# waited for (a server logs a request after answering it, at most 5 s x
# $HS_TF); else fail, showing FILE.
logged() {
  hs_i=0
  while :; do
    hs_c=$(grep -cE -e "$3" "$1")
    if [ "$2" = + ]; then
      [ "$hs_c" -ge 1 ] && return 0
    elif [ "$hs_c" = "$2" ]; then
      return 0
    fi
    [ "$hs_i" -ge $((50 * HS_TF)) ] && {
      cat "$1" >&2
      hs_fail "$1: '$3' $hs_c times, expected $2"
    }
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
}
# names_logged ADDR PORT UA: nginx's names log has one GET /ok from ADDR
# by UA (hopsplit or Blackbox).
names_logged() {
  logged "$NAMES_LOG" 1 "^$1 $2 GET /ok .*ua=\[$3"
}

# preferred_ip_protocol and its fallback: MODULE HOST SUCCESS ADDRESS
P=$HTTPS_PORT
: >"$HS_DIR/pairs"
for case in "ip4_fallback v6only.test 1 ::1" "ip4_only v6only.test 0 -" \
  "ip4_fallback dual.test 1 127.0.0.1" "ip6_fallback dual.test 1 ::1" \
  "ip6_fallback origin.test 1 127.0.0.1" "ip6_only origin.test 0 -"; do
  set -- $case
  hs_nginx_barrier
  : >"$NAMES_LOG"
  both "https://$2:$P/ok" "$1"
  hs_log "$1 $2: blackbox: $(show bb$n.prom)"
  hs_log "$1 $2: hopsplit: $(show hs$n.prom)"
  grep -qx "probe_success $3" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1 on $2: hopsplit's probe_success is not $3"
  names="probe_success probe_http_status_code"
  if [ "$4" != - ]; then
    names="$names probe_ip_protocol probe_ip_addr_hash"
    names_logged "$4" "$P" hopsplit
    names_logged "$4" "$P" Blackbox
    hs_log "$1 $2: nginx: $(grep "GET /ok " "$NAMES_LOG" | tr '\n' ' ')"
  fi
  pair "$HS_DIR/pairs" "$names"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs" ||
  hs_fail "preferred_ip_protocol: /probe differs from blackbox_exporter's"

# tls_config.server_name: the SNI and the name verified are sni.test, the
# connection goes to the URL's address and the Host (:authority) stays
# the URL's, on the first host and after a relative redirect; an
# absolute redirect to another host is verified against its own name
# (blackbox 0.23 drops ServerName for another host:port).  Without
# server_name the certificate does not match; the module's Host header is
# the TLS name when server_name is not given.
S="https://127.0.0.1:$SNI_PORT"
: >"$HS_DIR/pairs2"
for case in "sni /ok 1 0" "sni /redirect-rel 1 1" "sni /redirect-abs 1 1" \
  "no_sni /ok 0 0" "host_sni /ok 1 0"; do
  set -- $case
  hs_nginx_barrier
  : >"$NAMES_LOG"
  both "$S$2" "$1"
  hs_log "$1 $S$2: blackbox: $(show bb$n.prom)"
  hs_log "$1 $S$2: hopsplit: $(show hs$n.prom)"
  grep -qx "probe_success $3" "$HS_DIR/hs$n.prom" &&
    grep -qx "probe_http_redirects $4" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1 on $S$2: not probe_success $3, redirects $4"
  names="probe_success probe_http_status_code probe_http_redirects"
  names="$names probe_http_ssl"
  pair "$HS_DIR/pairs2" "$names"
  [ "$3" = 1 ] || continue
  # What nginx saw of each: the same lines but the User-Agent.
  for ua in hopsplit Blackbox; do
    logged "$NAMES_LOG" + " GET /ok .*ua=\[$ua"
    grep "ua=\[$ua" "$NAMES_LOG" | sed 's/ ua=.*//' >"$HS_DIR/names.$ua"
  done
  hs_log "$1 $S$2: nginx: $(grep "ua=\[hopsplit" "$NAMES_LOG" | tr '\n' ' ')"
  cmp -s "$HS_DIR/names.hopsplit" "$HS_DIR/names.Blackbox" || {
    cat "$NAMES_LOG" >&2
    hs_fail "module $1 on $S$2: nginx saw other names from hopsplit"
  }
  [ "$2" = /redirect-abs ] ||
    grep -q "^127\.0\.0\.1 $SNI_PORT GET /ok sni=\[sni\.test\] host=\[[^]]*\] proto=\[HTTP/2\.0\]$" \
      "$HS_DIR/names.hopsplit" ||
    hs_fail "module $1 on $S$2: not SNI sni.test over HTTP/2"
  # The redirect to another host: SNI origin.test there (its own name).
  [ "$2" != /redirect-abs ] ||
    grep -q "^127\.0\.0\.1 $SNI2_PORT GET /ok sni=\[origin\.test\]" \
      "$HS_DIR/names.hopsplit" ||
    hs_fail "the absolute redirect did not go with SNI origin.test"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs2" ||
  hs_fail "server_name: /probe differs from blackbox_exporter's"
# follow_redirects: false stops at the 302 (not 2xx: the probe fails;
# both count the redirect not followed in probe_http_redirects);
# no_follow_redirects, when given, decides over it (blackbox 0.23), so
# false there follows.  enable_http2: false is HTTP/1.1 over TLS where
# blackbox otherwise offers h2.  The fifth word: how many requests nginx logs
# of each prober; its lines (SNI, Host, protocol) are the same but the UA.
: >"$HS_DIR/pairs4"
for case in "no_follow /redirect-rel 0 1 1 2.0" \
  "follow_override /redirect-rel 1 1 2 2.0" "h1 /ok 1 0 1 1.1"; do
  set -- $case
  hs_nginx_barrier
  : >"$NAMES_LOG"
  both "$S$2" "$1"
  hs_log "$1 $S$2: blackbox: $(show bb$n.prom) $(grep '^probe_http_\(redirects\|version\) ' "$HS_DIR/bb$n.prom" | tr '\n' ' ')"
  hs_log "$1 $S$2: hopsplit: $(show hs$n.prom) $(grep '^probe_http_\(redirects\|version\) ' "$HS_DIR/hs$n.prom" | tr '\n' ' ')"
  grep -qx "probe_success $3" "$HS_DIR/hs$n.prom" &&
    grep -qx "probe_http_redirects $4" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1 on $S$2: not probe_success $3, redirects $4"
  names="probe_success probe_http_status_code probe_http_redirects"
  names="$names probe_http_ssl probe_http_version"
  pair "$HS_DIR/pairs4" "$names"
  for ua in hopsplit Blackbox; do
    logged "$NAMES_LOG" "$5" " $SNI_PORT GET .*proto=\[HTTP/$6\] ua=\[$ua"
    grep "ua=\[$ua" "$NAMES_LOG" | sed 's/ ua=.*//' >"$HS_DIR/names.$ua"
  done
  hs_log "$1 $S$2: nginx: $(grep "ua=\[hopsplit" "$NAMES_LOG" | tr '\n' ' ')"
  cmp -s "$HS_DIR/names.hopsplit" "$HS_DIR/names.Blackbox" || {
    cat "$NAMES_LOG" >&2
    hs_fail "module $1 on $S$2: nginx saw other requests from hopsplit"
  }
  [ "$1" != no_follow ] || ! grep -q " GET /ok " "$NAMES_LOG" ||
    hs_fail "module no_follow: a prober followed the redirect"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs4" ||
  hs_fail "follow_redirects, enable_http2: /probe differs from blackbox_exporter's"

# bearer_token, bearer_token_file (trimmed), authorization: nginx logs
# the Authorization each prober sent, on the first host and after a
# redirect to another; the same header from both; hopsplit's debug page
# does not show the secret.
: >"$HS_DIR/pairs5"
for case in "bearer Bearer s3cret-tok" "bearer_file Bearer s3cret-file" \
  "authz Token s3cret-cred"; do
  set -- $case
  : >"$HS_DIR/auth.log"
  both "$S/auth-abs" "$1"
  hs_log "$1: blackbox: $(show bb$n.prom)"
  hs_log "$1: hopsplit: $(show hs$n.prom)"
  grep -qx "probe_success 1" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1: hopsplit's probe failed"
  names="probe_success probe_http_status_code probe_http_redirects"
  pair "$HS_DIR/pairs5" "$names"
  for ua in hopsplit Blackbox; do
    logged "$HS_DIR/auth.log" 2 "auth=\[$2 $3\] ua=\[$ua"
    grep "ua=\[$ua" "$HS_DIR/auth.log" | sed 's/ ua=.*//' >"$HS_DIR/auth.$ua"
  done
  hs_log "$1: nginx: $(tr '\n' ' ' <"$HS_DIR/auth.log")"
  cmp -s "$HS_DIR/auth.hopsplit" "$HS_DIR/auth.Blackbox" ||
    hs_fail "module $1: nginx saw another Authorization from hopsplit"
  curl -q -sS --noproxy '*' --max-time 20 -o "$HS_DIR/debug-$1.txt" \
    "http://127.0.0.1:$SERVE_PORT/probe?target=$S/auth-abs&module=$1&debug=true" ||
    hs_fail "cannot fetch the debug page of $1"
  grep -qi authorization "$HS_DIR/debug-$1.txt" ||
    hs_fail "module $1: the debug page does not show the request header"
  ! grep -q "$3" "$HS_DIR/debug-$1.txt" ||
    hs_fail "module $1: the debug page shows the secret"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs5" ||
  hs_fail "bearer_token, authorization: /probe differs from blackbox_exporter's"

# tls_config.min_version, max_version: nginx logs the TLS version each
# prober agreed (TLS 1.3 by default, 1.2 with max_version TLS12); a
# server of TLS 1.2 only refuses min_version TLS13 (no request logged).
: >"$HS_DIR/pairs6"
for case in "sni $SNI_PORT 1 TLSv1.3" "tls12_max $SNI_PORT 1 TLSv1.2" \
  "tls13_min $TLS12_PORT 0 -" "tls12_max $TLS12_PORT 1 TLSv1.2"; do
  set -- $case
  : >"$HS_DIR/tls.log"
  both "https://127.0.0.1:$2/tlsv" "$1"
  hs_log "$1 :$2: blackbox: $(show bb$n.prom) $(grep '^probe_tls_version_info' "$HS_DIR/bb$n.prom")"
  hs_log "$1 :$2: hopsplit: $(show hs$n.prom) $(grep '^probe_tls_version_info' "$HS_DIR/hs$n.prom")"
  grep -qx "probe_success $3" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1 on :$2: hopsplit's probe_success is not $3"
  names="probe_success probe_http_status_code"
  [ "$3" = 0 ] || names="$names probe_tls_version_info"
  pair "$HS_DIR/pairs6" "$names"
  if [ "$4" = - ]; then
    sleep 1
    [ ! -s "$HS_DIR/tls.log" ] || hs_fail "module $1 on :$2: a request got through"
    continue
  fi
  for ua in hopsplit Blackbox; do
    logged "$HS_DIR/tls.log" 1 "^$2 $4 ua=\[$ua"
  done
  hs_log "$1 :$2: nginx: $(tr '\n' ' ' <"$HS_DIR/tls.log")"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs6" ||
  hs_fail "min_version, max_version: /probe differs from blackbox_exporter's"

# body_size_limit: a body read up to the limit fails the probe (64 KiB
# /big; the 3-byte /ok passes), with probe_failed_due_to_regex 1 when the
# module has body regexps; the bytes read and the status as blackbox's.
# A followed redirect's 64 KiB body is not the final response's: it passes.
: >"$HS_DIR/pairs7"
for case in "body_limit /big 0" "body_limit /ok 1" "body_limit_re /big 0" \
  "body_limit_re /ok 1" "body_limit /redirect-big 1"; do
  set -- $case
  both "http://127.0.0.1:$HTTP_PORT$2" "$1"
  hs_log "$1 $2: blackbox: $(show bb$n.prom) $(grep -E '^probe_(failed_due_to_regex|http_uncompressed_body_length) ' "$HS_DIR/bb$n.prom" | tr '\n' ' ')"
  hs_log "$1 $2: hopsplit: $(show hs$n.prom) $(grep -E '^probe_(failed_due_to_regex|http_uncompressed_body_length) ' "$HS_DIR/hs$n.prom" | tr '\n' ' ')"
  grep -qx "probe_success $3" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1 on $2: hopsplit's probe_success is not $3"
  pair "$HS_DIR/pairs7" "probe_success probe_http_status_code probe_failed_due_to_regex probe_http_uncompressed_body_length probe_http_content_length"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs7" ||
  hs_fail "body_size_limit: /probe differs from blackbox_exporter's"

# tls_config.cert_file, key_file: nginx asks for a client certificate of
# the test CA; it logs the one each prober offered (SUCCESS and its
# subject), a 400 without one, nothing when the files are missing (the
# handshake cannot start).
: >"$HS_DIR/pairs8"
for case in "client_cert 1 200 SUCCESS" "sni 0 400 NONE" \
  "client_cert_missing 0 - -"; do
  set -- $case
  : >"$HS_DIR/mtls.log"
  both "https://127.0.0.1:$MTLS_PORT/ok" "$1"
  hs_log "$1: blackbox: $(show bb$n.prom)"
  hs_log "$1: hopsplit: $(show hs$n.prom)"
  grep -qx "probe_success $2" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1: hopsplit's probe_success is not $2"
  pair "$HS_DIR/pairs8" "probe_success probe_http_status_code"
  if [ "$3" = - ]; then
    continue
  fi
  for ua in hopsplit Blackbox; do
    logged "$HS_DIR/mtls.log" 1 "^$MTLS_PORT $3 $4 .*ua=\[$ua"
  done
  hs_log "$1: nginx: $(tr '\n' ' ' <"$HS_DIR/mtls.log")"
  [ "$4" = NONE ] ||
    logged "$HS_DIR/mtls.log" 2 "dn=\[CN=probe-client\]"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs8" ||
  hs_fail "cert_file, key_file: /probe differs from blackbox_exporter's"

# The sizes each accepts (blackbox's --config.check is the reference):
# a number with a power-of-1024 unit, several in a row, or 0.
for v in 0 10MB 1KiB 1.5KB .5KB 1KB512B 0.1B 1024 "'1 KB'" 1kb -1 1K 1e3B; do
  printf 'modules:\n  m:\n    prober: http\n    http:\n      body_size_limit: %s\n' \
    "$v" >"$HS_DIR/size.yml"
  if prometheus-blackbox-exporter --config.check \
    --config.file="$HS_DIR/size.yml" >/dev/null 2>&1; then want=0; else want=2; fi
  if [ "$want" = 2 ]; then
    hs_run 2 serve --listen 127.0.0.1:0 --config "$HS_DIR/size.yml"
    hs_grep_err "size\.yml:5:24: 'body_size_limit': .* is not a size"
  else
    # Accepted: serve starts (and is stopped after a second).
    timeout "$HS_TF" "$HOPSPLIT" serve --listen 127.0.0.1:0 \
      --config "$HS_DIR/size.yml" >/dev/null 2>"$HS_DIR/size.err"
    grep -q listening "$HS_DIR/size.err" ||
      { cat "$HS_DIR/size.err" >&2; hs_fail "body_size_limit $v: refused"; }
  fi
done

# What both refuse (blackbox's --config.check is the reference, exit 1):
# a module or a key written twice in one mapping, aliases that expand a
# 4.5 KB file to 120,000 regexps (200 modules, each the same 600-alias
# list), a key given a value of the wrong kind and both basic_auth
# passwords; hopsplit names the place and what was wrong.
printf 'modules:\n  m:\n    prober: http\n  m:\n    prober: tcp\n' \
  >"$HS_DIR/dup1.yml"
printf 'modules:\n  m:\n    prober: http\n    http:\n      method: GET\n      tls_config: {server_name: a, server_name: b}\n' \
  >"$HS_DIR/dup2.yml"
k=0
for v in 'headers: [a]' 'tls_config: {ca_file: [x]}' \
  'basic_auth: {username: u, password: p, password_file: /dev/null}'; do
  k=$((k + 1))
  printf 'modules:\n  m:\n    prober: http\n    http:\n      %s\n' "$v" \
    >"$HS_DIR/kind$k.yml"
done
python3 - "$HS_DIR/alias.yml" <<'EOP' || hs_fail "cannot write alias.yml"
import sys
lines = ["modules:", "  base: &m", "    prober: http", "    http:",
         "      body: &s a",
         "      fail_if_body_matches_regexp: [" + ", ".join(["*s"] * 600) + "]"]
lines += ["  m%d: *m" % i for i in range(200)]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOP
for case in "dup1 4:3: duplicate key 'm' \(first at line 2\)" \
  "dup2 6:36: duplicate key 'server_name' \(first at line 6\)" \
  "alias 1:1: aliases expand the file by more than 100000 nodes" \
  "kind1 5:16: 'headers' takes a mapping of header names to values" \
  "kind2 5:29: tls_config 'ca_file' takes a file name" \
  "kind3 5:46: at most one of basic_auth password & password_file"; do
  f=${case%% *}
  prometheus-blackbox-exporter --config.check \
    --config.file="$HS_DIR/$f.yml" >/dev/null 2>&1 &&
    hs_fail "blackbox_exporter accepts $f.yml"
  hs_run 2 serve --listen 127.0.0.1:0 --config "$HS_DIR/$f.yml"
  hs_grep_err "$f\.yml:${case#* }"
done

# hopsplit's outputs name the URL given, never the TLS name in a URL.
curl -q -sS --noproxy '*' --max-time 20 -o "$HS_DIR/debug.txt" \
  "http://127.0.0.1:$SERVE_PORT/probe?target=$S/redirect-rel&module=sni&debug=true" ||
  hs_fail "cannot fetch the debug page"
grep -q "127\.0\.0\.1:$SNI_PORT/redirect-rel" "$HS_DIR/debug.txt" ||
  hs_fail "the debug page does not name the URL given"
grep -q "sni\.test:$SNI_PORT\|//sni\.test" "$HS_DIR/debug.txt" &&
  hs_fail "the debug page names the TLS name as a URL"

# proxy_url: every request through Squid, as blackbox sends it: without
# skip_resolve_phase_with_proxy the target's host is resolved here and an
# https request tunnels to its address (CONNECT ADDR:PORT, then TLS to the
# name through the tunnel), a plain one names the host (Go writes the
# absolute URI from the Host); with it the name goes to the proxy, which
# resolves it.  proxy_connect_header goes in
# CONNECT only.  Squid's log lines of both are the same but the
# User-Agent.
hs_nginx_barrier
: >"$NAMES_LOG"
: >"$HS_DIR/pairs3"
for case in "proxy http://origin.test:$HTTP_PORT/ok" \
  "proxy https://origin.test:$HTTPS_PORT/ok" \
  "proxy_skip http://origin.test:$HTTP_PORT/ok" \
  "proxy_skip https://origin.test:$HTTPS_PORT/ok"; do
  set -- $case
  : >"$SQUID_LOG"
  both "$2" "$1"
  hs_log "$1 $2: blackbox: $(show bb$n.prom)"
  hs_log "$1 $2: hopsplit: $(show hs$n.prom)"
  grep -qx "probe_success 1" "$HS_DIR/hs$n.prom" ||
    hs_fail "module $1 on $2: hopsplit's probe failed"
  names="probe_success probe_http_status_code probe_http_redirects"
  names="$names probe_http_ssl probe_http_version"
  if [ "$1" = proxy ]; then
    names="$names probe_ip_protocol probe_ip_addr_hash"
  else
    # Nothing resolved here: neither writes the address series.
    for f in bb hs; do
      grep -q '^probe_\(ip_protocol\|ip_addr_hash\|dns_lookup_time_seconds\) ' \
        "$HS_DIR/$f$n.prom" &&
        hs_fail "module $1 on $2: $f$n.prom has address series"
    done
  fi
  pair "$HS_DIR/pairs3" "$names"
  # blackbox's CONNECT goes as Go-http-client: every line not hopsplit's
  # is blackbox's.
  for who in hopsplit Blackbox; do
    v=
    [ "$who" = Blackbox ] && v=-v
    logged "$SQUID_LOG" + "ua=\[$([ -n "$v" ] && echo '(Go|Bl)' || echo hop)"
    grep $v "ua=\[hopsplit" "$SQUID_LOG" | sed 's/ ua=.*//' \
      >"$HS_DIR/squid.$who"
  done
  hs_log "$1 $2: squid: $(tr '\n' ' ' <"$SQUID_LOG")"
  cmp -s "$HS_DIR/squid.hopsplit" "$HS_DIR/squid.Blackbox" || {
    cat "$SQUID_LOG" >&2
    hs_fail "module $1 on $2: Squid saw other requests from hopsplit"
  }
  case $1:$2 in
    *:http:*) want="GET http://origin\.test:$HTTP_PORT/ok host=\[origin\.test:$HTTP_PORT\] x=\[-\] 200" ;;
    proxy:https:*) want="CONNECT 127\.0\.0\.1:$HTTPS_PORT host=\[127\.0\.0\.1:$HTTPS_PORT\] x=\[hs27\] 200" ;;
    *) want="CONNECT origin\.test:$HTTPS_PORT host=\[origin\.test:$HTTPS_PORT\] x=\[-\] 200" ;;
  esac
  grep -q "^127\.0\.0\.1 $want\$" "$HS_DIR/squid.hopsplit" ||
    hs_fail "module $1 on $2: Squid has no '$want' of hopsplit"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs3" ||
  hs_fail "proxy_url: /probe differs from blackbox_exporter's"
# Through the tunnel, TLS named the target (origin.test) for both modules.
logged "$NAMES_LOG" 2 "^127\.0\.0\.1 $HTTPS_PORT GET /ok sni=\[origin\.test\] host=\[origin\.test:$HTTPS_PORT\] .*ua=\[hopsplit"
hs_log "through squid, nginx: $(grep "ua=\[hopsplit" "$NAMES_LOG" | tr '\n' ' ')"

hs_pass
