#!/usr/bin/env python3
"""headers.py SRC BUILD: a header's functions are defined in its own stage.

Headers live beside their owners (src/<stage>/x.h).  For every header of
every stage this reads the functions it declares (prototypes at file
scope; inline functions and macros aside) and, from the stage libraries'
objects (src/<stage>/CMakeFiles/hopsplit_<stage>.dir/*.o) read with nm,
the stage whose object defines each.  A function defined in another stage,
or in none, is an error: a reader of x.h must be able to tell whose
functions it declares.  Exit 1 on an error, 77 when there are no objects.
"""
import glob
import os
import re
import subprocess
import sys


def declared(path):
    """The names of the functions a header declares at file scope."""
    with open(path) as f:
        t = f.read()
    t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
    t = re.sub(r"\\\n", " ", t)
    t = "\n".join(ln for ln in t.split("\n")
                  if not ln.lstrip().startswith("#"))
    # Drop every brace block (struct bodies, inline function bodies).
    out, depth = [], 0
    for ch in t:
        if ch == "{":
            depth += 1
            out.append(";")
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    names = []
    for d in "".join(out).split(";"):
        d = " ".join(d.split())
        if "(" not in d or re.match(r"(typedef|static)\b", d):
            continue
        m = re.match(r"[^(]*?\b([A-Za-z_]\w*)\s*\(", d)
        if not m or m.group(1) == "__attribute__":
            continue
        names.append(m.group(1))
    return names


def main():
    src, build = sys.argv[1], sys.argv[2]
    objs = glob.glob(os.path.join(build, "src", "*", "CMakeFiles",
                                  "hopsplit_*.dir", "*.o"))
    if not objs:
        print("headers: no objects under %s/src" % build, file=sys.stderr)
        return 77
    owner = {}
    for o in objs:
        stage = os.path.basename(os.path.dirname(o))[len("hopsplit_"):-4]
        # An object whose source is gone (a build directory older than
        # the tree) says nothing.
        if not os.path.exists(os.path.join(src, "src", stage,
                                           os.path.basename(o)[:-2])):
            continue
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            f = line.split()
            # T: defined here; t: a TESTABLE function of a build without
            # tests (static there).
            if len(f) == 3 and f[1] in "Tt":
                owner.setdefault(f[2], set()).add(stage)
    bad, n = 0, 0
    for h in sorted(glob.glob(os.path.join(src, "src", "*", "*.h"))):
        stage = os.path.basename(os.path.dirname(h))
        rel = os.path.relpath(h, src)
        for name in declared(h):
            n += 1
            where = owner.get(name, set())
            if not where:
                print("headers: %s declares %s(), defined in no stage"
                      % (rel, name), file=sys.stderr)
                bad = 1
            elif stage not in where or len(where) > 1:
                print("headers: %s (stage %s) declares %s(), defined in %s"
                      % (rel, stage, name, ", ".join(sorted(where))),
                      file=sys.stderr)
                bad = 1
    if bad:
        return 1
    print("headers: ok, %d functions declared, each in its own stage" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
