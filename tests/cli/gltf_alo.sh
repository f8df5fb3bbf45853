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

expect 2 "unknown option" -- "$FERRY" convert --bogus "$tmp/points.gltf" "$tmp/x.alo"
expect 0 "help" -- "$FERRY" convert --help
check "help names glTF -> ALO" grep -q "IN.glb|IN.gltf -> OUT.alo" "$tmp/out"
finish
