#!/bin/sh
# subcommands: a near miss of a subcommand as the first argument ("rnu",
# "repot", "hepl") is a usage error with a suggestion, not a URL to
# measure; "hopsplit help [run|report]" prints the usage; --help lists the
# subcommands.  Every run is made in its own mount and network namespace
# (unshare -mn): only loopback, and an /etc/resolv.conf naming 127.0.0.1,
# where a listener counts DNS queries.  So a regression that measures the
# typo again sends nothing off the machine, and is seen: the control run
# (a bare word that is no near miss) must make that listener see a query.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init subcommands
hs_require unshare mount ip python3 timeout
if [ "$(id -u)" != 0 ] || ! unshare -mn true 2>/dev/null; then
  hs_lack "needs root and unshare -mn (a private mount and network namespace)"
  exit 77
fi

REAL=$HOPSPLIT
Q=$HS_DIR/queries.log
: >"$Q"
printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' \
  >"$HS_DIR/resolv.conf"
cat >"$HS_DIR/dns53.py" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 53))
open(sys.argv[2], "w").write("ready\n")
s.settimeout(0.5)
end = time.monotonic() + 20
with open(sys.argv[1], "a") as log:
    while time.monotonic() < end:
        try:
            msg, peer = s.recvfrom(4096)
        except socket.timeout:
            continue
        log.write("query %d bytes\n" % len(msg))
        log.flush()
PY
# The wrapper hs_run calls: a namespace with loopback only, the private
# resolv.conf, the listener on 127.0.0.1:53, then the real binary.
cat >"$HS_DIR/ns.sh" <<EOF2
#!/bin/sh
exec unshare -mn sh -c '
  ip link set lo up || exit 97
  mount --bind "$HS_DIR/resolv.conf" /etc/resolv.conf || exit 97
  rm -f "$HS_DIR/ready"
  "$HS_PYTHON" "$HS_DIR/dns53.py" "$Q" "$HS_DIR/ready" &
  l=\$!
  i=0
  while [ ! -s "$HS_DIR/ready" ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
  [ -s "$HS_DIR/ready" ] || exit 97
  "$REAL" "\$@"
  rc=\$?
  kill \$l
  wait \$l 2>/dev/null
  exit \$rc' sh "\$@"
EOF2
chmod +x "$HS_DIR/ns.sh"
HOPSPLIT=$HS_DIR/ns.sh

no_queries() {
  [ ! -s "$Q" ] || { hs_show; cat "$Q" >&2; hs_fail "DNS queries for: $HS_CMD"; }
}

# Near misses of subcommands: a suggestion, exit 2, no request.
hs_run 2 rnu p.yaml
hs_grep_err "unknown command 'rnu' \(did you mean 'hopsplit run'\?\)"
hs_empty_out
no_queries
hs_run 2 repot results.json
hs_grep_err "did you mean 'hopsplit report'"
no_queries
hs_run 2 hepl
hs_grep_err "did you mean 'hopsplit help'"
no_queries
hs_run 2 Run -n 1
hs_grep_err "did you mean 'hopsplit run'"
no_queries
hs_run 2 sreve
hs_grep_err "did you mean 'hopsplit serve'"
hs_run 2 mrege a.json b.json
hs_grep_err "did you mean 'hopsplit merge'"
no_queries

# A profile where a URL goes.
hs_run 2 profiles/cdn-ab.yaml
hs_grep_err "looks like a profile, not a URL \(did you mean 'hopsplit run profiles/cdn-ab\.yaml'\?\)"
no_queries

# help [COMMAND]
hs_run 0 help
grep -q '^usage: hopsplit \[OPTIONS\] URL' "$HS_OUT" &&
  grep -q '^  run ' "$HS_OUT" && grep -q '^  report ' "$HS_OUT" ||
  { hs_show; hs_fail "hopsplit help: not the usage with the commands"; }
hs_run 0 help run
grep -q 'usage: hopsplit run' "$HS_OUT" || { hs_show; hs_fail "help run"; }
hs_run 0 help report
grep -q 'usage: hopsplit report' "$HS_OUT" || { hs_show; hs_fail "help report"; }
hs_run 0 help merge
grep -q 'usage: hopsplit merge' "$HS_OUT" || { hs_show; hs_fail "help merge"; }
hs_run 0 help serve
grep -qi 'usage: hopsplit serve' "$HS_OUT" || { hs_show; hs_fail "help serve"; }
hs_run 2 help rnu
hs_grep_err "no command 'rnu' \(did you mean 'run'\?\)"
hs_run 0 --help
for c in run report merge serve help; do
  grep -q "^  $c  " "$HS_OUT" || { hs_show; hs_fail "--help lacks '$c'"; }
done
no_queries

# What plainly is a URL is measured, not refused: a dot, a colon or a
# slash (here they fail at once: nothing listens, no name resolves).
hs_run 3 -n 1 --mode cold --connect-timeout 1 http://127.0.0.1:1/run
hs_run 3 -n 1 --mode cold --dns-server 127.0.0.1:53 -m 2 run.test
url_queries=$(wc -l <"$Q")
: >"$Q"
# Control: a bare word that is no near miss is a host to measure, so the
# listener sees its query; the namespace is what keeps it on the machine.
hs_run 3 -n 1 --mode cold -m 2 zzhostzz
[ -s "$Q" ] || hs_fail "control: the listener saw no query (test broken)"
[ "$url_queries" -ge 1 ] ||
  hs_fail "run.test made no query to --dns-server (test broken)"

hs_pass
