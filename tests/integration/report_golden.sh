#!/bin/sh
# report_golden: "hopsplit report" renders a saved run
# (tests/data/golden/run.json: three targets, a cross-origin redirect, a
# DNS failure, shuffled order) as text, csv and prom, compared with
# tests/data/golden/run.{txt,csv,prom} by diff -u after masking timings
# (durations, *_us columns, seconds), the version and the port numbers.
# No server, no network.  After an intended change of a format:
#   HOPSPLIT_GOLDEN_UPDATE=1 ctest -R report_golden
# rewrites the golden files; review them with git diff.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_golden
hs_require python3 diff

G=$HOPSPLIT_SRC/tests/data/golden
MASK=$HOPSPLIT_SRC/tests/integration/report_mask.py
status=0
for f in text csv prom; do
  ext=$f
  [ "$f" = text ] && ext=txt
  hs_run 0 report --format "$f" "$G/run.json"
  "$HS_PYTHON" "$MASK" "$f" <"$HS_OUT" >"$HS_DIR/got.$ext" ||
    hs_fail "cannot mask the $f output"
  if [ -n "${HOPSPLIT_GOLDEN_UPDATE:-}" ]; then
    cp "$HS_DIR/got.$ext" "$G/run.$ext"
    hs_log "updated $G/run.$ext"
    continue
  fi
  diff -u "$G/run.$ext" "$HS_DIR/got.$ext" >&2 || {
    hs_log "the $f report differs from $G/run.$ext (see above)"
    status=1
  }
done
[ "$status" = 0 ] || hs_fail "golden files differ"
hs_pass
