#!/bin/sh
# term_escape: what a server or a saved document says never drives the
# terminal, with --color always too.  Real nginx sends header values and
# a Location carrying a colour of its own (ESC [ 8 m, concealed text;
# ESC [ 5 ; 41 m), a window title (OSC 0), a C1 CSI (U+009B) "2J", a
# backspace, a bare CR and a right-to-left override (U+202E): the text
# report shows them as \xNN, and the only escape sequences on stdout are
# the report's own colours.  A saved document with the same bytes in its
# target name, vantage, host, addresses, TLS strings, resolver, CNAME,
# header values, error and prime texts and check texts renders with no
# raw control either, in text and HTML, and an error naming a header key
# with them escapes them on stderr.  CSV text cells and prom label values
# are visible too (promtool takes them), and a CSV text cell that starts
# with = + - @ gets a ' (OWASP), a negative number does not.  A CNAME with
# raw bytes fails its sample cleanly (c-ares refuses it).  --dry-run
# escapes a -H value.  Before: the server's ESC [ 8 m reached the terminal
# with --color always, and U+202E everywhere.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init term_escape
hs_require python3 nginx curl
hs_make_ca "$HS_DIR/pki"

# The bytes: ESC [ 8 m, ESC [ 5 ; 41 m, OSC 0 ...
# BEL, C1 CSI 2J, BS, CR, U+202E.
PAYLOAD=$(printf '\033[8mX\033[5;41m\033]0;PWNED\007\302\2332J\010\015\342\200\256NIW')
mkdir -p "$HS_DIR/nginx/locations.d"
{
  printf 'location = /sgr {\n'
  printf '  add_header X-Cache "HIT%s from edge" always;\n' "$PAYLOAD"
  printf '  add_header Cache-Status "edge%s; hit" always;\n' "$PAYLOAD"
  printf '  add_header Via "1.1 varnish%s" always;\n' "$PAYLOAD"
  printf '  add_header Age "3" always;\n'
  printf '  return 200 "ok\\n";\n}\n'
  printf 'location = /sgr-loc { return 302 "/ok?%s"; }\n' "$PAYLOAD"
} >"$HS_DIR/nginx/locations.d/hostile.conf" || hs_fail "cannot write the config"
hs_start_nginx "$HS_DIR/nginx"
U=http://127.0.0.1:$HTTP_PORT

# Ground truth: nginx sends the bytes raw (curl's view of the headers).
curl -q -s --noproxy '*' -D "$HS_DIR/curl.h" -o /dev/null "$U/sgr" ||
  hs_fail "curl cannot fetch /sgr"
"$HS_PYTHON" - "$HS_DIR/curl.h" <<'PY' || hs_fail "nginx did not send the bytes raw"
import sys
h = open(sys.argv[1], "rb").read()
assert b"HIT\x1b[8mX\x1b[5;41m\x1b]0;PWNED\x07\xc2\x9b2J\x08\r\xe2\x80\xaeNIW" in h, h
PY

# vis_check FILE... : no control byte but newline, no C1 control, no
# bidirectional control; with COLOR=1 the escape sequences hopsplit writes
# itself (its colours) are taken out first, with CRLF=1 line ends CRLF.
vis_check() {
  for v_f in "$@"; do
    "$HS_PYTHON" - "$v_f" "${COLOR:-0}" "${CRLF:-0}" <<'PY' || { hs_show; hs_fail "raw control characters in $v_f"; }
import re, sys
data = open(sys.argv[1], "rb").read()
if sys.argv[3] == "1":
    data = data.replace(b"\r\n", b"\n")
# -v's header lines end in CR LF as curl -v prints them (hopsplit's own
# framing; a CR inside a value is escaped).
data = re.sub(rb"(^|\n)([<>] [^\r\n]*)\r(?=\n)", rb"\1\2", data)
if sys.argv[2] == "1":
    # The colours of report_text.c and report_checks.c, nothing else.
    ours = rb"\x1b\[(?:0|1|31|32|33|34|35|36|94|1;31|1;33)m"
    if not re.search(ours, data):
        sys.exit("no colour at all with --color always")
    data = re.sub(ours, b"", data)
bad = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|"
                 rb"\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c")
