#!/usr/bin/env python3
"""cachetruth.py: ground truth for cache verdicts, from the caches' own logs.

usage: cachetruth.py truth CACHE LOG KIND ID
       cachetruth.py score MATRIX

Every request of a test carries an X-Hs-Id header, and every cache of
tests/server/caches.sh logs it with its own record of what it did:
varnishncsa's handling (hit, miss, pass), Squid's and Traffic Server's
result codes (TCP_MEM_HIT, TCP_MISS, TCP_REFRESH_UNMODIFIED, ...),
mod_cache's cache-status note ("cache hit", "conditional cache hit: entity
refreshed", "cache miss: ..."), nginx's $upstream_cache_status.  The lines
of one id are the requests in order: the samples of one hopsplit run, then
one more request made with curl (the probe).

Each line says what the cache did with that request:
  HIT          answered from its store without asking the origin
  REVALIDATED  answered from its store after the origin said 304
  EXPIRED      its stored copy was stale and the origin sent a new one
  STALE        answered from a stale copy
  BYPASS       the cache's log itself says it bypassed the cache
  FORWARD      went to the origin
A FORWARD becomes MISS when the next request of the same id was answered
from the store (the response was stored, so "a later request may hit"),
and otherwise a verdict that says it was not stored: UNCACHEABLE when the
origin forbade shared caching (no-store, private), else BYPASS (SPEC 4.1).
The ground truth never comes from hopsplit's output.

MATRIX (for score) is a file of lines
  CONFIG CACHE VENDOR KIND ID LOG JSON [INNER_CACHE INNER_VENDOR INNER_LOG]
one per hopsplit run: the configuration's name, the cache nearest the user
(its kind, the vendor name hopsplit should give, its log), the response
kind, the X-Hs-Id, and hopsplit's JSON output; for a chain of two caches
also the inner cache.  A row is right when every sample's verdict is the
log's and every sample and the hop name the vendor; for a chain also when
the hop's layers are [outer, inner] and, for every request the outer cache
forwarded, the inner layer's verdict is what the inner cache's own log
says; and the hop's verdict is the layer that served: where the outer
cache forwarded a request the inner one answered from its store, the
inner's log is the truth (an outer pass of a request with a cookie in
front of an inner HIT is a HIT, SPEC 4.1).  score prints the table and "N of M right" and exits 1 unless every
row is right.
"""
import json
import re
import sys

# Kinds whose origin response forbids shared caching (no-store, private).
FORBIDDEN = {"nostore", "private", "redirect"}

SQUID_HIT = {"TCP_HIT", "TCP_MEM_HIT", "TCP_IMS_HIT", "TCP_NEGATIVE_HIT",
             "TCP_OFFLINE_HIT", "TCP_INM_HIT"}
SQUID_REVAL = {"TCP_REFRESH_UNMODIFIED", "TCP_REFRESH_HIT",
               "TCP_REFRESH_IGNORED"}
SQUID_EXPIRED = {"TCP_REFRESH_MODIFIED", "TCP_REFRESH_MISS"}
SQUID_STALE = {"TCP_REFRESH_FAIL_OLD", "TCP_REFRESH_FAIL_HIT",
               "TCP_REF_FAIL_HIT", "TCP_STALE_HIT"}


def squid_like(code):
    """Squid's and Traffic Server's result codes (squid log format)."""
    code = code.split("/")[0]
    if code in SQUID_HIT:
        return "HIT"
    if code in SQUID_REVAL:
        return "REVALIDATED"
    if code in SQUID_EXPIRED:
        return "EXPIRED"
    if code in SQUID_STALE:
        return "STALE"
    return "FORWARD"


