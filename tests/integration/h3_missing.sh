#!/bin/sh
# h3_missing: without a usable libcurl-gnutls, --http3, --http3-only and
# --protocols with h3 stop before measuring (exit 4) and say what to
# install, as curl says its libcurl lacks HTTP/3; -V says HTTP/3 is not
# available and why; a run without HTTP/3 is unaffected.  The library is
# made unloadable for hopsplit alone: in a private mount namespace
# (unshare -m) /dev/null is bound over libcurl-gnutls.so.4's file, so
# dlopen() fails as it would on a damaged install.  Needs root.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init h3_missing
if [ "$(id -u)" != 0 ]; then
  [ -z "${HOPSPLIT_TEST_REQUIRE:-}" ] || hs_fail "the mount namespace needs root"
  hs_skip "the mount namespace needs root; run as root"
fi
hs_require unshare mount nginx openssl
LIB=$(for d in /usr/lib/*-linux-gnu /usr/lib64 /usr/lib; do
  [ -e "$d/libcurl-gnutls.so.4" ] && readlink -f "$d/libcurl-gnutls.so.4"
done | head -n 1)
[ -n "$LIB" ] || hs_skip "libcurl-gnutls.so.4 is not installed here"
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
U="https://origin.test:$HTTPS_PORT/ok"
R="origin.test:$HTTPS_PORT:127.0.0.1"

# hopsplit with the library hidden, run by hs_run.
cat >"$HS_DIR/hidden" <<EOF2
#!/bin/sh
exec unshare -m sh -c 'mount --bind /dev/null "\$0" && exec "\$@"' \
  "$LIB" "$HOPSPLIT" "\$@"
EOF2
chmod +x "$HS_DIR/hidden"
HOPSPLIT=$HS_DIR/hidden

hs_nginx_log_clear
for opt in --http3 --http3-only "--protocols h2,h3"; do
  # shellcheck disable=SC2086
  hs_run 4 -n 2 $opt --resolve "$R" --cacert "$CA_FILE" "$U"
  grep -q "libcurl3-gnutls" "$HS_ERR" ||
    { hs_show; hs_fail "$opt: stderr does not say what to install"; }
  grep -q "libcurl-gnutls.so.4 cannot be loaded" "$HS_ERR" ||
    { hs_show; hs_fail "$opt: stderr does not say the library cannot be loaded"; }
  [ ! -s "$HS_OUT" ] || { hs_show; hs_fail "$opt: a report without HTTP/3"; }
done
hs_nginx_barrier
if grep -q 'GET /ok ' "$NGINX_LOG"; then
  cat "$NGINX_LOG" >&2
  hs_fail "a request was sent although HTTP/3 was unavailable"
fi

hs_run 0 -V
grep -q '^HTTP/3: not available: libcurl-gnutls.so.4 cannot be loaded' \
  "$HS_OUT" || { hs_show; hs_fail "-V does not say HTTP/3 is unavailable"; }

# Without HTTP/3 asked for, the hidden library changes nothing.
hs_run 0 -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" "$U"
hs_nginx_barrier
grep -q 'GET /ok ' "$NGINX_LOG" || hs_fail "the HTTP/2 run sent no request"
hs_pass
