# tests/server/lib.sh: fixtures for the integration tests (POSIX sh).
#
# A test script sources this file, calls hs_init, then starts the servers it
# needs on free loopback ports inside its own scratch directory ($HS_DIR, a
# fresh directory under $HOPSPLIT_TMP, removed when the test passes).
# Every process started here is recorded and killed, by its id, when the
# script exits (git lib-httpd.sh; curl's sws/dnsd).
#
#   hs_init NAME              $HS_DIR, traps, defaults for HOPSPLIT*
#   hs_require TOOL...        skip (77), or fail under HOPSPLIT_TEST_REQUIRE
#   hs_want TOOL...           the same for a part of a test: false, or fail
#   hs_lack MSG               the same for something else that is missing
#   hs_free_port              print a free TCP port on 127.0.0.1
#   hs_make_ca DIR            test CA, server, wrong-name and expired certs
#   hs_start_nginx DIR        HTTPS (h2) + HTTP origin, other.test, bad certs
#   hs_nginx_slow DIR         before hs_start_nginx DIR: /slow/ sends 500
#                             bytes at 500 bytes/s (about a second)
#   hs_start_dnsmasq DIR      resolver for *.test on 127.0.0.1:$DNS_PORT
#                             (v6only.test: AAAA only; dual.test: both)
#   hs_start_caddy DIR        caddy: h1, h2 and h3 (UDP) on $CADDY_PORT,
#                             JSON access log $CADDY_LOG
#   hs_h3_caddy DIR           skip without hopsplit's HTTP/3 library, else
#                             the test CA and caddy in DIR; $H3_URL (its
#                             https://origin.test:PORT/), $H3_RESOLVE
#   hs_start_tcp MODE DIR     python3 misbehaving TCP server or DNS server
#                             (see tcpserver.py), port in $TCP_PORT
#   hs_tcp_untouched DIR MODE MSG  fail unless nobody but the test
#                             connected to that tcpserver
#   hs_run RC ARGS...         run $HOPSPLIT, expect exit RC; $HS_OUT, $HS_ERR
#   hs_jcheck [OPTS] EXPR...  JSON assertions on $HS_OUT (jcheck.py)
#   hs_logged N ERE           nginx access log has N matching lines
#   hs_nginx_barrier          every request nginx finished is in its log
#   hs_nothing_logged MSG     nginx logged no request but the barrier's
#   hs_fail MSG / hs_skip MSG / hs_pass
#
# Exported after start: CA_FILE; HTTPS_PORT HTTP_PORT OTHER_PORT WRONG_PORT
# EXPIRED_PORT; NGINX_LOG (access log: port method uri auth cookie ua
# x-test); NAMES_LOG (client address, port, method, uri, TLS SNI, Host,
# protocol, ua); DNS_PORT; TCP_PORT.  A test adds locations to every
# origin in DIR/locations.d/*.conf, servers of its own in
# DIR/servers.d/*.conf.  Names served: origin.test (and
# alias.test, a CNAME to it), other.test; everything else under .test is
# NXDOMAIN.  Nothing listens off loopback, nothing is sent off loopback.
#
# HOPSPLIT_TEST_TIMEOUT_FACTOR (a positive integer, default 1; $HS_TF)
# multiplies every bound here (hs_run's 30 s, the server start loops, the
# waits for log lines, hs_elapsed_below) for slow machines; ctest
# multiplies each test's TIMEOUT by it too (tests/timeout).

HS_LIB_DIR=${HOPSPLIT_SRC:+$HOPSPLIT_SRC/tests/server}
if [ -z "$HS_LIB_DIR" ] || [ ! -f "$HS_LIB_DIR/lib.sh" ]; then
  HS_LIB_DIR=$(cd "$(dirname "$0")/../server" && pwd)
fi
HS_PIDS=
HS_RUNS=0
HS_NAME=
HS_TF=${HOPSPLIT_TEST_TIMEOUT_FACTOR:-1}
case $HS_TF in
  '' | 0* | *[!0-9]*)
    printf 'HOPSPLIT_TEST_TIMEOUT_FACTOR=%s: want a positive integer\n' \
      "$HS_TF" >&2
    exit 1
    ;;
esac

# hs_log MSG: a line on stderr, shown by ctest --output-on-failure.
hs_log() {
  printf '%s: %s\n' "${HS_NAME:-test}" "$*" >&2
}

hs_fail() {
  hs_log "FAIL: $*"
  exit 1
}

hs_skip() {
  hs_log "SKIP: $*"
  exit 77
}

hs_pass() {
  hs_log "ok"
  exit 0
}

