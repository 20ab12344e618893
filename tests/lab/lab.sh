# tests/lab/lab.sh: the network lab (POSIX sh), sourced after
# tests/server/lib.sh by the lab tests and the benchmarks.
#
# Two network namespaces, client and server, joined by hs-lablink, a
# user-space link that forwards IP packets between a TUN device in each
# after a fixed one-way delay (this kernel has no netem).  Addresses come
# from the benchmarking range 198.18.0.0/15 only, IPv6 is off, and the only
# route in either namespace is the point-to-point one: nothing leaves the
# lab.  The server namespace runs nginx (TLS from the test CA of lib.sh,
# HTTP/2) and dnsmasq; hopsplit and curl run in the client namespace.
#
#   lab_init NAME            hs_init NAME, root and tool checks (skip 77),
#                            exit trap that takes every lab down
#   lab_up DELAY_MS [RATE [UP_RATE]]  bring a lab up with that one-way
#                            delay (optionally RATE bit/s, both ways, or
#                            RATE down and UP_RATE up) and make it current;
#                            prints nothing, sets LAB_ID, LAB_C, LAB_S...
#                            Several labs may be up at once (each its own
#                            pair of namespaces, same addresses inside).
#   lab_up_bare DELAY_MS [RATE [UP_RATE]]  as lab_up, without dnsmasq and nginx: the
#                            caller starts its own servers in $LAB_S
#   lab_add_host ADDR DELAY_MS [RATE [UP_RATE]]  one more server namespace in the
#                            current lab, at ADDR (198.18.0.3 ...), joined
#                            to the client by a link of its own with that
#                            delay: hosts with different delays (the photo
#                            case); sets LAB_XS (its namespace)
#   lab_use ID               make lab ID current again
#   lab_down [ID]            stop that lab's processes (by PID, TERM, then
#                            KILL after 5 s) and delete its namespaces
#   lab_down_all             every lab still up (the exit trap does this)
#   lab_c CMD...             run CMD in the client namespace
#   lab_run RC ARGS...       run hopsplit in the client namespace, as hs_run
#   lab_counters             the current lab's main link writes its counters
#                            to its log (SIGUSR1); prints those lines
#
# HS_LABLINK_OPTS adds options to the links lab_up_bare and lab_add_host
# start, e.g. "-x a:20" (drop the 20th data segment the client sends on
# each connection) or "-x b:30" (the 30th it receives): see hs_lablink.c.
#
# Exported by lab_up: LAB_C LAB_S (namespace names), LAB_CLIENT_IP,
# LAB_SERVER_IP, LAB_HOST (origin.test, resolved by the lab's dnsmasq, as
# is LAB_HOST2, other.test: the same server under a second name),
# LAB_URL (https://origin.test/), LAB_DNS (198.18.0.2:53), CA_FILE,
# LAB_DIR (its files: nginx and dnsmasq logs, the link's log with its
# counters).  /etc/netns/$LAB_C/resolv.conf points the client namespace's
# system resolver (curl) at the lab's dnsmasq; it goes with lab_down.
#
# Served over https (h2 by ALPN) and http: /ok (3 bytes), /big (64 KiB,
# incompressible), /redirect (302 to /ok), /f/NAME (the file
# $LAB_DIR/nginx/www/f/NAME, which the caller writes), /r2/f/NAME (302 to
# https://other.test/f/NAME: a redirect to a second host).

LAB_LIB_DIR=${HOPSPLIT_SRC:+$HOPSPLIT_SRC/tests/lab}
if [ -z "$LAB_LIB_DIR" ] || [ ! -f "$LAB_LIB_DIR/lab.sh" ]; then
  LAB_LIB_DIR=$(cd "$(dirname "$0")/../lab" && pwd)
fi
LAB_SEQ=0
LAB_LIVE=
LAB_ID=
LAB_PIDS=
LAB_CLIENT_IP=198.18.0.1
LAB_SERVER_IP=198.18.0.2
LAB_HOST=origin.test
LAB_HOST2=other.test

