#!/usr/bin/env python3
"""report_text_check.py RUN.json REPORT.txt BRIEF.txt: every number the
text report's tables show is the JSON document's value of the same field
(issue 15 item 1: one field table feeds both), in the form the text gives
it.  Checked: the phase tables (n= and p50/p95/min/max of each phase and
of the idle time), the per-hop p50 tables, the hop chain of the median
sample (round, total, status, host, address, phases, DNS TTL), the
comparison table (p50/p95, difference and interval, change, verdict,
rounds left out), the --compare all matrix, and --brief.  Prints what
differs and exits 1; prints what it checked and exits 0.

The forms are re-implemented here from their definitions (units.c
units_format_us; milliseconds with two decimals rounded half up), not
taken from hopsplit."""
import json
import os
import re
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsfmt import fmt_us, ms2, signed_cell  # noqa: E402



def left_out(c):
    """A comparison's rounds left out, as the text says them: by cause,
    interference never said as a failure."""
    # Documents written before the causes were kept (the golden ones)
    # have every dropped round as a failure.
    n = c["n_dropped"]
    ni = min(c.get("n_left_interfered", 0), n)
    nf = min(c.get("n_left_failed", n), n - ni)
    t = "%d round%s left out: " % (n, "" if n == 1 else "s")
    if ni:
        t += "%sinterfered, %s%.1f ms late" % (
            "%d " % ni if ni < n else "", "up to " if ni > 1 else "",
            c["left_interfered_max_us"] / 1000.0)
    if nf and ni:
        t += "; %d with a side failed" % nf
    elif nf:
        t += "a side failed"
    return t

def cell(us):
    """A table cell: "-" for null, "0" for nothing, else with its unit."""
    if us is None:
        return "-"
    return "0" if us == 0 else fmt_us(us)


STATS = ("p50_us", "p95_us", "min_us", "max_us")
MODES = ("cold", "warm", "resumed")

run_path, text_path, brief_path = sys.argv[1:4]
d = json.load(open(run_path, encoding="utf-8"))
text = open(text_path, encoding="utf-8").read().split("\n")
brief = open(brief_path, encoding="utf-8").read().split("\n")
targets = {t["name"]: t for t in d["targets"]}
samples = d["samples"]
bad = []
checked = {}


def want(what, got, exp):
    checked[what.split(":")[0]] = checked.get(what.split(":")[0], 0) + 1
    if got != exp:
        bad.append("%s: text %r, JSON gives %r" % (what, got, exp))


# A batch (more than TEXT_DETAIL_MAX targets of report_text.c): the
# overview, one entry per target (the p50 of the total in each mode, the
# name, the URL when it fits; under it the top finding or a failure), and
# no block per target.
DETAIL_MAX = 10
if len(targets) > DETAIL_MAX:
    modes = d["settings"]["modes"]
    entry = None
    entries = {}
    for line in text:
        m = re.match(r"^((?: +(?:\S+ \S+|-|0)){%d})  (\S+)(?:  (\S+://\S*))?$"
                     % len(modes), line)
        if m and m.group(2) in targets:
            entry = m.group(2)
            entries[entry] = [m.group(1).split("  "), m.group(3), []]
            continue
        if entry and line.startswith("      "):
            entries[entry][2].append(line.strip())
            continue
        entry = None
    want("overview entries", sorted(entries), sorted(targets))
    for name, (cells, url, rest) in entries.items():
        t = targets[name]
        cells = [x.strip() for x in cells if x.strip()]
        exp = [cell(t["summary"][mo]["phases"]["total"]["p50_us"])
               if t["summary"][mo]["phases"]["total"]["n"] else "-"
               for mo in modes]
        want("overview p50: %s" % name, cells, exp)
        if url is not None:
            want("overview url: %s" % name, url, t["url"])
        fails = [mo for mo in modes if t["summary"][mo].get("n_failed")]
        if not fails and t["findings"]:
            f = t["findings"][0]
            want("overview top finding: %s" % name, " ".join(rest),
                 "[%s] %s" % (f["kind"], f["title"]))
    text = []

# Split the report into the blocks of its targets: a line "NAME  URL".
blocks, cur, tail = {}, None, []
for line in text:
    m = re.match(r"^(\S+)  (\S+://\S*)$", line)
    if m and m.group(1) in targets:
        cur = m.group(1)
        blocks[cur] = []
        continue
    if line.startswith("comparison against"):
        cur = None
    if cur:
        blocks[cur].append(line)
    else:
        tail.append(line)
