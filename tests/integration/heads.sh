#!/bin/sh
# heads: -i, -D and -v show the headers of one sample per target as curl 8
# shows those of the same request: curl's own output is the reference,
# byte for byte (CRLF included) once the Date lines are masked.  Over
# HTTP/2 and HTTP/1.1, through a redirect; credentials redacted unless
# --show-secrets.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init heads
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
UA="heads-test/1"
mask() { sed 's/^\([<>] \)\{0,1\}date: .*/\1date: MASKED\r/I' "$1"; }
same() {
  [ -s "$1" ] && [ -s "$2" ] || hs_fail "$3: nothing to compare: $HS_CMD"
  mask "$1" >"$1.m"
  mask "$2" >"$2.m"
  cmp -s "$1.m" "$2.m" || {
    diff -u "$1.m" "$2.m" | cat -A >&2
    hs_fail "$3 differs from curl's: $HS_CMD"
  }
}

for http in --http2 --http1.1; do
  # -D FILE: curl's --dump-header of the same request.
  curl -q -sS -L $http -A "$UA" --resolve "$R" --cacert "$CA_FILE" \
    -o /dev/null -D "$HS_DIR/curl.D" "$B/redirect-chain" ||
    hs_fail "curl failed"
  hs_run 0 -n 3 --mode cold $http -A "$UA" --resolve "$R" \
    --cacert "$CA_FILE" -D "$HS_DIR/hs.D" "$B/redirect-chain"
  same "$HS_DIR/curl.D" "$HS_DIR/hs.D" "-D $http"
  grep -q "headers of 'origin.test': its cold sample of round [123], the median cold one" \
    "$HS_ERR" || hs_fail "stderr does not say which sample: $(cat "$HS_ERR")"

  # -i: the same blocks first on stdout, then the report.
  hs_run 0 -n 3 --mode cold $http -A "$UA" --resolve "$R" \
    --cacert "$CA_FILE" -i "$B/redirect-chain"
  head -c "$(wc -c <"$HS_DIR/curl.D")" "$HS_OUT" >"$HS_DIR/hs.i"
  same "$HS_DIR/curl.D" "$HS_DIR/hs.i" "-i $http"
  tail -c +"$(($(wc -c <"$HS_DIR/curl.D") + 1))" "$HS_OUT" |
    head -n 1 | grep -q '^hopsplit ' || hs_fail "-i: no report after the headers"

  # -v: the "> " and "< " lines of curl -v.
  curl -q -sS -v -L $http -A "$UA" --resolve "$R" --cacert "$CA_FILE" \
    -H "Authorization: Bearer s3cr3t" -o /dev/null "$B/redirect-chain" \
    2>"$HS_DIR/curl.v.all"
  grep -a '^[<>] ' "$HS_DIR/curl.v.all" |
    sed 's/^> Authorization: Bearer s3cr3t/> Authorization: REDACTED/' \
      >"$HS_DIR/curl.v"
  hs_run 0 -n 3 --mode cold $http -A "$UA" --resolve "$R" \
    --cacert "$CA_FILE" -H "Authorization: Bearer s3cr3t" --format json -v \
    "$B/redirect-chain"
  grep -a '^[<>] ' "$HS_ERR" >"$HS_DIR/hs.v"
  same "$HS_DIR/curl.v" "$HS_DIR/hs.v" "-v $http"
  grep -q s3cr3t "$HS_ERR" && hs_fail "-v shows the credential"
  hs_jcheck --shape --all-ok "len(samples) == 3"
done

# --show-secrets shows it as sent.
hs_run 0 -n 1 --mode cold -A "$UA" --resolve "$R" --cacert "$CA_FILE" \
  -H "Authorization: Bearer s3cr3t" --show-secrets -v "$B/ok"
grep -q '^> Authorization: Bearer s3cr3t' "$HS_ERR" ||
  hs_fail "--show-secrets -v does not show the header as sent"

# -D - is stdout, before the report, as curl's.
hs_run 0 -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" -D - "$B/ok"
head -n 1 "$HS_OUT" | grep -q '^HTTP/2 200' ||
  hs_fail "-D - does not start stdout with the status line"

# Without -i, -D or -v nothing of it: the report alone.
hs_run 0 -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" "$B/ok"
grep -q '^HTTP/' "$HS_OUT" && hs_fail "headers printed unasked"

# A -D file that cannot be written stops the run before it measures.
hs_nginx_log_clear
hs_run 4 -n 1 --mode cold --resolve "$R" --cacert "$CA_FILE" \
  -D "$HS_DIR/no/such/dir/h.txt" "$B/ok"
hs_grep_err "no/such/dir/h.txt"
hs_nothing_logged

hs_pass
