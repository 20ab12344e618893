#!/bin/sh
# capture_caches.sh OUTDIR: capture, with curl (never hopsplit), the
# response header blocks of every real cache of caches.sh for every
# response kind, for a first and a repeated request, each with its ground
# truth from the cache's own log line (cachetruth.py), into
# OUTDIR/<config>-<kind>-first.txt and -repeat.txt in the format of
# tests/data/headers (see tests/unit/check.h).  A third request judges the
# second (was it stored?).  The repeated request is written only when its
# verdict differs from the first one's, unless HC_ALL=1.
#
#   sh tests/server/capture_caches.sh /tmp/captures   (after a build)
#
# tests/data/headers/caches/ holds a selection of its output.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
OUT=${1:?usage: capture_caches.sh OUTDIR}
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
hs_init capture_caches
hs_require nginx varnishd varnishncsa squid traffic_server apache2 curl \
  python3
hc_start_origin "$HS_DIR/origin"
# config  cache-name  vendor  description
hc_start varnish varnish stock "$HC_ORIGIN_PORT"
hc_start varnish-cs varnish cs "$HC_ORIGIN_PORT"
hc_start squid squid stock "$HC_ORIGIN_PORT"
hc_start squid-cs squid cs "$HC_ORIGIN_PORT"
hc_start ats ats stock "$HC_ORIGIN_PORT"
hc_start ats-cs ats cs "$HC_ORIGIN_PORT"
hc_start apache apache stock "$HC_ORIGIN_PORT"
hc_start nginx-cache nginx stock "$HC_ORIGIN_PORT"
hc_start nginx-cache-cs nginx cs "$HC_ORIGIN_PORT"
hc_start chain-inner-n nginx stock "$HC_ORIGIN_PORT"
hc_start chain-varnish-nginx varnish stock "$(hc_port chain-inner-n)"
hc_start chain-inner-ncs nginx cs "$HC_ORIGIN_PORT"
hc_start chain-varnish-nginx-cs varnish cs "$(hc_port chain-inner-ncs)"
hc_start chain-inner-s squid stock "$HC_ORIGIN_PORT"
hc_start chain-ats-squid ats stock "$(hc_port chain-inner-s)"
hc_start chain-inner-scs squid cs "$HC_ORIGIN_PORT"
hc_start chain-ats-squid-cs ats cs "$(hc_port chain-inner-scs)"

CONFIGS="varnish:varnish varnish-cs:varnish squid:squid squid-cs:squid
ats:trafficserver ats-cs:trafficserver apache:apache nginx-cache:nginx
nginx-cache-cs:nginx chain-varnish-nginx:varnish
chain-varnish-nginx-cs:varnish chain-ats-squid:trafficserver
chain-ats-squid-cs:trafficserver"

# cache_desc NAME: what ran, for the capture's comment.
cache_desc() {
  case $1 in
    varnish) echo "Varnish $(varnishd -V 2>&1 | sed -n 's/.*varnish-\([0-9.]*\).*/\1/p;q'), builtin VCL" ;;
    varnish-cs) echo "Varnish, builtin VCL and a vcl_deliver that adds Cache-Status" ;;
    squid) echo "Squid $(squid -v | sed -n 's/.*Version //p'), accelerator, memory cache" ;;
    squid-cs) echo "Squid, accelerator, reply_header_add Cache-Status" ;;
    ats) echo "Apache Traffic Server $(traffic_server -V 2>&1 | sed -n 's/^Traffic Server \([0-9.]*\).*/\1/p'), Debian records.config, insert_response_via_str 2" ;;
    ats-cs) echo "Apache Traffic Server, insert_response_via_str 2, header_rewrite adds Cache-Status" ;;
    apache) echo "$(apache2 -v | sed -n 's/^Server version: //p') mod_cache_disk, CacheHeader on, CacheDetailHeader on" ;;
    nginx-cache) echo "nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') proxy_cache, X-Cache-Status \$upstream_cache_status" ;;
    nginx-cache-cs) echo "nginx proxy_cache, X-Cache-Status and Cache-Status from \$upstream_cache_status" ;;
    chain-varnish-nginx) echo "Varnish (builtin VCL) in front of nginx proxy_cache" ;;
    chain-varnish-nginx-cs) echo "Varnish in front of nginx proxy_cache, both adding Cache-Status" ;;
    chain-ats-squid) echo "Traffic Server in front of Squid" ;;
    chain-ats-squid-cs) echo "Traffic Server in front of Squid, both adding Cache-Status" ;;
  esac
}

for hc_cv in $CONFIGS; do
  cfg=${hc_cv%%:*}
  for kind in $HC_KINDS; do
    for n in 1 2 3; do
      hc_fetch "$cfg" "$kind" "cap-$cfg-$kind" "$HS_DIR/$cfg-$kind-$n.hdr" ||
        hs_fail "curl $cfg $kind failed"
      sleep 0.1 # as in hc_run_config: let Apache commit what it stored
    done
  done
done
# Some caches write their logs late.
sleep $((6 * HS_TF))
for hc_cv in $CONFIGS; do
  cfg=${hc_cv%%:*}
  vendor=${hc_cv#*:}
  cache=$(hc_get "$cfg" CACHE)
  log=$(hc_get "$cfg" LOG)
  for kind in $HC_KINDS; do
    "$HS_PYTHON" "$HS_LIB_DIR/cachetruth.py" truth "$cache" "$log" "$kind" \
      "cap-$cfg-$kind" >"$HS_DIR/truth" || hs_fail "no truth for $cfg $kind"
    [ "$(wc -l <"$HS_DIR/truth")" -ge 2 ] ||
      hs_fail "$cfg $kind: the log has fewer than 3 lines"
    first=$(sed -n '1s/\t.*//p' "$HS_DIR/truth")
    n=0
    while IFS='	' read -r verdict raw; do
      n=$((n + 1))
      case $n in
        1) which=first ;;
        2) which=repeat ;;
        *) continue ;;
      esac
      if [ "$n" = 2 ] && [ "$verdict" = "$first" ] && [ -z "${HC_ALL:-}" ]
      then
        continue
      fi
      f="$OUT/$cfg-$kind-$which.txt"
      {
        echo "# vendor: $vendor"
        case $cfg in
          chain-varnish-nginx*) echo "# layers: varnish nginx" ;;
          chain-ats-squid*) echo "# layers: trafficserver squid" ;;
        esac
        echo "# verdict: $verdict"
        echo "# log: $raw"
        [ "$kind" = reqcookie ] && echo "# cookie: 1"
        echo "# captured with curl: $(cache_desc "$cfg"); origin sends /$kind; request $n of 3"
        tr -d '\r' <"$HS_DIR/$cfg-$kind-$n.hdr"
      } >"$f"
    done <"$HS_DIR/truth"
  done
done
find "$OUT" -name "*.txt" | wc -l >&2
hs_pass
