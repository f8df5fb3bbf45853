#!/usr/bin/env bash
# ferry info/dump/validate/convert on PAA textures written here byte by byte
# (docs/formats/paa.md): an ARGB1555 1 x 1 (0xFC1F: magenta, opaque; a
# literal-only LZSS stream and its signed sum 0x1F - 4 = 27) and a DXT1
# 4 x 4 (all red); PAA written from PNGs made here; then the hemtt corpus
# files (read, and written again from their PNGs) when ../shared is there.
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

# Writing PAA from images. PNGs made here: 8 x 8 opaque (a colour ramp),
# 8 x 8 with alpha (left half transparent), 6 x 4 (not a power of two).
mkpng() { # OUT W H ALPHA(0/1)
  python3 -c 'import sys,zlib,struct
out,w,h,al=sys.argv[1],int(sys.argv[2]),int(sys.argv[3]),sys.argv[4]=="1"
raw=b"".join(b"\0"+b"".join(bytes([x*30%256,y*30%256,128,(0 if x<w//2 else 255)]) for x in range(w)) for y in range(h))
def ch(t,d): return struct.pack(">I",len(d))+t+d+struct.pack(">I",zlib.crc32(t+d)&0xffffffff)
if not al: raw=b"".join(b"\0"+b"".join(bytes([x*30%256,y*30%256,128]) for x in range(w)) for y in range(h))
open(out,"wb").write(b"\x89PNG\r\n\x1a\n"+ch(b"IHDR",struct.pack(">IIBBBBB",w,h,8,6 if al else 2,0,0,0))+ch(b"IDAT",zlib.compress(raw))+ch(b"IEND",b""))' "$@"
}
mkpng "$tmp/o.png" 8 8 0
mkpng "$tmp/a.png" 8 8 1
mkpng "$tmp/npot.png" 6 4 0
expect 0 "png to paa" -- "$FERRY" convert "$tmp/o.png" "$tmp/o.paa"
check "png to paa says what it wrote" grep -q -- "-> $tmp/o.paa: DXT1, 8 x 8, 2 mipmaps down to 4 x 4 (0 LZO-compressed), sRGB colour" "$tmp/err"
expect 0 "written paa validates" -- "$FERRY" validate "$tmp/o.paa"
check "written paa: 0 errors, 0 warnings" grep -q "0 errors, 0 warnings" "$tmp/out"
expect 0 "written paa rewrites" -- "$FERRY" convert "$tmp/o.paa" "$tmp/o2.paa"
check "written paa: byte-identical rewrite" cmp -s "$tmp/o.paa" "$tmp/o2.paa"
expect 0 "written paa dump" -- "$FERRY" dump "$tmp/o.paa"
check "dump: tags" grep -q "tag CGVA" "$tmp/out"
check "dump: offsets tag" grep -q "tag SFFO" "$tmp/out"
check "dump: no flag tag when opaque" sh -c "! grep -q 'tag GALF' '$tmp/out'"
check "dump: mip 1 is 4 x 4" grep -q "mip 1 at .*: 4 x 4, raw, 8 bytes" "$tmp/out"
expect 0 "written paa dump --json" -- "$FERRY" dump --json "$tmp/o.paa"
check "dump --json: the type's value, each tag's bytes, the end, as the text shows them" \
  jq -e '.type_value == 65281 and .type == "DXT1" and all(.tags[]; (.data | length) == 2 * .size)
    and .end_offset > 0 and .trailer_size == 2' "$tmp/out"
expect 0 "written paa back to png" -- "$FERRY" convert "$tmp/o.paa" "$tmp/o3.png"
expect 0 "alpha png to pac" -- "$FERRY" convert "$tmp/a.png" "$tmp/a.pac"
check "alpha: DXT5" grep -q "DXT5, 8 x 8" "$tmp/err"
expect 0 "alpha dump" -- "$FERRY" dump "$tmp/a.pac"
check "alpha: flag tag" grep -q "tag GALF at .*: 01 00 00 00" "$tmp/out"
expect 0 "alpha --dxt1" -- "$FERRY" convert --dxt1 "$tmp/a.png" "$tmp/a1.paa"
check "--dxt1: DXT1" grep -q "DXT1, 8 x 8" "$tmp/err"
expect 0 "data map by name" -- "$FERRY" convert "$tmp/o.png" "$tmp/x_nohq.paa"
check "_nohq: linear" grep -q "data map (no sRGB)" "$tmp/err"
expect 0 "--srgb over the name" -- "$FERRY" convert --srgb "$tmp/o.png" "$tmp/y_nohq.paa"
check "--srgb: colour" grep -q "sRGB colour" "$tmp/err"
# TGA (8 x 8, 32-bit, top-left origin: descriptor 0x28) and DDS (8 x 8 DXT1,
# four blocks of red 0xF800) inputs.
python3 -c 'import sys,struct
t=struct.pack("<BBBHHBHHHHBB",0,0,2,0,0,0,0,0,8,8,32,0x28)+bytes([0,0,255,255])*64
open(sys.argv[1],"wb").write(t)
h=struct.pack("<4sIIIIIII44xII4s20xI16x","DDS ".encode(),124,0x1007,8,8,0,0,0,32,4,b"DXT1",0x1000)
open(sys.argv[2],"wb").write(h+bytes([0,0xF8,0,0xF8,0,0,0,0])*4)' "$tmp/t.tga" "$tmp/d.dds"
expect 0 "tga to paa" -- "$FERRY" convert "$tmp/t.tga" "$tmp/t.paa"
check "tga: DXT1 8 x 8" grep -q "DXT1, 8 x 8, 2 mipmaps" "$tmp/err"
expect 0 "tga paa to png" -- "$FERRY" convert "$tmp/t.paa" "$tmp/t.png"
check "tga: red" [ "$(pixel "$tmp/t.png")" = "255 0 0 255" ]
expect 0 "dds to pac" -- "$FERRY" convert "$tmp/d.dds" "$tmp/d.pac"
check "dds: DXT1 8 x 8" grep -q "DXT1, 8 x 8, 2 mipmaps" "$tmp/err"
expect 0 "dds pac to png" -- "$FERRY" convert "$tmp/d.pac" "$tmp/d.png" --mip 1
check "dds: red at mipmap 1" [ "$(pixel "$tmp/d.png")" = "255 0 0 255" ]
expect 1 "not a power of two" -- "$FERRY" convert "$tmp/npot.png" "$tmp/npot.paa"
check "npot: says which side and what to do" grep -q "width 6 is not a power of two.*resize it (to 4 or 8)" "$tmp/err"
check "npot: nothing written" [ ! -e "$tmp/npot.paa" ]
printf 'not an image at all' >"$tmp/junk.png"
expect 1 "not an image" -- "$FERRY" convert "$tmp/junk.png" "$tmp/junk.paa"
check "not an image: said so" grep -q "not a known format: expected a PNG" "$tmp/err"
expect 1 "a model to paa" -- "$FERRY" convert "$SRC/samples/alamo/crate.alo" "$tmp/crate.paa"
check "a model is not an image" grep -q "not an image (its format is" "$tmp/err"
expect 2 "--mip with an image input" -- "$FERRY" convert "$tmp/o.png" "$tmp/o4.paa" --mip 1
expect 2 "--dxt1 and --dxt5" -- "$FERRY" convert --dxt1 --dxt5 "$tmp/o.png" "$tmp/o4.paa"
expect 2 "--dxt5 on a paa input" -- "$FERRY" convert --dxt5 "$tmp/o.paa" "$tmp/o4.paa"
check "help names the writer" sh -c "'$FERRY' convert --help | grep -q -- '--no-lzo'"

H=$SHARED/corpus/paa/hemtt
if [ -n "$SHARED" ] && [ -d "$H" ]; then
  for f in "$H"/*.paa; do
    b=$(basename "$f" .paa)
    expect 0 "validate $b" -- "$FERRY" validate "$f"
    expect 0 "png $b" -- "$FERRY" convert "$f" "$tmp/$b.png"
    expect 0 "rewrite $b" -- "$FERRY" convert "$f" "$tmp/$b.paa"
    check "rewrite $b: identical" cmp -s "$f" "$tmp/$b.paa"
    # Their pixels written again as a texture: valid, rewritten byte for byte.
    if [ "$b" != mountain_converted ] && [ "$b" != argba5 ]; then # sides not powers of two
      expect 0 "png $b to paa" -- "$FERRY" convert "$tmp/$b.png" "$tmp/$b.w.paa"
      expect 0 "validate written $b" -- "$FERRY" validate "$tmp/$b.w.paa"
      check "written $b: 0 errors" grep -q " 0 errors" "$tmp/out"
      expect 0 "rewrite written $b" -- "$FERRY" convert "$tmp/$b.w.paa" "$tmp/$b.w2.paa"
      check "written $b: identical" cmp -s "$tmp/$b.w.paa" "$tmp/$b.w2.paa"
    fi
  done
  expect 1 "non-power-of-two corpus image" -- "$FERRY" convert "$tmp/mountain_converted.png" "$tmp/m.w.paa"
  expect 0 "--mip 3" -- "$FERRY" convert "$H/dxt1.paa" "$tmp/m3.png" --mip 3
else
  left_out "the corpus textures ($H is absent)"
fi

finish
