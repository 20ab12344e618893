#!/bin/sh
# writeout_vars: man/hopsplit.1 lists exactly the -w variables hopsplit
# has.  The variables hopsplit has are the keys of its %{json} (every row
# of the table, as curl's %{json}), taken from a sample to a loopback port
# where nothing listens; each one must be a .Va of the -w item of the page,
# and each .Va there must be a variable -w accepts.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
HS_NAME="writeout_vars"
[ -n "${HOPSPLIT_SRC:-}" ] || HOPSPLIT_SRC=$(cd "$HS_LIB_DIR/../.." && pwd)
PAGE=$HOPSPLIT_SRC/man/hopsplit.1
hs_init writeout_vars
[ -f "$PAGE" ] || hs_fail "$PAGE is missing"
hs_require python3 timeout

# The -w item of the page: from its .It to the next .It.
sed -n '/^\.It Fl w Ar format/,/^\.It /p' "$PAGE" |
  sed -n 's/^\.Va \([a-z_.]*[a-z_]\).*/\1/p' | sort -u >"$HS_DIR/page"
[ "$(wc -l <"$HS_DIR/page")" -gt 20 ] ||
  hs_fail "the -w item of $PAGE lists no variables (.Va)"

P=$(hs_free_port)
hs_run 3 -n 1 --mode cold -w '%{json}' "http://127.0.0.1:$P/"
"$HS_PYTHON" -c 'import json, sys
for k in sorted(json.loads(open(sys.argv[1]).read())):
    print(k)' "$HS_OUT" >"$HS_DIR/json" || hs_fail "%{json} is not JSON"
# %{json}, %{header_json} and %{onerror} are no rows of the table (nor are
# %{stdout} and %{stderr}, which the page has as .Ql, as it has the
# variables of curl that cannot apply).
printf 'json\nheader_json\nonerror\n' | sort - "$HS_DIR/json" >"$HS_DIR/have"
diff -u "$HS_DIR/have" "$HS_DIR/page" >&2 ||
  hs_fail "the page's -w variables (+) differ from hopsplit's (-)"
while read -r v; do
  hs_run 0 --dry-run -w "%{$v}" "http://127.0.0.1:$P/"
done <"$HS_DIR/page"
# The page's refused variables are refused, saying why.
sed -n '/^\.It Fl w Ar format/,/^\.It /p' "$PAGE" |
  sed -n 's/^\.Ql %{\([a-z_]*\)}.*/\1/p' | grep -v '^std' >"$HS_DIR/refused"
[ -s "$HS_DIR/refused" ] || hs_fail "the page lists no refused variable"
while read -r v; do
  hs_run 2 --dry-run -w "%{$v}" "http://127.0.0.1:$P/"
  hs_grep_err "cannot apply to hopsplit"
done <"$HS_DIR/refused"
hs_pass
