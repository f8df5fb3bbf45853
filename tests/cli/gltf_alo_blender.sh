#!/usr/bin/env bash
# The modder's loop: ferry's export (--all) through Blender 3.4's glTF
# importer and exporter, then ferry convert OUT.glb OUT.alo: a valid model
# with every triangle. Skipped without Blender.
set -u
FERRY=$1 SRC=$2 SHARED=${3:-}
. "$(dirname "$0")/lib.bash"
if ! command -v blender >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
  skip "blender (or jq) is not installed"
fi

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
# A model made in Blender itself: a 3-bone column (Blender Z up) with a
# cylinder skinned to it by automatic weights, exported as Blender does (Y-up).
cat >"$tmp/rig.py" <<'PY'
import sys
import numpy as _np
if not hasattr(_np, "bool"):
    _np.bool = bool
import bpy
dst = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.object.armature_add(enter_editmode=True, location=(0, 0, 0))
arm = bpy.context.active_object
eb = arm.data.edit_bones
b0 = eb[0]; b0.name = "b_base"; b0.head = (0, 0, 0); b0.tail = (0, 0, 1)
b1 = eb.new("b_mid"); b1.head = (0, 0, 1); b1.tail = (0, 0, 2); b1.parent = b0
b2 = eb.new("b_top"); b2.head = (0, 0, 2); b2.tail = (0, 0, 3); b2.parent = b1
bpy.ops.object.mode_set(mode='OBJECT')
bpy.ops.mesh.primitive_cylinder_add(radius=0.3, depth=3, location=(0, 0, 1.5), vertices=16)
cyl = bpy.context.active_object
bpy.ops.object.mode_set(mode='EDIT')
bpy.ops.mesh.subdivide(number_cuts=6)
bpy.ops.object.mode_set(mode='OBJECT')
cyl.select_set(True); arm.select_set(True); bpy.context.view_layer.objects.active = arm
bpy.ops.object.parent_set(type='ARMATURE_AUTO')
bpy.ops.export_scene.gltf(filepath=dst, export_format='GLB')
PY
expect 0 "rig: made in Blender" -- blender -b --factory-startup --python "$tmp/rig.py" -- "$tmp/rig.glb"
expect 0 "rig: glTF -> ALO" -- "$FERRY" convert "$tmp/rig.glb" "$tmp/rig.alo"
check "rig: dropped weight reported" grep -q "kept only their dominant joint" "$tmp/err"
expect 0 "rig: valid" -- "$FERRY" validate "$tmp/rig.alo"
check "rig: no validation errors" grep -q ": 0 errors" "$tmp/out"
"$FERRY" info --json "$tmp/rig.alo" >"$tmp/rig.json"
check "rig: skinned, RSkinGloss" test "$(jq -r '.[0].shaders[0]' "$tmp/rig.json")" = RSkinGloss.fx
# Blender's up (Z) is Alamo's up: the column stands from z 0 to 3.
check "rig: stands on Z" jq -e '(.[0].bounds_min[2] | fabs < 1e-4) and ((.[0].bounds_max[2] - 3) | fabs < 1e-4) and (.[0].bounds_max[1] < 0.31)' "$tmp/rig.json"
finish
