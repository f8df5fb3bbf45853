#!/usr/bin/env bash
# Animations and their models, without ../shared: an --anim FILE that does
# not fit the model (or cannot be read) is refused with exit 1 unless
# --force, --anim auto skips such files with a warning, and validate pairs
# each animation with its own model by name.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
s="$SRC/samples/alamo"

# One renamed bone: the walk of a walker whose 'Head' is called 'Hexd'.
LC_ALL=C sed 's/Head/Hexd/' "$s/walker_walk_00.ala" >"$tmp/hexd.ala"
check "the fixture differs in one byte" test "$(cmp -l "$s/walker_walk_00.ala" "$tmp/hexd.ala" | wc -l)" -eq 1

expect 0 "a fitting --anim is attached" -- "$FERRY" convert --no-textures "$s/walker.alo" "$tmp/ok.glb" --anim "$s/walker_walk_00.ala"
check "one animation, no warning" grep -q "1 animation, 0 images embedded, 0 warnings" "$tmp/err"

expect 1 "an --anim FILE with a bone the model lacks is refused" -- \
  "$FERRY" convert --no-textures "$s/walker.alo" "$tmp/bad.glb" --anim "$tmp/hexd.ala"
check "the message names the missing bone" grep -q "does not fit walker.alo (1 of 6 tracks): bones not in the model: 'Hexd'" "$tmp/err"
check "and says how to attach it anyway" grep -q -- "--force" "$tmp/err"
check "nothing written" test ! -e "$tmp/bad.glb"

expect 1 "another model's animation is refused" -- \
  "$FERRY" convert --no-textures "$s/crate.alo" "$tmp/bad.glb" --anim "$s/walker_walk_00.ala"
check "every missing bone named" grep -q "'Pelvis', 'Spine', 'Head', 'Beacon', 'SpotAnchor', 'p_exhaust'" "$tmp/err"

expect 0 "--force attaches it" -- "$FERRY" convert --no-textures --force "$s/walker.alo" "$tmp/forced.glb" --anim "$tmp/hexd.ala"
check "with a warning" grep -q "warning: does not fit walker.alo.*attached anyway (--force)" "$tmp/err"
check "counted" grep -q "1 animation, 0 images embedded, 1 warning" "$tmp/err"
expect 2 "--force applies to glTF outputs" -- "$FERRY" convert --force "$s/walker_walk_00.ala" "$tmp/x.ala"

# Unreadable explicit animations: an error (issue 16, item 8).
expect 1 "a missing --anim FILE" -- "$FERRY" convert --no-textures "$s/walker.alo" "$tmp/bad.glb" --anim "$tmp/none.ala"
check "named" grep -q "none.ala: error:" "$tmp/err"
head -c 60 "$s/walker_walk_00.ala" >"$tmp/cut.ala"
expect 1 "a truncated --anim FILE" -- "$FERRY" convert --no-textures "$s/walker.alo" "$tmp/bad.glb" --anim "$tmp/cut.ala"
check "located" grep -q "cut.ala: error: offset" "$tmp/err"
expect 1 "a model given as --anim FILE" -- "$FERRY" convert --no-textures "$s/walker.alo" "$tmp/bad.glb" --anim "$s/crate.alo"
check "not an animation" grep -q "crate.alo: error: not an animation" "$tmp/err"
check "nothing written" test ! -e "$tmp/bad.glb"

