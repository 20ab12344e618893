#!/bin/sh
# caches_nginx: hopsplit's cache verdict and vendor against the cache's own log
# for every response kind of tests/server/caches.sh, stock and with an
# RFC 9211 Cache-Status field added by the cache's configuration (cs).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_nginx
hs_require nginx nginx curl python3 timeout
hc_start_origin "$HS_DIR/origin"
hc_start s nginx stock "$HC_ORIGIN_PORT"
hc_start c nginx cs "$HC_ORIGIN_PORT"
hc_run_config nginx s nginx
hc_run_config nginx-cs c nginx
hc_score
hs_pass
