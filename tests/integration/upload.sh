#!/bin/sh
# upload: request bodies streamed from a file, as curl sends them.
# -T FILE is curl's upload (PUT), a lone --data-binary @FILE a POST of the
# file's bytes; both are read from the file by every sample, of any size
# (the old 16 MiB cap is gone), never held whole in memory.  Ground truth:
# nginx's DAV module stores each PUT (cmp with the source), its access log
# counts methods and Content-Length, and curl 8 sends the same requests.
# The send phase (libcurl >= 8.10, CURLINFO_POSTTRANSFER_TIME_T) is checked
# against a sink that reads the body at a known rate: 24 MiB at 8 MiB/s
# cannot be sent in less than (24 - 8) MiB / 8 MiB/s = 2 s, whatever the
# socket buffers hold, and the server's 100 Continue (libcurl's first byte)
# must not end the wait.  A file that changes size during the run fails
# that sample (class upload), and -T - is refused.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init upload
hs_require nginx openssl python3 curl timeout cmp truncate
hs_make_ca "$HS_DIR/pki"
mkdir -p "$HS_DIR/nginx/locations.d" "$HS_DIR/nginx/www/put"
cat >"$HS_DIR/nginx/locations.d/upload.conf" <<EOF ||
location /put/ { client_max_body_size 0; dav_methods PUT; }
location = /sink {
  client_max_body_size 0;
  proxy_pass http://127.0.0.1:\$server_port/sink-read;
}
location = /sink-read { client_max_body_size 0; return 200 "read\\n"; }
EOF
  hs_fail "cannot write the nginx config"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
P="http://127.0.0.1:$HTTP_PORT"
WWW=$HS_DIR/nginx/www

# 40 MiB of random bytes: over the old cap, and not compressible.
head -c $((40 * 1024 * 1024)) /dev/urandom >"$HS_DIR/up.bin" ||
  hs_fail "cannot write up.bin"
SIZE=$(wc -c <"$HS_DIR/up.bin")

# What curl sends for -T: the reference line of the access log.
hs_nginx_log_clear
curl -q -s -o /dev/null --max-time 30 --noproxy '*' --cacert "$CA_FILE" \
  --resolve "$R" -T "$HS_DIR/up.bin" "$B/put/curl.bin" ||
  hs_fail "curl -T failed"
cmp -s "$HS_DIR/up.bin" "$WWW/put/curl.bin" || hs_fail "curl's PUT differs"
hs_logged 1 "^$HTTPS_PORT PUT /put/curl.bin .* cl=\[$SIZE\]"

# hopsplit -T: every sample (2 cold, 2 warm and the warm client's priming
# request) PUTs the whole file; nginx stores it byte for byte.
hs_nginx_log_clear
hs_run 0 -n 2 --format json --resolve "$R" --cacert "$CA_FILE" \
  -T "$HS_DIR/up.bin" "$B/put/hs.bin"
hs_jcheck --all-ok --closure --samples 4 \
  "d['settings']['method'] == 'PUT'" \
  "d['settings']['body_bytes'] == $SIZE" \
  "set(col(samples, 'hops.0.method')) == {'PUT'}"
cmp -s "$HS_DIR/up.bin" "$WWW/put/hs.bin" || hs_fail "hopsplit's PUT differs"
hs_logged 5 "^$HTTPS_PORT PUT /put/hs.bin .* cl=\[$SIZE\]"

# The send phase: present and non-zero with libcurl >= 8.10, absent
# (0, never faked) before.
"$HOPSPLIT" -V >"$HS_DIR/version" 2>&1 || hs_fail "hopsplit -V failed"
if grep -Eq 'libcurl/(8\.(1[0-9]|[2-9][0-9])|9|[1-9][0-9])' "$HS_DIR/version"; then
  HAVE_SEND=1
  hs_jcheck "all(x > 0 for x in col(samples, 'hops.0.phases_us.send'))"
else
  HAVE_SEND=
  hs_jcheck "all(x == 0 for x in col(samples, 'hops.0.phases_us.send'))" \
    "all(x is None for x in col(samples, 'hops.0.curl.time_posttransfer'))"
fi

# A lone --data-binary @FILE: a POST of the file's bytes, streamed.
hs_nginx_log_clear
hs_run 0 -n 1 --mode cold --format json --data-binary "@$HS_DIR/up.bin" \
  "$P/sink"
hs_jcheck --all-ok "samples[0]['status'] == 200" \
  "d['settings']['body_bytes'] == $SIZE"
