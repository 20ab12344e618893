#!/bin/sh
# profile_bounds: hostile profiles of up to 1 MB are refused or loaded in
# bounded work, "hopsplit run --dry-run" included (issue 16): under 2 s of
# CPU time (user + system, times HOPSPLIT_TEST_TIMEOUT_FACTOR; CPU time,
# not wall time, so that a loaded machine does not fail it) and
# 128 MiB peak RSS (the ASan+UBSan build, slower and with shadow memory, is
# held to 20 s and 1 GiB, which still catches the quadratic and the
# multiplying cases: they took 100+ s and GBs).  Each case and the message
# it must give:
#   10,001 aliases of one target   "target name 'a' is used 10001 times", once
#   a billion-laughs list          the alias-expansion budget
#   1 MB of '- *t' target aliases  the alias-expansion budget
#   2000 headers aliased in 2000 targets   the alias-expansion budget
#   an alias inside its own anchor "an alias refers to a node that contains it"
#   66,000 header keys in one map  "more than 1000 request headers"
#   33,000 keys written twice      each reported once, with the first line
#   1000 default headers x 150 targets   loads
#   27,000 targets named 'a'       one message with the count
#   1000 default headers x 30,000 targets  the option-value budget
#   12,000 checks of unknown targets among 10,000   one line each, short
#   18,000 checks of 5000 targets  loads
#   a 1000-entry resolve list aliased in 90 targets  loads; at most 11
#                                  warnings of unused --resolve entries
# Measured with getrusage of the child (tests/hostile/measure in this file).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init profile_bounds
hs_require python3 timeout
P=$HS_DIR/p
mkdir -p "$P"

"$HS_PYTHON" - "$P" <<'EOF' || hs_fail "cannot write the profiles"
import sys
d = sys.argv[1]
M = 1024 * 1024 - 64


def fill(head, line, tail=""):
    parts, size, i = [], len(head) + len(tail), 0
    while True:
        l = line(i)
        if size + len(l) > M:
            break
        parts.append(l)
        size += len(l)
        i += 1
    return head + "".join(parts) + tail


def w(name, text):
    assert len(text) <= 1024 * 1024, name
    open("%s/%s.yaml" % (d, name), "w").write(text)


U = "url: 'http://127.0.0.1:9/'"
w("alias10k", "targets:\n- &t {name: a, %s}\n" % U + "- *t\n" * 10000)
laughs = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
for i in range(1, 9):
    laughs.append("a%d: &a%d [%s]" % (i, i, ",".join(["*a%d" % (i - 1)] * 10)))
w("laughs", "\n".join(laughs) + "\ntargets: [{%s, headers: *a8}]\n" % U)
w("alias1m", fill("targets:\n- &t {name: a, %s}\n" % U, lambda i: "- *t\n"))
w("hdrmult", "defaults:\n  headers: &h\n"
  + "".join("    - 'X-H%d: v'\n" % i for i in range(2000)) + "targets:\n"
  + "".join("- {name: t%d, %s, headers: *h}\n" % (i, U)
            for i in range(2000)))
w("cycle", "targets: &a [*a]\n")
w("hdrkeys", fill("targets: [{%s}]\ndefaults:\n  headers:\n" % U,
                  lambda i: "    X-H%d: v\n" % i))
w("hdr1000", "defaults:\n  headers:\n"
  + "".join("    X-H%d: v\n" % i for i in range(1000)) + "targets:\n"
  + "".join("- {name: t%d, %s}\n" % (i, U) for i in range(150)))
w("dupkeys", fill("targets: [{%s}]\ndefaults:\n  headers:\n" % U,
                  lambda i: "    X-D%d: v\n    X-D%d: w\n" % (i, i)))
w("samename", fill("targets:\n", lambda i: "- {name: a, %s}\n" % U))
w("txg", fill("defaults:\n  headers:\n"
              + "".join("    X-H%d: v\n" % i for i in range(1000))
              + "targets:\n", lambda i: "- {url: 'http://127.0.0.1:9/%d'}\n"
              % i))
many = "targets:\n" + "".join("- {name: t%d, %s}\n" % (i, U)
                              for i in range(10000))
w("checks", fill(many + "checks:\n", lambda i:
                 "- {target: nope%d, metric: total.p50, max: 1s}\n" % i))
five = "targets:\n" + "".join("- {name: t%d, %s}\n" % (i, U)
                              for i in range(5000))
w("checksok", fill(five + "checks:\n", lambda i:
                   "- {target: t%d, metric: total.p50, max: 1s}\n"
                   % (i % 5000)))
