# tests/server/servers.sh: real servers from Debian beside nginx, for the
# integration tests of issue 17 (POSIX sh).  Source it after lib.sh and
# hs_init; every server runs in the foreground of a background job, on free
# loopback ports, with a configuration, logs and state made now inside
# $HS_DIR, and is killed by its id when the script ends (hs_track).
#
#   sv_make_cert            hs_make_ca, then a leaf whose SANs cover every
#                           name of the NSD zone ($SV_CRT, $SV_KEY)
#   sv_start_apache DIR     Apache httpd 2.4, mod_ssl + mod_http2
#   sv_start_h2o DIR        h2o 2.2
#   sv_start_lighttpd DIR B lighttpd 1.4 with mod_openssl (B=openssl) or
#                           mod_gnutls (B=gnutls)
#   sv_start_nginx DIR      nginx with a TLS log, a second port that
#                           listens on 127.0.0.1 only and closes idle
#                           connections after 1 s, a third that sends
#                           tickets it never accepts back, a fourth (TLS
#                           1.2) that gives out no session at all
#   sv_start_nsd DIR        NSD, authoritative for test. (zone below)
#   sv_start_unbound DIR M  unbound: M=resolve (recursor for test., stub to
#                           NSD, refuses everything else) or M=refuse
#                           (REFUSED to every query, as a locked resolver)
#   sv_pcap_start FILE FILTER / sv_pcap_stop   tcpdump on lo (root)
#   sv_tls_filter PORT...   capture filter for TLS handshakes on the ports
#   sv_tlsscan FILE [PORT]  one line per TLS connection (tlsscan.py)
#   sv_sclient PORT ALPN [ARGS]  one openssl s_client exchange: New/Reused
#   sv_wait_log FILE N ERE  FILE has N lines matching ERE (waits 3 s)
#   sv_has_ipv6             ::1 is configured
#
# HTTPS servers (each with its own port, both on 127.0.0.1 and, when ::1
# exists, on [::1]) serve /ok ("ok\n") and /redirect-same (302 to /ok),
# HTTP/2 by ALPN beside HTTP/1.1, TLS 1.2 and 1.3, session tickets on
# (every server's default).  Exported: APACHE_PORT APACHE_LOG, H2O_PORT
# H2O_LOG, LT_OPENSSL_PORT LT_OPENSSL_LOG, LT_GNUTLS_PORT LT_GNUTLS_LOG,
# NGINX_TLS_PORT NGINX_V4_PORT NGINX_NORESUME_PORT NGINX_NOSESSION_PORT
# NGINX_TLS_LOG, NSD_PORT, UNBOUND_PORT,
# REFUSER_PORT.  Every access log line begins "CLIENT_IP CLIENT_PORT
# PROTOCOL STATUS PATH" and then has "resumed=X" where the server can
# tell (Apache: Initial/Resumed, h2o: 0/1, nginx: ./r; lighttpd logs no
# TLS facts, the pcap is its ground truth).
#
# The zone test. (TTL 300): origin.test A 127.0.0.1; dual.test A 127.0.0.1
# and AAAA ::1; v4srv.test A 127.0.0.1 and AAAA ::1 (for the port that
# listens on 127.0.0.1 only); v6only.test AAAA ::1; c1.test CNAME c2.test
# CNAME c3.test CNAME dual.test; txtonly.test TXT only (no address);
# nosuch.test and the rest NXDOMAIN; x.broken.test SERVFAIL (a zone NSD
# cannot load); names outside test. REFUSED.  Nothing is sent off
# loopback: unbound only knows the stub zone and sends from 127.0.0.1.

SV_NAMES="origin.test dual.test v4srv.test v6only.test c1.test c2.test c3.test"

# sv_has_ipv6: the loopback has ::1.
sv_has_ipv6() {
  grep -q '00000000000000000000000000000001' /proc/net/if_inet6 2>/dev/null
}

