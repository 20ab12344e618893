#!/bin/sh
# nofollow: --no-follow measures the redirect response itself: one hop,
# status 302 with its Location, a successful sample, no redirect time.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init nofollow
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
for path in /redirect-same /redirect-cross; do
  hs_run 0 -n 2 --mode cold,warm --no-follow --format json --resolve "$R" \
    --cacert "$CA_FILE" "$B$path"
  hs_jcheck --shape --closure --all-ok --samples 4 --grid 2 cold,warm \
    "nhops() == [1] * 4" \
    "col(H('cold', 0) + H('warm', 0), 'status') == [302] * 4" \
    "col(H('cold', 0), 'url') == ['$B$path'] * 2" \
    "all(col(H('cold', 0), 'location'))" \
    "col(samples, 'redirect_us') == [0] * 4" \
    "col(samples, 'ok') == [True] * 4"
done
hs_jcheck "col(H('cold', 0), 'location') == ['https://other.test:$OTHER_PORT/ok'] * 2"

hs_pass
