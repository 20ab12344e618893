#!/bin/sh
# profile_run: "hopsplit run" against local nginx and dnsmasq (SPEC 6,
# issue 5).  A good profile measures, writes its outputs (creating their
# directory) and exits 0 with every check passed; a failing threshold or
# cache check exits 1; a failed sample exits 3 (and 1 wins over 3);
# options on the command line override the profile (rounds, modes, a
# header); ${VAR} comes from the environment and a missing one exits 2
# with FILE:LINE:COL before anything is sent; --dry-run sends nothing;
# several profiles run one after another, each writing its own outputs.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init profile_run
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

O="https://origin.test:$HTTPS_PORT"
P=$HS_DIR/p
mkdir -p "$P" || hs_fail "cannot create $P"
HS_DNS="127.0.0.1:$DNS_PORT"
HS_TOKEN=t0k3n
export HS_DNS HS_TOKEN CA_FILE

# good.yaml: two targets, checks that pass on any machine.
cat >"$P/good.yaml" <<GOOD
name: good
rounds: 5
modes: [cold, warm]
defaults:
  dns-server: \${HS_DNS}
  cacert: \${CA_FILE}
  headers:
    X-Test: profile
targets:
  - name: base
    url: $O/ok
    headers:
      Authorization: "Bearer \${HS_TOKEN}"
  - name: store
    url: $O/cacheable
checks:
  - {target: base, metric: total.p95, max: 30s}
  - {metric: dns.min, mode: warm, max: 30s}
  - {target: base, cache: {not: [BYPASS, UNCACHEABLE]}}
  - {target: store, compare: base, verdict: [faster, slower, no clear difference]}
outputs:
  - $HS_DIR/out/good.json
  - $HS_DIR/out/good.txt
GOOD

hs_run 0 run --format json "$P/good.yaml"
hs_jcheck --shape --closure --all-ok --samples 20 --grid 5 cold,warm \
  "d['profile'] == {'name': 'good', 'file': '$P/good.yaml'}" \
  "len(d['checks']) == 5" \
  "d['checks_failed'] == 0" \
  "[c['pass'] for c in d['checks']] == [True] * 5" \
  "[c['kind'] for c in d['checks']] == ['metric', 'metric', 'metric', 'cache', 'compare']" \
  "[c['target'] for c in d['checks']] == ['base', 'base', 'store', 'base', 'store']" \
  "d['checks'][0]['metric'] == 'total.p95'" \
  "d['checks'][0]['max_us'] == 30000000" \
  "d['checks'][0]['value_us'] == summary('cold', 'total', 'p95_us')" \
  "d['checks'][1]['mode'] == 'warm'" \
  "d['checks'][1]['value_us'] == summary('warm', 'dns', 'min_us')" \
  "d['checks'][3]['not'] == ['BYPASS', 'UNCACHEABLE']" \
  "d['checks'][3]['hop'] == 'every'" \
  "d['checks'][3]['measured'] == 'hop 1 (UNKNOWN x10)'" \
  "d['checks'][4]['baseline'] == 'base'" \
  "d['checks'][4]['verdicts'] == ['faster', 'slower', 'no clear difference']" \
  "d['checks'][0]['source'] == '$P/good.yaml:17:5'" \
  "'t0k3n' not in json.dumps(d)"
[ -s "$HS_DIR/out/good.json" ] || hs_fail "good.json was not written"
grep -q '^checks  good: 5 passed, 0 failed' "$HS_DIR/out/good.txt" ||
  hs_fail "good.txt has no checks section"
hs_jcheck --file "$HS_DIR/out/good.json" "d['checks_failed'] == 0"
# The header came from the environment; the profile's X-Test was sent,
# with every sample and with the priming request of warm.
hs_logged 11 "/ok auth=\[Bearer t0k3n\].*x=\[profile\]"
hs_logged 0 "/cacheable auth=\[Bearer"

# The command line wins: 2 rounds, cold only, another X-Test, one more -o.
hs_nginx_log_clear
hs_run 0 run --format json -n 2 --mode cold -H 'X-Test: cli' \
  -o "$HS_DIR/out/cli.json" "$P/good.yaml"
hs_jcheck --samples 4 --grid 2 cold \
  "len(d['checks']) == 3" "d['checks_failed'] == 0"
hs_logged 0 "x=\[profile\]"
hs_logged 4 "x=\[cli\]"
[ -s "$HS_DIR/out/cli.json" ] || hs_fail "-o of the command line not written"

# Text on stdout names the profile and ends with the checks.
hs_run 0 run -n 1 "$P/good.yaml"
grep -q '^profile: good ' "$HS_OUT" || { hs_show; hs_fail "no profile line"; }
grep -q '^  PASS  base ' "$HS_OUT" || { hs_show; hs_fail "no PASS line"; }

# A threshold nobody meets: exit 1, the measured value is kept.
sed -e 's/max: 30s}/max: 1us}/' -e 's/^name: good/name: fail/' \
  -e "s|$HS_DIR/out/good|$HS_DIR/out/fail|" "$P/good.yaml" >"$P/fail.yaml"