m = bad.search(data)
if m:
    sys.exit("at %d: %r" % (m.start(), data[max(0, m.start() - 30):m.start() + 30]))
PY
  done
}
# What the payload looks like once made visible.
VIS='\x1b[8mX\x1b[5;41m\x1b]0;PWNED\x07\xc2\x9b2J\x08\x0d\xe2\x80\xaeNIW'

set -- -n 1 --mode cold -m 5s
hs_run 0 "$@" --color always "$U/sgr"
COLOR=1 vis_check "$HS_OUT"
vis_check "$HS_ERR"
grep -qF 'HIT\x1b[8mX\x1b[5;41m' "$HS_OUT" ||
  { hs_show; hs_fail "the X-Cache value is not shown visibly"; }
hs_run 0 "$@" --color never -v "$U/sgr"
vis_check "$HS_OUT" "$HS_ERR"
hs_run 0 "$@" --format json -o "$HS_DIR/run.json" "$U/sgr"

# The Location fails the sample, on the terminal (text) and on stderr
# (-v) without a raw control.
hs_run 3 "$@" --color always -v "$U/sgr-loc"
COLOR=1 vis_check "$HS_OUT"
vis_check "$HS_ERR"
hs_grep_err "bad Location from hop 1: control character"

# A CNAME with raw bytes in a label (hostile.py's resolver): dig shows
# them; c-ares refuses such a name since CVE-2021-3672 (EBADRESP), so the
# sample fails with its words, and nothing raw reaches the terminal.
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile dns "$HS_DIR/dns"
if hs_have dig; then
  dig +short +tries=1 +time=2 -p "$HOSTILE_PORT" @127.0.0.1 ctlcname.test A |
    grep -q '^a\\027\[8m\\226\\128\\174b\.test\.$' ||
    hs_fail "dig: the resolver does not send the CNAME"
fi
hs_run 3 "$@" --color always -v --dns-server "127.0.0.1:$HOSTILE_PORT" \
  "http://ctlcname.test:$HTTP_PORT/ok"
COLOR=1 vis_check "$HS_OUT"
vis_check "$HS_ERR"
hs_grep_err "resolving 'ctlcname.test': failed from 127.0.0.1:$HOSTILE_PORT \(Misformatted DNS reply\)"

# A saved document carrying the bytes wherever the text report shows a
# string.
"$HS_PYTHON" - "$HS_DIR/run.json" "$HS_DIR/evil.json" "$HS_DIR/badkey.json" <<'PY' || hs_fail "cannot write evil.json"
import json, sys
P = "\x1b[8mX\x1b[5;41m\x1b]0;PWNED\x07\x9b2J\x08\r\u202eNIW"
d = json.load(open(sys.argv[1]))
name = "t" + P
d["targets"][0]["name"] = name
if d["settings"].get("baseline"):
    d["settings"]["baseline"] = name
d["vantage"] = "lab" + P
s = d["samples"][0]
s["target"] = name
s["prime_error"] = "prime" + P
s["primed"] = ["http://127.0.0.1:9/p" + P]
h = s["hops"][0]
h["host"] = "h" + P
h["remote_ip"] = "127.0.0.1" + P
h["tls"] = {"version": "TLSv1.3" + P, "cipher": "c" + P, "alpn": "h2" + P,
            "resumed": False}
h["dns"].update({"server": "dns" + P, "cnames": ["cn" + P], "cached": False,
                 "pinned": False, "literal": False})
h["headers"]["x-cache"] = "MISS" + P
h["headers"]["server"] = "varnish" + P
bad = json.loads(json.dumps(s))
bad["ok"] = False
bad["round"] = 2
bad["error"] = {"class": "http", "message": "boom" + P}
d["samples"].append(bad)
d["checks"] = [{"kind": "metric", "target": name, "mode": "cold",
                "metric": "total.p50", "max_us": 1, "source": "p.yaml" + P}]
