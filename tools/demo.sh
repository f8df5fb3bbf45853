#!/usr/bin/env bash
# The main job on the bundled samples: summarise, validate and rewrite them.
set -euo pipefail
ferry=${1:-build/ferry}
cd "$(dirname "$0")/.."
out=out/demo
mkdir -p "$out"
samples=(samples/alamo/*.alo samples/alamo/*.ala)
echo "== ferry info =="
"$ferry" info "${samples[@]}"
echo
echo "== ferry validate =="
"$ferry" validate "${samples[@]}" || true
echo
echo "== ferry dump (first lines of ${samples[0]}) =="
"$ferry" dump "${samples[0]}" | head -n 25
echo
echo "== ferry validate: the walker's animations against the walker =="
"$ferry" validate --no-textures samples/alamo/walker.alo samples/alamo/walker_*.ala
echo
echo "== ferry sample: the walk cycle at 0.2 s =="
"$ferry" sample --model samples/alamo/walker.alo --time 0.2 samples/alamo/walker_walk_00.ala
echo
echo "== ferry convert: the walk cycle to format 1 (Empire at War) =="
"$ferry" convert --ala-format 1 samples/alamo/walker_walk_00.ala "$out/walker_walk_00_format1.ala"
"$ferry" info "$out/walker_walk_00_format1.ala" | head -n 3
echo
echo "== ferry convert: rewrite each sample and compare =="
for f in "${samples[@]}"; do
  dest="$out/$(basename "$f")"
  "$ferry" convert "$f" "$dest"
  if cmp -s "$f" "$dest"; then echo "$f -> $dest: byte-identical"; else echo "$f -> $dest: DIFFERS"; exit 1; fi
done
echo
echo "== glTF: the models with their animations, and a whole folder =="
"$ferry" convert samples/alamo/walker.alo "$out/walker.glb" --anim auto
"$ferry" convert -r samples/alamo "$out/gltf" --quiet
echo
echo "== P3D (ODOL) models: info, validate, rewrite, glTF (the most detailed LOD) =="
"$ferry" info samples/odol/door.p3d
"$ferry" validate samples/odol/*.p3d
for f in samples/odol/*.p3d; do
  dest="$out/$(basename "$f")"
  "$ferry" convert "$f" "$dest"
  if cmp -s "$f" "$dest"; then echo "$f -> $dest: byte-identical"; else echo "$f -> $dest: DIFFERS"; exit 1; fi
  "$ferry" convert "$f" "$out/$(basename "$f" .p3d).glb"
done
echo
echo "== ALM: a progressive mesh built from the walker, its levels of detail, glTF =="
"$ferry" convert samples/alamo/walker.alo "$out/walker.alm" --anim samples/alamo/walker_walk_00.ala
"$ferry" info "$out/walker.alm"
"$ferry" convert "$out/walker.alm" "$out/walker_alm_full.glb"
"$ferry" convert "$out/walker.alm" "$out/walker_alm_32.glb" --triangles 32
echo
echo "Outputs are in $out/ (open the .glb files in any glTF viewer)."
