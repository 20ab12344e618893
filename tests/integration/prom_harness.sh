#!/bin/sh
# prom_harness: the Prometheus test harness (tests/server/prom.sh) on its
# own, with the real blackbox_exporter as the prober: Prometheus scrapes
# blackbox with the relabel configuration from blackbox's README against the
# nginx origin, and its HTTP API answers for up, probe_success, the status,
# the redirects, the SSL flag and the phases.  Ground truth for what was
# probed is nginx's access log (blackbox's User-Agent), and for the scrape
# timeout header blackbox's own log.  The serve tests build on this.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init prom_harness
hs_require nginx openssl python3 curl prometheus promtool \
  prometheus-blackbox-exporter
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_blackbox "$HS_DIR/blackbox"

OK="https://127.0.0.1:$HTTPS_PORT/ok"
CHAIN="https://127.0.0.1:$HTTPS_PORT/redirect-chain"
PLAIN="http://127.0.0.1:$HTTP_PORT/ok"
MISSING="http://127.0.0.1:$HTTP_PORT/status/404"
WRONG="https://127.0.0.1:$WRONG_PORT/"
B="127.0.0.1:$BLACKBOX_PORT"
hs_prom_job blackbox "$B" http_2xx "$OK" "$CHAIN" "$PLAIN" "$MISSING" "$WRONG"
hs_prom_self blackbox_self "$B"
hs_start_prometheus "$HS_DIR/prom"

# Every probe target is scraped, through the prober (up is the scrape of
# /probe, not the probe's verdict).
hs_prom_check 'up{job="blackbox"}' 'len(rows) == 5 and vals == [1] * 5' 30
hs_prom_check 'up{job="blackbox_self"}' 'one == 1'
# The relabelling put each URL in instance, and __param_module reached the
# prober (blackbox answers 400 to an unknown module, which would be up 0).
hs_prom_check 'probe_success{job="blackbox"}' \
  "by('instance') == {'$OK': 1, '$CHAIN': 1, '$PLAIN': 1, '$MISSING': 0, '$WRONG': 0}"
hs_prom_check 'probe_http_status_code{job="blackbox"}' \
  "by('instance') == {'$OK': 200, '$CHAIN': 200, '$PLAIN': 200, '$MISSING': 404, '$WRONG': 0}"
hs_prom_check 'probe_http_redirects{job="blackbox"}' \
  "by('instance')['$CHAIN'] == 2 and by('instance')['$OK'] == 0"
hs_prom_check 'probe_http_ssl{job="blackbox"}' \
  "by('instance')['$OK'] == 1 and by('instance')['$PLAIN'] == 0"
hs_prom_check 'probe_http_version{job="blackbox"}' \
  "by('instance')['$OK'] == 2 and by('instance')['$PLAIN'] == 1.1"
# Phases: blackbox's five for every probe, failed ones too; TLS time only
# where there was TLS.
hs_prom_check 'count by (instance) (probe_http_duration_seconds{job="blackbox"})' \
  'len(rows) == 5 and vals == [5] * 5'
hs_prom_check "probe_http_duration_seconds{job=\"blackbox\",instance=\"$OK\"}" \
  "by('phase')['tls'] > 0 and by('phase')['connect'] > 0 and by('phase')['processing'] > 0"
hs_prom_check "probe_http_duration_seconds{job=\"blackbox\",instance=\"$PLAIN\",phase=\"tls\"}" \
  'one == 0'
hs_prom_check "probe_duration_seconds{job=\"blackbox\",instance=\"$OK\"} > 0" \
  'len(rows) == 1'
hs_prom_check 'blackbox_exporter_config_last_reload_successful' 'one == 1'

# Ground truth: nginx saw blackbox's requests for every hop.
for p in /ok /redirect-chain /redirect-same; do
  grep -q "^$HTTPS_PORT GET $p .*ua=\[Blackbox Exporter/" "$NGINX_LOG" ||
    hs_fail "nginx never saw blackbox ask for $p"
done
grep -q "^$HTTP_PORT GET /status/404 .*ua=\[Blackbox Exporter/" "$NGINX_LOG" ||
  hs_fail "nginx never saw blackbox ask for /status/404"
# Prometheus sent X-Prometheus-Scrape-Timeout-Seconds (1 s here): blackbox
# took 1 s minus its 0.5 s offset as the probe's timeout instead of the
# module's 5 s.
grep -q 'timeout_seconds=0.5' "$HS_DIR/blackbox/blackbox.log" || {
  tail -20 "$HS_DIR/blackbox/blackbox.log" >&2
  hs_fail "blackbox did not take its timeout from Prometheus' header"
}
hs_pass
