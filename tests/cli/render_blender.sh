#!/usr/bin/env bash
# What ferry writes imports in Blender: each bundled sample .glb goes through
# Blender's own glTF importer (bpy.ops.import_scene.gltf, headless) with the
# expected meshes, armature, bones, skinned meshes, actions and triangles; with
# ../shared, the X-wing too. Skips (77) when blender is not installed
# (apt-get install blender python3-numpy).
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
if ! command -v blender >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
  skip "blender (or jq) is not installed"
fi

# Prints one line "FERRY_JSON [...]": per file, what the import made.
read -r -d '' importer <<'EOF'
import sys, json
import numpy as _np
if not hasattr(_np, "bool"):
    _np.bool = bool  # Debian's blender 3.4 importer uses np.bool, gone from numpy >= 1.24
import bpy
out = []
for f in sys.argv[sys.argv.index("--") + 1:]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    r = {"file": f}
    try:
        r["result"] = sorted(bpy.ops.import_scene.gltf(filepath=f))
    except Exception as e:
        r["result"] = ["ERROR"]
        r["error"] = str(e).splitlines()[-1] if str(e) else repr(e)
    objs = list(bpy.context.scene.objects)
    meshes = [o for o in objs if o.type == "MESH"]
    r["meshes"] = len(meshes)
    r["armatures"] = sum(o.type == "ARMATURE" for o in objs)
    r["bones"] = sum(len(o.data.bones) for o in objs if o.type == "ARMATURE")
    r["skinned"] = sum(any(m.type == "ARMATURE" for m in o.modifiers) for o in meshes)
    r["actions"] = len(bpy.data.actions)
    r["images"] = sum(i.type == "IMAGE" for i in bpy.data.images)
    r["triangles"] = sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons)
    # Images feeding Base Color, their smallest alpha, and whether they also feed Emission.
    bases = {}
    for mat in bpy.data.materials:
        if not mat.use_nodes:
            continue
        for l in mat.node_tree.links:
            if l.from_node.type == "TEX_IMAGE" and l.from_node.image and l.to_socket.name in ("Base Color", "Emission"):
                img = l.from_node.image
                b = bases.setdefault(img.name, {"image": img.name, "emission": False, "base": False})
                if l.to_socket.name == "Emission":
                    b["emission"] = True
                else:
                    b["base"] = True
                    px = _np.empty(len(img.pixels), dtype=_np.float32)
                    img.pixels.foreach_get(px)
                    b["min_alpha"] = float(px[3::4].min()) if len(px) else 1.0
    r["base_images"] = [b for b in bases.values() if b["base"]]
    out.append(r)
print("FERRY_JSON " + json.dumps(out))
EOF

glbs=()
for n in crate legacy walker; do
  expect 0 "convert $n" -- "$FERRY" convert --anim auto "$SRC/samples/alamo/$n.alo" "$tmp/$n.glb"
  glbs+=("$tmp/$n.glb")
done
xwing="$SHARED/corpus/alamo/ueaw/Models/VSF_XWING.ALO"
if [ -f "$xwing" ]; then
  expect 0 "convert the X-wing" -- "$FERRY" convert --anim auto "$xwing" "$tmp/VSF_XWING.glb"
  glbs+=("$tmp/VSF_XWING.glb")
else
  left_out "the X-wing ($xwing is absent)"
fi
gyro="$SHARED/corpus/odol/v40/CSJ_GyroP.p3d"
if [ -f "$gyro" ] && [ -d "$SHARED/corpus/odol/addons" ]; then
  expect 0 "convert the gyrocopter with --textures" -- "$FERRY" convert "$gyro" "$tmp/CSJ_GyroP.glb" --textures "$SHARED/corpus/odol/addons"
  glbs+=("$tmp/CSJ_GyroP.glb")
else
  left_out "the gyrocopter ($gyro or its addons are absent)"
fi
expect 0 "blender imports" -- blender --background --factory-startup --python-expr "$importer" -- "${glbs[@]}"
sed -n 's/^FERRY_JSON //p' "$tmp/out" >"$tmp/import.json"
check "one report per file" jq -e --argjson n "${#glbs[@]}" 'length == $n' "$tmp/import.json" >/dev/null
check "every import finished" jq -e 'all(.[]; .result == ["FINISHED"])' "$tmp/import.json" >/dev/null
if ! jq -e 'all(.[]; .result == ["FINISHED"])' "$tmp/import.json" >/dev/null 2>&1; then
  jq -r '.[] | select(.result != ["FINISHED"]) | "  \(.file): \(.error)"' "$tmp/import.json" >&2
fi
check "crate: 1 mesh, 48 triangles" jq -e '.[0] | .meshes == 1 and .triangles == 48 and .armatures == 0 and .actions == 0' "$tmp/import.json" >/dev/null
check "legacy: 6 triangles" jq -e '.[1] | .meshes >= 1 and .triangles == 6' "$tmp/import.json" >/dev/null
check "walker: 1 skinned mesh on 1 armature of 7 bones, 2 actions, 64 triangles" \
  jq -e '.[2] | .meshes == 1 and .skinned == 1 and .armatures == 1 and .bones == 7 and .actions == 2 and .triangles == 64' "$tmp/import.json" >/dev/null
if [ -f "$xwing" ]; then
  # The game's view (the default since --all exists; this was 2 skinned meshes
  # and 4140 triangles when everything was exported): the most detailed level
  # only. Its colorized texture comes without alpha (the faction mask is an
  # image of its own that no material samples), so Blender does not draw the
  # masked texels black, and it glows through emissiveTexture.
  check "X-wing: 1 skinned mesh, 22 bones, 2 actions, 1816 triangles" \
    jq -e '.[3] | .skinned == 1 and .meshes == 1 and .armatures == 1 and .bones == 22 and .actions == 2 and .triangles == 1816' "$tmp/import.json" >/dev/null
  check "X-wing: its base colour image is opaque in Blender, and also its emission" \
    jq -e '.[3].base_images | length == 1 and all(.[]; .min_alpha == 1 and .emission)' "$tmp/import.json" >/dev/null
fi
if [ -f "$tmp/CSJ_GyroP.glb" ]; then
  # A P3D's textures, found in its addon folder: 4 images, each the base colour
  # of a material, opaque (their PAA files have no FLAG tag).
  check "gyrocopter: 4 images, each a base colour, opaque" \
    jq -e '.[] | select(.file | endswith("CSJ_GyroP.glb")) | .images == 4 and (.base_images | length) == 4 and
           all(.base_images[]; .min_alpha == 1)' "$tmp/import.json" >/dev/null
fi
finish