def parse_line(cache, line):
    """(id, raw code, what the cache did) of one log line."""
    parts = line.split(" ")
    hid = parts[0]
    if cache == "varnish":
        m = re.search(r"handling=(\S+)", line)
        raw = m.group(1) if m else "?"
        m = re.search(r"uncacheable=(\S+)", line)
        if m and m.group(1) == "true" and raw != "hit":
            raw += " (uncacheable)"
        return hid, raw, "HIT" if raw == "hit" else "FORWARD"
    if cache in ("squid", "ats"):
        raw = parts[4]
        return hid, raw.split("/")[0], squid_like(raw)
    if cache == "apache":
        m = re.search(r"cache=\[([^\]]*)\]", line)
        raw = m.group(1) if m else "?"
        if raw == "cache hit" or raw.startswith("cache hit"):
            return hid, raw, "HIT"
        if raw.startswith("conditional cache hit"):
            return hid, raw, "REVALIDATED"
        # Apache says when it stores what it forwarded: a miss, whether or
        # not a later request can use it (a no-cache response without
        # validators under CacheIgnoreNoLastMod is stored and fetched in
        # full again every time: a MISS each time, never a HIT).
        if raw.startswith("cache miss: attempting entity save"):
            return hid, raw, "MISS"
        return hid, raw, "FORWARD"
    if cache == "nginx":
        raw = parts[4] if len(parts) > 4 else "-"
        what = {"HIT": "HIT", "REVALIDATED": "REVALIDATED",
                "STALE": "STALE", "UPDATING": "STALE",
                "EXPIRED": "EXPIRED", "BYPASS": "BYPASS"}.get(raw, "FORWARD")
        return hid, raw, what
    raise SystemExit("cachetruth: unknown cache '%s'" % cache)


def start_time(line):
    """When the cache received the request: t= is that time (Varnish,
    Traffic Server, Apache) or, with rt= (Squid in ms, nginx in s), the
    time the line was logged."""
    m = re.search(r" t=([0-9.]+)", line)
    if not m:
        return None
    t = float(m.group(1))
    m = re.search(r" rt=([0-9.]+)", line)
    if m:
        rt = float(m.group(1))
        t -= rt if "." in m.group(1) else rt / 1000.0
        # Both are in milliseconds: equal starts keep the log's order.
        t = round(t, 3)
    return t


def lines_of(cache, log, hid):
    """The records of one id in the order the cache received the requests:
    caches write a line when a request ends, so a slow miss can be logged
    after the hit that followed it."""
    out = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f):
            line = line.rstrip("\n")
            if not line:
                continue
            lid, raw, what = parse_line(cache, line)
            if lid == hid:
                t = start_time(line)
                out.append((t if t is not None else float(n), n, raw, what))
    out.sort()
    return [(raw, what) for _, _, raw, what in out]


def verdicts(kind, recs):
    """Verdict of every record but the last (the probe judges the one
    before it)."""
    out = []
    for i in range(len(recs) - 1):
        raw, what = recs[i]
        if what != "FORWARD":
            out.append((what, raw))
            continue
        nxt = recs[i + 1][1]
        if nxt in ("HIT", "REVALIDATED", "STALE"):
            out.append(("MISS", raw))
        elif kind in FORBIDDEN:
            out.append(("UNCACHEABLE", raw))
        else:
            out.append(("BYPASS", raw))
    return out


def truth(cache, log, kind, hid):
    return verdicts(kind, lines_of(cache, log, hid))


def hop_verdicts(doc):
    """hopsplit's verdict of hop 1 in every sample, in round order."""
    samples = sorted(doc.get("samples", []),
                     key=lambda s: (s.get("round", 0), s.get("position", 0)))
    out = []
    for s in samples:
        hops = s.get("hops") or []
        v = None
        if hops and isinstance(hops[0].get("cache"), dict):
            v = hops[0]["cache"].get("verdict")
        out.append(v)
    return out


def sample_layers(doc):
    """hopsplit's cache layers of hop 1 in every sample, in round order:
    lists of (vendor, verdict), nearest the user first."""
    samples = sorted(doc.get("samples", []),
                     key=lambda s: (s.get("round", 0), s.get("position", 0)))
    out = []
    for s in samples:
        hops = s.get("hops") or []
        c = hops[0].get("cache") if hops else None
        layers = c.get("layers") if isinstance(c, dict) else None
        out.append([(l.get("vendor"), l.get("verdict"))
                    for l in layers or [] if isinstance(l, dict)])
    return out


def inner_check(kind, want, inner, doc):
    """For a chain: the inner cache saw every request the outer one did not
    answer from its store; its own log says what it did with each.  Returns
    (problems, [] when hopsplit's inner layer agrees on every one of them
    that the log can judge; how many it judged)."""
    cache, vendor, log = inner
    recs = lines_of(cache, log, hid_of(doc))
    judged = verdicts(kind, recs)
    problems = []
    checked = 0
    j = 0
    for i, (outer, _) in enumerate(want):
        if outer in ("HIT", "STALE"):
            continue
        if j < len(judged):
            layers = sample_layers(doc)
            got = layers[i][1] if i < len(layers) and len(layers[i]) > 1 \
                else (None, None)
            checked += 1
            if got != (vendor, judged[j][0]):
                problems.append("sample %d inner %s, log %s (%s)" %
                                (i + 1, got, judged[j][0], judged[j][1]))
        j += 1
    return problems, checked


