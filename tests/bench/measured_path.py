#!/usr/bin/env python3
"""measured_path.py: hopsplit's phases beside a bare libcurl program's.

usage: measured_path.py HOPSPLIT BARE CA RESOLVE BASE RUNS OUTDIR

The same loopback nginx URLs (BASE + /mp/1k, /mp/1m, /mp/1g: 1 KB, 1 MB,
1 GB) over TLS, HTTP/1.1 and HTTP/2, warm (one connection, as hopsplit's
warm samples reuse theirs) and for 1 KB also cold (a new connection and
TLS handshake per sample), measured by hopsplit (--resolve, --cacert, the
phases from its JSON) and by BARE (bare_curl.c: one easy handle, no
callbacks of its own, libcurl's stamps), alternating RUNS times each.
Prints the per-phase medians side by side and their difference, and the
median of hopsplit's own work in its libcurl callbacks per hop
(interference_own_us; SPEC 8: at most 2 us a hop; "-" from a binary
without the field).  Then, on the 1 KB HTTP/2 warm
URL, each feature on against off (the progress bar, -v, the NDJSON stream
writer on stdout, the JSON writer, --parallel 1): the phase medians'
difference (SPEC 8: none moves a median by more than 5 us), and the
median and quartiles of the wait's difference run pair by run pair
(MEASURED_PATH_FEATURES, a comma list of words of the features' names,
e.g. NDJSON,-v, picks some; MEASURED_PATH_SIZES=none skips the URLs' table).  The load
average is printed beside every table: the machine is shared.  Between
the two tables, two load-independent figures from valgrind's callgrind
(MEASURED_PATH_CALLGRIND=0 skips them): hopsplit's own instructions a hop
inside libcurl's callbacks (OWN_FUNCS) and an NDJSON line's (stream_write),
each the difference of a run of 220 and one of 20 warm samples over 200.
Prints figures; never fails on them.
"""
import json
import os
import statistics
import subprocess
import sys

PHASES = ["dns", "connect", "tls", "send", "wait", "transfer", "total"]
OWN = []  # interference_own_us of the samples of the current case
SIZES = [("1 KB", "/mp/1k", 60), ("1 MB", "/mp/1m", 20), ("1 GB", "/mp/1g", 2)]


def load():
    return open("/proc/loadavg").read().split()[0]


def hopsplit_phases(argv, outdir, tag, env=None):
    path = os.path.join(outdir, tag + ".json")
    subprocess.run(argv + ["-o", path], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL,
                   env=dict(os.environ, **env) if env else None)
    d = json.load(open(path))
    rows = []
    for s in d["samples"]:
        if not s["ok"] or s.get("control") or len(s["hops"]) != 1:
            continue
        p = s["hops"][0]["phases_us"]
        rows.append([p.get(k) or 0 for k in PHASES])
        # hopsplit's own work in its libcurl callbacks (one hop here)
        if s.get("interference_own_us") is not None:
            OWN.append(s["interference_own_us"])
    return rows


def bare_phases(argv):
    out = subprocess.run(argv, check=True, capture_output=True, text=True)
    return [[int(x) for x in line.split()] for line in out.stdout.split("\n")
            if line.strip()]


def medians(rows):
    if not rows:
        return [None] * len(PHASES)
    return [statistics.median(r[i] for r in rows) for i in range(len(PHASES))]


def fmt(v):
    return "-" if v is None else "%.0f" % v


# hopsplit's functions that libcurl calls during a transfer (its
# callbacks: headers, body, the request's debug text, prereq, progress,
# socket open and close, the multi handle's socket and timer functions):
# what hopsplit does on a hop's measured path that a plain client's
# libcurl would not.  Its measuring loop's own dispatch (epoll, timers)
# stands in for curl_easy_perform's and is not counted.
OWN_FUNCS = ["on_header", "on_body", "on_debug", "on_prereq",
             "probe_on_progress", "on_open", "on_close", "curl_socket_cb",
             "curl_timer_cb", "on_read", "on_seek"]


