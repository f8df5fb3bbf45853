#!/usr/bin/env bash
# ferry convert MODEL.obj|.dae OUT.alo|OUT.glb through Assimp: a hand-written
# OBJ box and Collada pair of triangles (Y up) become Z-up models that
# validate, with the counts and bounds worked out by hand; bad files exit 1.
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

# A box x 0..1, y 0..2 (up), z 0..3: six quads with normals and UVs. The
# Y-up -> Z-up turn (x, y, z) -> (x, -z, y) gives x 0..1, y -3..0, z 0..2.
cat >"$tmp/box.obj" <<'OBJ'
# a box x 0..1, y 0..2 (up), z 0..3, normals and UVs, quads
o Box
v 0 0 0
v 1 0 0
v 1 2 0
v 0 2 0
v 0 0 3
v 1 0 3
v 1 2 3
v 0 2 3
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 -1
vn 0 0 1
vn 0 -1 0
vn 0 1 0
vn -1 0 0
vn 1 0 0
f 1/1/1 4/4/1 3/3/1 2/2/1
f 5/1/2 6/2/2 7/3/2 8/4/2
f 1/1/3 2/2/3 6/3/3 5/4/3
f 4/1/4 8/4/4 7/3/4 3/2/4
f 1/1/5 5/2/5 8/3/5 4/4/5
f 2/1/6 3/4/6 7/3/6 6/2/6
OBJ
expect 0 "OBJ box -> ALO" -- "$FERRY" convert "$tmp/box.obj" "$tmp/box.alo"
check "OBJ: summary names 12 triangles" grep -q "1 mesh (1 sub-mesh), 12 triangles" "$tmp/err"
expect 0 "OBJ box: validates" -- "$FERRY" validate "$tmp/box.alo"
check "OBJ box: 0 errors" grep -q ": 0 errors" "$tmp/out"
expect 0 "OBJ box: info" -- "$FERRY" info "$tmp/box.alo"
# quads split in two; a corner per face (normals differ): 6 x 4 vertices
check "OBJ box: 24 vertices, 12 triangles" grep -q "geometry   24 vertices, 12 triangles" "$tmp/out"
check "OBJ box: turned Z-up (y up 2 -> z 2, z 3 -> y -3)" grep -q "bounds     (0.000, -3.000, 0.000) .. (1.000, 0.000, 2.000)" "$tmp/out"
expect 0 "OBJ box -> glTF" -- "$FERRY" convert "$tmp/box.obj" "$tmp/box.glb"
check "OBJ box: .glb written" test -s "$tmp/box.glb"
expect 0 "OBJ box: the glTF back to ALO" -- "$FERRY" convert "$tmp/box.glb" "$tmp/box2.alo"
expect 0 "OBJ box: info of the round trip" -- "$FERRY" info "$tmp/box2.alo"
check "OBJ box via glTF: same bounds" grep -q "bounds     (0.000, -3.000, 0.000) .. (1.000, 0.000, 2.000)" "$tmp/out"

# Collada: two triangles sharing an edge, vertex (0,1,0) up and (0,0,2) in
# front: in the ALO z = 1 and y = -2.
cat >"$tmp/tri.dae" <<'DAE'
<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_effects>
    <effect id="red-fx"><profile_COMMON><technique sid="common"><lambert>
      <diffuse><color>1 0 0 1</color></diffuse>
    </lambert></technique></profile_COMMON></effect>
  </library_effects>
  <library_materials><material id="red" name="red"><instance_effect url="#red-fx"/></material></library_materials>
  <library_geometries>
    <geometry id="tri-mesh" name="tri">
      <mesh>
        <source id="tri-pos">
          <float_array id="tri-pos-array" count="12">0 0 0  1 0 0  0 1 0  0 0 2</float_array>
          <technique_common><accessor source="#tri-pos-array" count="4" stride="3">
            <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
          </accessor></technique_common>
        </source>
        <vertices id="tri-vtx"><input semantic="POSITION" source="#tri-pos"/></vertices>
        <triangles material="red" count="2">
          <input semantic="VERTEX" source="#tri-vtx" offset="0"/>
          <p>0 1 2  0 2 3</p>
        </triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene">
      <node id="tri-node" name="tri">
        <instance_geometry url="#tri-mesh">
          <bind_material><technique_common><instance_material symbol="red" target="#red"/></technique_common></bind_material>
        </instance_geometry>
      </node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
DAE
expect 0 "Collada -> ALO" -- "$FERRY" convert "$tmp/tri.dae" "$tmp/tri.alo"
expect 0 "Collada: validates" -- "$FERRY" validate "$tmp/tri.alo"
check "Collada: 0 errors" grep -q ": 0 errors" "$tmp/out"
expect 0 "Collada: info" -- "$FERRY" info "$tmp/tri.alo"
check "Collada: 4 vertices, 2 triangles" grep -q "geometry   4 vertices, 2 triangles" "$tmp/out"
check "Collada: (0,1,0) at z = 1, (0,0,2) at y = -2" grep -q "bounds     (0.000, -2.000, 0.000) .. (1.000, 0.000, 1.000)" "$tmp/out"

