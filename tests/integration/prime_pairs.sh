#!/bin/sh
# prime_pairs: --prime, --baseline and --compare all (issue 14) against the
# local nginx, and the load-time warnings of profile checks the rounds
# cannot decide.  Timings are the lab's (tests/lab/photo.test.sh); here:
# bad values are usage errors, --dry-run shows the baseline, the primes
# and the warnings, a primed sample reuses the primed connection (nginx's
# log: the prime URL is requested once per primed sample), a failed prime
# is reported and never measured, every pair is compared and survives
# "hopsplit report".
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init prime_pairs
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
O="https://other.test:$OTHER_PORT"
DNS="127.0.0.1:$DNS_PORT"

# Usage errors: nothing is measured.
hs_run 2 --baseline bsae "a=$B/ok" "base=$B/ok"
hs_grep_err "--baseline: no target is named 'bsae' \(did you mean 'base'\?\)"
hs_run 2 --prime "nosuch=$B/ok" "a=$B/ok"
hs_grep_err "--prime: no target is named 'nosuch'"
hs_run 2 --prime "a=ftp://origin.test/x" "a=$B/ok"
hs_grep_err "prime"
hs_run 2 --prime "" "a=$B/ok"
hs_grep_err "empty URL"
hs_run 2 --compare some "a=$B/ok" "b=$B/ok"
hs_grep_err "unknown value 'some' \(expected all\)"

# --dry-run: the baseline named, the primes of each target.
hs_run 0 --dry-run --baseline b --compare all --prime "b=$B/ok?x=1" \
  "a=$B/ok" "b=$O/ok" "c=$B/ok"
grep -qE '^  b +GET .*\(baseline\)$' "$HS_OUT" &&
  grep -q "primed by $B/ok?x=1" "$HS_OUT" &&
  [ "$(grep -c 'primed by' "$HS_OUT")" = 1 ] &&
  grep -q 'every pair of targets' "$HS_OUT" || {
  hs_show
  hs_fail "--dry-run does not show the baseline, the prime and the pairs"
}

# A primed cold sample: the prime runs on the sample's own client first,
# so the measured hop reuses its connection and its DNS answer.
hs_nginx_log_clear
hs_run 0 -n 3 --mode cold,warm,resumed --http1.1 --format json \
  --dns-server "$DNS" --cacert "$CA_FILE" --prime "pooled=$B/redirect-same" \
  "base=$B/ok" "pooled=$B/ok"
hs_jcheck --shape --closure --all-ok --samples 18 \
  "all(s['primed'] == ['$B/redirect-same'] for s in S(target='pooled'))" \
  "all(s['primed'] == [] for s in S(target='base'))" \
  "all(s['prime_error'] is None for s in samples)" \
  "all(s['hops'][0]['reused'] for s in S('cold', target='pooled'))" \
  "all(s['hops'][0]['dns']['cached'] for s in S('cold', target='pooled'))" \
  "not any(s['hops'][0]['reused'] for s in S('cold', target='base'))" \
  "all(s['idle_us'] is None for s in S('cold') + S('resumed'))" \
  "all(s['idle_us'] > 0 for s in S('warm'))" \
  "get(d, 'settings.prime') == ['pooled=$B/redirect-same']"
# Ground truth: nginx saw the prime (a redirect, then /ok) once per cold
# and resumed sample and once for the warm priming: 3 + 3 + 1.
hs_logged 7 "^$HTTPS_PORT GET /redirect-same "

# A prime is a GET even when the target POSTs a body.
hs_nginx_log_clear
hs_run 0 -n 2 --mode cold --dns-server "$DNS" --cacert "$CA_FILE" \
  -d 'x=1' --prime "$B/ok?prime=1" "$B/ok"
hs_logged 2 "^$HTTPS_PORT GET /ok\\?prime=1 "
hs_logged 2 "^$HTTPS_PORT POST /ok "

# A prime that fails is reported once and never measured.
hs_run 0 -n 2 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" --connect-timeout 2s \
  --prime "https://origin.test:$HTTPS_PORT/status/500x" \
  --prime "https://unknown.test:$HTTPS_PORT/ok" "a=$B/ok"
