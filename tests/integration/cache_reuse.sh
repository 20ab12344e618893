#!/bin/sh
# cache_reuse: a body a client would keep and show again, which
# Cache-Control forbids it to keep (issue 38 item 4).  nginx serves the
# same 8 MiB file as image/jpeg and as text/html, each with no-store, and
# as image/jpeg with private.  Ground truth for the headers is curl's view
# of the same URLs; a warm sample of 8 MiB on loopback takes well over the
# 1 ms floor of a finding.  Expected: the no-store image gets a cache
# finding whose saving is what a repeat view pays (the warm p50 total of the
# JSON, basis repeat-view, not a part of the cold total); the no-store page
# and the private image get none of that kind (a private response may be
# kept by a browser).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init cache_reuse
hs_require nginx dnsmasq openssl python3 curl
hs_make_ca "$HS_DIR/pki"
mkdir -p "$HS_DIR/nginx/locations.d" "$HS_DIR/nginx/www" ||
  hs_fail "cannot create the nginx directories"
head -c 8388608 /dev/urandom >"$HS_DIR/nginx/www/photo.bin" ||
  hs_fail "cannot write the body"
cat >"$HS_DIR/nginx/locations.d/reuse.conf" <<EOC
location = /photo.jpg {
  default_type image/jpeg;
  add_header Cache-Control "no-store" always;
  alias $HS_DIR/nginx/www/photo.bin;
}
location = /page.html {
  default_type text/html;
  add_header Cache-Control "no-store" always;
  alias $HS_DIR/nginx/www/photo.bin;
}
location = /private.jpg {
  default_type image/jpeg;
  add_header Cache-Control "private" always;
  alias $HS_DIR/nginx/www/photo.bin;
}
EOC
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
B="https://origin.test:$HTTPS_PORT"
DNS="127.0.0.1:$DNS_PORT"

# The servers' side, as curl sees it.
for u in photo.jpg page.html private.jpg; do
  hs_origin_curl -o /dev/null -D "$HS_DIR/$u.h" "$B/$u" ||
    hs_fail "curl cannot fetch $u"
done
grep -qi '^content-type: image/jpeg' "$HS_DIR/photo.jpg.h" &&
  grep -qi '^cache-control: no-store' "$HS_DIR/photo.jpg.h" &&
  grep -qi '^content-type: text/html' "$HS_DIR/page.html.h" &&
  grep -qi '^cache-control: private' "$HS_DIR/private.jpg.h" ||
  hs_fail "nginx does not send the headers this test needs"

hs_run 0 -n 5 --dns-server "$DNS" --cacert "$CA_FILE" \
  -o "$HS_DIR/r.json" photo="$B/photo.jpg" page="$B/page.html" \
  private="$B/private.jpg"
cp "$HS_OUT" "$HS_DIR/r.txt"
"$HS_PYTHON" - "$HS_DIR/r.json" <<'PY' || { cat "$HS_DIR/r.txt" >&2; hs_fail "repeat-view findings"; }
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["targets"]}
def repeat(name):
    return [f for f in t[name]["findings"]
            if f["kind"] == "cache" and f["basis"] == "repeat-view"]
f = repeat("photo")
assert len(f) == 1, t["photo"]["findings"]
warm = t["photo"]["summary"]["warm"]["phases"]["total"]["p50_us"]
assert f[0]["saving_us"] == warm, (f[0]["saving_us"], warm)
assert f[0]["part_of_total"] is False, f[0]
assert "8.0 MiB image/jpeg" in f[0]["title"], f[0]["title"]
assert not repeat("page"), t["page"]["findings"]
assert not repeat("private"), t["private"]["findings"]
print("photo: repeat view %d us = warm p50 %d us" % (f[0]["saving_us"], warm))
PY
grep -q 'each repeat view pays' "$HS_DIR/r.txt" ||
  hs_fail "the text has no repeat-view finding"
hs_pass
