#!/usr/bin/env bash
# ferry info/dump/validate/convert on ALM files written here byte by byte
# from the spec (a version 9 fan of 4 triangles with 3 collapse records).
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

# Big-endian 32-bit words; reals are given as their float bit patterns.
u32() {
    local v=$1
    printf "\\x$(printf %02x $(((v >> 24) & 255)))\\x$(printf %02x $(((v >> 16) & 255)))\\x$(printf %02x $(((v >> 8) & 255)))\\x$(printf %02x $((v & 255)))"
}
f() { u32 $((16#$1)); } # hex bits
ONE=3f800000 HALF=3f000000 ZERO=00000000

# fixture FILE VERTEX3_POSITION: a square 0 (0,0) 1 (1,0) 2 (1,1) 3 (0,1)
# around 4 (0.5,0.5), triangles (0,1,4) (1,2,4) (2,3,4) (3,0,4), and
# position 5, (1,0) again: position 1 after an influence collapse (with one
# bone there is no influence to drop, but the record's form is the same),
# vertex 5 on it. Records: edge 0 -> 4 ((0,1,4) and (3,0,4) hold both: 4
# triangles -> 2), influence 1 -> 5 (vertex 1, the one on position 1, moves
# to vertex 5 on position 5: still 2), edge 5 -> 4 ((5,2,4) goes: 1).
fixture() {
    local out=$1 v3=$2
    {
        printf 'ALM\0'
        u32 9
        u32 1; u32 1; u32 6; u32 6; u32 0; u32 0 # comments bones positions vertices textures tangents
        u32 1; u32 4; u32 3; u32 1               # materials triangles collapses frames
        f 41f00000; u32 0                        # frame rate 30, no P
        u32 3; printf 'cli'
        # bone: parent, identity, flags, statistics
        u32 0xffffffff
        for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
            if [ $((i % 5)) -eq 0 ]; then f $ONE; else f $ZERO; fi
        done
        u32 0
        for i in $(seq 38); do f $ZERO; done
        # positions: bone 0, (x, y, 0, 1)
        for xy in "$ZERO $ZERO" "$ONE $ZERO" "$ONE $ONE" "$ZERO $ONE" "$HALF $HALF" "$ONE $ZERO"; do
            set -- $xy
            u32 1; u32 0; f $1; f $2; f $ZERO; f $ONE
        done
        # vertices: position, two empty tangent vectors, s, t
        for v in 0 1 2 3 4 5; do
            if [ $v -eq 3 ]; then u32 "$v3"; else u32 $v; fi
            u32 0; u32 0; f $ZERO; f $ZERO
        done
        u32 0xffffffff; u32 0xffffffff           # material: no texture, no tangent map
        for t in "0 1 4" "1 2 4" "2 3 4" "3 0 4"; do
            set -- $t
            u32 $1; u32 $2; u32 $3; u32 0
        done
        u32 0; u32 4; u32 4; u32 4; f 3dcccccd   # edge 0 -> 4, error 0.1
        u32 0xffffffff; u32 1; u32 1; u32 5; f 3e4ccccd # influence 1 -> 5, error 0.2
        u32 5; u32 4; u32 4; u32 4; f 3e99999a   # edge 5 -> 4, error 0.3
        for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do # one frame: identity
            if [ $((i % 5)) -eq 0 ]; then f $ONE; else f $ZERO; fi
        done
    } >"$out"
}

fixture "$tmp/fan.alm" 3
fixture "$tmp/broken.alm" 9
size=$(wc -c <"$tmp/fan.alm")
# header 56, comment 7, bone 224, positions 6 x 24, vertices 6 x 20,
# material 8, triangles 64, records 20 + 20 + 20, frame 64
check "fixture size" [ "$size" -eq 747 ]

expect 0 "info" -- "$FERRY" info "$tmp/fan.alm"
check "info: version" grep -q "ALM version 9, 747 bytes" "$tmp/out"
check "info: counts" grep -q "positions: 6, vertices: 6, triangles: 4" "$tmp/out"
check "info: collapses" grep -q "collapses: 3 (2 edge, 1 influence)" "$tmp/out"
check "info: full LOD" grep -Eq -- "--lod 0 +4 triangles" "$tmp/out"
check "info: last LOD" grep -Eq -- "--lod 3 +1 triangles" "$tmp/out"
check "info: frame rate" grep -q "frames: 1 at 30 per second" "$tmp/out"

expect 0 "info --json" -- "$FERRY" info --json "$tmp/fan.alm"
check "info --json: version" grep -q '"version": 9' "$tmp/out"
check "info --json: lods" grep -q '"triangles": 2' "$tmp/out"

expect 0 "dump" -- "$FERRY" dump "$tmp/fan.alm"
check "dump: influence record" grep -q "\[1\] influence, 1 pairs: 1->5" "$tmp/out"
check "dump: edge record" grep -q "\[2\] edge p1 5 p2 4 -> vl 4 vr 4" "$tmp/out"
expect 0 "dump --json" -- "$FERRY" dump --json "$tmp/fan.alm"
check "dump --json: kinds" grep -q '"kind": "influence"' "$tmp/out"
check "dump --json: comment" grep -q '"cli"' "$tmp/out"

# A comment of bytes that are not UTF-8, with a control character: escaped
# in text, lossless in JSON (read as Latin-1, marked in "latin1").
perl -0777 -pe 's/cli/\xe9\x1b\x00/' "$tmp/fan.alm" >"$tmp/cmt.alm"
for cmd in info dump; do
  expect 0 "$cmd on a Latin-1 comment" -- "$FERRY" $cmd "$tmp/cmt.alm"
  check "$cmd: the control characters escaped" grep -q '\\x1b\\x00' "$tmp/out"
  check "$cmd: no raw ESC" bash -c '! grep -q $'"'"'\033'"'"' "$1"' _ "$tmp/out"
  expect 0 "$cmd --json on a Latin-1 comment" -- "$FERRY" $cmd --json "$tmp/cmt.alm"
  check "$cmd --json: the comment by the Latin-1 rule" \
    jq -e '(if type == "array" then .[0] else . end) | .comments == ["\u00e9\u001b\u0000"] and .latin1 == ["comments/0"]' "$tmp/out" >/dev/null
done

expect 0 "validate" -- "$FERRY" validate "$tmp/fan.alm"
check "validate: clean" grep -q "0 errors" "$tmp/out"
expect 1 "validate a broken file" -- "$FERRY" validate "$tmp/broken.alm"
check "validate: rule and place" grep -q "at vertices\[3\]: .*\[vertex-position\]" "$tmp/out"
expect 1 "validate --json a broken file" -- "$FERRY" validate --json "$tmp/broken.alm"
check "validate --json: rule" grep -q '"rule": "vertex-position"' "$tmp/out"

head -c 300 "$tmp/fan.alm" >"$tmp/cut.alm"
expect 1 "info on a truncated file" -- "$FERRY" info "$tmp/cut.alm"
check "truncated: located" grep -q "at positions" "$tmp/err"
expect 1 "validate a truncated file" -- "$FERRY" validate "$tmp/cut.alm"

expect 0 "rewrite" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/again.alm"
check "rewrite is byte-identical" cmp -s "$tmp/fan.alm" "$tmp/again.alm"

# Every level of detail: 4, 2, 2, 1 triangles (worked out above).
for k in 0 1 2 3; do
  expect 0 "convert --lod $k" -- "$FERRY" convert --lod $k "$tmp/fan.alm" "$tmp/fan$k.glb"
  n=$(sed -n 's/.*, \([0-9][0-9]*\) triangles,.*/\1/p' "$tmp/err")
  case $k in 0) want=4 ;; 1 | 2) want=2 ;; 3) want=1 ;; esac
  check "--lod $k: $want triangles (got $n)" test "$n" = "$want"
