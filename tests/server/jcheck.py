#!/usr/bin/env python3
"""jcheck.py: assertions on a hopsplit/1 JSON document, for shell tests.

usage: jcheck.py FILE [--shape] [--closure] [--samples N]
                      [--grid ROUNDS MODES] [--all-ok] [--] EXPR...

Built-in checks (structure only, never absolute times):
  --shape        every field SPEC section 5 names for the document, the
                 summaries, the samples and the hops, with its type
  --closure      per hop total == dns+connect+tls+send+wait+transfer, every
                 phase >= 0; per sample sum(hop totals) + other_us == total_us,
                 redirect_us == sum of the totals of all hops but the last,
                 other_us >= 0
  --samples N    exactly N samples
  --grid R M     R rounds, modes M (comma list): every round measures every
                 (target, mode) once, positions 1..k, started_at in order
  --all-ok       every sample ok, error null

Each EXPR is a Python expression that must be true.  When it is a
comparison, both sides are printed on failure.  Names available:
  d, samples, targets         the document and its lists
  S(mode=None, ok=None, target=None)   samples, filtered
  H(mode, i, ok=None)         hop i (0-based) of every sample of that mode
  col(items, "a.b.0.c")       that path of each item, as a list
  get(obj, "a.b.0.c")         that path of one object
  nhops(mode=None)            hop counts of the samples, as a list
  classes(mode=None)          error classes of the samples (None if ok)
  summary(mode, phase, stat="p50_us", target=0)
  sw(mode, i, ok=None)        send + wait of hop i of each sample
  re, math, json              modules
"""
import ast
import json
import math
import re
import sys

PHASES = ("dns", "connect", "tls", "send", "wait", "transfer", "total")
SUMMARY_PHASES = ("dns", "connect", "tls", "send", "wait", "transfer",
                  "redirect", "other", "total")
STATS = ("n", "min_us", "p50_us", "p95_us", "max_us", "mean_us",
         "stddev_us", "mad_us")
MODES = ("cold", "warm", "resumed")
CLASSES = ("dns", "connect", "tls", "timeout", "http", "redirect")
CURL_TIMES = ("time_namelookup", "time_connect", "time_appconnect",
              "time_pretransfer", "time_starttransfer", "time_total")
RFC3339 = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
RFC3339_MS_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def get(obj, path):
    for part in str(path).split("."):
        if part == "":
            continue
        if isinstance(obj, list):
            obj = obj[int(part)]
        else:
            obj = obj[part]
    return obj


def col(items, path):
    return [get(x, path) for x in items]


