#!/usr/bin/env bash
# The Blender add-on (docs/blender.md), measured in Blender headless:
#
# 1. Import time: the add-on's import of a model (ferry writes the .glb, with
#    textures and animations, Blender's glTF importer reads it, the add-on
#    sorts it) against Blender's own glTF importer on the .glb the ferry tool
#    writes for it with the same options (ferry convert --anim auto), and
#    both without textures (the add-on's Textures off, --no-textures); the
#    best of ROUNDS, each in a fresh empty scene, after a warm-up. The goal:
#    at most 1.5 times.
# 2. Beside the Blender ALAMO plugin (../shared/peers, run as it is by
#    tests/alamo_plugin_import.py): what each imports of the same files
#    (everything: the add-on's view ALL; the plugin imports every mesh).
#
#   bash bench/blender.sh [BUILD_DIR] [SHARED] [ROUNDS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
shared=${2:-$here/../../shared}
rounds=${3:-5}
[ -x "$build/ferry" ] && [ -e "$build/libferry.so" ] || { echo "bench/blender.sh: build first (make)" >&2; exit 1; }
command -v blender >/dev/null || { echo "skipped: blender is not installed"; exit 0; }
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== machine"
echo "cpu:     $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1) ($(nproc) online)"
echo "blender: $(blender --version 2>/dev/null | head -n 1)"
echo "commit:  $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo

"$python" "$here/../blender/make_addon.py" "$build/libferry.so" "$tmp/addon.zip" >/dev/null
models=("$here/../samples/alamo/walker.alo")
corpus=$shared/corpus
if [ -d "$corpus" ]; then
  models+=("$corpus"/alamo/ueaw/Models/*.ALO)
  models+=("$corpus/alamo/icw/Models/RV_Republic.ALO" "$corpus/alamo/icw/Models/W_Boz_Pity_Mausoleum.ALO")
  models+=("$corpus/odol/v40/CSJ_GyroP.p3d" "$corpus/odol/v48/Ikarus.p3d")
else
  echo "note: no corpus at $corpus: the samples only"
fi
pairs=()
for m in "${models[@]}"; do
  [ -f "$m" ] || continue
  glb=$tmp/$(basename "$m").glb
  args=()
  case "$m" in *.alo|*.ALO) args=(--anim auto) ;; esac
  notex=()
  case "$m" in *.alo|*.ALO) notex=(--no-textures) ;; esac
  "$build/ferry" convert "${args[@]}" "$m" "$glb" >/dev/null 2>&1 || { echo "note: $m: ferry convert failed, left out"; continue; }
  "$build/ferry" convert "${args[@]}" "${notex[@]}" "$m" "$glb.plain.glb" >/dev/null 2>&1
  pairs+=("$m" "$glb" "$glb.plain.glb")
done
BLENDER_USER_SCRIPTS=$tmp/scripts blender -b --factory-startup --python "$here/blender_import.py" -- \
  "$tmp/addon.zip" "$tmp/ours.json" "$rounds" "${pairs[@]}" >"$tmp/blender.log" 2>&1 || { tail -n 20 "$tmp/blender.log"; exit 1; }

plugin=$shared/peers/blender-alamo-plugin/io_alamo_tools
plugin_files=()
if [ -f "$plugin/__init__.py" ] && [ -d "$corpus/alamo/ueaw/Models" ]; then
  plugin_files=("$corpus"/alamo/ueaw/Models/*.ALO)
  blender -b --factory-startup --python "$here/../tests/alamo_plugin_import.py" -- "$(dirname "$plugin")" \
    "${plugin_files[@]}" >"$tmp/plugin.log" 2>&1 || true
  sed -n 's/^RESULT //p' "$tmp/plugin.log" >"$tmp/plugin.json"
else
  echo "note: the ALAMO plugin or the ueaw models are absent: no comparison"
fi

"$python" - "$tmp/ours.json" "$tmp/plugin.json" "${plugin_files[@]}" <<'PY'
import json, os, sys
ours = json.load(open(sys.argv[1]))
print("== import time (best of the rounds; add-on / Blender's importer on ferry's .glb)")
print("%-26s %9s %9s %7s   %9s %9s %7s" % ("model", "add-on s", "glTF s", "ratio", "no tex s", "glTF s", "ratio"))
for r in ours:
    print("%-26s %9.3f %9.3f %6.2fx   %9.3f %9.3f %6.2fx" % (
        os.path.basename(r["model"]), r["addon"], r["gltf"], r["addon"] / r["gltf"],
        r["addon_no_textures"], r["gltf_no_textures"], r["addon_no_textures"] / r["gltf_no_textures"]))
t = {k: sum(r[k] for r in ours) for k in ("addon", "gltf", "addon_no_textures", "gltf_no_textures")}
print("%-26s %9.3f %9.3f %6.2fx   %9.3f %9.3f %6.2fx" % (
    "all", t["addon"], t["gltf"], t["addon"] / t["gltf"], t["addon_no_textures"], t["gltf_no_textures"],
    t["addon_no_textures"] / t["gltf_no_textures"]))
files = sys.argv[3:]
if files and os.path.getsize(sys.argv[2]) > 0:
    plugin = json.load(open(sys.argv[2]))
    by_model = {os.path.basename(r["model"]): r["counts"] for r in ours}
    print()
    print("== beside the ALAMO plugin (ueaw models; plugin / add-on, everything imported)")
    keys = ("meshes", "bones", "triangles", "proxies", "hidden")
    print("%-24s %-9s " % ("model", "plugin") + " ".join("%14s" % k for k in keys) + " %8s %8s" % ("shaders", "actions"))
    for f, p in zip(files, plugin):
        a = by_model.get(os.path.basename(f))
        if a is None:
            continue
        ok = p["result"] == ["FINISHED"]
        cells = " ".join("%14s" % ("%s / %s" % (len(p[k]) if isinstance(p[k], list) else p[k], a[k])) for k in keys)
        same_shaders = sorted(s.replace("'", "").strip("[]") for s in p["shaders"]) == a["shaders"]
        print("%-24s %-9s %s %8s %8s" % (os.path.basename(f), "ok" if ok else "FAILED", cells,
                                         "same" if same_shaders else "differ", "- / %d" % a["actions"]))
PY
