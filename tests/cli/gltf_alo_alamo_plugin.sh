#!/usr/bin/env bash
# An independent reader: the Blender ALAMO plugin (AlamoEngine-Tools'
# io_alamo_tools) imports the ueaw models and their ALO -> glTF (--all) ->
# ALO round trips; what it builds (meshes, bones and their visibility,
# triangles, vertices, proxies, hidden meshes, shader names, parents, world
# bounds) must be the same. Skipped without Blender, ../shared, or
# FERRY_ALAMO_PLUGIN (the plugin's io_alamo_tools folder; a copy is taken
# and its native-size struct "l"/"L" reads, 8 bytes on Linux, are made
# 4-byte little-endian, as the format has them).
set -u
FERRY=$1 SRC=$2 SHARED=${3:-}
models="$SHARED/corpus/alamo/ueaw/Models"
if ! command -v blender >/dev/null 2>&1 || [ ! -d "$models" ] || [ ! -d "${FERRY_ALAMO_PLUGIN:-/nonexistent}" ]; then
  echo "SKIP: needs blender, $models and FERRY_ALAMO_PLUGIN"
  exit 77
fi
. "$(dirname "$0")/lib.bash"

mkdir -p "$tmp/addon"
cp -r "$FERRY_ALAMO_PLUGIN" "$tmp/addon/io_alamo_tools"
sed -i 's/unpack("l"/unpack("<i"/g; s/unpack("L"/unpack("<I"/g' "$tmp/addon/io_alamo_tools/import_alo.py"
cat >"$tmp/import.py" <<PY
import sys, json
import bpy
sys.path.insert(0, "$tmp/addon")
import io_alamo_tools
out = []
for f in sys.argv[sys.argv.index("--") + 1:]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        io_alamo_tools.register()
    except Exception:
        pass
    try:
        getattr(bpy.ops, "import").alo(filepath=f)
    except Exception:
        pass  # its animation lookup fails on Linux paths, after the model is in
    objs = list(bpy.context.scene.objects)
    meshes = [o for o in objs if o.type == "MESH"]
    arm = [o for o in objs if o.type == "ARMATURE"]
    pts = [o.matrix_world @ v.co for o in meshes for v in o.data.vertices]
    out.append({
        "meshes": sorted(o.name for o in meshes),
        "bones": sorted((b.name, bool(b.get("Visible", True))) for o in arm for b in o.data.bones),
        "proxies": sorted((b.name, str(b.get("ProxyName", "")), bool(b.get("proxyIsHidden", False))) for o in arm for b in o.data.bones if b.get("EnableProxy", False)),
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
        "vertices": sum(len(o.data.vertices) for o in meshes),
        "hidden": sorted(o.name for o in meshes if o.hide_viewport or o.hide_get()),
        "shaders": sorted(str(m.shaderList.shaderList) for o in meshes for m in o.data.materials if m and hasattr(m, "shaderList")),
        "parents": sorted((o.name, o.parent_bone if o.parent_type == "BONE" else (o.parent.name if o.parent else "")) for o in meshes),
        "bounds": [[round(min(p[k] for p in pts), 3) for k in range(3)], [round(max(p[k] for p in pts), 3) for k in range(3)]] if pts else None,
    })
print("RESULT " + json.dumps(out))
PY
files=()
for alo in "$models"/*.ALO; do
  name=$(basename "$alo" .ALO)
  expect 0 "$name: export --all" -- "$FERRY" convert --all --no-textures "$alo" "$tmp/$name.glb"
  expect 0 "$name: glTF -> ALO" -- "$FERRY" convert "$tmp/$name.glb" "$tmp/$name.alo"
  files+=("$alo" "$tmp/$name.alo")
done
blender -b --factory-startup --python "$tmp/import.py" -- "${files[@]}" 2>/dev/null | sed -n 's/^RESULT //p' >"$tmp/result.json"
check "the plugin read every file" test "$(jq length "$tmp/result.json")" -eq "${#files[@]}"
for ((i = 0; i < ${#files[@]}; i += 2)); do
  name=$(basename "${files[i]}")
  check "$name: the plugin imports the round trip as the original" \
    test "$(jq -c ".[$i]" "$tmp/result.json")" = "$(jq -c ".[$((i + 1))]" "$tmp/result.json")"
  check "$name: with triangles" test "$(jq ".[$i].triangles" "$tmp/result.json")" -gt 0
done
finish
