#!/bin/sh
# report_prom: the Prometheus output fits Prometheus (SPEC 5 prom, issue
# 15 item 5), for a saved three-target comparison with failures
# (tests/data/golden/run.json), a live comparison of a redirect and a 404
# on nginx, and a profile run with checks:
#   - `promtool check metrics` accepts it and lints nothing (its output is
#     printed; promtool is Debian's prometheus package);
#   - every family has HELP and TYPE lines, HELP in words;
#   - per target and mode a success gauge (1 when every sample succeeded)
#     and the final HTTP status of the last sample, which for the live run
#     is what nginx logged (200 after the redirect, 404);
#   - each check of a profile is a gauge (1 pass, 0 fail);
#   - the comparison verdict is a number, -1 faster, 0 no clear
#     difference, 1 slower, and no label value is free text (no spaces).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_prom
hs_require python3 timeout nginx dnsmasq openssl curl
if ! command -v promtool >/dev/null 2>&1; then
  [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ] && hs_fail "promtool missing (Debian package prometheus)"
  hs_skip "promtool missing (Debian package prometheus)"
fi
bad=0

# check NAME RUN.json [STATUS_JSON]: render RUN.json as prom, run promtool
# over it and check the series against the JSON document (and the final
# statuses nginx logged, {target: status}, when given).
check() {
  hs_run 0 report --format prom "$2"
  cp "$HS_OUT" "$HS_DIR/$1.prom"
  if promtool check metrics <"$HS_DIR/$1.prom" >"$HS_DIR/$1.promtool" 2>&1; then
    hs_log "$1: promtool check metrics: ok$(
      [ -s "$HS_DIR/$1.promtool" ] && printf ' (%s)' "$(cat "$HS_DIR/$1.promtool")")"
  else
    hs_log "$1: promtool check metrics rejects it:"
    sed 's/^/  /' "$HS_DIR/$1.promtool" >&2
    bad=1
  fi
  [ -s "$HS_DIR/$1.promtool" ] && {
    hs_log "$1: promtool lints:"
    sed 's/^/  /' "$HS_DIR/$1.promtool" >&2
    bad=1
  }
  "$HS_PYTHON" - "$HS_DIR/$1.prom" "$2" "${3:-{\}}" <<'PY' || bad=1
import json, re, sys
prom, doc = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
statuses = json.loads(sys.argv[3])
problems = []
helps, types, series = {}, {}, []
line_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
label_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
for line in prom.splitlines():
    if line.startswith("# HELP "):
        name, _, text = line[7:].partition(" ")
        helps[name] = text
    elif line.startswith("# TYPE "):
        name, _, t = line[7:].partition(" ")
        types[name] = t
    elif line and not line.startswith("#"):
        m = line_re.match(line)
        if not m:
            problems.append("cannot read line %r" % line)
            continue
        labels = dict(label_re.findall(m.group(2) or ""))
        series.append((m.group(1), labels, float(m.group(3))))
def family(name):
    for suffix in ("_count", "_sum", "_bucket"):
        if name.endswith(suffix) and name[:-len(suffix)] in types:
            return name[:-len(suffix)]
    return name
for name, labels, _ in series:
    f = family(name)
    if f not in helps or f not in types:
        problems.append("%s has no HELP or TYPE" % f)
    elif len(helps[f].split()) < 3:
        problems.append("HELP of %s is not words: %r" % (f, helps[f]))
    for k, v in labels.items():
        if " " in v:
            problems.append("free-text label %s=%r on %s" % (k, v, name))
def find(name, **want):
    return [v for n, l, v in series
            if n == name and all(l.get(k) == x for k, x in want.items())]
for t in doc["targets"]:
    for mode, s in t["summary"].items():
        ok = find("hopsplit_success", target=t["name"], mode=mode)
        if len(ok) != 1:
            problems.append("no hopsplit_success for %s %s" % (t["name"], mode))
        elif ok[0] != (1.0 if s["n"] and not s["n_failed"] else 0.0):
            problems.append("hopsplit_success %s %s = %g, but %d of %d "
                            "failed" % (t["name"], mode, ok[0],
                                        s["n_failed"], s["n"]))
        # Interference, named as serve names a probe's: the largest of
        # the samples' figures, and the count past the threshold.
        most = max([x.get("interference_us", 0) for x in doc["samples"]
                    if x["target"] == t["name"] and x["mode"] == mode] or [0])
        got = find("hopsplit_probe_interference_seconds", target=t["name"],
                   mode=mode)
        if got != [most / 1e6]:
            problems.append("hopsplit_probe_interference_seconds %s %s: %s, "
                            "JSON's largest %d us" % (t["name"], mode, got,
                                                      most))
        # Its parts, as serve gives a probe's: those of the most disturbed
        # sample (the first of equals), a series per part measured only.
        mine = [x for x in doc["samples"]
                if x["target"] == t["name"] and x["mode"] == mode]
        if mine:
            worst = max(mine, key=lambda x: x.get("interference_us", 0))
            for part in ("late", "own", "runq", "lock", "output"):
                v = worst.get("interference_%s_us" % part)
                got = find("hopsplit_probe_interference_part_seconds",
                           target=t["name"], mode=mode, part=part)
                if got != ([] if v is None else [v / 1e6]):
                    problems.append("hopsplit_probe_interference_part_"
                                    "seconds %s %s %s: %s, JSON %s"
                                    % (t["name"], mode, part, got, v))
        got = find("hopsplit_interfered_samples_total", target=t["name"],
                   mode=mode)
        if got != [float(s.get("n_interfered", 0))]:
            problems.append("hopsplit_interfered_samples_total %s %s: %s, "
                            "JSON %d" % (t["name"], mode, got,
                                         s.get("n_interfered", 0)))
        st = find("hopsplit_http_status", target=t["name"], mode=mode)
        if len(st) != 1:
            problems.append("no hopsplit_http_status for %s %s"
                            % (t["name"], mode))
        elif t["name"] in statuses and st[0] != statuses[t["name"]]:
            problems.append("hopsplit_http_status %s %s = %g, nginx logged "
                            "%d" % (t["name"], mode, st[0],
                                    statuses[t["name"]]))
