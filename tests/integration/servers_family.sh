#!/bin/sh
# servers_family: the address family of a dual-stack name, as curl picks it
# (issue 17, item 3).  NSD serves the zone, unbound resolves it for
# hopsplit (--dns-server); nginx listens on 127.0.0.1 and [::1] on one port
# and on 127.0.0.1 only on another.
#
# Ground truth: curl itself, resolving through glibc (getaddrinfo sorts by
# RFC 6724) with the same addresses in an /etc/hosts that is bind-mounted
# in a private mount namespace (root; the machine's file is untouched), the
# IPv4 address written first so that an unsorted order would show; nginx's
# access log (which address the client came from); dig for the CNAME chain.
# Asserted: hopsplit connects over the family curl uses, records it
# (family), sorts the pinned addresses like curl, records a first family
# that failed (fallback) when the server listens on IPv4 only, and -4/-6
# still force the family.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/servers.sh"
hs_init servers_family
hs_require openssl python3 curl timeout nginx nsd unbound dig
sv_has_ipv6 || { hs_lack "no ::1 on this machine"; exit 77; }
sv_make_cert
sv_start_nginx "$HS_DIR/nginx"
sv_start_nsd "$HS_DIR/nsd"
sv_start_unbound "$HS_DIR/unbound" resolve
DNS=127.0.0.1:$UNBOUND_PORT
P=$NGINX_TLS_PORT
P4=$NGINX_V4_PORT

PROBLEMS=
problem() {
  hs_log "PROBLEM: $*"
  PROBLEMS="$PROBLEMS
  $*"
}

# curl through glibc, as a user runs it: prints "REMOTE_IP TRIED..." where
# TRIED is the list of addresses curl -v says it tried, in order.
curl_as_user() {
  host=$1
  port=$2
  printf '127.0.0.1 %s\n::1 %s\n' "$host" "$host" >"$HS_DIR/hosts"
  unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift &&
    exec curl -q -v -sS -o /dev/null --max-time 10 --noproxy "*" \
      -w "remote_ip=%{remote_ip}\n" "$@"' sh "$HS_DIR/hosts" \
    --cacert "$CA_FILE" "https://$host:$port/ok" >"$HS_DIR/curl.out" 2>&1
  ip=$(sed -n 's/^remote_ip=//p' "$HS_DIR/curl.out")
  tried=$(sed -n 's/^\* *Trying \[*\([0-9a-f.:]*\)\]*:[0-9]*\.\.\..*/\1/p' \
    "$HS_DIR/curl.out" | tr '\n' ' ')
  echo "$ip $tried"
}

CURL_DUAL=
CURL_V4SRV=
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
  unshare -m true 2>/dev/null; then
  CURL_DUAL=$(curl_as_user dual.test "$P")
  CURL_V4SRV=$(curl_as_user v4srv.test "$P4")
  hs_log "curl (glibc, RFC 6724): dual.test -> ${CURL_DUAL%% *} (tried ${CURL_DUAL#* }); v4srv.test -> ${CURL_V4SRV%% *} (tried ${CURL_V4SRV#* })"
  case $CURL_DUAL in
    ::1\ *) ;;
    *) hs_fail "curl did not pick ::1 for dual.test: $CURL_DUAL (see $HS_DIR/curl.out)" ;;
  esac
  case $CURL_V4SRV in
    "127.0.0.1 ::1 127.0.0.1 ") ;;
    *) hs_fail "curl for v4srv.test did not try ::1 first, then 127.0.0.1: $CURL_V4SRV" ;;
  esac
elif [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ]; then
  hs_fail "curl as a user needs root and unshare -m"
else
  hs_log "no mount namespace: curl's choice is taken as RFC 6724's (::1)"
  CURL_DUAL="::1 ::1"
  CURL_V4SRV="127.0.0.1 ::1 127.0.0.1 "
fi
CURL_IP=${CURL_DUAL%% *}

