#!/usr/bin/env bash
# Formats are told by content, never by name (issue 11): every command reads
# a file named with another format's extension (or none of ferry's) as what
# its bytes are, and gives the same results as under its own name.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
A="$SRC/samples/alamo"
O="$SRC/samples/odol"

# same_but_name OUT1 OUT2 NAME1 NAME2: the outputs hold something and
# differ only by the file names.
same_but_name() { [ -s "$1" ] && [ -s "$2" ] && diff <(sed "s|$3|FILE|g" "$1") <(sed "s|$4|FILE|g" "$2") >/dev/null; }

# ---- a P3D named .alo ----
cp "$O/box.p3d" "$tmp/box.alo"
expect_out "$tmp/info-real" 0 "info on box.p3d" -- "$FERRY" info "$O/box.p3d"
expect 0 "info on a P3D named .alo" -- "$FERRY" info "$tmp/box.alo"
check "it is read as ODOL" grep -q "ODOL version 40" "$tmp/out"
check "the same summary as under its own name" same_but_name "$tmp/out" "$tmp/info-real" "$tmp/box.alo" "$O/box.p3d"
expect 0 "info --json on a P3D named .alo" -- "$FERRY" info --json "$tmp/box.alo"
check "its format is ODOL" jq -e '.[0].format == "ODOL"' "$tmp/out" >/dev/null
expect 0 "validate a P3D named .alo" -- "$FERRY" validate "$tmp/box.alo"
expect_out "$tmp/dump-real" 0 "dump box.p3d" -- "$FERRY" dump "$O/box.p3d"
expect 0 "dump a P3D named .alo" -- "$FERRY" dump "$tmp/box.alo"
check "the same dump as under its own name" same_but_name "$tmp/out" "$tmp/dump-real" "$tmp/box.alo" "$O/box.p3d"
expect 0 "rewrite a P3D named .alo" -- "$FERRY" convert "$tmp/box.alo" "$tmp/box-copy.p3d"
check "byte-identical" cmp -s "$O/box.p3d" "$tmp/box-copy.p3d"
expect 0 "export a P3D named .alo" -- "$FERRY" convert "$tmp/box.alo" "$tmp/box-alo.glb"
check "the ODOL export says what it exported" grep -q "LOD" "$tmp/err"
expect 0 "export box.p3d" -- "$FERRY" convert "$O/box.p3d" "$tmp/box-real.glb"
check "the same glTF as from box.p3d" same_output "$tmp/box-alo.glb" "$tmp/box-real.glb"
expect 2 "P3D options apply to a P3D named .alo" -- "$FERRY" convert "$tmp/box.alo" "$tmp/x.glb" --anim auto
check "and the P3D usage error is given" grep -q "option '--anim' does not apply to P3D files" "$tmp/err"
expect 0 "--lod applies to a P3D named .alo" -- "$FERRY" convert --lod 0 "$tmp/box.alo" "$tmp/lod0.glb"

# ---- an ALA named .bin ----
cp "$A/walker_walk_00.ala" "$tmp/walk.bin"
expect 0 "info on an ALA named .bin" -- "$FERRY" info "$tmp/walk.bin"
check "it is read as an animation" grep -q "ALA animation" "$tmp/out"
expect 0 "validate an ALA named .bin" -- "$FERRY" validate --json "$tmp/walk.bin"
check "its format is ALA animation" jq -e '.[0].format == "ALA animation" and .[0].valid' "$tmp/out" >/dev/null
expect 0 "dump an ALA named .bin" -- "$FERRY" dump "$tmp/walk.bin"
check "the dump names the kind" grep -q "ALA animation" "$tmp/out"
expect 0 "rewrite an ALA named .bin" -- "$FERRY" convert "$tmp/walk.bin" "$tmp/walk.ala"
check "byte-identical" cmp -s "$A/walker_walk_00.ala" "$tmp/walk.ala"
expect 0 "--ala-format on an ALA named .bin" -- "$FERRY" convert --ala-format 1 "$tmp/walk.bin" "$tmp/walk1.ala"
expect 0 "sample an ALA named .bin" -- "$FERRY" sample "$tmp/walk.bin" --frame 0
expect 0 "an ALA named .bin attached to a model" -- "$FERRY" convert "$A/walker.alo" "$tmp/w.glb" --anim "$tmp/walk.bin" --no-textures
check "one animation" grep -q "1 animation" "$tmp/err"

