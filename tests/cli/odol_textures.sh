#!/usr/bin/env bash
# ferry convert MODEL.p3d OUT --textures ROOT (docs/formats/odol-gltf.md,
# "Textures"): the bundled samples name ferry\box\*.paa and
# ferry\grid\*.paa; a temporary root holds one addon folder whose $PREFIX$
# says ferry\box (its texture spelled in another case, as .pac) and a
# P:-drive style ferry/grid folder. Found textures are embedded (PNG files
# beside a .gltf), the others named in the material's extras, a warning
# each and a summary line; the outputs pass the Khronos validator. A
# --textures that is not a folder is a usage error (exit 2).
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
validate="$SRC/tests/gltf/validate.mjs"

# A PAA texture: ARGB1555, 1 x 1, opaque magenta (the layout test_paa.c checks).
paa() { printf '\x55\x15\x00\x00\x01\x00\x01\x00\x07\x00\x00\x03\x1f\xfc\x1b\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$1"; }
mkdir -p "$tmp/addons/BoxAddon" "$tmp/addons/ferry/grid"
printf 'ferry\\box\r\n' >"$tmp/addons/BoxAddon/\$PREFIX\$"
paa "$tmp/addons/BoxAddon/Metal_CO.PAC"
paa "$tmp/addons/BoxAddon/wood_NOHQ.paa"
# metal.rvmat: the box names it without a material record; its Stage1 is the normal map.
printf 'class Stage1\n{\n texture = "ferry\\box\\metal_nohq.paa";\n};\n' >"$tmp/addons/BoxAddon/METAL.rvmat"
paa "$tmp/addons/BoxAddon/metal_nohq.pac"
paa "$tmp/addons/ferry/grid/TILE0_CO.paa"

box="$SRC/samples/odol/box.p3d" grid="$SRC/samples/odol/grid.p3d"
expect 0 "box: convert with --textures" -- "$FERRY" convert "$box" "$tmp/box.gltf" --textures "$tmp/addons"
cp "$tmp/err" "$tmp/box.err"
check "box: summary counts what was found" grep -q ', 3 images written (3 of 4 textures found, 1 of 2 rvmats read)' "$tmp/box.err"
check "box: a warning names the texture not found" \
  grep -qF 'warning: texture ferry\box\wood_co.paa not found in the texture roots [texture-missing]' "$tmp/box.err"
check "box: the missing textures listed" grep -qF '1 texture missing: ferry\box\wood_co.paa' "$tmp/box.err"
check "box: three images, PNG files beside the .gltf" \
  jq -e '(.images | length) == 3 and (.images[0].uri | endswith(".png"))' "$tmp/box.gltf" >/dev/null
check "box: the PNG exists" test -s "$tmp/$(jq -r '.images[0].uri' "$tmp/box.gltf")"
check "box: metal_co's material has it as base colour, found through the prefix" \
  jq -e '[.materials[] | select(.extras.texture == "ferry\\box\\metal_co.paa")] | length == 1 and
         (.[0].pbrMetallicRoughness.baseColorTexture.index | type) == "number" and
         (.[0].extras.texture_file | endswith("BoxAddon/Metal_CO.PAC"))' "$tmp/box.gltf" >/dev/null
check "box: wood_co's material says it was not found" \
  jq -e '[.materials[] | select(.extras.texture == "ferry\\box\\wood_co.paa")] | length == 1 and
         .[0].extras.texture_not_found == "ferry\\box\\wood_co.paa" and
         .[0].pbrMetallicRoughness.baseColorTexture == null' "$tmp/box.gltf" >/dev/null
check "box: metal's normal map from its .rvmat file, the file's stages listed" \
  jq -e '[.materials[] | select(.extras.rvmat == "ferry\\box\\metal.rvmat")] | length == 1 and
         (.[0].normalTexture.index | type) == "number" and (.[0].extras.rvmat_file | endswith("BoxAddon/METAL.rvmat")) and
         .[0].extras.rvmat_stages == [{"stage": "Stage1", "texture": "ferry\\box\\metal_nohq.paa", "role": "normal"}]' \
  "$tmp/box.gltf" >/dev/null
check "box: wood.rvmat not found, said in extras" \
  jq -e '[.materials[] | select(.extras.rvmat_not_found == "ferry\\box\\wood.rvmat")] | length == 1' "$tmp/box.gltf" >/dev/null
check "box: wood's normal map (its material record's _nohq stage) found and used" \
  jq -e '[.materials[] | select(.extras.normal_texture == "ferry\\box\\wood_nohq.paa")] | length == 1 and
         (.[0].normalTexture.index | type) == "number" and
         (.[0].extras.normal_texture_file | endswith("BoxAddon/wood_NOHQ.paa"))' "$tmp/box.gltf" >/dev/null

expect 0 "grid: a P:-drive path, into a .glb" -- "$FERRY" convert "$grid" "$tmp/grid.glb" --textures "$tmp/addons"
check "grid: 1 of its 4 textures found" grep -q ', 1 image embedded (1 of 4 textures found' "$tmp/err"
check "grid: 3 missing" grep -q '3 textures missing: ' "$tmp/err"
expect 0 "grid: two roots, the folder given twice" -- "$FERRY" convert "$grid" "$tmp/grid2.glb" \
  --textures "$tmp/addons" --textures "$tmp/addons/ferry"
check "grid: still one image" grep -q ', 1 image embedded (1 of 4 textures found' "$tmp/err"

expect 0 "convert -r of the samples with --textures" -- "$FERRY" convert -r "$SRC/samples/odol" "$tmp/batch" --textures "$tmp/addons"
check "convert -r: the three samples, their 4 images found" grep -q '3 of 3 files converted into .* 4 images embedded' "$tmp/err"
check "convert -r: the missing textures listed once" grep -qF 'ferry\box\wood_co.paa' "$tmp/err"

# PBO archives (docs/formats/pbo.md): mounted at their prefix property, or
# at their file name without one. pbo OUT PREFIX NAME=FILE...: a PBO with a
# product entry holding PREFIX (none when empty), the files stored, the
# terminator, the data, a 0 byte and the SHA-1 of everything before it.
le32() {
  local v=$1
  printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $(((v >> 8) & 255)))\\x$(printf %02x $(((v >> 16) & 255)))\\x$(printf %02x $(((v >> 24) & 255)))"
}
pbo() {
  local out=$1 prefix=$2 arg n
  shift 2
  {
    if [ -n "$prefix" ]; then
      printf '\0sreV'; le32 0; le32 0; le32 0; le32 0
      printf 'prefix\0%s\0\0' "$prefix"
    fi
    for arg in "$@"; do
      n=$(stat -c %s "${arg#*=}")
      printf '%s\0' "${arg%%=*}"; le32 0; le32 "$n"; le32 0; le32 1700000000; le32 "$n"
    done
    printf '\0'; le32 0; le32 0; le32 0; le32 0; le32 0
    for arg in "$@"; do cat "${arg#*=}"; done
  } >"$out.body"
  { cat "$out.body"; printf '\0'; printf "$(sha1sum "$out.body" | cut -c1-40 | sed 's/../\\x&/g')"; } >"$out"
  rm -f "$out.body"
}
paa "$tmp/one.paa"
pbo "$tmp/box_addon.pbo" 'ferry\box' 'Metal_CO.pac='"$tmp/one.paa" 'data\x.paa='"$tmp/one.paa"
pbo "$tmp/ferry.pbo" '' 'grid\TILE1_CO.paa='"$tmp/one.paa"
expect 0 "PBO archives as --textures" -- "$FERRY" convert "$grid" "$tmp/grid_pbo.glb" --textures "$tmp/ferry.pbo" --textures "$tmp/addons"
check "grid: tile1 from the PBO without a prefix (mounted at its name), tile0 from the folder" \
  grep -q ', 2 images embedded (2 of 4 textures found' "$tmp/err"