hs_grep_err "prime 'https://unknown.test:$HTTPS_PORT/ok' failed"
[ "$(grep -c 'prime .* failed' "$HS_ERR")" = 1 ] || {
  hs_show
  hs_fail "a failed prime is reported more than once"
}
hs_jcheck --all-ok --samples 2 \
  "all(s['prime_error'].startswith(\"prime 'https://unknown.test\") for s in samples)" \
  "all(len(s['primed']) == 2 for s in samples)"

# Every pair with --compare all, against the named baseline.
hs_run 0 -n 6 --mode cold --baseline b --compare all --format json \
  --dns-server "$DNS" --cacert "$CA_FILE" -o "$HS_DIR/pairs.json" \
  "a=$B/ok" "b=$O/ok" "c=$B/redirect-same"
hs_jcheck --all-ok \
  "sorted((c['target'], c['baseline']) for c in d['comparison']) == [('a', 'b'), ('c', 'a'), ('c', 'b')]" \
  "col(targets, 'baseline') == [False, True, False]" \
  "get(d, 'settings.baseline') == 'b'" \
  "all(isinstance(c['explained_by'], list) for c in d['comparison'])" \
  "all(set(c['parts']) == {'redirect', 'other', 'final.dns', 'final.connect', 'final.tls', 'final.send', 'final.wait', 'final.transfer'} for c in d['comparison'])" \
  "all('change_us' in x and 'significant' in x for x in d['drift'])" \
  "all(t['findings_nonoverlap_us'] <= t['findings_total_us'] for t in targets)"
# The text of the same document, re-rendered: the matrix of 3 targets.
hs_run 0 report "$HS_DIR/pairs.json"
grep -q 'comparison.* against b ' "$HS_OUT" &&
  grep -q 'every pair: row minus column' "$HS_OUT" &&
  grep -qE '^  c +[(+-]' "$HS_OUT" || {
  hs_show
  hs_fail "hopsplit report: no comparison against b or no matrix"
}

# More than 5 targets: no matrix, one line per further pair (15 pairs, 5
# of them with the baseline).
hs_run 0 -n 2 --mode warm --compare all --dns-server "$DNS" \
  --cacert "$CA_FILE" "t1=$B/ok" "t2=$O/ok" "t3=$B/ok" "t4=$O/ok" \
  "t5=$B/ok" "t6=$O/ok"
grep -q 'other pairs' "$HS_OUT" && ! grep -q 'every pair: row' "$HS_OUT" &&
  [ "$(grep -cE '^  warm +t[2-6] - t[1-5]: ' "$HS_OUT")" = 10 ] || {
  hs_show
  hs_fail "--compare all with 6 targets: expected 10 lines of other pairs"
}

# Profiles: checks the rounds cannot decide are warned about at load time.
cat >"$HS_DIR/few.yaml" <<EOF
rounds: 5
modes: [cold]
defaults:
  baseline: b
  compare: all
  prime: b=$B/ok
targets:
  - {name: a, url: "$B/ok"}
  - name: b
    url: "$O/ok"
    prime: "$O/ok"
checks:
  - {target: b, compare: a, verdict: faster}
  - {target: a, metric: total.p95, max: 1s}
  - {target: b, compare: a, verdict: [faster, no clear difference]}
EOF
hs_run 0 run --dry-run "$HS_DIR/few.yaml"
hs_grep_err "few.yaml:13:5: this check cannot be decided with 5 rounds.*can never pass" \
  "few.yaml:14:5: a p95 of 5 samples is low-confidence" \
  "few.yaml:15:5: this check cannot be decided.*always passes"
[ "$(grep -c 'primed by' "$HS_OUT")" = 2 ] &&
  grep -qE '^  b +GET .*\(baseline\)$' "$HS_OUT" || {
  hs_show
  hs_fail "profile: b should be the baseline, primed by the defaults' and its own prime"
}
hs_pass