# sv_free_port: a TCP and UDP port free on 127.0.0.1 (and ::1 when it
# exists) a moment ago.
sv_free_port() {
  "$HS_PYTHON" -c 'import socket, sys
v6 = len(sys.argv) > 1
for _ in range(50):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    held = [s]
    try:
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind(("127.0.0.1", port))
        held.append(u)
        if v6:
            t6 = socket.socket(socket.AF_INET6)
            t6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            t6.bind(("::1", port))
            held.append(t6)
    except OSError:
        continue
    finally:
        for h in held:
            h.close()
    print(port)
    break' ${1:+v6}
}

# sv_make_cert: the CA of lib.sh and a leaf for every name of the zone,
# 127.0.0.1 and ::1 (EC P-256, SHA-256, valid 7 days).
sv_make_cert() {
  hs_make_ca "$HS_DIR/pki"
  sv_san=
  for sv_n in $SV_NAMES localhost; do
    sv_san="${sv_san:+$sv_san, }DNS:$sv_n"
  done
  cat >"$HS_PKI/names.ext" <<EOF
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = $sv_san, IP:127.0.0.1, IP:::1
EOF
  (
    cd "$HS_PKI" || exit 1
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
      -keyout names.key -out names.csr -subj "/CN=origin.test" &&
      openssl x509 -req -in names.csr -CA ca.crt -CAkey ca.key \
        -CAcreateserial -days 7 -sha256 -extfile names.ext -out names.crt
  ) >"$HS_PKI/names.log" 2>&1 || {
    cat "$HS_PKI/names.log" >&2
    hs_fail "cannot make the certificate for the zone's names"
  }
  SV_CRT=$HS_PKI/names.crt
  SV_KEY=$HS_PKI/names.key
  # Servers that drop privileges read the key after the switch.
  chmod 644 "$SV_CRT" "$SV_KEY" "$HS_PKI/ca.crt"
  chmod 711 "$HS_PKI"
  export SV_CRT SV_KEY
}

# sv_docroot DIR: DIR/www with /ok, readable by an unprivileged worker.
sv_docroot() {
  mkdir -p "$1/www" || hs_fail "cannot create $1/www"
  printf 'ok\n' >"$1/www/ok"
  chmod 755 "$1" "$1/www"
  chmod 644 "$1/www/ok"
  # Workers that run as another user must get through the run directory.
  chmod 711 "$HS_DIR"
}

# sv_ready PORT [v6]: /ok answers over HTTPS on 127.0.0.1 (and ::1).
sv_ready() {
  hs_curl --resolve "origin.test:$1:127.0.0.1" "https://origin.test:$1/ok" ||
    return 1
  [ -z "${2:-}" ] && return 0
  hs_curl --resolve "origin.test:$1:[::1]" "https://origin.test:$1/ok"
}

# sv_launch NAME DIR READY_CMD CMD...: start CMD in the background, output
# to DIR/NAME.out, and wait (10 s at most) until READY_CMD succeeds.
# READY_CMD is evaluated each time, so its $VARIABLES are written quoted.
# Returns 1 when the server exited (port taken?), fails otherwise.
sv_launch() {
  sv_name=$1
  sv_dir=$2
  sv_readycmd=$3
  shift 3
  "$@" </dev/null >"$sv_dir/$sv_name.out" 2>&1 &
  sv_pid=$!
  hs_track "$sv_pid"
  sv_i=0
  while [ "$sv_i" -lt 100 ]; do
    hs_is_running "$sv_pid" || return 1
    if eval "$sv_readycmd" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
    sv_i=$((sv_i + 1))
  done
  cat "$sv_dir/$sv_name.out" >&2
  hs_fail "$sv_name started but does not answer"
}

