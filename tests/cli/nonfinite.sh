#!/usr/bin/env bash
# NaN and infinities in hand-patched copies of the bundled Alamo samples
# (issue 16 item 7): a model's vertex normal and bone matrix, a particle
# system's gravity and size track value, an animation's translation offset. Each
# is a located validation error (exit 1, rule value-finite, the byte offset
# of the float), and the unpatched file stays valid.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
s="$SRC/samples/alamo"

# patch FILE OFFSET HEX8: writes 4 bytes (little-endian float) at OFFSET.
patch() {
  local b=$3
  printf "\\x${b:6:2}\\x${b:4:2}\\x${b:2:2}\\x${b:0:2}" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# chunk_offset FILE TYPE N: offset of the N-th (0-based) chunk of TYPE.
chunk_offset() {
  "$FERRY" dump --json "$1" | jq -r --arg t "$2" --argjson n "$3" '[.. | objects | select(.type? == $t)][$n].offset'
}
# mini_offset FILE NAME: offset of the first mini-chunk named NAME (its header).
mini_offset() {
  "$FERRY" dump --json "$1" | jq -r --arg n "$2" '[.. | objects | select(.name? == $n and (.type | type) == "number")][0].offset'
}
NAN=7fc00000 INF=7f800000 NEGINF=ff800000

# located CASE FILE OFFSET: validation fails with value-finite at OFFSET, JSON too.
located() {
  local what=$1 file=$2 offset=$3
  expect 1 "$what is an error" -- "$FERRY" validate --no-textures "$file"
  check "$what: rule value-finite at offset $offset" grep -q "error: offset $(printf '0x%x' "$offset") ($offset),.*\[value-finite\]" "$tmp/out"
  expect 1 "$what (json)" -- "$FERRY" validate --no-textures --json "$file"
  check "$what: one located error in JSON" jq -e --argjson o "$offset" \
    '.[0].valid == false and ([.[0].errors[] | select(.rule == "value-finite" and .offset == $o)] | length) == 1' "$tmp/out" >/dev/null
}

for f in crate.alo p_walker_exhaust.alo walker_walk_00.ala; do
  expect 0 "$f unpatched is valid" -- "$FERRY" validate --no-textures "$s/$f"
done

# A vertex normal: vertex 3, normal y (0x10007 vertices are 144 bytes, normal at 12).
cp "$s/crate.alo" "$tmp/normal.alo"
vb=$(chunk_offset "$s/crate.alo" 0x10007 0)
at=$((vb + 8 + 3 * 144 + 12 + 4))
patch "$tmp/normal.alo" "$at" "$NAN"
located "a NaN vertex normal" "$tmp/normal.alo" "$at"
expect 0 "a NaN vertex normal: the file still reads (info)" -- "$FERRY" info "$tmp/normal.alo"

# A vertex position: vertex 0, x.
cp "$s/crate.alo" "$tmp/position.alo"
at=$((vb + 8))
patch "$tmp/position.alo" "$at" "$INF"
located "an infinite vertex position" "$tmp/position.alo" "$at"

# A bone matrix (bone 2's translation z, row 2 column 3): located at the bone's 0x202 chunk.
cp "$s/crate.alo" "$tmp/bone.alo"
bone=$(chunk_offset "$s/crate.alo" 0x202 2)
data=$(chunk_offset "$s/crate.alo" 0x206 2)
patch "$tmp/bone.alo" $((data + 8 + 12 + 11 * 4)) "$NAN"
located "a NaN bone matrix" "$tmp/bone.alo" "$bone"
expect 1 "a NaN bone matrix (text)" -- "$FERRY" validate --no-textures "$tmp/bone.alo"
check "the message names the element" grep -q "row 2, column 3" "$tmp/out"

# A particle property: gravity (mini-chunk body after its 2-byte header).
cp "$s/p_walker_exhaust.alo" "$tmp/p_walker_exhaust.alo"
at=$(($(mini_offset "$s/p_walker_exhaust.alo" gravity) + 2))
patch "$tmp/p_walker_exhaust.alo" "$at" "$NEGINF"
located "an infinite particle gravity" "$tmp/p_walker_exhaust.alo" "$at"

# The size track's value at t=0 (track 4; colour tracks 0..3 store bytes):
# located at its header chunk.
cp "$s/p_walker_exhaust.alo" "$tmp/p_size.alo"
header=$("$FERRY" dump --json "$s/p_walker_exhaust.alo" | jq -r '[.. | objects | select(.name? == "track header")][4].offset')
patch "$tmp/p_size.alo" $((header + 8 + 2)) "$NAN"
located "a NaN size track value" "$tmp/p_size.alo" "$header"

# An animation's translation offset (x): a NaN moves the bone nowhere.
cp "$s/walker_walk_00.ala" "$tmp/walker_walk_00.ala"
header=$(chunk_offset "$s/walker_walk_00.ala" 0x1003 0)
patch "$tmp/walker_walk_00.ala" $(($(mini_offset "$s/walker_walk_00.ala" "translation offset") + 2)) "$NAN"
located "a NaN animation translation offset" "$tmp/walker_walk_00.ala" "$header"

finish
