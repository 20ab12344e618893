#!/bin/sh
# lib_man: libhopsplit's header, man page and library agree (curl's tests
# 1119 and 1167 for ours).  Every HS_EXTERN function of
# include/hopsplit/hopsplit.h is in man/hopsplit.3's SYNOPSIS (.Fn) and
# each .Fn hs_* of the page is a function of the header; every type
# (struct hs_*, enum hs_*, hs_*_fn) and every constant (HS_* of the
# header's enums and of version.h) is named in the page, and every
# .Dv HS_* of the page exists; every HS_EXTERN function is defined in the
# build's libhopsplit.a and every hs_* symbol it defines is an HS_EXTERN
# one.  The page formats without a groff -ww or mandoc -Tlint warning.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
HS_NAME="lib_man"
[ -n "${HOPSPLIT_SRC:-}" ] || HOPSPLIT_SRC=$(cd "$HS_LIB_DIR/../.." && pwd)
: "${HOPSPLIT_BUILD:=$HOPSPLIT_SRC/build}"
PAGE=$HOPSPLIT_SRC/man/hopsplit.3
HDR=$HOPSPLIT_SRC/include/hopsplit/hopsplit.h
VER=$HOPSPLIT_SRC/include/hopsplit/version.h
hs_require python3 groff mandoc nm
[ -f "$PAGE" ] || hs_fail "$PAGE is missing"
LIB=$(find "$HOPSPLIT_BUILD/src/lib" -maxdepth 1 -name 'libhopsplit.a' -o -maxdepth 1 -name 'libhopsplit.so' | head -n 1)
[ -n "$LIB" ] || hs_fail "no libhopsplit in $HOPSPLIT_BUILD/src/lib: build first"
case $LIB in
*.so) defined=$(nm -D --defined-only "$LIB" | awk '$2 == "T" {sub(/@.*/, "", $3); print $3}') ;;
*) defined=$(nm --defined-only "$LIB" 2>/dev/null | awk '$2 == "T" {print $3}') ;;
esac
out=$(groff -ww -mdoc -z "$PAGE" 2>&1)
[ -z "$out" ] || hs_fail "groff -ww reports problems in $PAGE: $out"
out=$(mandoc -Tlint -Wwarning "$PAGE" 2>&1)
[ -z "$out" ] || hs_fail "mandoc -Tlint reports problems in $PAGE: $out"
printf '%s\n' "$defined" >"${TMPDIR:-/tmp}/lib_man.$$"
python3 - "$HDR" "$VER" "$PAGE" "${TMPDIR:-/tmp}/lib_man.$$" <<'PY'
import re, sys
hdr, ver, page, syms = (open(p).read() for p in sys.argv[1:5])
bad = []
# The header without comments.
code = re.sub(r"/\*.*?\*/", " ", hdr, flags=re.S)
funcs = set(re.findall(r"HS_EXTERN[^;(]*?\b(hs_\w+)\s*\(", code, flags=re.S))
types = set(re.findall(r"\b((?:struct|enum) hs_\w+)", code))
types |= set(re.findall(r"typedef[^;]*?\b(hs_\w+_fn)\b", code, flags=re.S))
consts = set(re.findall(r"\b(HS_[A-Z0-9_]+)\s*[=,\n}]", code))
consts |= set(re.findall(r"#define\s+(HS_[A-Z0-9_]+)", re.sub(r"/\*.*?\*/", " ", ver, flags=re.S)))
consts -= {"HS_BUILDING_LIBRARY"}
consts = {c for c in consts if not c.endswith("_H")}  # include guards
consts |= {"HS_EXTERN"}
macros = set(re.findall(r"#define\s+(HS_\w+)\(", ver))
consts -= macros
lines = page.splitlines()
syn = "\n".join(lines[next(i for i, l in enumerate(lines) if l == ".Sh SYNOPSIS"):
                      next(i for i, l in enumerate(lines) if l == ".Sh DESCRIPTION")])
syn_fn = set(re.findall(r"^\.Fn (hs_\w+)", syn, flags=re.M))
all_fn = set(re.findall(r"\.Fn (hs_\w+)", page))
desc = page[page.index(".Sh DESCRIPTION"):]
desc_fn = set(re.findall(r"\.Fn (hs_\w+)", desc))
dv = set(re.findall(r"\bDv (HS_\w+)", page))
fn_macros = set(re.findall(r"\.Fn (HS_\w+)", page))
for f in sorted(funcs - syn_fn):
    bad.append("%s: HS_EXTERN in the header, not in the page's SYNOPSIS" % f)
for f in sorted(funcs - desc_fn):
    bad.append("%s: not described in the page's DESCRIPTION" % f)
for f in sorted(all_fn - funcs):
    bad.append("%s: in the page, no HS_EXTERN function of the header" % f)
for t in sorted(types):
    if t not in page:
        bad.append("%s: a type of the header the page does not name" % t)
for t in sorted(set(re.findall(r"\b((?:struct|enum) hs_\w+|hs_\w+_fn)\b", page)) - types):
    bad.append("%s: in the page, no type of the header" % t)
for c in sorted(consts - dv):
    bad.append("%s: a constant of the header the page does not name (.Dv)" % c)
for c in sorted(dv - consts):
    bad.append("%s: .Dv in the page, no constant of the header" % c)
for m in sorted(macros - fn_macros):
    bad.append("%s: a macro of version.h the page does not name (.Fn)" % m)
defined = set(syms.split())
for f in sorted(funcs - defined):
    bad.append("%s: HS_EXTERN in the header, not defined in libhopsplit" % f)
for f in sorted(s for s in defined if s.startswith("hs_") and s not in funcs):
    bad.append("%s: defined in libhopsplit, not an HS_EXTERN function of the header" % f)
if not funcs or not consts:
    bad.append("nothing read from the header (%d functions, %d constants)" % (len(funcs), len(consts)))
for b in bad:
    print("lib_man: " + b, file=sys.stderr)
print("lib_man: %d functions, %d types, %d constants checked" % (len(funcs), len(types), len(consts)))
sys.exit(1 if bad else 0)
PY
rc=$?
rm -f "${TMPDIR:-/tmp}/lib_man.$$"
[ "$rc" -eq 0 ] || hs_fail "header, page and library disagree"
hs_pass
