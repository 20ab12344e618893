#!/usr/bin/env python3
"""footprint.py: memory and start-up of hopsplit.

usage: footprint.py HOPSPLIT CA RESOLVE URL

Peak RSS (getrusage of the child: ru_maxrss), wall time and minor page
faults of `hopsplit -n N --mode warm` for N = 1, 1000 and 10000 (SPEC 8:
< 16 MiB at 10,000 samples, growing linearly and slowly), with the text
and the JSON report, and a cold run of 1000; then the start-up time of
`hopsplit --version` (SPEC 8: < 5 ms) next to reference programs, medians
of 100 runs each.  Prints figures; never fails on them.
"""
import os
import statistics
import sys
import time

DEVNULL = os.open(os.devnull, os.O_RDWR)


def spawn(argv):
    """Run argv with stdout and stderr to /dev/null; (wall s, rusage)."""
    acts = [(os.POSIX_SPAWN_DUP2, DEVNULL, 0),
            (os.POSIX_SPAWN_DUP2, DEVNULL, 1),
            (os.POSIX_SPAWN_DUP2, DEVNULL, 2)]
    t = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=acts)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("failed (%s): %s" % (status, " ".join(argv)))
    return wall, ru


def mib(kib):
    return kib / 1024.0


def memory(exe, ca, resolve, url):
    base = [exe, "-q", "--progress", "never", "--resolve", resolve,
            "--cacert", ca]
    print("| samples | mode | report | wall | per sample | peak RSS "
          "| minor faults |")
    print("|---:|---|---|---:|---:|---:|---:|")
    rss = {}
    for n, mode, fmt in ((1, "warm", "text"), (1000, "warm", "text"),
                         (10000, "warm", "text"), (1000, "warm", "json"),
                         (10000, "warm", "json"), (1000, "cold", "text")):
        wall, ru = spawn(base + ["-n", str(n), "--mode", mode, "--format",
                                 fmt, url])
        rss[(n, mode, fmt)] = ru.ru_maxrss
        print("| %d | %s | %s | %.2f s | %.3f ms | %.1f MiB%s | %d |" % (
            n, mode, fmt, wall, wall * 1000 / n, mib(ru.ru_maxrss),
            "" if n < 10000 else (" ok" if ru.ru_maxrss < 16 * 1024
                                  else " MISSED (< 16 MiB)"),
            ru.ru_minflt))
        sys.stdout.flush()
    for fmt in ("text", "json"):
        grow = (rss[(10000, "warm", fmt)] - rss[(1000, "warm", fmt)]) / 9000
        print("growth with %s report: %.2f KiB per sample (1,000 -> 10,000)"
              % (fmt, grow))


def startup(exe):
    print()
    print("| program | wall p50 | wall min | CPU p50 | minor faults |")
    print("|---|---:|---:|---:|---:|")
    for argv, label in (([exe, "--version"], "hopsplit --version (< 5 ms)"),
                        ([exe, "--help"], "hopsplit --help"),
                        (["/usr/bin/curl", "--version"], "curl --version"),
                        (["/bin/true"], "/bin/true")):
        walls, cpus, faults = [], [], []
        spawn(argv)
        for _ in range(100):
            w, ru = spawn(argv)
            walls.append(w)
            cpus.append(ru.ru_utime + ru.ru_stime)
            faults.append(ru.ru_minflt)
        print("| %s | %.2f ms | %.2f ms | %.2f ms | %d |" % (
            label, statistics.median(walls) * 1000, min(walls) * 1000,
            statistics.median(cpus) * 1000, statistics.median(faults)))


def main():
    exe, ca, resolve, url = sys.argv[1:5]
    print("footprint: %s" % url)
    print()
    memory(exe, ca, resolve, url)
    startup(exe)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main()