expect 0 "box: a PBO with its prefix" -- "$FERRY" convert "$box" "$tmp/box_pbo.gltf" --textures "$tmp/box_addon.pbo"
check "box: metal_co found in the PBO" \
  jq -e '[.materials[] | select(.extras.texture == "ferry\\box\\metal_co.paa")] | .[0].extras.texture_file | endswith("box_addon.pbo/Metal_CO.pac")' \
  "$tmp/box_pbo.gltf" >/dev/null
# convert -r of a PBO holding the model and its texture: found in the archive itself.
pbo "$tmp/boxmod.pbo" 'ferry\box' 'box.p3d='"$box" 'metal_co.paa='"$tmp/one.paa"
expect 0 "convert -r of a PBO holding a model and its texture" -- "$FERRY" convert -r "$tmp/boxmod.pbo" "$tmp/boxmod"
check "convert -r: the model's texture found in its own archive" grep -q '1 of 1 files converted into .* 1 images\? embedded' "$tmp/err"
expect 0 "convert -r --no-textures of that PBO" -- "$FERRY" convert -r --no-textures "$tmp/boxmod.pbo" "$tmp/boxmod2"
check "convert -r --no-textures: no image, no texture warning" \
  bash -c 'grep -q "1 of 1 files converted into .* 0 images\? embedded" "$1" && ! grep -q "texture" "$1"' _ "$tmp/err"