# sv_retry NAME DIR CONF_FN READY_CMD CMD...: pick a port (SV_PORT), write
# the configuration with CONF_FN, start; up to 5 tries when it exits.
sv_retry() {
  sv_rname=$1
  sv_rdir=$2
  sv_conf=$3
  sv_rready=$4
  shift 4
  sv_v6=
  sv_has_ipv6 && sv_v6=1
  sv_try=0
  while [ "$sv_try" -lt 5 ]; do
    sv_try=$((sv_try + 1))
    SV_PORT=$(sv_free_port $sv_v6) || hs_fail "no free port"
    SV_PORT2=$(sv_free_port $sv_v6) || hs_fail "no free port"
    SV_PORT3=$(sv_free_port $sv_v6) || hs_fail "no free port"
    SV_PORT4=$(sv_free_port $sv_v6) || hs_fail "no free port"
    "$sv_conf" "$sv_rdir"
    sv_launch "$sv_rname" "$sv_rdir" "$sv_rready" "$@" && return 0
    hs_log "$sv_rname exited (port taken?), retrying:"
    tail -n 5 "$sv_rdir/$sv_rname.out" "$sv_rdir"/*.log 2>/dev/null >&2
  done
  hs_fail "$sv_rname did not start after $sv_try tries"
}

# --- Apache httpd -----------------------------------------------------
sv_apache_conf() {
  sv_d=$1
  sv_user=
  if [ "$(id -u)" = 0 ]; then
    sv_user="User www-data
Group www-data"
  fi
  sv_listen6=
  [ -n "$sv_v6" ] && sv_listen6="Listen [::1]:$SV_PORT"
  sv_m=/usr/lib/apache2/modules
  cat >"$sv_d/httpd.conf" <<EOF
ServerRoot $sv_d
DefaultRuntimeDir $sv_d/run
PidFile $sv_d/run/httpd.pid
Mutex file:$sv_d/run default
ServerName origin.test
LoadModule mpm_event_module $sv_m/mod_mpm_event.so
LoadModule authz_core_module $sv_m/mod_authz_core.so
LoadModule mime_module $sv_m/mod_mime.so
LoadModule alias_module $sv_m/mod_alias.so
LoadModule socache_shmcb_module $sv_m/mod_socache_shmcb.so
LoadModule ssl_module $sv_m/mod_ssl.so
LoadModule http2_module $sv_m/mod_http2.so
$sv_user
StartServers 1
ServerLimit 1
ThreadsPerChild 16
MaxRequestWorkers 16
MinSpareThreads 1
MaxSpareThreads 16
ErrorLog $sv_d/error.log
LogLevel warn
LogFormat "%a %{remote}p %H %>s %U resumed=%{SSL_SESSION_RESUMED}x tls=%{SSL_PROTOCOL}x" hs
CustomLog $sv_d/access.log hs
TypesConfig /etc/mime.types
Listen 127.0.0.1:$SV_PORT
$sv_listen6
SSLSessionCache shmcb:$sv_d/run/ssl_scache(512000)
SSLSessionTickets on
SSLProtocol -all +TLSv1.2 +TLSv1.3
KeepAliveTimeout 120
MaxKeepAliveRequests 0
<VirtualHost *:$SV_PORT>
  ServerName origin.test
  ServerAlias *
  Protocols h2 http/1.1
  SSLEngine on
  SSLCertificateFile $SV_CRT
  SSLCertificateKeyFile $SV_KEY
  DocumentRoot $sv_d/www
  <Directory $sv_d/www>
    Require all granted
  </Directory>
  Redirect 302 /redirect-same /ok
</VirtualHost>
EOF
}

sv_start_apache() {
  hs_require apache2
  [ -f /usr/lib/apache2/modules/mod_http2.so ] ||
    hs_require apache2-mod_http2
  mkdir -p "$1/run" || hs_fail "cannot create $1"
  sv_docroot "$1"
  # shellcheck disable=SC2016 # expanded by sv_launch's eval
  sv_retry apache "$1" sv_apache_conf 'sv_ready $SV_PORT $sv_v6' \
    apache2 -f "$1/httpd.conf" -DFOREGROUND
  APACHE_PORT=$SV_PORT
  APACHE_LOG=$1/access.log
  export APACHE_PORT APACHE_LOG
}

# --- h2o --------------------------------------------------------------
sv_h2o_conf() {
  sv_d=$1
  sv_user=
  [ "$(id -u)" = 0 ] && sv_user="user: root"
  sv_listen6=
  if [ -n "$sv_v6" ]; then
    sv_listen6="listen:
  host: \"::1\"
  port: $SV_PORT
  ssl: *ssl"
  fi
  cat >"$sv_d/h2o.conf" <<EOF
$sv_user
pid-file: $sv_d/h2o.pid
error-log: $sv_d/error.log
num-threads: 1
http1-request-timeout: 120
http2-idle-timeout: 120
listen:
  host: 127.0.0.1
  port: $SV_PORT
  ssl: &ssl
    certificate-file: $SV_CRT
    key-file: $SV_KEY
    minimum-version: TLSv1.2
    ocsp-update-interval: 0
$sv_listen6
hosts:
  default:
    paths:
      /:
        file.dir: $sv_d/www
      /redirect-same:
        redirect:
          url: /ok
          status: 302
    access-log:
      path: $sv_d/access.log
      format: "%h %{remote}p %H %s %U resumed=%{ssl.session-reused}x tls=%{ssl.protocol-version}x conn=%{connection-id}x"
EOF
}

sv_start_h2o() {
  hs_require h2o
  sv_docroot "$1"
  # shellcheck disable=SC2016 # expanded by sv_launch's eval
  sv_retry h2o "$1" sv_h2o_conf 'sv_ready $SV_PORT $sv_v6' \
    h2o -c "$1/h2o.conf"
  H2O_PORT=$SV_PORT
  H2O_LOG=$1/access.log
  export H2O_PORT H2O_LOG
}

# --- lighttpd ---------------------------------------------------------
sv_lighttpd_conf() {
  sv_d=$1
  sv_sock6=
  if [ -n "$sv_v6" ]; then
    sv_sock6="\$SERVER[\"socket\"] == \"[::1]:$SV_PORT\" { ssl.engine = \"enable\" }"
  fi
  cat >"$sv_d/lighttpd.conf" <<EOF
server.modules = ("mod_$SV_LT_BACKEND", "mod_accesslog", "mod_redirect")
server.document-root = "$sv_d/www"
server.bind = "127.0.0.1"
server.port = $SV_PORT
server.errorlog = "$sv_d/error.log"
server.pid-file = "$sv_d/lighttpd.pid"
server.max-keep-alive-idle = 120
server.feature-flags = ("server.h2proto" => "enable")
ssl.engine = "enable"
ssl.pemfile = "$SV_CRT"
ssl.privkey = "$SV_KEY"
$sv_sock6
accesslog.filename = "$sv_d/access.log"
accesslog.format = "%h %{remote}p %H %>s %U k=%k"
url.redirect = ("^/redirect-same\$" => "/ok")
url.redirect-code = 302
EOF
}

sv_start_lighttpd() {
  hs_require lighttpd
  SV_LT_BACKEND=$2
  case $2 in
    openssl | gnutls) ;;
    *) hs_fail "sv_start_lighttpd: backend '$2' is neither openssl nor gnutls" ;;
  esac
  sv_mod=$(lighttpd -V 2>/dev/null | sed -n 's/.*module dir *: *//p')
  for sv_md in /usr/lib/lighttpd /usr/lib/x86_64-linux-gnu/lighttpd $sv_mod; do
    [ -f "$sv_md/mod_$2.so" ] && break
  done
  [ -f "$sv_md/mod_$2.so" ] || hs_require "lighttpd-mod-$2"
  sv_docroot "$1"
  # shellcheck disable=SC2016 # expanded by sv_launch's eval
  sv_retry "lighttpd-$2" "$1" sv_lighttpd_conf 'sv_ready $SV_PORT $sv_v6' \
    lighttpd -D -f "$1/lighttpd.conf"
  if [ "$2" = openssl ]; then
    LT_OPENSSL_PORT=$SV_PORT
    LT_OPENSSL_LOG=$1/access.log
    export LT_OPENSSL_PORT LT_OPENSSL_LOG
  else
    LT_GNUTLS_PORT=$SV_PORT
    LT_GNUTLS_LOG=$1/access.log
    export LT_GNUTLS_PORT LT_GNUTLS_LOG
  fi
}

