#!/usr/bin/env bash
# FBX and Collada as a modelling tool writes them: the walker sample through
# ferry's export, Blender 3.4's glTF importer and its FBX and Collada
# exporters, then ferry convert X.fbx|X.dae OUT.alo (Assimp). Both keep the
# skinned mesh and validate; the Collada model stands where the original
# stands (the same bounds: Assimp's Collada bone offsets need the mesh
# node's transform, scene_from_assimp.c). Skipped without Blender.
set -u
FERRY=$1 SRC=$2 SHARED=${3:-}
. "$(dirname "$0")/lib.bash"
command -v blender >/dev/null 2>&1 || skip "blender is not installed"

cat >"$tmp/exp.py" <<'PY'
import sys
import numpy as _np
if not hasattr(_np, "bool"):
    _np.bool = bool  # Debian's blender 3.4 importer uses np.bool, gone from numpy >= 1.24
import bpy
src, fbx, dae = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
bpy.ops.export_scene.fbx(filepath=fbx, bake_anim=True)
bpy.ops.wm.collada_export(filepath=dae)
PY

alo="$SRC/samples/alamo/walker.alo"
expect 0 "walker: export" -- "$FERRY" convert --all --no-textures --anim auto "$alo" "$tmp/walker.glb"
expect 0 "walker: Blender to FBX and Collada" -- blender -b --factory-startup --python "$tmp/exp.py" -- "$tmp/walker.glb" "$tmp/walker.fbx" "$tmp/walker.dae"
expect 0 "walker: the original's figures" -- "$FERRY" info "$alo"
orig_bounds=$(grep "bounds" "$tmp/out")
check "walker: original bounds known" test -n "$orig_bounds"
mkdir -p "$tmp/fbx" "$tmp/dae"
for ext in fbx dae; do
  expect 0 "walker.$ext -> ALO" -- "$FERRY" convert "$tmp/walker.$ext" "$tmp/$ext/walker.alo"
  check "walker.$ext: animations written" grep -q "written as .ala beside" "$tmp/err"
  expect 0 "walker.$ext: validates" -- "$FERRY" validate "$tmp/$ext/walker.alo"
  check "walker.$ext: 0 errors" grep -q ": 0 errors" "$tmp/out"
  expect 0 "walker.$ext: info" -- "$FERRY" info "$tmp/$ext/walker.alo"
  check "walker.$ext: the skinned mesh, every triangle" grep -q "geometry   45 vertices, 64 triangles" "$tmp/out"
  check "walker.$ext: skinned" grep -q "1 skinned" "$tmp/out"
done
expect 0 "walker.dae: info" -- "$FERRY" info "$tmp/dae/walker.alo"
# -0.000 and 0.000 are the same figure
check "walker.dae: stands as the original ($orig_bounds)" test "$(grep bounds "$tmp/out" | sed 's/-0\.000/0.000/g')" = "$orig_bounds"
finish
