#!/bin/sh
# lab/projection: --project on the lab (issue 37), checked for structure,
# never for its figures (tests/bench/projection measures how well it holds).
# A 20 ms link (RTT 40 ms) serves a 20 KB and a 450 KB body, the larger one
# also behind a redirect to a second host name; one run measures them cold
# and warm and projects them onto slow-4g and a custom network.  From the
# JSON document, against the samples' own facts (the servers' TLS version,
# which hops opened connections):
# - every target has a projection per network and mode, its total the sum
#   of its hops and the time between them, never below its round trips x
#   the network's RTT, and above the measured total (both networks are
#   slower than the lab's link);
# - a cold hop counts DNS, TCP, TLS 1.3 and the request as one round trip
#   each, plus a round trip per window of its response after the first; a
#   warm hop only the request and its windows;
# - the 450 KB body needs at least as many windows as the 20 KB one, and
#   more time on each network;
# - every finding is there on each network, ranked by its saving there;
#   every comparison has its projected verdict, from each round's pair
#   projected (with 3 rounds, no 95 % interval: no clear difference);
# - text, --brief, the summary CSV and HTML show the projection; hopsplit
#   report --project 3g projects the saved document onto another network;
#   an unknown network is a usage error with a suggestion.
. "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HOPSPLIT_SRC/tests/lab/lab.sh"
lab_init lab-projection
lab_up 20
mkdir -p "$LAB_DIR/nginx/www/f" &&
  head -c 20000 /dev/urandom >"$LAB_DIR/nginx/www/f/small" &&
  head -c 450000 /dev/urandom >"$LAB_DIR/nginx/www/f/large" ||
  hs_fail "cannot write the bodies"

NETS='slow-4g,rtt=100ms,down=5Mbit,up=1Mbit,name=office'
lab_run 0 -n 3 --mode cold,warm --dns-server "$LAB_DNS" --cacert "$CA_FILE" \
  --project "$NETS" -o "$HS_DIR/p.json" -o "$HS_DIR/p.summary.csv" \
  -o "$HS_DIR/p.html" "small=${LAB_URL}f/small" "large=${LAB_URL}f/large" \
  "redirected=${LAB_URL}r2/f/large"
cp "$HS_OUT" "$HS_DIR/p.txt"
"$HS_PYTHON" - "$HS_DIR/p.json" <<'PY' || hs_fail "the projection's structure"
import json, sys
doc = json.load(open(sys.argv[1]))
nets = {"slow-4g": 150000, "office": 100000}
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)
check(doc["settings"]["project"][0] == "slow-4g", "settings.project")
by = {}
for t in doc["targets"]:
    ps = t["projection"]
    check(sorted((p["network"], p["mode"]) for p in ps) ==
          sorted((n, m) for n in nets for m in ("cold", "warm")),
          "%s: a projection per network and mode" % t["name"])
    for p in ps:
        s = doc["samples"][p["sample"]]
        where = "%s %s %s" % (t["name"], p["network"], p["mode"])
        check(s["target"] == t["name"] and s["mode"] == p["mode"],
              where + ": the projected sample is the target's")
        check(p["rtt_us"] == nets[p["network"]], where + ": rtt_us")
        check(p["measured_total_us"] == s["total_us"], where + ": measured")
        check(len(p["hops"]) == len(s["hops"]), where + ": a row per hop")
        tot = p["other_us"] + sum(h["phases_us"]["total"] for h in p["hops"])
        check(tot == p["total_us"], where + ": total = hops + other")
        check(p["floor_us"] == p["round_trips"] * p["rtt_us"], where + ": floor")
        check(p["total_us"] >= p["floor_us"], where + ": total below floor")
        check(p["total_us"] > s["total_us"], where + ": not above measured")
        check(p["round_trips"] == sum(h["round_trips"] for h in p["hops"]),
              where + ": round trips add up")
        for ph, sh in zip(p["hops"], s["hops"]):
            want = 1 + ph["body_rounds"] - 1
            if not sh["reused"]:
                want += 2  # TCP, TLS 1.3
                check(sh["tls"]["version"] == "TLSv1.3", where + ": TLS 1.3")
                check(ph["phases_us"]["connect"] >= p["rtt_us"], where + ": connect")
                check(ph["phases_us"]["tls"] >= p["rtt_us"], where + ": tls")
            else:
                check(ph["phases_us"]["connect"] == 0 and
                      ph["phases_us"]["tls"] == 0, where + ": reused: no handshake")
            if sh["dns"]["us"] > 0 and not sh["dns"]["cached"]:
                want += 1
            check(ph["round_trips"] == want,
                  where + ": hop %d counts %d round trips, not %d" %
                  (ph["hop"], ph["round_trips"], want))
            check(ph["phases_us"]["wait"] >= p["rtt_us"], where + ": wait")
            check(ph["response_bytes"] >= sh["size_download"], where + ": bytes")
        by[(t["name"], p["network"], p["mode"])] = p
    if t["findings"]:
        for n in nets:
            cold = [p for p in ps if p["network"] == n and p["mode"] == "cold"][0]
            fs = cold["findings"]
            check(sorted(f["measured_rank"] for f in fs) ==
                  list(range(1, len(t["findings"]) + 1)), t["name"] + ": findings")
            check(all(fs[i]["saving_us"] >= fs[i + 1]["saving_us"]
                      for i in range(len(fs) - 1)), t["name"] + ": ranked")