if text and sorted(blocks) != sorted(targets):
    bad.append("target blocks %s, JSON targets %s" %
               (sorted(blocks), sorted(targets)))

for name, lines in blocks.items():
    summ = targets[name]["summary"]
    mode = None
    hop_mode = None
    mode_single = False
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^  (cold|warm|resumed) +n=(\d+) +p50 +p95\*? +min +max$",
                     line)
        one = re.match(r"^  (cold|warm|resumed) +n=(1) +value$", line)
        if one:
            # One sample: one column, its value (the p50 of one).
            want("single-sample header: %s" % name, True, True)
            m = one
        single = bool(one)
        if m:
            mode, hop_mode = m.group(1), None
            mode_single = single
            # The statistics' n: successful samples, less those past the
            # interference threshold (a loaded machine makes some).
            want("phase n: %s %s" % (name, mode), int(m.group(2)),
                 summ[mode]["phases"]["total"]["n"])
            i += 1
            continue
        m = re.match(r"^  (cold|warm|resumed)(?: p50)? per hop \(ms\)$", line)
        if m:
            hop_mode, mode = m.group(1), None
            heads = lines[i + 1].split()
            i += 2
            continue
        label = line[4:17].strip()
        if mode and line.startswith("    0 in every sample: "):
            for ph in line.split(": ", 1)[1].split(", "):
                st = summ[mode]["phases"][ph]
                want("zero phase: %s %s %s" % (name, mode, ph),
                     (st["min_us"], st["max_us"]), (0, 0))
        elif mode and mode_single and line.startswith("    ") and \
                (label in summ[mode]["phases"] or label == "(idle before)"):
            st = (summ[mode]["idle"] if label == "(idle before)"
                  else summ[mode]["phases"][label])
            want("single-sample cell: %s %s %s" % (name, mode, label),
                 " ".join(line[17:].split()), cell(st["p50_us"]))
        elif mode and line.startswith("    ") and len(line) >= 61 and \
                (label in summ[mode]["phases"] or label == "(idle before)"):
            cells = [line[18:28].strip(), line[29:39].strip(),
                     line[40:50].strip(), line[51:61].strip()]
            st = (summ[mode]["idle"] if label == "(idle before)"
                  else summ[mode]["phases"][label])
            want("phase cells: %s %s %s" % (name, mode, label), cells,
                 [cell(st[k]) for k in STATS])
        elif hop_mode and re.match(r"^    \d+ ", line):
            f = line.split()
            hop = summ[hop_mode]["hops"][int(f[0]) - 1]
            want("hop table n: %s %s %s" % (name, hop_mode, f[0]), int(f[1]),
                 hop["phases"]["total"]["n"])
            want("hop table p50: %s %s %s" % (name, hop_mode, f[0]), f[2:],
                 [ms2(hop["phases"][h]["p50_us"]) for h in heads[2:]])
        else:
            mode = hop_mode = None
        i += 1

    # The hop chain of the median sample: cold's, else the first mode's.
    med = None
    for mo in ["cold"] + [x for x in MODES if x != "cold"]:
        if mo in summ and summ[mo]["median_sample"] is not None:
            med = samples[summ[mo]["median_sample"]]
            break
    head = [x for x in lines if x.startswith("  median ")]
    if med is None:
        want("median sample: %s" % name, head, [])
        continue
    m = re.match(r"^  median (\w+) sample: round (\d+), (\d+) hops?, "
                 r"total (.+)$", head[0] if head else "")
    if not m:
        bad.append("%s: no median sample line" % name)
        continue
    want("median sample: %s" % name,
         (m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)),
         (med["mode"], med["round"], len(med["hops"]),
          cell(med["total_us"])))
    k = lines.index(head[0]) + 1
    n = 0
    while k < len(lines) and not lines[k].startswith("  waterfall"):
        hm = re.match(r"^  +(\d+) +(\S+) (.{10,20}) (\S+) +(new|reused) ",
                      lines[k])
        # The phases line goes on, indented by 7, past 80 columns.
        phl, more = lines[k + 1] if k + 1 < len(lines) else "", 0
        while k + 2 + more < len(lines) and re.match(
                r"^ {8}(= |(dns|connect|tls|send|wait|transfer) [0-9])",
                lines[k + 2 + more]):
            phl += " " + lines[k + 2 + more].strip()
            more += 1
        if hm and re.match(r"^ {5} .* = [0-9.]+ ms$", phl):
            h = med["hops"][int(hm.group(1)) - 1]
            addr = ("-" if not h["remote_ip"] else
                    ("[%s]:%d" if ":" in h["remote_ip"] else "%s:%d") %
                    (h["remote_ip"], h["remote_port"] or 0))
            want("hop line: %s %s" % (name, hm.group(1)),
                 (hm.group(2), hm.group(3).rstrip(), hm.group(4),
                  hm.group(5)),
                 (str(h["status"]) if h["status"] else "-",
                  (h["host"] or "-")[:len(hm.group(3))], addr[:21],
                  "reused" if h["reused"] else "new"))
            ph = phl.split()
            got = dict(zip(ph[0:-3:2], ph[1:-3:2]))
            got["total"] = ph[-2]
            exp = {p: ms2(v) for p, v in h["phases_us"].items()
                   if v and p != "total"}
            exp["total"] = ms2(h["phases_us"]["total"])
            want("hop phases: %s %s" % (name, hm.group(1)), got, exp)
            n += 1
            dm = [x for x in lines[k + 2 + more:k + 12 + more]
                  if x.startswith("      dns:")]
            if dm and ", ttl " in dm[0] and h["dns"]["ttl"] is not None:
                want("hop dns ttl: %s %s" % (name, hm.group(1)),
                     re.search(r", ttl (\d+)s", dm[0]).group(1),
                     str(h["dns"]["ttl"]))
            k += 2 + more
            continue
        om = re.match(r"^      other \(set-up between and around hops\): "
                      r"(.+)$", lines[k])
        if om:
            want("other: %s" % name, om.group(1), cell(med["other_us"]))
        k += 1
    want("hop lines: %s" % name, n, len(med["hops"]))

