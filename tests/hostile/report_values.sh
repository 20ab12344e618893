#!/bin/sh
# report_values: "hopsplit report" of a saved document whose members have
# the right JSON type but a value hopsplit never writes.  Each is exit 2
# with the JSON path and what was expected, never a silent default: an
# unknown HTTP version, trace mode, address family or check hop word, an
# ip_family other than 0, 4 or 6, a baseline that names no target, a
# negative phase, total or size, more failed resolvers than a run keeps, a
# comparison that is not an object or whose "paired" is not a boolean, a
# member of a sample or hop of the wrong type (each checked by its row of
# the field table, report_fields.c), a
# head member (vantage, settings ...) after "samples", where it would go
# unread.  Before, each rendered with exit 0 from a default.  The members
# the man page calls optional may be absent or null: the document renders
# (exit 0) and says what it has.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_values
hs_require python3
GOLD=$HOPSPLIT_SRC/tests/data/golden/run.json
D=$HS_DIR/docs
mkdir -p "$D"

# mutate NAME EXPR: D/NAME.json is the golden document after the Python
# statement EXPR (hs_json_mutate: d, ok, h).
mutate() {
  hs_json_mutate "$GOLD" "$D/$1.json" "$2" || hs_fail "mutate $1"
}

# bad NAME EXPR MESSAGE: exit 2, nothing on stdout, and stderr has
# "PATH: WHAT" (MESSAGE, fixed text).
bad() {
  mutate "$1" "$2"
  hs_run 2 report "$D/$1.json"
  grep -qF -- "$3" "$HS_ERR" || { hs_show; hs_fail "$1: no '$3' on stderr"; }
  hs_empty_out
}

