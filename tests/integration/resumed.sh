#!/bin/sh
# resumed: --mode resumed over HTTP/1.1 opens a new TCP connection per
# sample and resumes the TLS session of the primed one (SPEC 3.3: over h2
# Debian's libcurl does not resume, so the test uses --http1.1).  Cold
# samples in the same run never resume.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init resumed
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

U="https://origin.test:$HTTPS_PORT/ok"
R="origin.test:$HTTPS_PORT:127.0.0.1"
hs_run 0 -n 3 --mode resumed --http1.1 --format json --resolve "$R" \
  --cacert "$CA_FILE" "$U"
hs_jcheck --shape --closure --all-ok --samples 3 --grid 3 resumed \
  "sorted(targets[0]['summary']) == ['resumed']" \
  "nhops('resumed') == [1] * 3" \
  "col(H('resumed', 0), 'status') == [200] * 3" \
  "col(H('resumed', 0), 'http_version') == ['1.1'] * 3" \
  "col(H('resumed', 0), 'tls.resumed') == [True] * 3" \
  "col(H('resumed', 0), 'reused') == [False] * 3" \
  "min(col(H('resumed', 0), 'phases_us.connect')) > 0" \
  "min(col(H('resumed', 0), 'phases_us.tls')) > 0"

hs_run 0 -n 3 --mode cold,resumed --http1.1 --format json --resolve "$R" \
  --cacert "$CA_FILE" "$U"
hs_jcheck --shape --closure --all-ok --samples 6 --grid 3 cold,resumed \
  "col(H('cold', 0), 'tls.resumed') == [False] * 3" \
  "col(H('cold', 0), 'reused') == [False] * 3" \
  "col(H('resumed', 0), 'tls.resumed') == [True] * 3" \
  "col(H('resumed', 0), 'reused') == [False] * 3" \
  "min(col(H('resumed', 0), 'phases_us.connect')) > 0"

hs_pass
