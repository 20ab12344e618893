#!/usr/bin/env python3
"""report_agree.py DIR: one run's r.{txt,json,ndjson,csv,summary.csv,har,
html,prom} say one story (issue 26 item 1).  The JSON document is the
analysis written through the field table; every other format is parsed
here with its own reader, and every value it shows that the JSON also
holds must be the same, in the form that format gives it:

  baseline      text "comparison against B", html "(baseline)" marks and
                "faster than the baseline B", prom baseline="B", summary
                csv, json targets[].baseline == settings.baseline
  comparisons   verdict and median difference: text table rows, html
                summary and comparison tables, prom gauges, summary csv;
                the parts that explain it: text and html "explained by"
  findings      kind, title and saving: text, html
  cache         verdict per hop: text "cache: V" (median sample), html
                cache table, prom verdict counts; per sample and hop: csv,
                ndjson, har
  totals        per sample: ndjson, csv, har; median per target and mode:
                text phase table, html summary, prom, summary csv
  names         every target name whole in the text comparison table and
                the --compare all matrix

The forms (units_format_us, ms with two decimals) are re-implemented from
their definitions, never taken from hopsplit.  Prints every disagreement
and exits 1, else prints what it compared and exits 0."""
import csv
import html as htmlmod
import io
import json
import os
import re
import sys

D = sys.argv[1]
bad = []
seen = {}


def load(name):
    with open(os.path.join(D, name), encoding="utf-8", newline="") as f:
        return f.read()


def same(what, got, exp):
    kind = " ".join(what.split(" ")[:2])
    seen[kind] = seen.get(kind, 0) + 1
    if got != exp:
        bad.append("%s: %r, the JSON says %r" % (what, got, exp))


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsfmt import fmt_us, ms2, signed_cell as signed  # noqa: E402


def squash(s):
    return re.sub(r"\s+", " ", s).strip()


doc = json.loads(load("r.json"))
text = load("r.txt")
flat = squash(text)
page = load("r.html")
ptext = squash(htmlmod.unescape(re.sub(r"<[^>]+>", " ", page)))
prom = load("r.prom")
base = doc["settings"]["baseline"]
names = [t["name"] for t in doc["targets"]]
targets = {t["name"]: t for t in doc["targets"]}