done

# patch FILE OFFSET HEX: overwrite 4 bytes.
patch() { printf "\\x${3:0:2}\\x${3:2:2}\\x${3:4:2}\\x${3:6:2}" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# A NaN in position 1's y (positions start at 56 + 7 + 224 = 287; 24 bytes
# each; x after count and bone): a located error in validate and convert
# alike, exit 1, no output.
cp "$tmp/fan.alm" "$tmp/nan.alm"
patch "$tmp/nan.alm" 323 7fc00000
expect 1 "validate: a NaN position" -- "$FERRY" validate "$tmp/nan.alm"
check "validate: NaN located" grep -q "offset 0x143 (323), at positions\[1\]/components\[0\]: coordinate 1 is NaN \[value-finite\]" "$tmp/out" "$tmp/err"
expect 1 "convert: a NaN position" -- "$FERRY" convert "$tmp/nan.alm" "$tmp/nan.glb"
check "convert: NaN located as validate does" grep -q "offset 0x143 (323), at positions\[1\]/components\[0\]: coordinate 1 is NaN" "$tmp/err"
check "convert: no output" test ! -e "$tmp/nan.glb"
expect 1 "validate --json: a NaN position" -- "$FERRY" validate --json "$tmp/nan.alm"
check "validate --json: rule and offset" grep -q '"offset": 323' "$tmp/out"
# An infinite frame entry (the frame is the last 64 bytes): frames[0]/bones[0].
size=$(wc -c <"$tmp/fan.alm")
cp "$tmp/fan.alm" "$tmp/inf.alm"
patch "$tmp/inf.alm" $((size - 64 + 4)) ff800000
expect 1 "validate: an infinite frame matrix" -- "$FERRY" validate "$tmp/inf.alm"
check "validate: frame located" grep -q "at frames\[0\]/bones\[0\]: transform\[0\]\[1\] is infinite" "$tmp/out" "$tmp/err"
expect 1 "convert: an infinite frame matrix" -- "$FERRY" convert "$tmp/inf.alm" "$tmp/inf.glb"
check "convert: frame located" grep -q "at frames\[0\]/bones\[0\]" "$tmp/err"
# Finite values whose skinned sum overflows a float: the bone's x scale and
# x offset both FLT_MAX put position 1 (x = 1) at 2 FLT_MAX.
cp "$tmp/fan.alm" "$tmp/big.alm"
patch "$tmp/big.alm" 67 7f7fffff
patch "$tmp/big.alm" 79 7f7fffff
expect 1 "validate: a skinned position beyond float range" -- "$FERRY" validate "$tmp/big.alm"
check "validate: float-range located" grep -q "offset 0x137 (311), at positions\[1\]: .*\[float-range\]" "$tmp/out" "$tmp/err"
expect 1 "convert: a skinned position beyond float range" -- "$FERRY" convert "$tmp/big.alm" "$tmp/big.glb"
check "convert: float-range located" grep -q "at positions\[1\]" "$tmp/err"

expect 2 "two LOD choices" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/x.glb" --lod 1 --triangles 2
expect 2 "bad --lod" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/x.glb" --lod many
expect 2 "bad --error" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/x.glb" --error -1
expect 2 "--triangles 0" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/x.glb" --triangles 0
expect 2 "LOD on a rewrite" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/y.alm" --lod 1
expect 2 "unknown output" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/y.obj"
expect 2 "unknown option" -- "$FERRY" convert "$tmp/fan.alm" "$tmp/y.alm" --frobnicate
expect 0 "convert --help" -- "$FERRY" convert --help
check "help names the LOD options" grep -q -- "--triangles N" "$tmp/out"

finish