# --anim auto: a folder with the walker, its two animations, one that
# mostly fits (one track of six names a bone the model lacks), one made for
# another model and one that cannot be read. The game binds tracks by index
# (the name only confirms it): the one that mostly fits is attached, its
# disagreeing track named in a warning (issue 20: a shipped station's death
# animation was dropped whole for 1 track of 45); the foreign one and the
# unreadable one are skipped with a warning.
mkdir -p "$tmp/dir/sub"
cp "$s/walker.alo" "$s/walker_idle_00.ala" "$s/walker_walk_00.ala" "$tmp/dir/"
cp "$tmp/hexd.ala" "$tmp/dir/walker_hexd_00.ala"
cp "$tmp/cut.ala" "$tmp/dir/walker_cut_00.ala"
cp "$s/walker_walk_00.ala" "$tmp/dir/crate_walk_00.ala"
cp "$s/crate.alo" "$tmp/dir/crate.alo"
expect 0 "auto attaches what mostly fits, skips what cannot be read" -- "$FERRY" convert --no-textures "$tmp/dir/walker.alo" "$tmp/auto.glb" --anim auto
check "the mostly fitting one attached, its misfit named" grep -q "walker_hexd_00.ala: warning: attached, though 1 of 6 tracks do not fit walker.alo (tracks apply by index, as in the game): bones not in the model: 'Hexd'" "$tmp/err"
check "the unreadable one skipped" grep -q "walker_cut_00.ala: warning: animation skipped:" "$tmp/err"
check "the three that fit attached" grep -q "3 animations, 0 images embedded, 2 warnings" "$tmp/err"
glb_animations() { python3 -c 'import sys,json,struct
b=open(sys.argv[1],"rb").read(); n=struct.unpack_from("<I",b,12)[0]
print(len(json.loads(b[20:20+n]).get("animations",[])))' "$1"; }
check "the glb holds the three" test "$(glb_animations "$tmp/auto.glb")" = 3
expect 0 "auto skips another model's animation" -- "$FERRY" convert --no-textures "$tmp/dir/crate.alo" "$tmp/crate.glb" --anim auto
check "skipped, every bone named" grep -q "crate_walk_00.ala: warning: animation skipped: does not fit crate.alo (6 of 6 tracks): bones not in the model: 'Pelvis'" "$tmp/err"
check "nothing attached" grep -q "0 animations, 0 images embedded, 1 warning" "$tmp/err"
rm "$tmp/dir/crate.alo" "$tmp/dir/crate_walk_00.ala"

# A batch: an explicit animation that cannot be read fails every model.
cp "$s/walker.alo" "$tmp/dir/sub/"
expect 1 "batch with a missing --anim FILE" -- "$FERRY" convert -r --no-textures "$tmp/dir/sub" "$tmp/batch1" --anim "$tmp/none.ala"
check "named" grep -q "none.ala: error: cannot open" "$tmp/err"
expect 0 "batch with auto and a misfit beside the model" -- "$FERRY" convert -r --quiet --no-textures "$tmp/dir" "$tmp/batch2"

# Building an ALM keeps one animation: the same rule.
expect 1 "ALM: an --anim FILE that does not fit" -- "$FERRY" convert "$s/walker.alo" "$tmp/w.alm" --anim "$tmp/hexd.ala"
check "named" grep -q "hexd.ala does not fit the model: bones not in the model: 'Hexd'" "$tmp/err"
mkdir -p "$tmp/alm"
cp "$s/walker.alo" "$s/walker_idle_00.ala" "$tmp/alm/"
cp "$tmp/hexd.ala" "$tmp/alm/walker_a_00.ala"
expect 0 "ALM: auto takes the first animation that fits" -- "$FERRY" convert "$tmp/alm/walker.alo" "$tmp/w.alm" --anim auto
check "the misfit skipped" grep -q "walker_a_00.ala: warning: animation skipped" "$tmp/err"
check "the idle kept (11 frames)" grep -q ", 11 frames" "$tmp/err"

# validate: each animation against its own model, by name, wherever the
# models stand on the command line.
cp "$s/crate.alo" "$tmp/dir/"
expect 0 "validate pairs by name" -- "$FERRY" validate --no-textures --json "$tmp/dir/walker.alo" "$tmp/dir/crate.alo" \
  "$tmp/dir/walker_idle_00.ala" "$tmp/dir/walker_walk_00.ala"
check "each animation against walker.alo, without findings" jq -e \
  '[.[] | select(.file | endswith(".ala"))] | length == 2 and all(.model == "'"$tmp/dir/walker.alo"'" and .warning_count == 0)' "$tmp/out" >/dev/null
expect 0 "validate finds the model beside the animation" -- "$FERRY" validate --no-textures "$tmp/dir/walker_hexd_00.ala"
check "against walker.alo" grep -q "walker_hexd_00.ala: 0 errors, 1 warning (against $tmp/dir/walker.alo)" "$tmp/out"
check "the missing bone is a warning" grep -q "warning: .*'Hexd'.*\[anim-bone-missing\]" "$tmp/out"
expect 0 "--model overrides the pairing" -- "$FERRY" validate --no-textures --model "$tmp/dir/crate.alo" "$tmp/dir/walker_walk_00.ala"
check "against the crate: six warnings" grep -q "walker_walk_00.ala: 0 errors, 6 warnings (against $tmp/dir/crate.alo)" "$tmp/out"
cp "$s/walker_walk_00.ala" "$tmp/alone_walk_00.ala"
expect 0 "an animation without its model is checked alone" -- "$FERRY" validate --json "$tmp/alone_walk_00.ala"
check "no model" jq -e '.[0].model == null and .[0].warning_count == 0' "$tmp/out" >/dev/null

# sample names bones from the model by index: it warns when they disagree.
expect 0 "sample with another model" -- "$FERRY" sample --model "$s/crate.alo" --frame 0 "$s/walker_walk_00.ala"
check "warns" grep -q "walker_walk_00.ala: warning: does not fit .*crate.alo" "$tmp/err"
expect 0 "sample with its model" -- "$FERRY" sample --model "$s/walker.alo" --frame 0 "$s/walker_walk_00.ala"
check "quiet" test ! -s "$tmp/err"
finish
