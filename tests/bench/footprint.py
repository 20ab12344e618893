#!/usr/bin/env python3
"""footprint.py: memory and start-up of hopsplit.

usage: footprint.py HOPSPLIT CA RESOLVE URL PEAKRSS [PARTS]

PARTS is a comma list of formats, redirect, memory and startup (default:
all).

formats (SPEC 8, issues 15 and 35): peak RSS of `hopsplit -n 5 --mode
cold,warm` (10 samples) and `-n 5000 --mode cold,warm` (10,000 samples) in
each of the eight formats on stdout, against issue 35's target "10-sample
peak + 4 MiB" (SPEC 8: + 6 MiB),
and of `hopsplit report` of the saved 10,000-sample JSON in each format,
against "measuring's peak + 8 MiB" (measuring: the largest of the eight
10,000-sample peaks).

redirect: the same bound for a URL that redirects once (/redirect-same of
the test origin: two hops a sample), in text and json.

Peak RSS (ru_maxrss, taken by the small helper PEAKRSS, peakrss.c: a child
spawned from Python inherits Python's high-water mark), wall time and minor
page faults of `hopsplit -n N --mode warm` for N = 1, 1000 and 10000 (SPEC 8:
< 16 MiB at 10,000 samples, growing linearly and slowly), with the text
and the JSON report, and a cold run of 1000 (the peaks of RssAnon, the heap,
and RssFile, the mapped shared libraries, are read from /proc every 2 ms
and so may miss a short spike); then the start-up time of
`hopsplit --version` (SPEC 8: < 5 ms) next to reference programs, medians
of 200 runs each, interleaved.  Prints figures; never fails on them.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

DEVNULL = os.open(os.devnull, os.O_RDWR)


def status_kib(pid):
    """RssAnon and RssFile of pid from /proc, in KiB (None when gone)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            text = f.read()
    except OSError:
        return None
    vals = {}
    for line in text.splitlines():
        k, _, v = line.partition(":")
        if k in ("RssAnon", "RssFile", "RssShmem"):
            vals[k] = int(v.split()[0])
    return vals


def spawn(argv):
    """Run argv with stdout and stderr to /dev/null; (wall s, rusage).
    For timing only: ru_maxrss of such a child is Python's (see measure)."""
    acts = [(os.POSIX_SPAWN_DUP2, DEVNULL, 0),
            (os.POSIX_SPAWN_DUP2, DEVNULL, 1),
            (os.POSIX_SPAWN_DUP2, DEVNULL, 2)]
    t = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=acts)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("failed (%s): %s" % (status, " ".join(argv)))
    return wall, Usage(ru.ru_maxrss, ru.ru_minflt, ru.ru_utime + ru.ru_stime)


def measure(helper, argv, stdout=None):
    """Run argv under the peakrss helper (its stdout to the file stdout, or
    /dev/null); (wall s, Usage) with the peaks of RssAnon (heap, stacks)
    and RssFile (mapped files: the binary and shared libraries) seen every
    2 ms in /proc, in KiB."""
    t = time.perf_counter()
    pre = [helper] + (["-o", stdout] if stdout else [])
    proc = subprocess.Popen(pre + argv, stdout=subprocess.PIPE)
    peaks = {"RssAnon": 0, "RssFile": 0}
    child = None
    while proc.poll() is None:
        if child is None:
            try:
                with open("/proc/%d/task/%d/children"
                          % (proc.pid, proc.pid)) as f:
                    kids = f.read().split()
                child = int(kids[0]) if kids else None
            except OSError:
                pass
        v = status_kib(child) if child else None
        if v and v.get("RssAnon", 0) and v.get("RssFile", 0):
            for k in peaks:
                peaks[k] = max(peaks[k], v[k])
        time.sleep(0.002)
    wall = time.perf_counter() - t
    out = proc.stdout.read().split()
    proc.stdout.close()
    if len(out) != 4 or out[3] != b"0":
        raise SystemExit("failed (%s): %s" % (out, " ".join(argv)))
    maxrss, minflt, cpu_us = (int(x) for x in out[:3])
    return wall, Usage(maxrss, minflt, cpu_us / 1e6, peaks)


