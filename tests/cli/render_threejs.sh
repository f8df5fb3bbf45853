#!/usr/bin/env bash
# What ferry writes opens and renders in a real viewer: three.js's GLTFLoader in
# headless Chromium (tests/render/render.mjs). Every bundled sample loads with
# the expected meshes, skins, bones and animations and draws pixels; the
# walker's skin stays in place when animated (also as an ALM built from it);
# a P3D sample renders; with ../shared, the X-wing loads
# with its textures and its deploy animation. Skips (77) when Debian's chromium
# or tests/render/node_modules (cd tests/render && npm ci) is absent.
set -u
FERRY=$1 SRC=$2 SHARED=$3
chromium=${CHROMIUM:-/usr/bin/chromium}
. "$(dirname "$0")/lib.bash"
if ! command -v node >/dev/null 2>&1 || [ ! -x "$chromium" ]; then
  skip "node or $chromium is not installed (apt-get install chromium)"
fi
if [ ! -d "$SRC/tests/render/node_modules/three" ] || [ ! -d "$SRC/tests/render/node_modules/playwright-core" ]; then
  skip "tests/render/node_modules is missing: run (cd tests/render && npm ci)"
fi
render="$SRC/tests/render/render.mjs"
export CHROMIUM=$chromium

expect 2 "render.mjs without files is a usage error" -- node "$render" "$tmp/shots"
printf 'glTF\002\000\000\000\014\000\000\000' >"$tmp/broken.glb"
expect 1 "a broken .glb fails to load" -- node "$render" --quiet "$tmp/shots" "$tmp/broken.glb"
check "the summary says why" jq -e '.[0].ok == false and (.[0].errors | length) > 0' "$tmp/shots/summary.json" >/dev/null

expect 0 "convert the crate" -- "$FERRY" convert "$SRC/samples/alamo/crate.alo" "$tmp/crate.glb"
expect 0 "convert the legacy model" -- "$FERRY" convert "$SRC/samples/alamo/legacy.alo" "$tmp/legacy.glb"
expect 0 "convert the walker with its animations" -- "$FERRY" convert --anim auto "$SRC/samples/alamo/walker.alo" "$tmp/walker.glb"

# At rest: node transforms as stored, no animation applied.
expect 0 "the samples load and render" -- node "$render" --rest "$tmp/shots" "$tmp/crate.glb" "$tmp/legacy.glb" "$tmp/walker.glb"
sum="$tmp/shots/summary.json"
for n in crate legacy walker; do
  check "$n.png written" test -s "$tmp/shots/$n.png"
  check "$n drew at least 1000 pixels" jq -e --arg n "$n" '.[] | select(.file | endswith("/" + $n + ".glb")) | .ok and .nonBackgroundPixels >= 1000' "$sum" >/dev/null
done
check "no load warnings" jq -e 'all(.[]; (.warnings | length) == 0 and (.consoleErrors | length) == 0)' "$sum" >/dev/null
# Says which, when there are (seen once in CI under load, not reproduced).
jq -c '.[] | select((.warnings | length) > 0 or (.consoleErrors | length) > 0) | {file, warnings, consoleErrors}' "$sum" >&2
check "crate: 1 mesh, 48 triangles, no skin, no animation" \
  jq -e '.[0].stats | .meshes == 1 and .triangles == 48 and .skinnedMeshes == 0 and (.animations | length) == 0' "$sum" >/dev/null
check "legacy: 2 meshes, 6 triangles" jq -e '.[1].stats | .meshes == 2 and .triangles == 6' "$sum" >/dev/null
check "walker: 1 skinned mesh, 7 bones in one skin, 64 triangles, 2 animations" \
  jq -e '.[2].stats | .meshes == 1 and .skinnedMeshes == 1 and .bones == 7 and .skins == [7] and .triangles == 64 and (.animations | length) == 2 and .nonFinitePositions == 0' "$sum" >/dev/null

# Mid-animation: the skinned walker is posed, stays where it was (its bounding
# box keeps its size within a factor 2: no vertex collapsed to the origin or
# thrown away), and the pose differs from the rest pose.
for a in 0 1; do
  expect 0 "walker animation $a at half its duration" -- node "$render" --anim $a --at 0.5 --suffix "_anim$a" "$tmp/shots" "$tmp/walker.glb"
  s="$tmp/shots/summary_anim$a.json"
  check "walker animation $a: renders" jq -e '.[0].ok and .[0].nonBackgroundPixels >= 1000 and .[0].anim.time > 0' "$s" >/dev/null
  check "walker animation $a: the skin stays in place" jq -e '.[0].stats as $s |
    [range(3)] | all(. as $i | (($s.box.max[$i] - $s.box.min[$i]) as $d | ($s.restBox.max[$i] - $s.restBox.min[$i]) as $r |
      $d <= 2 * $r + 1e-6 and $d >= $r / 2 - 1e-6))' "$s" >/dev/null
  check "walker animation $a: the pose moves the mesh" jq -e '.[0].stats | .box != .restBox' "$s" >/dev/null
done

