#!/bin/sh
# tls: certificates a client must refuse (issue 8, SPEC 7): a self-signed
# one (served by hostile.py), an expired one and one for another host
# (nginx of tests/server/lib.sh).  Each fails with class tls and a
# message about the certificate, the good target after it is measured,
# exit 3.  With -k they are measured, and every report that has a header
# says verification was off: JSON settings.insecure, the ndjson summary,
# HAR, HTML and the text header.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init tls
hs_require nginx openssl python3 curl timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout "$HS_DIR/self.key" -out "$HS_DIR/self.crt" -days 2 \
  -subj /CN=origin.test \
  -addext "subjectAltName=DNS:origin.test,IP:127.0.0.1" \
  >"$HS_DIR/self.log" 2>&1 || { cat "$HS_DIR/self.log" >&2; hs_fail "openssl"; }
hs_start_hostile http "$HS_DIR/srv" "$HS_DIR/self.crt" "$HS_DIR/self.key"
SELF=$HOSTILE_PORT
GOOD="good=https://origin.test:$HTTPS_PORT/ok"
T="-m 5s --connect-timeout 2s --cacert $CA_FILE"
R="--resolve origin.test:$HTTPS_PORT:127.0.0.1"

# shellcheck disable=SC2086
hs_bad_then_good tls 'self.signed|certificate|verif' $T $R \
  --resolve "origin.test:$SELF:127.0.0.1" \
  "bad=https://origin.test:$SELF/ok" "$GOOD"
# shellcheck disable=SC2086
hs_bad_then_good tls 'expired|certificate' $T $R \
  --resolve "origin.test:$EXPIRED_PORT:127.0.0.1" \
  "bad=https://origin.test:$EXPIRED_PORT/ok" "$GOOD"
# shellcheck disable=SC2086
hs_bad_then_good tls 'match|name|subject|certificate' $T $R \
  --resolve "origin.test:$WRONG_PORT:127.0.0.1" \
  "bad=https://origin.test:$WRONG_PORT/ok" "$GOOD"

# Without -k the reports say nothing about it; with -k every one does.
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json $T $R "https://origin.test:$HTTPS_PORT/ok"
hs_jcheck "d['settings']['insecure'] == False"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold $T $R "https://origin.test:$HTTPS_PORT/ok"
if grep -qi 'verification' "$HS_OUT"; then
  hs_show
  hs_fail "the text report warns about -k without -k"
fi
U="https://origin.test:$SELF/ok"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json -k $T --resolve "origin.test:$SELF:127.0.0.1" "$U"
hs_jcheck --closure --all-ok "d['settings']['insecure'] == True"
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold -k $T --resolve "origin.test:$SELF:127.0.0.1" "$U"
grep -q 'TLS verification is OFF' "$HS_OUT" ||
  { hs_show; hs_fail "text header does not show -k"; }
for f in ndjson har html; do
  # shellcheck disable=SC2086
  hs_run 0 -n 1 --mode cold -k --format $f $T \
    --resolve "origin.test:$SELF:127.0.0.1" "$U"
  grep -Eqi '"insecure": ?true|verification was OFF' "$HS_OUT" ||
    { hs_show; hs_fail "--format $f does not show -k"; }
done
hs_pass
