#!/bin/sh
# report_input: "hopsplit report" on hostile documents (issue 16).  Every
# wrong shape is exit 2 with a message that names the JSON path, never a
# signal: a successful sample with "hops": [], hop headers given as an
# array, a number past int64, seconds past the range, a string where an
# object belongs, a document that is not an object, nesting past 64 levels,
# a file over the size limit.  Every valid JSON number is taken: the
# golden document in Python's form (1.2e-05, as jq and json.dumps write
# it), re-indented, and with integers in exponent form (2.0e2) renders in
# every format as the plain document does.  The ASan+UBSan build runs this too (.ci/run).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_input
hs_require python3 timeout truncate
GOLD=$HOPSPLIT_SRC/tests/data/golden/run.json
D=$HS_DIR/docs
mkdir -p "$D"

# mutate NAME EXPR: D/NAME.json is the golden document after the Python
# statement EXPR (hs_json_mutate: d, ok, h).
mutate() {
  hs_json_mutate "$GOLD" "$D/$1.json" "$2" || hs_fail "mutate $1"
}

# bad NAME EXPR PATH_ERE: exit 2, and the message names the path.
bad() {
  mutate "$1" "$2"
  hs_run 2 report "$D/$1.json"
  hs_grep_err "$3"
  hs_empty_out
}

bad empty-hops 'for s in d["samples"]: s["hops"] = []' \
  "samples\[0\]\.hops: a successful sample has at least one hop"
bad headers-array 'ok[0]["hops"][0]["headers"] = ["server", "x"]' \
  "samples\[[0-9]+\]\.hops\[0\]\.headers: expected an object"
bad header-number 'ok[0]["hops"][0]["headers"]["server"] = 5' \
  "samples\[[0-9]+\]\.hops\[0\]\.headers\.server: expected a string"
bad huge-int 'ok[0]["total_us"] = 10**30' \
  "samples\[[0-9]+\]\.total_us: out of range"
bad int64-max 'ok[0]["hops"][0]["phases_us"]["dns"] = 2**63 - 1' \
  "samples\[[0-9]+\]\.hops\[0\]\.phases_us\.dns: out of range"
bad huge-secs 'ok[0]["hops"][0]["curl"]["time_total"] = 1e300' \
  "hops\[0\]\.curl\.time_total: out of range"
bad neg-secs 'ok[0]["hops"][0]["curl"]["time_total"] = -1.5' \
  "hops\[0\]\.curl\.time_total: expected seconds"
bad fraction 'ok[0]["hops"][0]["status"] = 200.5' \
  "hops\[0\]\.status: expected an integer"
bad dns-string 'ok[0]["hops"][0]["dns"] = "x"' \
  "hops\[0\]\.dns: expected an object"
bad cnames-objects 'ok[0]["hops"][0]["dns"]["cnames"] = [{}]' \
  "hops\[0\]\.dns\.cnames: expected an array of strings"
bad samples-object 'd["samples"] = {"a": 1}' "samples: expected an array"
bad target-number 'd["targets"][1]["name"] = 7' \
  "targets\[1\]\.name: expected a string"
bad error-class 'f = [s for s in d["samples"] if not s["ok"]][0]; f["error"]["class"] = 1' \
  "samples\[[0-9]+\]\.error\.class: expected a string"
bad too-many-hops 'ok[0]["hops"] = ok[0]["hops"] * 1002' \
  "samples\[[0-9]+\]\.hops: more hops than"
bad settings-array 'd["settings"] = []' "settings: expected an object"

printf '["schema", "hopsplit/1"]' >"$D/array.json"
hs_run 2 report "$D/array.json"
hs_grep_err "expected an object"
"$HS_PYTHON" -c 'print("[" * 100 + "]" * 100)' >"$D/deep.json"
hs_run 2 report "$D/deep.json"
hs_grep_err "not JSON: line 1: nested more than 64 levels deep"
# Over the size limit: refused by its size (a sparse file, no memory).
# No wall-time bound: reading 513 MiB of a sparse file's zeros takes
# well under a second anyway, so a bound would prove nothing; the
# message, which only the size check gives, is the evidence.
truncate -s 513M "$D/big.json"
hs_run 2 report "$D/big.json"
hs_grep_err "larger than 512 MiB"
rm -f "$D/big.json"
# One NDJSON line without end, from a pipe: refused once it passes the
# limit, not read whole first (getline would take all of it into memory,
# then call it a cut last line).
mkfifo "$D/long.ndjson"
{
  printf '{"type":"sample",'
  head -c 700M /dev/zero | tr '\0' a
  printf '\n'
} >"$D/long.ndjson" 2>/dev/null &
hs_track $!
hs_run 2 report "$D/long.ndjson"
hs_grep_err "long.ndjson:1: a line longer than 512 MiB"
hs_empty_out

# Every JSON number form.  The golden document has plain decimals
# (0.000012); Python (and jq) write the same document as 1.2e-05, and
# re-indented, and integers may come as 2.0e2: the same report.
"$HS_PYTHON" - "$GOLD" "$D" <<'EOF' || hs_fail "cannot write the number forms"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)
py = json.dumps(d)
assert "e-05" in py and "e-05" not in text
open(sys.argv[2] + "/plain.json", "w").write(text)
open(sys.argv[2] + "/pyform.json", "w").write(py)
open(sys.argv[2] + "/indented.json", "w").write(json.dumps(d, indent=4))
# Integers in exponent and fraction form: 2.0e2, 1E+0, 300.000.
s = py.replace('"status": 200,', '"status": 2.0e2,', 1)
s = s.replace('"ttl": 300,', '"ttl": 300.000,', 1)
s = s.replace('"round": 1,', '"round": 1E+0,', 1)
assert s.count("2.0e2") == 1 and s.count("300.000") == 1
assert s.count("1E+0") == 1
open(sys.argv[2] + "/intexp.json", "w").write(s)
EOF
for f in text json csv ndjson har html prom; do
  hs_run 0 report --format "$f" "$D/plain.json"
  cp "$HS_OUT" "$D/want.$f"
  for form in pyform indented intexp; do
    hs_run 0 report --format "$f" "$D/$form.json"
    cmp -s "$HS_OUT" "$D/want.$f" || {
      diff "$D/want.$f" "$HS_OUT" | head -20 >&2
      hs_fail "report of $form.json differs from plain.json in $f"
    }
  done
done
hs_run 0 report --format json "$D/pyform.json"
hs_jcheck "samples[0]['hops'][0]['curl']['time_namelookup'] == 0.000012"
hs_pass