# The comparison table and the matrix.
base = [t["name"] for t in d["targets"] if t["baseline"]][0]
cmps = {(c["target"], c["baseline"], c["mode"]): c for c in d["comparison"]}
mode = None
mat_mode = None
cols = []
for i, line in enumerate(tail):
    m = re.match(r"^  (cold|warm|resumed) +p50 +p95 +delta ms", line)
    if m:
        mode, mat_mode = m.group(1), None
        continue
    m = re.match(r"^  (cold|warm|resumed), every pair", line)
    if m:
        mat_mode, mode = m.group(1), None
        cols = tail[i + 2].split()
        continue
    m = re.match(r"^  (cold|warm|resumed) +(\S+) - (\S+): (.+ \[.+\]) (.+)$",
                 line)
    if m and (m.group(2), m.group(3), m.group(1)) in cmps:
        c = cmps[(m.group(2), m.group(3), m.group(1))]
        want("other pairs: %s %s - %s" % m.group(1, 2, 3),
             (m.group(4), m.group(5)),
             ("%s [%s, %s]" % (ms2(c["median_diff_us"], True),
                               ms2(c["ci_low_us"], True),
                               ms2(c["ci_high_us"], True)), c["verdict"]))
        continue
    short = {t[:9]: t for t in targets}
    if mode and line[2:11].strip() in short and line[11:12] == " ":
        full = short[line[2:11].strip()]
        tot = targets[full]["summary"][mode]["phases"]["total"]
        want("comparison p50/p95: %s %s" % (full, mode),
             (line[12:19].strip(), line[21:28].strip()),
             (cell(tot["p50_us"]), cell(tot["p95_us"])))
        if full == base:
            continue
        c = cmps[(full, base, mode)]
        # A wide interval pushes the columns after it to the right.
        # A wide interval pushes the columns after it to the right, and
        # the verdict to the next line when the row would pass 80 columns.
        row = line[30:]
        if re.match(r"^ {4}\S", tail[i + 1] if i + 1 < len(tail) else "") \
                and not re.search(r"[a-z]$", row):
            row += "  " + tail[i + 1].strip()
            i_next = 2
        else:
            i_next = 1
        rest = re.match(r"^(no pairs|\S+ \[\S+, \S+\]\*?) +(\S+)  (.+)$",
                        row)
        if not rest:
            bad.append("comparison row: cannot read %r" % line)
            continue
        delta = rest.group(1)
        if c["n_pairs"]:
            exp = "%s [%s, %s]%s" % (ms2(c["median_diff_us"], True),
                                     ms2(c["ci_low_us"], True),
                                     ms2(c["ci_high_us"], True),
                                     "" if c["ci_available"] else "*")
            pct = ("-" if c["change_pct"] is None
                   else "%+.1f" % c["change_pct"])
        else:
            exp, pct = "no pairs", "-"
        want("comparison delta: %s %s" % (full, mode), delta, exp)
        want("comparison change: %s %s" % (full, mode), rest.group(2), pct)
        want("comparison verdict: %s %s" % (full, mode), rest.group(3),
             c["verdict"])
        if c["n_dropped"]:
            want("comparison left out: %s %s" % (full, mode),
                 tail[i + i_next].strip(),
                 left_out(c))
        ex = [x for x in tail[i + i_next:i + i_next + 2]
              if "explained by:" in x]
        if ex and c.get("explained_by"):
            want("comparison explained: %s %s" % (full, mode),
                 ex[0].split("explained by:")[1].strip(),
                 ", ".join("%s %s" % (e["part"],
                                      signed_cell(e["median_diff_us"]))
                           for e in c["explained_by"]))
    elif mat_mode and re.match(r"^  \S", line) and line.split()[0] in cols:
        f = line.split()
        for j, col in enumerate(cols):
            if f[0] == col:
                continue
            c = cmps.get((f[0], col, mat_mode))
            diff = c["median_diff_us"] if c else None
            verdict = c["verdict"] if c else None
            if not c:
                c = cmps[(col, f[0], mat_mode)]
                diff = -c["median_diff_us"] if c["n_pairs"] else None
                verdict = c["verdict"]
            exp = ms2(diff, True)
            if diff is not None and verdict == "no clear difference":
                exp = "(%s)" % exp
            want("matrix: %s %s - %s" % (mat_mode, f[0], col), f[j + 1], exp)