# --- nginx ------------------------------------------------------------
sv_nginx_conf() {
  sv_d=$1
  sv_user=
  [ "$(id -u)" = 0 ] && sv_user='user root;'
  sv_listen6=
  [ -n "$sv_v6" ] && sv_listen6="listen [::1]:$SV_PORT ssl http2;"
  cat >"$sv_d/nginx.conf" <<EOF
$sv_user
daemon off;
master_process on;
worker_processes 1;
pid $sv_d/nginx.pid;
error_log $sv_d/error.log info;
events { worker_connections 256; }
http {
  log_format hs '\$remote_addr \$remote_port \$server_protocol \$status \$uri'
                ' resumed=\$ssl_session_reused tls=\$ssl_protocol'
                ' conn=\$connection port=\$server_port';
  access_log $sv_d/access.log hs;
  client_body_temp_path $sv_d/tmp/body;
  proxy_temp_path $sv_d/tmp/proxy;
  fastcgi_temp_path $sv_d/tmp/fastcgi;
  uwsgi_temp_path $sv_d/tmp/uwsgi;
  scgi_temp_path $sv_d/tmp/scgi;
  default_type text/plain;
  keepalive_timeout 120s;
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:sv:1m;
  ssl_session_tickets on;
  ssl_certificate $SV_CRT;
  ssl_certificate_key $SV_KEY;
  server {
    listen 127.0.0.1:$SV_PORT ssl http2;
    $sv_listen6
    root $sv_d/www;
    location = /redirect-same { return 302 /ok; }
  }
  # IPv4 only, and idle connections closed after 1 s.
  server {
    listen 127.0.0.1:$SV_PORT2 ssl http2;
    keepalive_timeout 1s;
    http2_idle_timeout 1s;
    root $sv_d/www;
  }
  # Sends session tickets it cannot take back (stateful ones, with no
  # cache to find them in): sessions are offered and refused.
  server {
    listen 127.0.0.1:$SV_PORT3 ssl http2;
    ssl_session_tickets off;
    ssl_session_cache off;
    root $sv_d/www;
  }
  # TLS 1.2 without tickets or cache: no session is ever given out (an
  # empty session id), so a client has nothing to offer.
  server {
    listen 127.0.0.1:$SV_PORT4 ssl http2;
    ssl_protocols TLSv1.2;
    ssl_session_tickets off;
    ssl_session_cache off;
    root $sv_d/www;
  }
}
EOF
}

