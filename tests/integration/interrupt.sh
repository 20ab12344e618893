#!/bin/sh
# interrupt: SIGINT in the middle of a run (SPEC 2, 5, 7): hopsplit stops
# soon, exits 130, and still reports and writes what it measured, marked
# "partial": true, on stdout and in the -o file (written atomically: nothing
# else left in its directory).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init interrupt
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

OUT=$HS_DIR/outdir
mkdir -p "$OUT"
HS_OUT=$HS_DIR/int.out
HS_ERR=$HS_DIR/int.err
set -- -n 200 --mode cold --pause 100ms --format json -o "$OUT/run.json" \
  --resolve "origin.test:$HTTPS_PORT:127.0.0.1" --cacert "$CA_FILE" \
  "https://origin.test:$HTTPS_PORT/ok"
HS_CMD="hopsplit $* (SIGINT after 2 s)"
# timeout sends SIGINT after 2 s (200 samples take at least 20 s), and
# SIGKILL 10 s later if hopsplit has not stopped; --preserve-status passes
# hopsplit's own exit status through.  --foreground makes it signal
# hopsplit once: without it, GNU timeout also signals its process group,
# hopsplit gets a second SIGINT, and a second SIGINT means "leave at once".
timeout --foreground --preserve-status -k $((10 * HS_TF)) -s INT 2 "$HOPSPLIT" "$@" \
  </dev/null >"$HS_OUT" 2>"$HS_ERR"
HS_RC=$?
[ "$HS_RC" = 130 ] || { hs_show; hs_fail "exit status $HS_RC, expected 130"; }

for f in "$HS_OUT" "$OUT/run.json"; do
  hs_jcheck --file "$f" --shape --closure \
    "d['partial'] == True" \
    "1 <= len(samples) < 200" \
    "len(S(ok=True)) >= 1"
done
left=$(ls -A "$OUT")
[ "$left" = run.json ] || hs_fail "-o left '$left' in its directory"

hs_pass
