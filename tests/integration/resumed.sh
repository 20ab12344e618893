#!/bin/sh
# resumed: --mode resumed opens a new TCP connection per sample and
# resumes a TLS session of an earlier one, over HTTP/1.1 and HTTP/2 (issue
# 17: hopsplit keeps the sessions, so libcurl 7.88 ending h2 connections
# without close_notify no longer spoils them).  Cold samples in the same
# run never resume.  tests/integration/servers_resumed.sh checks the same
# against the servers' logs and a capture, for five servers.
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

hs_run 0 -n 3 --mode resumed --http2 --format json --resolve "$R" \
  --cacert "$CA_FILE" "$U"
hs_jcheck --shape --closure --all-ok --samples 3 \
  "col(H('resumed', 0), 'http_version') == ['2'] * 3" \
  "col(H('resumed', 0), 'tls.offered') == [True] * 3" \
  "col(H('resumed', 0), 'tls.resumed') == [True] * 3" \
  "[f for f in targets[0]['findings'] if f['kind'] == 'tls-resumption'] == []"

hs_pass
