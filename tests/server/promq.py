#!/usr/bin/env python3
"""promq.py: ask a Prometheus server's HTTP API, for shell tests.

usage: promq.py [--wait SEC] [--check PYEXPR] [--log FILE] [--value]
                BASE_URL PROMQL

Sends GET BASE_URL/api/v1/query?query=PROMQL (an instant query) and prints
the answer, one series a line: {label="value",...} VALUE, sorted.

  --check PYEXPR  repeat the query (every 0.5 s, at most --wait seconds,
                  default 0 = once) until PYEXPR is true, then exit 0;
                  exit 1 with the last answer otherwise.  Names:
                    rows  list of (labels dict, float value)
                    vals  the values, in row order
                    one   the value when there is exactly one row, else None
                    by(label)  {label value: float value}
                    math  the module
  --value         print only the value of the single series (exit 1 unless
                  there is exactly one)
  --log FILE      append "query", the check and the answer to FILE, and
                  print them on stderr

Only loopback addresses are accepted as BASE_URL: the tests never send
anything off the machine.
"""
import json
import math
import sys
import time
import urllib.parse
import urllib.request


def query(base, expr):
    url = base.rstrip("/") + "/api/v1/query?" + urllib.parse.urlencode(
        {"query": expr})
    handler = urllib.request.ProxyHandler({})
    opener = urllib.request.build_opener(handler)
    with opener.open(url, timeout=5) as resp:
        doc = json.load(resp)
    if doc.get("status") != "success":
        raise RuntimeError("query failed: %s" % json.dumps(doc))
    data = doc["data"]
    rows = []
    if data["resultType"] == "vector":
        for r in data["result"]:
            rows.append((r["metric"], float(r["value"][1])))
    elif data["resultType"] == "scalar":
        rows.append(({}, float(data["result"][1])))
    else:
        raise RuntimeError("unexpected result type %s" % data["resultType"])
    rows.sort(key=lambda r: sorted(r[0].items()))
    return rows


def fmt(rows):
    if not rows:
        return "(empty)"
    out = []
    for labels, value in rows:
        lab = ",".join('%s="%s"' % (k, v) for k, v in sorted(labels.items()))
        out.append("{%s} %.9g" % (lab, value))
    return "\n".join(out)


def check(expr, rows):
    vals = [v for _, v in rows]
    env = {
        "rows": rows,
        "vals": vals,
        "one": vals[0] if len(vals) == 1 else None,
        "by": lambda name: {lab.get(name): v for lab, v in rows},
        "math": math,
    }
    try:
        return bool(eval(expr, {"__builtins__": __builtins__}, env))
    except (TypeError, KeyError, IndexError, ValueError, ZeroDivisionError):
        return False


def main(argv):
    wait = 0.0
    cexpr = None
    log = None
    value = False
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--wait":
            wait = float(argv[i + 1])
            i += 2
        elif a == "--check":
            cexpr = argv[i + 1]
            i += 2
        elif a == "--log":
            log = argv[i + 1]
            i += 2
        elif a == "--value":
            value = True
            i += 1
        else:
            args.append(a)
            i += 1
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    base, expr = args
    host = urllib.parse.urlparse(base).hostname or ""
    if not (host.startswith("127.") or host in ("localhost", "::1")):
        sys.stderr.write("promq.py: %s is not a loopback address\n" % base)
        return 2
    deadline = time.monotonic() + wait
    ok = True
    while True:
        try:
            rows = query(base, expr)
            err = None
        except (OSError, RuntimeError, ValueError) as e:
            rows, err = [], str(e)
        ok = err is None and (cexpr is None or check(cexpr, rows))
        if ok or time.monotonic() >= deadline:
            break
        time.sleep(0.5)
    answer = err if err else fmt(rows)
    if log:
        text = "query: %s\n" % expr
        if cexpr:
            text += "check: %s -> %s\n" % (cexpr, "ok" if ok else "FAILED")
        text += "answer:\n  " + answer.replace("\n", "\n  ") + "\n"
        with open(log, "a", encoding="utf-8") as f:
            f.write(text)
        sys.stderr.write(text)
    if value:
        if err or len(rows) != 1:
            sys.stderr.write("promq.py: %s: %s\n" % (expr, answer))
            return 1
        print("%.9g" % rows[0][1])
        return 0
    if not log:
        print(answer)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
