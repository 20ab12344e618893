#!/bin/sh
# caches_varnish: hopsplit's cache verdict and vendor against Varnish 7.1's
# own log (varnishncsa), for every response kind of tests/server/caches.sh,
# with the builtin VCL (stock) and with a VCL that adds Cache-Status (cs).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_varnish
hs_require nginx varnishd varnishncsa curl python3 timeout
hc_start_origin "$HS_DIR/origin"
hc_start vs varnish stock "$HC_ORIGIN_PORT"
hc_start vc varnish cs "$HC_ORIGIN_PORT"
hc_run_config varnish vs varnish
hc_run_config varnish-cs vc varnish
hc_score
hs_pass
