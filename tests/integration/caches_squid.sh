#!/bin/sh
# caches_squid: hopsplit's cache verdict and vendor against the cache's own log
# for every response kind of tests/server/caches.sh, stock and with an
# RFC 9211 Cache-Status field added by the cache's configuration (cs).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_squid
hs_require nginx squid curl python3 timeout
hc_start_origin "$HS_DIR/origin"
hc_start s squid stock "$HC_ORIGIN_PORT"
hc_start c squid cs "$HC_ORIGIN_PORT"
hc_run_config squid s squid
hc_run_config squid-cs c squid
hc_score
hs_pass