hs_run 1 run --format json -n 2 "$P/fail.yaml"
hs_jcheck --all-ok "d['checks_failed'] == 1" \
  "[c['pass'] for c in d['checks']] == [False, True, True, True, True]" \
  "d['checks'][0]['value_us'] > 1" "d['checks'][1]['value_us'] == 0"
hs_run 1 run -n 1 "$P/fail.yaml"
# The place ends the FAIL line, or a line after when it is wrapped at
# 80 columns.
grep -A2 "^  FAIL  base " "$HS_OUT" | grep -qF "($P/fail.yaml:17:5)" ||
  { hs_show; hs_fail "no FAIL line with the place of the check"; }
hs_jcheck --file "$HS_DIR/out/fail.json" "d['checks_failed'] == 1"

# A cache verdict that is there (no-store: UNCACHEABLE): exit 1.
cat >"$P/nostore.yaml" <<NOSTORE
rounds: 2
modes: cold
defaults: {dns-server: "\${HS_DNS}", cacert: "\${CA_FILE}"}
targets:
  - {name: nostore, url: $O/nostore}
checks:
  - {cache: {not: [UNCACHEABLE]}}
  - {cache: {is: [UNCACHEABLE], hop: last}}
NOSTORE
hs_run 1 run --format json "$P/nostore.yaml"
hs_jcheck --all-ok "d['profile']['name'] == 'nostore'" \
  "[c['pass'] for c in d['checks']] == [False, True]" \
  "d['checks'][0]['measured'] == 'hop 1 (UNCACHEABLE x2)'" \
  "d['checks'][1]['hop'] == 'last'"

# A sample that fails (NXDOMAIN): 3; with a failed check too: 1.
cat >"$P/nx.yaml" <<NX
rounds: 1
modes: [cold]
defaults: {dns-server: "\${HS_DNS}", cacert: "\${CA_FILE}"}
targets:
  - {name: ok, url: $O/ok}
  - {name: nx, url: "https://nx.test:$HTTPS_PORT/"}
NX
hs_run 3 run --format json "$P/nx.yaml"
hs_jcheck "d['n_failed'] == 1" "d['checks'] == []" "d['checks_failed'] == 0"
cp "$P/nx.yaml" "$P/nxcheck.yaml"
printf 'checks:\n  - {target: nx, metric: total.p50, max: 10s}\n' \
  >>"$P/nxcheck.yaml"
hs_run 1 run --format json "$P/nxcheck.yaml"
hs_jcheck "d['checks'][0]['pass'] == False" \
  "d['checks'][0]['measured'] == 'no successful sample'" \
  "d['checks'][0]['value_us'] is None"

# Several profiles, one after another: each writes its outputs; the exit
# status is the most severe (1 over 3 over 0).
rm -rf "$HS_DIR/out"
hs_run 1 run -q -n 1 "$P/good.yaml" "$P/nx.yaml" "$P/fail.yaml"
[ -s "$HS_DIR/out/good.json" ] && [ -s "$HS_DIR/out/fail.json" ] ||
  hs_fail "outputs of several profiles not written"
[ "$(grep -c '^profile: ' "$HS_OUT")" = 3 ] ||
  { hs_show; hs_fail "three reports expected"; }
hs_run 3 run -q -n 1 "$P/good.yaml" "$P/nx.yaml"

# A missing variable: exit 2, its place, and nothing measured at all,
# also not the good profile before it.
hs_nginx_log_clear
(
  unset HS_TOKEN
  hs_run 2 run "$P/nx.yaml" "$P/good.yaml"
  hs_empty_out
  grep -qxF "hopsplit: error: $P/good.yaml:13:30: environment variable 'HS_TOKEN' is not set" \
    "$HS_ERR" || { hs_show; hs_fail "no FILE:LINE:COL message"; }
) || exit 1
hs_nothing_logged "a profile error still measured something"

# --dry-run: the expanded plan, the secret redacted, nothing sent.
hs_run 0 run --dry-run "$P/good.yaml"
grep -q '^  header             Authorization: REDACTED' "$HS_OUT" ||
  { hs_show; hs_fail "dry run does not show the redacted header"; }
grep -q '^  header             X-Test: profile' "$HS_OUT" ||
  { hs_show; hs_fail "dry run does not show the profile's header"; }
grep -q "^  base         cold  total.p95 <= 30s" "$HS_OUT" ||
  { hs_show; hs_fail "dry run does not list the checks"; }
grep -q 't0k3n' "$HS_OUT" && { hs_show; hs_fail "dry run shows the secret"; }
# One unit style: every duration as the option takes it (issue 38), never
# "5000 ms" beside "10.0 s".
grep -qE '^  connect-timeout +[0-9.]+(us|ms|s)$' "$HS_OUT" ||
  { hs_show; hs_fail "dry run: connect-timeout not written as the option takes it"; }
grep -qE '[0-9] (us|ms|s)( |$)' "$HS_OUT" &&
  { hs_show; hs_fail "dry run: a duration in the report's style, not the option's"; }
hs_run 0 run --dry-run --show-secrets "$P/good.yaml"
grep -q 'Authorization: Bearer t0k3n' "$HS_OUT" ||
  { hs_show; hs_fail "--show-secrets does not show the header"; }
hs_nothing_logged "--dry-run measured something"

hs_pass
