#!/usr/bin/env bash
# glTF animations back to ALA through the tool: the bundled walker and its
# two animations exported (--all) and each brought back in both formats;
# the result validates against the model and samples to the original's
# poses; the choice of animation, the naming in messages, usage errors.
# Then, with ../shared, the same on real models (test_ala_scene_corpus
# measures every pose in-process).
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
s="$SRC/samples/alamo"
expect 0 "export walker with its animations" -- "$FERRY" convert --all --anim "$s/walker_idle_00.ala" --anim "$s/walker_walk_00.ala" "$s/walker.alo" "$tmp/walker.glb"
expect 2 "two animations and no --animation" -- "$FERRY" convert "$tmp/walker.glb" "$tmp/x.ala"
check "the animations are listed" grep -q "walker_walk_00" "$tmp/err"
expect 1 "an animation that is not there" -- "$FERRY" convert --animation nope "$tmp/walker.glb" "$tmp/x.ala"
expect 2 "a bad --ala-format" -- "$FERRY" convert --ala-format 3 --animation 0 "$tmp/walker.glb" "$tmp/x.ala"
expect 2 "a bad --fps" -- "$FERRY" convert --fps 0 --animation 0 "$tmp/walker.glb" "$tmp/x.ala"
# walker_walk_00: 16 frames at 15 fps (1 s); at 30 fps it becomes 31 frames.
expect 0 "walker_walk_00 at 30 fps" -- "$FERRY" convert --fps 30 --animation walker_walk_00 "$tmp/walker.glb" "$tmp/w30.ala"
expect 0 "info of the 30 fps walk" -- "$FERRY" info --json "$tmp/w30.ala"
check "30 fps: 31 frames" jq -e '.[0].frames == 31 and .[0].fps == 30' "$tmp/out" >/dev/null
expect 0 "help names the glTF -> ALA route" -- "$FERRY" convert --help
check "help mentions --animation" grep -q -- "--animation N|NAME" "$tmp/out"
for anim in walker_idle_00 walker_walk_00; do
  for format in 1 2; do
    expect 0 "$anim back as format $format" -- "$FERRY" convert --animation "$anim" --ala-format "$format" "$tmp/walker.glb" "$tmp/$anim.ala"
    check "$anim: summary line" grep -q "format $format" "$tmp/err"
    expect 0 "$anim (format $format) validates against the model" -- "$FERRY" validate --model "$s/walker.alo" "$tmp/$anim.ala"
    check "$anim (format $format): no warnings" grep -q "0 errors, 0 warnings" "$tmp/out"
    expect 0 "info $anim" -- "$FERRY" info --json "$tmp/$anim.ala"
    check "$anim is format $format" jq -e ".[0].ala_format == $format" "$tmp/out" >/dev/null
    frames=$(jq -r '.[0].frames' "$tmp/out")
    expect 0 "info of the original" -- "$FERRY" info --json "$s/$anim.ala"
    check "$anim keeps its frame count" jq -e ".[0].frames == $frames" "$tmp/out" >/dev/null
    # Poses at a few frames, original against round trip, bone by bone
    # index: translations within 1e-3, rotations within |dot| >= 0.99999.
    for frame in 0 $((frames / 2)) $((frames - 1)); do
      expect_out "$tmp/a.json" 0 "sample $anim frame $frame" -- "$FERRY" sample --json --frame "$frame" "$s/$anim.ala"
      expect_out "$tmp/b.json" 0 "sample the round trip of $anim (format $format) frame $frame" -- "$FERRY" sample --json --frame "$frame" "$tmp/$anim.ala"
      check "$anim (format $format) frame $frame: same poses" jq -e -n --slurpfile a "$tmp/a.json" --slurpfile b "$tmp/b.json" '
        ($a[0].bones | length) > 0 and
        ($a[0].bones | all(. as $p | ($b[0].bones | map(select(.index == $p.index)) | .[0]) as $q |
          $q != null and
          ([range(3)] | all((($p.translation[.] - $q.translation[.]) | fabs) <= 0.001)) and
          (([range(4)] | map($p.rotation[.] * $q.rotation[.]) | add | fabs) >= 0.99999)))' >/dev/null
    done
  done
done
finish