# ---- an ALO model named .p3d, a particle system named .ala ----
cp "$A/walker.alo" "$tmp/walker.p3d"
expect 0 "info on an ALO named .p3d" -- "$FERRY" info "$tmp/walker.p3d"
check "it is read as an ALO model" grep -q "ALO model" "$tmp/out"
expect 0 "export an ALO named .p3d" -- "$FERRY" convert "$tmp/walker.p3d" "$tmp/walker-p3d.glb" --no-textures
check "the Alamo export" grep -q "image" "$tmp/err"
expect 0 "rewrite an ALO named .p3d as .alo" -- "$FERRY" convert "$tmp/walker.p3d" "$tmp/walker-copy.alo"
check "byte-identical" cmp -s "$A/walker.alo" "$tmp/walker-copy.alo"
cp "$A/p_walker_exhaust.alo" "$tmp/exhaust.ala"
expect 0 "info on a particle system named .ala" -- "$FERRY" info "$tmp/exhaust.ala"
check "it is read as a particle system" grep -q "ALO particle system" "$tmp/out"

# ---- an ALM named .dat, a glb named .bin, a .gltf named .json ----
expect 0 "build an ALM" -- "$FERRY" convert "$A/walker.alo" "$tmp/walker.alm"
cp "$tmp/walker.alm" "$tmp/mesh.dat"
expect 0 "info on an ALM named .dat" -- "$FERRY" info --json "$tmp/mesh.dat"
check "its format is ALM" jq -e '.[0].format == "ALM"' "$tmp/out" >/dev/null
expect 0 "validate an ALM named .dat" -- "$FERRY" validate "$tmp/mesh.dat"
expect 0 "rewrite an ALM named .dat" -- "$FERRY" convert "$tmp/mesh.dat" "$tmp/mesh.alm"
check "byte-identical" cmp -s "$tmp/walker.alm" "$tmp/mesh.alm"
expect 0 "export an ALM named .dat at a level of detail" -- "$FERRY" convert "$tmp/mesh.dat" "$tmp/mesh.glb" --lod 1
expect 2 "ALM options apply to an ALM named .dat" -- "$FERRY" convert "$tmp/mesh.dat" "$tmp/x.glb" --all
check "and the ALM usage error is given" grep -q "option '--all' does not apply to ALM conversions" "$tmp/err"
expect 0 "export walker.alo" -- "$FERRY" convert "$A/walker.alo" "$tmp/walker.glb" --no-textures
cp "$tmp/walker.glb" "$tmp/walker-glb.bin"
expect 0 "an ALM built from a glb named .bin" -- "$FERRY" convert "$tmp/walker-glb.bin" "$tmp/from-glb.alm"
expect 0 "an ALM built from walker.glb" -- "$FERRY" convert "$tmp/walker.glb" "$tmp/from-glb-real.alm"
check "the same ALM as from its own name" same_output "$tmp/from-glb.alm" "$tmp/from-glb-real.alm"
mkdir -p "$tmp/g"
expect 0 "export walker.alo as .gltf" -- "$FERRY" convert "$A/walker.alo" "$tmp/g/walker.gltf" --no-textures
mv "$tmp/g/walker.gltf" "$tmp/g/walker.json"
expect 0 "an ALM built from a .gltf named .json" -- "$FERRY" convert "$tmp/g/walker.json" "$tmp/from-gltf.alm"
expect 1 "info on a glb is still no format it summarises" -- "$FERRY" info "$tmp/walker-glb.bin"
check "not a known format" grep -q "not a known format" "$tmp/err"

# ---- what no name can rescue ----
printf 'hello, world, not a model' >"$tmp/text.alo"
expect 1 "text named .alo" -- "$FERRY" info "$tmp/text.alo"
check "not a known format" grep -q "not a known format: it starts with 68 65 6c 6c" "$tmp/err"
expect 1 "text named .alo, converted" -- "$FERRY" convert "$tmp/text.alo" "$tmp/text.glb"
check "not a known format" grep -q "not a known format" "$tmp/err"
printf 'hello, world, not a model' >"$tmp/text.p3d"
expect 1 "text named .p3d" -- "$FERRY" convert "$tmp/text.p3d" "$tmp/text.glb"
check "is refused by its missing signature" grep -q 'not a P3D (ODOL or MLOD) file' "$tmp/err"
expect 2 "an animation does not become an ALM" -- "$FERRY" convert "$tmp/walk.bin" "$tmp/x.alm"
check "the ALM usage error" grep -q "cannot make an ALM file from" "$tmp/err"
expect 2 "nothing becomes a P3D" -- "$FERRY" convert "$tmp/walker.p3d" "$tmp/x.p3d"
check "the P3D usage error" grep -q "cannot make a P3D file from" "$tmp/err"

