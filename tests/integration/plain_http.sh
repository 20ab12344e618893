#!/bin/sh
# plain_http: a URL without a scheme becomes https (SPEC 2); on a port
# that speaks plain HTTP the TLS handshake fails, and the failure says so
# and what to type instead, where curl only relays OpenSSL's words.  The
# port is nginx's plain listener; curl 8 on the same URL is the reference
# for the failure itself (its exit 35, a TLS connect error).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init plain_http
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

curl -q -sS -o /dev/null --max-time 10 "https://127.0.0.1:$HTTP_PORT/ok" \
  2>"$HS_DIR/curl.err"
[ $? = 35 ] || hs_fail "curl did not fail the handshake: $(cat "$HS_DIR/curl.err")"

for url in "127.0.0.1:$HTTP_PORT/ok" "https://127.0.0.1:$HTTP_PORT/ok"; do
  hs_run 3 -n 1 --mode cold --format json "$url"
  hs_jcheck --shape "classes() == ['tls']" \
    "'the server speaks plain HTTP there, try http://127.0.0.1:$HTTP_PORT' in samples[0]['error']['message']"
done
hs_run 3 -n 1 --mode cold "127.0.0.1:$HTTP_PORT/ok"
grep -q "try http://127.0.0.1:$HTTP_PORT" "$HS_OUT" ||
  hs_fail "the text report does not give the hint: $(cat "$HS_OUT")"

# Told where it is true only: an HTTPS port's certificate failure is not
# a plain-HTTP port.
hs_run 3 -n 1 --mode cold --format json "https://127.0.0.1:$HTTPS_PORT/ok"
grep -q 'plain HTTP' "$HS_OUT" && hs_fail "plain HTTP hint on an HTTPS port"

# And the hint's URL works.
hs_run 0 -n 1 --mode cold --format json "http://127.0.0.1:$HTTP_PORT/ok"

hs_pass