# The first successful sample's index in the golden document.
I=$("$HS_PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print([i for i, s in enumerate(d["samples"]) if s["ok"]][0])' "$GOLD")
S="samples[$I]"

bad http 'd["settings"]["http"] = "4"' \
  'settings.http: expected one of "default", "1.1", "2", "3", "3-only"'
bad trace 'd["settings"]["trace"] = "sometimes"' \
  'settings.trace: expected one of "auto", "always", "never"'
bad ip-family 'd["settings"]["ip_family"] = 5' \
  'settings.ip_family: expected 0 (any), 4 or 6'
bad baseline 'd["settings"]["baseline"] = "nosuch"' \
  'settings.baseline: not the name of a target'
bad family 'h["family"] = "ipx"' \
  "$S.hops[0].family: expected one of \"ipv4\", \"ipv6\""
bad fallback-family 'h["fallback"] = {"address": "::1", "family": "ip7", "reason": "refused", "lost_us": 40}' \
  "$S.hops[0].fallback.family: expected one of \"ipv4\", \"ipv6\""
bad status-word 'h["status"] = "200"' \
  "$S.hops[0].status: expected an integer 0..999"
bad status-range 'h["status"] = 1000' \
  "$S.hops[0].status: out of range: expected an integer 0..999"
bad port 'h["remote_port"] = 65536' \
  "$S.hops[0].remote_port: out of range: expected an integer 0..65535"
bad phase-negative 'h["phases_us"]["wait"] = -5' \
  "$S.hops[0].phases_us.wait: out of range: expected an integer 0.."
bad start-negative 'h["start_us"] = -1' \
  "$S.hops[0].start_us: out of range: expected an integer 0.."
bad dns-negative 'h["dns"]["us"] = -1' \
  "$S.hops[0].dns.us: out of range: expected an integer 0.."
bad total-negative 'ok[0]["total_us"] = -5' \
  "$S.total_us: out of range: expected an integer 0.."
bad size-negative 'h["size_download"] = -9' \
  "$S.hops[0].size_download: out of range: expected an integer 0.."
bad failed-servers 'h["dns"]["failed_servers"] = [{"server": "127.0.0.1:53", "rcode": "REFUSED", "us": 1}] * 5' \
  "$S.hops[0].dns.failed_servers: more than 4 resolvers"
bad comparison-number 'd["comparison"] = [5]' \
  'comparison[0]: expected an object'
bad paired-word 'd["comparison"][0]["paired"] = "no"' \
  'comparison[0].paired: expected true or false'
bad check-hop 'd["checks"] = [{"kind": "cache", "target": d["targets"][0]["name"], "hop": "first", "not": ["BYPASS"]}]' \
  'checks[0].hop: expected one of "every", "last"'
bad trace-number 'd["traces"] = [5]' 'traces[0]: expected an object'
bad trace-status 'd["traces"] = [{"origin": "https://a.test", "host": "a.test", "status": "ok"}]' \
  'traces[0].status: expected an integer 0..999'
# json.dumps keeps the order of insertion: a new key comes after samples.
bad vantage-late 'd["vantage"] = "lab"' \
  'vantage: after "samples" (hopsplit writes it before)'
# Read when "samples" begins: a document whose settings come later has none.
bad settings-late 's = d.pop("settings"); d.pop("samples"); d["samples"] = ok; d["settings"] = s' \
  'settings: missing'
bad mode-word 'ok[0]["mode"] = "Cold"' "$S.mode: unknown mode"
# Each row of the field table checks its type: a string, an array of
# strings, seconds, a boolean, an object of strings.
bad tls-number 'h["tls"]["version"] = 13' "$S.hops[0].tls.version: expected a string"
bad tls-object 'h["tls"] = "TLSv1.3"' "$S.hops[0].tls: expected an object"
bad addresses-number 'h["dns"]["addresses"] = ["127.0.0.1", 5]' \
  "$S.hops[0].dns.addresses: expected an array of strings"
bad curl-negative 'h["curl"]["time_total"] = -0.5' \
  "$S.hops[0].curl.time_total: expected seconds (a number, not negative)"
bad reused-word 'h["reused"] = "no"' "$S.hops[0].reused: expected true or false"
bad reused-absent 'h.pop("reused")' "$S.hops[0].reused: expected true or false"
bad header-number 'h["headers"]["x-cache"] = 1' "$S.hops[0].headers.x-cache: expected a string"
bad error-class 'ok[0]["ok"] = False; ok[0]["error"] = {"class": "oops", "message": "m"}' \
  "$S.error.class: unknown error class"
bad error-absent 'ok[0]["ok"] = False; ok[0]["error"] = None' \
  "$S.error.class: unknown error class"
bad ttl-range 'h["dns"]["ttl"] = -2' "$S.hops[0].dns.ttl: out of range: expected an integer -1.."
bad target-unknown 'ok[0]["target"] = "nosuch"' "$S.target: not the name of a target"
bad started-at 'ok[0]["started_at"] = "2026-13-45T99:00:00Z"' \
  "$S.started_at: expected a time like"

# Optional members, absent or null: the document renders.
good() {
  mutate "$1" "$2"
  hs_run 0 report "$D/$1.json"
  [ -s "$HS_OUT" ] || { hs_show; hs_fail "$1: no report"; }
}
good optional-absent 'for k in ("family", "fallback", "timing_anomaly", "local_port", "location", "size_decoded"): h.pop(k, None)
for k in ("http", "trace", "baseline", "prime", "compare_all", "ip_family", "fail"): d["settings"].pop(k, None)
for k in ("idle_us", "primed", "prime_error", "round", "position"): ok[0].pop(k, None)
d.pop("comparison", None); d.pop("traces", None); d.pop("vantage", None)'
good optional-null 'h["family"] = None; h["tls"]["resumed"] = None; d["settings"]["http"] = None; d["settings"]["trace"] = None'
good paired-false 'd["comparison"][0]["paired"] = False'
good family-v6 'h["family"] = "ipv6"; h["fallback"] = {"address": "::1", "family": "ipv6", "reason": "refused", "lost_us": 40}'
hs_pass