# reads_as FILE FORMAT EXT: FILE (named .alo) is read as FORMAT: info --json
# names it, validate passes, and a rewrite to .EXT is byte-identical.
reads_as() {
  expect 0 "info on a $2 named .alo" -- "$FERRY" info --json "$1"
  check "its format is $2" jq -e --arg f "$2" '.[0].format == $f' "$tmp/out" >/dev/null
  expect 0 "validate a $2 named .alo" -- "$FERRY" validate "$1"
  expect 0 "rewrite a $2 named .alo" -- "$FERRY" convert "$1" "$tmp/copy.$3"
  check "byte-identical" cmp -s "$1" "$tmp/copy.$3"
}

# ---- a MEG archive (format 2, one entry "A.TXT" = "abc") named .alo ----
printf '\xff\xff\xff\xff\xa4\x70\x7d\x3f\x2f\0\0\0\x01\0\0\0\x01\0\0\0\x05\0A.TXT\x34\x9a\x8d\x96\0\0\0\0\x03\0\0\0\x2f\0\0\0\0\0\0\0abc' >"$tmp/archive.alo"
reads_as "$tmp/archive.alo" MEG meg
expect 0 "list a MEG named .alo" -- "$FERRY" list "$tmp/archive.alo"
check "lists A.TXT" grep -q "A.TXT" "$tmp/out"

# ---- a PBO archive (no product entry, one entry "a.txt" = "hi", no SHA-1) named .alo ----
printf 'a.txt\0\0\0\0\0\x02\0\0\0\0\0\0\0\0\0\0\0\x02\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0hi' >"$tmp/pbo.alo"
reads_as "$tmp/pbo.alo" PBO pbo
expect 0 "list a PBO named .alo" -- "$FERRY" list "$tmp/pbo.alo"
check "lists a.txt" grep -q "a.txt" "$tmp/out"

# ---- a PAA texture (DXT1, no tags, one raw 4 x 4 mipmap) named .alo ----
printf '\x01\xff\x00\x00\x04\x00\x04\x00\x08\x00\x00\x00\xf8\x1f\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$tmp/texture.alo"
reads_as "$tmp/texture.alo" PAA paa
expect 0 "a PAA named .alo to PNG" -- "$FERRY" convert "$tmp/texture.alo" "$tmp/texture.png"
check "a 4 x 4 PNG" test "$(od -An -tx1 -j12 -N12 "$tmp/texture.png" | tr -d ' \n')" = 494844520000000400000004

# ---- a raP config (the fuzz seed material.bin: a material with two stages) named .alo ----
cp "$SRC/fuzz/corpus/config/material.bin" "$tmp/material.alo"
reads_as "$tmp/material.alo" "raP config" rvmat
expect 0 "dump a raP config named .alo" -- "$FERRY" dump "$tmp/material.alo"
check "as config text" grep -q "class Stage1" "$tmp/out"

# ---- an ALO model and a glb named .obj (an extension read through Assimp) ----
cp "$A/walker.alo" "$tmp/walker.obj"
expect 0 "export an ALO named .obj" -- "$FERRY" convert "$tmp/walker.obj" "$tmp/walker-obj.glb" --no-textures
expect 0 "export walker.alo again" -- "$FERRY" convert "$A/walker.alo" "$tmp/walker-real.glb" --no-textures
check "the same glTF as from walker.alo" same_output "$tmp/walker-obj.glb" "$tmp/walker-real.glb"
expect 0 "rewrite an ALO named .obj as .alo" -- "$FERRY" convert "$tmp/walker.obj" "$tmp/walker-obj.alo"
check "byte-identical" cmp -s "$A/walker.alo" "$tmp/walker-obj.alo"
cp "$tmp/walker.glb" "$tmp/walker-glb.obj"
expect 0 "an ALO authored from a glb named .obj" -- "$FERRY" convert "$tmp/walker-glb.obj" "$tmp/from-obj.alo"
expect 0 "an ALO authored from walker.glb" -- "$FERRY" convert "$tmp/walker.glb" "$tmp/from-glb-real.alo"
check "the same ALO as from its own name" same_output "$tmp/from-obj.alo" "$tmp/from-glb-real.alo"

finish
