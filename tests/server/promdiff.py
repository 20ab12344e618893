#!/usr/bin/env python3
"""promdiff: the series of one Prometheus exposition text that another
has too, compared by name and labels.

usage: promdiff.py A B NAME...   every series of each NAME in A is in B
with the same labels and the same value (labels and values as written);
prints each difference and exits 1 when there is one.  A NAME that A does
not have is a difference too (a series blackbox writes and hopsplit does
not).  NAME!LABEL compares NAME's series without LABEL (a label one
side adds, e.g. blackbox 0.24's serialnumber beside Debian's 0.23).
promdiff.py --batch FILE: one "A B NAME..." per line (one python
start for many comparisons)."""
import re
import sys

LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')


def series(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#"):
            continue
        m = LINE.match(line)
        if m:
            out[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return out


PAIR = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def without(labels, drop):
    """labels ({a="x",b="y"}) without the label named drop."""
    if not drop or not labels:
        return labels
    kept = ['%s="%s"' % p for p in PAIR.findall(labels) if p[0] != drop]
    return "{%s}" % ",".join(kept) if kept else ""


def main(argv):
    a, b = series(argv[1]), series(argv[2])
    bad = 0
    for name in argv[3:]:
        name, _, drop = name.partition("!")
        if drop:
            a = {(k[0], without(k[1], drop) if k[0] == name else k[1]): v
                 for k, v in a.items()}
            b = {(k[0], without(k[1], drop) if k[0] == name else k[1]): v
                 for k, v in b.items()}
        mine = {k: v for k, v in a.items() if k[0] == name}
        if not mine:
            print("%s: not in %s" % (name, argv[1]))
            bad = 1
        for k, v in mine.items():
            if k not in b:
                print("%s%s: not in %s" % (k[0], k[1], argv[2]))
                bad = 1
            elif b[k] != v:
                print("%s%s: %r in %s, %r in %s"
                      % (k[0], k[1], v, argv[1], b[k], argv[2]))
                bad = 1
    return bad


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--batch":
        rc = 0
        for line in open(sys.argv[2], encoding="utf-8"):
            words = line.split()
            if words:
                if main([sys.argv[0]] + words):
                    print("  (in the comparison: %s)" % line.strip())
                    rc = 1
        sys.exit(rc)
    sys.exit(main(sys.argv))
