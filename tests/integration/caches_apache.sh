#!/bin/sh
# caches_apache: hopsplit's cache verdict and vendor against Apache httpd
# 2.4 mod_cache's own log (%{cache-status}e) for every response kind of
# tests/server/caches.sh.  Stock only: mod_headers cannot make a
# Cache-Status field from mod_cache's state (see caches.sh).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_apache
hs_require nginx apache2 curl python3 timeout
[ -f /usr/lib/apache2/modules/mod_cache_disk.so ] ||
  hs_require mod_cache_disk
hc_start_origin "$HS_DIR/origin"
hc_start s apache stock "$HC_ORIGIN_PORT"
hc_run_config apache s apache
hc_score
hs_pass