d["profile"] = {"name": "prof" + P, "file": "p.yaml"}
# A document whose error quotes a hostile header key.
json.dump(d, open(sys.argv[2], "w"))
h["headers"]["x" + P] = 5
json.dump(d, open(sys.argv[3], "w"))
PY
hs_run 0 report --color always "$HS_DIR/evil.json"
COLOR=1 vis_check "$HS_OUT"
vis_check "$HS_ERR"
for want in "t$VIS" "vantage: lab$VIS" "boom$VIS" "prime$VIS" "cn$VIS" \
  "prof$VIS"; do
  grep -qF "$want" "$HS_OUT" || { hs_show; hs_fail "'$want' not in the report"; }
done
hs_run 0 report --color never --brief "$HS_DIR/evil.json"
vis_check "$HS_OUT" "$HS_ERR"
hs_run 0 report --format html "$HS_DIR/evil.json"
vis_check "$HS_OUT" "$HS_ERR"
grep -qF "boom$VIS" "$HS_OUT" || { hs_show; hs_fail "the HTML does not show the error visibly"; }
# CSV: text cells visible too (RFC 4180 text is printable); prom: label
# values visible, then escaped as the exposition format wants.
hs_run 0 report --format csv "$HS_DIR/evil.json"
CRLF=1 vis_check "$HS_OUT"
hs_run 0 report --format prom "$HS_DIR/evil.json"
vis_check "$HS_OUT"
grep -qF 'target="t\\x1b[8mX' "$HS_OUT" || { hs_show; hs_fail "prom: the target label is not visible"; }
if hs_have promtool; then
  promtool check metrics <"$HS_OUT" >"$HS_DIR/promtool.out" 2>&1 ||
    { cat "$HS_DIR/promtool.out" >&2; hs_fail "promtool rejects the labels"; }
fi
# CSV injection (OWASP): a text cell that starts with = + - @ gets a ' in
# front, a number does not.
"$HS_PYTHON" - "$HS_DIR/run.json" "$HS_DIR/formula.json" <<'PY' || hs_fail "cannot write formula.json"
import json, sys
d = json.load(open(sys.argv[1]))
name = '=HYPERLINK("http://evil.test/","x")'
d["targets"][0]["name"] = name
if d["settings"].get("baseline"):
    d["settings"]["baseline"] = name
s = d["samples"][0]
s["target"] = name
s["other_us"] = -5
s["hops"][0]["host"] = "@SUM(1+1)"
s["hops"][0]["http_version"] = "+1"
s["hops"][0]["tls"]["alpn"] = "-2+3"
json.dump(d, open(sys.argv[2], "w"))
PY
hs_run 0 report --format csv "$HS_DIR/formula.json"
"$HS_PYTHON" - "$HS_OUT" <<'PY' || { hs_show; hs_fail "CSV: a formula cell"; }
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
r = rows[0]
assert r["target"] == "\'" + '=HYPERLINK("http://evil.test/","x")', r["target"]
assert r["host"] == "'@SUM(1+1)", r["host"]
assert r["http_version"] == "'+1", r["http_version"]
assert r["alpn"] == "'-2+3", r["alpn"]
assert r["sample_other_us"] == "-5", r["sample_other_us"]
for row in rows:
    for k, v in row.items():
        assert not re.match(r"[=+@\t\r]", v or ""), (k, v)
        assert not (v or "").startswith("-") or re.fullmatch(r"-[0-9]+", v), (k, v)
PY

hs_run 2 report "$HS_DIR/badkey.json"
vis_check "$HS_ERR"
hs_grep_err 'headers\.x\\x1b\[8mX.*: expected a string'

# --dry-run: a -H value given on the command line.
hs_run 0 --dry-run -H "$(printf 'X-A: b\033[8mc\342\200\256')" "$U/ok"
vis_check "$HS_OUT"
grep -qF 'X-A: b\x1b[8mc\xe2\x80\xae' "$HS_OUT" || { hs_show; hs_fail "--dry-run does not show -H visibly"; }
hs_pass