# lab_skip MSG: skip (77), or fail when HOPSPLIT_TEST_REQUIRE is set.
lab_skip() {
  if [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ]; then
    hs_fail "lab required but unavailable: $*"
  fi
  hs_skip "$*"
}

# lab_init NAME: as hs_init, plus the checks the lab needs.
lab_init() {
  hs_init "$1"
  trap 'lab_rc=$?; trap - EXIT; lab_down_all; hs_cleanup; hs_tidy $lab_rc; exit $lab_rc' EXIT
  trap 'lab_down_all; hs_cleanup; trap - EXIT; hs_tidy 130; exit 130' INT
  trap 'lab_down_all; hs_cleanup; trap - EXIT; hs_tidy 143; exit 143' TERM
  # A closed pipe (| head) or hang-up must not leave the lab behind.
  trap 'lab_down_all; hs_cleanup; trap - EXIT; hs_tidy 129; exit 129' HUP
  trap 'lab_down_all; hs_cleanup; trap - EXIT; hs_tidy 141; exit 141' PIPE
  [ "$(id -u)" = 0 ] ||
    lab_skip "the lab needs root (network namespaces, TUN devices)"
  [ -c /dev/net/tun ] || lab_skip "no /dev/net/tun (TUN devices)"
  hs_require ip nginx dnsmasq openssl python3 curl timeout
  : "${HS_LABLINK:=$HOPSPLIT_BUILD/tests/hs-lablink}"
  [ -x "$HS_LABLINK" ] ||
    hs_fail "link '$HS_LABLINK' is missing: build the hs-lablink target"
  lab_reap_stale
  lab_probe=hs-$$-probe
  ip netns add "$lab_probe" 2>/dev/null ||
    lab_skip "'ip netns add' does not work here"
  ip netns del "$lab_probe"
  hs_make_ca "$HS_DIR/pki"
}

# lab_reap_stale: a lab whose script was killed outright (SIGKILL, as on a
# ctest timeout) leaves its namespaces and their processes behind.  Those
# named by this file's pattern whose script (the PID in the name) is gone
# are removed here, with the processes still inside them.
lab_reap_stale() {
  for lab_ns in $(ip netns list 2>/dev/null | awk '{print $1}' |
    grep -E '^hs-[0-9]+-[0-9]+-[cs]$'); do
    lab_owner=${lab_ns#hs-}
    lab_owner=${lab_owner%%-*}
    kill -0 "$lab_owner" 2>/dev/null && continue
    hs_log "removing stale lab namespace $lab_ns (script $lab_owner is gone)"
    lab_kill "$(ip netns pids "$lab_ns" 2>/dev/null | tr '\n' ' ')"
    ip netns del "$lab_ns" 2>/dev/null
    rm -rf "/etc/netns/$lab_ns"
  done
}

# lab_track PID: a process of the current lab.
lab_track() {
  LAB_PIDS="$LAB_PIDS $1"
  eval "LAB_PIDS_$LAB_ID=\$LAB_PIDS"
}

# lab_kill PIDS: TERM, wait at most 5 s, then KILL (only these PIDs).
lab_kill() {
  hs_stop "$1"
  for lab_p in $1; do
    wait "$lab_p" 2>/dev/null
  done
  return 0
}

# lab_use ID: make lab ID (an earlier LAB_ID) the current one.
lab_use() {
  eval "LAB_ID=\$1 LAB_C=\$LAB_C_$1 LAB_S=\$LAB_S_$1 LAB_DIR=\$LAB_DIR_$1"
  eval "LAB_PIDS=\$LAB_PIDS_$1"
}

# lab_down [ID]: stop lab ID (default: the current one) and delete what it
# made.
lab_down() {
  lab_id=${1:-${LAB_ID:-}}
  [ -n "$lab_id" ] || return 0
  case " $LAB_LIVE " in
    *" $lab_id "*) ;;
    *) return 0 ;;
  esac
  eval "lab_pids=\$LAB_PIDS_$lab_id lab_c=\$LAB_C_$lab_id"
  eval "lab_s=\$LAB_S_$lab_id lab_xs=\${LAB_XS_$lab_id:-}"
  lab_kill "$lab_pids"
  eval "LAB_PIDS_$lab_id="
  # shellcheck disable=SC2086
  for lab_ns in "$lab_c" "$lab_s" $lab_xs; do
    if ip netns list | grep -q "^$lab_ns\( \|$\)"; then
      ip netns del "$lab_ns" || hs_log "cannot delete namespace $lab_ns"
    fi
  done
  case $lab_c in
    hs-*-c) rm -rf "/etc/netns/$lab_c" ;;
  esac
  lab_live=
  for lab_i in $LAB_LIVE; do
    [ "$lab_i" = "$lab_id" ] || lab_live="$lab_live $lab_i"
  done
  LAB_LIVE=$lab_live
  [ "$lab_id" != "${LAB_ID:-}" ] || LAB_PIDS=
  return 0
}

