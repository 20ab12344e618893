#!/bin/sh
# compare: several targets measured in interleaved rounds and paired by
# round (SPEC 3.4, 3.5).  The baseline pays an extra redirect hop to a
# second origin (two TLS handshakes when cold); the direct URL does not and
# must come out "faster", with the redirect phase explaining it.  Also: the
# schedule (every (target, mode) once per round, rotate and shuffle with a
# seed), names, and the JSON comparison[] and drift[] shapes.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init compare
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
O="https://other.test:$OTHER_PORT"
DNS="127.0.0.1:$DNS_PORT"

# 30 rounds: the sign-test interval is [d(10), d(21)], so the verdict
# holds even if a third of the pairs are turned around by a loaded machine.
hs_run 0 -n 30 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "base=$B/redirect-cross" "direct=$O/ok"
hs_jcheck --shape --closure --all-ok --samples 60 \
  "col(targets, 'name') == ['base', 'direct']" \
  "col(targets, 'baseline') == [True, False]" \
  "len(d['comparison']) == 1" \
  "get(d, 'comparison.0.target') == 'direct'" \
  "get(d, 'comparison.0.baseline') == 'base'" \
  "get(d, 'comparison.0.mode') == 'cold'" \
  "get(d, 'comparison.0.n_pairs') == 30" \
  "get(d, 'comparison.0.verdict') == 'faster'" \
  "get(d, 'comparison.0.ci_low_us') <= get(d, 'comparison.0.median_diff_us') <= get(d, 'comparison.0.ci_high_us') < 0" \
  "get(d, 'comparison.0.change_pct') < 0" \
  "get(d, 'comparison.0.phases.redirect.ci_high_us') < 0" \
  "set(get(d, 'comparison.0.phases')) == {'dns', 'connect', 'tls', 'send', 'wait', 'transfer', 'redirect', 'other'}" \
  "sorted((x['target'], x['mode']) for x in d['drift']) == [('base', 'cold'), ('direct', 'cold')]" \
  "all(set(x) >= {'target', 'mode', 'rho', 'warning'} for x in d['drift'])"

# Rotate (the default): each round measures each target once, and the
# order shifts by one per round.
hs_jcheck \
  "all(sorted(s['target'] for s in samples if s['round'] == r) == ['base', 'direct'] for r in range(1, 31))" \
  "[s['target'] for s in samples if s['position'] == 1][:4] == ['base', 'direct', 'base', 'direct']"

# The same comparison in text: a row per target with the verdict.
hs_run 0 -n 30 --mode cold --dns-server "$DNS" --cacert "$CA_FILE" \
  "base=$B/redirect-cross" "direct=$O/ok"
grep -q "comparison" "$HS_OUT" && grep -qE "direct .* faster" "$HS_OUT" || {
  hs_show
  hs_fail "text comparison lacks the direct row with its verdict"
}

# Shuffle is reproducible with a seed and recorded.
hs_run 0 -n 4 --mode cold,warm --order shuffle --seed 42 --format json \
  --dns-server "$DNS" --cacert "$CA_FILE" "a=$B/ok" "b=$O/ok"
cp "$HS_OUT" "$HS_DIR/shuffle1.json"
hs_run 0 -n 4 --mode cold,warm --order shuffle --seed 42 --format json \
  --dns-server "$DNS" --cacert "$CA_FILE" "a=$B/ok" "b=$O/ok"
hs_jcheck --grid 4 cold,warm \
  "get(d, 'settings.seed') == 42" \
  "get(d, 'settings.order') == 'shuffle'" \
  "[(s['target'], s['mode']) for s in samples] == [(s['target'], s['mode']) for s in json.load(open('$HS_DIR/shuffle1.json'))['samples']]" \
  "len(d['comparison']) == 2"

# Unnamed targets: by host when unique, else by host and path when unique
# (issue 38), else t1, t2 ...; duplicate names are a usage error.
hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "$B/ok" "$O/ok"
hs_jcheck "col(targets, 'name') == ['origin.test', 'other.test']"
hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "$B/ok" "$B/redirect-same"
hs_jcheck "col(targets, 'name') == ['origin.test/ok', 'origin.test/redirect-same']"
hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "$B/ok" "$B/ok?x=1" "$B/redirect-same" "$O/ok"
hs_jcheck "col(targets, 'name') == ['t1', 't2', 'origin.test/redirect-same', 'other.test']"
hs_run 2 "x=$B/ok" "x=$O/ok"
hs_grep_err "'x'" "twice"
hs_empty_out

# Different bodies compared (issue 38): "/" (21 B, text/plain) against
# "/ok" (3 B): a note under the row in text, and in HTML a baseline and
# a size column and the note.
hs_run 0 -n 3 --mode cold --dns-server "$DNS" --cacert "$CA_FILE" \
  -o "$HS_DIR/bodies.html" "ok=$B/ok" "root=$B/"
grep -q '^    the bodies differ: 21 B text/plain against 3 B text/plain (ok)$' \
  "$HS_OUT" || { hs_show; hs_fail "no note that the bodies differ"; }
grep -q '<th class="l">baseline</th><th class="l">mode</th><th>size</th>' \
  "$HS_DIR/bodies.html" &&
  grep -q 'root against ok: the bodies differ: 21 B text/plain against 3 B text/plain' \
    "$HS_DIR/bodies.html" || hs_fail "the HTML comparison lacks the baseline, size or note"

# A round where one side failed is left out of the pairs and counted.
DEAD=$(hs_free_port)
hs_run 3 -n 3 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" --connect-timeout 2s "base=$B/ok" \
  "dead=https://127.0.0.1:$DEAD/"
hs_jcheck \
  "get(d, 'comparison.0.n_pairs') == 0" \
  "get(d, 'comparison.0.n_dropped') == 3" \
  "get(d, 'comparison.0.verdict') == 'no clear difference'" \
  "get(d, 'comparison.0.median_diff_us') is None"
hs_pass