hs_logged 1 "^$HTTP_PORT POST /sink .* cl=\[$SIZE\]"

# After 307 the upload goes again, after 303 it becomes a GET (as curl).
printf 'small upload\n' >"$HS_DIR/small.txt"
for code in 303 307; do
  hs_nginx_log_clear
  curl -q -s -o /dev/null --max-time 5 --noproxy '*' --cacert "$CA_FILE" \
    --resolve "$R" -L -T "$HS_DIR/small.txt" "$B/post-$code" ||
    hs_fail "curl -T -L $code failed"
  hs_what_logged "$HS_DIR/curl$code.log"
  hs_run 0 -n 1 --mode cold --format json --resolve "$R" \
    --cacert "$CA_FILE" -T "$HS_DIR/small.txt" "$B/post-$code"
  hs_jcheck --all-ok
  hs_what_logged "$HS_DIR/hs$code.log"
  diff -u "$HS_DIR/curl$code.log" "$HS_DIR/hs$code.log" >&2 ||
    hs_fail "hopsplit -T after $code sent otherwise than curl"
done

# The paced sink: send is the upload, wait starts after it, and a
# 100 Continue does not end the wait.
head -c $((24 * 1024 * 1024)) /dev/urandom >"$HS_DIR/up24.bin"
hs_start_tcp slowsink "$HS_DIR/sink"
SINK=http://127.0.0.1:$TCP_PORT/up
hs_run 0 -n 1 --mode cold --format json -T "$HS_DIR/up24.bin" "$SINK"
grep -q '^body 25165824 bytes' "$HS_DIR/sink/slowsink.log" ||
  hs_fail "the sink did not read the whole body"
hs_jcheck --all-ok --closure \
  "samples[0]['total_us'] >= 2000000"
if [ -n "$HAVE_SEND" ]; then
  hs_jcheck "samples[0]['hops'][0]['phases_us']['send'] >= 2000000" \
    "samples[0]['hops'][0]['phases_us']['wait'] < samples[0]['hops'][0]['phases_us']['send']" \
    "samples[0]['hops'][0]['phases_us']['transfer'] < 1000000" \
    "samples[0]['hops'][0]['curl']['time_posttransfer'] >= 2.0"
fi

# A file that shrinks while it is sent fails that sample (class upload)
# and the run goes on: truncated once the sink has accepted the upload.
cp "$HS_DIR/up24.bin" "$HS_DIR/shrink.bin" || hs_fail "cannot copy"
: >"$HS_DIR/sink/slowsink.log"
timeout -k 5 $((60 * HS_TF)) "$HOPSPLIT" -n 2 --mode cold --format json \
  -T "$HS_DIR/shrink.bin" "$SINK" >"$HS_DIR/shrink.out" 2>"$HS_DIR/shrink.err" &
hs_bg=$!
hs_i=0
until grep -q 'connection from' "$HS_DIR/sink/slowsink.log"; do
  hs_i=$((hs_i + 1))
  [ "$hs_i" -lt $((100 * HS_TF)) ] || hs_fail "the sink saw no upload"
  sleep 0.05
done
truncate -s 1M "$HS_DIR/shrink.bin" || hs_fail "cannot truncate"
wait "$hs_bg"
rc=$?
[ "$rc" = 3 ] || {
  cat "$HS_DIR/shrink.err" >&2
  hs_fail "a shrinking body file: exit $rc, expected 3"
}
hs_jcheck --file "$HS_DIR/shrink.out" --samples 2 \
  "classes() == ['upload', 'upload']" \
  "re.search('shrink.bin.* changed size', samples[0]['error']['message'])" \
  "re.search('shrink.bin.* changed size', samples[1]['error']['message'])"

# Refused before anything is sent: stdin (every sample must send the same
# bytes), a missing file, -T with a body or -I.
hs_nginx_log_clear
hs_run 2 -T - "$B/put/x"
hs_grep_err "option -T: '-T -' is refused: every sample must send the same bytes"
hs_run 2 -T "$HS_DIR/missing.bin" "$B/put/x"
hs_grep_err "option -T: cannot read '.*missing\.bin': no such file"
hs_run 2 -T "$HS_DIR/small.txt" -d a=1 "$B/put/x"
hs_grep_err "cannot be combined with -d"
hs_run 2 -I -T "$HS_DIR/small.txt" "$B/put/x"
hs_grep_err "HEAD request has no body"
hs_nothing_logged "a refused run sent a request"

hs_pass