# A model inside an unpacked addon finds that addon's textures by itself.
mkdir -p "$tmp/addons/BoxAddon/models"
cp "$box" "$tmp/addons/BoxAddon/models/box.p3d"
expect 0 "a model inside its addon, without --textures" -- "$FERRY" convert "$tmp/addons/BoxAddon/models/box.p3d" "$tmp/own.glb"
check "its addon's textures found" grep -q ', 3 images embedded (3 of 4 textures found, 1 of 2 rvmats read)' "$tmp/err"
rm -r "$tmp/addons/BoxAddon/models"

expect 0 "box without --textures" -- "$FERRY" convert "$box" "$tmp/plain.gltf"
check "box without --textures: no image, no texture warning" \
  bash -c '! grep -q "texture" "$1" && jq -e ".images == null" "$2" >/dev/null' _ "$tmp/err" "$tmp/plain.gltf"

printf x >"$tmp/file"
expect 2 "--textures naming a file" -- "$FERRY" convert "$box" "$tmp/x.glb" --textures "$tmp/file"
check "it says neither a folder nor an archive" grep -q 'neither a folder nor an archive' "$tmp/err"
expect 2 "--textures naming nothing" -- "$FERRY" convert "$box" "$tmp/x.glb" --textures "$tmp/nothing"
expect 2 "--textures without a value" -- "$FERRY" convert "$box" "$tmp/x.glb" --textures
expect 2 "--textures with a .p3d output" -- "$FERRY" convert "$box" "$tmp/x.p3d" --textures "$tmp/addons"
check "nothing written on usage errors" bash -c '! ls "$1"/x.* >/dev/null 2>&1' _ "$tmp"

outputs=("$tmp/box.gltf" "$tmp/grid.glb")
# With ../shared: the corpus models with the corpus' addons (every texture
# found is embedded: test_odol_textures_corpus checks that against a walk of its own).
addons="$SHARED/corpus/odol/addons"
if [ -d "$addons" ]; then
  for f in "$SHARED"/corpus/odol/v4*/*.p3d "$SHARED"/corpus/odol/v50/*.p3d; do
    n=$(basename "$f" .p3d)
    expect 0 "$n: convert --all --textures" -- "$FERRY" convert "$f" "$tmp/$n.glb" --all --textures "$addons"
    outputs+=("$tmp/$n.glb")
  done
  check "CSJ_GyroP: its 4 textures found" grep -q '4 images embedded (4 of 4 textures found' <(
    "$FERRY" convert "$SHARED/corpus/odol/v40/CSJ_GyroP.p3d" "$tmp/g.glb" --textures "$addons" 2>&1)
else
  left_out "the corpus models with their textures ($addons is absent)"
fi
if command -v node >/dev/null 2>&1 && [ -d "$SRC/tests/gltf/node_modules/gltf-validator" ]; then
  expect 0 "every output passes the Khronos validator" -- node "$validate" "${outputs[@]}"
  [ -s "$tmp/err" ] && head -n 20 "$tmp/err" >&2
else
  left_out "the Khronos validator (node or tests/gltf/node_modules/gltf-validator is not installed (tools/setup.sh test installs them))"
fi
finish