class Usage:
    """What a run cost: peak RSS and minor faults (KiB, count), CPU time
    (s), and the /proc peaks when they were watched."""

    def __init__(self, maxrss, minflt, cpu, peaks=None):
        self.ru_maxrss, self.ru_minflt = maxrss, minflt
        self.cpu, self.peaks = cpu, peaks


def mib(kib):
    return kib / 1024.0


def memory(exe, ca, resolve, url, helper):
    base = [exe, "-q", "--progress", "never", "--resolve", resolve,
            "--cacert", ca]
    print("| samples | mode | report | wall | per sample | peak RSS "
          "| of which heap (RssAnon) | files (RssFile) | minor faults |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    rss = {}
    for n, mode, fmt in ((1, "warm", "text"), (1000, "warm", "text"),
                         (10000, "warm", "text"), (1000, "warm", "json"),
                         (10000, "warm", "json"), (1000, "cold", "text")):
        wall, ru = measure(helper, base + ["-n", str(n), "--mode", mode,
                                           "--format", fmt, url])
        rss[(n, mode, fmt)] = ru.ru_maxrss
        print("| %d | %s | %s | %.2f s | %.3f ms | %.1f MiB%s | %.1f MiB "
              "| %.1f MiB | %d |" % (
                  n, mode, fmt, wall, wall * 1000 / n, mib(ru.ru_maxrss),
                  "" if n < 10000 else (" ok" if ru.ru_maxrss < 16 * 1024
                                        else " MISSED (< 16 MiB)"),
                  mib(ru.peaks["RssAnon"]), mib(ru.peaks["RssFile"]),
                  ru.ru_minflt))
        sys.stdout.flush()
    for fmt in ("text", "json"):
        grow = (rss[(10000, "warm", fmt)] - rss[(1000, "warm", fmt)]) / 9000
        print("growth with %s report: %.2f KiB per sample (1,000 -> 10,000)"
              % (fmt, grow))


FORMATS = ("text", "json", "ndjson", "csv", "har", "html", "prom", "junit")
# Growth from 10 to 10,000 samples: issue 35's target (SPEC 8 allows 6).
TARGET_MIB = 4


def verdict(grow_kib):
    """ok within TARGET_MIB, else whether SPEC 8's 6 MiB still holds."""
    if grow_kib <= TARGET_MIB * 1024:
        return "ok"
    return "MISSED (SPEC 8's +6: %s)" % ("ok" if grow_kib <= 6 * 1024
                                         else "missed")


def formats(exe, ca, resolve, url, helper, tmp):
    """Peak RSS per format at 10 and 10,000 samples, and of `report`."""
    base = [exe, "-q", "--progress", "never", "--resolve", resolve,
            "--cacert", ca, "--mode", "cold,warm"]
    print("peak RSS per output format, `-n 5` (10 samples) and `-n 5000` "
          "(10,000 samples), `--mode cold,warm`, report on stdout")
    print()
    print("| format | 10 samples | 10,000 samples | growth "
          "| target (10-sample peak + %d MiB) | wall at 10,000 |" % TARGET_MIB)
    print("|---|---:|---:|---:|---|---:|")
    peak = {}
    saved = {}
    for fmt in FORMATS:
        row = {}
        for n in (5, 5000):
            out = None
            if fmt == "json":
                out = os.path.join(tmp, "saved-%d.json" % (2 * n))
                saved[2 * n] = out
            wall, ru = measure(helper, base + ["-n", str(n), "--format", fmt,
                                               url], stdout=out)
            row[n] = (wall, ru.ru_maxrss)
        peak[fmt] = row[5000][1]
        grow = row[5000][1] - row[5][1]
        print("| %s | %.1f MiB | %.1f MiB | %+.1f MiB | %s | %.1f s |" % (
            fmt, mib(row[5][1]), mib(row[5000][1]), mib(grow), verdict(grow),
            row[5000][0]))
        sys.stdout.flush()
    measuring = max(peak.values())
    print()
    print("`hopsplit report` of the saved JSON (%.1f MiB at 10,000 samples), "
          "each format on stdout; target: measuring's peak (%.1f MiB) "
          "+ 8 MiB" % (mib(os.path.getsize(saved[10000]) / 1024.0),
                       mib(measuring)))
    print()
    print("| format | 10 samples | 10,000 samples | vs measuring "
          "| target | wall at 10,000 |")
    print("|---|---:|---:|---:|---|---:|")
    for fmt in FORMATS:
        row = {}
        for n in (10, 10000):
            wall, ru = measure(helper, [exe, "report", "--format", fmt,
                                        saved[n]])
            row[n] = (wall, ru.ru_maxrss)
        over = row[10000][1] - measuring
        print("| report %s | %.1f MiB | %.1f MiB | %+.1f MiB | %s | %.1f s |"
              % (fmt, mib(row[10][1]), mib(row[10000][1]), mib(over),
                 "ok" if over <= 8 * 1024 else "MISSED", row[10000][0]))
        sys.stdout.flush()
    print()


def redirect(exe, ca, resolve, url, helper):
    """formats' first table for a URL that redirects once (two hops a
    sample), in text and json."""
    red = url.rsplit("/", 1)[0] + "/redirect-same"
    base = [exe, "-q", "--progress", "never", "--resolve", resolve,
            "--cacert", ca, "--mode", "cold,warm"]
    print("peak RSS with two hops a sample (%s), `-n 5` and `-n 5000`, "
          "`--mode cold,warm`" % red)
    print()
    print("| format | 10 samples | 10,000 samples | growth "
          "| target (10-sample peak + %d MiB) |" % TARGET_MIB)
    print("|---|---:|---:|---:|---|")
    for fmt in ("text", "json"):
        row = {}
        for n in (5, 5000):
            _, ru = measure(helper, base + ["-n", str(n), "--format", fmt,
                                            red])
            row[n] = ru.ru_maxrss
        grow = row[5000] - row[5]
        print("| %s | %.1f MiB | %.1f MiB | %+.1f MiB | %s |" % (
            fmt, mib(row[5]), mib(row[5000]), mib(grow), verdict(grow)))
        sys.stdout.flush()
    print()


def startup(exe):
    progs = (([exe, "--version"], "hopsplit --version (< 5 ms)"),
             ([exe, "--help"], "hopsplit --help"),
             ([shutil.which("curl") or "/usr/bin/curl", "--version"],
              "curl --version"),
             (["/bin/true"], "/bin/true"))
    res = {label: ([], [], []) for _, label in progs}
    for argv, _ in progs:
        spawn(argv)
    # Round robin, so that load on the machine hits every program alike.
    for _ in range(200):
        for argv, label in progs:
            w, ru = spawn(argv)
            res[label][0].append(w)
            res[label][1].append(ru.cpu)
            res[label][2].append(ru.ru_minflt)
    print()
    print("start-up, medians of 200 interleaved runs")
    print()
    print("| program | wall p50 | wall min | CPU p50 | minor faults |")
    print("|---|---:|---:|---:|---:|")
    for _, label in progs:
        walls, cpus, faults = res[label]
        print("| %s | %.2f ms | %.2f ms | %.2f ms | %d |" % (
            label, statistics.median(walls) * 1000, min(walls) * 1000,
            statistics.median(cpus) * 1000, statistics.median(faults)))


def main():
    exe, ca, resolve, url, helper = sys.argv[1:6]
    parts = (sys.argv[6] if len(sys.argv) > 6
             else "formats,redirect,memory,startup").split(",")
    tmp = os.environ.get("FOOTPRINT_TMP") or os.path.dirname(helper)
    print("footprint: %s" % url)
    print()
    if "formats" in parts:
        formats(exe, ca, resolve, url, helper, tmp)
    if "redirect" in parts:
        redirect(exe, ca, resolve, url, helper)
    if "memory" in parts:
        memory(exe, ca, resolve, url, helper)
    if "startup" in parts:
        startup(exe)


if __name__ == "__main__":
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__)
    main()
