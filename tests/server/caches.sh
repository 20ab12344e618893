# tests/server/caches.sh: real caches from Debian's packages in front of one
# test origin, for the cache-verdict tests (issue 13).  Source it after
# lib.sh and hs_init.  Everything listens on free loopback ports inside
# $HS_DIR, runs as a separate process with a configuration written here, at
# test time, and is stopped by lib.sh's cleanup (by process id).
#
#   hc_start_origin DIR        nginx origin serving the response kinds below;
#                              $HC_ORIGIN_PORT, $HC_ORIGIN_LOG
#   hc_start NAME CACHE VARIANT UPSTREAM_PORT
#                              start CACHE (varnish squid ats apache nginx) in
#                              front of 127.0.0.1:UPSTREAM_PORT, VARIANT stock
#                              or cs (adds an RFC 9211 Cache-Status field from
#                              the cache's own configuration; apache: nolm,
#                              CacheIgnoreNoLastMod On); its port is
#                              $(hc_port NAME), its log parsed by hc_truth
#   hc_start_squid_forward DIR Squid as a forward proxy: $SQUID_PORT,
#                              $SQUID_LOG
#   hc_kinds                   the response kinds
#   hc_path KIND               URL path of a kind on every cache
#   hc_req_args KIND           extra request arguments (curl and hopsplit)
#   hc_fetch NAME KIND ID [OUT]  one request with curl, X-Hs-Id: ID; the
#                              response header block to OUT
#   hc_truth NAME ID           the cache's own log lines for requests with
#                              X-Hs-Id ID, in order, as "CODE" lines
#
# Response kinds (path = /KIND): public (public, max-age=300), nostore
# (no-store), private (private, max-age=300), nocache (no-cache), cookie
# (Set-Cookie with max-age=300), varystar (Vary: * with max-age=300),
# redirect (302, no-store), big (400 KB, public, max-age=300), reqcookie
# (public, max-age=300, requested with a Cookie header).  The bodies are
# files, so the origin sends ETag and Last-Modified and answers
# conditional requests with 304.  One more, not in $HC_KINDS (a test adds
# it): nocachenv (no-cache, no ETag or Last-Modified: nothing to
# revalidate with).
#
# Every request carries X-Hs-Id; every cache and the origin log it, so the
# ground truth for one request is read from the logs by that id.

HC_KINDS="public nostore private nocache cookie varystar redirect big reqcookie"

hc_kinds() {
  echo "$HC_KINDS"
}

hc_path() {
  echo "/$1"
}

# hc_req_args KIND: printed one per line (for xargs-free use: the only
# argument sets is a header).
hc_req_args() {
  case $1 in
    reqcookie) echo "-H" "Cookie: session=hs13" ;;
  esac
}

# hc_user: the user that daemons started as root switch to.
hc_user() {
  if id -u nobody >/dev/null 2>&1; then echo nobody; else id -un; fi
}

hc_group() {
  if getent group nogroup >/dev/null 2>&1; then
    echo nogroup
  else
    id -gn "$(hc_user)"
  fi
}

# hc_open_dir DIR: DIR (and the scratch path to it) usable by a daemon that
# dropped root privileges.
hc_open_dir() {
  mkdir -p "$1" || hs_fail "cannot create $1"
  if [ "$(id -u)" = 0 ]; then
    chown "$(hc_user):$(hc_group)" "$1" 2>/dev/null
    chmod 0777 "$1"
    hc_p=$1
    while [ "$hc_p" != / ] && [ -n "$hc_p" ]; do
      chmod o+x "$hc_p" 2>/dev/null
      hc_p=$(dirname "$hc_p")
    done
  fi
}

# hc_wait_http URL PID WHAT: wait (at most 20 s x $HS_TF) until URL
# answers with any HTTP status, while PID runs.
hc_wait_http() {
  hc_i=0
  while [ "$hc_i" -lt $((200 * HS_TF)) ]; do
    hs_is_running "$2" || return 1
    hc_code=$(curl -q -s -o /dev/null -w '%{http_code}' \
      --max-time $((2 * HS_TF)) \
      --noproxy '*' -H 'X-Hs-Id: ready' "$1" 2>/dev/null)
    case $hc_code in
      [1-5][0-9][0-9]) return 0 ;;
    esac
    sleep 0.1
    hc_i=$((hc_i + 1))
  done
  return 1
}

# hc_set NAME FIELD VALUE / hc_get NAME FIELD: per-cache facts.
hc_set() {
  hc_var=$(printf '%s' "$1" | tr -c 'A-Za-z0-9_' '_')
  eval "HC_${hc_var}_$2=\$3"
}

hc_get() {
  hc_var=$(printf '%s' "$1" | tr -c 'A-Za-z0-9_' '_')
  eval "printf '%s\n' \"\${HC_${hc_var}_$2:-}\""
}

hc_port() {
  hc_get "$1" PORT
}

# ---- the origin ----

