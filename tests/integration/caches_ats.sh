#!/bin/sh
# caches_ats: hopsplit's cache verdict and vendor against the cache's own log
# for every response kind of tests/server/caches.sh, stock and with an
# RFC 9211 Cache-Status field added by the cache's configuration (cs),
# and bare: as installed, with no Via cache codes and no status header, so
# the verdicts are inferred (Age across samples, RFC 9111) and say so.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/caches.sh"
hs_init caches_ats
hs_require nginx traffic_server curl python3 timeout
hc_start_origin "$HS_DIR/origin"
hc_start s ats stock "$HC_ORIGIN_PORT"
hc_start c ats cs "$HC_ORIGIN_PORT"
hc_start b ats bare "$HC_ORIGIN_PORT"
hc_run_config ats s trafficserver
hc_run_config ats-cs c trafficserver
HC_PAUSE=1100ms
hc_run_config ats-bare b trafficserver
HC_PAUSE=
hc_score
# Bare Traffic Server said nothing of itself: every verdict says it is
# inferred, and its first reason says from what (Date and Age across
# samples, or RFC 9111).
"$HS_PYTHON" - "$HS_DIR"/json/ats-bare-*.json <<'EOF' ||
import json, sys
bad = []
for f in sys.argv[1:]:
    d = json.load(open(f, encoding="utf-8"))
    c = d["targets"][0]["cache"][0]
    if not c["inferred"] or not c["reasons"][0].startswith("inferred "):
        bad.append("%s: hop cache %s %r" % (f, c["inferred"], c["reasons"][:1]))
    for s in d["samples"]:
        if not s["hops"][0]["cache"]["inferred"]:
            bad.append("%s: sample %s not inferred" % (f, s["round"]))
print("\n".join(bad))
sys.exit(1 if bad or not sys.argv[1:] else 0)
EOF
  hs_fail "bare Traffic Server's verdicts are not marked inferred"
hs_pass
