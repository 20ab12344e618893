#!/bin/sh
# warmup: what a run pays once happens before round 1, not in the first
# sample.  The trust store is parsed once, before measuring starts (-v
# says so, with the number of certificates, before its "set-up done,
# measuring" line), never again, and not at all with -k; a profile whose
# targets name their own CA files has each parsed before measuring; the
# first cold sample then succeeds like the others.  (With Debian's bundle, parsing
# inside the first sample had added 30 to 45 ms to its "other".)
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init warmup
hs_require nginx openssl python3 timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

# A bundle of realistic size: the system's, if any, and the test CA.
BUNDLE=$HS_DIR/bundle.pem
{
  [ ! -r /etc/ssl/certs/ca-certificates.crt ] ||
    cat /etc/ssl/certs/ca-certificates.crt
  cat "$CA_FILE"
} >"$BUNDLE"
# Distinct certificates (a store keeps one of duplicates).
certs=$(awk '/-----BEGIN CERTIFICATE-----/ { c = "" } { c = c $0 "\n" }
  /-----END CERTIFICATE-----/ { if (!(c in seen)) n++; seen[c] = 1 }
  END { print n + 0 }' "$BUNDLE")
R="origin.test:$HTTPS_PORT:127.0.0.1"
U="https://origin.test:$HTTPS_PORT/ok"

hs_run 0 -v -n 3 --mode cold --format json --resolve "$R" --cacert "$BUNDLE" "$U"
hs_jcheck --all-ok --samples 3 --closure
n=$(grep -c "^hopsplit: trust store: " "$HS_ERR")
[ "$n" = 1 ] || { hs_show; hs_fail "trust store parsed $n times, want once"; }
grep -q "^hopsplit: trust store: $BUNDLE, $certs certificates loaded\$" "$HS_ERR" ||
  { hs_show; hs_fail "no 'trust store: $BUNDLE, $certs certificates loaded'"; }
start=$(grep -n "^hopsplit: set-up done, measuring 3 samples in 3 rounds\$" \
  "$HS_ERR" | cut -d: -f1)
first=$(grep -n "^hopsplit: sample 1/3 " "$HS_ERR" | cut -d: -f1)
store=$(grep -n "^hopsplit: trust store: " "$HS_ERR" | cut -d: -f1)
[ -n "$start" ] && [ -n "$first" ] && [ "$store" -lt "$start" ] &&
  [ "$start" -lt "$first" ] ||
  { hs_show; hs_fail "want trust store, set-up done, sample 1 in that order"; }

# Warm and resumed clients share the one store too.
hs_run 0 -v -n 2 --mode cold,warm,resumed --format json --resolve "$R" \
  --cacert "$BUNDLE" "$U"
hs_jcheck --all-ok --samples 6
n=$(grep -c "^hopsplit: trust store: " "$HS_ERR")
[ "$n" = 1 ] || { hs_show; hs_fail "trust store parsed $n times, want once"; }

# A profile whose targets name different CA files: both are parsed
# before measuring starts, each once.
cat >"$HS_DIR/two.yaml" <<EOF2
name: two-stores
rounds: 2
modes: [cold]
defaults:
  resolve: ["$R"]
targets:
  - name: bundle
    url: $U
    cacert: $BUNDLE
  - name: ca
    url: $U
    cacert: $CA_FILE
EOF2
hs_run 0 run -v --format json "$HS_DIR/two.yaml"
hs_jcheck --all-ok --samples 4
start=$(grep -n "^hopsplit: set-up done" "$HS_ERR" | cut -d: -f1)
for f in "$BUNDLE" "$CA_FILE"; do
  n=$(grep -c "^hopsplit: trust store: $f, " "$HS_ERR")
  line=$(grep -n "^hopsplit: trust store: $f, " "$HS_ERR" | cut -d: -f1)
  [ "$n" = 1 ] && [ -n "$start" ] && [ "$line" -lt "$start" ] ||
    { hs_show; hs_fail "$f: parsed $n times, or not before set-up done"; }
done

# -k verifies nothing, so nothing is parsed.
hs_run 0 -v -k -n 1 --mode cold --format json --resolve "$R" "$U"
! grep -q "trust store" "$HS_ERR" || { hs_show; hs_fail "-k parsed a trust store"; }
hs_pass
