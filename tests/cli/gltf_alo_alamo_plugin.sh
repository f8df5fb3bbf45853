#!/usr/bin/env bash
# An independent reader: the Blender ALAMO plugin (io_alamo_tools, from
# ../shared/peers/blender-alamo-plugin, or the folder FERRY_ALAMO_PLUGIN
# names) imports the ueaw models and their ALO -> glTF (--all) -> ALO round
# trips; what it builds (meshes, bones and their visibility, triangles,
# vertices, proxies, hidden meshes, shader names, parents and bone
# constraints, world bounds) must be the same, and every import must finish.
# Skipped without Blender, the ueaw models or the plugin.
#
# The plugin is used as it is, never copied or changed. What a Linux run
# needs (../shared/peers/README.md) is given at run time by the driver
# below: its modules read with native struct sizes ('l' is 8 bytes on Linux,
# 4 in the format), so each module's `struct` is replaced by one that reads
# with standard sizes, little-endian, as the format has them; and its
# animation lookup splits paths at backslashes, so animations are not
# imported (importAnimations=False, the plugin's own option: the round trips
# have no animations beside them, so they would differ anyway).
set -u
FERRY=$1 SRC=$2 SHARED=${3:-}
. "$(dirname "$0")/lib.bash"
models="$SHARED/corpus/alamo/ueaw/Models"
plugin=${FERRY_ALAMO_PLUGIN:-$SHARED/peers/blender-alamo-plugin/io_alamo_tools}
command -v blender >/dev/null 2>&1 || skip "blender is not installed (apt-get install blender)"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"
[ -d "$models" ] || skip "$models is absent"
[ -f "$plugin/__init__.py" ] || skip "the ALAMO plugin is not at $plugin (set FERRY_ALAMO_PLUGIN to its io_alamo_tools folder)"
[ "$(basename "$plugin")" = io_alamo_tools ] || skip "$plugin: the plugin imports itself as io_alamo_tools; name that folder"


files=()
for alo in "$models"/*.ALO; do
  name=$(basename "$alo" .ALO)
  expect 0 "$name: export --all" -- "$FERRY" convert --all --no-textures "$alo" "$tmp/$name.glb"
  expect 0 "$name: glTF -> ALO" -- "$FERRY" convert "$tmp/$name.glb" "$tmp/$name.alo"
  files+=("$alo" "$tmp/$name.alo")
done
check "the ueaw models are there" test "${#files[@]}" -ge 8
expect 0 "blender runs the plugin" -- blender -b --factory-startup --python "$SRC/tests/alamo_plugin_import.py" -- "$(dirname "$plugin")" "${files[@]}"
sed -n 's/^RESULT //p' "$tmp/out" >"$tmp/result.json"
if ! jq -e . "$tmp/result.json" >/dev/null 2>&1; then
  tail -n 20 "$tmp/err" >&2
fi
check "the plugin read every file" test "$(jq length "$tmp/result.json" 2>/dev/null)" = "${#files[@]}"
for ((i = 0; i < ${#files[@]}; i += 2)); do
  name=$(basename "${files[i]}")
  check "$name: the plugin's import of the original finishes" \
    jq -e ".[$i].result == [\"FINISHED\"]" "$tmp/result.json" >/dev/null
  check "$name: the plugin's import of the round trip finishes" \
    jq -e ".[$((i + 1))].result == [\"FINISHED\"]" "$tmp/result.json" >/dev/null
  a=$(jq -c ".[$i]" "$tmp/result.json" 2>/dev/null)
  b=$(jq -c ".[$((i + 1))]" "$tmp/result.json" 2>/dev/null)
  if [ -n "$a" ] && [ "$a" != "$b" ]; then
    diff <(jq ".[$i]" "$tmp/result.json") <(jq ".[$((i + 1))]" "$tmp/result.json") | head -n 20 >&2
  fi
  check "$name: the plugin imports the round trip as the original" test -n "$a" -a "$a" = "$b"
  check "$name: with triangles" test "$(jq ".[$i].triangles" "$tmp/result.json" 2>/dev/null)" -gt 0
  check "$name: with bones" test "$(jq ".[$i].bones | length" "$tmp/result.json" 2>/dev/null)" -gt 0
done
finish
