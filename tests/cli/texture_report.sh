#!/usr/bin/env bash
# What a conversion says about its textures: a .gltf's images are written
# beside it (not "embedded"); a texture that exists but is a FIFO is
# reported as such, not as missing; a texture that cannot be decoded is
# listed among the missing ones ("could not be decoded"), in the summary,
# the batch's JSON and the scene's extras.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
S="$SRC/samples/alamo"
T="timeout 20"
# A 2x2 uncompressed 32-bit TGA.
tga() { printf '\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x02\x00\x20\x08'; printf '\xff\x00\x00\xff%.0s' 1 2 3 4; }

mkdir -p "$tmp/m/Models" "$tmp/m/Textures"
cp "$S/crate.alo" "$tmp/m/Models/"
tga >"$tmp/m/Textures/crate.tga"
expect 0 ".gltf with an image" -- $T "$FERRY" convert "$tmp/m/Models/crate.alo" "$tmp/m/o.gltf"
check ".gltf: images written" grep -q "0 animations, 1 image written, 0 warnings" "$tmp/err"
expect 0 ".glb with an image" -- $T "$FERRY" convert "$tmp/m/Models/crate.alo" "$tmp/m/o.glb"
check ".glb: images embedded" grep -q "0 animations, 1 image embedded, 0 warnings" "$tmp/err"

rm "$tmp/m/Textures/crate.tga"
mkfifo "$tmp/m/Textures/crate.tga"
expect 0 "a FIFO texture does not block" -- $T "$FERRY" convert "$tmp/m/Models/crate.alo" "$tmp/m/f.glb"
check "the FIFO is named as such" grep -q "texture crate.tga cannot be read (.*crate.tga is a FIFO (named pipe), not a regular file" "$tmp/err"
check "not called not found" bash -c '! grep -q "not found" "$1"' _ "$tmp/err"
check "listed as unreadable" grep -q "1 texture missing: crate.tga (could not be read)" "$tmp/err"
rm "$tmp/m/Textures/crate.tga"

# A DDS whose header claims 65536 x 65536 (refused as too large).
{ printf 'DDS |\x00\x00\x00\x07\x10\x0a\x00\x00\x00\x01\x00\x00\x00\x01\x00'; head -c 108 /dev/zero; } >"$tmp/m/Textures/crate.dds"
expect 0 "an undecodable texture" -- $T "$FERRY" convert "$tmp/m/Models/crate.alo" "$tmp/m/u.glb"
check "warned about" grep -q "texture crate.tga cannot be decoded" "$tmp/err"
check "listed in the summary" grep -q "1 texture missing: crate.tga (could not be decoded)" "$tmp/err"
extras() { node -e '
const b = require("fs").readFileSync(process.argv[1]); const n = b.readUInt32LE(12);
const j = JSON.parse(b.subarray(20, 20 + n).toString()); console.log(JSON.stringify(j.scenes[0].extras || j.extras || {}));' "$1"; }
if command -v node >/dev/null; then
  extras "$tmp/m/u.glb" >"$tmp/x.json"
  check "listed in the scene's extras" jq -e '.missing_textures == ["crate.tga (could not be decoded)"]' "$tmp/x.json" >/dev/null
else
  left_out "the scene extras check (node is not installed)"
fi
expect 0 "batch with an undecodable texture" -- $T "$FERRY" convert -r --json "$tmp/m/Models" "$tmp/m/out"
check "batch JSON lists it" jq -e '.files[0].missing_textures == ["crate.tga (could not be decoded)"]' "$tmp/out" >/dev/null
check "batch summary lists it" grep -q "1 texture missing: crate.tga (could not be decoded)" "$tmp/err"
finish
