#!/usr/bin/env bash
# The tool as a user runs it on the bundled samples: help, exit codes,
# messages on stderr, --json that parses, atomic convert that never
# overwrites its input.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
# Models only: the particle system and animations among the samples have
# their own checks in animations.sh and samples.sh.
samples=()
for f in "$SRC"/samples/alamo/*.alo; do
  [ "$(head -c 4 "$f" | od -An -tx4 | tr -d ' ')" = "00000900" ] || samples+=("$f")
done

expect 2 "no arguments is a usage error" -- "$FERRY"
check "usage goes to stderr" grep -q "usage: ferry" "$tmp/err"
expect 0 "top-level --help" -- "$FERRY" --help
expect 0 "--version" -- "$FERRY" --version
expect 2 "unknown command" -- "$FERRY" frobnicate
for cmd in info dump validate convert; do
  expect 0 "$cmd --help" -- "$FERRY" "$cmd" --help
  check "$cmd --help prints usage" grep -q "usage: ferry $cmd" "$tmp/out"
  expect 2 "$cmd with no file" -- "$FERRY" "$cmd"
  expect 2 "$cmd with an unknown option" -- "$FERRY" "$cmd" --bogus "${samples[0]}"
done
expect 1 "a missing file is invalid input" -- "$FERRY" info "$tmp/does-not-exist.alo"
check "the missing file is named on stderr" grep -q "does-not-exist" "$tmp/err"

# sample: a frame or time that is not a finite number, 0 or more, is a usage error.
anim="$SRC/samples/alamo/walker_walk_00.ala"
for v in nan NaN inf -inf infinity -1 1e999 x; do
  for opt in --frame --time; do
    expect 2 "sample $opt $v" -- "$FERRY" sample "$opt" "$v" "$anim"
    check "sample $opt $v says why" grep -q -- "$opt needs a finite number" "$tmp/err"
  done
done
expect 2 "sample --time inf --loop" -- "$FERRY" sample --time inf --loop "$anim"
expect 2 "sample --time 1e308 (its frame overflows)" -- "$FERRY" sample --time 1e308 "$anim"
expect 0 "sample --frame 0.5" -- "$FERRY" sample --frame 0.5 "$anim"

check "samples are bundled" test -f "${samples[0]}"
for f in "${samples[@]}"; do
  name=$(basename "$f")
  expect 0 "info $name" -- "$FERRY" info "$f"
  check "info $name names the format" grep -q "ALO model" "$tmp/out"
  expect 0 "info --json $name" -- "$FERRY" info --json "$f"
  check "info --json $name parses, has bones" jq -e '.[0].bones >= 1' "$tmp/out" >/dev/null
  expect 0 "validate $name" -- "$FERRY" validate --no-textures "$f"
  expect 0 "validate --json $name" -- "$FERRY" validate --no-textures --json "$f"
  check "validate --json $name reports valid" jq -e '.[0].valid == true and .[0].error_count == 0' "$tmp/out" >/dev/null
  expect 0 "dump $name" -- "$FERRY" dump "$f"
  check "dump $name shows the skeleton" grep -q "0x200 skeleton" "$tmp/out"
  expect 0 "dump --json $name" -- "$FERRY" dump --json "$f"
  check "dump --json $name parses" jq -e '.chunks[0].type == "0x200"' "$tmp/out" >/dev/null
  # Each mini-chunk's value says what it is: the string itself, or values of a type as text.
  check "dump --json $name: every mini-chunk has its kind" jq -e '[.. | objects | select(has("minis")) | .minis[]]
    | length > 0 and all(.kind as $k | ["string", "uint8", "uint16", "int16", "uint32", "int32", "float", "bytes"]
    | index($k) != null)' "$tmp/out" >/dev/null
  expect 0 "convert $name" -- "$FERRY" convert "$f" "$tmp/$name"
  check "convert $name is byte-identical" cmp -s "$f" "$tmp/$name"
done

# Never overwrite the input, even through another name for it.
cp "${samples[0]}" "$tmp/input.alo"
ln -s "$tmp/input.alo" "$tmp/alias.alo"
before=$(cksum <"$tmp/input.alo")
expect 2 "convert refuses to overwrite its input" -- "$FERRY" convert "$tmp/input.alo" "$tmp/alias.alo"
check "the input is unchanged" test "$(cksum <"$tmp/input.alo")" = "$before"
expect 2 "convert to an unsupported format" -- "$FERRY" convert "${samples[0]}" "$tmp/out.xyz"
# A convert that fails after its temporary is written: a folder stands where
# the output goes, so the final rename (the temporary is made beside the
# target) fails. Neither it nor the converts above leave a temporary
# (OUT.ferry-tmp-PID-XXXXXX, src/core/io.c).
mkdir -p "$tmp/in-the-way.glb/x"
expect 1 "convert onto a folder fails when the output is put in place" -- "$FERRY" convert --no-textures "${samples[0]}" "$tmp/in-the-way.glb"
check "it says why" grep -q "cannot write .*in-the-way.glb: Is a directory" "$tmp/err"
check "the folder is untouched" test -d "$tmp/in-the-way.glb/x"
check "no temporary files are left behind" test -z "$(find "$tmp" -name '*.ferry-tmp-*')"

# A truncated copy is invalid input with a located message.
head -c 300 "${samples[0]}" >"$tmp/cut.alo"
expect 1 "validate a truncated model" -- "$FERRY" validate "$tmp/cut.alo"
check "the message names an offset" grep -q "offset 0x" "$tmp/err"
expect 1 "info on a truncated model" -- "$FERRY" info "$tmp/cut.alo"
expect 1 "convert a truncated model" -- "$FERRY" convert "$tmp/cut.alo" "$tmp/cut-out.alo"
check "a failed convert writes nothing" test ! -e "$tmp/cut-out.alo"

# An archive is mapped, never loaded: no size limit, a PBO as a MEG. A PBO of
# one stored entry of 2,500,000,000 bytes (0x9502f900), sparse (nothing read).
printf 'a.bin\0\0\0\0\0\x00\xf9\x02\x95\0\0\0\0\0\0\0\0\x00\xf9\x02\x95\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >"$tmp/big.pbo"
if truncate -s $((47 + 2500000000)) "$tmp/big.pbo" 2>/dev/null; then
  expect 0 "info on a PBO over 2 GiB" -- "$FERRY" info "$tmp/big.pbo"
  check "its entry is counted" grep -q "1 file (0 compressed), 2500000000 bytes stored" "$tmp/out"
  rm -f "$tmp/big.pbo"
fi
finish
