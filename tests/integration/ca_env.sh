#!/bin/sh
# ca_env: without --cacert, --capath and -k, the CA certificates come from
# the environment as the curl tool takes them: CURL_CA_BUNDLE, else
# SSL_CERT_FILE (and SSL_CERT_DIR).  The command line wins, -k reads
# nothing, the report records the file used, and a profile run takes them
# too.  Control: with none of them the test CA is unknown and every sample
# fails verification.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init ca_env
hs_require nginx openssl python3 timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
unset CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
R="origin.test:$HTTPS_PORT:127.0.0.1"
U="https://origin.test:$HTTPS_PORT/ok"
NOFILE=$HS_DIR/no-such-ca.pem

# Control: the system's bundle does not know the test CA.
hs_run 3 -n 1 --mode cold --format json --resolve "$R" "$U"
hs_jcheck "classes() == ['tls']"

export SSL_CERT_FILE="$CA_FILE"
hs_run 0 -n 1 --mode cold --format json --resolve "$R" "$U"
hs_jcheck --all-ok "d['settings']['cacert'] == '$CA_FILE'"

# CURL_CA_BUNDLE goes first.
SSL_CERT_FILE=$NOFILE
export CURL_CA_BUNDLE="$CA_FILE"
hs_run 0 -n 1 --mode cold --format json --resolve "$R" "$U"
hs_jcheck --all-ok "d['settings']['cacert'] == '$CA_FILE'"

# The command line wins over the environment: its file is the one checked
# (before anything is measured, exit 2).
hs_run 2 -n 1 --mode cold --format json --resolve "$R" --cacert "$NOFILE" "$U"
hs_grep_err "option --cacert: cannot read '$NOFILE'"
# A file named by the environment is checked too, and named by it.
CURL_CA_BUNDLE=$NOFILE hs_run 2 -n 1 --mode cold --resolve "$R" "$U"
hs_grep_err "CURL_CA_BUNDLE: cannot read '$NOFILE'"

# -k reads nothing.
CURL_CA_BUNDLE=$NOFILE
hs_run 0 -n 1 --mode cold --format json -k --resolve "$R" "$U"
hs_jcheck --all-ok "d['settings']['cacert'] is None"

# A profile without a CA takes the environment's.
CURL_CA_BUNDLE=$CA_FILE
cat >"$HS_DIR/p.yaml" <<EOF2
name: env-ca
rounds: 1
modes: [cold]
defaults:
  resolve: ["$R"]
targets:
  - url: $U
EOF2
hs_run 0 run --format json "$HS_DIR/p.yaml"
hs_jcheck --all-ok "d['settings']['cacert'] == '$CA_FILE'"
unset CURL_CA_BUNDLE SSL_CERT_FILE
hs_pass