hc_start_origin() {
  hc_d=$1
  mkdir -p "$hc_d/www" "$hc_d/tmp" || hs_fail "cannot create $hc_d"
  for hc_k in public nostore private nocache cookie varystar reqcookie; do
    printf 'body of /%s\n' "$hc_k" >"$hc_d/www/$hc_k"
  done
  head -c 409600 /dev/urandom >"$hc_d/www/big" || hs_fail "cannot write /big"
  # Fixed, older modification times: Last-Modified is in the past, so
  # heuristic freshness does not depend on when the test runs.
  touch -d '2025-01-01 00:00:00 UTC' "$hc_d/www"/*
  hc_user=
  [ "$(id -u)" = 0 ] && hc_user='user root;'
  hc_try=0
  while [ "$hc_try" -lt 5 ]; do
    hc_try=$((hc_try + 1))
    HC_ORIGIN_PORT=$(hs_free_port) || hs_fail "no free port"
    cat >"$hc_d/nginx.conf" <<EOF
$hc_user
daemon off;
master_process off;
worker_processes 1;
pid $hc_d/nginx.pid;
error_log $hc_d/error.log info;
events { worker_connections 256; }
http {
  log_format hc '\$http_x_hs_id \$request_method \$uri \$status'
                ' inm=[\$http_if_none_match] ims=[\$http_if_modified_since]'
                ' cookie=[\$http_cookie]';
  access_log $hc_d/access.log hc;
  client_body_temp_path $hc_d/tmp/body;
  proxy_temp_path $hc_d/tmp/proxy;
  fastcgi_temp_path $hc_d/tmp/fastcgi;
  uwsgi_temp_path $hc_d/tmp/uwsgi;
  scgi_temp_path $hc_d/tmp/scgi;
  default_type text/plain;
  root $hc_d/www;
  server_tokens off;
  etag on;
  server {
    listen 127.0.0.1:$HC_ORIGIN_PORT;
    server_name origin.test localhost;
    location = /public { add_header Cache-Control "public, max-age=300"; }
    location = /nostore { add_header Cache-Control "no-store"; }
    location = /private { add_header Cache-Control "private, max-age=300"; }
    location = /nocache { add_header Cache-Control "no-cache"; }
    location = /nocachenv {
      add_header Cache-Control "no-cache";
      default_type text/plain;
      return 200 "body of /nocachenv, no validators\\n";
    }
    location = /cookie {
      add_header Cache-Control "max-age=300";
      add_header Set-Cookie "sid=hs13cookie; Path=/; HttpOnly";
    }
    location = /varystar {
      add_header Cache-Control "max-age=300";
      add_header Vary "*";
    }
    location = /redirect {
      add_header Cache-Control "no-store" always;
      return 302 /public;
    }
    location = /big {
      default_type application/octet-stream;
      add_header Cache-Control "public, max-age=300";
    }
    location = /reqcookie { add_header Cache-Control "public, max-age=300"; }
    location / { return 404 "not found\n"; }
  }
}
EOF
    : >"$hc_d/error.log"
    nginx -p "$hc_d" -c "$hc_d/nginx.conf" -e "$hc_d/error.log" \
      </dev/null >"$hc_d/nginx.out" 2>&1 &
    hc_pid=$!
    hs_track "$hc_pid"
    if hc_wait_http "http://127.0.0.1:$HC_ORIGIN_PORT/public" "$hc_pid"; then
      HC_ORIGIN_LOG=$hc_d/access.log
      export HC_ORIGIN_PORT HC_ORIGIN_LOG
      return 0
    fi
    hs_is_running "$hc_pid" && hs_stop "$hc_pid"
    grep -q 'in use' "$hc_d/error.log" "$hc_d/nginx.out" || {
      cat "$hc_d/error.log" "$hc_d/nginx.out" >&2
      hs_fail "origin nginx did not start"
    }
  done
  hs_fail "origin nginx: no free port after $hc_try tries"
}

# hc_started NAME PORT LOG: record a started cache.
hc_started() {
  hc_set "$1" PORT "$2"
  hc_set "$1" LOG "$3"
}

# ---- Varnish 7.1 ----
# varnishd -F with the builtin VCL after a VCL of ours that only records
# what the cache did (std.log, read by varnishncsa) and, in the cs variant,
# adds Cache-Status (RFC 9211), appended to one from a cache nearer the
# origin.  varnishncsa logs handling, the xid and whether the object
# delivered is uncacheable (hit-for-miss, hit-for-pass, pass).
hc_start_varnish() {
  hc_n=$1 hc_v=$2 hc_up=$3 hc_d=$4
  mkdir -p "$hc_d/work" || hs_fail "cannot create $hc_d"
  hc_cs=
  if [ "$hc_v" = cs ]; then
    hc_cs='
  if (req.http.X-Hs-Cs == "hit") {
    set req.http.X-Hs-Cs = "varnish; hit; ttl=" + std.integer(duration=obj.ttl, fallback=0);
  } else if (req.http.X-Hs-Cs == "pass") {
    set req.http.X-Hs-Cs = "varnish; fwd=bypass";
  } else if (obj.uncacheable) {
    set req.http.X-Hs-Cs = "varnish; fwd=miss; detail=uncacheable";
  } else {
    set req.http.X-Hs-Cs = "varnish; fwd=miss; stored";
  }
  if (resp.http.Cache-Status) {
    set resp.http.Cache-Status = resp.http.Cache-Status + ", " + req.http.X-Hs-Cs;
  } else {
    set resp.http.Cache-Status = req.http.X-Hs-Cs;
  }'
  fi
  cat >"$hc_d/default.vcl" <<VCL
vcl 4.1;
import std;
backend origin { .host = "127.0.0.1"; .port = "$hc_up"; }
sub vcl_recv { unset req.http.X-Hs-Cs; }
sub vcl_hit { set req.http.X-Hs-Cs = "hit"; }
sub vcl_miss { set req.http.X-Hs-Cs = "miss"; }
sub vcl_pass { set req.http.X-Hs-Cs = "pass"; }
sub vcl_backend_fetch { unset bereq.http.X-Hs-Cs; }
sub vcl_deliver {
  std.log("hs-uncacheable: " + obj.uncacheable);
  std.log("hs-hits: " + obj.hits);$hc_cs
}
VCL
  hc_jail=
  [ "$(id -u)" = 0 ] && hc_jail="-j none"
  hc_try=0
  while [ "$hc_try" -lt 5 ]; do
    hc_try=$((hc_try + 1))
    hc_port=$(hs_free_port) || hs_fail "no free port"
    # shellcheck disable=SC2086
    varnishd -F -a "127.0.0.1:$hc_port" -T none -n "$hc_d/work" $hc_jail \
      -f "$hc_d/default.vcl" -s malloc,64m \
      </dev/null >"$hc_d/varnishd.out" 2>&1 &
    hc_pid=$!
    hs_track "$hc_pid"
    if hc_wait_http "http://127.0.0.1:$hc_port/" "$hc_pid"; then
      varnishncsa -n "$hc_d/work" -c -w "$hc_d/access.log" -F \
        '%{X-Hs-Id}i %m %U %s handling=%{Varnish:handling}x xid=%{Varnish:vxid}x uncacheable=%{VCL_Log:hs-uncacheable}x hits=%{VCL_Log:hs-hits}x age=%{Age}o t=%{VSL:Timestamp:Start[1]}x' \
        </dev/null >"$hc_d/varnishncsa.out" 2>&1 &
      hs_track "$!"
      hc_started "$hc_n" "$hc_port" "$hc_d/access.log"
      # varnishncsa starts reading at the head of the log: wait until it
      # has written the readiness probe's line.
      hc_i=0
      while [ "$hc_i" -lt $((50 * HS_TF)) ] &&
        ! grep -q . "$hc_d/access.log" 2>/dev/null
      do
        sleep 0.1
        hc_i=$((hc_i + 1))
      done
      return 0
    fi
    hs_is_running "$hc_pid" && hs_stop "$hc_pid"
    grep -qi 'in use\|could not get socket' "$hc_d/varnishd.out" || {
      cat "$hc_d/varnishd.out" >&2
      hs_fail "varnishd did not start"
    }
  done
  hs_fail "varnishd: no free port after $hc_try tries"
}

# ---- Squid 5.7 ----
# squid -N as a reverse proxy (accelerator) with the origin as its only
# parent, memory cache only.  The access log has the result code (%Ss,
# e.g. TCP_MISS, TCP_MEM_HIT, TCP_REFRESH_UNMODIFIED) and the hierarchy
# code.  The cs variant adds Cache-Status with reply_header_add: hit when
# Squid did not go to the origin (hier_code HIER_NONE), else fwd=miss (the
# result code is not known yet when the header is added).
hc_start_squid() {
  hc_n=$1 hc_v=$2 hc_up=$3 hc_d=$4
  hc_open_dir "$hc_d"
  hc_cs=
  if [ "$hc_v" = cs ]; then
    hc_cs='acl hc_local hier_code HIER_NONE
reply_header_add Cache-Status "squid; hit" hc_local
reply_header_add Cache-Status "squid; fwd=miss" !hc_local'
  fi
  hc_try=0
  while [ "$hc_try" -lt 5 ]; do
    hc_try=$((hc_try + 1))
    hc_port=$(hs_free_port) || hs_fail "no free port"
    # Squid looks up the request's host (origin.test) even with a parent
    # for everything: its own hosts file answers, and any other name goes
    # to loopback, never to the machine's resolver.
    printf '127.0.0.1 origin.test\n' >"$hc_d/hosts"
    {
      cat <<SQ
http_port 127.0.0.1:$hc_port accel defaultsite=origin.test no-vhost
cache_peer 127.0.0.1 parent $hc_up 0 no-query no-digest originserver name=origin
cache_peer_access origin allow all
never_direct allow all
cache_mem 64 MB
maximum_object_size_in_memory 1 MB
visible_hostname hs-squid-$hc_n
logformat hc %{X-Hs-Id}>h %rm %rp %>Hs %Ss/%Sh age=%{Age}<h t=%ts.%03tu rt=%tr
access_log stdio:$hc_d/access.log logformat=hc
$hc_cs
SQ
      hc_squid_common "$hc_d"
    } >"$hc_d/squid.conf"
    if hc_squid_launch "$hc_d" "$hc_port"; then
      hc_started "$hc_n" "$hc_port" "$hc_d/access.log"
      return 0
    fi
  done
  hs_fail "squid: no free port after $hc_try tries"
}

# hc_squid_common DIR: the lines of every squid.conf here: no other
# listener, files in DIR, names from DIR/hosts, a quick stop.
hc_squid_common() {
  hc_usr=
  [ "$(id -u)" = 0 ] && hc_usr="cache_effective_user $(hc_user)"
  cat <<SQ
hosts_file $1/hosts
dns_nameservers 127.0.0.1
http_access allow all
icp_port 0
htcp_port 0
snmp_port 0
pid_filename $1/squid.pid
coredump_dir $1
cache_log $1/cache.log
cache_store_log none
netdb_filename none
logfile_rotate 0
shutdown_lifetime 0 seconds
$hc_usr
SQ
}

# hc_squid_launch DIR PORT: squid -N with DIR/squid.conf; 0 when it
# answers on PORT, 1 when the port was taken (try another), else fail.
hc_squid_launch() {
  : >"$1/cache.log"
  squid -N -f "$1/squid.conf" </dev/null >"$1/squid.out" 2>&1 &
  hc_pid=$!
  hs_track "$hc_pid"
  hc_wait_http "http://127.0.0.1:$2/" "$hc_pid" && return 0
  hs_is_running "$hc_pid" && hs_stop "$hc_pid"
  grep -qi 'in use' "$1/cache.log" "$1/squid.out" || {
    cat "$1/cache.log" "$1/squid.out" >&2
    hs_fail "squid did not start"
  }
  return 1
}

# hc_start_squid_forward DIR: Squid as a forward proxy (no cache) on
# 127.0.0.1:$SQUID_PORT: absolute-form requests and CONNECT tunnels to any
# port; names from DIR/hosts (origin.test).  Its access log
# $SQUID_LOG has one line per request: client, method, URL, Host,
# X-Proxy-Test, status, User-Agent.
hc_start_squid_forward() {
  hc_d=$1
  hc_open_dir "$hc_d"
  printf '127.0.0.1 origin.test\n' >"$hc_d/hosts"
  hc_try=0
  while [ "$hc_try" -lt 5 ]; do
    hc_try=$((hc_try + 1))
    hc_port=$(hs_free_port) || hs_fail "no free port"
    {
      cat <<SQ
http_port 127.0.0.1:$hc_port
cache deny all
visible_hostname hs-squid-forward
logformat hsfwd %>a %rm %ru host=[%{Host}>h] x=[%{X-Proxy-Test}>h] %>Hs ua=[%{User-Agent}>h]
access_log stdio:$hc_d/access.log logformat=hsfwd
SQ
      hc_squid_common "$hc_d"
    } >"$hc_d/squid.conf"
    if hc_squid_launch "$hc_d" "$hc_port"; then
      SQUID_PORT=$hc_port
      SQUID_LOG=$hc_d/access.log
      export SQUID_PORT SQUID_LOG
      return 0
    fi
  done
  hs_fail "squid: no free port after $hc_try tries"
}

# ---- Apache Traffic Server 9.2 ----
# traffic_server from a private runroot (TS_RUNROOT=DIR/runroot.yaml): the
# Debian binaries and plugins, configuration, logs, runtime files and a
# 64 MB cache file in DIR, running as the invoking user (user_id #-1).
# Reverse proxy: remap.config maps this port to the origin (so Traffic
# Server is the outer cache of a chain: a cache in front of it would
# forward its own Host).  Via codes in
# the response (insert_response_via_str 2) as Debian's records.config
# leaves everything else; the bare variant leaves that too (stock: no Via
# codes, no status header).  An ascii log with the cache result code (%<crc>,
# e.g. TCP_MISS, TCP_HIT, TCP_REFRESH_HIT) and the hierarchy code.  The cs
# variant adds a Cache-Status line with header_rewrite from the cache
# lookup result (%{CACHE}).
hc_start_ats() {
  hc_n=$1 hc_v=$2 hc_up=$3 hc_d=$4
  for hc_sub in etc log run cache var; do
    hc_open_dir "$hc_d/$hc_sub"
  done
  cp -R /etc/trafficserver/. "$hc_d/etc/" || hs_fail "cannot copy ATS config"
  cat >"$hc_d/runroot.yaml" <<TS
prefix: $hc_d
exec_prefix: /usr
bindir: /usr/bin
sbindir: /usr/sbin
sysconfdir: $hc_d/etc
datadir: /usr/share/trafficserver
includedir: /usr/include
libdir: /usr/lib/trafficserver
libexecdir: /usr/lib/trafficserver/modules
localstatedir: $hc_d/var
runtimedir: $hc_d/run
logdir: $hc_d/log
cachedir: $hc_d/cache
TS
  echo "$hc_d/cache 64M" >"$hc_d/etc/storage.config"
  cat >"$hc_d/etc/logging.yaml" <<'TS'
logging:
  formats:
    - name: hc
      format: '%<{X-Hs-Id}cqh> %<cqhm> %<cqup> %<pssc> %<crc>/%<phr> via=[%<{Via}psh>] age=%<{Age}psh> t=%<cqtq>'
  logs:
    - filename: hc
      format: hc
      mode: ascii
TS
  : >"$hc_d/etc/plugin.config"
  if [ "$hc_v" = cs ]; then
    echo "header_rewrite.so $hc_d/etc/cache_status.conf" >"$hc_d/etc/plugin.config"
    cat >"$hc_d/etc/cache_status.conf" <<'TS'
cond %{SEND_RESPONSE_HDR_HOOK} [AND]
cond %{CACHE} =hit-fresh
add-header Cache-Status "ats; hit"

cond %{SEND_RESPONSE_HDR_HOOK} [AND]
cond %{CACHE} =hit-stale
add-header Cache-Status "ats; fwd=stale"

cond %{SEND_RESPONSE_HDR_HOOK} [AND]
cond %{CACHE} =miss
add-header Cache-Status "ats; fwd=uri-miss"

cond %{SEND_RESPONSE_HDR_HOOK} [AND]
cond %{CACHE} =skipped
add-header Cache-Status "ats; fwd=bypass"
TS
  fi
  # At start traffic_server asks the system resolver (glibc, whatever
  # records.config says) for the names of the machine's addresses: PTR
  # queries for 192.0.2.2 and the like to the nameserver of
  # /etc/resolv.conf, off the machine.  As root it gets a resolv.conf of
  # its own in a private mount namespace, pointing at loopback.
  hc_ats_ns=
  if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m --propagation private true 2>/dev/null; then
    printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' \
      >"$hc_d/resolv.conf"
    hc_ats_ns=1
  else
    hs_lack "traffic_server's reverse lookups stay on loopback only as root with unshare -m" ||
      :
  fi
  # The bare variant is Traffic Server as installed: no Via cache codes
  # and no status header, so only Age (and RFC 9111) can say what it did.
  hc_via='CONFIG proxy.config.http.insert_response_via_str INT 2'
  [ "$hc_v" = bare ] && hc_via='# no Via codes (Debian default)'
  hc_try=0
  while [ "$hc_try" -lt 5 ]; do
    hc_try=$((hc_try + 1))
    hc_port=$(hs_free_port) || hs_fail "no free port"
    # records.config: Debian's, with these settings appended (the last
    # value of a setting wins).
    cp /etc/trafficserver/records.config "$hc_d/etc/records.config"
    cat >>"$hc_d/etc/records.config" <<TS
CONFIG proxy.config.http.server_ports STRING $hc_port
CONFIG proxy.config.admin.user_id STRING #-1
$hc_via
CONFIG proxy.config.proxy_name STRING hs-ats-$hc_n
CONFIG proxy.config.log.max_secs_per_buffer INT 1
CONFIG proxy.config.log.periodic_tasks_interval INT 1
CONFIG proxy.config.diags.logfile.filename STRING diags.log
CONFIG proxy.config.exec_thread.autoconfig INT 0
CONFIG proxy.config.exec_thread.limit INT 1
CONFIG proxy.config.cache.ram_cache.size INT 16777216
# HostDB's own resolver on loopback too (remap.config names addresses)
CONFIG proxy.config.dns.nameservers STRING 127.0.0.1
CONFIG proxy.config.dns.resolv_conf STRING NULL
TS
    echo "map http://127.0.0.1:$hc_port/ http://127.0.0.1:$hc_up/" \
      >"$hc_d/etc/remap.config"
    if [ -n "$hc_ats_ns" ]; then
      # unshare and sh exec: $! is traffic_server's own PID.
      # shellcheck disable=SC2016
      TS_RUNROOT=$hc_d/runroot.yaml unshare -m --propagation private \
        sh -c 'mount --bind "$1" /etc/resolv.conf && exec traffic_server' \
        sh "$hc_d/resolv.conf" </dev/null >"$hc_d/traffic_server.out" 2>&1 &
    else
      TS_RUNROOT=$hc_d/runroot.yaml traffic_server \
        </dev/null >"$hc_d/traffic_server.out" 2>&1 &
    fi
    hc_pid=$!
    hs_track "$hc_pid"
    if hc_wait_http "http://127.0.0.1:$hc_port/" "$hc_pid"; then
      hc_started "$hc_n" "$hc_port" "$hc_d/log/hc.log"
      return 0
    fi
    hs_is_running "$hc_pid" && hs_stop "$hc_pid"
    grep -qi 'in use' "$hc_d/traffic_server.out" "$hc_d"/log/*.log \
      2>/dev/null || {
      cat "$hc_d/traffic_server.out" "$hc_d"/log/*.log >&2 2>/dev/null
      hs_fail "traffic_server did not start"
    }
  done
  hs_fail "traffic_server: no free port after $hc_try tries"
}

# ---- Apache httpd 2.4, mod_cache + mod_cache_disk ----
# apache2 -DFOREGROUND (event MPM) as a reverse proxy to the origin with a
# disk cache in DIR, and mod_cache's own status headers (CacheHeader,
# CacheDetailHeader: X-Cache, X-Cache-Detail).  The access log has
# mod_cache's cache-status note (%{cache-status}e).  There is no cs
# variant: mod_headers runs before mod_cache sets its cache-hit /
# cache-miss / cache-status variables and its X-Cache header (tried with
# env=, expr=resp('X-Cache') and CacheQuickHandler off), so a Cache-Status
# field cannot be made from them in configuration.
hc_start_apache() {
  hc_n=$1 hc_v=$2 hc_up=$3 hc_d=$4
  hc_open_dir "$hc_d"
  hc_open_dir "$hc_d/cache"
  hc_extra=
  case $hc_v in
  stock) ;;
  nolm) hc_extra="CacheIgnoreNoLastMod On" ;;
  *) hs_fail "apache: no $hc_v variant" ;;
  esac
  hc_usr=
  [ "$(id -u)" = 0 ] && hc_usr="User $(hc_user)
Group $(hc_group)"
  hc_m=/usr/lib/apache2/modules
  hc_try=0
  while [ "$hc_try" -lt 5 ]; do
    hc_try=$((hc_try + 1))
    hc_port=$(hs_free_port) || hs_fail "no free port"
    cat >"$hc_d/httpd.conf" <<AP
ServerRoot $hc_d
ServerName hs-apache-$hc_n
Listen 127.0.0.1:$hc_port
PidFile $hc_d/httpd.pid
DefaultRuntimeDir $hc_d
Mutex file:$hc_d default
ErrorLog $hc_d/error.log
LogLevel warn
$hc_usr
LoadModule mpm_event_module $hc_m/mod_mpm_event.so
LoadModule authz_core_module $hc_m/mod_authz_core.so
LoadModule proxy_module $hc_m/mod_proxy.so
LoadModule proxy_http_module $hc_m/mod_proxy_http.so
LoadModule cache_module $hc_m/mod_cache.so
LoadModule cache_disk_module $hc_m/mod_cache_disk.so
LoadModule headers_module $hc_m/mod_headers.so
StartServers 1
ServerLimit 1
ThreadsPerChild 8
MaxRequestWorkers 8
KeepAlive On
LogFormat "%{X-Hs-Id}i %m %U %>s cache=[%{cache-status}e] hit=%{cache-hit}e reval=%{cache-revalidate}e miss=%{cache-miss}e inval=%{cache-invalidate}e t=%{begin:sec}t.%{begin:usec_frac}t" hc
CustomLog $hc_d/access.log hc
CacheRoot $hc_d/cache
CacheEnable disk /
CacheHeader on
CacheDetailHeader on
CacheMaxFileSize 1000000
CacheLock off
$hc_extra
ProxyPass / http://127.0.0.1:$hc_up/
ProxyPassReverse / http://127.0.0.1:$hc_up/
<Location />
  Require all granted
</Location>
AP
    : >"$hc_d/error.log"
    apache2 -f "$hc_d/httpd.conf" -DFOREGROUND \
      </dev/null >"$hc_d/apache2.out" 2>&1 &
    hc_pid=$!
    hs_track "$hc_pid"
    if hc_wait_http "http://127.0.0.1:$hc_port/" "$hc_pid"; then
      hc_started "$hc_n" "$hc_port" "$hc_d/access.log"
      return 0
    fi
    hs_is_running "$hc_pid" && hs_stop "$hc_pid"
    grep -qi 'in use' "$hc_d/error.log" "$hc_d/apache2.out" || {
      cat "$hc_d/error.log" "$hc_d/apache2.out" >&2
      hs_fail "apache2 did not start"
    }
  done
  hs_fail "apache2: no free port after $hc_try tries"
}

# ---- nginx 1.22 proxy_cache ----
# nginx as a reverse proxy with proxy_cache (defaults otherwise) and the
# usual X-Cache-Status: $upstream_cache_status.  The access log has
# $upstream_cache_status.  The cs variant adds Cache-Status from
# $upstream_cache_status, with "stored" on a forwarded response unless
# nginx's documented reasons not to store it apply (Set-Cookie;
# Cache-Control no-store, no-cache or private; Vary: *), since nginx has no
# variable that says so.
hc_start_nginx() {
  hc_n=$1 hc_v=$2 hc_up=$3 hc_d=$4
  mkdir -p "$hc_d/tmp" "$hc_d/cache" || hs_fail "cannot create $hc_d"
  hc_cs=
  hc_csmap=
  if [ "$hc_v" = cs ]; then
    # shellcheck disable=SC2016 # nginx variables, for nginx
    hc_csmap='
  map $upstream_cache_status $hc_cs_base {
    HIT "nginx; hit";
    STALE "nginx; hit; detail=stale";
    UPDATING "nginx; hit; detail=updating";
    REVALIDATED "nginx; fwd=stale; fwd-status=304";
    EXPIRED "nginx; fwd=stale";
    MISS "nginx; fwd=uri-miss";
    default "nginx; fwd=bypass";
  }
  map "$upstream_http_set_cookie|$upstream_http_cache_control|$upstream_http_vary" $hc_cs_storable {
    "~^[^|]+[|]" "";
    "~(?i)(no-store|no-cache|private)" "";
    "~[|][*]$" "";
    default "; stored";
  }
  map $upstream_cache_status $hc_cs_stored {
    MISS $hc_cs_storable;
    EXPIRED $hc_cs_storable;
    default "";
  }'
    # shellcheck disable=SC2016
    hc_cs='add_header Cache-Status "$hc_cs_base$hc_cs_stored" always;'
  fi
  hc_usr=
  [ "$(id -u)" = 0 ] && hc_usr='user root;'
  hc_try=0
  while [ "$hc_try" -lt 5 ]; do
    hc_try=$((hc_try + 1))
    hc_port=$(hs_free_port) || hs_fail "no free port"
    cat >"$hc_d/nginx.conf" <<NG
$hc_usr
daemon off;
master_process on;
worker_processes 1;
pid $hc_d/nginx.pid;
error_log $hc_d/error.log info;
events { worker_connections 256; }
http {
  log_format hc '\$http_x_hs_id \$request_method \$uri \$status'
                ' \$upstream_cache_status'
                ' t=\$msec rt=\$request_time';
  access_log $hc_d/access.log hc;
  client_body_temp_path $hc_d/tmp/body;
  proxy_temp_path $hc_d/tmp/proxy;
  fastcgi_temp_path $hc_d/tmp/fastcgi;
  uwsgi_temp_path $hc_d/tmp/uwsgi;
  scgi_temp_path $hc_d/tmp/scgi;
  proxy_cache_path $hc_d/cache levels=1:2 keys_zone=hc:4m max_size=64m;$hc_csmap
  server {
    listen 127.0.0.1:$hc_port;
    server_name hs-nginx-$hc_n;
    location / {
      proxy_pass http://127.0.0.1:$hc_up;
      proxy_cache hc;
      add_header X-Cache-Status \$upstream_cache_status always;
      $hc_cs
    }
  }
}
NG
    : >"$hc_d/error.log"
    nginx -p "$hc_d" -c "$hc_d/nginx.conf" -e "$hc_d/error.log" \
      </dev/null >"$hc_d/nginx.out" 2>&1 &
    hc_pid=$!
    hs_track "$hc_pid"
    if hc_wait_http "http://127.0.0.1:$hc_port/" "$hc_pid"; then
      hc_started "$hc_n" "$hc_port" "$hc_d/access.log"
      return 0
    fi
    hs_is_running "$hc_pid" && hs_stop "$hc_pid"
    grep -q 'in use' "$hc_d/error.log" "$hc_d/nginx.out" || {
      cat "$hc_d/error.log" "$hc_d/nginx.out" >&2
      hs_fail "nginx proxy_cache did not start"
    }
  done
  hs_fail "nginx proxy_cache: no free port after $hc_try tries"
}

# ---- driving the matrix ----

# hc_start NAME CACHE VARIANT UPSTREAM_PORT: start CACHE in $HS_DIR/NAME.
hc_start() {
  hc_set "$1" CACHE "$2"
  "hc_start_$2" "$1" "$3" "$4" "$HS_DIR/$1"
}

# hc_fetch NAME KIND ID [OUT]: one request with curl (never hopsplit),
# the response header block to OUT (or /dev/null).
hc_fetch() {
  hc_out=${4:-/dev/null}
  if [ "$2" = reqcookie ]; then
    curl -q -sS --noproxy '*' --max-time $((10 * HS_TF)) -o /dev/null \
      -D "$hc_out" -H "X-Hs-Id: $3" -H "Cookie: session=hs13" \
      "http://127.0.0.1:$(hc_port "$1")$(hc_path "$2")"
  else
    curl -q -sS --noproxy '*' --max-time $((10 * HS_TF)) -o /dev/null \
      -D "$hc_out" -H "X-Hs-Id: $3" \
      "http://127.0.0.1:$(hc_port "$1")$(hc_path "$2")"
  fi
}

# hc_ended NAME ID N: the N requests ID sent to cache NAME have ended
# (and what they stored is committed) before the probe is sent.  Apache
# and nginx write the access log line when a request ends, after the
# cache entry is committed: that line is the barrier (at most 5 s x
# $HS_TF).  Squid (buffered log), Traffic Server (flushes each second) and
# varnishncsa log late, so there is no prompt signal: a short grace.
hc_ended() {
  case $(hc_get "$1" CACHE) in
    apache | nginx)
      hc_e_log=$(hc_get "$1" LOG)
      hc_e_i=0
      until [ "$(grep -c "^$2 " "$hc_e_log" 2>/dev/null)" -ge "$3" ]; do
        [ "$hc_e_i" -lt $((50 * HS_TF)) ] || {
          cat "$hc_e_log" >&2
          hs_fail "$1 never logged $3 requests $2"
        }
        sleep 0.1
        hc_e_i=$((hc_e_i + 1))
      done
      ;;
    *) sleep 0.1 ;;
  esac
}

# hc_run_config CONFIG NAME VENDOR [INNER_NAME INNER_VENDOR]: for every
# response kind, hopsplit (3 cold samples, JSON) against cache NAME, then
# one probe request with curl (and one to the inner cache of a chain);
# rows for cachetruth.py score go to $HC_MATRIX.  VENDOR is the vendor hopsplit should name for the cache
# nearest the user; INNER_* describe the cache behind it in a chain.
hc_run_config() {
  hc_cfg=$1 hc_name=$2 hc_vendor=$3
  : "${HC_MATRIX:=$HS_DIR/matrix}"
  mkdir -p "$HS_DIR/json"
  hc_inner=
  if [ -n "${4:-}" ]; then
    hc_inner="$(hc_get "$4" CACHE) $5 $(hc_get "$4" LOG)"
  fi
  for hc_k in $HC_KINDS; do
    hc_id="$hc_cfg-$hc_k"
    hc_url="http://127.0.0.1:$(hc_port "$hc_name")$(hc_path "$hc_k")"
    # 100 ms between requests: Apache mod_cache commits a stored entry
    # only after the request has ended, so a request right behind a miss
    # can miss too although the first one was stored.  $HC_PAUSE sets
    # another pause (a cache that says nothing of itself is judged by
    # Date and Age across samples a second or more apart).
    case $hc_k in
      reqcookie) hs_run 0 -n 3 --mode cold --pause "${HC_PAUSE:-100ms}" --format json \
        -H "X-Hs-Id: $hc_id" -H "Cookie: session=hs13" "$hc_url" ;;
      redirect) hs_run 0 -n 3 --mode cold --pause "${HC_PAUSE:-100ms}" --format json \
        --no-follow -H "X-Hs-Id: $hc_id" "$hc_url" ;;
      *) hs_run 0 -n 3 --mode cold --pause "${HC_PAUSE:-100ms}" --format json \
        -H "X-Hs-Id: $hc_id" "$hc_url" ;;
    esac
    cp "$HS_OUT" "$HS_DIR/json/$hc_id.json"
    hc_ended "$hc_name" "$hc_id" 3
    hc_fetch "$hc_name" "$hc_k" "$hc_id" ||
      hs_fail "curl probe of $hc_url failed"
    # In a chain, one more probe straight to the inner cache judges the
    # last request it saw (did it store it?).
    if [ -n "${4:-}" ]; then
      sleep 0.1
      hc_fetch "$4" "$hc_k" "$hc_id" ||
        hs_fail "curl probe of the inner cache $4 failed"
    fi
    echo "$hc_cfg $(hc_get "$hc_name" CACHE) $hc_vendor $hc_k $hc_id" \
      "$(hc_get "$hc_name" LOG) $HS_DIR/json/$hc_id.json $hc_inner" \
      >>"$HC_MATRIX"
  done
}

# hc_wait_logs: wait (at most 20 s x $HS_TF) until every cache has logged
# the 4 requests (3 samples and the probe) of every row of $HC_MATRIX: some
# caches write their logs a few seconds late.
hc_wait_logs() {
  hc_i=0
  while [ "$hc_i" -lt $((100 * HS_TF)) ]; do
    hc_short=
    while read -r _ _ _ _ hc_id hc_log _; do
      hc_got=$(grep -c "^$hc_id " "$hc_log" 2>/dev/null)
      [ "${hc_got:-0}" -ge 4 ] || hc_short="$hc_short $hc_id"
    done <"$HC_MATRIX"
    [ -z "$hc_short" ] && return 0
    sleep 0.2
    hc_i=$((hc_i + 1))
  done
  hs_log "log lines missing for:$hc_short"
  return 0
}

# hc_score: compare hopsplit's verdicts and vendors with the ground truth
# from the logs; the table goes to stderr (and $HS_DIR/score.txt), and the
# test fails unless every row is right.
hc_score() {
  hc_wait_logs
  "$HS_PYTHON" "$HS_LIB_DIR/cachetruth.py" score "$HC_MATRIX" \
    >"$HS_DIR/score.txt" 2>&1
  hc_rc=$?
  cat "$HS_DIR/score.txt" >&2
  [ "$hc_rc" = 0 ] || hs_fail "hopsplit's cache verdicts differ from the caches' logs"
}
