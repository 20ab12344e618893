#!/bin/sh
# doc_commands: the docs cannot drift from the binary (issue 26 item 8).
# Every command README.md, man/hopsplit.1 and man/hopsplit-profile.5 show
# runs against the test servers (nginx, dnsmasq), its URLs and hosts
# replaced by rule with the test origin (doc_commands.py says how), and
# exits as the text says; where the text shows the messages a command
# prints on stderr, it prints them.  Nothing leaves the machine: a
# command in which any other host is left is not run and fails the test.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init doc_commands
hs_require nginx dnsmasq openssl python3 timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

mkdir -p "$HS_DIR/work"
LISTEN_PORT=$(hs_free_port)
export HTTPS_PORT HTTP_PORT DNS_PORT LISTEN_PORT CA_FILE HOPSPLIT HS_TF
"$HS_PYTHON" "$HOPSPLIT_SRC/tests/integration/doc_commands.py" \
  "$HOPSPLIT_SRC" "$HS_DIR/work" >"$HS_DIR/doc.out" 2>&1 || {
  cat "$HS_DIR/doc.out" >&2
  hs_fail "a command of the docs does not run as the text says"
}
hs_log "$(tail -n 1 "$HS_DIR/doc.out")"
hs_pass