# lab_down_all: every lab of this script.
lab_down_all() {
  for lab_id in $LAB_LIVE; do
    lab_down "$lab_id"
  done
}

# lab_c CMD...: run CMD in the client namespace.
lab_c() {
  ip netns exec "$LAB_C" "$@"
}

# lab_s CMD...: run CMD in the server namespace.
lab_s() {
  ip netns exec "$LAB_S" "$@"
}

lab_nginx_conf() {
  lab_user=
  [ "$(id -u)" = 0 ] && lab_user='user root;'
  cat >"$1/nginx.conf" <<EOF
$lab_user
daemon off;
master_process on;
worker_processes 1;
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $1/tmp/body;
  proxy_temp_path $1/tmp/proxy;
  fastcgi_temp_path $1/tmp/fastcgi;
  uwsgi_temp_path $1/tmp/uwsgi;
  scgi_temp_path $1/tmp/scgi;
  default_type text/plain;
  root $1/www;
  absolute_redirect off;
  server_tokens off;
  keepalive_timeout 300s;
  keepalive_requests 1000000;
  http2_max_requests 1000000;
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:hopsplitlab:1m;
  ssl_session_tickets on;
  ssl_certificate $HS_PKI/server.crt;
  ssl_certificate_key $HS_PKI/server.key;
  server {
    listen $LAB_SERVER_IP:443 ssl http2;
    listen $LAB_SERVER_IP:80;
    server_name origin.test other.test localhost;
    location = /ok { return 200 "ok\n"; }
    location = /big { default_type application/octet-stream; }
    location = /redirect { return 302 /ok; }
    location /f/ { default_type application/octet-stream; }
    location ~ ^/r2(/f/.+)\$ { return 302 https://$LAB_HOST2\$1; }
    location / { return 404 "not found\n"; }
  }
}
EOF
}

# lab_wait_ready PID WHAT CMD...: CMD succeeds within 10 s while PID runs.
lab_wait_ready() {
  lab_pid=$1
  lab_what=$2
  shift 2
  lab_i=0
  while [ "$lab_i" -lt $((100 * HS_TF)) ]; do
    hs_is_running "$lab_pid" || return 1
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
    lab_i=$((lab_i + 1))
  done
  hs_log "$lab_what does not answer after 10 s"
  return 1
}