class Checker:
    def __init__(self, doc):
        self.d = doc
        self.problems = []

    def bad(self, where, msg):
        self.problems.append("%s: %s" % (where, msg))

    def need(self, obj, key, where, kind, nullable=False):
        """Check obj[key] exists and has the kind; return it or None."""
        if not isinstance(obj, dict):
            self.bad(where, "not an object")
            return None
        if key not in obj:
            self.bad(where, "missing field %r" % key)
            return None
        v = obj[key]
        if v is None:
            if not nullable:
                self.bad(where, "%r is null" % key)
            return None
        ok = {
            "int": is_int,
            "num": is_num,
            "str": lambda x: isinstance(x, str),
            "bool": lambda x: isinstance(x, bool),
            "obj": lambda x: isinstance(x, dict),
            "list": lambda x: isinstance(x, list),
            "any": lambda x: True,
        }[kind](v)
        if not ok:
            self.bad(where, "%r should be %s, is %r" % (key, kind, v))
            return None
        return v

    def shape(self):
        d = self.d
        if not isinstance(d, dict):
            self.bad("document", "not an object")
            return
        if d.get("schema") != "hopsplit/1":
            self.bad("document", "schema is %r, expected 'hopsplit/1'"
                     % d.get("schema"))
        self.need(d, "tool", "document", "any")
        self.need(d, "settings", "document", "obj")
        for k in ("started_at", "finished_at"):
            v = self.need(d, k, "document", "str")
            if v is not None and not RFC3339.match(v):
                self.bad("document", "%s %r is not RFC 3339" % (k, v))
        self.need(d, "partial", "document", "bool")
        targets = self.need(d, "targets", "document", "list") or []
        samples = self.need(d, "samples", "document", "list") or []
        if not targets:
            self.bad("document", "no targets")
        names = set()
        for ti, t in enumerate(targets):
            where = "targets[%d]" % ti
            name = self.need(t, "name", where, "str")
            names.add(name)
            self.need(t, "url", where, "str")
            summ = self.need(t, "summary", where, "obj") or {}
            for mode, ms in summ.items():
                w = "%s.summary.%s" % (where, mode)
                if mode not in MODES:
                    self.bad(w, "unknown mode name")
                phases = self.need(ms, "phases", w, "obj") or {}
                for ph in SUMMARY_PHASES:
                    st = self.need(phases, ph, w + ".phases", "obj")
                    if st is None:
                        continue
                    self.stats(st, "%s.phases.%s" % (w, ph))
                self.need(ms, "hops", w, "list")
            # issue 14: findings that overlap, and what they add up to
            for k in ("findings", "finding_groups"):
                self.need(t, k, where, "list")
            non = self.need(t, "findings_nonoverlap_us", where, "int")
            tot = self.need(t, "findings_total_us", where, "int")
            if is_int(non) and is_int(tot) and non > tot:
                self.bad(where, "savings without overlaps %d > total %d"
                         % (non, tot))
            used = {s.get("mode") for s in samples
                    if isinstance(s, dict) and s.get("target") == name}
            for mode in used:
                if mode not in summ:
                    self.bad(where, "no summary for mode %r" % mode)
        for si, s in enumerate(samples):
            self.sample_shape(s, "samples[%d]" % si, names)

    def stats(self, st, where):
        n = self.need(st, "n", where, "int")
        for k in STATS[1:]:
            self.need(st, k, where, "int", nullable=(n == 0))
        if n:
            vals = [st.get(k) for k in ("min_us", "p50_us", "p95_us",
                                        "max_us")]
            if all(is_int(v) for v in vals) and vals != sorted(vals):
                self.bad(where, "min <= p50 <= p95 <= max fails: %r" % vals)
            mean = st.get("mean_us")
            if is_int(mean) and is_int(vals[0]) and is_int(vals[3]) and \
                    not vals[0] <= mean <= vals[3]:
                self.bad(where, "mean %r outside [min, max]" % mean)
            for k in ("stddev_us", "mad_us"):
                if is_int(st.get(k)) and st[k] < 0:
                    self.bad(where, "%s < 0" % k)

    def sample_shape(self, s, where, names):
        t = self.need(s, "target", where, "str")
        if t is not None and t not in names:
            self.bad(where, "target %r is not a target name" % t)
        mode = self.need(s, "mode", where, "str")
        if mode is not None and mode not in MODES:
            self.bad(where, "mode %r" % mode)
        for k in ("round", "position"):
            v = self.need(s, k, where, "int")
            # the serial control of --parallel is round 0
            low = 0 if k == "round" and s.get("control") is True else 1
            if v is not None and v < low:
                self.bad(where, "%s %r < %d" % (k, v, low))
        st = self.need(s, "started_at", where, "str")
        if st is not None and not RFC3339_MS_UTC.match(st):
            self.bad(where, "started_at %r is not RFC 3339 UTC with ms" % st)
        ok = self.need(s, "ok", where, "bool")
        if "error" not in s:
            self.bad(where, "missing field 'error'")
        elif ok is True and s["error"] is not None:
            self.bad(where, "ok but error is %r" % s["error"])
        elif ok is False:
            e = self.need(s, "error", where, "obj") or {}
            c = self.need(e, "class", where + ".error", "str")
            if c is not None and c not in CLASSES:
                self.bad(where, "error class %r" % c)
            m = self.need(e, "message", where + ".error", "str")
            if m is not None and not m.strip():
                self.bad(where, "empty error message")
        for u in self.need(s, "primed", where, "list") or []:
            if not isinstance(u, str):
                self.bad(where, "primed holds %r, not a URL" % (u,))
        for k in ("total_us", "redirect_us", "other_us"):
            self.need(s, k, where, "int")
        # issue 14: a failed --prime, warm idle time
        self.need(s, "prime_error", where, "str", nullable=True)
        idle = self.need(s, "idle_us", where, "int", nullable=True)
        if idle is not None and (mode != "warm" or idle < 0):
            self.bad(where, "idle_us %r in a %s sample" % (idle, mode))
        # issue 25: how busy the event loop was with other work meanwhile,
        # flagged past settings.interference_max_us (1 ms) and
        # interference_max_pct (1 %) of the sample's total (issue 35)
        inter = self.need(s, "interference_us", where, "int")
        flagged = self.need(s, "interfered", where, "bool")
        total = s.get("total_us") if isinstance(s.get("total_us"), int) \
            else 0
        if inter is not None and inter < 0:
            self.bad(where, "interference_us %r < 0" % inter)
        if inter is not None and flagged is not None and \
                flagged != (inter > 1000 and inter * 100 > max(total, 0)):
            self.bad(where, "interfered %r with interference_us %r"
                     % (flagged, inter))
        # its parts (issue 35): null where not measured, never negative,
        # and interference_us their sum (the times among them but the
        # run-queue delay, which is beside it)
        parts = 0
        for k in ("interference_late_us", "interference_own_us",
                  "interference_runq_us", "interference_lock_us",
                  "interference_output_us", "interference_output_bytes"):
            v = self.need(s, k, where, "int", nullable=True)
            if v is not None and v < 0:
                self.bad(where, "%s %r < 0" % (k, v))
            elif v is not None and k not in ("interference_output_bytes",
                                             "interference_runq_us"):
                parts += v
        if inter is not None and s.get("interference_late_us") is not None \
                and inter != parts:
            self.bad(where, "interference_us %r is not the sum of its "
                     "parts (%r)" % (inter, parts))
        self.need(s, "control", where, "bool")
        hops = self.need(s, "hops", where, "list") or []
        if ok and not hops:
            self.bad(where, "ok sample without hops")
        for hi, h in enumerate(hops):
            self.hop_shape(h, "%s.hops[%d]" % (where, hi), ok)

    def hop_shape(self, h, where, ok):
        url = self.need(h, "url", where, "str")
        if url is not None and not re.match(r"^https?://", url):
            self.bad(where, "url %r is not http(s)" % url)
        st = self.need(h, "status", where, "int", nullable=not ok)
        if ok and st is not None and not 100 <= st <= 599:
            self.bad(where, "status %r" % st)
        v = self.need(h, "http_version", where, "str", nullable=not ok)
        if v is not None and v not in ("1.0", "1.1", "2", "3"):
            self.bad(where, "http_version %r" % v)
        self.need(h, "remote_ip", where, "str", nullable=not ok)
        self.need(h, "remote_port", where, "int", nullable=not ok)
        self.need(h, "reused", where, "bool")
        tls = self.need(h, "tls", where, "obj") or {}
        for k in ("version", "cipher", "alpn"):
            self.need(tls, k, where + ".tls", "str", nullable=True)
        self.need(tls, "resumed", where + ".tls", "bool", nullable=True)
        # issue 17: whether a session was offered, and why not
        self.need(tls, "offered", where + ".tls", "bool", nullable=True)
        self.need(tls, "not_offered", where + ".tls", "str", nullable=True)
        fam = self.need(h, "family", where, "str", nullable=True)
        if fam is not None and fam not in ("ipv4", "ipv6"):
            self.bad(where, "family %r is neither ipv4 nor ipv6" % fam)
        self.need(h, "local_port", where, "int", nullable=True)
        self.need(h, "timing_anomaly", where, "str", nullable=True)
        fb = self.need(h, "fallback", where, "obj", nullable=True)
        if fb is not None:
            self.need(fb, "address", where + ".fallback", "str")
            self.need(fb, "family", where + ".fallback", "str")
            self.need(fb, "reason", where + ".fallback", "str")
            lost = self.need(fb, "lost_us", where + ".fallback", "int")
            if lost is not None and lost < 0:
                self.bad(where, "fallback.lost_us %d < 0" % lost)
        dns = self.need(h, "dns", where, "obj") or {}
        self.need(dns, "us", where + ".dns", "int")
        self.need(dns, "server", where + ".dns", "str", nullable=True)
        for k in ("addresses", "cnames"):
            lst = self.need(dns, k, where + ".dns", "list")
            if lst and not all(isinstance(x, str) for x in lst):
                self.bad(where + ".dns", "%s not all strings: %r" % (k, lst))
        self.need(dns, "ttl", where + ".dns", "int", nullable=True)
        self.need(dns, "pinned", where + ".dns", "bool")
        for f in self.need(dns, "failed_servers", where + ".dns", "list") or []:
            self.need(f, "server", where + ".dns.failed_servers", "str")
            self.need(f, "rcode", where + ".dns.failed_servers", "str")
            self.need(f, "us", where + ".dns.failed_servers", "int")
        ph = self.need(h, "phases_us", where, "obj") or {}
        for k in PHASES:
            self.need(ph, k, where + ".phases_us", "int")
        cu = self.need(h, "curl", where, "obj") or {}
        for k in CURL_TIMES:
            self.need(cu, k, where + ".curl", "num", nullable=not ok)
        if ok and all(is_num(cu.get(k)) for k in CURL_TIMES):
            # libcurl leaves time_connect and time_appconnect at 0 when it
            # did not connect (reused connection, plain http), so they are
            # either 0 or in their place in the chain.
            # libcurl-gnutls 8.14 stamps time_pretransfer of a request on
            # a reused QUIC connection after the first byte came (its send
            # state ends late, as 7.88's does over TCP): the phases never
            # use that stamp (probe_phases.c), and here it is left out of
            # the chain of an HTTP/3 hop.
            names = ("time_namelookup", "time_pretransfer",
                     "time_starttransfer", "time_total")
            if h.get("http_version") == "3":
                names = ("time_namelookup", "time_starttransfer",
                         "time_total")
            chain = [cu[k] for k in names]
            if chain != sorted(chain):
                self.bad(where + ".curl", "cumulative times not in order: "
                         "%r" % cu)
            # A 0-RTT hop (tls_earlydata > 0) sent its request before the
            # handshake ended: appconnect comes after pretransfer there.
            early = (h.get("tls_earlydata") or 0) > 0
            for k, lo in (("time_connect", "time_namelookup"),
                          ("time_appconnect", "time_connect")):
                if early and k == "time_appconnect":
                    continue
                if cu[k] != 0 and not cu[lo] <= cu[k] <= \
                        cu["time_pretransfer"]:
                    self.bad(where + ".curl", "%s out of order: %r"
                             % (k, cu))
            if any(cu[k] < 0 for k in CURL_TIMES):
                self.bad(where + ".curl", "negative time: %r" % cu)
        for k in ("size_download", "size_header"):
            self.need(h, k, where, "int", nullable=not ok)
        self.need(h, "location", where, "str", nullable=True)
        self.need(h, "headers", where, "obj")

    def closure(self):
        for si, s in enumerate(self.d.get("samples", [])):
            where = "samples[%d]" % si
            totals = []
            for hi, h in enumerate(s.get("hops") or []):
                ph = h.get("phases_us") or {}
                w = "%s.hops[%d].phases_us" % (where, hi)
                parts = [ph.get(k) for k in PHASES[:-1]]
                if not all(is_int(p) for p in parts) or \
                        not is_int(ph.get("total")):
                    self.bad(w, "phases missing or not integers: %r" % ph)
                    continue
                if any(p < 0 for p in parts):
                    self.bad(w, "negative phase: %r" % ph)
                if sum(parts) != ph["total"]:
                    self.bad(w, "total %d != sum of phases %d: %r"
                             % (ph["total"], sum(parts), ph))
                totals.append(ph["total"])
            tot, red, oth = (s.get("total_us"), s.get("redirect_us"),
                             s.get("other_us"))
            if not (is_int(tot) and is_int(red) and is_int(oth)):
                self.bad(where, "total/redirect/other not integers")
                continue
            if sum(totals) + oth != tot:
                self.bad(where, "sum(hop totals) %d + other_us %d = %d != "
                         "total_us %d" % (sum(totals), oth,
                                          sum(totals) + oth, tot))
            want = sum(totals[:-1])
            if red != want:
                self.bad(where, "redirect_us %d != sum of totals of hops "
                         "before the last %d" % (red, want))
            if oth < 0:
                self.bad(where, "other_us %d < 0" % oth)

    def grid(self, rounds, modes):
        samples = self.d.get("samples", [])
        names = [t.get("name") for t in self.d.get("targets", [])]
        want = sorted((r, t, m) for r in range(1, rounds + 1)
                      for t in names for m in modes)
        got = sorted((s.get("round"), s.get("target"), s.get("mode"))
                     for s in samples)
        if got != want:
            self.bad("samples", "(round, target, mode) are %r, expected %r"
                     % (got, want))
        k = len(names) * len(modes)
        for r in range(1, rounds + 1):
            pos = sorted(s.get("position") for s in samples
                         if s.get("round") == r)
            if pos != list(range(1, k + 1)):
                self.bad("samples", "round %d positions %r, expected 1..%d"
                         % (r, pos, k))
        order = sorted(samples, key=lambda s: (s.get("round", 0),
                                               s.get("position", 0)))
        starts = [s.get("started_at") for s in order]
        if all(isinstance(x, str) for x in starts) and \
                starts != sorted(starts):
            self.bad("samples", "started_at not in (round, position) order:"
                     " %r" % starts)


