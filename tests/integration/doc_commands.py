#!/usr/bin/env python3
"""doc_commands.py SRC WORKDIR: run every hopsplit command README.md,
man/hopsplit.1 and man/hopsplit-profile.5 show, against the test servers.

The commands are taken from the text as written: README's ``` blocks, the
man pages' .Bd -literal blocks and .Dl lines; a line that starts with
"hopsplit " or "$ hopsplit " is a command, joined over trailing
backslashes; a trailing "# comment" and a "| pipe" are cut.  Then, by
rule and never by hand:
  - every URL (and a bare host name of a target) becomes the same URL of
    the test nginx, https://origin.test:HTTPS_PORT/ok (http:// keeps
    plain HTTP on HTTP_PORT); --resolve HOST:PORT:ADDR pins origin.test
    to 127.0.0.1, --dns-server names the test dnsmasq, --listen a free
    loopback port; -n N is at most 2, and 2 where the text gives none (a
    doc shows 30 rounds for a real network);
  - measuring commands get --resolve origin.test:PORT:127.0.0.1 and
    --cacert of the test CA, so nothing leaves the machine; a command in
    which any other host or address is left is an error of this script,
    never run;
  - profiles/ is copied with the same URL rule and its ${VAR:-default}
    variables set to the test URL.
Each command runs in WORKDIR (files it reads are made there first: the
-d @FILE, the -T FILE; outputs of one command feed the next in the order
of the text).  Expected: exit 0, or what the text says right after it
(a shown "hopsplit: error: ..." means exit 2 with that message on
stderr, "..." standing for the rest); a profile run may also exit 1 (a
check that the machine's load decides).  Shown stderr lines are compared
after joining their wrapped continuation lines.
Prints one line per command; exits 1 when any differs.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

src, work = sys.argv[1], sys.argv[2]
HTTPS = os.environ["HTTPS_PORT"]
HTTP = os.environ["HTTP_PORT"]
DNS = os.environ["DNS_PORT"]
LISTEN = os.environ["LISTEN_PORT"]
CA = os.environ["CA_FILE"]
BIN = os.environ["HOPSPLIT"]
TF = int(os.environ.get("HS_TF", "1"))
U_HTTPS = "https://origin.test:%s/ok" % HTTPS
U_HTTP = "http://origin.test:%s/ok" % HTTP
PIN = "origin.test:%s:127.0.0.1" % HTTPS


def man_text(line):
    """A line of an mdoc literal block as the reader sees it."""
    line = re.sub(r"^\.Dl ", "", line)
    return (line.replace("\\e", "\\").replace("\\(dq", '"')
            .replace("\\-", "-").replace("\\&", ""))


def blocks(path):
    """The literal blocks of path: lists of (line number, text)."""
    out, cur = [], None
    lines = open(path, encoding="utf-8").read().split("\n")
    man = not path.endswith(".md")
    for n, line in enumerate(lines, 1):
        if man:
            if line.startswith(".Bd -literal"):
                cur = []
            elif line.startswith(".Ed") and cur is not None:
                out.append(cur)
                cur = None
            elif cur is not None:
                cur.append((n, man_text(line)))
            elif line.startswith(".Dl "):
                out.append([(n, man_text(line))])
        elif line.startswith("```"):
            if cur is None:
                cur = []
            else:
                out.append(cur)
                cur = None
        elif cur is not None:
            cur.append((n, line))
    return out


def commands(path):
    """(where, command, shown stderr lines) of every command in path."""
    found = []
    for b in blocks(path):
        i = 0
        while i < len(b):
            n, line = b[i]
            m = re.match(r"^\s*(\$ )?(hopsplit( .*)?)$", line)
            if not m or re.match(r"^hopsplit( \d|: )", m.group(2)):
                i += 1
                continue
            cmd = m.group(2)
            while cmd.endswith("\\") and i + 1 < len(b):
                i += 1
                cmd = cmd[:-1] + " " + b[i][1].strip()
            i += 1
            shown = []
            while i < len(b) and b[i][1].startswith("hopsplit: "):
                text = b[i][1]
                i += 1
                while i < len(b) and b[i][1].startswith("    "):
                    text += " " + b[i][1].strip()
                    i += 1
                shown.append(text)
            found.append(("%s:%d" % (os.path.relpath(path, src), n), cmd,
                          shown))
    return found


def cut(cmd):
    """The command without a trailing comment or pipe (outside quotes)."""
    q = None
    for k, ch in enumerate(cmd):
        if q:
            if ch == q:
                q = None
        elif ch in "'\"":
            q = ch
        elif ch == "#" and k and cmd[k - 1] == " ":
            return cmd[:k].rstrip()
        elif ch == "|" and cmd[k - 1:k + 2] in (" | ", " |"):
            return cmd[:k].rstrip()
    return cmd


URL = re.compile(r"(https?)://[^\s'\"/}]+(/[^\s'\"}]*)?")


def local_url(m):
    return U_HTTP if m.group(1) == "http" else U_HTTPS


def substitute(cmd):
    cmd = URL.sub(local_url, cmd)
    cmd = re.sub(r"--resolve [^\s]+", "--resolve " + PIN, cmd)
    cmd = re.sub(r"--dns-server [^\s]+", "--dns-server 127.0.0.1:" + DNS, cmd)
    cmd = re.sub(r"--listen [^\s]+", "--listen 127.0.0.1:" + LISTEN, cmd)
    cmd = re.sub(r"(-n) (\d+)",
                 lambda m: "%s %d" % (m.group(1), min(int(m.group(2)), 2)),
                 cmd)
    # Bare host names given as targets (a.example, example.com).
    cmd = re.sub(r"(?<=[\s=])(?:[a-z0-9-]+\.)+(?:example|com|org|net)(?=\s|$)",
                 "origin.test:%s/ok" % HTTPS, cmd)
    words = cmd.split()
    sub = words[1] if len(words) > 1 else ""
    pin = " --resolve %s --cacert %s" % (PIN, CA)
    # Two rounds where the text gives none (10, or a profile's 30): the
    # test checks that the command runs, not the statistics of a run.
    if not re.search(r" (-n|--rounds) ", cmd):
        pin += " -n 2"
    if sub == "run":
        cmd = "hopsplit run" + pin + cmd[len("hopsplit run"):]
    elif sub not in ("help", "report", "merge", "serve"):
        cmd = "hopsplit" + pin + cmd[len("hopsplit"):]
    return cmd


def safe(cmd):
    """Nothing but the test servers, loopback and the test's own files."""
    for m in URL.finditer(cmd):
        if m.group(0) not in (U_HTTPS, U_HTTP):
            return "URL %s" % m.group(0)
    for m in re.finditer(r"(?<![\w./-])((?:[a-z0-9-]+\.)+[a-z]{2,})(?![\w/.-])",
                         cmd):
        host = m.group(1)
        if host in ("origin.test",) or re.search(
                r"\.(json|ndjson|csv|har|html|prom|txt|xml|yaml|jpg|pem|crt)$",
                host):
            continue
        return "host %s" % host
    for m in re.finditer(r"\b(\d+\.\d+\.\d+\.\d+)\b", cmd):
        if not m.group(1).startswith("127."):
            return "address %s" % m.group(1)
    return None


