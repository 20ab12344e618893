#!/bin/sh
# serve_prom: a real Prometheus scrapes hopsplit serve and the real
# blackbox_exporter beside it, with the same job (blackbox README's relabel
# configuration, module http_2xx) that differs only in the prober's
# address, against the same nginx targets.  Prometheus' HTTP API must
# answer for both: up, probe_success, the status, the redirects, SSL and
# HTTP version equal per target; blackbox's five phases within 5 ms of
# blackbox's own on loopback (fastest observations over the run: a
# structural tolerance, not a timing test); hopsplit's per-hop series (status per hop,
# connection reuse, cache verdict, edge vendor and POP, findings).  A
# blackhole target shows the scrape timeout bounds a probe (Prometheus'
# 1 s less the 0.5 s offset: the scrape still succeeds, the probe fails);
# an unknown module is probe_success 0 with up 1; /metrics is scraped too.
# Ground truth for what was fetched is nginx's access log.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_prom
hs_require nginx openssl python3 curl prometheus promtool \
  prometheus-blackbox-exporter
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_tcp blackhole "$HS_DIR/tcp"
hs_start_blackbox "$HS_DIR/blackbox"
hs_start_serve "$HS_DIR/serve" --cacert "$CA_FILE" --vantage testlab -v

OK="https://127.0.0.1:$HTTPS_PORT/ok"
CHAIN="https://127.0.0.1:$HTTPS_PORT/redirect-chain"
PLAIN="http://127.0.0.1:$HTTP_PORT/ok"
MISSING="http://127.0.0.1:$HTTP_PORT/status/404"
WRONG="https://127.0.0.1:$WRONG_PORT/"
THUMB="https://127.0.0.1:$HTTPS_PORT/thumb/42.jpg"
HOLE="http://127.0.0.1:$TCP_PORT/"
B="127.0.0.1:$BLACKBOX_PORT"
H="127.0.0.1:$SERVE_PORT"
hs_prom_job blackbox "$B" http_2xx "$OK" "$CHAIN" "$PLAIN" "$MISSING" \
  "$WRONG" "$THUMB"
hs_prom_job hopsplit "$H" http_2xx "$OK" "$CHAIN" "$PLAIN" "$MISSING" \
  "$WRONG" "$THUMB"
hs_prom_job hopsplit_hole "$H" http_2xx "$HOLE"
hs_prom_job hopsplit_badmodule "$H" no_such_module "$OK"
hs_prom_self hopsplit_self "$H"
hs_start_prometheus "$HS_DIR/prom"

# The scrapes of hopsplit succeed, for every target (up is the scrape).
hs_prom_check 'up{job="hopsplit"}' 'len(rows) == 6 and vals == [1] * 6' 30
hs_prom_check 'up{job="blackbox"}' 'len(rows) == 6 and vals == [1] * 6' 30
# Verdicts, statuses, redirects, SSL and version as blackbox has them.
hs_prom_check 'probe_success{job="hopsplit"}' \
  "by('instance') == {'$OK': 1, '$CHAIN': 1, '$PLAIN': 1, '$THUMB': 1, '$MISSING': 0, '$WRONG': 0}"
hs_prom_check 'probe_http_status_code{job="hopsplit"}' \
  "by('instance') == {'$OK': 200, '$CHAIN': 200, '$PLAIN': 200, '$THUMB': 200, '$MISSING': 404, '$WRONG': 0}"
hs_prom_check 'probe_http_redirects{job="hopsplit"}' \
  "by('instance')['$CHAIN'] == 2 and by('instance')['$OK'] == 0"
for m in probe_success probe_http_status_code probe_http_redirects \
  probe_http_ssl probe_http_version; do
  hs_prom_check "$m{job=\"hopsplit\"} != ignoring(job) $m{job=\"blackbox\"}" \
    'rows == []'
  hs_prom_check "count($m{job=\"hopsplit\"} == ignoring(job) $m{job=\"blackbox\"})" \
    'one == 6'
done
# The five phases of one-hop targets: the fastest observation over the
# run of each prober (the one least disturbed by the load of the machine)
# within 5 ms of each other; loopback phases are well under that.  A
# sanitizer build of hopsplit spends far more CPU in each phase: 20 ms.
hs_prom_check "count by (phase) (probe_http_duration_seconds{job=\"hopsplit\",instance=\"$OK\"})" \
  "sorted(by('phase')) == ['connect', 'processing', 'resolve', 'tls', 'transfer']"
TOL=0.005
if ldd "$HOPSPLIT" 2>/dev/null | grep -qE 'lib(asan|tsan|ubsan)'; then
  TOL=0.020
  hs_log "sanitizer build: phases compared within 20 ms"
fi
# Five scrapes of each at least, before the fastest is taken.
for j in hopsplit blackbox; do
  hs_prom_check "count_over_time(probe_success{job=\"$j\",instance=\"$THUMB\"}[1m])" \
    'one is not None and one >= 5' 30
done
for u in "$OK" "$PLAIN" "$THUMB"; do
  hs_prom_check "abs(min_over_time(probe_http_duration_seconds{job=\"hopsplit\",instance=\"$u\"}[1m]) - ignoring(job) min_over_time(probe_http_duration_seconds{job=\"blackbox\",instance=\"$u\"}[1m]))" \
    "len(rows) == 5 and max(vals) < $TOL"
done
hs_prom_check "probe_http_duration_seconds{job=\"hopsplit\",instance=\"$OK\"}" \
  "by('phase')['tls'] > 0 and by('phase')['connect'] > 0 and by('phase')['processing'] > 0"
hs_prom_check "probe_http_duration_seconds{job=\"hopsplit\",instance=\"$PLAIN\",phase=\"tls\"}" \
  'one == 0'
