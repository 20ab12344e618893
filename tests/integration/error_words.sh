#!/bin/sh
# error_words: errors that say what to do (issue 18).  Each failure has its
# own words, naming the host, the hop and the option to change:
#   TLS        unknown CA -> the host, --cacert FILE or -k; wrong name;
#   hop        a failure after a redirect names the hop and its URL;
#   DNS        SERVFAIL and REFUSED each in words, not "could not contact"
#              (probe_dns.c's, issue 17);
#   timeout    the limit and its option (--max-time);
#   headers    a 2 MiB header line is not "out of memory";
#   EMFILE     out of file descriptors, not "could not connect";
# and the checks before measuring, which --dry-run makes too: files named
# by --cacert/--capath (exit 2), outputs (exit 4), -w variables (exit 2),
# scheme typos (exit 2, with the URL meant), a --resolve matching no target
# (a warning).  Identical failures are said once with their count.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init error_words
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
hs_start_tcp blackhole "$HS_DIR/tcp"
BLACKHOLE=$TCP_PORT
hs_start_tcp bigline "$HS_DIR/tcp"
BIGLINE=$TCP_PORT
hs_start_tcp dns-servfail "$HS_DIR/tcp"
SERVFAIL=$TCP_PORT
hs_start_tcp dns-refused "$HS_DIR/tcp"
REFUSED=$TCP_PORT

B="https://origin.test:$HTTPS_PORT"
DNS="127.0.0.1:$DNS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"

# said WORDS...: the text report of the last run says each ERE; the
# message of every sample is the same, and said once.
said() {
  for s_re in "$@"; do
    tr '\n' ' ' <"$HS_OUT" | sed 's/  */ /g' | grep -qiE -e "$s_re" || {
      hs_show
      hs_fail "report does not say '$s_re': $HS_CMD"
    }
  done
}

# TLS: the host and what to do.  20 samples, said once with the count.
hs_run 3 -n 10 --resolve "$R" "$B/ok"
said "10 of 10 cold and 10 of 10 warm samples failed: tls: TLS certificate of 'origin\.test' not verified \(unable to get local issuer certificate\): give its CA with --cacert FILE, or skip verification with -k"
[ "$(grep -c 'not verified' "$HS_OUT")" = 1 ] ||
  { hs_show; hs_fail "the TLS failure is said more than once"; }
# stderr says it too (SPEC 2), once, with the count and the class; the
# message already says what to do, so no second hint follows.
[ "$(grep -c . "$HS_ERR")" = 2 ] && hs_grep_err \
  "^hopsplit: warning: priming origin\.test \(warm\) failed: TLS certificate" \
  "^hopsplit: \(tls\) origin\.test: 20 of 20 samples failed \(10 of 10 cold, 10 of 10 warm\): TLS certificate of 'origin\.test' not verified \(unable to get local issuer certificate\): give its CA with --cacert FILE, or skip verification with -k$" ||
  { hs_show; hs_fail "stderr: not the priming warning and one failure line"; }
hs_run 3 -n 1 --mode cold --cacert "$CA_FILE" \
  --resolve "origin.test:$WRONG_PORT:127.0.0.1" "https://origin.test:$WRONG_PORT/"
said "TLS certificate of 'origin\.test' is for another name"

# The failing hop and its URL: hop 2 of a cross-origin redirect whose host
# does not resolve (other.test is not pinned here, only origin.test).
hs_run 3 -n 1 --mode cold --format json --cacert "$CA_FILE" --resolve "$R" \
  --dns-server "127.0.0.1:$SERVFAIL" -m 3 "$B/redirect-cross"
hs_jcheck "classes() == ['dns']" \
  "samples[0]['error']['message'].startswith('hop 2 (https://other.test:$OTHER_PORT/ok): ')"

# DNS: SERVFAIL and REFUSED in their own words.
hs_run 3 -n 1 --mode cold --dns-server "127.0.0.1:$SERVFAIL" -m 3 \
  "https://nx.test/"
said "resolving 'nx\.test': SERVFAIL from 127\.0\.0\.1:$SERVFAIL"
hs_run 3 -n 1 --mode cold --dns-server "127.0.0.1:$REFUSED" -m 3 \
  "https://nx.test/"
