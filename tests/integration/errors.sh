#!/bin/sh
# errors: every failure class of a sample, with exit status 3, a complete
# JSON document (shape and closure still hold, partial false) and the run
# going on after a failure:
#   dns       NXDOMAIN from dnsmasq; a resolver port nobody listens on;
#             SERVFAIL; a resolver that never answers (bounded by -m)
#   connect   refused (cold and warm)
#   tls       unknown CA (no --cacert), wrong name, expired certificate
#   timeout   a server that accepts and never answers, -m 1s (http, https)
#   http      non-HTTP bytes, a bad status line, 1 MiB of headers
#   redirect  a loop, a file: Location, more redirects than -L
# and the non-failures: -k accepts the bad certificates, HTTP 500 is a
# measured response (exit 0).  An output that cannot be written is exit 4.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init errors
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
hs_start_tcp blackhole "$HS_DIR/tcp"
BLACKHOLE=$TCP_PORT
hs_start_tcp garbage "$HS_DIR/tcp"
GARBAGE=$TCP_PORT
hs_start_tcp badstatus "$HS_DIR/tcp"
BADSTATUS=$TCP_PORT
hs_start_tcp bigheaders "$HS_DIR/tcp"
BIGHEADERS=$TCP_PORT
hs_start_tcp dns-blackhole "$HS_DIR/tcp"
DNS_BLACKHOLE=$TCP_PORT
hs_start_tcp dns-servfail "$HS_DIR/tcp"
DNS_SERVFAIL=$TCP_PORT
DEAD=$(hs_free_port) || hs_fail "no free port"

B="https://origin.test:$HTTPS_PORT"
DNS="127.0.0.1:$DNS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"

# fails CLASS ARGS...: exit 3, every sample failed with CLASS, the document
# complete.  Further checks on the same output follow with hs_jcheck.
fails() {
  f_class=$1
  shift
  hs_run 3 --format json "$@"
  hs_jcheck --shape --closure \
    "len(samples) > 0" \
    "classes() == ['$f_class'] * len(samples)" \
    "col(samples, 'ok') == [False] * len(samples)" \
    "d['partial'] == False"
}

# dns
fails dns -n 1 --mode cold --dns-server "$DNS" --cacert "$CA_FILE" \
  "https://missing.test:$HTTPS_PORT/"
fails dns -n 1 --mode cold --dns-server "127.0.0.1:$DEAD" -m 5s \
  --cacert "$CA_FILE" "$B/"
fails dns -n 1 --mode cold --dns-server "127.0.0.1:$DNS_SERVFAIL" -m 5s \
  --cacert "$CA_FILE" "$B/"
# A resolver that never answers: -m bounds the lookup too (SPEC 7).
fails dns -n 1 --mode cold --dns-server "127.0.0.1:$DNS_BLACKHOLE" -m 2s \
  --cacert "$CA_FILE" "$B/"
hs_elapsed_below 12000

# connect, in both modes: the run goes on after each failure.
fails connect -n 2 --mode cold,warm "http://127.0.0.1:$DEAD/"
hs_jcheck --grid 2 cold,warm
fails connect -n 1 --mode cold --resolve "origin.test:$DEAD:127.0.0.1" \
  --cacert "$CA_FILE" "https://origin.test:$DEAD/"

# tls
fails tls -n 1 --mode cold --resolve "$R" "$B/"
fails tls -n 1 --mode cold --resolve "origin.test:$WRONG_PORT:127.0.0.1" \
  --cacert "$CA_FILE" "https://origin.test:$WRONG_PORT/"
fails tls -n 1 --mode cold \
  --resolve "origin.test:$EXPIRED_PORT:127.0.0.1" --cacert "$CA_FILE" \
  "https://origin.test:$EXPIRED_PORT/"
for port in "$WRONG_PORT" "$EXPIRED_PORT"; do
  hs_run 0 -n 1 --mode cold --format json -k \
    --resolve "origin.test:$port:127.0.0.1" "https://origin.test:$port/"
  hs_jcheck --shape --closure --all-ok "col(H('cold', 0), 'status') == [200]"
done

# timeout: 3 rounds, 3 failed samples, the document complete.
fails timeout -n 3 --mode cold -m 1s "http://127.0.0.1:$BLACKHOLE/"
hs_jcheck --samples 3 --grid 3 cold
hs_elapsed_below 12000
fails timeout -n 1 --mode cold -m 1s -k "https://127.0.0.1:$BLACKHOLE/"

# http: malformed responses.
for port in "$GARBAGE" "$BADSTATUS" "$BIGHEADERS"; do
  fails http -n 1 --mode cold -m 5s "http://127.0.0.1:$port/"
done

# redirect
fails redirect -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" "$B/loop-a"
hs_jcheck "2 <= nhops()[0] <= 3" \
  "'loop' in samples[0]['error']['message'].lower()"
fails redirect -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" \
  "$B/to-file"
hs_jcheck "nhops() == [1]" "col(H('cold', 0), 'status') == [302]"
fails redirect -n 1 --mode cold --max-redirs 1 --resolve "$R" --cacert "$CA_FILE" \
  "$B/redirect-chain"
hs_jcheck "nhops() == [2]" \
  "[h['status'] for h in samples[0]['hops']] == [301, 302]"
fails redirect -n 1 --mode cold --max-redirs 1 --resolve "$R" \
  --cacert "$CA_FILE" "$B/redirect-chain"
hs_jcheck "nhops() == [2]"

# The text report of a failed run says what failed.
hs_run 3 -n 1 --mode cold "http://127.0.0.1:$DEAD/"
grep -qi connect "$HS_OUT" "$HS_ERR" ||
  { hs_show; hs_fail "text output does not name the connect failure"; }

# An HTTP error status is a measured response, not a failed sample.
hs_run 0 -n 1 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" \
  "$B/status/500"
hs_jcheck --shape --closure --all-ok "col(H('cold', 0), 'status') == [500]"

# An output file that cannot be written: setup error.
hs_run 4 -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" \
  -o "$HS_DIR/no-such-dir/run.json" "$B/ok"
hs_grep_err 'no-such-dir/run\.json'

hs_pass
