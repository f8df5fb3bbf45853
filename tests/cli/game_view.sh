#!/usr/bin/env bash
# ferry convert MODEL.alo OUT.gltf shows what the game draws by default; --all
# keeps every mesh with the reasons the game does not draw it; --game-view (the
# former opt-in) still works and changes nothing; the summary names the
# meshes left out and the textures missing. With ../shared: the corpus models
# that show each rule (docs/formats/gltf-export.md, "What the game draws").
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"

crate="$SRC/samples/alamo/crate.alo"
expect 2 "--all and --game-view contradict each other" -- "$FERRY" convert --all --game-view "$crate" "$tmp/c.glb"
expect 2 "--all applies to glTF outputs" -- "$FERRY" convert --all "$crate" "$tmp/c.alo"
expect 0 "--all on the crate" -- "$FERRY" convert --all "$crate" "$tmp/c_all.gltf"
expect 0 "--game-view is still accepted" -- "$FERRY" convert --game-view "$crate" "$tmp/c_gv.glb"
expect 0 "the crate by default, as .glb" -- "$FERRY" convert "$crate" "$tmp/c.glb"
expect 0 "the crate by default" -- "$FERRY" convert "$crate" "$tmp/c.gltf"
# crate.tga is not bundled: the summary says so by name.
check "the summary names the missing texture" grep -q "1 texture missing: crate.tga" "$tmp/err"
check "--game-view writes the default's file" same_output "$tmp/c.glb" "$tmp/c_gv.glb"
check "the scene's extras say which view and what is missing" \
  jq -e '.scenes[0].extras | .view == "game" and .missing_textures == ["crate.tga"]' "$tmp/c.gltf" >/dev/null
check "--all says so too" jq -e '.scenes[0].extras.view == "all"' "$tmp/c_all.gltf" >/dev/null
mkdir -p "$tmp/batch/a" "$tmp/batch/b"
cp "$crate" "$tmp/batch/a/"
cp "$crate" "$tmp/batch/b/"
expect 0 "a batch" -- "$FERRY" convert -r --quiet --json --jobs 1 "$tmp/batch" "$tmp/batch_out"
check "the batch summary names each missing texture once" grep -qx "1 texture missing: crate.tga" "$tmp/err"
check "the batch report lists them per file" jq -e '[.files[].missing_textures] == [["crate.tga"], ["crate.tga"]]' "$tmp/out" >/dev/null
expect 0 "--help names --all" -- "$FERRY" convert --help
check "--help names --all" grep -q -- "--all" "$tmp/out"

# Mesh node names of a .gltf, sorted.
meshes() { jq -c '[.nodes[] | select(.extras.alamo == "mesh") | .name] | sort' "$1"; }

models="$SHARED/corpus/alamo"
if [ ! -d "$models" ]; then
  left_out "the corpus checks ($models is absent)"
  finish
  exit
fi

# DP20: a hull inside a shadow volume, a hidden collision mesh, hidden engine
# and shield boxes (the white blocks a viewer drew before).
dp20="$models/ueaw/Models/VCCo_DP20.ALO"
expect 0 "DP20 by default" -- "$FERRY" convert "$dp20" "$tmp/dp20.gltf"
check "DP20: 4 meshes left out, said in the summary" grep -q "4 meshes the game does not draw at first sight left out (--all keeps them)" "$tmp/err"
check "DP20: the hull alone" test "$(meshes "$tmp/dp20.gltf")" = '["RV_Gunship"]'
check "DP20: the scene names what it left out" \
  jq -e '.scenes[0].extras.left_out | sort == ["RV_Gunship_Shadow", "collision", "engines", "shield"]' "$tmp/dp20.gltf" >/dev/null
expect 0 "DP20 --all" -- "$FERRY" convert --all "$dp20" "$tmp/dp20_all.gltf"
check "DP20 --all: every mesh with its reasons" jq -e '[.nodes[] | select(.extras.alamo == "mesh") | {(.name): (.extras.not_drawn // [])}] | add ==
  {"RV_Gunship": [], "RV_Gunship_Shadow": ["shadow_volume"], "collision": ["hidden", "collision"], "engines": ["hidden"], "shield": ["hidden"]}' \
  "$tmp/dp20_all.gltf" >/dev/null