w("resolve", "targets:\n- name: t0\n  url: 'https://h0.test/'\n"
  "  resolve: &r\n" + "".join("    - 'h%d.test:443:127.0.0.1'\n" % i
                              for i in range(1000))
  + "".join("- {name: t%d, url: 'https://h0.test/', resolve: *r}\n" % i
            for i in range(1, 90)))
EOF

# Bounds: the sanitizer build gets more room.
MAX_MS=$((2000 * HS_TF))
MAX_KB=131072
if grep -q '^HOPSPLIT_SANITIZE:STRING=.*address' \
  "$HOPSPLIT_BUILD/CMakeCache.txt" 2>/dev/null; then
  MAX_MS=$((20000 * HS_TF))
  MAX_KB=1048576
fi

# measure WANT NAME ERE LINES: hopsplit run --dry-run P/NAME.yaml exits
# WANT in bounded time and memory; stderr matches ERE and has at most
# LINES lines.  Prints the figures for the record.
measure() {
  m_want=$1
  m_name=$2
  m_ere=$3
  m_lines=$4
  HS_RUNS=$((HS_RUNS + 1))
  HS_OUT=$HS_DIR/run$HS_RUNS.out
  HS_ERR=$HS_DIR/run$HS_RUNS.err
  HS_CMD="hopsplit run --dry-run $m_name.yaml"
  m_fig=$("$HS_PYTHON" - "$HOPSPLIT" "$P/$m_name.yaml" "$HS_OUT" "$HS_ERR" \
    <<'EOF'
import resource, subprocess, sys, time
t0 = time.monotonic()
with open(sys.argv[3], "wb") as o, open(sys.argv[4], "wb") as e:
    try:
        rc = subprocess.run([sys.argv[1], "run", "--dry-run", sys.argv[2]],
                            stdin=subprocess.DEVNULL, stdout=o, stderr=e,
                            timeout=120).returncode
    except subprocess.TimeoutExpired:
        rc = 124
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = int((ru.ru_utime + ru.ru_stime) * 1000)
wall = int((time.monotonic() - t0) * 1000)
print(rc, cpu, ru.ru_maxrss, wall)
EOF
  )
  # shellcheck disable=SC2086
  set -- $m_fig
  HS_RC=$1
  hs_log "$m_name.yaml: exit $1, $2 ms CPU ($4 ms wall), peak RSS $3 KiB"
  [ "$1" = "$m_want" ] || { hs_show; hs_fail "exit $1, expected $m_want: $HS_CMD"; }
  [ "$2" -lt "$MAX_MS" ] || { hs_show; hs_fail "$2 ms CPU, limit $MAX_MS: $HS_CMD"; }
  [ "$3" -lt "$MAX_KB" ] || { hs_show; hs_fail "$3 KiB, limit $MAX_KB: $HS_CMD"; }
  [ -z "$m_ere" ] || hs_grep_err "$m_ere"
  m_n=$(wc -l <"$HS_ERR")
  [ "$m_n" -le "$m_lines" ] || {
    hs_show
    hs_fail "$m_n lines on stderr, at most $m_lines: $HS_CMD"
  }
}

BUDGET="aliases expand the profile by more than 100000 nodes"
measure 2 alias10k "alias10k.yaml:2:13: target name 'a' is used 10001 times \(first at line 2\)" 1
measure 2 laughs "$BUDGET" 1
measure 2 alias1m "$BUDGET" 1
measure 2 hdrmult "$BUDGET" 1
measure 2 cycle "cycle.yaml:1:[0-9]+: an alias refers to a node that contains it" 1
measure 2 hdrkeys "hdrkeys.yaml:1004:5: more than 1000 request headers" 1
measure 0 hdr1000 "" 0
[ "$(grep -c '^  header  *X-H' "$HS_OUT")" = 1000 ] ||
  { hs_show; hs_fail "the dry run does not list the 1000 headers"; }
measure 2 dupkeys "dupkeys.yaml:5:5: duplicate key 'X-D0' \(first at line 4\)" 40000
[ "$(grep -c "duplicate key 'X-D1'" "$HS_ERR")" = 1 ] ||
  hs_fail "duplicate key X-D1 is not reported exactly once"
measure 2 samename "samename.yaml:3:10: target name 'a' is used [0-9]{5} times \(first at line 2\)" 1
measure 2 txg "[0-9]+ targets take [0-9]+ option values in all .*at most 200000" 1
measure 2 checks "unknown target 'nope0' \(targets: t0, t1, .* and 9990 more\)" 20000
[ "$(wc -c <"$HS_ERR")" -lt 3000000 ] || hs_fail "messages of checks.yaml too long"
measure 0 checksok "" 0
measure 0 resolve "89900 more --resolve entries match no target" 11
hs_pass
