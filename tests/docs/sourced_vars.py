#!/usr/bin/env python3
"""sourced_vars: a function of a script that another script sources (". FILE")
assigns no variable of its caller's: every name it assigns (NAME=, for NAME,
read NAME, getopts ... NAME) starts with its prefix, the part of the
function's name up to its first "_" (bp_install: bp_).  scripts/build once
lost its package list to scripts/backports' bp_install, which wrote "pkgs".

Usage: sourced_vars.py SRC DIR...  -- the scripts of DIRs (relative to SRC)
that a script of those DIRs sources.  Prints each offence; exit 1 if any.
"""
import os
import re
import sys

src = sys.argv[1]
dirs = sys.argv[2:]
scripts = []
for d in dirs:
    for name in sorted(os.listdir(os.path.join(src, d))):
        p = os.path.join(d, name)
        if os.path.isfile(os.path.join(src, p)):
            scripts.append(p)

sourced = set()
for p in scripts:
    for line in open(os.path.join(src, p), encoding="utf-8", errors="replace"):
        m = re.match(r'^\s*(?:\.|source)\s+"?([^"\s;]+)"?', line)
        if m:
            target = os.path.normpath(m.group(1).replace("$(dirname \"$0\")/", ""))
            for cand in (target, os.path.normpath(os.path.join(os.path.dirname(p), target))):
                if cand in scripts:
                    sourced.add(cand)
if not sourced and "scripts" in dirs:
    print("sourced_vars: no sourced script found (scripts/build sources "
          "scripts/backports): the search is wrong")
    sys.exit(1)


def strip(line):
    line = re.sub(r"'[^']*'", "''", line)
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    line = re.sub(r'(^|\s)#.*', '', line)
    # awk -v NAME=value: a variable of awk's.
    return re.sub(r'\s-v\s+[A-Za-z_][A-Za-z0-9_]*=', ' -v ', line)


bad = 0
for p in sorted(sourced):
    # Continued lines are one line (numbered as the first; empty lines
    # keep the numbers of the lines after).
    text = open(os.path.join(src, p), encoding="utf-8").read()
    lines = []
    for joined in text.replace("\\\n", " \x00").split("\n"):
        lines += [joined] + [""] * joined.count("\x00")
    fn = None
    depth_indent = None
    heredoc = None
    for no, raw in enumerate(lines, 1):
        if heredoc is not None:
            if raw.strip() == heredoc:
                heredoc = None
            continue
        h = re.search(r"<<-?\s*['\"]?([A-Za-z_]+)['\"]?", raw)
        if h:
            heredoc = h.group(1)
        m = re.match(r'^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*\(\)\s*\{?\s*$', raw)
        if m and fn is None:
            fn, depth_indent = m.group(2), m.group(1)
            continue
        if fn is None:
            continue
        if re.match('^' + depth_indent + r'\}', raw):
            fn = None
            continue
        line = strip(raw.replace("\x00", ""))
        names = set(re.findall(r'(?:^|[\s;&|(!])([A-Za-z_][A-Za-z0-9_]*)=', line))
        names |= set(re.findall(r'\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s', line))
        for a in re.finditer(r'\bread\s+((?:-\w+\s+)*)([A-Za-z_][A-Za-z0-9_ ]*)', line):
            names |= set(a.group(2).split())
        names |= set(re.findall(r'\bgetopts\s+\S+\s+([A-Za-z_][A-Za-z0-9_]*)', line))
        prefix = fn.split("_")[0] + "_" if "_" in fn else None
        for n in sorted(names):
            # NAME=value command: an assignment for that command alone.
            if re.search(r'(?:^|[\s;&|(!])' + n + r'=\S*\s+[a-z]', line) and \
                    not re.search(r'\bexport\s+' + n + '=', line) and \
                    not re.match(r'^\s*' + n + r'=\S*\s*$', line):
                continue
            if prefix is None or not n.startswith(prefix):
                print(f"{p}:{no}: {fn} assigns '{n}', a variable of the "
                      f"script that sources {p}"
                      + (f" (prefix it {prefix})" if prefix else
                         " (name the function PREFIX_name and prefix it)"))
                bad += 1
print(f"sourced_vars: {len(sourced)} sourced script(s): {' '.join(sorted(sourced))}; "
      f"{bad} offence(s)")
sys.exit(1 if bad else 0)
