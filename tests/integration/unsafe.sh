#!/bin/sh
# unsafe: a request that is not safe (RFC 9110 9.2.1: a method other than
# GET, HEAD, OPTIONS, TRACE, or any body) is sent once, cold, without the
# priming of warm mode, as curl sends it, unless rounds are given: then
# stderr says how many will be sent before any is.  Counted in nginx's
# access log, the ground truth of what reached the server.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init unsafe
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
P=$HTTPS_PORT

# Unasked: one request each, exit 0, nothing said on stderr.
for args in "-X DELETE" "-d a=1" "-X PUT -d a=1" "--json {}" "-X PATCH"; do
  method=$(printf '%s\n' "$args" | sed -n 's/^-X \([A-Z]*\).*/\1/p')
  [ -n "$method" ] || method=POST
  hs_nginx_log_clear
  # shellcheck disable=SC2086
  hs_run 0 --format json --resolve "$R" --cacert "$CA_FILE" $args "$B/ok"
  hs_jcheck --shape --closure --all-ok "len(samples) == 1" \
    "samples[0]['mode'] == 'cold'" "d['settings']['rounds'] == 1" \
    "d['settings']['modes'] == ['cold']"
  hs_logged 1 "^$P $method /ok "
  hs_nginx_barrier
  hs_logged 1 "^$P [A-Z]+ /ok "
  [ -s "$HS_ERR" ] && hs_fail "stderr not empty: $(cat "$HS_ERR")"
done

# The dry run says so.
hs_run 0 --dry-run -X DELETE "$B/ok"
grep -q '^unsafe request (DELETE): sent once, cold' "$HS_OUT" ||
  hs_fail "dry run does not say the DELETE is sent once: $(cat "$HS_OUT")"

# Safe methods are measured as before: 2 rounds x cold,warm + 1 priming.
for m in GET HEAD OPTIONS TRACE; do
  hs_nginx_log_clear
  hs_run 0 -n 2 --format json --resolve "$R" --cacert "$CA_FILE" -X "$m" \
    "$B/ok"
  hs_logged 5 "^$P $m /ok "
  hs_nginx_barrier
  hs_logged 5 "^$P [A-Z]+ /ok "
  [ -s "$HS_ERR" ] && hs_fail "stderr not empty for $m: $(cat "$HS_ERR")"
done

# Rounds given: sent as asked, said first on stderr with the count that
# nginx then logs (2 rounds x cold,warm + the warm client's priming).
hs_nginx_log_clear
hs_run 0 -n 2 --format json --resolve "$R" --cacert "$CA_FILE" -X DELETE \
  "$B/ok"
hs_logged 5 "^$P DELETE /ok "
hs_nginx_barrier
hs_logged 5 "^$P [A-Z]+ /ok "
grep -q "5 DELETE requests will be sent to 'origin.test'" "$HS_ERR" ||
  hs_fail "no count of the DELETEs on stderr: $(cat "$HS_ERR")"

hs_nginx_log_clear
hs_run 0 -n 3 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" \
  -d a=1 "$B/ok"
hs_logged 3 "^$P POST /ok "
grep -q "3 POST requests with a body will be sent" "$HS_ERR" ||
  hs_fail "no count of the POSTs on stderr: $(cat "$HS_ERR")"

# A profile states its rounds: it runs as written, and says so.
cat >"$HS_DIR/p.yaml" <<YAML
name: unsafe
rounds: 2
modes: [cold]
defaults:
  resolve: ["$R"]
  cacert: "$CA_FILE"
targets:
  - name: del
    url: "$B/ok"
    method: DELETE
YAML
hs_nginx_log_clear
hs_run 0 run --format json "$HS_DIR/p.yaml"
hs_logged 2 "^$P DELETE /ok "
grep -q "2 DELETE requests will be sent to 'del'" "$HS_ERR" ||
  hs_fail "profile: no count of the DELETEs on stderr: $(cat "$HS_ERR")"

hs_pass