# dig: the CNAME chain of c1.test as the resolver gives it.
CHAIN=$(dig +short +time=2 +tries=1 -p "$UNBOUND_PORT" @127.0.0.1 c1.test A |
  sed -n 's/\.$//p' | tr '\n' ' ')
[ "$CHAIN" = "c2.test c3.test dual.test " ] ||
  hs_fail "dig: unexpected chain for c1.test: '$CHAIN'"

# 1. A dual-stack name and a CNAME chain to it: the family curl uses.
for name in dual.test c1.test; do
  : >"$NGINX_TLS_LOG"
  hs_run 0 -n 2 --mode cold,warm --format json --dns-server "$DNS" \
    --cacert "$CA_FILE" "https://$name:$P/ok"
  (hs_jcheck --shape --closure --all-ok --samples 4 \
    "col(H('cold', 0), 'remote_ip') == ['$CURL_IP'] * 2" \
    "col(H('cold', 0), 'family') == ['ipv6'] * 2" \
    "col(H('warm', 0), 'family') == ['ipv6'] * 2" \
    "[a[0] for a in col(H('cold', 0), 'dns.addresses')] == ['$CURL_IP'] * 2" \
    "sorted(col(H('cold', 0), 'dns.addresses')[0]) == ['127.0.0.1', '::1']" \
    "col(H('cold', 0), 'fallback') == [None] * 2") ||
    problem "$name: not the family curl uses ($CURL_IP)"
  # nginx saw every measured request (and the priming one) from ::1.
  (sv_wait_log "$NGINX_TLS_LOG" 5 "^::1 [0-9]+ HTTP/2.0 200 /ok") ||
    problem "$name: nginx did not see the requests come from ::1"
  if [ "$name" = c1.test ]; then
    (hs_jcheck "col(H('cold', 0), 'dns.cnames') == [['c2.test', 'c3.test', 'dual.test']] * 2") ||
      problem "c1.test: the CNAME chain is not dig's ($CHAIN)"
  fi
done

# 2. -4 and -6 force the family, as before.
hs_run 0 -n 1 --mode cold --format json -4 --dns-server "$DNS" \
  --cacert "$CA_FILE" "https://dual.test:$P/ok"
(hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'remote_ip') == ['127.0.0.1']" \
  "col(H('cold', 0), 'dns.addresses') == [['127.0.0.1']]" \
  "col(H('cold', 0), 'family') == ['ipv4']") || problem "-4"
hs_run 0 -n 1 --mode cold --format json -6 --dns-server "$DNS" \
  --cacert "$CA_FILE" "https://dual.test:$P/ok"
(hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'remote_ip') == ['::1']" \
  "col(H('cold', 0), 'dns.addresses') == [['::1']]" \
  "col(H('cold', 0), 'family') == ['ipv6']") || problem "-6"
hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "https://v6only.test:$P/ok"
(hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'remote_ip') == ['::1']" \
  "col(H('cold', 0), 'family') == ['ipv6']") || problem "v6only.test"

# 3. The server listens on 127.0.0.1 only: like curl, ::1 is tried first,
# refused, and the hop says so and what it cost.
CURL_V4_IP=${CURL_V4SRV%% *}
hs_run 0 -n 2 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "https://v4srv.test:$P4/ok"
(hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'remote_ip') == ['$CURL_V4_IP'] * 2" \
  "col(H('cold', 0), 'family') == ['ipv4'] * 2" \
  "col(H('cold', 0), 'fallback.family') == ['ipv6'] * 2" \
  "col(H('cold', 0), 'fallback.address') == ['::1'] * 2" \
  "all(isinstance(x, int) and x >= 0 for x in col(H('cold', 0), 'fallback.lost_us'))" \
  "all(x for x in col(H('cold', 0), 'fallback.reason'))") ||
  problem "v4srv.test: the failed IPv6 attempt is not recorded as curl shows it"

[ -z "$PROBLEMS" ] || hs_fail "$(echo "$PROBLEMS" | grep -c .) problem(s):$PROBLEMS"
hs_pass
