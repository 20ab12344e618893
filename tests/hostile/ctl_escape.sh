#!/bin/sh
# ctl_escape: control characters from the network never reach a terminal
# raw (issue 16).  A server's X-Cache, Cache-Status and Server carry ESC
# and OSC sequences (a window title, a screen clear, a hyperlink): the text
# report writes them as \x1b, \x07; with --color always only the report's
# own colours (ESC [ ... m) pass, never an OSC (ESC ]).  A Location with
# an OSC fails the sample; the message on stderr (-v) and in the text has
# no raw control character.  "hopsplit report" of a saved document whose
# error text and header values hold ESC writes them escaped too, and so
# does stderr for a profile value with ESC ("\e" in YAML).  JSON keeps the
# bytes, escaped as JSON does (\u001b).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init ctl_escape
hs_require python3 timeout
. "$HOPSPLIT_SRC/tests/hostile/hlib"
hs_start_hostile http "$HS_DIR/srv"
P=$HOSTILE_PORT

# no_ctl FILE...: no control byte but newline (and, with SGR=1, no ESC that
# does not start a colour).
no_ctl() {
  for n_f in "$@"; do
    "$HS_PYTHON" - "$n_f" "${SGR:-0}" <<'PY' || { hs_show; hs_fail "raw control characters in $n_f"; }
import re, sys
data = open(sys.argv[1], "rb").read()
if sys.argv[2] == "1":
    data = re.sub(rb"\x1b\[[0-9;]*m", b"", data)
# -v's header lines end in CR LF as curl -v prints them (hopsplit's own
# framing; a CR inside a value is escaped).
data = re.sub(rb"(^|\n)([<>] [^\r\n]*)\r(?=\n)", rb"\1\2", data)
bad = [m.start() for m in re.finditer(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", data)]
if bad:
    sys.stderr.write("at %d: %r\n" % (bad[0], data[max(0, bad[0] - 30):bad[0] + 30]))
    sys.exit(1)
PY
  done
}

set -- -n 1 --mode cold -m 5s
hs_run 0 "$@" --color never -v "http://127.0.0.1:$P/ctl-xcache"
no_ctl "$HS_OUT" "$HS_ERR"
grep -qF 'HIT\x1b]0;PWNED-TITLE\x07\x1b[2J' "$HS_OUT" ||
  { hs_show; hs_fail "the X-Cache value is not shown escaped"; }
hs_run 0 "$@" --color always "http://127.0.0.1:$P/ctl-xcache"
SGR=1 no_ctl "$HS_OUT"
grep -q "$(printf '\033')\[" "$HS_OUT" || { hs_show; hs_fail "--color always gave no colour"; }
hs_run 0 "$@" --format json -o "$HS_DIR/x.json" "http://127.0.0.1:$P/ctl-xcache"
grep -qF '\u001b]0;PWNED-TITLE\u0007' "$HS_OUT" ||
  { hs_show; hs_fail "JSON does not keep the bytes escaped"; }

hs_run 3 "$@" -v "http://127.0.0.1:$P/loc-esc"
no_ctl "$HS_OUT" "$HS_ERR"
hs_grep_err "bad Location"

# A saved document with ESC in an error text and a header value.
"$HS_PYTHON" - "$HS_DIR/x.json" "$HS_DIR/evil.json" <<'PY' || hs_fail "cannot write evil.json"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["samples"][0]
s["hops"][0]["headers"]["x-cache"] = "MISS\x1b]0;PWNED\x07\x1b[31m"
bad = json.loads(json.dumps(s))
bad["ok"] = False
bad["error"] = {"class": "http", "message": "boom \x1b]0;PWNED-ERR\x07 \x9b2J"}
bad["round"] = 2
d["samples"].append(bad)
open(sys.argv[2], "w").write(json.dumps(d))
PY
hs_run 0 report --color never "$HS_DIR/evil.json"
no_ctl "$HS_OUT" "$HS_ERR"
grep -qF 'boom \x1b]0;PWNED-ERR\x07 \xc2\x9b2J' "$HS_OUT" ||
  { hs_show; hs_fail "the error text is not shown escaped"; }

# stderr: a profile value with ESC is quoted escaped.
printf 'targets:\n- url: "http://127.0.0.1:%s/ok"\n  method: "GET\\e]0;PWNED-YAML\\a"\n' \
  "$P" >"$HS_DIR/esc.yaml"
hs_run 2 run --dry-run "$HS_DIR/esc.yaml"
no_ctl "$HS_ERR"
hs_grep_err 'bad method .GET\\x1b\]0;PWNED-YAML\\x07'
hs_pass
