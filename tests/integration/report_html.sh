#!/bin/sh
# report_html: the HTML report of a saved run (tests/data/golden/run.json)
# opens in a real headless browser (Debian chromium) kept off the network,
# and its screenshot is not blank: many non-white pixels and the colours
# of the charts (the phase fills of the waterfalls and strip plots).
# Skips without chromium unless HOPSPLIT_TEST_REQUIRE is set.  To look at
# it yourself:
#   hopsplit report -o r.html tests/data/golden/run.json
#   chromium --headless --no-sandbox --disable-gpu --screenshot=r.png \
#     --window-size=1000,2400 file://$PWD/r.html
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_html
CHROMIUM=
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then
    CHROMIUM=$c
    break
  fi
done
[ -n "$CHROMIUM" ] || hs_require chromium
hs_require python3 timeout

hs_run 0 report -o "$HS_DIR/r.html" --format json \
  "$HOPSPLIT_SRC/tests/data/golden/run.json"
mkdir -p "$HS_DIR/profile"
# Flags that keep the browser off the network and away from the user's
# profile; the page itself references nothing outside the file.  Without
# --host-resolver-rules Chromium asks the machine's resolver for
# update.googleapis.com, accounts.google.com and clients2.google.com.
timeout -k 5 $((90 * HS_TF)) "$CHROMIUM" --headless --no-sandbox --disable-gpu \
  --host-resolver-rules='MAP * ~NOTFOUND' \
  --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --disable-extensions \
  --disable-dev-shm-usage --hide-scrollbars --mute-audio \
  --user-data-dir="$HS_DIR/profile" --window-size=1000,2400 \
  --screenshot="$HS_DIR/shot.png" "file://$HS_DIR/r.html" \
  >"$HS_DIR/chromium.log" 2>&1
[ -s "$HS_DIR/shot.png" ] || {
  tail -20 "$HS_DIR/chromium.log" >&2
  hs_fail "chromium wrote no screenshot"
}
"$HS_PYTHON" - "$HS_DIR/shot.png" <<'PY' || hs_fail "the screenshot looks blank"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), "PNG type %d/%d" % (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
rows = []
i = 0
for y in range(h):
    f = raw[i]
    line = bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[x] = (line[x] + pr) & 255
    rows.append(bytes(line))
    prev = line
nonwhite = 0
colours = set()
for line in rows:
    for x in range(0, stride, bpp):
        px = line[x:x + 3]
        if px != b"\xff\xff\xff":
            nonwhite += 1
        colours.add(bytes(px))
# Phase fills of the charts (report_html.c): dns, connect, tls, wait.
want = {bytes.fromhex(c) for c in ("4db6ac", "ffb74d", "ba68c8", "81c784")}
found = want & colours
print("%dx%d, %d non-white pixels, %d colours, chart colours %d of %d"
      % (w, h, nonwhite, len(colours), len(found), len(want)))
sys.exit(0 if nonwhite > w * h // 50 and len(found) >= 3 else 1)
PY
hs_pass
