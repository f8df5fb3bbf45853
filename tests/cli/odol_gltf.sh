#!/usr/bin/env bash
# ferry convert model.p3d out.glb|out.gltf on ODOL models: the bundled
# samples (samples/odol, or made by make_odol_samples when they are not
# committed yet) and, with ../shared, every real model (v40, v48, v50).
# By default (the game's view) an output holds the most detailed visual
# LOD only: the lowest resolution below 1000 in `ferry info`. With --all it
# has every LOD as a node under the root, named by its resolution as `ferry
# info` names it, as many triangles as info counts (a quad is two) less one
# triangle per proxy (proxy markers are not drawn), and passes the Khronos
# validator with zero errors. --lod picks LODs; bad input, bad --lod
# values and conflicting LOD options fail with the right status.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
validate="$SRC/tests/gltf/validate.mjs"
have_validator=false
command -v node >/dev/null 2>&1 && [ -d "$SRC/tests/gltf/node_modules/gltf-validator" ] && have_validator=true
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

models=()
maker="$(dirname "$FERRY")/make_odol_samples"
if ! compgen -G "$SRC/samples/odol/*.p3d" >/dev/null && [ -x "$maker" ]; then
  # It writes only the samples that read back and validate.
  mkdir -p "$tmp/samples"
  "$maker" "$tmp/samples" >/dev/null 2>&1 || true