# hs_init NAME: prepare the scratch directory and the cleanup traps, and give
# the HOPSPLIT* variables defaults so that a script also runs by hand
# (sh tests/integration/basic.sh from the source root, after a build).
hs_init() {
  HS_NAME=$1
  if [ -z "${HOPSPLIT_SRC:-}" ]; then
    HOPSPLIT_SRC=$(cd "$HS_LIB_DIR/../.." && pwd)
  fi
  : "${HOPSPLIT_BUILD:=$HOPSPLIT_SRC/build}"
  : "${HOPSPLIT:=$HOPSPLIT_BUILD/hopsplit}"
  : "${HOPSPLIT_TMP:=$HOPSPLIT_BUILD/tests/tmp/manual-$HS_NAME}"
  case $HOPSPLIT_TMP in
    /*/*) ;;
    *) hs_fail "HOPSPLIT_TMP '$HOPSPLIT_TMP' is not a safe scratch path" ;;
  esac
  export HOPSPLIT HOPSPLIT_SRC HOPSPLIT_BUILD HOPSPLIT_TMP
  mkdir -p "$HOPSPLIT_TMP" || hs_fail "cannot create $HOPSPLIT_TMP"
  # Each run works in its own directory, so two ctest runs in one build
  # tree do not clobber each other.  It is removed when the test passes and
  # kept for a look when it fails; kept ones go after a day.
  find "$HOPSPLIT_TMP" -mindepth 1 -maxdepth 1 -name 'run.*' -mmin +1440 \
    -exec rm -rf {} + 2>/dev/null
  HS_DIR=$(mktemp -d "$HOPSPLIT_TMP/run.XXXXXX") ||
    hs_fail "cannot create a directory in $HOPSPLIT_TMP"
  HS_DIR=$(cd "$HS_DIR" && pwd)
  # shellcheck disable=SC2154 # hs_rc is set inside the trap
  trap 'hs_rc=$?; trap - EXIT; hs_cleanup; hs_tidy $hs_rc; exit $hs_rc' EXIT
  trap 'hs_cleanup; trap - EXIT; hs_tidy 130; exit 130' INT
  trap 'hs_cleanup; trap - EXIT; hs_tidy 143; exit 143' TERM
  # Never let a proxy setting or a user's curlrc route test traffic.
  unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy \
    NO_PROXY no_proxy CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
  # The real interpreter, not a version manager's shim (pyenv adds 0.3 s to
  # every start).
  HS_PYTHON=python3
  if command -v python3 >/dev/null 2>&1; then
    HS_PYTHON=$(python3 -c 'import sys; print(sys.executable)') ||
      HS_PYTHON=python3
  fi
  if [ ! -x "$HOPSPLIT" ]; then
    hs_fail "binary '$HOPSPLIT' is missing: build it first"
  fi
  # hs_run measures at real-time priority (chrt -f 10) where the system
  # allows it.  The tests check structure, not the machine's load; and on a
  # loaded machine (CI runs two tests at once on 2 cores) a measuring
  # thread that waits for a CPU is rightly counted as interfered (its
  # run-queue delay, hopsplit(1) INTERFERENCE) and its sample left out of
  # the statistics the tests compare.  At real-time priority it waits for
  # no ordinary process.  Tests of interference itself clear HS_RT, and so
  # does HOPSPLIT_TEST_NO_RT=1 for every test.
  HS_RT=
  if [ -z "${HOPSPLIT_TEST_NO_RT:-}" ] && command -v chrt >/dev/null 2>&1 &&
    chrt -f 10 true 2>/dev/null; then
    HS_RT="chrt -f 10"
  fi
}

# hs_tidy RC: remove the run directory after a pass or skip, point to it
# otherwise.
hs_tidy() {
  [ -n "${HS_DIR:-}" ] && [ -d "$HS_DIR" ] || return 0
  case $1 in
    0 | 77) rm -rf "$HS_DIR" ;;
    *) hs_log "files of this run kept in $HS_DIR" ;;
  esac
}

# hs_track PID: kill PID when the script ends.
hs_track() {
  HS_PIDS="$HS_PIDS $1"
}

# hs_cleanup: TERM every tracked process, wait at most 5 s, then KILL.
hs_cleanup() {
  [ -n "$HS_PIDS" ] || return 0
  hs_pids=$HS_PIDS
  HS_PIDS=
  hs_stop "$hs_pids"
  wait 2>/dev/null
  return 0
}

# hs_stop PIDS: TERM exactly these processes, wait at most 5 s, then KILL
# the ones still running.
hs_stop() {
  for hs_p in $1; do
    kill -TERM "$hs_p" 2>/dev/null
  done
  hs_i=0
  while [ "$hs_i" -lt $((50 * HS_TF)) ]; do
    hs_alive=
    for hs_p in $1; do
      if hs_is_running "$hs_p"; then
        hs_alive="$hs_alive $hs_p"
      fi
    done
    [ -n "$hs_alive" ] || break
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  for hs_p in $hs_alive; do
    kill -KILL "$hs_p" 2>/dev/null
  done
  return 0
}

# hs_is_running PID: true while PID exists and is not a zombie.
hs_is_running() {
  [ -r "/proc/$1/stat" ] || { kill -0 "$1" 2>/dev/null; return; }
  hs_state=$(sed 's/^.*) \(.\).*$/\1/' "/proc/$1/stat" 2>/dev/null)
  [ -n "$hs_state" ] && [ "$hs_state" != Z ] && [ "$hs_state" != X ]
}

# hs_require TOOL...: exit 77 when a tool is missing, or fail when
# HOPSPLIT_TEST_REQUIRE is set (CI must not skip silently).
hs_require() {
  hs_have "$@" && return 0
  [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ] &&
    hs_fail "required tool(s) missing:$hs_missing"
  hs_skip "tool(s) missing:$hs_missing"
}

# hs_want TOOL...: as hs_require for a part of a test: true when every
# tool is installed, else hs_lack.
hs_want() {
  hs_have "$@" || hs_lack "tool(s) missing:$hs_missing"
}

# hs_lack MSG: something a part of the test needs is missing: fail when
# HOPSPLIT_TEST_REQUIRE is set, else say that the part is skipped and
# return 1.
hs_lack() {
  [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ] &&
    hs_fail "$* (HOPSPLIT_TEST_REQUIRE is set)"
  hs_log "SKIP (part of the test): $*"
  return 1
}

# hs_have TOOL...: true when every tool is on PATH; the others in
# $hs_missing.
hs_have() {
  hs_missing=
  for hs_t in "$@"; do
    command -v "$hs_t" >/dev/null 2>&1 || hs_missing="$hs_missing $hs_t"
  done
  [ -z "$hs_missing" ]
}

# hs_free_port: print a TCP port that was free on 127.0.0.1 a moment ago.
# Servers that cannot bind it are restarted on another one.
hs_free_port() {
  "$HS_PYTHON" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# hs_make_ca DIR: a CA and three leaf certificates, made now with the
# openssl CLI (EC P-256 keys, SHA-256):
#   server.crt   SAN origin.test other.test alias.test localhost
#                127.0.0.1 ::1, valid now
#   wrong.crt    SAN wrong.test only
#   expired.crt  valid from 2020-01-01 to 2020-02-01
# Sets CA_FILE.
hs_make_ca() {
  hs_ca=$1
  mkdir -p "$hs_ca/newcerts" || hs_fail "cannot create $hs_ca"
  : >"$hs_ca/index.txt"
  echo 1000 >"$hs_ca/serial"
  cat >"$hs_ca/openssl.cnf" <<EOF
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = hopsplit test CA
[ v3_ca ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ ca ]
default_ca = hsca
[ hsca ]
dir = $hs_ca
database = $hs_ca/index.txt
new_certs_dir = $hs_ca/newcerts
certificate = $hs_ca/ca.crt
private_key = $hs_ca/ca.key
serial = $hs_ca/serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = no
[ policy_any ]
commonName = supplied
[ leaf_server ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = DNS:origin.test, DNS:other.test, DNS:alias.test, DNS:localhost, IP:127.0.0.1, IP:::1
[ leaf_wrong ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = DNS:wrong.test
[ leaf_expired ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = DNS:origin.test, DNS:localhost, IP:127.0.0.1
EOF
  (
    cd "$hs_ca" || exit 1
    openssl req -x509 -config openssl.cnf -extensions v3_ca -newkey ec \
      -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.crt \
      -days 7 -sha256 || exit 1
    for hs_leaf in server:origin.test wrong:wrong.test expired:origin.test; do
      hs_n=${hs_leaf%%:*}
      hs_cn=${hs_leaf#*:}
      openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout "$hs_n.key" -out "$hs_n.csr" -subj "/CN=$hs_cn" || exit 1
      if [ "$hs_n" = expired ]; then
        hs_dates="-startdate 20200101000000Z -enddate 20200201000000Z"
      else
        hs_dates="-days 7"
      fi
      # shellcheck disable=SC2086
      openssl ca -batch -notext -config openssl.cnf -extensions "leaf_$hs_n" \
        $hs_dates -in "$hs_n.csr" -out "$hs_n.crt" || exit 1
    done
  ) >"$hs_ca/openssl.log" 2>&1 || {
    cat "$hs_ca/openssl.log" >&2
    hs_fail "cannot make the test certificates"
  }
  CA_FILE=$hs_ca/ca.crt
  HS_PKI=$hs_ca
  export CA_FILE
}

# hs_nginx_conf DIR: write DIR/nginx.conf for the current ports.
hs_nginx_conf() {
  hs_d=$1
  hs_user=
  [ "$(id -u)" = 0 ] && hs_user='user root;'
  hs_v6=
  if [ -n "${HS_IPV6:-}" ]; then
    hs_v6="listen [::1]:$HTTPS_PORT ssl http2;"
  fi
  # Endpoints shared by the HTTPS and the plain HTTP origin; a test adds
  # its own in DIR/locations.d/*.conf.
  mkdir -p "$hs_d/locations.d" "$hs_d/servers.d" ||
    hs_fail "cannot create $hs_d/locations.d"
  cat >"$hs_d/locations.conf" <<EOF
include $hs_d/locations.d/*.conf;
location = / { return 200 "hopsplit test origin\n"; }
location = /ok { return 200 "ok\n"; }
location = /big { default_type application/octet-stream; }
location = /redirect-same { return 302 /ok; }
location = /redirect-cross { return 302 https://other.test:$OTHER_PORT/ok; }
location = /redirect-chain { return 301 /redirect-same; }
location = /redirect-303 { return 303 /ok; }
location = /redirect-307 { return 307 /ok; }
location = /redirect-308 { return 308 /ok; }
location = /loop-a { return 302 /loop-b; }
location = /loop-b { return 302 /loop-a; }
location = /to-file { return 302 file:///etc/passwd; }
location = /nostore {
  add_header Cache-Control "no-store" always;
  return 200 "not stored\n";
}
location = /cacheable {
  add_header Cache-Control "public, max-age=3600" always;
  return 200 "cache me\n";
}
# CDN mimics (issue 3): a Cloudflare edge in HKG that bypasses its cache
# for a 302 to signed storage on another origin, its /cdn-cgi/trace (a
# client in KR), and a CloudFront edge in ICN that hits.
location = /files/42.jpg {
  add_header Cache-Control "no-store" always;
  add_header cf-cache-status "BYPASS" always;
  add_header cf-ray "8f1c2a3b4c5d6e7f-HKG" always;
  return 302 https://other.test:$OTHER_PORT/b/42.jpg?X-Amz-Credential=AKIDEXAMPLE&X-Amz-Signature=0123abcd;
}
location = /cdn-cgi/trace {
  return 200 "fl=123f45\nh=origin.test\nip=203.0.113.9\nts=1764470000.123\nvisit_scheme=https\nuag=hopsplit\ncolo=HKG\nsliver=none\nhttp=http/2\nloc=KR\ntls=TLSv1.3\nsni=plaintext\nwarp=off\ngateway=off\nrbi=off\nkex=X25519\n";
}
location = /thumb/42.jpg {
  add_header Cache-Control "public, max-age=86400" always;
  add_header x-cache "Hit from cloudfront" always;
  add_header via "1.1 1a2b3c.cloudfront.net (CloudFront)" always;
  add_header x-amz-cf-pop "ICN54-P1" always;
  add_header age "120" always;
  return 200 "thumbnail\n";
}
# Request bodies (issue 18): /echo reads the body (nginx keeps it for
# $request_body only when it proxies), the post-* redirects lead to it.
location = /echo { proxy_pass http://127.0.0.1:$HTTP_PORT/ok; }
location = /post-301 { return 301 /echo; }
location = /post-302 { return 302 /echo; }
location = /post-303 { return 303 /echo; }
location = /post-307 { return 307 /echo; }
location = /post-308 { return 308 /echo; }
location = /status/500 { return 500 "server error\n"; }
location = /status/404 { return 404 "not found\n"; }
location / { return 404 "not found\n"; }
EOF
  cat >"$hs_d/nginx.conf" <<EOF
$hs_user
daemon off;
master_process on;
worker_processes 1;
pid $hs_d/nginx.pid;
error_log $hs_d/error.log info;
events { worker_connections 256; }
http {
  # One line per request, with what the tests check was (not) sent.
  log_format hs '\$server_port \$request_method \$request_uri'
                ' auth=[\$http_authorization] cookie=[\$http_cookie]'
                ' ua=[\$http_user_agent] x=[\$http_x_test]'
                ' ct=[\$http_content_type] cl=[\$http_content_length]'
                ' accept=[\$http_accept] body=[\$request_body]';
  access_log $hs_d/access.log hs;
  # When each request ended (epoch seconds) and how long it took: which
  # requests were served at the same time (integration/parallel).
  log_format hstime '\$msec \$request_time \$server_port \$request_uri';
  access_log $hs_d/timing.log hstime;
  # Who asked for which name (NAMES_LOG): the client's address, the TLS
  # SNI and the Host (or :authority) nginx read.
  log_format hsnames '\$remote_addr \$server_port \$request_method'
                     ' \$request_uri sni=[\$ssl_server_name] host=[\$http_host]'
                     ' proto=[\$server_protocol] ua=[\$http_user_agent]';
  access_log $hs_d/names.log hsnames;
  client_body_temp_path $hs_d/tmp/body;
  proxy_temp_path $hs_d/tmp/proxy;
  fastcgi_temp_path $hs_d/tmp/fastcgi;
  uwsgi_temp_path $hs_d/tmp/uwsgi;
  scgi_temp_path $hs_d/tmp/scgi;
  default_type text/plain;
  root $hs_d/www;
  absolute_redirect off;
  server_tokens off;
  keepalive_timeout 120s;
  keepalive_requests 100000;
  http2_max_requests 100000;
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:hopsplit:1m;
  ssl_session_timeout 10m;
  ssl_session_tickets on;
  ssl_certificate $HS_PKI/server.crt;
  ssl_certificate_key $HS_PKI/server.key;

  # A test's own servers (DIR/servers.d/*.conf).
  include $hs_d/servers.d/*.conf;
  server {
    listen 127.0.0.1:$HTTPS_PORT ssl http2;
    $hs_v6
    server_name origin.test alias.test localhost;
    include $hs_d/locations.conf;
  }
  server {
    listen 127.0.0.1:$HTTP_PORT;
    server_name origin.test alias.test localhost;
    include $hs_d/locations.conf;
  }
  server {
    listen 127.0.0.1:$OTHER_PORT ssl http2;
    server_name other.test;
    location = /ok { return 200 "other ok\n"; }
    # Signed storage of the issue-3 case: a 64 KiB image.
    location = /b/42.jpg {
      default_type image/jpeg;
      alias $hs_d/www/big;
    }
    location / { return 404 "not found\n"; }
  }
  server {
    listen 127.0.0.1:$WRONG_PORT ssl;
    server_name _;
    ssl_certificate $HS_PKI/wrong.crt;
    ssl_certificate_key $HS_PKI/wrong.key;
    location / { return 200 "wrong name\n"; }
  }
  server {
    listen 127.0.0.1:$EXPIRED_PORT ssl;
    server_name _;
    ssl_certificate $HS_PKI/expired.crt;
    ssl_certificate_key $HS_PKI/expired.key;
    location / { return 200 "expired\n"; }
  }
}
EOF
}

# hs_curl ARGS...: curl for readiness checks: no ~/.curlrc (-q, first),
# quiet, bounded, no proxy.
hs_curl() {
  curl -q -sS -f -o /dev/null --max-time 2 --noproxy '*' \
    --cacert "$CA_FILE" "$@"
}

# hs_origin_curl ARGS...: real curl as the tests' reference client of
# origin.test on the test nginx (pinned to loopback, the test CA, no proxy).
hs_origin_curl() {
  curl -q -s --max-time $((5 * HS_TF)) --noproxy '*' --cacert "$CA_FILE" \
    --resolve "origin.test:$HTTPS_PORT:127.0.0.1" "$@"
}

# hs_json_mutate SRC DST EXPR: DST is the JSON document SRC after the Python
# statement EXPR ran on d (a dict; ok: its successful samples, h: the first
# hop of the first of them, or None).
hs_json_mutate() {
  "$HS_PYTHON" - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ok = [s for s in d.get("samples", []) if s.get("ok")]
h = ok[0]["hops"][0] if ok and ok[0].get("hops") else None
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d))
EOF
}

# hs_nginx_ready: every port answers as it should.
hs_nginx_ready() {
  hs_curl --resolve "origin.test:$HTTPS_PORT:127.0.0.1" \
    "https://origin.test:$HTTPS_PORT/ok" &&
    hs_curl "http://127.0.0.1:$HTTP_PORT/ok" &&
    hs_curl --resolve "other.test:$OTHER_PORT:127.0.0.1" \
      "https://other.test:$OTHER_PORT/ok" &&
    hs_curl -k "https://127.0.0.1:$WRONG_PORT/" &&
    hs_curl -k "https://127.0.0.1:$EXPIRED_PORT/"
}

# hs_nginx_slow DIR: before hs_start_nginx DIR, a location /slow/ on
# every origin that sends 500 bytes at 500 bytes/s (nginx's limit_rate
# spreads them over about a second).
hs_nginx_slow() {
  mkdir -p "$1/locations.d" "$1/www" ||
    hs_fail "cannot create the nginx directories"
  head -c 500 /dev/urandom >"$1/www/slow.bin" ||
    hs_fail "cannot write slow.bin"
  cat >"$1/locations.d/slow.conf" <<EOC
location ^~ /slow/ {
  default_type application/octet-stream;
  limit_rate 500;
  rewrite ^ /slow.bin break;
}
EOC
}

# hs_start_nginx DIR: start nginx (needs hs_make_ca first) in the
# foreground of a background job; retry on other ports if one was taken.
hs_start_nginx() {
  hs_d=$1
  [ -n "${HS_PKI:-}" ] || hs_fail "hs_start_nginx: call hs_make_ca first"
  mkdir -p "$hs_d/tmp" "$hs_d/www" || hs_fail "cannot create $hs_d"
  # /big: 64 KiB of incompressible bytes, made at start.
  head -c 65536 /dev/urandom >"$hs_d/www/big" || hs_fail "cannot write /big"
  HS_IPV6=
  if grep -q '00000000000000000000000000000001' /proc/net/if_inet6 \
    2>/dev/null; then
    HS_IPV6=1
  fi
  hs_try=0
  while [ "$hs_try" -lt 5 ]; do
    hs_try=$((hs_try + 1))
    if ! { HTTPS_PORT=$(hs_free_port) && HTTP_PORT=$(hs_free_port) &&
      OTHER_PORT=$(hs_free_port) && WRONG_PORT=$(hs_free_port) &&
      EXPIRED_PORT=$(hs_free_port); }; then
      hs_fail "no free port"
    fi
    hs_nginx_conf "$hs_d"
    : >"$hs_d/error.log"
    nginx -p "$hs_d" -c "$hs_d/nginx.conf" -e "$hs_d/error.log" \
      </dev/null >"$hs_d/nginx.out" 2>&1 &
    hs_pid=$!
    hs_track "$hs_pid"
    hs_i=0
    while [ "$hs_i" -lt $((100 * HS_TF)) ]; do
      hs_is_running "$hs_pid" || break
      if hs_nginx_ready >/dev/null 2>&1; then
        export HTTPS_PORT HTTP_PORT OTHER_PORT WRONG_PORT EXPIRED_PORT
        NGINX_PID=$hs_pid
        NGINX_LOG=$hs_d/access.log
        NAMES_LOG=$hs_d/names.log
        export NGINX_PID NGINX_LOG NAMES_LOG
        # nginx logs a request after answering it: the readiness requests'
        # lines must be in before a test empties the log and counts lines.
        hs_nginx_barrier
        return 0
      fi
      sleep 0.1
      hs_i=$((hs_i + 1))
    done
    if hs_is_running "$hs_pid"; then
      cat "$hs_d/error.log" "$hs_d/nginx.out" >&2
      hs_fail "nginx started but does not answer"
    fi
    if ! grep -q 'in use' "$hs_d/error.log" "$hs_d/nginx.out"; then
      cat "$hs_d/error.log" "$hs_d/nginx.out" >&2
      hs_fail "nginx did not start"
    fi
    hs_log "nginx: port taken, retrying"
  done
  hs_fail "nginx: no free ports after $hs_try tries"
}

# hs_caddy_conf DIR ADDR:PORT: write DIR/caddy.json (hs_start_caddy): h1,
# h2 and h3 on ADDR:PORT with the test CA's server certificate, files from
# DIR/www, the JSON access log DIR/access.log.
hs_caddy_conf() {
  hs_cd=$1
  hs_listen=$2
  cat >"$hs_cd/caddy.json" <<EOF
{
  "admin": {"disabled": true},
  "storage": {"module": "file_system", "root": "$hs_cd/data"},
  "logging": {"logs": {
    "default": {"level": "ERROR"},
    "access": {"writer": {"output": "file", "filename": "$hs_cd/access.log"},
               "encoder": {"format": "json"}, "include": ["http.log.access"]}}},
  "apps": {
    "http": {"servers": {"h3": {
      "listen": ["$hs_listen"],
      "protocols": ["h1", "h2", "h3"],
      "automatic_https": {"disable": true},
      "logs": {"default_logger_name": "access"},
      "tls_connection_policies": [{}],
      "routes": [{"handle": [{"handler": "file_server",
                              "root": "$hs_cd/www"}]}]}}},
    "tls": {"certificates": {"load_files": [
      {"certificate": "$HS_PKI/server.crt", "key": "$HS_PKI/server.key"}]}}
  }
}
EOF
}

# hs_start_caddy DIR: Debian's caddy (2.6) on 127.0.0.1:$CADDY_PORT with the
# test CA's server certificate (hs_make_ca first): HTTP/1.1 and HTTP/2
# over TCP and HTTP/3 over UDP on the same port number, Alt-Svc: h3
# advertised by caddy itself; / answers "ok", /big 64 KiB.  Every request
# goes to $CADDY_LOG, caddy's JSON access log (its request.proto is the
# truth of the protocol each request used).  No admin endpoint, no
# automatic HTTPS, no storage outside DIR.
hs_start_caddy() {
  hs_d=$1
  [ -n "${HS_PKI:-}" ] || hs_fail "hs_start_caddy: call hs_make_ca first"
  mkdir -p "$hs_d/www" "$hs_d/data" "$hs_d/config" ||
    hs_fail "cannot create $hs_d"
  printf 'ok\n' >"$hs_d/www/index.html"
  head -c 65536 /dev/urandom >"$hs_d/www/big" || hs_fail "cannot write /big"
  hs_try=0
  while [ "$hs_try" -lt 5 ]; do
    hs_try=$((hs_try + 1))
    CADDY_PORT=$(hs_free_port) || hs_fail "no free port"
    CADDY_LOG=$hs_d/access.log
    : >"$CADDY_LOG"
    hs_caddy_conf "$hs_d" "127.0.0.1:$CADDY_PORT"
    HOME=$hs_d XDG_DATA_HOME=$hs_d/data XDG_CONFIG_HOME=$hs_d/config \
      caddy run --config "$hs_d/caddy.json" </dev/null >"$hs_d/caddy.out" 2>&1 &
    hs_pid=$!
    hs_track "$hs_pid"
    hs_i=0
    while [ "$hs_i" -lt $((100 * HS_TF)) ]; do
      hs_is_running "$hs_pid" || break
      if curl -s -o /dev/null --max-time 2 --cacert "$CA_FILE" \
        --resolve "origin.test:$CADDY_PORT:127.0.0.1" \
        "https://origin.test:$CADDY_PORT/" 2>/dev/null; then
        CADDY_PID=$hs_pid
        export CADDY_PORT CADDY_LOG CADDY_PID
        # The readiness request's line must be in before a test reads.
        hs_j=0
        while [ "$hs_j" -lt $((50 * HS_TF)) ] && [ ! -s "$CADDY_LOG" ]; do
          sleep 0.1
          hs_j=$((hs_j + 1))
        done
        return 0
      fi
      sleep 0.1
      hs_i=$((hs_i + 1))
    done
    if hs_is_running "$hs_pid"; then
      cat "$hs_d/caddy.out" >&2
      hs_fail "caddy started but does not answer"
    fi
    if ! grep -q 'in use' "$hs_d/caddy.out"; then
      cat "$hs_d/caddy.out" >&2
      hs_fail "caddy did not start"
    fi
    hs_log "caddy: port taken, retrying"
  done
  hs_fail "caddy: no free port after $hs_try tries"
}

# hs_h3_caddy DIR: the set-up of an HTTP/3 test.  Skipped (77) when
# hopsplit -V names no libcurl-gnutls with HTTP3; else hs_make_ca in
# $HS_DIR/pki and hs_start_caddy DIR, and H3_URL, H3_RESOLVE (origin.test
# at caddy's port on 127.0.0.1, for --resolve).
hs_h3_caddy() {
  hs_require caddy openssl python3 curl
  hs_run 0 -V
  grep -q '^HTTP/3: libcurl-gnutls/.*HTTP3' "$HS_OUT" ||
    hs_skip "no HTTP/3 library: $(grep '^HTTP/3' "$HS_OUT")"
  hs_make_ca "$HS_DIR/pki"
  hs_start_caddy "$1"
  H3_URL="https://origin.test:$CADDY_PORT/"
  H3_RESOLVE="origin.test:$CADDY_PORT:127.0.0.1"
}

# hs_start_dnsmasq DIR: dnsmasq on 127.0.0.1:$DNS_PORT answering only for
# .test: origin.test and other.test A 127.0.0.1 (no AAAA), v6only.test
# AAAA ::1 (no A), dual.test both, alias.test CNAME origin.test, every
# other .test name NXDOMAIN, TTL 300; no upstream.
hs_start_dnsmasq() {
  hs_d=$1
  mkdir -p "$hs_d" || hs_fail "cannot create $hs_d"
  hs_try=0
  while [ "$hs_try" -lt 5 ]; do
    hs_try=$((hs_try + 1))
    DNS_PORT=$(hs_free_port) || hs_fail "no free port"
    dnsmasq --no-daemon --conf-file=/dev/null --no-resolv --no-hosts \
      --no-poll --bind-interfaces --listen-address=127.0.0.1 \
      --port="$DNS_PORT" --local=/test/ --domain-needed \
      --host-record=origin.test,127.0.0.1 \
      --host-record=other.test,127.0.0.1 \
      --host-record=v6only.test,::1 \
      --host-record=dual.test,127.0.0.1,::1 \
      --cname=alias.test,origin.test --local-ttl=300 \
      --log-queries --log-facility=- \
      </dev/null >"$hs_d/dnsmasq.log" 2>&1 &
    hs_pid=$!
    hs_track "$hs_pid"
    hs_i=0
    while [ "$hs_i" -lt $((100 * HS_TF)) ]; do
      hs_is_running "$hs_pid" || break
      if "$HS_PYTHON" "$HS_LIB_DIR/dnsq.py" --expect 127.0.0.1 "$DNS_PORT" \
        origin.test A >/dev/null 2>&1; then
        export DNS_PORT
        DNSMASQ_PID=$hs_pid
        export DNSMASQ_PID
        return 0
      fi
      sleep 0.1
      hs_i=$((hs_i + 1))
    done
    if hs_is_running "$hs_pid" ||
      ! grep -q 'in use' "$hs_d/dnsmasq.log"; then
      cat "$hs_d/dnsmasq.log" >&2
      hs_fail "dnsmasq did not start or does not answer"
    fi
    hs_log "dnsmasq: port taken, retrying"
  done
  hs_fail "dnsmasq: no free port after $hs_try tries"
}

# hs_start_tcp MODE DIR: a python3 server on a port it picks itself
# (no race), misbehaving as MODE says (see tcpserver.py); sets TCP_PORT.
# Several may run at once: each call overwrites TCP_PORT.
hs_start_tcp() {
  hs_m=$1
  hs_d=$2
  mkdir -p "$hs_d" || hs_fail "cannot create $hs_d"
  rm -f "$hs_d/$hs_m.port"
  "$HS_PYTHON" "$HS_LIB_DIR/tcpserver.py" "$hs_m" "$hs_d/$hs_m.port" \
    $((90 * HS_TF)) </dev/null >"$hs_d/$hs_m.log" 2>&1 &
  hs_pid=$!
  hs_track "$hs_pid"
  hs_i=0
  while [ "$hs_i" -lt $((100 * HS_TF)) ] && [ ! -s "$hs_d/$hs_m.port" ]; do
    hs_is_running "$hs_pid" || break
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  [ -s "$hs_d/$hs_m.port" ] || {
    cat "$hs_d/$hs_m.log" >&2
    hs_fail "tcpserver $hs_m did not start"
  }
  TCP_PORT=$(cat "$hs_d/$hs_m.port")
  export TCP_PORT
}

# hs_tcp_untouched DIR MODE MSG: fail with MSG when the tcpserver MODE
# started in DIR was connected to.  The positive signal first: a
# connection of the test's own, waited for in the log; the server logs
# connections in the order it accepts them, so one made before it would
# be logged by then.
hs_tcp_untouched() {
  hs_log_f=$1/$2.log
  hs_port=$("$HS_PYTHON" -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 5)
print(s.getsockname()[1])
s.close()' "$(cat "$1/$2.port")") || hs_fail "tcpserver $2 does not accept"
  hs_i=0
  until grep -q "connection from 127\.0\.0\.1:$hs_port\$" "$hs_log_f"; do
    [ "$hs_i" -ge $((50 * HS_TF)) ] &&
      hs_fail "tcpserver $2 never logged the test's own connection"
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  if grep 'connection from' "$hs_log_f" |
    grep -qv "connection from 127\.0\.0\.1:$hs_port\$"; then
    cat "$hs_log_f" >&2
    hs_fail "$3"
  fi
}

# hs_run RC ARGS...: run "$HOPSPLIT" ARGS (bounded by 30 s x $HS_TF), stdout to
# $HS_OUT and stderr to $HS_ERR (fresh files per run); fail unless it exits
# with RC.  The command line is kept in $HS_CMD for messages, the wall
# time in $HS_ELAPSED_MS (for checking that limits bound a run, never for
# checking measurements).
hs_run() {
  hs_want=$1
  shift
  HS_RUNS=$((HS_RUNS + 1))
  HS_OUT=$HS_DIR/run$HS_RUNS.out
  HS_ERR=$HS_DIR/run$HS_RUNS.err
  HS_CMD="hopsplit $*"
  printf '%s\n' "$HS_CMD" >"$HS_DIR/run$HS_RUNS.cmd"
  hs_t0=$(date +%s%N)
  # shellcheck disable=SC2086 # HS_RT is a command and its arguments, or empty
  timeout -k 5 $((30 * HS_TF)) $HS_RT "$HOPSPLIT" "$@" </dev/null >"$HS_OUT" 2>"$HS_ERR"
  HS_RC=$?
  HS_ELAPSED_MS=$((($(date +%s%N) - hs_t0) / 1000000))
  if [ "$HS_RC" != "$hs_want" ]; then
    hs_show
    hs_fail "exit status $HS_RC, expected $hs_want: $HS_CMD"
  fi
}

# hs_show: the last command, its stderr and the head of its stdout.
hs_show() {
  {
    printf '$ %s\n[exit %s]\n--- stderr:\n' "$HS_CMD" "$HS_RC"
    head -c 4000 "$HS_ERR"
    printf -- '--- stdout (head):\n'
    head -c 4000 "$HS_OUT"
    printf -- '\n---\n'
  } >&2
}

# hs_logged N ERE: nginx's access log has N lines matching ERE.  nginx
# writes the line when it finalises the request, which can be after the
# client has its response, so wait for it (at most 3 s).  For N = 0,
# hs_nginx_barrier first proves that nothing is still to come.
hs_logged() {
  hs_want=$1
  [ "$hs_want" = 0 ] && hs_nginx_barrier
  hs_i=0
  while :; do
    hs_n=$(grep -cE -e "$2" "$NGINX_LOG")
    [ "$hs_n" = "$hs_want" ] && return 0
    [ "$hs_i" -ge $((30 * HS_TF)) ] && break
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  cat "$NGINX_LOG" >&2
  hs_fail "access log: '$2' $hs_n times, expected $hs_want: $HS_CMD"
}

# hs_what_logged FILE: the access log, once a barrier request proves it
# complete, without the barrier and the User-Agent (curl's and hopsplit's
# differ by design), into FILE; then the log is emptied.
hs_what_logged() {
  hs_nginx_barrier
  grep -v ' /hs-barrier-[0-9]* ' "$NGINX_LOG" |
    sed 's/ ua=\[[^]]*\]//' >"$1"
  : >"$NGINX_LOG"
}

# hs_nginx_barrier: a request of the test's own (GET /hs-barrier-TIME on
# $HTTP_PORT), waited for in the access log.  nginx (one worker) logs a
# request when it finishes it, in order, so once this line is there every
# request that ended before it is logged too: the positive signal before
# a check that something was NOT requested.
hs_nginx_barrier() {
  hs_b=hs-barrier-$(date +%s%N)
  curl -q -sS -o /dev/null --max-time $((5 * HS_TF)) --noproxy '*' \
    "http://127.0.0.1:$HTTP_PORT/$hs_b" ||
    hs_fail "nginx does not answer the barrier request"
  hs_i=0
  until grep -qF " /$hs_b " "$NGINX_LOG"; do
    [ "$hs_i" -ge $((50 * HS_TF)) ] && hs_fail "nginx never logged /$hs_b"
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
}

# hs_nginx_log_clear: empty the access log once a barrier request proves
# every earlier request logged: nginx logs a request after it has sent the
# response, so a client that has already exited may not be there yet (a
# line of the run before then lands after the emptying: curl_flags, CI
# of stop 42 under ASan).
hs_nginx_log_clear() {
  hs_nginx_barrier
  : >"$NGINX_LOG"
}

# hs_nothing_logged MSG: after hs_nginx_barrier, the access log holds no
# line but the barriers' (the test emptied it before); else fail with MSG.
hs_nothing_logged() {
  hs_nginx_barrier
  if grep -v ' /hs-barrier-[0-9]* ' "$NGINX_LOG" | grep -q .; then
    cat "$NGINX_LOG" >&2
    hs_fail "$1"
  fi
}

# hs_elapsed_below MS: the last run took less than MS (x $HS_TF)
# milliseconds.
hs_elapsed_below() {
  [ "$HS_ELAPSED_MS" -lt $(($1 * HS_TF)) ] || {
    hs_show
    hs_fail "took $HS_ELAPSED_MS ms, limit $(($1 * HS_TF)) ms: $HS_CMD"
  }
}

# hs_jcheck [--file F] [jcheck.py options] EXPR...: assertions on the JSON
# document of the last run (or F); prints both sides of a failed comparison.
hs_jcheck() {
  hs_f=$HS_OUT
  if [ "${1:-}" = --file ]; then
    hs_f=$2
    shift 2
  fi
  "$HS_PYTHON" "$HS_LIB_DIR/jcheck.py" "$hs_f" "$@" ||
    hs_fail "JSON check failed for: $HS_CMD"
}

# hs_grep_err PATTERN...: stderr of the last run matches every extended
# regular expression (case-insensitive).
hs_grep_err() {
  for hs_p in "$@"; do
    grep -qiE -e "$hs_p" "$HS_ERR" || {
      hs_show
      hs_fail "stderr does not match '$hs_p': $HS_CMD"
    }
  done
}

# hs_empty_out: stdout of the last run is empty.
hs_empty_out() {
  [ ! -s "$HS_OUT" ] || {
    hs_show
    hs_fail "stdout is not empty: $HS_CMD"
  }
}