# LAB_DNSQ: python3 program, argv SERVER NAME: exit 0 when SERVER answers
# an A query for NAME with its own address (dnsq.py only asks 127.0.0.1).
LAB_DNSQ='import random, socket, struct, sys
srv, name = sys.argv[1], sys.argv[2]
qid = random.randrange(65536)
q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
q += b"".join(bytes([len(x)]) + x.encode() for x in name.split(".")) + b"\0"
q += struct.pack(">HH", 1, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(1.0)
s.sendto(q, (srv, 53))
r = s.recvfrom(4096)[0]
ok = r[:2] == q[:2] and socket.inet_aton(srv) in r[len(q):]
sys.exit(0 if ok else 1)'

# lab_up DELAY_MS [RATE_BIT_S [UP_BIT_S]]: bring a new lab up and make it
# current.  RATE limits both directions, or only the way down (server to
# client) when UP_BIT_S limits the way up.
lab_up() {
  lab_up_bare "$@"
  lab_servers
}

# lab_up_bare DELAY_MS [RATE_BIT_S [UP_BIT_S]]: the namespaces and the link
# of a new lab, made current, without servers.
lab_up_bare() {
  lab_delay_ms=$1
  lab_rate=${2:-0}
  lab_uprate=${3:-$lab_rate}
  LAB_SEQ=$((LAB_SEQ + 1))
  LAB_ID=$LAB_SEQ
  LAB_PIDS=
  # Short, unique names: namespaces hs-PID-N-c/-s, devices (15 chars at
  # most) hsPIDNc/hsPIDNs.
  LAB_C=hs-$$-$LAB_SEQ-c
  LAB_S=hs-$$-$LAB_SEQ-s
  lab_tc=hs$$$LAB_SEQ"c"
  lab_ts=hs$$$LAB_SEQ"s"
  LAB_DIR=$HS_DIR/lab$LAB_SEQ
  LAB_DELAY_MS=$lab_delay_ms
  mkdir -p "$LAB_DIR/nginx/tmp" "$LAB_DIR/nginx/www" ||
    hs_fail "cannot create $LAB_DIR"
  head -c 65536 /dev/urandom >"$LAB_DIR/nginx/www/big" ||
    hs_fail "cannot write /big"
  eval "LAB_C_$LAB_ID=\$LAB_C LAB_S_$LAB_ID=\$LAB_S LAB_DIR_$LAB_ID=\$LAB_DIR"
  eval "LAB_PIDS_$LAB_ID="
  LAB_LIVE="$LAB_LIVE $LAB_ID"
  ip netns add "$LAB_C" || hs_fail "cannot add namespace $LAB_C"
  ip netns add "$LAB_S" || hs_fail "cannot add namespace $LAB_S"
  for lab_ns in "$LAB_C" "$LAB_S"; do
    ip -n "$lab_ns" link set lo up || hs_fail "lo in $lab_ns"
    # IPv4 only: no router solicitations or other chatter on the link.
    ip netns exec "$lab_ns" sh -c \
      'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6;
       echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' ||
      hs_fail "cannot turn IPv6 off in $lab_ns"
  done

  # The link makes both TUN devices in the client namespace; one then moves
  # to the server namespace (it keeps the link's file descriptor).
  lab_us=$((lab_delay_ms * 1000))
  rm -f "$LAB_DIR/link.ready"
  ip netns exec "$LAB_C" "$HS_LABLINK" -a "$lab_tc" -b "$lab_ts" \
    -d "$lab_us" -D "$lab_rate" -U "$lab_uprate" -R ${HS_LABLINK_OPTS:-} \
    -p "$LAB_DIR/link.ready" </dev/null >"$LAB_DIR/link.log" 2>&1 &
  LAB_LINK_PID=$!
  lab_track "$LAB_LINK_PID"
  lab_i=0
  while [ ! -s "$LAB_DIR/link.ready" ]; do
    hs_is_running "$LAB_LINK_PID" && [ "$lab_i" -lt $((100 * HS_TF)) ] || {
      cat "$LAB_DIR/link.log" >&2
      hs_fail "hs-lablink did not start"
    }
    sleep 0.05
    lab_i=$((lab_i + 1))
  done
  ip -n "$LAB_C" link set "$lab_ts" netns "$LAB_S" ||
    hs_fail "cannot move $lab_ts to $LAB_S"
  ip -n "$LAB_C" addr add "$LAB_CLIENT_IP" peer "$LAB_SERVER_IP/32" \
    dev "$lab_tc" &&
    ip -n "$LAB_S" addr add "$LAB_SERVER_IP" peer "$LAB_CLIENT_IP/32" \
      dev "$lab_ts" &&
    ip -n "$LAB_C" link set "$lab_tc" mtu 1500 up &&
    ip -n "$LAB_S" link set "$lab_ts" mtu 1500 up ||
    hs_fail "cannot configure the lab's devices"

  # The client's system resolver (curl, glibc) asks the lab's dnsmasq.
  mkdir -p "/etc/netns/$LAB_C" &&
    printf 'nameserver %s\noptions timeout:2 attempts:2\n' \
      "$LAB_SERVER_IP" >"/etc/netns/$LAB_C/resolv.conf" ||
    hs_fail "cannot write /etc/netns/$LAB_C/resolv.conf"
  printf '127.0.0.1 localhost\n' >"/etc/netns/$LAB_C/hosts"
  LAB_URL=https://$LAB_HOST/
  LAB_DNS=$LAB_SERVER_IP:53
  export LAB_ID LAB_C LAB_S LAB_CLIENT_IP LAB_SERVER_IP LAB_HOST LAB_HOST2 \
    LAB_URL LAB_DNS LAB_DIR CA_FILE
}

# lab_servers: dnsmasq and nginx of the current lab (lab_up).
lab_servers() {
  ip netns exec "$LAB_S" dnsmasq --no-daemon --conf-file=/dev/null \
    --no-resolv --no-hosts --no-poll --bind-interfaces \
    --listen-address="$LAB_SERVER_IP" --port=53 --local=/test/ \
    --domain-needed --host-record="$LAB_HOST,$LAB_SERVER_IP" \
    --host-record="$LAB_HOST2,$LAB_SERVER_IP" \
    --local-ttl=300 --log-facility=- </dev/null >"$LAB_DIR/dnsmasq.log" 2>&1 &
  LAB_DNSMASQ_PID=$!
  lab_track "$LAB_DNSMASQ_PID"

  lab_nginx_conf "$LAB_DIR/nginx"
  ip netns exec "$LAB_S" nginx -p "$LAB_DIR/nginx" \
    -c "$LAB_DIR/nginx/nginx.conf" -e "$LAB_DIR/nginx/error.log" \
    </dev/null >"$LAB_DIR/nginx/nginx.out" 2>&1 &
  LAB_NGINX_PID=$!
  lab_track "$LAB_NGINX_PID"

  lab_wait_ready "$LAB_DNSMASQ_PID" dnsmasq lab_c "$HS_PYTHON" -c "$LAB_DNSQ" \
    "$LAB_SERVER_IP" "$LAB_HOST" || {
    cat "$LAB_DIR/dnsmasq.log" >&2
    hs_fail "dnsmasq did not start in $LAB_S"
  }
  lab_wait_ready "$LAB_NGINX_PID" nginx lab_c curl -sS -f -o /dev/null \
    --max-time 3 --noproxy '*' --cacert "$CA_FILE" "${LAB_URL}ok" || {
    cat "$LAB_DIR/nginx/error.log" "$LAB_DIR/nginx/nginx.out" >&2
    hs_fail "nginx did not start in $LAB_S"
  }
}

# lab_add_host ADDR DELAY_MS [RATE_BIT_S [UP_BIT_S]]: a further server namespace of
# the current lab at ADDR, joined to the client namespace by a link of its
# own (its own hs-lablink, delay and rate), so that hosts sit at different
# distances.  The client keeps $LAB_CLIENT_IP on each of its devices; the
# peer route of each device sends ADDR's packets through its own link.
# Sets LAB_XS (the namespace, taken down with the lab); the caller starts
# the servers in it.
lab_add_host() {
  lab_xaddr=$1
  lab_xdelay=$2
  lab_xrate=${3:-0}
  lab_xuprate=${4:-$lab_xrate}
  LAB_SEQ=$((LAB_SEQ + 1))
  LAB_XS=hs-$$-$LAB_SEQ-s
  lab_xtc=hs$$$LAB_SEQ"c"
  lab_xts=hs$$$LAB_SEQ"s"
  eval "LAB_XS_$LAB_ID=\"\${LAB_XS_$LAB_ID:-} \$LAB_XS\""
  ip netns add "$LAB_XS" || hs_fail "cannot add namespace $LAB_XS"
  ip -n "$LAB_XS" link set lo up || hs_fail "lo in $LAB_XS"
  ip netns exec "$LAB_XS" sh -c \
    'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6;
     echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' ||
    hs_fail "cannot turn IPv6 off in $LAB_XS"
  rm -f "$LAB_DIR/link$LAB_SEQ.ready"
  ip netns exec "$LAB_C" "$HS_LABLINK" -a "$lab_xtc" -b "$lab_xts" \
    -d $((lab_xdelay * 1000)) -D "$lab_xrate" -U "$lab_xuprate" \
    -R ${HS_LABLINK_OPTS:-} \
    -p "$LAB_DIR/link$LAB_SEQ.ready" </dev/null \
    >"$LAB_DIR/link$LAB_SEQ.log" 2>&1 &
  lab_xpid=$!
  lab_track "$lab_xpid"
  lab_i=0
  while [ ! -s "$LAB_DIR/link$LAB_SEQ.ready" ]; do
    hs_is_running "$lab_xpid" && [ "$lab_i" -lt 100 ] || {
      cat "$LAB_DIR/link$LAB_SEQ.log" >&2
      hs_fail "hs-lablink for $lab_xaddr did not start"
    }
    sleep 0.05
    lab_i=$((lab_i + 1))
  done
  ip -n "$LAB_C" link set "$lab_xts" netns "$LAB_XS" ||
    hs_fail "cannot move $lab_xts to $LAB_XS"
  ip -n "$LAB_C" addr add "$LAB_CLIENT_IP" peer "$lab_xaddr/32" \
    dev "$lab_xtc" &&
    ip -n "$LAB_XS" addr add "$lab_xaddr" peer "$LAB_CLIENT_IP/32" \
      dev "$lab_xts" &&
    ip -n "$LAB_C" link set "$lab_xtc" mtu 1500 up &&
    ip -n "$LAB_XS" link set "$lab_xts" mtu 1500 up ||
    hs_fail "cannot configure the devices for $lab_xaddr"
}

# lab_counters: SIGUSR1 to the current lab's main link, which writes its
# counters to link.log and goes on; the lines of that dump on stdout.
lab_counters() {
  lab_n0=$(grep -c 'counters (SIGUSR1)' "$LAB_DIR/link.log")
  kill -USR1 "$LAB_LINK_PID" || hs_fail "the lab's link is gone"
  lab_i=0
  while :; do
    lab_n1=$(grep -c 'counters (SIGUSR1)' "$LAB_DIR/link.log")
    [ "$lab_n1" -gt "$lab_n0" ] &&
      [ "$(sed -n "/counters (SIGUSR1)/h; //!H; \${x;p}" "$LAB_DIR/link.log" |
        grep -c 'forwarded .* packets')" -ge 2 ] && break
    lab_i=$((lab_i + 1))
    [ "$lab_i" -lt $((50 * HS_TF)) ] || hs_fail "the link wrote no counters"
    sleep 0.1
  done
  sed -n '/counters (SIGUSR1)/h; //!H; ${x;p}' "$LAB_DIR/link.log"
}

# lab_run RC ARGS...: hopsplit in the client namespace; as hs_run.
lab_run() {
  lab_want=$1
  shift
  HS_RUNS=$((HS_RUNS + 1))
  HS_OUT=$HS_DIR/run$HS_RUNS.out
  HS_ERR=$HS_DIR/run$HS_RUNS.err
  HS_CMD="hopsplit $*"
  printf '%s\n' "$HS_CMD" >"$HS_DIR/run$HS_RUNS.cmd"
  HS_RC=0
  timeout -k 5 $((120 * HS_TF)) ip netns exec "$LAB_C" "$HOPSPLIT" "$@" </dev/null \
    >"$HS_OUT" 2>"$HS_ERR" || HS_RC=$?
  if [ "$HS_RC" != "$lab_want" ]; then
    hs_show
    hs_fail "exit status $HS_RC, expected $lab_want: $HS_CMD"
  fi
}
