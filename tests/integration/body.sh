#!/bin/sh
# body: request bodies and methods on every hop as curl sends them.  Each
# case runs real curl and hopsplit with the same options against nginx and
# compares what nginx logged (method, URI, Content-Type, Content-Length,
# Accept, and the body where nginx reads it): -d joins pieces with '&',
# --json appends and sets Content-Type and Accept, @FILE reads a file
# (-d strips newlines, --data-binary keeps them), 301/302/303 after POST
# become GET without the body unless --post30x, 307/308 keep both, and -X
# is sent on every hop.  Files named by -d are checked before anything is
# measured (exit 2).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init body
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"

printf 'line1\nline2\r\n' >"$HS_DIR/form.txt"
printf '{"q":\n "query { me }"}\n' >"$HS_DIR/q.json"

n=0
same_as_curl() {
  n=$((n + 1))
  hs_nginx_log_clear
  curl -q -s -o /dev/null --max-time 5 --noproxy '*' --cacert "$CA_FILE" \
    --resolve "$R" -L "$@" || hs_fail "curl $* failed"
  hs_what_logged "$HS_DIR/curl$n.log"
  [ -s "$HS_DIR/curl$n.log" ] || hs_fail "nginx logged nothing for curl $*"
  hs_run 0 -n 1 --mode cold --format json --resolve "$R" \
    --cacert "$CA_FILE" "$@"
  hs_jcheck --all-ok
  hs_what_logged "$HS_DIR/hopsplit$n.log"
  diff -u "$HS_DIR/curl$n.log" "$HS_DIR/hopsplit$n.log" >&2 ||
    hs_fail "hopsplit sent otherwise than curl: $*"
}

same_as_curl -d a=1 -d b=2 "$B/echo"
same_as_curl --json '{"a":1}' --json '{"b":2}' "$B/echo"
same_as_curl -d x=1 --json '{"b":2}' "$B/echo"
same_as_curl --data-raw '@not-a-file' "$B/echo"
same_as_curl -d "@$HS_DIR/form.txt" "$B/echo"
same_as_curl --data-binary "@$HS_DIR/form.txt" "$B/echo"
same_as_curl --json "@$HS_DIR/q.json" "$B/echo"
same_as_curl -H 'Content-Type: text/plain' -d 'plain' "$B/echo"
for code in 301 302 303 307 308; do
  same_as_curl -d "x=$code" "$B/post-$code"
done
same_as_curl --post301 -d k=1 "$B/post-301"
same_as_curl --post302 -d k=2 "$B/post-302"
same_as_curl --post303 -d k=3 "$B/post-303"
same_as_curl -X PUT -d z=1 "$B/post-302"
same_as_curl -X PUT -d z=1 "$B/post-307"
same_as_curl -X POST "$B/redirect-303"
same_as_curl -X DELETE "$B/redirect-same"
same_as_curl -I "$B/post-303"

# Shown as it went out: POST, and the body's size in the settings.
hs_run 0 -n 1 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" \
  --json '{"a":1}' "$B/echo"
hs_jcheck "d['settings']['method'] == 'POST'" "d['settings']['body_bytes'] == 7" \
  "samples[0]['hops'][0]['method'] == 'POST'"

# The body is read once and replayed by every sample: 3 rounds x 2 modes
# from one read of a FIFO (a second read would block until the timeout).
mkfifo "$HS_DIR/body.fifo"
(printf 'once=1' >"$HS_DIR/body.fifo") &
hs_nginx_log_clear
hs_run 0 -n 3 --format json --resolve "$R" --cacert "$CA_FILE" \
  -d "@$HS_DIR/body.fifo" "$B/echo"
# 6 samples and the warm client's unmeasured first request.
hs_logged 7 "^$HTTPS_PORT POST /echo .* cl=\[6\] .* body=\[once=1\]"

# Files named by options are checked before measuring.
hs_nginx_log_clear
hs_run 2 --resolve "$R" --cacert "$CA_FILE" -d "@$HS_DIR/missing.txt" \
  "$B/echo"
hs_grep_err "option -d: cannot read '.*missing\.txt': no such file"
hs_run 2 --resolve "$R" --cacert "$CA_FILE" --data-binary "@$HS_DIR/missing.bin" \
  "$B/echo"
hs_grep_err "option --data-binary: cannot read '.*missing\.bin': no such file"
hs_run 2 --resolve "$R" --cacert "$CA_FILE" -I -d x=1 "$B/echo"
hs_grep_err "HEAD request has no body"
hs_nothing_logged "a refused run sent a request"

hs_pass