# Colorized: the base colour is the colour variant, the mask an image of its own.
check "DP20: colorized base colour without alpha, the mask apart, referenced from extras" jq -e '
  .materials[0] as $m | .textures[$m.pbrMetallicRoughness.baseColorTexture.index].source as $b |
  (.images[$b].name | endswith("(colour)")) and (.images[$m.extras.faction_mask.image].name | endswith("(faction mask)"))
  and $m.alphaMode == null' "$tmp/dp20.gltf" >/dev/null

# The X-wing: X_Wing_LOD1 (1816 triangles) is more detailed than X_Wing_LOD0 (472).
xwing="$models/ueaw/Models/VSF_XWING.ALO"
expect 0 "X-wing by default" -- "$FERRY" convert "$xwing" "$tmp/xw.gltf"
check "X-wing: the highest LOD alone" test "$(meshes "$tmp/xw.gltf")" = '["X_Wing_LOD1"]'
check "X-wing: Emissive glows through the texture (dark texels stay dark)" jq -e '.materials[0] |
  .emissiveTexture.index == .pbrMetallicRoughness.baseColorTexture.index and (.emissiveFactor[0] - 0.0823529 | fabs) < 1e-6' "$tmp/xw.gltf" >/dev/null
expect 0 "X-wing --all" -- "$FERRY" convert --all "$xwing" "$tmp/xw_all.gltf"
check "X-wing --all: LOD0 marked a lower level" \
  jq -e '.nodes[] | select(.name == "X_Wing_LOD0") | .extras.not_drawn == ["lower_lod"]' "$tmp/xw_all.gltf" >/dev/null

# icw: a trooper with four levels (126, 230, 454, 986 triangles): LOD3 kept.
trooper="$models/icw/Models/EI_STORMIE_SPLODE.ALO"
if [ -f "$trooper" ]; then
  expect 0 "storm trooper by default" -- "$FERRY" convert "$trooper" "$tmp/st.gltf"
  check "storm trooper: LOD3, the most detailed, kept" test "$(meshes "$tmp/st.gltf")" = '["Box01","Storm_Trooper_LOD3"]'
  check "storm trooper: its missing texture named" grep -q "1 texture missing: EI_TROOPER.DDS" "$tmp/err"
fi

# icw: shipped units whose meshes hang on hidden bones. The tank stores every
# bone hidden (hull and turret are damage state _ALT0); the Gallofree's one
# visual mesh is skinned on the hidden skeleton bone b_hip. The game draws both.
tank="$models/icw/Models/EV_2MTANK.ALO"
if [ -f "$tank" ]; then
  expect 0 "2-M tank by default" -- "$FERRY" convert "$tank" "$tmp/tank.gltf"
  check "2-M tank: hull and turret at damage state 0, nothing else" \
    test "$(meshes "$tmp/tank.gltf")" = '["EV_2mtank_ALT0","Turret_00_ALT0"]'
fi
gallofree="$models/icw/Models/RV_GALLOFREEHTT26.ALO"
if [ -f "$gallofree" ]; then
  expect 0 "Gallofree by default" -- "$FERRY" convert "$gallofree" "$tmp/gallo.gltf"
  check "Gallofree: its skinned hull drawn" test "$(meshes "$tmp/gallo.gltf")" = '["EV_GallofreeHTT26"]'
fi

# ufocp has no textures: blended shaders stay blended, not opaque white slabs.
station="$models/ufocp/UB_02_Station.alo"
expect 0 "station by default" -- "$FERRY" convert "$station" "$tmp/st2.gltf"
check "station: the missing textures named" grep -q "5 textures missing: W_blast00.dds, UB_station.dds, UB_station_bump.dds, UB_girder.dds, W_BuildingLights_2.dds" "$tmp/err"
check "station: alpha and additive materials stay see-through" jq -e '[.materials[] | select(.extras.blend) |
  .alphaMode == "BLEND" and .pbrMetallicRoughness.baseColorFactor[3] < 1] | length > 0 and all' "$tmp/st2.gltf" >/dev/null
check "station: opaque materials stay opaque" jq -e '[.materials[] | select(.extras.blend == null) | .alphaMode == null] | all' "$tmp/st2.gltf" >/dev/null
finish