# One hop: blackbox's five phases are the hop's phases, exactly (the
# same scrape: closure of the accounting).
hs_prom_check "abs(sum(probe_http_duration_seconds{job=\"hopsplit\",instance=\"$OK\"}) - sum(hopsplit_hop_duration_seconds{job=\"hopsplit\",instance=\"$OK\",phase=\"total\"}))" \
  'one < 0.0000015'

# hopsplit's per-hop series.
hs_prom_check "hopsplit_hop_status_code{job=\"hopsplit\",instance=\"$CHAIN\"}" \
  "by('hop') == {'1': 301, '2': 302, '3': 200} and {r[0]['host'] for r in rows} == {'127.0.0.1'} and {r[0]['mode'] for r in rows} == {'cold'}"
hs_prom_check "hopsplit_hop_reused{job=\"hopsplit\",instance=\"$CHAIN\"}" \
  "by('hop') == {'1': 0, '2': 1, '3': 1}"
hs_prom_check "count by (hop) (hopsplit_hop_duration_seconds{job=\"hopsplit\",instance=\"$CHAIN\"})" \
  "by('hop') == {'1': 7, '2': 7, '3': 7}"
hs_prom_check "hopsplit_finding_saving_seconds{job=\"hopsplit\",instance=\"$CHAIN\",kind=\"redirect\"}" \
  'len(rows) >= 1 and min(vals) > 0'
hs_prom_check "hopsplit_cache_verdict{job=\"hopsplit\",instance=\"$THUMB\"} > 0" \
  "[r[0]['verdict'] for r in rows] == ['HIT']"
hs_prom_check "hopsplit_hop_edge_info{job=\"hopsplit\",instance=\"$THUMB\"}" \
  "len(rows) == 1 and rows[0][0]['vendor'] == 'cloudfront' and rows[0][0]['pop'].startswith('ICN') and rows[0][0]['country'] == 'KR'"
hs_prom_check "hopsplit_hop_tls_resumed{job=\"hopsplit\",instance=\"$OK\"}" \
  "by('hop') == {'1': 0}"
hs_prom_check 'count(hopsplit_probe_info{job="hopsplit",vantage="testlab",module="default"})' \
  'one == 6'
# Low cardinality: no label but instance (Prometheus' own) holds a URL.
hs_prom_check '{job="hopsplit",__name__=~"probe_.*|hopsplit_.*"}' \
  "len(rows) > 100 and all('://' not in v for lab, _ in rows for k, v in lab.items() if k != 'instance')"
hs_prom_check 'count by (__name__) ({job="hopsplit",__name__=~"hopsplit_.*"})' \
  'len(rows) >= 10'

# The blackhole: the scrape timeout (1 s, less 0.5 s) bounds the probe, so
# Prometheus gets an answer (up 1) that says the probe failed.
hs_prom_check 'up{job="hopsplit_hole"}' 'one == 1' 30
hs_prom_check 'probe_success{job="hopsplit_hole"}' 'one == 0'
hs_prom_check 'hopsplit_sample_failures{job="hopsplit_hole",class="timeout"}' \
  'one == 1'
hs_prom_check 'probe_duration_seconds{job="hopsplit_hole"}' \
  'one > 0.4 and one < 1.0'
grep -q "probe http://127.0.0.1:$TCP_PORT/ (module http_2xx, budget 0.500 s)" \
  "$SERVE_ERR" || {
  tail -20 "$SERVE_ERR" >&2
  hs_fail "serve did not take its budget from Prometheus' scrape timeout"
}
# An unknown module: a successful scrape that says the probe failed.
hs_prom_check 'up{job="hopsplit_badmodule"}' 'one == 1'
hs_prom_check 'probe_success{job="hopsplit_badmodule"}' 'one == 0'
# The server's own counters.
hs_prom_check 'up{job="hopsplit_self"}' 'one == 1'
hs_prom_check 'hopsplit_serve_probes_total{job="hopsplit_self"}' 'one >= 8'
hs_prom_check 'hopsplit_serve_unknown_module_total{job="hopsplit_self"}' \
  'one >= 1'
hs_prom_check 'hopsplit_serve_probe_failures_total{job="hopsplit_self"}' \
  'one >= 3'
hs_prom_check 'hopsplit_serve_probes_in_flight{job="hopsplit_self"}' \
  'one is not None and one >= 0'
hs_prom_check 'process_resident_memory_bytes{job="hopsplit_self"}' 'one > 0'

# Ground truth: nginx saw hopsplit's requests for every hop.
for p in /ok /redirect-chain /redirect-same /thumb/42.jpg; do
  grep -q "^$HTTPS_PORT GET $p .*ua=\[hopsplit/" "$NGINX_LOG" ||
    hs_fail "nginx never saw hopsplit ask for $p"
done
grep -q "^$HTTP_PORT GET /status/404 .*ua=\[hopsplit/" "$NGINX_LOG" ||
  hs_fail "nginx never saw hopsplit ask for /status/404"

# Both answers are valid exposition text for promtool.
curl -q -sS --noproxy '*' -o "$HS_DIR/probe.prom" \
  "http://$H/probe?target=$OK" || hs_fail "cannot fetch /probe"
curl -q -sS --noproxy '*' -o "$HS_DIR/metrics.prom" \
  "http://$H/metrics" || hs_fail "cannot fetch /metrics"
for f in probe metrics; do
  promtool check metrics <"$HS_DIR/$f.prom" >"$HS_DIR/$f.check" 2>&1 || {
    cat "$HS_DIR/$f.check" >&2
    hs_fail "promtool check metrics rejects /$f"
  }
done
hs_pass
