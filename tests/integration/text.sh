#!/bin/sh
# text: the default text report names every phase and both modes and has a
# line per hop of the median cold sample (302 then 200 on origin.test), has
# no colour when stdout is not a terminal, and is not JSON.  -o FILE writes
# the format of its extension atomically (nothing else left in the
# directory) while stdout keeps --format; -o is repeatable.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init text
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
DNS="127.0.0.1:$DNS_PORT"
OUT=$HS_DIR/outdir
mkdir -p "$OUT"

# check_text FILE: a text report of a cold,warm run of /redirect-same.
check_text() {
  # send is a row only when some sample measured it (libcurl 8.10+).
  for w in dns connect tls wait transfer total cold warm; do
    grep -qi -e "$w" "$1" || { hs_show; hs_fail "text output lacks '$w'"; }
  done
  grep -qE '302.*origin\.test|origin\.test.*302' "$1" ||
    { hs_show; hs_fail "no line for hop 1 (302, origin.test)"; }
  grep -qE '200.*origin\.test|origin\.test.*200' "$1" ||
    { hs_show; hs_fail "no line for hop 2 (200, origin.test)"; }
  grep -qi 'reuse' "$1" ||
    { hs_show; hs_fail "the hop chain does not say hop 2 reused"; }
  if grep -q "$(printf '\033')" "$1"; then
    hs_show
    hs_fail "escape sequences in text output that is not a terminal"
  fi
  c=$(tr -d ' \t\r\n' <"$1" | head -c 1)
  [ "$c" != "{" ] || { hs_show; hs_fail "text output looks like JSON"; }
}

hs_run 0 -n 3 --dns-server "$DNS" --cacert "$CA_FILE" \
  -o "$OUT/run.json" "$B/redirect-same"
check_text "$HS_OUT"
left=$(ls -A "$OUT")
[ "$left" = run.json ] || hs_fail "-o left '$left' in its directory"
hs_jcheck --file "$OUT/run.json" --shape --closure --all-ok --samples 6 \
  --grid 3 cold,warm "nhops('cold') == [2, 2, 2]"

hs_run 0 -n 2 --format text --dns-server "$DNS" --cacert "$CA_FILE" \
  "$B/redirect-same"
check_text "$HS_OUT"

# --format json to stdout and -o .json: the same document; -o .txt: text.
rm -f "$OUT"/*
hs_run 0 -n 2 --format json --dns-server "$DNS" --cacert "$CA_FILE" \
  -o "$OUT/run2.json" -o "$OUT/run2.txt" "$B/redirect-same"
hs_jcheck --shape --closure --all-ok --samples 4 \
  "json.load(open('$OUT/run2.json')) == d"
HS_OUT_JSON=$HS_OUT
HS_OUT=$OUT/run2.txt
check_text "$OUT/run2.txt"
HS_OUT=$HS_OUT_JSON
left=$(ls -A "$OUT" | tr '\n' ' ')
[ "$left" = "run2.json run2.txt " ] ||
  hs_fail "-o twice left '$left' in its directory"

# -q keeps stdout as it is.
hs_run 0 -q -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "$B/ok"
hs_jcheck --shape --closure --all-ok --samples 1

hs_pass