sv_start_nginx() {
  hs_require nginx
  mkdir -p "$1/tmp" || hs_fail "cannot create $1"
  sv_docroot "$1"
  # shellcheck disable=SC2016 # expanded by sv_launch's eval
  sv_retry nginx "$1" sv_nginx_conf \
    'sv_ready $SV_PORT $sv_v6 && sv_ready $SV_PORT2 && sv_ready $SV_PORT3 && sv_ready $SV_PORT4' \
    nginx -p "$1" -c "$1/nginx.conf" -e "$1/error.log"
  NGINX_TLS_PORT=$SV_PORT
  NGINX_V4_PORT=$SV_PORT2
  NGINX_NORESUME_PORT=$SV_PORT3
  NGINX_NOSESSION_PORT=$SV_PORT4
  NGINX_TLS_LOG=$1/access.log
  export NGINX_TLS_PORT NGINX_V4_PORT NGINX_NORESUME_PORT NGINX_NOSESSION_PORT
  export NGINX_TLS_LOG
}

# --- NSD --------------------------------------------------------------
sv_nsd_conf() {
  sv_d=$1
  cat >"$sv_d/test.zone" <<'EOF'
$ORIGIN test.
$TTL 300
@       IN SOA ns.test. hostmaster.test. 1 3600 600 86400 300
@       IN NS  ns.test.
ns      IN A   127.0.0.1
origin  IN A   127.0.0.1
dual    IN A   127.0.0.1
dual    IN AAAA ::1
v4srv   IN A   127.0.0.1
v4srv   IN AAAA ::1
v6only  IN AAAA ::1
c1      IN CNAME c2
c2      IN CNAME c3
c3      IN CNAME dual
txtonly IN TXT "no address here"
EOF
  cat >"$sv_d/nsd.conf" <<EOF
server:
  ip-address: 127.0.0.1@$SV_PORT
  port: $SV_PORT
  do-ip6: no
  username: ""
  chroot: ""
  zonesdir: "$sv_d"
  pidfile: "$sv_d/nsd.pid"
  database: ""
  xfrdfile: "$sv_d/xfrd.state"
  xfrdir: "$sv_d"
  zonelistfile: "$sv_d/zone.list"
  logfile: "$sv_d/nsd.log"
  server-count: 1
  verbosity: 1
  hide-version: yes
remote-control:
  control-enable: no
zone:
  name: "test"
  zonefile: "test.zone"
# Configured but its file is missing: NSD answers SERVFAIL for it.
zone:
  name: "broken.test"
  zonefile: "missing.zone"
EOF
}

