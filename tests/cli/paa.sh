#!/usr/bin/env bash
# ferry info/dump/validate/convert on PAA textures written here byte by byte
# (docs/formats/paa.md): an ARGB1555 1 x 1 (0xFC1F: magenta, opaque; a
# literal-only LZSS stream and its signed sum 0x1F - 4 = 27) and a DXT1
# 4 x 4 (all red), then the hemtt corpus files when ../shared is there.
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

printf '\x55\x15\x00\x00\x01\x00\x01\x00\x07\x00\x00\x03\x1f\xfc\x1b\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$tmp/m.paa"
printf '\x01\xff\x00\x00\x04\x00\x04\x00\x08\x00\x00\x00\xf8\x00\xf8\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$tmp/r.pac"

expect 0 "info" -- "$FERRY" info "$tmp/m.paa"
check "info: type" grep -q "ARGB1555" "$tmp/out"
check "info: size" grep -q "1 x 1, 1 mipmap (LZSS-compressed)" "$tmp/out"
expect 0 "info --json" -- "$FERRY" info --json "$tmp/r.pac"
check "info --json: type" grep -q '"type": "DXT1"' "$tmp/out"
expect 0 "dump" -- "$FERRY" dump "$tmp/r.pac"
check "dump: mip" grep -q "mip 0 at 0x4: 4 x 4, raw, 8 bytes" "$tmp/out"
expect 0 "validate" -- "$FERRY" validate "$tmp/m.paa"
check "validate: 0 errors" grep -q "0 errors" "$tmp/out"
expect 0 "rewrite" -- "$FERRY" convert "$tmp/m.paa" "$tmp/m2.paa"
check "rewrite: byte-identical" cmp -s "$tmp/m.paa" "$tmp/m2.paa"
expect 0 "to png" -- "$FERRY" convert "$tmp/m.paa" "$tmp/m.png"
check "to png says what it wrote" grep -q -- "-> $tmp/m.png: mipmap 0 (.* in the file), .* RGBA PNG" "$tmp/err"
# The first pixel of the PNG as R G B A (after the row's filter byte; the
# first pixel of the first row is stored as is under every filter; an RGB
# PNG, written for opaque images, gives alpha 255).
pixel() {
  python3 -c 'import sys,zlib,struct
d=open(sys.argv[1],"rb").read(); i=8; idat=b""; ct=6
while i < len(d):
    n,=struct.unpack(">I",d[i:i+4]); t=d[i+4:i+8]
    if t==b"IHDR": ct=d[i+8+9]
    if t==b"IDAT": idat+=d[i+8:i+8+n]
    i+=12+n
p=list(zlib.decompress(idat)[1:5 if ct==6 else 4])
print(" ".join(str(b) for b in p + ([255] if ct==2 else [])))' "$1"
}
check "png: magenta" [ "$(pixel "$tmp/m.png")" = "255 0 255 255" ]
expect 0 "dxt1 to png" -- "$FERRY" convert "$tmp/r.pac" "$tmp/r.png"
check "png: red" [ "$(pixel "$tmp/r.png")" = "255 0 0 255" ]
expect 2 "--mip past the last" -- "$FERRY" convert "$tmp/r.pac" "$tmp/r1.png" --mip 1
expect 2 "--mip with a paa output" -- "$FERRY" convert "$tmp/r.pac" "$tmp/r1.paa" --mip 0
expect 2 "unsupported output" -- "$FERRY" convert "$tmp/r.pac" "$tmp/r.glb"
head -c 14 "$tmp/r.pac" >"$tmp/cut.pac"
expect 1 "truncated" -- "$FERRY" info "$tmp/cut.pac"
check "truncated: located" grep -q "offset 0xb (11), at mip\[0\]" "$tmp/err"
expect 0 "convert --help" -- "$FERRY" convert --help
check "help names --mip" grep -q -- "--mip N" "$tmp/out"

H=$SHARED/corpus/paa/hemtt
if [ -n "$SHARED" ] && [ -d "$H" ]; then
  for f in "$H"/*.paa; do
    b=$(basename "$f" .paa)
    expect 0 "validate $b" -- "$FERRY" validate "$f"
    expect 0 "png $b" -- "$FERRY" convert "$f" "$tmp/$b.png"
    expect 0 "rewrite $b" -- "$FERRY" convert "$f" "$tmp/$b.paa"
    check "rewrite $b: identical" cmp -s "$f" "$tmp/$b.paa"
  done
  expect 0 "--mip 3" -- "$FERRY" convert "$H/dxt1.paa" "$tmp/m3.png" --mip 3
fi

finish
