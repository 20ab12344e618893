#!/bin/sh
# caches_chain2: more orders of two caches, stock: nginx proxy_cache in
# front of Varnish, Squid in front of Varnish, Varnish in front of Squid.
# The hop's verdict is the cache nearest the user (its log is the ground
# truth), both layers are listed, and the inner layer agrees with the
# inner cache's own log for every request the outer one forwarded.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_chain2
hs_require nginx varnishd varnishncsa squid curl python3 timeout
hc_start_origin "$HS_DIR/origin"
hc_start iv varnish stock "$HC_ORIGIN_PORT"
hc_start is squid stock "$HC_ORIGIN_PORT"
hc_start nv nginx stock "$(hc_port iv)"
hc_start sv squid stock "$(hc_port iv)"
hc_start vs varnish stock "$(hc_port is)"
hc_run_config nginx+varnish nv nginx iv varnish
hc_run_config squid+varnish sv squid iv varnish
hc_run_config varnish+squid vs varnish is squid
hc_score
hs_pass