# --brief: p50, p95 and max of the total per target and mode; the first
# column is as wide as the longest name (never cut).
width = brief[0].index(" mode ")
want("brief: name column", width,
     max([12] + [len(t) for t in targets]))
# One counted sample in every target and mode: one column, "total".
one_col = bool(re.match(r"^\S+ +mode +n +total +notes$", brief[0]))
for line in brief[1:]:
    m = re.match(r"^(.{%d}) (cold|warm|resumed) +(\d+) (.{10})%s"
                 % (width, "" if one_col else " (.{10}) (.{10})"), line)
    if not m:
        continue
    name = m.group(1).rstrip()
    s = targets[name]["summary"][m.group(2)]
    tot = s["phases"]["total"]
    # The figures of the counted samples; the mark on a p95 of 2 to 19.
    exp = [cell(tot[k]) if tot["n"] else "-"
           for k in ("p50_us", "p95_us", "max_us")]
    if 1 < tot["n"] < 20:
        exp[1] += "*"
    if one_col:
        exp = exp[:1]
    want("brief: %s %s" % (name, m.group(2)),
         [m.group(k).strip() for k in range(4, 4 + len(exp))], exp)
    want("brief n: %s %s" % (name, m.group(2)), int(m.group(3)), s["n"])

# --brief: every comparison's verdict with its interval, one line each
# (joined where it wraps), in the JSON's order.
joined = []
for line in brief:
    if line.startswith("  ") and joined and " vs " in joined[-1]:
        joined[-1] += " " + line.strip()
    else:
        joined.append(line)
got = [l for l in joined if re.match(r"^\S+ vs \S+, (cold|warm|resumed): ", l)]
exp = []
for c in d["comparison"]:
    head = "%s vs %s, %s: %s" % (c["target"], c["baseline"], c["mode"],
                                 c["verdict"])
    if not c["n_pairs"]:
        exp.append(head + " (no pairs)")
        continue
    exp.append("%s %s [%s, %s] ms (%s), %s %%" % (
        head, ms2(c["median_diff_us"], True), ms2(c["ci_low_us"], True),
        ms2(c["ci_high_us"], True),
        "95 % interval" if c["ci_available"]
        else "min and max: too few pairs for 95 %",
        "-" if c["change_pct"] is None else "%+.1f" % c["change_pct"]))
want("brief verdicts", got, exp)

# --brief: the failures of a target after its rows, with their reason.
for name, t in targets.items():
    for mode, s in t["summary"].items():
        if s.get("n_failed"):
            cls = max(s["failures"], key=lambda k: s["failures"][k])
            want("brief failure: %s %s" % (name, mode),
                 any(re.match(r"^  failed \(.*\b%s\b.*\): %s: " % (mode, cls), l)
                     for l in brief), True)

for b in bad:
    print(b)
print("checked: " + ", ".join("%s %d" % kv for kv in sorted(checked.items())))
sys.exit(1 if bad else 0)