def chain_truth(kind, want, inner, hid):
    """In a chain the hop's verdict is the layer that served (SPEC 4.1):
    for every request the outer cache forwarded, the inner cache's own log
    line; when the inner cache answered it from its store (HIT,
    REVALIDATED, STALE), that is the truth, the outer forward a reason."""
    cache, _, log = inner
    recs = lines_of(cache, log, hid)
    out = []
    j = 0
    for outer, raw in want:
        if outer in ("HIT", "STALE"):
            out.append((outer, raw))
            continue
        if j < len(recs) and recs[j][1] in ("HIT", "REVALIDATED", "STALE"):
            out.append((recs[j][1], "%s, inner %s" % (raw, recs[j][0])))
        else:
            out.append((outer, raw))
        j += 1
    return out


def hid_of(doc):
    return doc.get("_hid")


def layer_vendors(doc):
    try:
        layers = doc["targets"][0]["cache"][0].get("layers")
    except (KeyError, IndexError, TypeError):
        return None
    if not isinstance(layers, list):
        return None
    return [l.get("vendor") for l in layers if isinstance(l, dict)]


def score(matrix):
    rows = []
    with open(matrix, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rows.append(line.split())
    right = 0
    width = 36
    print("%-12s %-9s %-*s %-*s %-14s %s" % (
        "config", "kind", width, "log (per sample)", width,
        "hopsplit (per sample)", "vendor", "ok"))
    for r in rows:
        config, cache, vendor, kind, hid, log, js = r[:7]
        inner = r[7:10] if len(r) >= 10 else None
        want = outer_want = truth(cache, log, kind, hid)
        if inner:
            want = chain_truth(kind, outer_want, inner, hid)
        try:
            with open(js, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            doc = {}
            print("# %s %s: no JSON: %s" % (config, kind, e))
        doc["_hid"] = hid
        got = hop_verdicts(doc)
        try:
            got_vendor = doc["targets"][0]["cache"][0].get("vendor")
        except (KeyError, IndexError, TypeError):
            got_vendor = None
        want_v = [v for v, _ in want]
        ok = bool(want_v) and got == want_v and got_vendor == vendor
        notes = []
        if len(got) != len(want_v):
            notes.append("%d samples, %d judged log lines" %
                         (len(got), len(want_v)))
        # Every sample names the vendor of the cache nearest the user.
        sv = [l[0][0] if l else None for l in sample_layers(doc)]
        if any(v != vendor for v in sv):
            ok = False
            notes.append("sample vendors %s" % sv)
        if inner:
            lv = layer_vendors(doc)
            if lv is None or lv[:2] != [vendor, inner[1]]:
                ok = False
                notes.append("layers %s, want [%s, %s]" %
                             (lv, vendor, inner[1]))
            bad, checked = inner_check(kind, outer_want, inner, doc)
            if bad:
                ok = False
                notes.extend(bad)
            else:
                notes.append("inner %s right on %d of %d samples" %
                             (inner[1], checked, len(want)))
        right += ok
        print("%-12s %-9s %-*s %-*s %-14s %s%s" % (
            config, kind, width, ",".join(want_v) or "(no log line)", width,
            ",".join(str(v) for v in got) or "-",
            "%s%s" % (got_vendor, "" if got_vendor == vendor
                      else " (want %s)" % vendor),
            "yes" if ok else "NO",
            "  # " + "; ".join(notes) if notes else ""))
        print("%-12s %-9s   raw: %s" % ("", "", " | ".join(raw for _, raw
                                                           in want)))
    print("%d of %d right" % (right, len(rows)))
    return 0 if right == len(rows) and rows else 1


def main(argv):
    if len(argv) >= 2 and argv[1] == "truth" and len(argv) == 6:
        for v, raw in truth(argv[2], argv[3], argv[4], argv[5]):
            print("%s\t%s" % (v, raw))
        return 0
    if len(argv) == 3 and argv[1] == "score":
        return score(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
