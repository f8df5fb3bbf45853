#!/usr/bin/env bash
# The bundled animations and particle system through the tool, without
# ../shared: validation against their model, sampling, conversion between
# ALA formats with every pose kept, byte-identical rewrites.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
s="$SRC/samples/alamo"
model="$s/walker.alo"
for anim in "$s"/*.ala; do
  name=$(basename "$anim")
  expect 0 "validate $name against walker.alo" -- "$FERRY" validate --no-textures --json "$model" "$anim"
  check "$name fits walker.alo" jq -e 'all(.[]; .error_count == 0 and .warning_count == 0)' "$tmp/out" >/dev/null
  expect 0 "convert $name" -- "$FERRY" convert "$anim" "$tmp/same.ala"
  check "$name rewrites byte-identically" cmp -s "$anim" "$tmp/same.ala"
  format=$("$FERRY" info --json "$anim" | jq -r '.[0].ala_format')
  other=$((3 - format))
  expect 0 "convert $name to format $other" -- "$FERRY" convert --ala-format "$other" "$anim" "$tmp/other.ala"
  expect 0 "convert back to format $format" -- "$FERRY" convert --ala-format "$format" "$tmp/other.ala" "$tmp/back.ala"
  check "$name survives the round trip byte for byte" cmp -s "$anim" "$tmp/back.ala"
  frames=$("$FERRY" info --json "$anim" | jq -r '.[0].frames')
  # Both samples must succeed and hold bones: two failed runs give two
  # empty outputs, and null == null.
  for frame in 0 1 2.5 $((frames - 1)); do
    expect_out "$tmp/a.json" 0 "sample $name frame $frame" -- "$FERRY" sample --json --model "$model" --frame "$frame" "$anim"
    expect_out "$tmp/b.json" 0 "sample $name frame $frame in format $other" -- "$FERRY" sample --json --model "$model" --frame "$frame" "$tmp/other.ala"
    check "$name frame $frame: same pose in format $other" \
      jq -e -n --slurpfile a "$tmp/a.json" --slurpfile b "$tmp/b.json" '($a[0].bones | length) > 0 and $a[0].bones == $b[0].bones'
  done
  # Looping: the frame after the last is the first again.
  expect 0 "sample $name --loop at frame $frames" -- "$FERRY" sample --json --loop --frame "$frames" "$anim"
  jq '.bones' "$tmp/out" >"$tmp/wrap.json"
  expect 0 "sample $name at frame 1" -- "$FERRY" sample --json --frame 1 "$anim"
  jq '.bones' "$tmp/out" >"$tmp/one.json"
  check "$name: bones sampled" jq -e 'length > 0' "$tmp/one.json" >/dev/null
  check "$name loops with period frames - 1" same_output "$tmp/wrap.json" "$tmp/one.json"
done
expect 0 "sample names bones from the model" -- "$FERRY" sample --model "$model" --time 0.2 "$s/walker_walk_00.ala"
check "bone names from the model" grep -q "Spine" "$tmp/out"
expect 0 "rotations are unit quaternions" -- "$FERRY" sample --json --frame 3.3 "$s/walker_walk_00.ala"
check "every rotation has length 1" jq -e 'all(.bones[]; (.rotation | map(. * .) | add) as $n | $n > 0.9999 and $n < 1.0001)' "$tmp/out" >/dev/null

p="$s/p_walker_exhaust.alo"
expect 0 "particle info" -- "$FERRY" info --json "$p"
check "two emitters" jq -e '.[0].emitters | length == 2' "$tmp/out" >/dev/null
expect 0 "particle validate" -- "$FERRY" validate --no-textures "$p"
expect 0 "particle convert" -- "$FERRY" convert "$p" "$tmp/p_walker_exhaust.alo"
check "particle rewrites byte-identically" cmp -s "$p" "$tmp/p_walker_exhaust.alo"
cp "$p" "$tmp/other_name.alo"
expect 0 "a system name other than the file's is a warning (the game finds it by file name)" -- "$FERRY" validate --no-textures "$tmp/other_name.alo"
check "the rule is named, as a warning" grep -q "warning.*system-name" "$tmp/out"
expect 2 "a particle system cannot become an animation" -- "$FERRY" convert "$p" "$tmp/x.ala"
expect 2 "--ala-format is for animations" -- "$FERRY" convert --ala-format 1 "$p" "$tmp/x.alo"
finish
