#!/usr/bin/env python3
"""report_check.py DATA_DIR OUT_DIR: checks of r.{json,ndjson,csv,har,html}
written by one run (see report_formats.sh).  Prints every problem and
exits 1 when there is one."""
import csv
import io
import json
import os
import re
import sys
import warnings

problems = []


def bad(msg):
    problems.append(msg)


def load(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def check_ndjson(doc, text):
    if not text.endswith("\n"):
        bad("ndjson: does not end with a newline")
    lines = text.split("\n")[:-1]
    objs = []
    for i, line in enumerate(lines):
        try:
            objs.append(json.loads(line))
        except ValueError as e:
            bad("ndjson line %d: not JSON: %s" % (i + 1, e))
            return
    samples = doc["samples"]
    if len(objs) != len(samples) + 1:
        bad("ndjson: %d lines, expected %d samples + 1 summary"
            % (len(objs), len(samples)))
        return
    # The summary's cache_inferred[] replaces the cache object of the hops
    # whose verdict was inferred across samples (a streamed line said what
    # its sample alone showed); each must be the JSON document's.
    inferred = objs[-1].get("cache_inferred")
    if not isinstance(inferred, list):
        bad("ndjson summary: no cache_inferred array")
        inferred = []
    across = {}
    for e in inferred:
        i, h = e.get("sample"), e.get("hop")
        if (not isinstance(i, int) or not isinstance(h, int) or
                not 0 <= i < len(samples) or
                not 1 <= h <= len(samples[i]["hops"])):
            bad("ndjson cache_inferred: no such sample and hop: %r" % e)
            continue
        if e.get("cache") != samples[i]["hops"][h - 1].get("cache"):
            bad("ndjson cache_inferred sample %d hop %d differs from the "
                "JSON's" % (i, h))
        across[(i, h)] = e.get("cache")
    for i, (o, s) in enumerate(zip(objs, samples)):
        if o.get("type") != "sample":
            bad("ndjson line %d: type %r" % (i + 1, o.get("type")))
        o = json.loads(json.dumps(o))
        o.pop("type", None)
        for k, hop in enumerate(o.get("hops") or []):
            if (i, k + 1) in across:
                hop["cache"] = across[(i, k + 1)]
        if o != s:
            bad("ndjson line %d differs from samples[%d] of the JSON" % (
                i + 1, i))
    summ = dict(objs[-1])
    summ.pop("cache_inferred", None)
    if summ.pop("type", None) != "summary":
        bad("ndjson: last line is not the summary")
    rest = {k: v for k, v in doc.items() if k != "samples"}
    if summ != rest:
        bad("ndjson summary differs from the JSON document without samples:"
            " keys %r vs %r" % (sorted(summ), sorted(rest)))


def check_csv(doc, text):
    if "\r\n" not in text or re.search(r"[^\r]\n", text):
        bad("csv: rows must end in CRLF")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    head = rows[0]
    for c in ("target", "mode", "round", "position", "hop", "status", "host",
              "remote_ip", "reused", "http_version", "tls_version", "resumed",
              "dns_us", "connect_us", "tls_us", "send_us", "wait_us",
              "transfer_us", "total_us", "cache", "pop", "error_class"):
        if c not in head:
            bad("csv: no column %r" % c)
    want = sum(max(1, len(s["hops"])) for s in doc["samples"])
    body = [dict(zip(head, r)) for r in rows[1:]]
    if any(len(r) != len(head) for r in rows):
        bad("csv: rows of different widths")
    if len(body) != want:
        bad("csv: %d rows, expected %d" % (len(body), want))
        return
    k = 0
    for s in doc["samples"]:
        for h in s["hops"]:
            r = body[k]
            k += 1
            # Columns of the whole sample are on its first row only, so
            # that their mean is over samples (report_csv.c).
            first = h["hop"] == 1
            once = (("sample_total_us", str(s["total_us"]) if first else ""),
                    ("sample_redirect_us",
                     str(s["redirect_us"]) if first else ""),
                    ("sample_other_us", str(s["other_us"]) if first else ""),
                    ("final_status", str(s["status"] or "")),
                    ("partial", "true" if doc["partial"] else "false"))
            for col, v in once:
                if r.get(col) != v:
                    bad("csv row %d %s: %r, expected %r" % (k, col,
                                                            r.get(col), v))
            for col, v in (("target", s["target"]), ("mode", s["mode"]),
                           ("round", str(s["round"])),
                           ("hop", str(h["hop"])),
                           ("status", str(h["status"])),
                           ("host", h["host"]), ("url", h["url"]),
                           ("remote_ip", h["remote_ip"] or ""),
                           ("reused", "true" if h["reused"] else "false"),
                           ("total_us", str(h["phases_us"]["total"])),
                           ("dns_us", str(h["phases_us"]["dns"]))):
                if r[col] != v:
                    bad("csv row %d %s: %r, expected %r" % (k, col, r[col],
                                                            v))


def check_summary_csv(doc, text):
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    phases = [r for r in rows if r["kind"] == "phase"]
    cmps = [r for r in rows if r["kind"] == "comparison"]
    want = sum(len(t["summary"]) * len(next(iter(t["summary"].values()))
                                        ["phases"]) for t in doc["targets"])
    if len(phases) != want:
        bad("summary csv: %d phase rows, expected %d" % (len(phases), want))
    for r in phases + cmps:
        # The last column names what each row measured (issue 38): the
        # target's URL as the JSON has it (redacted alike).
        t = next(t for t in doc["targets"] if t["name"] == r["target"])
        if r.get("url") != t["url"]:
            bad("summary csv %s: url %r, expected %r"
                % (r["target"], r.get("url"), t["url"]))
    for r in phases:
        t = next(t for t in doc["targets"] if t["name"] == r["target"])
        st = t["summary"][r["mode"]]["phases"][r["phase"]]
        for k in ("n", "min_us", "p50_us", "p95_us", "max_us", "mean_us",
                  "stddev_us"):
            v = "" if st[k] is None else str(st[k])
            if r[k] != v:
                bad("summary csv %s %s %s %s: %r, expected %r"
                    % (r["target"], r["mode"], r["phase"], k, r[k], v))
    if len(cmps) != 9 * len(doc["comparison"]):
        bad("summary csv: %d comparison rows for %d comparisons"
            % (len(cmps), len(doc["comparison"])))
    for r in cmps:
        c = next(c for c in doc["comparison"]
                 if c["target"] == r["target"] and c["mode"] == r["mode"])
        if r["phase"] == "total":
            for k in ("n_pairs", "median_diff_us", "ci_low_us", "ci_high_us",
                      "verdict"):
                v = "" if c[k] is None else str(c[k])
                if r[k] != v:
                    bad("summary csv comparison %s %s: %r, expected %r"
                        % (r["target"], k, r[k], v))
        elif r["median_diff_us"] != (
                "" if c["phases"][r["phase"]]["median_diff_us"] is None
                else str(c["phases"][r["phase"]]["median_diff_us"])):
            bad("summary csv comparison %s %s median_diff_us"
                % (r["target"], r["phase"]))


def check_har(data_dir, doc, text):
    har = json.loads(text)
    check_har_fields(doc, har)
    try:
        import jsonschema
    except ImportError:
        msg = ("har: python3 jsonschema is not installed "
               "(Debian python3-jsonschema)")
        if os.environ.get("HOPSPLIT_TEST_REQUIRE"):
            bad(msg)
        else:
            print("report_check: " + msg + ": schema not checked")
        har = None
    if har is None:
        return
    sdir = os.path.join(data_dir, "har-schema")
    store = {}
    for name in os.listdir(sdir):
        if name.endswith(".json"):
            with open(os.path.join(sdir, name), encoding="utf-8") as f:
                s = json.load(f)
            store[s["$id"]] = s
            store[name] = s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        resolver = jsonschema.RefResolver("", store["har.json"], store=store)
        v = jsonschema.Draft6Validator(store["har.json"], resolver=resolver,
                                       format_checker=jsonschema.FormatChecker())
        errs = list(v.iter_errors(har))
    for e in errs[:10]:
        bad("har: schema: %s at %s" % (e.message, list(e.absolute_path)))


def check_har_fields(doc, har):
    log = har["log"]
    if log["version"] != "1.2":
        bad("har: version %r" % log["version"])
    if len(log["pages"]) != len(doc["samples"]):
        bad("har: %d pages for %d samples" % (len(log["pages"]),
                                              len(doc["samples"])))
    hops = [(s, h) for s in doc["samples"] for h in s["hops"]]
    if len(log["entries"]) != len(hops):
        bad("har: %d entries for %d hops" % (len(log["entries"]), len(hops)))
        return
    for i, (e, (s, h)) in enumerate(zip(log["entries"], hops)):
        t = e["timings"]
        ph = h["phases_us"]
        tls = h["tls"]["version"] is not None
        if h["reused"]:
            if (t["connect"], t["ssl"], t["dns"]) != (-1, -1, -1):
                bad("har entry %d: reused hop, timings %r" % (i, t))
        else:
            want = round((ph["connect"] + (ph["tls"] if tls else 0)) / 1000,
                         3)
            if abs(t["connect"] - want) > 1e-9:
                bad("har entry %d: connect %r, expected connect+ssl %r"
                    % (i, t["connect"], want))
            if tls and abs(t["ssl"] - ph["tls"] / 1000) > 1e-9:
                bad("har entry %d: ssl %r" % (i, t["ssl"]))
        if abs(e["time"] - ph["total"] / 1000) > 1e-9:
            bad("har entry %d: time %r != total %r" % (i, e["time"],
                                                       ph["total"]))
        if e["response"]["status"] != h["status"]:
            bad("har entry %d: status" % i)
        if e["request"]["url"] != h["url"]:
            bad("har entry %d: url" % i)
        if e.get("serverIPAddress") != h["remote_ip"]:
            bad("har entry %d: serverIPAddress" % i)
        if "_hopsplit" not in e or "connection" not in e:
            bad("har entry %d: no _hopsplit or connection" % i)


def check_html(doc, text):
    low = text.lower()
    if not low.startswith("<!doctype html>"):
        bad("html: no doctype")
    if "<script" in low:
        bad("html: has a script")
    for m in re.finditer(r'(?:src|href)\s*=\s*"([^"]*)"', low):
        bad("html: external reference %r" % m.group(1))
    if re.search(r"url\(", low):
        bad("html: CSS url() reference")
    n = len(doc["targets"]) * len(doc["settings"]["modes"])
    # A waterfall and a strip plot per target and mode, plus comparison.
    if low.count("<svg") < 2 * n:
        bad("html: %d svg charts, expected at least %d" % (low.count("<svg"),
                                                           2 * n))
    for t in doc["targets"]:
        if t["name"] not in text:
            bad("html: target %r not named" % t["name"])


def main():
    data_dir, out = sys.argv[1], sys.argv[2]
    doc = json.loads(load(os.path.join(out, "r.json")))
    check_ndjson(doc, load(os.path.join(out, "r.ndjson")))
    check_csv(doc, load(os.path.join(out, "r.csv")))
    if os.path.exists(os.path.join(out, "r.summary.csv")):
        check_summary_csv(doc, load(os.path.join(out, "r.summary.csv")))
    check_har(data_dir, doc, load(os.path.join(out, "r.har")))
    check_html(doc, load(os.path.join(out, "r.html")))
    for p in problems[:40]:
        print("report_check: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
