#!/bin/sh
# lib_example: libhopsplit from outside (hopsplit(3), issue 34).  Installs
# the dev component (cmake --install --component dev) into a scratch
# prefix, builds tests/example/example.c from the installed header and
# `pkg-config hopsplit` alone, runs it against a loopback nginx (3 cold
# samples of an HTTPS URL) and compares its output with the CLI's JSON of
# the same URL and options: the same samples (mode, ok), the same hops
# (status), the same phases measured or not (a null is a null in both),
# and in the example's own figures each hop's phases add up to its total
# and a new connection's connect and tls are above 0.  The installed
# tree holds only the header, version.h, the library, hopsplit.pc and
# hopsplit(3).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init lib_example
hs_require nginx openssl python3 curl timeout cmake pkg-config cc
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

P=$HS_DIR/prefix
cmake --install "$HOPSPLIT_BUILD" --prefix "$P" --component dev \
  >"$HS_DIR/install.log" 2>&1 || {
  cat "$HS_DIR/install.log" >&2
  hs_fail "cmake --install --component dev failed"
}
got=$(cd "$P" && find . -type f | sort | sed 's|^\./||; s|lib/[^/]*-linux-gnu/|lib/|' | tr '\n' ' ')
case $got in
"include/hopsplit/hopsplit.h include/hopsplit/version.h lib/libhopsplit.a lib/pkgconfig/hopsplit.pc share/man/man3/hopsplit.3 " | \
  "include/hopsplit/hopsplit.h include/hopsplit/version.h lib/libhopsplit.so"*"lib/pkgconfig/hopsplit.pc share/man/man3/hopsplit.3 ") ;;
*) hs_fail "the dev component installed: $got" ;;
esac
PKG_CONFIG_PATH=$(dirname "$(find "$P" -name hopsplit.pc)")
export PKG_CONFIG_PATH
# Only the installed header: no -I of the source or build tree.
cflags=$(pkg-config --cflags hopsplit) || hs_fail "pkg-config --cflags hopsplit"
libs=$(pkg-config --static --libs hopsplit) || hs_fail "pkg-config --libs hopsplit"
outside=$(printf '%s\n' "$cflags $libs" | sed "s|${P}[^ ]*||g")
case $outside in
*"$HOPSPLIT_SRC"* | *"$HOPSPLIT_BUILD"*) hs_fail "pkg-config points outside the prefix: $cflags $libs" ;;
esac
# A sanitizer build's library needs its runtime in the program too (the
# CI's ASan+UBSan build): the flags follow what the library calls.
san=
lib=$(find "$P" -name 'libhopsplit.a' -o -name 'libhopsplit.so' | head -n 1)
syms=$(nm -A "$lib" 2>/dev/null | grep -E ' U __(asan|ubsan|tsan)_' | sed 's/.* U __\([a-z]*\)_.*/\1/' | sort -u | tr '\n' ' ')
case $syms in *asan*) san="$san,address" ;; esac
case $syms in *ubsan*) san="$san,undefined" ;; esac
case $syms in *tsan*) san="$san,thread" ;; esac
[ -z "$san" ] || san="-fsanitize=${san#,}"
# shellcheck disable=SC2086 # the flags are words
cc -std=c11 -Wall -Wextra -Werror $san -o "$HS_DIR/example" \
  "$HOPSPLIT_SRC/tests/example/example.c" $cflags $libs \
  -Wl,-rpath,"$(pkg-config --variable=libdir hopsplit)" \
  >"$HS_DIR/cc.log" 2>&1 || {
  cat "$HS_DIR/cc.log" >&2
  hs_fail "the example does not build against the installed header and library"
}

U="https://127.0.0.1:$HTTPS_PORT/"
timeout -k 5 $((30 * HS_TF)) "$HS_DIR/example" "$U" "$CA_FILE" \
  >"$HS_DIR/example.out" 2>"$HS_DIR/example.err" || {
  cat "$HS_DIR/example.out" "$HS_DIR/example.err" >&2
  hs_fail "the example failed"
}
hs_run 0 --rounds 3 --mode cold --cacert "$CA_FILE" --format json "$U"
cp "$HS_OUT" "$HS_DIR/cli.json"
python3 - "$HS_DIR/example.out" "$HS_DIR/cli.json" <<'PY' || hs_fail "the example and the CLI disagree"
import json, re, sys
ex = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))
phases = ["dns", "connect", "tls", "send", "wait", "transfer", "total"]
def kv(line):
    return dict(m.groups() for m in re.finditer(r"(\S+)=(\S+)", line))
samples = []
for line in ex:
    if line.startswith("sample "):
        samples.append((kv(line), []))
    elif line.startswith("  hop "):
        samples[-1][1].append(kv(line))
cli = doc["samples"]
bad = []
if not ex[0].startswith("libhopsplit ") or "at least 0.1.0: yes" not in ex[0]:
    bad.append("version line: " + ex[0])
if "misspelt: unknown option 'round' (did you mean 'rounds'?)" not in ex:
    bad.append("no suggestion for a misspelt option")
if not any(l.startswith("text: hopsplit ") for l in ex):
    bad.append("no text report rendered")
if len(samples) != 3 or len(cli) != 3:
    bad.append("samples: example %d, CLI %d" % (len(samples), len(cli)))
for i, ((s, hops), c) in enumerate(zip(samples, cli)):
    if s["mode"] != c["mode"] or s["ok"] != str(c["ok"]).lower():
        bad.append("sample %d: %s against %s" % (i, s, {k: c[k] for k in ("mode", "ok")}))
    if int(s["hops"]) != len(c["hops"]) or len(hops) != len(c["hops"]):
        bad.append("sample %d: %s hops against %d" % (i, s["hops"], len(c["hops"])))
    for k, (h, ch) in enumerate(zip(hops, c["hops"])):
        if h["status"] != str(ch["status"]):
            bad.append("sample %d hop %d: status %s against %s" % (i, k, h["status"], ch["status"]))
        for p in phases:
            mine = h["phases_us." + p]
            theirs = ch["phases_us"][p]
            if (mine == "null") != (theirs is None):
                bad.append("sample %d hop %d %s: %s against %s" % (i, k, p, mine, theirs))
        if "null" not in [h["phases_us." + p] for p in phases]:
            parts = sum(int(h["phases_us." + p]) for p in phases[:-1])
            if parts != int(h["phases_us.total"]):
                bad.append("sample %d hop %d: phases add to %d, total %s" % (i, k, parts, h["phases_us.total"]))
            if int(h["phases_us.connect"]) <= 0 or int(h["phases_us.tls"]) <= 0:
                bad.append("sample %d hop %d: a cold hop without connect or tls: %s" % (i, k, h))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
{
  echo "--- example:"
  cat "$HS_DIR/example.out"
} >&2
hs_pass