def callgrind_ir(argv, outdir, tag, funcs):
    """Instructions (callgrind Ir) executed inside funcs (and what they
    call) in one run of argv, or None without valgrind."""
    out = os.path.join(outdir, "callgrind." + tag)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
    cmd += ["--toggle-collect=" + f for f in funcs]
    try:
        subprocess.run(cmd + argv, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        return None
    for line in open(out):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    return None


def instructions(hs, url, outdir):
    """Load-independent figures (callgrind): hopsplit's own instructions
    per hop inside libcurl's callbacks, and per NDJSON line (stream_write:
    the sample's hop facts, its line rendered and written), each from the
    difference of a run of N2 and one of N1 warm samples, so set-up and
    priming cancel."""
    n1, n2 = 20, 220
    base = hs + ["--http2", "--mode", "warm"]
    own = [callgrind_ir(base + ["-n", str(n), url], outdir, "own%d" % n,
                        OWN_FUNCS) for n in (n1, n2)]
    line = [callgrind_ir(base + ["--format", "ndjson", "-n", str(n), url],
                         outdir, "line%d" % n, ["stream_write"])
            for n in (n1, n2)]
    print("instructions (callgrind; load-independent), 1 KB HTTP/2 warm, "
          "runs of %d and %d samples:" % (n1, n2))
    if None in own or None in line:
        print("  (no valgrind, or a run failed)")
        return
    print("  hopsplit's own work in libcurl's callbacks: %.0f instructions "
          "a hop" % ((own[1] - own[0]) / (n2 - n1)))
    print("  an NDJSON line (hop facts, rendering, write; on the loop "
          "between samples): %.0f instructions"
          % ((line[1] - line[0]) / (n2 - n1)))


def main():
    exe, bare, ca, resolve, base, runs, outdir = sys.argv[1:8]
    runs = int(runs)
    only = os.environ.get("MEASURED_PATH_SIZES")
    hs = [exe, "-q", "--resolve", resolve, "--cacert", ca, "--format", "text"]
    print("measured path: hopsplit against a bare libcurl program, medians "
          "of every sample over %d alternating runs (load %s)" % (runs, load()))
    print()
    print("| URL | HTTP | mode | n | phase | bare us | hopsplit us | "
          "difference us | own us/hop p50 |")
    print("|---|---|---|---:|---|---:|---:|---:|---:|")
    cases = []
    for size, path, n in SIZES:
        if only and size.replace(" ", "") not in only.split(","):
            continue
        for ver in ("1.1", "2"):
            cases.append((size, path, n, ver, "warm"))
            if path == "/mp/1k":
                cases.append((size, path, n // 2, ver, "cold"))
    for size, path, n, ver, mode in cases:
        url = base + path
        flag = "--http1.1" if ver == "1.1" else "--http2"
        a_rows, b_rows = [], []
        del OWN[:]
        for i in range(runs):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for k in order:
                if k == 0:
                    a_rows += hopsplit_phases(
                        hs + [flag, "-n", str(n), "--mode", mode, url], outdir,
                        "hs")
                else:
                    b_rows += bare_phases([bare, url, str(n), mode, ver,
                                           resolve, ca])
        ma, mb = medians(a_rows), medians(b_rows)
        own = ("%.0f" % statistics.median(OWN)) if OWN else "-"
        for i, ph in enumerate(PHASES):
            if mode == "warm" and ph in ("dns", "connect", "tls"):
                continue
            if ph == "dns":
                continue  # both pinned: no lookup
            d = None if ma[i] is None or mb[i] is None else ma[i] - mb[i]
            print("| %s | %s | %s | %d | %s | %s | %s | %s | %s |" % (
                size, ver, mode, len(a_rows), ph, fmt(mb[i]), fmt(ma[i]),
                "-" if d is None else "%+.0f" % d, own))
        sys.stdout.flush()
    print()
    print("load after: %s" % load())
    print()
    url = base + "/mp/1k"
    if os.environ.get("MEASURED_PATH_CALLGRIND", "1") != "0":
        instructions([exe, "-q", "--resolve", resolve, "--cacert", ca], url,
                     outdir)
        print()
    n = 60
    base_argv = hs + ["--http2", "-n", str(n), "--mode", "warm"]
    features = [
        ("progress bar (--progress always)", ["--progress", "always"]),
        ("-v", ["-v"]),
        ("NDJSON writer (--format ndjson on stdout)", ["--format", "ndjson"]),
        # The same, rendered and written by a thread of its own at idle
        # priority beside the next request (a test hook; the default until
        # the quiet-machine figures of tests/bench/README.md): what writing
        # on the loop between samples saves.
        ("NDJSON writer thread, idle priority (HOPSPLIT_TEST_WRITER_"
         "THREAD=1)", ["--format", "ndjson"],
         {"HOPSPLIT_TEST_WRITER_THREAD": "1"}),
        # A writer thread of normal priority (HOPSPLIT_TEST_WRITER_NORMAL=1)
        # instead of SCHED_IDLE.
        ("NDJSON writer thread, normal priority (HOPSPLIT_TEST_WRITER_"
         "NORMAL=1)", ["--format", "ndjson"],
         {"HOPSPLIT_TEST_WRITER_THREAD": "1",
          "HOPSPLIT_TEST_WRITER_NORMAL": "1"}),
        ("JSON writer (--format json on stdout)", ["--format", "json"]),
        ("--parallel 1", ["--parallel", "1"]),
    ]
    print("features on the 1 KB HTTP/2 warm URL, %d samples a run, %d "
          "alternating runs each (load %s): difference of the phase medians, "
          "on - off, us" % (n, runs, load()))
    print()
    print("| feature | send | wait | transfer | total | wait, run pairs: "
          "median [quartiles] |")
    print("|---|---:|---:|---:|---:|---:|")
    pick = os.environ.get("MEASURED_PATH_FEATURES")
    for feature in features:
        name, extra = feature[0], feature[1]
        env = feature[2] if len(feature) > 2 else None
        if pick and not any(w in name for w in pick.split(",")):
            continue
        on_rows, off_rows, pairs = [], [], []
        for i in range(runs):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            got = {}
            for k in order:
                if k == 0:
                    got[k] = hopsplit_phases(base_argv + extra + [url],
                                             outdir, "on", env)
                    on_rows += got[k]
                else:
                    got[k] = hopsplit_phases(base_argv + [url], outdir, "off")
                    off_rows += got[k]
            a, b = medians(got[0]), medians(got[1])
            if a[0] is not None and b[0] is not None:
                pairs.append([x - y for x, y in zip(a, b)])
        mon, moff = medians(on_rows), medians(off_rows)
        cells = []
        for ph in ("send", "wait", "transfer", "total"):
            i = PHASES.index(ph)
            cells.append("%+.0f" % (mon[i] - moff[i]))
        # The run pairs' own differences (each on run beside its off run):
        # their median and quartiles say how far the figure is noise.
        w = PHASES.index("wait")
        pw = sorted(p[w] for p in pairs)
        spread = "-"
        if len(pw) >= 4:
            q = statistics.quantiles(pw, n=4)
            spread = "%+.0f [%+.0f, %+.0f]" % (q[1], q[0], q[2])
        print("| %s | %s | %s |" % (name, " | ".join(cells), spread))
        sys.stdout.flush()
    print()
    print("load after: %s" % load())


if __name__ == "__main__":
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    main()