# sv_dns_ready PORT NAME: the server answers NAME (any rcode counts).
sv_dns_ready() {
  "$HS_PYTHON" "$HS_LIB_DIR/dnsq.py" "$1" "$2" A | grep -q '^rcode'
}

sv_start_nsd() {
  hs_require nsd
  mkdir -p "$1" || hs_fail "cannot create $1"
  sv_v6=
  sv_try=0
  while [ "$sv_try" -lt 5 ]; do
    sv_try=$((sv_try + 1))
    SV_PORT=$(sv_free_port) || hs_fail "no free port"
    sv_nsd_conf "$1"
    if sv_launch nsd "$1" \
      "$HS_PYTHON $HS_LIB_DIR/dnsq.py --expect 127.0.0.1 \$SV_PORT origin.test A" \
      nsd -d -c "$1/nsd.conf"; then
      NSD_PORT=$SV_PORT
      export NSD_PORT
      return 0
    fi
    tail -n 5 "$1/nsd.log" "$1/nsd.out" >&2
  done
  hs_fail "nsd did not start"
}

# --- unbound ----------------------------------------------------------
sv_unbound_conf() {
  sv_d=$1
  if [ "$SV_UB_MODE" = resolve ]; then
    sv_extra="  access-control: 127.0.0.0/8 allow
  local-zone: \"test.\" transparent
  local-zone: \".\" refuse
stub-zone:
  name: \"test.\"
  stub-addr: 127.0.0.1@$NSD_PORT"
  else
    sv_extra="  access-control: 127.0.0.0/8 refuse
  local-zone: \".\" refuse"
  fi
  cat >"$sv_d/unbound.conf" <<EOF
server:
  interface: 127.0.0.1@$SV_PORT
  port: $SV_PORT
  outgoing-interface: 127.0.0.1
  do-ip6: no
  do-daemonize: no
  username: ""
  chroot: ""
  directory: "$sv_d"
  pidfile: "$sv_d/unbound.pid"
  logfile: ""
  use-syslog: no
  log-queries: yes
  log-replies: yes
  verbosity: 1
  num-threads: 1
  outgoing-range: 32
  so-reuseport: no
  module-config: "iterator"
  do-not-query-localhost: no
  domain-insecure: "test."
  trust-anchor-file: ""
  auto-trust-anchor-file: ""
$sv_extra
remote-control:
  control-enable: no
EOF
}

sv_start_unbound() {
  hs_require unbound
  SV_UB_MODE=$2
  case $2 in
    resolve) [ -n "${NSD_PORT:-}" ] || hs_fail "sv_start_unbound: start NSD first" ;;
    refuse) ;;
    *) hs_fail "sv_start_unbound: mode '$2' is neither resolve nor refuse" ;;
  esac
  mkdir -p "$1" || hs_fail "cannot create $1"
  sv_v6=
  sv_try=0
  while [ "$sv_try" -lt 5 ]; do
    sv_try=$((sv_try + 1))
    SV_PORT=$(sv_free_port) || hs_fail "no free port"
    sv_unbound_conf "$1"
    # shellcheck disable=SC2016 # expanded by sv_launch's eval
    if sv_launch unbound "$1" 'sv_dns_ready $SV_PORT origin.test' \
      unbound -d -c "$1/unbound.conf"; then
      if [ "$2" = resolve ]; then
        UNBOUND_PORT=$SV_PORT
        export UNBOUND_PORT
      else
        REFUSER_PORT=$SV_PORT
        export REFUSER_PORT
      fi
      return 0
    fi
    tail -n 5 "$1/unbound.out" >&2
  done
  hs_fail "unbound did not start"
}