def context(d):
    """A compact table of the samples, printed when a check fails."""
    out = []
    try:
        for s in d.get("samples", []):
            err = s.get("error")
            out.append("  %s %s r%s p%s ok=%s err=%s total=%s redirect=%s "
                       "other=%s" % (s.get("target"), s.get("mode"),
                                     s.get("round"), s.get("position"),
                                     s.get("ok"),
                                     err and (err.get("class"),
                                              err.get("message")),
                                     s.get("total_us"), s.get("redirect_us"),
                                     s.get("other_us")))
            for h in s.get("hops") or []:
                tls = h.get("tls") or {}
                dns = h.get("dns") or {}
                out.append("    %s %s v%s %s:%s reused=%s tls=%s/%s/res=%s "
                           "dns=%s/%s/pinned=%s phases=%s loc=%s"
                           % (h.get("status"), h.get("url"),
                              h.get("http_version"), h.get("remote_ip"),
                              h.get("remote_port"), h.get("reused"),
                              tls.get("version"), tls.get("alpn"),
                              tls.get("resumed"), dns.get("server"),
                              dns.get("addresses"), dns.get("pinned"),
                              h.get("phases_us"), h.get("location")))
    except (AttributeError, TypeError) as e:
        out.append("  (cannot summarise: %s)" % e)
    return "\n".join(out)


OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=",
       ast.Gt: ">", ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in",
       ast.Is: "is", ast.IsNot: "is not"}


def evaluate(expr, ns):
    """Return (ok, message)."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        return False, "syntax error in %r: %s" % (expr, e)
    body = tree.body

    def ev(node):
        code = compile(ast.Expression(body=node), "<expr>", "eval")
        return eval(code, ns)  # noqa: S307 - test expressions, our own

    try:
        if isinstance(body, ast.Compare) and len(body.ops) == 1:
            left = ev(body.left)
            right = ev(body.comparators[0])
            res = ev(body)
            if res:
                return True, ""
            op = OPS.get(type(body.ops[0]), "?")
            return False, ("%s\n    actual:   %r\n    expected: %s %r"
                           % (expr, left, op, right))
        res = ev(body)
        if res:
            return True, ""
        return False, "%s\n    value: %r" % (expr, res)
    except Exception as e:  # noqa: BLE001 - report any failure of the expr
        return False, "%s\n    raised %s: %s" % (expr, type(e).__name__, e)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    path = argv[1]
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print("jcheck: cannot read %s: %s" % (path, e))
        return 1
    try:
        d = json.loads(text)
    except ValueError as e:
        print("jcheck: %s is not valid JSON: %s\n--- head:\n%s"
              % (path, e, text[:2000]))
        return 1
    chk = Checker(d)
    exprs = []
    args = argv[2:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--shape":
            chk.shape()
        elif a == "--closure":
            chk.closure()
        elif a == "--all-ok":
            for si, s in enumerate(d.get("samples", [])):
                if s.get("ok") is not True or s.get("error") is not None:
                    chk.bad("samples[%d]" % si, "not ok: %r"
                            % (s.get("error"),))
        elif a == "--samples":
            n = int(args[i + 1])
            i += 1
            got = len(d.get("samples", []))
            if got != n:
                chk.bad("samples", "%d samples, expected %d" % (got, n))
        elif a == "--grid":
            chk.grid(int(args[i + 1]), args[i + 2].split(","))
            i += 2
        elif a == "--":
            exprs.extend(args[i + 1:])
            break
        else:
            exprs.append(a)
        i += 1

    samples = d.get("samples", []) if isinstance(d, dict) else []
    targets = d.get("targets", []) if isinstance(d, dict) else []

    def S(mode=None, ok=None, target=None):
        return [s for s in samples
                if (mode is None or s.get("mode") == mode)
                and (ok is None or s.get("ok") == ok)
                and (target is None or s.get("target") == target)]

    def T(name):
        return [t for t in targets if t.get("name") == name][0]

    def H(mode, i, ok=None):
        return [s["hops"][i] for s in S(mode, ok)]

    def nhops(mode=None):
        return [len(s.get("hops") or []) for s in S(mode)]

    def classes(mode=None):
        return [(s.get("error") or {}).get("class") for s in S(mode)]

    def summary(mode, phase, stat="p50_us", target=0):
        return targets[target]["summary"][mode]["phases"][phase][stat]

    def sw(mode, i, ok=None):
        # send + wait of hop i: request written to first byte, which one
        # round trip bounds whichever way libcurl's posttransfer splits it
        return [h["phases_us"]["send"] + h["phases_us"]["wait"]
                for h in H(mode, i, ok)]

    ns = {"d": d, "samples": samples, "targets": targets, "S": S, "T": T,
          "H": H, "col": col, "get": get, "nhops": nhops, "classes": classes,
          "summary": summary, "sw": sw, "re": re, "math": math, "json": json}
    for e in exprs:
        ok, msg = evaluate(e, ns)
        if not ok:
            chk.problems.append(msg)
    if chk.problems:
        print("jcheck: %d problem(s) in %s:" % (len(chk.problems), path))
        for p in chk.problems[:40]:
            print("  - " + p)
        if len(chk.problems) > 40:
            print("  ... %d more" % (len(chk.problems) - 40))
        print("samples:\n" + context(d))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
