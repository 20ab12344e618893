#!/bin/sh
# http2: over HTTPS h2 is negotiated by ALPN by default and with --http2;
# --http1.1 gives HTTP/1.1; plain HTTP is 1.1 with null TLS facts.  The
# 64 KiB body is counted in full each way.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init http2
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

U="https://origin.test:$HTTPS_PORT/big"
R="origin.test:$HTTPS_PORT:127.0.0.1"
for opt in "" --http2; do
  # shellcheck disable=SC2086
  hs_run 0 -n 2 --mode cold,warm --format json --resolve "$R" \
    --cacert "$CA_FILE" $opt "$U"
  hs_jcheck --shape --closure --all-ok --samples 4 \
    "col(H('cold', 0) + H('warm', 0), 'http_version') == ['2'] * 4" \
    "col(H('cold', 0) + H('warm', 0), 'tls.alpn') == ['h2'] * 4" \
    "col(H('cold', 0) + H('warm', 0), 'size_download') == [65536] * 4" \
    "all(v in ('TLSv1.2', 'TLSv1.3') for v in col(H('cold', 0), 'tls.version'))" \
    "all(c for c in col(H('cold', 0), 'tls.cipher'))" \
    "min(col(H('cold', 0), 'phases_us.transfer')) >= 0"
done

hs_run 0 -n 2 --mode cold,warm --format json --resolve "$R" \
  --cacert "$CA_FILE" --http1.1 "$U"
hs_jcheck --shape --closure --all-ok --samples 4 \
  "col(H('cold', 0) + H('warm', 0), 'http_version') == ['1.1'] * 4" \
  "col(H('cold', 0) + H('warm', 0), 'tls.alpn') == ['http/1.1'] * 4" \
  "col(H('cold', 0) + H('warm', 0), 'size_download') == [65536] * 4" \
  "col(H('warm', 0), 'reused') == [True] * 2"

hs_run 0 -n 2 --mode cold,warm --format json \
  "http://127.0.0.1:$HTTP_PORT/big"
hs_jcheck --shape --closure --all-ok --samples 4 \
  "col(H('cold', 0) + H('warm', 0), 'http_version') == ['1.1'] * 4" \
  "col(H('cold', 0) + H('warm', 0), 'size_download') == [65536] * 4" \
  "col(H('cold', 0) + H('warm', 0), 'tls') == [{'version': None, 'cipher': None, 'alpn': None, 'resumed': None, 'offered': None, 'not_offered': None}] * 4" \
  "col(H('cold', 0), 'phases_us.tls') == [0] * 2" \
  "min(col(H('cold', 0), 'phases_us.connect')) > 0" \
  "col(H('warm', 0), 'reused') == [True] * 2"

hs_pass