said "resolving 'nx\.test': REFUSED (from|by) 127\.0\.0\.1:$REFUSED"
if grep -qi 'could not contact' "$HS_OUT"; then
  hs_show
  hs_fail "REFUSED still as c-ares's words"
fi

# Timeout: the limit and its option.
hs_run 3 -n 1 --mode cold -m 1 "http://127.0.0.1:$BLACKHOLE/"
said "timeout: timed out: no complete response from 127\.0\.0\.1 within 1000 ms \(--max-time\)"

# A 2 MiB header line: libcurl's limit, not "out of memory".
hs_run 3 -n 1 --mode cold "http://127.0.0.1:$BIGLINE/"
said "http: response from '127\.0\.0\.1' has a header line over libcurl's 100 KiB limit"
if grep -qi 'out of memory' "$HS_OUT"; then
  hs_show
  hs_fail "a big header line still reads as out of memory"
fi

# EMFILE: with few descriptors, a connection cannot be opened; the limit
# that stops it differs by libc and libcurl, so try a range, bounded.
found=
n=4
while [ "$n" -le 40 ] && [ -z "$found" ]; do
  HS_CMD="ulimit -n $n; hopsplit -n 1 --mode cold http://127.0.0.1:$HTTP_PORT/ok"
  # shellcheck disable=SC3045 # dash and bash have ulimit -n
  (ulimit -n "$n" && exec "$HOPSPLIT" -n 1 --mode cold --progress never \
    "http://127.0.0.1:$HTTP_PORT/ok") 2>&1 | tr '\n' ' ' |
    sed 's/  */ /g' >"$HS_DIR/emfile.out"
  if grep -qi "couldn't connect\|could not connect" "$HS_DIR/emfile.out"; then
    cat "$HS_DIR/emfile.out" >&2
    hs_fail "EMFILE shows as libcurl's connect error (ulimit -n $n)"
  fi
  grep -q 'out of file descriptors (EMFILE) opening a connection to 127\.0\.0\.1' \
    "$HS_DIR/emfile.out" && grep -q 'raise the limit (ulimit -n)' \
    "$HS_DIR/emfile.out" && found=$n
  n=$((n + 1))
done
[ -n "$found" ] || hs_fail "no descriptor limit gave the EMFILE words"
hs_log "EMFILE words at ulimit -n $found"

# Checks before measuring, the same under --dry-run.
hs_nginx_log_clear
for dry in "" --dry-run; do
  hs_run 2 $dry --resolve "$R" --cacert "$HS_DIR/nonexist.pem" "$B/ok"
  hs_grep_err "option --cacert: cannot read '.*nonexist\.pem': no such file"
  hs_run 2 $dry --resolve "$R" --capath "$CA_FILE" "$B/ok"
  hs_grep_err "option --capath: '.*' is not a directory"
  hs_run 2 $dry --resolve "$R" --cacert "$CA_FILE" -d "@$HS_DIR/none" "$B/ok"
  hs_grep_err "option -d: cannot read"
  hs_run 2 $dry --resolve "$R" --cacert "$CA_FILE" -w '%{bogus}' "$B/ok"
  hs_grep_err "option --write-out: unknown variable '%\{bogus\}'"
  hs_run 4 $dry --resolve "$R" --cacert "$CA_FILE" -o /nonexistent/r.json \
    "$B/ok"
  hs_grep_err "cannot write '/nonexistent/r\.json'"
  hs_nothing_logged "a refused run still measured"
  hs_run 0 $dry -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" \
    --resolve other.test:443:127.0.0.1 "$B/ok"
  hs_grep_err "warning: --resolve 'other\.test:443:127\.0\.0\.1' matches no target"
  hs_nginx_log_clear
done
# Scheme typos: refused with the URL that was meant, never a DNS query.
for u in "http//x.test/" "https:/x.test/" "htps://x.test/" "http:x.test/"; do
  hs_run 2 --dns-server "$DNS" "$u"
  hs_grep_err "URL '$u': the scheme is mistyped \(did you mean 'https?://x\.test/'\?\)"
done
hs_nothing_logged "a refused run still measured"
if grep -q 'x\.test' "$HS_DIR/dns/dnsmasq.log"; then
  hs_fail "a scheme typo made a DNS query"
fi

hs_pass
