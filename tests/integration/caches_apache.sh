#!/bin/sh
# caches_apache: hopsplit's cache verdict and vendor against Apache httpd
# 2.4 mod_cache's own log (%{cache-status}e) for every response kind of
# tests/server/caches.sh, stock and with CacheIgnoreNoLastMod On (nolm),
# plus a no-cache response without validators (nocachenv): stock Apache
# does not store it (BYPASS each time), nolm stores it and, having nothing
# to revalidate with, fetches it in full every time (MISS each time, its
# log "cache miss: attempting entity save", never a HIT).  No cs variant:
# mod_headers cannot make a Cache-Status field from mod_cache's state (see
# caches.sh).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_apache
hs_require nginx apache2 curl python3 timeout
[ -f /usr/lib/apache2/modules/mod_cache_disk.so ] ||
  hs_require mod_cache_disk
hc_start_origin "$HS_DIR/origin"
hc_start s apache stock "$HC_ORIGIN_PORT"
hc_start n apache nolm "$HC_ORIGIN_PORT"
HC_KINDS="$HC_KINDS nocachenv"
hc_run_config apache s apache
hc_run_config apache-nolm n apache
hc_score
# nolm's no-cache response without validators: Apache logged a miss (it
# attempts to save it) for each of the 3 samples, and hopsplit does not
# call any of them "stored it now: a later request may hit" but says each
# missed (issue 38 item 10).
ID=apache-nolm-nocachenv
LOG=$(hc_get n LOG)
[ "$(grep "^$ID " "$LOG" | head -3 | grep -c 'cache miss')" = 3 ] || {
  grep "^$ID " "$LOG" >&2
  hs_fail "Apache's log does not show 3 misses for $ID"
}
hs_run 0 report "$HS_DIR/json/$ID.json"
if grep -q 'stored it now' "$HS_OUT"; then
  cat "$HS_OUT" >&2
  hs_fail "$ID: the text still says 'stored it now' after 3 misses"
fi
tr '\n' ' ' <"$HS_OUT" | sed 's/  */ /g' | grep -q 'in any of the 3 samples (a MISS each time)' || {
  cat "$HS_OUT" >&2
  hs_fail "$ID: the text does not say it missed every time"
}
hs_pass
