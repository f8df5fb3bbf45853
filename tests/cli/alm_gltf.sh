#!/usr/bin/env bash
# ALM -> glTF as a user runs it: hand-built fixtures for both export paths
# (skin.alm: weighted copies -> standard skin; morph.alm: animation-space
# vectors -> frames as morph targets), written by test_alm_scene, and a
# progressive mesh built from the bundled walker, whose --lod, --triangles
# and --error options must change the triangle count, and a mesh simplified
# by influence collapses at each level of detail. Every output goes
# through the Khronos validator when node and tests/gltf/node_modules exist.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
maker="$(dirname "$FERRY")/tests/test_alm_scene"
[ -x "$maker" ] || skip "$maker (which writes the fixtures) is not built"

expect 0 "write the hand-built fixtures" -- "$maker" "$tmp"
expect 0 "build walker.alm from walker.alo" -- "$FERRY" convert "$SRC/samples/alamo/walker.alo" "$tmp/walker.alm"

files=()
for name in skin morph walker; do
  for ext in glb gltf; do
    expect 0 "convert $name.alm to .$ext" -- "$FERRY" convert "$tmp/$name.alm" "$tmp/$name.$ext"
    files+=("$tmp/$name.$ext")
  done
done
expect 0 "skin.alm again" -- "$FERRY" convert "$tmp/skin.alm" "$tmp/skin2.glb"
check "skin.alm becomes a skin" grep -q "skin of 1 bones" "$tmp/err"
check "the dropped weight is reported" grep -q "largest dropped weight 0" "$tmp/err"
expect 0 "morph.alm again" -- "$FERRY" convert "$tmp/morph.alm" "$tmp/morph2.glb"
check "morph.alm becomes morph targets" grep -q "2 frames as morph targets" "$tmp/err"
check "the .gltf has its .bin beside it" test -s "$tmp/skin.bin"

# Triangle counts from the one-line summary.
triangles() { sed -n 's/.*, \([0-9][0-9]*\) triangles,.*/\1/p' "$tmp/err"; }
expect 0 "walker at full resolution" -- "$FERRY" convert "$tmp/walker.alm" "$tmp/w_full.glb"
full=$(triangles)
expect 0 "walker --lod 17" -- "$FERRY" convert --lod 17 "$tmp/walker.alm" "$tmp/w_lod.glb"
lod=$(triangles)
check "--lod 17 says how many collapses" grep -q "LOD after 17 of" "$tmp/err"
expect 0 "walker --triangles 20" -- "$FERRY" convert --triangles 20 "$tmp/walker.alm" "$tmp/w_tri.glb"
tri=$(triangles)
expect 0 "walker --error 0" -- "$FERRY" convert --error 0 "$tmp/walker.alm" "$tmp/w_err.glb"
err0=$(triangles)
expect 0 "walker --lod 0" -- "$FERRY" convert --lod 0 "$tmp/walker.alm" "$tmp/w_lod0.glb"
lod0=$(triangles)
echo "walker triangles: full $full, --lod 0 $lod0, --lod 17 $lod, --triangles 20 $tri, --error 0 $err0"
check "the full mesh has triangles" test "${full:-0}" -gt 20
check "--lod 0 is the full mesh" test "${lod0:-0}" -eq "${full:-1}"
check "--lod 17 has fewer triangles" test "${lod:-999999}" -lt "${full:-0}"
check "--triangles 20 has at most 20" test "${tri:-999999}" -le 20
check "--error 0 keeps no more than the full mesh" test "${err0:-999999}" -le "${full:-0}"
files+=("$tmp/w_lod.glb" "$tmp/w_tri.glb")

# Influence collapses (alm_influence_fixture in tests/alm_fixture.h, written
# by test_alm): valid, rewritten byte for byte, and at every level of detail
# the triangle counts worked out by hand there (4 4 4 3 3 2 1); the
# influences on the middle positions drop from 3 to 2 to 1 as the records
# move their vertices to the simplified positions.
alm_maker="$(dirname "$FERRY")/tests/test_alm"
expect 0 "write the influence fixtures" -- "$alm_maker" "$tmp"
want=(4 4 4 3 3 2 1)
for v in 9 10; do
  f="$tmp/influence_v$v.alm"
  expect 0 "validate influence_v$v.alm" -- "$FERRY" validate "$f"
  check "influence_v$v.alm: no errors, no warnings" grep -q "0 errors, 0 warnings" "$tmp/out" "$tmp/err"
  expect 0 "rewrite influence_v$v.alm" -- "$FERRY" convert "$f" "$tmp/again_v$v.alm"
  check "influence_v$v.alm rewrites byte for byte" cmp -s "$f" "$tmp/again_v$v.alm"
  expect 0 "info influence_v$v.alm" -- "$FERRY" info "$f"
  check "info: 3 influence collapses" grep -q "collapses: 6 (3 edge, 3 influence)" "$tmp/out"
  got=()
  for k in 0 1 2 3 4 5 6; do
    expect 0 "influence_v$v.alm --lod $k" -- "$FERRY" convert --lod "$k" "$f" "$tmp/influence_v${v}_lod$k.glb"
    got+=("$(triangles)")
    files+=("$tmp/influence_v${v}_lod$k.glb")
    case $k in
      0) check "--lod 0: 3 influences on a position" grep -q "at most 3 influences" "$tmp/err" ;;
      1) check "--lod 1: 2 influences" grep -q "at most 2 influences" "$tmp/err" ;;
      4) check "--lod 4: 1 influence" grep -q "at most 1 influences" "$tmp/err" ;;
    esac
  done
  echo "influence_v$v.alm triangles at --lod 0..6: ${got[*]}"
  check "influence_v$v.alm: triangle counts 4 4 4 3 3 2 1" test "${got[*]}" = "${want[*]}"
  expect 0 "influence_v$v.alm --triangles 3" -- "$FERRY" convert --triangles 3 "$f" "$tmp/influence_t3.glb"
  check "--triangles 3 applies 3 records" grep -q "LOD after 3 of 6 collapses, 3 triangles" "$tmp/err"
  expect 0 "influence_v$v.alm --error 0.3" -- "$FERRY" convert --error 0.3 "$f" "$tmp/influence_e$v.gltf"
  check "--error 0.3 applies 3 records" grep -q "LOD after 3 of 6 collapses, 3 triangles" "$tmp/err"
  files+=("$tmp/influence_e$v.gltf")
done

# A damaged file is refused with the reader's located error.
head -c 40 "$tmp/skin.alm" >"$tmp/cut.alm"
expect 1 "a truncated ALM is refused" -- "$FERRY" convert "$tmp/cut.alm" "$tmp/cut.glb"
check "no output for it" test ! -e "$tmp/cut.glb"

if command -v node >/dev/null 2>&1 && [ -d "$SRC/tests/gltf/node_modules/gltf-validator" ]; then
  expect 0 "the Khronos validator finds no errors" -- node "$SRC/tests/gltf/validate.mjs" "${files[@]}"
  cat "$tmp/out"
  check "every file was validated" test "$(grep -c ': 0 errors' "$tmp/out")" -eq "${#files[@]}"
else
  left_out "the Khronos validator (node or tests/gltf/node_modules/gltf-validator is not installed (tools/setup.sh test installs them))"
fi
finish
