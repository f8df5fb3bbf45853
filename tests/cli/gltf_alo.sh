#!/usr/bin/env bash
# ferry convert IN.glb|IN.gltf OUT.alo: the project's sample models through
# ALO -> glTF (--all) -> ALO, a glTF that cannot become a model, --help.
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

for alo in "$SRC"/samples/alamo/*.alo; do
  name=$(basename "$alo" .alo)
  "$FERRY" info "$alo" 2>/dev/null | grep -q "particle" && continue
  expect 0 "$name: export --all" -- "$FERRY" convert --all --no-textures "$alo" "$tmp/$name.glb"
  expect 0 "$name: glTF -> ALO" -- "$FERRY" convert "$tmp/$name.glb" "$tmp/$name.alo"
  check "$name: summary names bones and triangles" grep -q "bones\?, .* triangles\?, .* materials\? (.* from ferry's extras" "$tmp/err"
  expect 0 "$name: the result validates" -- "$FERRY" validate "$tmp/$name.alo"
  check "$name: no validation errors" grep -q ": 0 errors" "$tmp/out"
done

# The walker with its two animations: the model and one ALA per glTF
# animation beside it, named as the game finds them (the animation's own
# name already starts with the model's), each fitting the model.
mkdir -p "$tmp/anim"
expect 0 "walker: export with animations" -- "$FERRY" convert --all --no-textures --anim auto "$SRC/samples/alamo/walker.alo" "$tmp/walker_anim.glb"
expect 0 "walker: glTF -> ALO and ALAs" -- "$FERRY" convert "$tmp/walker_anim.glb" "$tmp/anim/WALKER.alo"
check "walker: says the animations were written" grep -q "2 animations written as .ala" "$tmp/err"
check "walker: walker_idle_00.ala beside the model" test -s "$tmp/anim/walker_idle_00.ala"
check "walker: walker_walk_00.ala beside the model" test -s "$tmp/anim/walker_walk_00.ala"
expect 0 "walker: model and animations validate together" -- "$FERRY" validate "$tmp/anim/WALKER.alo" "$tmp/anim/walker_idle_00.ala" "$tmp/anim/walker_walk_00.ala"
check "walker: each animation checked against the model" test "$(grep -c "0 errors, 0 warnings (against .*WALKER.alo)" "$tmp/out")" -eq 2
# A name that does not start with the model's gets OUT_<NAME>.ala.
mkdir -p "$tmp/anim2"
expect 0 "walker as another name" -- "$FERRY" convert "$tmp/walker_anim.glb" "$tmp/anim2/MECH.alo"
check "MECH_walker_idle_00.ala" test -s "$tmp/anim2/MECH_walker_idle_00.ala"

# A particle system's export is not a model.
expect 0 "particles: export" -- "$FERRY" convert "$SRC/samples/alamo/p_walker_exhaust.alo" "$tmp/p.glb"
expect 1 "particles: refused" -- "$FERRY" convert "$tmp/p.glb" "$tmp/p.alo"
check "particles: said why" grep -q "particle system, not a model" "$tmp/err"

# A point primitive cannot become an ALO mesh: exit 1, the place named, nothing written.
cat >"$tmp/points.gltf" <<'JSON'
{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"p","mesh":0}],
 "meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":0}]}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
 "bufferViews":[{"buffer":0,"byteLength":12}],
 "buffers":[{"byteLength":12,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA"}]}
JSON
expect 1 "points refused" -- "$FERRY" convert "$tmp/points.gltf" "$tmp/points.alo"
check "points: located" grep -q "primitives\[0\].*only triangles" "$tmp/err"
check "points: nothing written" test ! -e "$tmp/points.alo"

# A model validation would find errors in is not written: a shader parameter
# ferry's extras give as null (a NaN float) is value-finite's error.
cat >"$tmp/nan.gltf" <<'JSON'
{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"t","mesh":0}],
 "materials":[{"name":"m","extras":{"shader":"MeshGloss.fx","params":{"Shininess":null}}}],
 "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
 "bufferViews":[{"buffer":0,"byteLength":36}],
 "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]}
JSON
expect 1 "invalid result refused" -- "$FERRY" convert "$tmp/nan.gltf" "$tmp/nan.alo"
check "invalid: the rule named" grep -q "Shininess.*value-finite" "$tmp/err"
check "invalid: said not written" grep -q "would not be a valid model (1 error above): not written" "$tmp/err"
check "invalid: nothing written" test ! -e "$tmp/nan.alo"
expect 0 "invalid: --allow-invalid writes it" -- "$FERRY" convert --allow-invalid "$tmp/nan.gltf" "$tmp/nan.alo"
check "invalid: written with --allow-invalid" test -s "$tmp/nan.alo"

# Textures: a glTF (not ferry's) with an 8 x 8 PNG base colour texture whose
# right half is half transparent; --textures-out writes it as the .dds the
# material names, which the game's lookup (validate --textures) then finds.
cat >"$tmp/panel.gltf" <<'JSON'
{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"Panel","mesh":0}],
 "materials":[{"name":"panel","pbrMetallicRoughness":{"baseColorTexture":{"index":0}},"alphaMode":"BLEND"}],
 "textures":[{"source":0}],"images":[{"name":"panel_paint","uri":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAY0lEQVR4nBXKMQEEMQgAMKRUClIYTghSKgUpOPlPh2yJiO93SIqOry/DEnEEkqKPwLDnhRRIik6BYfOFEkiKLoFh64UWSIpugWH7hSuQFH0Fhr0vjEBS9AgMOy+sQFL0CgzLH8i8gOGGgfRdAAAAAElFTkSuQmCC"}],
 "meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"material":0}]}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
  {"bufferView":1,"componentType":5126,"count":3,"type":"VEC2"}],
 "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":24}],
 "buffers":[{"byteLength":60,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/"}]}
JSON
expect 0 "panel: without --textures-out" -- "$FERRY" convert "$tmp/panel.gltf" "$tmp/panel.alo"
check "panel: says the texture was not written" grep -q "1 texture named from the glTF's images, not written" "$tmp/err"
mkdir -p "$tmp/tex"
expect 0 "panel: --textures-out" -- "$FERRY" convert "$tmp/panel.gltf" "$tmp/panel.alo" --textures-out "$tmp/tex"
check "panel: 1 texture written" grep -q "1 of 1 texture written" "$tmp/err"
check "panel: a DXT5 .dds (alpha)" test "$(head -c 4 "$tmp/tex/panel_paint.dds")$(tail -c +85 "$tmp/tex/panel_paint.dds" | head -c 4)" = "DDS DXT5"
expect 0 "panel: MeshAlpha" -- "$FERRY" info "$tmp/panel.alo"
check "panel: shader MeshAlpha.fx" grep -q "MeshAlpha.fx" "$tmp/out"
expect 0 "panel: texture found by the game's lookup" -- "$FERRY" validate --textures "$tmp/tex" "$tmp/panel.alo"
check "panel: no warnings" grep -q "0 errors, 0 warnings" "$tmp/out"

expect 2 "unknown option" -- "$FERRY" convert --bogus "$tmp/points.gltf" "$tmp/x.alo"
expect 0 "help" -- "$FERRY" convert --help
check "help names glTF -> ALO" grep -q "IN.glb|IN.gltf -> OUT.alo" "$tmp/out"
finish