# The other formats' exports: a P3D sample (--all: every LOD a node) and an ALM
# built from the walker with its walk cycle (a skin, frames as an animation).
expect 0 "convert the P3D box" -- "$FERRY" convert --all "$SRC/samples/odol/box.p3d" "$tmp/box.glb"
expect 0 "build an ALM from the walker" -- "$FERRY" convert "$SRC/samples/alamo/walker.alo" "$tmp/walker.alm" --anim "$SRC/samples/alamo/walker_walk_00.ala"
expect 0 "export the ALM" -- "$FERRY" convert "$tmp/walker.alm" "$tmp/walker_alm.glb"
expect 0 "the P3D and ALM exports load and render" -- node "$render" --rest --suffix _other "$tmp/shots" "$tmp/box.glb" "$tmp/walker_alm.glb"
s="$tmp/shots/summary_other.json"
check "P3D box: drawn, 24 triangles over its LODs, no warnings" \
  jq -e '.[0].ok and .[0].nonBackgroundPixels >= 1000 and .[0].stats.triangles == 24 and (.[0].warnings | length) == 0' "$s" >/dev/null
check "ALM walker: drawn, one skinned mesh of 64 triangles, one animation" \
  jq -e '.[1].ok and .[1].nonBackgroundPixels >= 1000 and .[1].stats.skinnedMeshes == 1 and .[1].stats.triangles == 64 and (.[1].stats.animations | length) == 1' "$s" >/dev/null
expect 0 "the ALM walker mid-walk" -- node "$render" --anim 0 --at 0.5 --suffix _alm "$tmp/shots" "$tmp/walker_alm.glb"
s="$tmp/shots/summary_alm.json"
check "ALM walker: the pose moves the mesh and the skin stays in place" jq -e '.[0].ok and (.[0].stats as $s | $s.box != $s.restBox and
  ([range(3)] | all(. as $i | (($s.box.max[$i] - $s.box.min[$i]) as $d | ($s.restBox.max[$i] - $s.restBox.min[$i]) as $r |
    $d <= 2 * $r + 1e-6 and $d >= $r / 2 - 1e-6))))' "$s" >/dev/null

xwing="$SHARED/corpus/alamo/ueaw/Models/VSF_XWING.ALO"
if [ -f "$xwing" ]; then
  # The default export is what the game draws: the X-wing's most detailed level
  # (X_Wing_LOD1, 1816 triangles) alone, without its coarser LOD0, its hidden
  # muzzle flashes and engine glows, or its collision mesh (--all: 2 skinned
  # meshes and 4140 triangles, as the default was before).
  expect 0 "convert the X-wing with its animations" -- "$FERRY" convert --anim auto "$xwing" "$tmp/VSF_XWING.glb"
  expect 0 "the X-wing renders mid-deploy" -- node "$render" --at 0.5 --suffix _x "$tmp/shots" "$tmp/VSF_XWING.glb"
  s="$tmp/shots/summary_x.json"
  check "X-wing: 1 skinned mesh of 1816 triangles, 2 animations, textured" \
    jq -e '.[0].stats | .skinnedMeshes == 1 and .meshes == 1 and .triangles == 1816 and (.animations | length) == 2 and .materialsWithMaps >= 1 and .textures >= 1' "$s" >/dev/null
  expect 0 "convert the X-wing with --all" -- "$FERRY" convert --all "$xwing" "$tmp/VSF_XWING_all.glb"
  expect 0 "the whole X-wing renders, --hide-hidden draws what the game draws" -- node "$render" --rest --hide-hidden --suffix _xall "$tmp/shots" "$tmp/VSF_XWING_all.glb"
  check "X-wing --all: 2 skinned meshes, 4140 triangles, all but one hidden by extras" \
    jq -e '.[0].stats | .skinnedMeshes == 2 and .triangles == 4140 and .hiddenByExtras == 8' "$tmp/shots/summary_xall.json" >/dev/null
  check "X-wing: upright (Y extent the smallest), nose along Z (Z extent the largest)" jq -e '.[0].stats.restBox as $b |
    [range(3) | $b.max[.] - $b.min[.]] as $d | $d[1] < $d[0] and $d[0] < $d[2]' "$s" >/dev/null
  check "X-wing: the skins stay in place mid-deploy" jq -e '.[0].stats as $s |
    [range(3)] | all(. as $i | (($s.box.max[$i] - $s.box.min[$i]) as $d | ($s.restBox.max[$i] - $s.restBox.min[$i]) as $r |
      $d <= 1.5 * $r and $d >= $r / 1.5))' "$s" >/dev/null
else
  left_out "the X-wing render ($xwing is absent)"
fi
gyro="$SHARED/corpus/odol/v40/CSJ_GyroP.p3d"
if [ -f "$gyro" ] && [ -d "$SHARED/corpus/odol/addons" ]; then
  # A P3D with its textures found in its addon folder (docs/formats/odol-gltf.md, "Textures").
  expect 0 "convert the gyrocopter with --textures" -- "$FERRY" convert "$gyro" "$tmp/CSJ_GyroP.glb" --textures "$SHARED/corpus/odol/addons"
  expect 0 "the textured gyrocopter renders" -- node "$render" --suffix _gyro "$tmp/shots" "$tmp/CSJ_GyroP.glb"
  check "gyrocopter: drawn, its 4 materials with their textures" \
    jq -e '.[0].ok and .[0].nonBackgroundPixels >= 1000 and .[0].stats.materialsWithMaps == 4 and .[0].stats.textures >= 4' \
    "$tmp/shots/summary_gyro.json" >/dev/null
else
  left_out "the gyrocopter render ($gyro or its addons are absent)"
fi
if [ -n "${FERRY_RENDER_KEEP:-}" ]; then
  mkdir -p "$FERRY_RENDER_KEEP" && cp "$tmp"/shots/*.png "$tmp"/shots/*.json "$FERRY_RENDER_KEEP"/
  echo "screenshots kept in $FERRY_RENDER_KEEP"
fi
finish