for n in nets:
    for m in ("cold", "warm"):
        a, b = by[("small", n, m)], by[("large", n, m)]
        check(b["hops"][0]["body_rounds"] >= a["hops"][0]["body_rounds"],
              "rounds monotone in size (%s %s)" % (n, m))
        check(b["hops"][0]["phases_us"]["transfer"] >
              a["hops"][0]["phases_us"]["transfer"], "transfer grows with size")
    r = by[("redirected", n, "cold")]
    check(len(r["hops"]) == 2 and r["total_us"] > by[("large", n, "cold")]["total_us"],
          "the redirect costs on %s" % n)
cmp = {(c["target"], c["baseline"], c["mode"]): c for c in doc["comparison"]}
pcs = doc["projected_comparison"]
check(len(pcs) == len(nets) * len(doc["comparison"]), "a projected verdict each")
for pc in pcs:
    c = cmp[(pc["target"], pc["baseline"], pc["mode"])]
    check(pc["ci_low_us"] <= pc["median_diff_us"] <= pc["ci_high_us"],
          "the interval holds the projected difference")
    check(pc["verdict"] == "no clear difference", "3 pairs: no 95 % interval")
    check(pc["measured_median_diff_us"] == c["median_diff_us"], "measured diff")
    check(pc["verdict"] in ("faster", "slower", "no clear difference"), "verdict")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
grep -q 'projected onto slow-4g (RTT 150 ms, 1.6 Mbit/s down, 750 kbit/s up)' \
  "$HS_DIR/p.txt" || hs_fail "text: no table for slow-4g"
grep -q 'findings on office' "$HS_DIR/p.txt" ||
  hs_fail "text: no findings re-ranked on office"
grep -q '^comparison on each network' "$HS_DIR/p.txt" ||
  hs_fail "text: no verdicts per network"
grep -q '^projection,small,,cold,total,' "$HS_DIR/p.summary.csv" ||
  hs_fail "summary CSV: no projection rows"
grep -q '^projected-comparison,large,small,cold,total,' "$HS_DIR/p.summary.csv" ||
  hs_fail "summary CSV: no projected verdicts"
grep -q '<th>office (RTT 100 ms' "$HS_DIR/p.html" ||
  hs_fail "HTML: no column for office"
hs_run 0 report --brief --project 3g "$HS_DIR/p.json"
grep -q '^large cold on 3g: ' "$HS_OUT" || hs_fail "report --project 3g --brief"
hs_run 2 --project slow4g "${LAB_URL}ok"
grep -q "did you mean slow-4g" "$HS_ERR" || hs_fail "no suggestion for slow4g"
hs_run 2 --project rtt=150ms,down=1.6,up=750kbit "${LAB_URL}ok"
grep -q "bad part 'down=1.6'" "$HS_ERR" || hs_fail "the bad part is not named"
hs_pass