num = {"faster": -1, "no clear difference": 0, "slower": 1}
for c in doc.get("comparison", []):
    v = find("hopsplit_comparison_verdict", target=c["target"],
             baseline=c["baseline"], mode=c["mode"])
    if v != [num[c["verdict"]]]:
        problems.append("hopsplit_comparison_verdict %s %s: %s, want %d "
                        "(%s)" % (c["target"], c["mode"], v,
                                  num[c["verdict"]], c["verdict"]))
checks = doc.get("checks") or []
got = [(l, v) for n, l, v in series if n == "hopsplit_check_pass"]
if len(got) != len(checks):
    problems.append("%d checks, %d hopsplit_check_pass series"
                    % (len(checks), len(got)))
for i, c in enumerate(checks):
    v = [val for l, val in got if l.get("check") == str(i + 1)]
    if v != [1.0 if c["pass"] else 0.0]:
        problems.append("check %d: hopsplit_check_pass %s, pass is %s"
                        % (i + 1, v, c["pass"]))
for p in problems[:20]:
    print("FAIL: %s: %s" % (sys.argv[1].rsplit("/", 1)[-1], p), file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

check golden "$HOPSPLIT_SRC/tests/data/golden/run.json"

hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
B="https://origin.test:$HTTPS_PORT"
hs_run 0 -n 3 --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" \
  -o "$HS_DIR/live.json" base="$B/redirect-same" missing="$B/status/404"
# nginx's locations answer /ok with 200 and /status/404 with 404; its log
# shows that every sample reached them (a warm-up request adds one more).
for uri in /ok /status/404; do
  n=$(grep -c "^$HTTPS_PORT GET $uri .*ua=\[hopsplit" "$NGINX_LOG")
  [ "$n" -ge 6 ] || hs_fail "nginx logged $n requests for $uri, expected 6 or more"
done
check live "$HS_DIR/live.json" '{"base": 200, "missing": 404}'

cat >"$HS_DIR/p.yaml" <<EOF
name: prom-checks
rounds: 3
modes: [cold, warm]
defaults:
  cacert: $CA_FILE
  dns-server: 127.0.0.1:$DNS_PORT
targets:
  - name: base
    url: $B/files/42.jpg
  - name: direct
    url: https://other.test:$OTHER_PORT/b/42.jpg
checks:
  - {target: direct, metric: total.p95, mode: cold, max: 30s}
  - {target: base, cache: {not: [BYPASS, UNCACHEABLE]}}
  - {target: direct, compare: base, verdict: [faster, no clear difference]}
outputs:
  - $HS_DIR/profile.json
EOF
hs_run 1 run "$HS_DIR/p.yaml"
check profile "$HS_DIR/profile.json"

# A target and mode without samples (the document of a run interrupted
# before it came to them) has no interference series, never 0 s.
"$HS_PYTHON" - "$HS_DIR/live.json" "$HS_DIR/nomissing.json" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
d["samples"] = [s for s in d["samples"] if s["target"] != "missing"]
json.dump(d, open(sys.argv[2], "w"))
PY
  hs_fail "cannot drop a target's samples"
hs_run 0 report --format prom "$HS_DIR/nomissing.json"
grep '^hopsplit_probe_interference_seconds{' "$HS_OUT" >"$HS_DIR/nomissing.int"
grep -q 'target="base"' "$HS_DIR/nomissing.int" ||
  hs_fail "no interference series for the target with samples"
if grep 'target="missing"' "$HS_DIR/nomissing.int" >&2; then
  hs_fail "an interference series for a target without samples"
fi

[ "$bad" = 0 ] || hs_fail "the prom output does not fit Prometheus (see above)"
hs_pass
