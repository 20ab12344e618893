#!/bin/sh
# usage: bad options and values, and URLs hopsplit does not measure, exit 2
# with a message on stderr naming the option (or URL) and the value, and
# nothing on stdout; nothing is measured (the server the URL points at sees
# no connection).  --help, -V and a good command line work.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init usage
hs_require python3 timeout
hs_start_tcp garbage "$HS_DIR/tcp"
U="http://127.0.0.1:$TCP_PORT/"

# bad ERE... -- ARGS...: exit 2, stdout empty, stderr matches every ERE.
bad() {
  b_n=0
  for b_a in "$@"; do
    b_n=$((b_n + 1))
    [ "$b_a" = -- ] && break
  done
  b_res=
  b_i=1
  while [ "$b_i" -lt "$b_n" ]; do
    b_res="$b_res$1
"
    shift
    b_i=$((b_i + 1))
  done
  shift
  hs_run 2 "$@"
  hs_empty_out
  [ -s "$HS_ERR" ] || { hs_show; hs_fail "no message on stderr: $HS_CMD"; }
  printf '%s' "$b_res" | while IFS= read -r b_re; do
    grep -qiE -e "$b_re" "$HS_ERR" || {
      hs_show
      hs_fail "stderr does not match '$b_re': $HS_CMD"
    }
  done || exit 1
}

bad 'abc' '(-n|rounds)' -- -n abc "$U"
bad 'abc' 'rounds' -- --rounds abc "$U"
bad '(-n|rounds)' -- -n 0 "$U"
bad '(-n|rounds)' -- -n -3 "$U"
bad '(-n|rounds)' -- "$U" -n
bad 'bogus' 'mode' -- --mode bogus "$U"
bad 'bogus' 'mode' -- --mode cold,bogus "$U"
bad 'bogus' 'format' -- --format bogus "$U"
bad 'abc' '(-m|max-time)' -- -m abc "$U"
bad '5parsecs' 'connect-timeout' -- --connect-timeout 5parsecs "$U"
bad 'abc' 'max-redirs' -- --max-redirs abc "$U"
# -o: not a report's extension, no --format (SPEC 2); nothing created.
bad "option -o: '$HS_DIR/photo.jpg' has the extension '.jpg'" \
  'bodies are counted, never stored' -- -o "$HS_DIR/photo.jpg" "$U"
bad "option -o: '$HS_DIR/out' has no extension of a report" -- \
  -o "$HS_DIR/out" "$U"
[ ! -e "$HS_DIR/photo.jpg" ] && [ ! -e "$HS_DIR/out" ] ||
  hs_fail "a refused -o created a file"
# hopsplit's own --pause needs a unit (SPEC 2); the message says how.
bad "option --pause: '200' has no unit: write 200ms or 200s" -- \
  --pause 200 "$U"
bad 'no-such-option' -- --no-such-option "$U"
bad 'ftp://127\.0\.0\.1' -- "ftp://127.0.0.1:$TCP_PORT/file"
bad 'file:///etc/passwd' -- file:///etc/passwd
bad 'resolve' -- --resolve nonsense "$U"
bad 'dns-server' -- --dns-server "not an address" "$U"
bad '.' -- -n 2
bad '.' --

hs_tcp_untouched "$HS_DIR/tcp" garbage "a usage error still measured something"

# curl's own -m and --connect-timeout keep curl's seconds; --pause 0 is 0.
hs_run 0 --dry-run -m 2 --connect-timeout 1 --pause 0 "$U"
grep -qE '^ *max-time +2s$' "$HS_OUT" || { hs_show; hs_fail "-m 2"; }
grep -qE '^ *connect-timeout +1s$' "$HS_OUT" ||
  { hs_show; hs_fail "--connect-timeout 1"; }

hs_run 0 --help
grep -qi 'usage' "$HS_OUT" || { hs_show; hs_fail "--help has no usage"; }
grep -q -e '--max-redirs' "$HS_OUT" ||
  { hs_show; hs_fail "--help does not list --max-redirs"; }
hs_run 0 -h
grep -qi 'usage' "$HS_OUT" || { hs_show; hs_fail "-h has no usage"; }
hs_run 0 -V
for w in hopsplit curl ares openssl yaml; do
  grep -qi "$w" "$HS_OUT" || { hs_show; hs_fail "-V does not name '$w'"; }
done

hs_pass
