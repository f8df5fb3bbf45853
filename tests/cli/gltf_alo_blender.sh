#!/usr/bin/env bash
# The modder's loop: ferry's export (--all) through Blender 3.4's glTF
# importer and exporter, then ferry convert OUT.glb OUT.alo: a valid model
# with every triangle. Skipped without Blender.
set -u
FERRY=$1 SRC=$2 SHARED=${3:-}
if ! command -v blender >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
  echo "SKIP: blender (or jq) is not installed"
  exit 77
fi
. "$(dirname "$0")/lib.bash"

cat >"$tmp/loop.py" <<'PY'
import sys
import numpy as _np
if not hasattr(_np, "bool"):
    _np.bool = bool  # Debian's blender 3.4 importer uses np.bool, gone from numpy >= 1.24
import bpy
src, dst = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
bpy.ops.export_scene.gltf(filepath=dst, export_format='GLB', export_extras=True, export_lights=True)
PY

for name in crate walker; do
  alo="$SRC/samples/alamo/$name.alo"
  expect 0 "$name: export --all" -- "$FERRY" convert --all --no-textures "$alo" "$tmp/$name.glb"
  expect 0 "$name: through Blender" -- blender -b --factory-startup --python "$tmp/loop.py" -- "$tmp/$name.glb" "$tmp/$name.blender.glb"
  expect 0 "$name: glTF -> ALO" -- "$FERRY" convert "$tmp/$name.blender.glb" "$tmp/$name.alo"
  expect 0 "$name: valid" -- "$FERRY" validate "$tmp/$name.alo"
  check "$name: no validation errors" grep -q ": 0 errors" "$tmp/out"
  want=$("$FERRY" info --json "$alo" | jq '.[0].triangles')
  got=$("$FERRY" info --json "$tmp/$name.alo" | jq '.[0].triangles')
  check "$name: every triangle ($got of $want)" test "$got" = "$want"
  wb=$("$FERRY" info --json "$alo" | jq '.[0].bones')
  gb=$("$FERRY" info --json "$tmp/$name.alo" | jq '.[0].bones')
  check "$name: at least the bones ($gb of $wb)" test "$gb" -ge "$wb"
done
finish
