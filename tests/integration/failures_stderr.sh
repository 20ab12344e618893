#!/bin/sh
# failures_stderr: every distinct failure of a run is said once on stderr
# (SPEC 2), as curl says "curl: (7) ...": its class, target, count (per
# mode), message and what to do; whatever the stdout format (text, -w,
# --format json), silenced by -s alone, kept by -s -S; exit codes as
# before (3).  A failed warm or resumed priming is a warning, as
# hopsplit(1) promises.  Ground truth: a port nobody listens on (curl
# exits 7 there) and nginx with a certificate of a CA not given.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init failures_stderr
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

CLOSED=$(hs_free_port)
U="http://127.0.0.1:$CLOSED/"
B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"

# curl on the same URL: exit 7, "Failed to connect"; the reference.
hs_curl -sS -o /dev/null "$U" 2>"$HS_DIR/curl.err"
[ $? = 7 ] || hs_fail "curl does not exit 7 on a closed port: $(cat "$HS_DIR/curl.err")"

LINE="^hopsplit: \(connect\) 127\.0\.0\.1: 4 of 4 samples failed \(2 of 2 cold, 2 of 2 warm\): cannot connect to 127\.0\.0\.1:$CLOSED: Connection refused; check that a server listens at that address and port"
PRIME="^hopsplit: warning: priming 127\.0\.0\.1 \(warm\) failed: cannot connect to 127\.0\.0\.1:$CLOSED"

# failed LINES: the last run's stderr has that many lines, each failure
# line once.
failed() {
  [ "$(grep -c . "$HS_ERR")" = "$1" ] ||
    { hs_show; hs_fail "stderr has not $1 lines: $HS_CMD"; }
  [ "$(grep -cE -e "$LINE" "$HS_ERR")" = 1 ] ||
    { hs_show; hs_fail "the failure is not said once: $HS_CMD"; }
}

# Text report: the report says it on stdout, stderr says it once too.
hs_run 3 -n 2 "$U"
failed 2
hs_grep_err "$PRIME"
grep -q 'samples failed: connect' "$HS_OUT" || { hs_show; hs_fail "report"; }
# -w: stdout has curl's 000 per sample, stderr the failure.
hs_run 3 -n 2 -w '%{http_code}\n' "$U"
[ "$(cat "$HS_OUT")" = "$(printf '000\n000\n000\n000')" ] ||
  { hs_show; hs_fail "-w: not 000 per sample"; }
failed 2
# --format json: the document on stdout, the failure on stderr.
hs_run 3 -n 2 --format json "$U"
hs_jcheck "classes() == ['connect'] * 4"
failed 2
# -s alone silences it, as curl -s; -s -S (and -sS) keep it, as curl -sS.
hs_run 3 -n 2 -s -w '%{http_code}\n' "$U"
[ ! -s "$HS_ERR" ] || { hs_show; hs_fail "-s did not silence stderr"; }
hs_run 3 -n 2 -s -S -w '%{http_code}\n' "$U"
failed 2
hs_run 3 -n 2 -sS --format json "$U"
failed 2
# Cold only: one mode, no priming.
hs_run 3 -n 3 --mode cold "$U"
[ "$(grep -c . "$HS_ERR")" = 1 ] && hs_grep_err \
  "^hopsplit: \(connect\) 127\.0\.0\.1: 3 of 3 cold samples failed: cannot connect" ||
  { hs_show; hs_fail "cold only"; }
# A resumed priming that fails warns too.
hs_run 3 -n 1 --mode resumed "https://127.0.0.1:$CLOSED/"
hs_grep_err "^hopsplit: warning: priming 127\.0\.0\.1 \(resumed\) failed: cannot connect"

# Two targets, two distinct failures, one target fine: one line each for
# the two that failed, none for the one measured.
hs_run 3 -n 2 --resolve "$R" --format json refused="$U" \
  tls="$B/ok" fine="http://127.0.0.1:$HTTP_PORT/ok"
hs_grep_err "^hopsplit: \(connect\) refused: 4 of 4 samples failed" \
  "^hopsplit: \(tls\) tls: 4 of 4 samples failed \(2 of 2 cold, 2 of 2 warm\): TLS certificate of 'origin\.test' not verified .*: give its CA with --cacert FILE, or skip verification with -k$"
if grep -q 'fine' "$HS_ERR"; then
  hs_show
  hs_fail "a target that did not fail is named on stderr"
fi
[ "$(grep -c '^hopsplit: (' "$HS_ERR")" = 2 ] ||
  { hs_show; hs_fail "not two failure lines"; }
# Everything measured: no failure line, exit 0.
hs_run 0 -n 1 --mode cold "http://127.0.0.1:$HTTP_PORT/ok"
[ ! -s "$HS_ERR" ] || { hs_show; hs_fail "stderr without a failure"; }
hs_pass