def prom_value(metric, **labels):
    for line in prom.split("\n"):
        if not line.startswith(metric + "{"):
            continue
        lab = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))
        if all(lab.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


# ---- baseline ----
same("json targets[].baseline",
     [t["name"] for t in doc["targets"] if t["baseline"]], [base])
if base == names[0]:
    bad.append("the run must name a baseline other than the first target")
same("text baseline", "comparison against %s " % base in text, True)
same("html baseline marks",
     re.findall(r"<td class=\"l\">([^<]*) \(baseline\)</td>", page), [base])
same("html baseline heading",
     re.findall(r"<h2>([^<]*) \(baseline\) <code", page), [base])
same("html comparison baseline",
     "faster than the baseline %s" % base in ptext, True)
same("prom baselines", sorted({c["baseline"] for c in doc["comparison"]}),
     sorted(set(re.findall(
         r'hopsplit_comparison_verdict\{[^}]*baseline="([^"]*)"', prom))))

# ---- comparisons ----
summary = list(csv.DictReader(io.StringIO(load("r.summary.csv"),
                                          newline="")))
VERDICT_NUM = {"faster": -1, "no clear difference": 0, "slower": 1}
lines = text.split("\n")
for c in doc["comparison"]:
    key = "%s vs %s %s" % (c["target"], c["baseline"], c["mode"])
    md = c["median_diff_us"]
    same("prom verdict " + key,
         prom_value("hopsplit_comparison_verdict", target=c["target"],
                    mode=c["mode"], baseline=c["baseline"]),
         float(VERDICT_NUM[c["verdict"]]))
    if md is not None:
        got = prom_value("hopsplit_comparison_median_diff_seconds",
                         target=c["target"], mode=c["mode"],
                         baseline=c["baseline"])
        same("prom median diff " + key,
             None if got is None else round(got * 1e6), md)
    rows = [r for r in summary if r["kind"] == "comparison"
            and r["target"] == c["target"] and r["mode"] == c["mode"]
            and r["baseline"] == c["baseline"] and r["phase"] == "total"]
    same("summary csv " + key,
         [(r["verdict"], r["median_diff_us"]) for r in rows],
         [(c["verdict"], "" if md is None else str(md))])
    if c["baseline"] != base or md is None:
        continue
    # The text table of this mode: the row of the target (its name whole,
    # at the start of a line), its difference and verdict (which may wrap
    # to the next line), then "explained by" as the analysis chose it.
    head = next(i for i, l in enumerate(lines)
                if re.match(r"  %s +p50 +p95 " % c["mode"], l))
    at = next((i for i in range(head + 1, len(lines))
               if lines[i].startswith("  %s " % c["target"])
               or lines[i] == "  %s" % c["target"]), None)
    ex = ", ".join("%s %s" % (e["part"], signed(e["median_diff_us"]))
                   for e in c["explained_by"])
    if at is None:
        bad.append("text: no row for %s (name cut?)" % key)
    else:
        row = squash(" ".join(lines[at:at + 3]))
        same("text diff " + key, ("%s [%s, %s]" % (
            ms2(md, True), ms2(c["ci_low_us"], True),
            ms2(c["ci_high_us"], True))) in row, True)
        same("text verdict " + key, c["verdict"] in row, True)
        after = squash(" ".join(lines[at:at + 6]))
        if ex:
            same("text explained by " + key,
                 ("explained by: " + ex) in after, True)
    # html: the comparison table's row, and the summary's cell.
    # Each row names its baseline (issue 38), and has a size column when
    # some pair's bodies differ.
    m = re.search(r"<tr><td class=\"l\">%s</td><td class=\"l\">%s</td>"
                  r"<td class=\"l\">%s</td>(?:<td>[^<]*</td>)?"
                  r"<td>\d+</td><td class=\"l\">(.*?)</td><td>.*?</td>"
                  r"<td class=\"l\">(.*?)</td></tr>"
                  % (re.escape(c["target"]), re.escape(c["baseline"]),
                     c["mode"]), page)
    if not m:
        bad.append("html: no comparison row for %s" % key)
        continue
    cellv = squash(htmlmod.unescape(re.sub(r"<[^>]+>", " ", m.group(1))))
    same("html verdict " + key, cellv.startswith(c["verdict"] + " "), True)
    same("html diff " + key, signed(md).replace("-", "\u2212") in cellv,
         True)
    hx = squash(htmlmod.unescape(m.group(2))).replace("\u2212", "-")
    same("html explained by " + key, hx, ex or "-")

# ---- names whole: the matrix rows and columns ----
if doc["settings"].get("compare_all"):
    for mode in doc["settings"]["modes"]:
        i = next(i for i, l in enumerate(lines)
                 if l.startswith("  %s, every pair" % mode))
        heads = lines[i + 2].split()
        keyed = heads and heads[0] == "#1"
        same("matrix columns " + mode, heads,
             ["#%d" % (k + 1) for k in range(len(names))] if keyed
             else names)
        rows = [lines[i + 3 + k].split()[0] for k in range(len(names))]
        same("matrix rows " + mode, rows,
             ["#%d" % (k + 1) for k in range(len(names))] if keyed
             else names)

# ---- findings ----
for t in doc["targets"]:
    for k, f in enumerate(t["findings"]):
        key = "%s finding %d" % (t["name"], k + 1)
        same("text " + key, "%d. [%s] %s" % (k + 1, f["kind"],
                                            squash(f["title"])) in flat,
             True)
        if f["saving_us"] and f.get("basis") != "uncertain":
            same("text saving " + key,
                 "saving up to %s" % fmt_us(f["saving_us"]) in flat, True)
        m = re.search(r"<tr><td class=\"l\">%d\. (.*?)</td><td>(.*?)</td>"
                      % (k + 1), page[page.find("<h2>%s" % t["name"]):])
        if not m:
            bad.append("html: no %s" % key)
            continue
        same("html " + key, htmlmod.unescape(m.group(1)), f["title"])
        same("html saving " + key, htmlmod.unescape(m.group(2)),
             fmt_us(f["saving_us"]) if f["saving_us"] else "-")

# ---- cache verdicts ----
samples = doc["samples"]
for t in doc["targets"]:
    sec = page[page.find("<h2>%s" % t["name"]):]
    sec = sec[:sec.find("<h2>", 4)] if "<h2>" in sec[4:] else sec
    for ch in t["cache"]:
        key = "%s hop %d" % (t["name"], ch["hop"])
        m = re.search(r"<tr><td>%d</td><td class=\"l\">[^<]*</td>"
                      r"<td class=\"l\">([A-Z]+)(?: <span[^>]*>inferred"
                      r"</span>)?</td>" % ch["hop"], sec)
        same("html cache " + key, m.group(1) if m else None, ch["verdict"])
        for v, n in ch["counts"].items():
            same("prom cache %s %s" % (key, v),
                 prom_value("hopsplit_cache_verdict", target=t["name"],
                            hop=str(ch["hop"]), verdict=v), float(n))
    tsec = text[text.find("\n%s  " % t["name"]):]
    med = t["summary"]["cold"]["median_sample"]
    if med is not None:
        for k, h in enumerate(samples[med]["hops"]):
            same("text cache %s hop %d" % (t["name"], k + 1),
                 "cache: %s" % t["cache"][k]["verdict"] in tsec, True)

# ---- per sample: ndjson, csv, har ----
nd = [json.loads(l) for l in load("r.ndjson").split("\n") if l]
nds = [o for o in nd if o.get("type") != "summary"]
# A streamed sample line says what that sample alone showed; the summary
# line's cache_inferred[] holds the verdicts inferred across samples
# (later ones too), which replace it.
ndsum = [o for o in nd if o.get("type") == "summary"]
across = {(c["sample"], c["hop"]): c["cache"]["verdict"]
          for c in (ndsum[0].get("cache_inferred", []) if ndsum else [])}
for (i, hop), v in across.items():
    same("ndjson cache_inferred sample %d hop %d" % (i, hop),
         ((samples[i]["hops"][hop - 1].get("cache") or {}).get("verdict")
          if i < len(samples) and hop <= len(samples[i]["hops"]) else None),
         v)
rows = list(csv.DictReader(io.StringIO(load("r.csv"), newline="")))
har = json.loads(load("r.har"))
pages = har["log"]["pages"]
entries = har["log"]["entries"]
same("ndjson samples", len(nds), len(samples))
same("har pages", len(pages), len(samples))
for i, s in enumerate(samples):
    key = "sample %d" % i
    o = nds[i] if i < len(nds) else {}
    same("ndjson total " + key, o.get("total_us"), s["total_us"])
    same("har total " + key, pages[i]["_hopsplit"]["total_us"]
         if i < len(pages) else None, s["total_us"])
    same("har onLoad " + key, pages[i]["pageTimings"]["onLoad"]
         if i < len(pages) else None, round(s["total_us"] / 1000.0, 3))
    srows = [r for r in rows if r["sample"] == str(i)]
    for k, h in enumerate(s["hops"]):
        v = (h.get("cache") or {}).get("verdict")
        same("ndjson cache %s hop %d" % (key, k + 1),
             across.get((i, k + 1), ((o.get("hops") or [{}] * (k + 1))[k]
                                     .get("cache") or {}).get("verdict")), v)
        same("csv cache %s hop %d" % (key, k + 1),
             srows[k]["cache"] if k < len(srows) else None, v or "")
        if k == 0:  # the sample's columns are on its first row
            same("csv total " + key,
                 srows[0]["sample_total_us"] if srows else None,
                 str(s["total_us"]))
        es = [e for e in entries if e["pageref"] == "sample_%d" % i]
        same("har cache %s hop %d" % (key, k + 1),
             es[k]["_hopsplit"]["cache"]["verdict"] if k < len(es) else None,
             v)

# ---- median totals ----
for t in doc["targets"]:
    tsec = text[text.find("\n%s  " % t["name"]):]
    for mode, sm in t["summary"].items():
        p50 = sm["phases"]["total"]["p50_us"]
        if p50 is None:
            continue
        key = "%s %s" % (t["name"], mode)
        m = re.search(r"\n  %s +n=\d+.*?\n    total +(\S+ m?s)" % mode, tsec,
                      re.S)
        same("text p50 total " + key, m.group(1) if m else None,
             fmt_us(p50))
        m = re.search(r"<td class=\"l\">%s</td><td>([^<]*)</td>" % mode,
                      page[page.find(">%s" % t["name"]):])
        same("html p50 total " + key, m.group(1) if m else None,
             fmt_us(p50))
        got = prom_value("hopsplit_phase_seconds", target=t["name"],
                         mode=mode, phase="total", quantile="0.5")
        same("prom p50 total " + key,
             None if got is None else round(got * 1e6), p50)
        r = [r for r in summary if r["kind"] == "phase" and
             r["target"] == t["name"] and r["mode"] == mode and
             r["phase"] == "total"]
        same("summary csv p50 total " + key,
             [x["p50_us"] for x in r], [str(p50)])

for b in bad:
    print(b)
print("%d values compared in %d kinds, %d disagree" %
      (sum(seen.values()), len(seen), len(bad)))
sys.exit(1 if bad else 0)