fi
if compgen -G "$SRC/samples/odol/*.p3d" >/dev/null; then
  models+=("$SRC"/samples/odol/*.p3d)
elif compgen -G "$tmp/samples/odol/*.p3d" >/dev/null; then
  models+=("$tmp"/samples/odol/*.p3d)
else
  left_out "the ODOL samples (samples/odol absent, make_odol_samples unavailable)"
fi
corpus="$SHARED/corpus/odol/v40"
if [ -d "$corpus" ]; then
  models+=("$corpus"/*.p3d)
  for later in "$SHARED"/corpus/odol/v48 "$SHARED"/corpus/odol/v50; do
    [ -d "$later" ] && models+=("$later"/*.p3d)
  done
else
  left_out "the real models ($corpus is absent)"
fi
[ "${#models[@]}" -gt 0 ] || skip "no ODOL model to convert"

outputs=()
for f in "${models[@]}"; do
  name=$(basename "$f" .p3d)
  expect 0 "info --json $name" -- "$FERRY" info --json "$f"
  jq -r '.[0].lods[].name' "$tmp/out" >"$tmp/want_names"
  # Each proxy's marker triangle (one per proxy in every real file) is
  # not drawn: the proxy is a node.
  want_tris=$(jq '[.[0].lods[] | .triangles + 2 * .quads - .proxies] | add // 0' "$tmp/out")
  lod_count=$(jq '.[0].lods | length' "$tmp/out")
  visual=$(jq -r '[.[0].lods[] | select(.resolution >= 0 and .resolution < 1000)] | sort_by(.resolution) | .[0].name // ""' "$tmp/out")
  view_faces=$(jq '[.[0].lods[] | select(.resolution >= 0 and .resolution < 1000)] | sort_by(.resolution) | (.[0] // {}) | (.triangles // 0) + (.quads // 0)' "$tmp/out")

  # The default: the game's view, one LOD (every LOD when none is visual).
  expect 0 "convert $name.p3d to .gltf (game view)" -- "$FERRY" convert "$f" "$tmp/$name.view.gltf"
  jq -r '.scenes[0].nodes[0] as $r | (.nodes[$r].children // [])[] as $c | .nodes[$c].name' "$tmp/$name.view.gltf" >"$tmp/view_names"
  if [ -n "$visual" ]; then
    check "$name: the default export holds the most detailed visual LOD ($visual) only" \
      test "$(cat "$tmp/view_names")" = "$visual"
    # A shown LOD without faces (CSJ_Cfloat's 1.000) must not pass silently.
    if [ "$view_faces" -eq 0 ]; then
      check "$name: the game's LOD $visual has no faces: a warning says 0 triangles" grep -q 'warning: 0 triangles exported' "$tmp/err"
    else
      check "$name: no empty-LOD warning" sh -c "! grep -q 'warning: 0 triangles' '$tmp/err'"
    fi
  else
    check "$name: no visual LOD: every LOD exported" test "$(wc -l <"$tmp/view_names")" -eq "$lod_count"
  fi
  expect 0 "convert $name.p3d to .glb (game view)" -- "$FERRY" convert "$f" "$tmp/$name.view.glb"
  expect 0 "convert --game-view $name.p3d" -- "$FERRY" convert --game-view "$f" "$tmp/$name.view2.glb"
  check "$name: --game-view is the default" same_output "$tmp/$name.view.glb" "$tmp/$name.view2.glb"
  outputs+=("$tmp/$name.view.gltf")

  expect 0 "convert --all $name.p3d to .glb" -- "$FERRY" convert --all "$f" "$tmp/$name.glb"
  check "$name: the summary names LODs, triangles and proxies" \
    grep -Eq "$name\.p3d -> .*$name\.glb: $lod_count LODs?, $want_tris triangles, [0-9]+ prox(y|ies)" "$tmp/err"
  check "$name.glb written" test -s "$tmp/$name.glb"
  expect 0 "convert --all $name.p3d to .gltf" -- "$FERRY" convert "$f" "$tmp/$name.gltf" --all
  outputs+=("$tmp/$name.glb" "$tmp/$name.gltf")

  # The LOD nodes: the root's children, in order, named by resolution
  # (a repeated name gets " (2)", " (3)"...).
  jq -r '.scenes[0].nodes[0] as $r | (.nodes[$r].children // [])[] as $c | .nodes[$c].name' "$tmp/$name.gltf" \
    | sed -E 's/ \([0-9]+\)$//' >"$tmp/got_names"
  check "$name: every LOD ($lod_count) is a node named by its resolution" cmp -s "$tmp/want_names" "$tmp/got_names"
  tris_in_file=$(jq '. as $d | [.meshes[]?.primitives[] | select((.mode // 4) == 4) | $d.accessors[.indices].count / 3] | add // 0' "$tmp/$name.gltf")
  check "$name: $want_tris triangles in the file ($tris_in_file)" test "$tris_in_file" = "$want_tris"
done

# Picking LODs: the named ones only; an index the model lacks is a usage error.
first="${models[0]}"
# Whether a model stores animations (its flag byte) and how many classes:
# the text names them only when the flag is set.
expect 0 "info --json: box and door" -- "$FERRY" info --json "$SRC/samples/odol/box.p3d" "$SRC/samples/odol/door.p3d"
check "info --json: animations_present and animation_classes" jq -e '.[0].animations_present == false and
  .[0].animation_classes == 0 and .[1].animations_present == true and .[1].animation_classes == 10' "$tmp/out"
expect 0 "info: door" -- "$FERRY" info "$SRC/samples/odol/door.p3d"
check "info: the door's animation classes" grep -qx "  10 animation classes" "$tmp/out"
expect 0 "info: box" -- "$FERRY" info "$SRC/samples/odol/box.p3d"
check "info: the box has none to name" sh -c "! grep -q 'animation classes' '$tmp/out'"
n=$(jq '.[0].lods | length' <("$FERRY" info --json "$first"))
expect 0 "--lod 0" -- "$FERRY" convert "$first" "$tmp/one.gltf" --lod 0
check "--lod 0 makes one LOD node" test "$(jq '.nodes[.scenes[0].nodes[0]].children | length' "$tmp/one.gltf")" = 1
check "--lod 0 summary" grep -q ": 1 LOD, " "$tmp/err"
expect 2 "--lod past the last LOD" -- "$FERRY" convert "$first" "$tmp/none.glb" --lod "$n"
check "the message names the LOD" grep -q "LOD $n does not exist" "$tmp/err"
check "nothing written for a bad --lod" test ! -e "$tmp/none.glb"
expect 2 "--all with --lod" -- "$FERRY" convert "$first" "$tmp/none.glb" --lod 0 --all
expect 2 "--all with --game-view" -- "$FERRY" convert "$first" "$tmp/none.glb" --all --game-view
expect 2 "--all for a .p3d output" -- "$FERRY" convert "$first" "$tmp/none.p3d" --all
check "nothing written for conflicting options" test ! -e "$tmp/none.glb"

# The skeleton and animation classes (docs/formats/odol-gltf.md, "Skeleton and
# animations"): by default a skin and an animation per class; --no-animations
# keeps the skin only; it is an export option (exit 2 for a .p3d output).
door="$SRC/samples/odol/door.p3d"
if [ -f "$door" ]; then
  expect 0 "door sample with animations" -- "$FERRY" convert "$door" "$tmp/door.gltf"
  anims=$(jq '.animations | length' "$tmp/door.gltf")
  check "door: animations in the file ($anims) as the summary says" grep -q ", 1 skin ([0-9]* joints), $anims animations" "$tmp/err"
  check "door: at least one animation" test "$anims" -ge 1
  check "door: the LOD node is skinned" test "$(jq '[.nodes[] | select(.skin != null)] | length' "$tmp/door.gltf")" = 1
  expect 0 "door sample --no-animations" -- "$FERRY" convert --no-animations "$door" "$tmp/door_still.gltf"
  check "--no-animations: no animation, the skin stays" \
    test "$(jq '[((.animations // []) | length), (.skins | length)] | @csv' "$tmp/door_still.gltf")" = '"0,1"'
  expect 2 "--no-animations for a .p3d output" -- "$FERRY" convert --no-animations "$door" "$tmp/none.p3d"
  outputs+=("$tmp/door.gltf" "$tmp/door_still.gltf")
fi

# Bad input: a cut file fails with a location, nothing written.
size=$(stat -c %s "$first")
head -c $((size / 2)) "$first" >"$tmp/cut.p3d"
expect 1 "a truncated model" -- "$FERRY" convert "$tmp/cut.p3d" "$tmp/cut.glb"
check "the error is located" grep -q "offset" "$tmp/err"
check "nothing written for a truncated model" test ! -e "$tmp/cut.glb"

# A NaN vertex position (issue 16): validate names it with its offset and
# fails (exit 1); convert refuses it the same way. Needs a raw positions array.
"$FERRY" dump --json "$first" >"$tmp/dump.json" 2>/dev/null
compressed=$(jq -r '.lods[0].arrays.positions.compressed' "$tmp/dump.json")
if [ "$compressed" = false ]; then
  at=$(( $(jq '.lods[0].arrays.positions.offset' "$tmp/dump.json") + 4 ))
  cp "$first" "$tmp/nan.p3d"
  printf '\x00\x00\xc0\x7f' | dd of="$tmp/nan.p3d" bs=1 seek="$at" conv=notrunc status=none
  expect 1 "validate: a NaN position" -- "$FERRY" validate "$tmp/nan.p3d"
  check "the error names the vertex and its offset" grep -q "offset $(printf '0x%x' "$at").*lods\[0\]/positions\[0\].*not a finite number" "$tmp/out" "$tmp/err"
  expect 1 "convert: a NaN position" -- "$FERRY" convert "$tmp/nan.p3d" "$tmp/nan.glb"
  check "convert names the vertex too" grep -q "lods\[0\]/positions\[0\]" "$tmp/out" "$tmp/err"
  check "nothing written for a NaN position" test ! -e "$tmp/nan.glb"
else
  left_out "the NaN check ($first stores its positions compressed)"
fi

if $have_validator; then
  expect 0 "every output passes the Khronos validator" -- node "$validate" "${outputs[@]}"
  check "zero errors in every file" test "$(grep -c ': 0 errors' "$tmp/out")" -eq "${#outputs[@]}"
  cat "$tmp/out"
else
  left_out "the Khronos validator (node or tests/gltf/node_modules/gltf-validator is not installed (tools/setup.sh test installs them))"
fi
finish
