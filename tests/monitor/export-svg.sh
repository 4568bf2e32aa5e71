#!/bin/sh
# export-svg.sh - --flamegraph: well-formed SVG whose cg_hot boxes hold
# the samples monitor counted there, each colour class (data-c) in a band
# of hue of its own; rendered by headless Chromium with the search for
# cg_hot done (file.svg#s=cg_hot), the highlighted boxes must cover the
# width cg_hot's share says; and on a profile where the searched function
# calls itself (tests/profile/test-export-svg), the share the SVG's own
# script prints ("Matched: ") must be the true one, counted once.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/monitor/export-lib.sh"
need perf_event
[ -n "${PYTHON3:-}" ] || skip "no python3"

record --flamegraph out.svg
"$PYTHON3" - out.svg "$(summary_count cg_hot)" <<'PY' > check 2>&1 && ok "$(cat check)" || fail "$(cat check)"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
boxes = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
         if g.get("data-n") == "cg_hot"]
n = sum(int(g.get("data-s")) for g in boxes)
assert n == int(sys.argv[2]), (n, sys.argv[2])
title = boxes[0].find("s:title", ns).text
assert "cg-helper-fp" in title and "samples" in title, title
assert root.find("s:script", ns) is not None
print("well-formed; %d cg_hot boxes hold its %d samples: %s" % (len(boxes), n, title))
PY
# the hues of each class, from the fills of the boxes in the file
"$PYTHON3" - out.svg <<'PY' > hues 2>&1 && ok "$(cat hues)" || fail "$(cat hues)"
import colorsys, re, sys
bands = {}
for m in re.finditer(r'data-c="([a-z]+)".*?<rect [^>]* fill="rgb\((\d+),(\d+),(\d+)\)"',
                     open(sys.argv[1]).read()):
    r, g, b = (int(v) / 255 for v in m.group(2, 3, 4))
    h, l, s = colorsys.rgb_to_hls(r, g, b)
    if s == 0:
        continue
    h = h * 360 - (360 if h > 0.5 else 0)
    lo, hi = bands.get(m.group(1), (h, h))
    bands[m.group(1)] = (min(lo, h), max(hi, h))
bands.pop("root", None)
assert "user" in bands, bands
for a in bands:
    for b in bands:
        if a < b:
            assert bands[a][1] < bands[b][0] or bands[b][1] < bands[a][0], (a, b, bands)
print("hues apart: " + ", ".join("%s %.0f..%.0f" % (k, v[0], v[1]) for k, v in sorted(bands.items())))
PY

if ! command -v chromium >/dev/null 2>&1; then
	echo "note: no chromium (apt-get install chromium): not rendered"
	done_testing
fi
# Search's "Matched" from the counts: rec nested in itself, whose rounded
# positions once counted it twice (19.20% for a true 9.82%)
want=$("$top_builddir/tests/profile/test-export-svg" rec.svg) ||
	fail "the recursion fixture: $want"
HOME=$tmpdir timeout 120 chromium --headless=new --no-sandbox --disable-gpu \
	--dump-dom "file://$tmpdir/rec.svg#s=%5Erec%24" > rec.dom 2> chromium.log
got=$(sed -n 's/.*<text id="matched"[^>]*>Matched: \([0-9.]*\)%<.*/\1/p' rec.dom)
[ -n "$got" ] && [ "$got" = "$want" ] &&
	ok "search for ^rec\$ nested in itself: Matched $got%, the true share" ||
	fail "search for ^rec\$: Matched '$got'%, true $want%: $(grep -o '<text id="matched"[^<]*' rec.dom)"

h=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' out.svg)
HOME=$tmpdir timeout 120 chromium --headless=new --no-sandbox --disable-gpu \
	--hide-scrollbars --window-size=1200,"$h" --screenshot="$tmpdir/out.png" \
	"file://$tmpdir/out.svg#s=cg_hot" > chromium.log 2>&1
[ -s out.png ] || { cat chromium.log; fail "chromium rendered nothing"; done_testing; }
[ -n "${KEEP_PNG:-}" ] && cp out.png "$KEEP_PNG"
"$PYTHON3" - out.png "$(summary_count cg_hot)" "$samples" <<'PY' > png 2>&1 && ok "$(cat png)" || fail "$(cat png)"
# the PNG decoded by hand (zlib, the five filters): the columns where
# the search's magenta shows, against cg_hot's share of the width
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 4 if ctype == 6 else 3
raw, stride = zlib.decompress(idat), w * bpp
rows, prev, i = [], bytearray(stride), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
cols = set()
for line in rows:
    for x in range(w):
        r, g, b = line[x * bpp:x * bpp + 3]
        if r > 200 and g < 40 and b > 200:
            cols.add(x)
share = float(sys.argv[2]) / float(sys.argv[3])
want = share * (w - 20)
assert w == 1200 and len(cols) >= 0.9 * want, (w, len(cols), want)
print("rendered %dx%d; the search for cg_hot lights %d columns (its share: %.0f)"
      % (w, h, len(cols), want))
PY
done_testing
