#!/bin/sh
# caches_chain: two caches in a row.  Varnish in front of nginx proxy_cache,
# and Traffic Server in front of Squid, each stock and with Cache-Status
# (cs).  The hop's verdict is the cache nearest the user (its log is the
# ground truth); both layers are listed, nearest the user first.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_chain
hs_require nginx varnishd varnishncsa squid traffic_server curl python3 \
  timeout
hc_start_origin "$HS_DIR/origin"
hc_start ns nginx stock "$HC_ORIGIN_PORT"
hc_start vs varnish stock "$(hc_port ns)"
hc_start nc nginx cs "$HC_ORIGIN_PORT"
hc_start vc varnish cs "$(hc_port nc)"
hc_start ss squid stock "$HC_ORIGIN_PORT"
hc_start as ats stock "$(hc_port ss)"
hc_start sc squid cs "$HC_ORIGIN_PORT"
hc_start ac ats cs "$(hc_port sc)"
hc_run_config varnish+nginx vs varnish ns nginx
hc_run_config varnish+nginx-cs vc varnish nc nginx
hc_run_config ats+squid as trafficserver ss squid
hc_run_config ats+squid-cs ac trafficserver sc squid
hc_score
hs_pass