def copy_profiles():
    os.makedirs(os.path.join(work, "profiles"), exist_ok=True)
    for f in os.listdir(os.path.join(src, "profiles")):
        if not f.endswith(".yaml"):
            continue
        text = open(os.path.join(src, "profiles", f), encoding="utf-8").read()
        text = URL.sub(local_url, text)
        text = re.sub(r"[a-z0-9.-]+:443:[0-9.]+", PIN, text)
        open(os.path.join(work, "profiles", f), "w",
             encoding="utf-8").write(text)


def run(where, cmd, shown):
    full = substitute(cut(cmd))
    why = safe(full)
    if why:
        return "%s: not run, %s left in: %s" % (where, why, full)
    want = 2 if any(s.startswith("hopsplit: error: ") for s in shown) else 0
    words = full.split()
    serve = len(words) > 1 and words[1] == "serve"
    env = dict(os.environ)
    for v in ("API_BASE", "CDN_A_URL", "CDN_B_URL", "PHOTO_API_URL",
              "PHOTO_DIRECT_URL", "PHOTO_THUMB_URL", "PHOTO_API_CALL_URL",
              "IMAGE_URL", "API_URL"):
        env[v] = "https://origin.test:%s" % HTTPS if v == "API_BASE" \
            else U_HTTPS
    sh = "exec " + BIN + full[len("hopsplit"):]
    t0 = time.monotonic()
    try:
        p = subprocess.run(["sh", "-c", sh], cwd=work, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=(3 if serve else 60 * TF))
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        if not serve:
            return "%s: timed out: %s" % (where, full)
        rc, err = 0, (e.stderr or b"").decode("utf-8", "replace")
    print("%s: exit %d in %.1f s: %s" % (where, rc, time.monotonic() - t0,
                                          full))
    ok = {want} | ({1} if want == 0 and len(words) > 1 and
                   words[1] == "run" else set())
    if rc not in ok:
        return "%s: exit %d, not %s: %s\n%s" % (where, rc, sorted(ok), full,
                                                err[-2000:])
    got = [" ".join(l.split()) for l in err.splitlines()]
    for s in shown:
        s = " ".join(s.split())
        head = s.split("...")[0].rstrip()
        if not any(g.startswith(head) for g in got):
            return "%s: stderr does not say %r:\n%s" % (where, head, err)
    return None


copy_profiles()
open(os.path.join(work, "form.txt"), "w").write("user=a&password=b\n")
open(os.path.join(work, "photo.jpg"), "wb").write(b"\xff\xd8" + b"x" * 4096)
bad, n = [], 0
for doc in ("README.md", "man/hopsplit.1", "man/hopsplit-profile.5"):
    for where, cmd, shown in commands(os.path.join(src, doc)):
        n += 1
        problem = run(where, cmd, shown)
        if problem:
            bad.append(problem)
for b in bad:
    print("PROBLEM " + b)
print("%d commands, %d problems" % (n, len(bad)))
sys.exit(1 if bad or n < 30 else 0)