# The same file saying Z_UP: Assimp turns it Y-up (a -90 degree root about
# X), ferry turns that back: the file's own axes are the ALO's.
sed 's/Y_UP/Z_UP/' "$tmp/tri.dae" >"$tmp/triz.dae"
expect 0 "Collada Z_UP -> ALO" -- "$FERRY" convert "$tmp/triz.dae" "$tmp/triz.alo"
expect 0 "Collada Z_UP: info" -- "$FERRY" info "$tmp/triz.alo"
check "Collada Z_UP: (0,1,0) at y = 1, (0,0,2) at z = 2" grep -q "bounds     (0.000, 0.000, -0.000) .. (1.000, 1.000, 2.000)" "$tmp/out"

# A diffuse texture the file names (not loaded): the ALO material names
# its .dds; a glTF output leaves it out and says so.
sed -e 's|<library_effects>|<library_images><image id="img" name="img"><init_from>textures/rock_diffuse.png</init_from></image></library_images><library_effects>|' \
    -e 's|<profile_COMMON>|<profile_COMMON><newparam sid="img-surface"><surface type="2D"><init_from>img</init_from></surface></newparam><newparam sid="img-sampler"><sampler2D><source>img-surface</source></sampler2D></newparam>|' \
    -e 's|<diffuse><color>1 0 0 1</color></diffuse>|<diffuse><texture texture="img-sampler" texcoord="UVMap"/></diffuse>|' \
    "$tmp/tri.dae" >"$tmp/tex.dae"
expect 0 "textured Collada -> ALO" -- "$FERRY" convert "$tmp/tex.dae" "$tmp/tex.alo"
expect 0 "textured Collada: info" -- "$FERRY" info "$tmp/tex.alo"
check "textured Collada: the texture's name" grep -q "textures   rock_diffuse.dds" "$tmp/out"
expect 0 "textured Collada -> glTF" -- "$FERRY" convert "$tmp/tex.dae" "$tmp/tex.glb"
check "textured Collada -> glTF: says the texture is left out" grep -q "1 texture named but not loaded: left out of" "$tmp/err"

# Bad input: exit 1 with Assimp's reason, nothing written.
head -c 100 "$tmp/box.obj" >"$tmp/trunc.obj"
expect 1 "truncated OBJ" -- "$FERRY" convert "$tmp/trunc.obj" "$tmp/trunc.alo"
check "truncated OBJ: says why" grep -q "trunc.obj: error: Assimp (obj importer) could not read it" "$tmp/err"
check "truncated OBJ: nothing written" test ! -e "$tmp/trunc.alo"
head -c 600 "$tmp/tri.dae" >"$tmp/cut.dae"
expect 1 "cut Collada" -- "$FERRY" convert "$tmp/cut.dae" "$tmp/cut.alo"
check "cut Collada: says why" grep -q "cut.dae: error: Assimp (dae importer) could not read it" "$tmp/err"
printf 'Kaydara FBX Binary  \0\032\0garbage' >"$tmp/bad.fbx"
expect 1 "garbage FBX" -- "$FERRY" convert "$tmp/bad.fbx" "$tmp/bad.glb"
check "garbage FBX: says why" grep -q "bad.fbx: error: Assimp (fbx importer)" "$tmp/err"
expect 2 "OBJ -> ALA: a usage error naming the outputs" -- "$FERRY" convert "$tmp/box.obj" "$tmp/box.ala"
check "OBJ -> ALA: names .alo, .glb, .gltf" grep -q "supported outputs: .alo, .glb, .gltf" "$tmp/err"
expect 1 "missing OBJ" -- "$FERRY" convert "$tmp/none.obj" "$tmp/none.alo"
expect 0 "--help names the Assimp formats" -- "$FERRY" convert --help
check "--help: IN.fbx|IN.obj|IN.dae" grep -q "IN.fbx|IN.obj|IN.dae" "$tmp/out"
# The glTF outputs pass the Khronos validator (when its npm package is there).
if [ -d "$SRC/tests/gltf/node_modules/gltf-validator" ] && command -v node >/dev/null 2>&1; then
  expect 0 "the Khronos validator: no errors in the glTF outputs" -- node "$SRC/tests/gltf/validate.mjs" "$tmp/box.glb" "$tmp/tex.glb"
else
  left_out "the Khronos validator (node or tests/gltf/node_modules/gltf-validator is not installed (tools/setup.sh test installs them))"
fi
finish
