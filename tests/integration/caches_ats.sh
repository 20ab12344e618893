#!/bin/sh
# caches_ats: hopsplit's cache verdict and vendor against the cache's own log
# for every response kind of tests/server/caches.sh, stock and with an
# RFC 9211 Cache-Status field added by the cache's configuration (cs).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_ats
hs_require nginx traffic_server curl python3 timeout
hc_start_origin "$HS_DIR/origin"
hc_start s ats stock "$HC_ORIGIN_PORT"
hc_start c ats cs "$HC_ORIGIN_PORT"
hc_run_config ats s trafficserver
hc_run_config ats-cs c trafficserver
hc_score
hs_pass