# --- ground truth -----------------------------------------------------

# sv_pcap_start FILE FILTER: tcpdump on lo into FILE (needs root), waits
# until it listens.  sv_pcap_stop ends it (all packets written).
sv_pcap_start() {
  rm -f "$1" "$1.log"
  : >"$1.log"
  sv_zuser=
  [ "$(id -u)" = 0 ] && sv_zuser="-Z root"
  # shellcheck disable=SC2086
  tcpdump -i lo -U --immediate-mode -B 16384 $sv_zuser -s 2048 -w "$1" "$2" \
    </dev/null >"$1.log" 2>&1 &
  SV_PCAP_PID=$!
  hs_track "$SV_PCAP_PID"
  sv_i=0
  while [ "$sv_i" -lt 50 ]; do
    grep -q 'listening on' "$1.log" 2>/dev/null && return 0
    hs_is_running "$SV_PCAP_PID" || break
    sleep 0.1
    sv_i=$((sv_i + 1))
  done
  cat "$1.log" >&2
  hs_fail "tcpdump does not capture on lo"
}

sv_pcap_stop() {
  # The last packets of a closing connection: let them through first.
  sleep 0.3
  hs_stop "$SV_PCAP_PID"
}

# sv_tls_filter PORT...: a capture filter for the start of the TLS
# handshakes on these TCP ports: SYN and FIN segments and the segments that
# begin with a handshake record, nothing else (a busy loopback drops
# packets of a full capture).
sv_tls_filter() {
  sv_f=
  for sv_p in "$@"; do
    sv_f="${sv_f:+$sv_f or }tcp port $sv_p"
  done
  printf '(%s) and (tcp[tcpflags] & (tcp-syn|tcp-fin) != 0 or tcp[((tcp[12:1] & 0xf0) >> 2):1] = 0x16)' "$sv_f"
}

# sv_tlsscan FILE [PORT]: the TLS connections in FILE (to PORT).
sv_tlsscan() {
  "$HS_PYTHON" "$HS_LIB_DIR/tlsscan.py" ${2:+--port "$2"} "$1" ||
    hs_fail "cannot read the capture $1"
}

# sv_sclient PORT ALPN [ARGS]: one exchange (GET /ok) with openssl
# s_client to origin.test on 127.0.0.1:PORT; prints New or Reused.  ARGS
# are s_client options (-sess_out F, -sess_in F).
sv_sclient() {
  sv_p=$1
  sv_a=$2
  shift 2
  printf 'GET /ok HTTP/1.0\r\nHost: origin.test\r\n\r\n' |
    timeout 10 openssl s_client -connect "127.0.0.1:$sv_p" \
      -servername origin.test -CAfile "$CA_FILE" -verify_return_error \
      -alpn "$sv_a" -ign_eof "$@" 2>&1 |
    sed -n 's/^\(New\|Reused\), .*/\1/p' | head -n 1
}

# sv_wait_log FILE N ERE: FILE has exactly N lines matching ERE, waiting
# up to 3 s for servers that write their log late (lighttpd flushes once
# a second).
sv_wait_log() {
  sv_i=0
  while :; do
    sv_n=$(grep -cE -e "$3" "$1" 2>/dev/null)
    [ "$sv_n" = "$2" ] && return 0
    [ "$sv_i" -ge 30 ] && break
    sleep 0.1
    sv_i=$((sv_i + 1))
  done
  cat "$1" >&2
  hs_fail "$1: '$3' $sv_n times, expected $2"
}
