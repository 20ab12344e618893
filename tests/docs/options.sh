#!/bin/sh
# options: every long option of the one-URL command (SPEC 2, issue 2 part 6)
# is documented in man/hopsplit.1 and listed by --help, and every option
# --help lists is in the man page (curl test1139).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
HS_NAME="options"
[ -n "${HOPSPLIT_SRC:-}" ] || HOPSPLIT_SRC=$(cd "$HS_LIB_DIR/../.." && pwd)
PAGE=$HOPSPLIT_SRC/man/hopsplit.1
hs_init options
[ -f "$PAGE" ] || hs_fail "$PAGE is missing"
hs_require groff

OPTIONS="--rounds --mode --pause --max-redirs --no-follow --request --header
--user-agent --compressed --resolve --dns-server --ipv4 --ipv6 --http1.1
--http2 --http3 --http3-only --protocols --cacert --capath --insecure --location-trusted --connect-timeout
--max-time --format --output --color --quiet --verbose --version --help
--fail --data --data-binary --data-raw --json --location --head --silent
--show-error --write-out --post301 --post302 --post303 --brief"

# The page as a reader sees it: mdoc or man, rendered to plain ASCII.
groff -man -Tascii -P-cbou "$PAGE" 2>/dev/null | sed 's/\xe2\x80\x90/-/g' \
  >"$HS_DIR/page.txt" || hs_fail "groff cannot render $PAGE"
hs_run 0 --help
cp "$HS_OUT" "$HS_DIR/help.txt"

missing=
for o in $OPTIONS; do
  grep -qF -e "$o" "$HS_DIR/page.txt" || missing="$missing man:$o"
  grep -qF -e "$o" "$HS_DIR/help.txt" || missing="$missing help:$o"
done
for o in $(grep -oE -- '--[a-z0-9][a-z0-9.-]*[a-z0-9]' "$HS_DIR/help.txt" |
  sort -u); do
  grep -qF -e "$o" "$HS_DIR/page.txt" || missing="$missing man(from-help):$o"
done
[ -z "$missing" ] || hs_fail "options not documented:$missing"
hs_pass
