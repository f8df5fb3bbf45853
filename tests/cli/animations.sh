#!/usr/bin/env bash
# Animations and particle systems through the tool: info, dump, validate
# (alone and against their model), sample, convert (byte-identical, and
# between ALA formats with every pose kept).
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
corpus="$SHARED/corpus/alamo"
[ -d "$corpus" ] || skip "$corpus is absent"
mapfile -d '' all < <(find "$corpus" -iname '*.ala' -print0 | sort -z)
check "corpus has animations" test ${#all[@]} -gt 0
# Every animation of the games' corpora, and every 16th of the icw mod's
# 1,245 (in sorted order, the same ones every run): the tool's commands are
# the same on all of them, and test_ala_corpus reads every file in-process.
anims=()
n=0
for f in "${all[@]}"; do
  case "$f" in
    */icw/*) n=$((n + 1)); [ $(((n - 1) % 16)) -eq 0 ] && anims+=("$f") ;;
    *) anims+=("$f") ;;
  esac
done
for f in "${anims[@]}"; do
  name=$(basename "$f")
  expect 0 "info $name" -- "$FERRY" info --json "$f"
  check "info $name: frames and fps" jq -e '.[0].frames > 0 and .[0].fps > 0' "$tmp/out" >/dev/null
  format=$(jq -r '.[0].ala_format' "$tmp/out")
  expect 0 "dump $name" -- "$FERRY" dump "$f"
  check "dump $name names the header" grep -q "animation header" "$tmp/out"
  expect 0 "convert $name" -- "$FERRY" convert "$f" "$tmp/same.ala"
  check "$name rewrites byte-identically" cmp -s "$f" "$tmp/same.ala"
  other=$((3 - format))
  expect 0 "convert $name to format $other" -- "$FERRY" convert --ala-format "$other" "$f" "$tmp/other.ala"
  expect 0 "info of the converted $name" -- "$FERRY" info --json "$tmp/other.ala"
  check "converted $name is format $other" jq -e ".[0].ala_format == $other" "$tmp/out" >/dev/null
  frames=$(jq -r '.[0].frames' "$tmp/out")
  # Both samples must succeed and hold the same number of bones, at least
  # one: all() over nothing (two failed runs) is true.
  for frame in 0 $((frames / 2)) $((frames - 1)) 1.5; do
    expect_out "$tmp/a.json" 0 "sample $name frame $frame" -- "$FERRY" sample --json --frame "$frame" "$f"
    expect_out "$tmp/b.json" 0 "sample $name frame $frame after format $other" -- "$FERRY" sample --json --frame "$frame" "$tmp/other.ala"
    check "$name frame $frame: same pose after format $other" \
      jq -e -n --slurpfile a "$tmp/a.json" --slurpfile b "$tmp/b.json" \
      '($a[0].bones | length) > 0 and ($a[0].bones | length) == ($b[0].bones | length) and
       ([$a[0].bones, $b[0].bones] | transpose | all(.[0].translation == .[1].translation and .[0].rotation == .[1].rotation and .[0].scale == .[1].scale and .[0].visible == .[1].visible))'
  done
  # Validated alone and against its model, which validate finds beside it
  # (MODEL_NAME_00.ALA for MODEL.ALO, the longest model name winning):
  # what disagrees with the model is a warning, never an error.
  expect 0 "validate $name" -- "$FERRY" validate --no-textures --json "$f"
  check "$name: no errors" jq -e '.[0].error_count == 0' "$tmp/out" >/dev/null
  stem=${name%_*}; stem=${stem%_*}
  model=$(find "$(dirname "$f")" -maxdepth 1 -iname "$stem.alo" | head -n 1)
  if [ -n "$model" ]; then
    check "$name checked against $(basename "$model")" jq -e --arg m "$model" '.[0].model == $m' "$tmp/out" >/dev/null
    with_model=$((${with_model:-0} + 1))
  fi
done
check "some animations were checked against their model" test "${with_model:-0}" -gt 0

expect 0 "sample by time" -- "$FERRY" sample --time 0.25 "${anims[0]}"
expect 2 "sample needs a frame or a time" -- "$FERRY" sample "${anims[0]}"
expect 2 "sample takes one of them" -- "$FERRY" sample --frame 1 --time 1 "${anims[0]}"
expect 1 "sample of a model is refused" -- "$FERRY" sample --frame 0 "$corpus/ufocp/W_Grenade.alo"
head -c 100 "${anims[0]}" >"$tmp/cut.ala"
expect 1 "a truncated animation" -- "$FERRY" validate "$tmp/cut.ala"
check "located" grep -q "offset 0x" "$tmp/err"

mapfile -d '' particles < <(for f in "$corpus"/*/*.alo; do
  [ "$(head -c 4 "$f" | od -An -tx4 | tr -d ' ')" = "00000900" ] && printf '%s\0' "$f"; done)
check "corpus has particle systems" test ${#particles[@]} -gt 0
for f in "${particles[@]}"; do
  name=$(basename "$f")
  expect 0 "info $name" -- "$FERRY" info --json "$f"
  check "info $name lists emitters" jq -e '.[0].emitters | length > 0' "$tmp/out" >/dev/null
  expect 0 "validate $name" -- "$FERRY" validate --no-textures "$f"
  expect 0 "dump $name" -- "$FERRY" dump "$f"
  check "dump $name names the emitters" grep -q "emitter properties" "$tmp/out"
  expect 0 "convert $name" -- "$FERRY" convert "$f" "$tmp/p.alo"
  check "$name rewrites byte-identically" cmp -s "$f" "$tmp/p.alo"
  cp "$f" "$tmp/renamed.alo"
  # Shipped systems carry other names and load (the game finds them by file name): a warning.
  expect 0 "a particle system under another file name" -- "$FERRY" validate --no-textures "$tmp/renamed.alo"
  check "$name renamed: the name is a warning" grep -q "warning: .*\[system-name\]" "$tmp/out"
done
echo "${#anims[@]} of ${#all[@]} animations (every one outside icw, every 16th inside), ${#particles[@]} particle systems"
finish
