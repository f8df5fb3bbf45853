#!/usr/bin/env bash
# ALM built from real models: every ALO model of ../shared/corpus/alamo (and
# the bundled samples) becomes a progressive mesh, which validates without
# errors, rewrites byte-identically, and exports to glTF that the Khronos
# validator finds free of errors, at full resolution and after 50 collapse records.
# Skips without node or ../shared (the samples alone are covered by
# test_alm_build and alm_gltf).
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
corpus="$SHARED/corpus/alamo"
[ -d "$corpus" ] || skip "$corpus is absent"
if ! command -v node >/dev/null 2>&1 || [ ! -d "$SRC/tests/gltf/node_modules/gltf-validator" ]; then
  skip "node or the glTF validator is not installed (tools/setup.sh test installs them)"
fi
models=()
while IFS= read -r -d '' f; do
  # Models only (first chunk 0x200); particle systems have no mesh to build.
  if [ "$(head -c 4 "$f" | od -An -tx4 | tr -d ' ')" = "00000200" ]; then models+=("$f"); fi
done < <(find "$corpus" "$SRC/samples/alamo" -iname '*.alo' -print0 | sort -z)
check "corpus has models" test ${#models[@]} -ge 30
glbs=()
i=0
for f in "${models[@]}"; do
  i=$((i + 1))
  expect 0 "build $(basename "$f")" -- "$FERRY" convert "$f" "$tmp/m$i.alm"
  [ -f "$tmp/m$i.alm" ] || continue
  expect 0 "validate m$i.alm ($(basename "$f"))" -- "$FERRY" validate "$tmp/m$i.alm"
  expect 0 "rewrite m$i.alm" -- "$FERRY" convert "$tmp/m$i.alm" "$tmp/r$i.alm"
  check "m$i.alm rewrites byte-identically" cmp -s "$tmp/m$i.alm" "$tmp/r$i.alm"
  expect 0 "export m$i.alm" -- "$FERRY" convert "$tmp/m$i.alm" "$tmp/m$i.glb"
  expect 0 "export m$i.alm after 50 collapse records" -- "$FERRY" convert "$tmp/m$i.alm" "$tmp/h$i.glb" --lod 50
  glbs+=("$tmp/m$i.glb" "$tmp/h$i.glb")
done
expect 0 "the Khronos validator finds no errors in ${#glbs[@]} files" -- node "$SRC/tests/gltf/validate.mjs" "${glbs[@]}"
echo "${#models[@]} models built, ${#glbs[@]} glTF files validated"
finish
