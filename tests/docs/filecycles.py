#!/usr/bin/env python3
"""filecycles.py BUILD_DIR: no two source files need each other's symbols.

Reads the objects of every stage library (src/<stage>/CMakeFiles/
hopsplit_<stage>.dir/*.o) with nm, links each undefined symbol to the file
that defines it, and reports every cycle of files (a strongly connected
component of more than one file), with the symbols each way.  Exit 1 on a
cycle, 77 when there are no objects to read.
"""
import glob
import os
import subprocess
import sys


def main():
    build = sys.argv[1]
    objs = glob.glob(os.path.join(build, "src", "*", "CMakeFiles",
                                  "hopsplit_*.dir", "*.o"))
    if not objs:
        print("filecycles: no objects under %s/src" % build, file=sys.stderr)
        return 77
    defs, undef = {}, {}
    for o in objs:
        stage = os.path.basename(os.path.dirname(o))[len("hopsplit_"):-4]
        name = "%s/%s" % (stage, os.path.basename(o)[:-2])
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        d, u = set(), set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBRV":
                d.add(f[2])
            elif len(f) == 2 and f[0] == "U":
                u.add(f[1])
        defs[name], undef[name] = d, u
    owner = {s: n for n, d in defs.items() for s in d}
    graph = {n: {owner[s] for s in u if s in owner and owner[s] != n}
             for n, u in undef.items()}
    # Tarjan's strongly connected components, iteratively.
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    sccs.append(sorted(comp))
    for comp in sccs:
        print("filecycles: these files need each other: %s" % ", ".join(comp),
              file=sys.stderr)
        for a in comp:
            for b in comp:
                if b in graph[a]:
                    syms = sorted(s for s in undef[a] if owner.get(s) == b)
                    print("  %s -> %s: %s" % (a, b, " ".join(syms[:6])),
                          file=sys.stderr)
    if sccs:
        return 1
    print("filecycles: ok, %d files, no cycle" % len(graph))
    return 0


if __name__ == "__main__":
    sys.exit(main())
