#!/bin/sh
# serve_blackbox_net: the network keys of blackbox_exporter's http
# modules (issue 27) as the real prometheus-blackbox-exporter (Debian's
# 0.23) honours them, beside it on the same targets:
#   preferred_ip_protocol with ip_protocol_fallback: names with only an
#     AAAA (v6only.test), only an A (origin.test) or both (dual.test);
#     which address each prober came from is nginx's log ($remote_addr).
# hopsplit resolves through dnsmasq (--dns-server); blackbox's Go resolver
# reads the same records from an /etc/hosts bind-mounted in a private
# mount namespace (root and unshare -m; the machine's file is untouched).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_blackbox_net
hs_require nginx openssl python3 curl dnsmasq unshare \
  prometheus-blackbox-exporter
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
  hs_lack "blackbox_exporter's names need root and unshare -m" || exit 77
fi
grep -q '00000000000000000000000000000001' /proc/net/if_inet6 2>/dev/null ||
  { hs_lack "no ::1 on this machine" || exit 77; }
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
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
EOF
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
show() { # show N: the lines of the report
  grep -E '^probe_(success|ip_protocol|ip_addr_hash|http_status_code) ' \
    "$HS_DIR/$1" | tr '\n' ' '
}
# names_logged ADDR PORT UA: nginx's names log has one GET /ok from ADDR
# by UA (hopsplit or Blackbox).
names_logged() {
  hs_i=0
  until [ "$(grep -c "^$1 $2 GET /ok .*ua=\[$3" "$NAMES_LOG")" = 1 ]; do
    [ "$hs_i" -ge $((30 * HS_TF)) ] && {
      cat "$NAMES_LOG" >&2
      hs_fail "names log: not one GET /ok from $1 by $3"
    }
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
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
  echo "$HS_DIR/bb$n.prom $HS_DIR/hs$n.prom $names" >>"$HS_DIR/pairs"
  echo "$HS_DIR/hs$n.prom $HS_DIR/bb$n.prom $names" >>"$HS_DIR/pairs"
done
python3 "$HS_LIB_DIR/promdiff.py" --batch "$HS_DIR/pairs" ||
  hs_fail "preferred_ip_protocol: /probe differs from blackbox_exporter's"

hs_pass
