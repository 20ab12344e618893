#!/bin/sh
# secrets: credentials never reach an output unless --show-secrets (issue
# 8, SPEC 7).  A URL with a password and credential-like query parameters
# (token, sig, X-Amz-Signature) and a fragment token, Authorization,
# Cookie and Proxy-Authorization headers, a 302 whose Location carries
# token, X-Amz-Signature and X-Amz-Credential, and a final response that
# sets a cookie.  Checked: stdout of every --format, every -o file, stderr
# with -v, --dry-run, and the error messages that quote a URL (a redirect
# loop, a refused scheme, a malformed URL on the command line).  Values
# that are not secrets (keep=visible, plain=visible) stay.  --show-secrets
# shows them in the report.  That Authorization and Cookie are dropped on a cross-origin
# redirect is proven against a recording server by
# tests/integration/redirect_cross.sh.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init secrets
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
P=$HOSTILE_PORT
U="http://user:PASSW0RD@127.0.0.1:$P/secret-redir?token=SECRETQ1&sig=SECRETQ2&X-Amz-Signature=SECRETQ3&keep=visible#access_token=SECRETFRAG"
SECRETS='SECRET[A-Z0-9]+|PASSW0RD'

# clean FILE...: no secret in any of them.
clean() {
  for c_f in "$@"; do
    if grep -Eq "$SECRETS" "$c_f"; then
      grep -Eno ".{0,40}($SECRETS)" "$c_f" | head -5 >&2
      hs_show
      hs_fail "a secret appears in $c_f"
    fi
  done
}

set -- -H "Authorization: Bearer SECRETAUTH" -H "Cookie: c=SECRETCK" \
  -H "Proxy-Authorization: Basic SECRETPA" -m 5s
for f in text ndjson csv har html prom json; do
  hs_run 0 -n 1 --mode cold -v --format "$f" "$@" "$U"
  clean "$HS_OUT" "$HS_ERR"
done
hs_jcheck --closure --all-ok "nhops() == [2]" \
  "'keep=visible' in samples[0]['hops'][0]['url']" \
  "'plain=visible' in samples[0]['hops'][1]['url']" \
  "'token=REDACTED' in samples[0]['hops'][0]['location']" \
  "samples[0]['hops'][1]['headers'].get('set-cookie') == 'REDACTED'" \
  "'user:REDACTED@' in targets[0]['url']"
hs_run 0 -n 1 --mode cold -q "$@" -o "$HS_DIR/r.json" -o "$HS_DIR/r.ndjson" \
  -o "$HS_DIR/r.csv" -o "$HS_DIR/r.har" -o "$HS_DIR/r.html" \
  -o "$HS_DIR/r.prom" -o "$HS_DIR/r.txt" "$U"
clean "$HS_OUT" "$HS_ERR" "$HS_DIR"/r.*
hs_run 0 --dry-run "$@" "$U"
clean "$HS_OUT" "$HS_ERR"
grep -q REDACTED "$HS_OUT" || { hs_show; hs_fail "--dry-run shows no REDACTED"; }

# Error messages that quote a URL.
hs_run 3 -n 1 --mode cold --format json "$@" \
  "http://127.0.0.1:$P/loop?token=SECRETLOOP&sig=SECRETSIG"
clean "$HS_OUT" "$HS_ERR"
hs_jcheck "classes() == ['redirect']" \
  "'token=REDACTED' in samples[0]['error']['message']"
hs_run 3 -n 1 --mode cold "$@" \
  "http://127.0.0.1:$P/loop?token=SECRETLOOP&sig=SECRETSIG"
clean "$HS_OUT" "$HS_ERR"
for bad in 'http:///x?token=SECRETUSAGE1' 'http://[::1/?token=SECRETUSAGE2' \
  'http://h:99999/?token=SECRETUSAGE3' 'ftp://h/?token=SECRETUSAGE4'; do
  hs_run 2 -n 1 "$bad"
  clean "$HS_OUT" "$HS_ERR"
done

# --show-secrets opts out in the report.
hs_run 0 -n 1 --mode cold --format json --show-secrets "$@" "$U"
hs_jcheck "'token=SECRETQ1' in samples[0]['hops'][0]['url']" \
  "'token=SECRETTOKEN1' in samples[0]['hops'][1]['url']" \
  "'SECRETCOOKIE4' in samples[0]['hops'][1]['headers'].get('set-cookie', '')"
# (Messages made inside the probe stay redacted: stricter than needed.)
hs_run 3 -n 1 --mode cold --format json --show-secrets "$@" \
  "http://127.0.0.1:$P/loop?token=SECRETLOOP"
hs_jcheck "samples[0]['hops'][0]['url'].endswith('token=SECRETLOOP')"
hs_pass
