#!/bin/sh
# redact_families: the families of signed URLs and the headers that carry
# URLs are redacted in every output (issue 16).  The target URL has a
# token-only userinfo (https://TOKEN@host/), ';'-separated parameters and
# a credential-like name no list knows; the server's 302 goes to a URL with
# AWS SigV2 (AWSAccessKeyId, Signature), GCS (GoogleAccessId), CloudFront
# (Policy, Key-Pair-Id), Azure SAS (sig), Akamai (hdnts=...~hmac=...), nginx
# secure_link (md5), an OAuth code and session ids, and both responses send
# X-Cache-Key, Content-Location, Link, Refresh and X-Original-Url with
# secrets.  Checked: stdout of every --format, every -o file, stderr with
# -v, --dry-run, "hopsplit report" of the saved document in every format,
# and a profile error whose value came from ${VAR}: it names the variable,
# never its value.  Values that are not secrets (plain=visible) stay.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init redact_families
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
P=$HOSTILE_PORT
U="http://SECRETUSERTOK@127.0.0.1:$P/signed-redir?a=1;sig=SECRETSEMI;plain=visible&X-Upload-Sig=SECRETQUNK&AWSAccessKeyId=SECRETQAK"
SECRETS='SECRET[A-Z0-9]+'

# clean FILE...: no secret in any of them.
clean() {
  for c_f in "$@"; do
    if grep -Eaq "$SECRETS" "$c_f"; then
      grep -Eaon ".{0,40}($SECRETS)" "$c_f" | head -5 >&2
      hs_show
      hs_fail "a secret appears in $c_f"
    fi
  done
}

set -- -H "X-Api-Key: SECRETHDR1" -H "X-Session-Id: SECRETHDR2" -m 5s
for f in text json ndjson csv har html prom; do
  hs_run 0 -n 1 --mode cold -v --format "$f" "$@" "$U"
  clean "$HS_OUT" "$HS_ERR"
done
hs_run 0 -n 1 --mode cold -q "$@" -o "$HS_DIR/r.json" -o "$HS_DIR/r.ndjson" \
  -o "$HS_DIR/r.csv" -o "$HS_DIR/r.har" -o "$HS_DIR/r.html" \
  -o "$HS_DIR/r.prom" -o "$HS_DIR/r.txt" --format json "$U"
clean "$HS_OUT" "$HS_ERR" "$HS_DIR"/r.*
hs_jcheck --all-ok "nhops() == [2]" \
  "targets[0]['url'].startswith('http://REDACTED@127.0.0.1')" \
  "';plain=visible' in samples[0]['hops'][0]['url']" \
  "'plain=visible' in samples[0]['hops'][1]['url']" \
  "'hdnts=REDACTED&md5=REDACTED&code=REDACTED&session=REDACTED;sid=REDACTED' in samples[0]['hops'][1]['url']" \
  "'AWSAccessKeyId=REDACTED&Signature=REDACTED&Expires=9&GoogleAccessId=REDACTED&Policy=REDACTED&Key-Pair-Id=REDACTED&sig=REDACTED' in samples[0]['hops'][0]['location']" \
  "samples[0]['hops'][1]['headers']['x-cache-key'].endswith('token=REDACTED&X-Amz-Signature=REDACTED&plain=visible')"
for f in text json ndjson csv har html prom; do
  hs_run 0 report --format "$f" "$HS_DIR/r.json"
  clean "$HS_OUT" "$HS_ERR"
done
hs_run 0 --dry-run "$@" "$U"
clean "$HS_OUT" "$HS_ERR"
grep -q 'X-Api-Key: REDACTED' "$HS_OUT" ||
  { hs_show; hs_fail "--dry-run does not show X-Api-Key: REDACTED"; }

# --show-secrets still shows them (the rule hides, it does not lose).
hs_run 0 -n 1 --mode cold --format json --show-secrets "$@" "$U"
hs_jcheck "'hmac=SECRETHM' in samples[0]['hops'][1]['url']" \
  "'SECRETXCK' in samples[0]['hops'][1]['headers']['x-cache-key']"

# A profile error names the variable, never its value.
cat >"$HS_DIR/env.yaml" <<EOF
targets:
- url: "http://127.0.0.1:$P/ok"
  method: "\${RF_METHOD}"
- name: "\${RF_NAME}"
  url: "\${RF_URL}"
EOF
RF_METHOD='SECRETENV1 X'
RF_NAME='SECRETENV2/x'
RF_URL='ftp://SECRETENV3/'
export RF_METHOD RF_NAME RF_URL
hs_run 2 run --dry-run "$HS_DIR/env.yaml"
clean "$HS_OUT" "$HS_ERR"
hs_grep_err "bad method '\\\$\{RF_METHOD\}'" "bad target name '\\\$\{RF_NAME\}'" \
  "URL '\\\$\{RF_URL\}'"
hs_pass
