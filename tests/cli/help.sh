#!/usr/bin/env bash
# The command line's own texts and refusals, without ../shared: ferry help
# [COMMAND], what the help names, files of no known format, --textures
# folders that do not exist, and convert's warnings about particle textures.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
s="$SRC/samples/alamo"

expect 0 "ferry help" -- "$FERRY" help
check "the overview" grep -q "usage: ferry COMMAND" "$tmp/out"
for word in "glTF 2.0" "ALM" "\.p3d" "ArmA" "\.alo" "\.ala" "help \[COMMAND\]" "MEG" "PAA" "\.png" "FBX" "\.gltf -> \.ala"; do
  check "the overview names $word" grep -q "$word" "$tmp/out"
done
cp "$tmp/out" "$tmp/help.txt"
expect_out "$tmp/top.txt" 0 "ferry --help" -- "$FERRY" --help
check "ferry help = ferry --help" same_output "$tmp/help.txt" "$tmp/top.txt"
for cmd in info dump validate convert sample; do
  expect_out "$tmp/own.txt" 0 "ferry $cmd --help" -- "$FERRY" "$cmd" --help
  expect 0 "ferry help $cmd" -- "$FERRY" help "$cmd"
  check "ferry help $cmd = ferry $cmd --help" same_output "$tmp/out" "$tmp/own.txt"
done
expect 2 "help for an unknown command" -- "$FERRY" help frobnicate
check "named" grep -q "unknown command 'frobnicate'" "$tmp/err"
check "no 'ferry help --help' suggestion" bash -c '! grep -q "help --help" "$1"' _ "$tmp/err"
check "the commands are listed instead" grep -q "^commands:" "$tmp/err"

# '--' ends the options in every command: a file named like an option.
mkdir -p "$tmp/dd"
cp "$s/crate.alo" "$tmp/dd/-x.alo"
cp "$s/walker_walk_00.ala" "$tmp/dd/--anim.ala"
for cmd in info dump validate; do
  expect 0 "$cmd -- -x.alo" -- bash -c 'cd "$1" && "$2" "$3" -- -x.alo' _ "$tmp/dd" "$FERRY" "$cmd"
done
expect 0 "info --json -- -x.alo" -- bash -c 'cd "$1" && "$2" info --json -- -x.alo' _ "$tmp/dd" "$FERRY"
check "the option before -- still applies" jq -e '.[0].format == "ALO model"' "$tmp/out" >/dev/null
expect 0 "convert --no-textures -- -x.alo -y.glb" -- bash -c 'cd "$1" && "$2" convert --no-textures -- -x.alo -y.glb' _ "$tmp/dd" "$FERRY"
check "the output is written" test -s "$tmp/dd/-y.glb"
expect 0 "sample --frame 0 -- --anim.ala" -- bash -c 'cd "$1" && "$2" sample --frame 0 -- --anim.ala' _ "$tmp/dd" "$FERRY"
expect 2 "an option after -- is a file, not an option" -- bash -c 'cd "$1" && "$2" sample -- --anim.ala --frame' _ "$tmp/dd" "$FERRY"
expect 2 "help takes one command" -- "$FERRY" help info dump

for cmd in info validate; do
  "$FERRY" help "$cmd" >"$tmp/h.txt"
  for word in "\.alo" "\.ala\|animation" "particle" "\.p3d\|ODOL" "ArmA" "ALM\|\.alm" "MEG" "PBO" "PAA" "config"; do
    check "$cmd help mentions $word" grep -qi "$word" "$tmp/h.txt"
  done
done

# An output ferry cannot write: the outputs that apply to the input are named.
expect 2 "convert a model to .obj" -- "$FERRY" convert "$s/crate.alo" "$tmp/x.obj"
check "a model's outputs include .alm" grep -q "from an ALO model: supported outputs: .glb, .gltf, .alo, .alm" "$tmp/err"
expect 2 "convert an animation to .obj" -- "$FERRY" convert "$s/walker_walk_00.ala" "$tmp/x.obj"
check "an animation's output is .ala" grep -q "from an animation: supported outputs: .ala" "$tmp/err"
expect 2 "convert a P3D to .obj" -- "$FERRY" convert "$SRC/samples/odol/box.p3d" "$tmp/x.obj"
check "a P3D's outputs include .p3d" grep -q "supported outputs are .p3d, .glb, .gltf" "$tmp/err"
expect 2 "convert a file of unknown kind to .obj" -- "$FERRY" convert "$tmp/nothing-here" "$tmp/x.obj"
check "every output is named" grep -q "supported outputs: .glb, .gltf, .alo, .ala, .alm, .p3d" "$tmp/err"
check "the texture and archive outputs too" grep -q "\.p3d, \.png, \.paa, \.pac, \.meg, \.pbo" "$tmp/err"
for o in --lod --triangles --error --mip; do
  expect 2 "convert a model with $o" -- "$FERRY" convert "$s/crate.alo" "$tmp/x.glb" "$o" 1
  check "$o is known, and said not to apply" grep -q "option '$o' does not apply to Alamo conversions" "$tmp/err"
done
# An output ferry writes from another input: the input is what is wrong (exit 1).
printf 'This is a text file.\n' >"$tmp/words.txt"
for o in png paa meg pbo; do
  expect 1 "convert a text file to .$o" -- "$FERRY" convert "$tmp/words.txt" "$tmp/x.$o"
  check "the input is named as of no known format" grep -q "words.txt: .*not a known format" "$tmp/err"
  expect 1 "convert a missing file to .$o" -- "$FERRY" convert "$tmp/nothing-here" "$tmp/x.$o"
  check "the missing input is named" grep -q "cannot open" "$tmp/err"
done
mkdir -p "$tmp/folder-in"
expect 1 "convert a folder to .png" -- "$FERRY" convert "$tmp/folder-in" "$tmp/x.png"
check "the folder is named" grep -q "is a folder" "$tmp/err"

# A file of no known format says so, in every command that reads files.
printf 'This is a text file, not a model.\n' >"$tmp/text.alo"
for cmd in info validate dump; do
  expect 1 "$cmd of a text file" -- "$FERRY" "$cmd" "$tmp/text.alo"
  check "$cmd: not a known format" grep -q "text.alo: error: offset 0x0 (0): not a known format: it starts with 54 68 69 73 20 69 73 20" "$tmp/err"
  check "$cmd: no chunk size message" bash -c "! grep -q 'body bytes' '$tmp/err'"
done
expect 1 "convert of a text file" -- "$FERRY" convert "$tmp/text.alo" "$tmp/text.glb"
check "convert: not a known format" grep -q "not a known format" "$tmp/err"
: >"$tmp/empty.ala"
expect 1 "an empty file" -- "$FERRY" info "$tmp/empty.ala"
check "empty" grep -q "not a known format: the file is empty" "$tmp/err"
head -c 4 "$s/walker.alo" >"$tmp/stub.alo"
expect 1 "a model cut inside its first chunk header" -- "$FERRY" info "$tmp/stub.alo"
check "is still read as a model (located truncation)" grep -q "8-byte chunk header" "$tmp/err"
expect 0 "a real model still reads" -- "$FERRY" info "$s/walker.alo"

# --textures DIR must be a folder or an archive: a usage error otherwise.
expect 2 "convert --textures with a missing folder" -- "$FERRY" convert "$s/walker.alo" "$tmp/w.glb" --textures "$tmp/nowhere"
check "says why" grep -q -- "--textures $tmp/nowhere: No such file or directory" "$tmp/err"
check "nothing written" test ! -e "$tmp/w.glb"
expect 2 "convert -r --textures with a missing folder" -- "$FERRY" convert -r "$s" "$tmp/batch" --textures "$tmp/nowhere"
expect 2 "validate --textures with a file" -- "$FERRY" validate --textures "$s/walker.alo" "$s/walker.alo"
check "neither a folder nor an archive" grep -q "neither a folder nor an archive" "$tmp/err"
expect 0 "an existing folder is fine" -- "$FERRY" convert "$s/walker.alo" "$tmp/w.glb" --textures "$s"

# convert names the particle textures it cannot find, as validate does.
expect 0 "validate the particle system" -- "$FERRY" validate "$s/p_walker_exhaust.alo"
grep -o "emitter [0-9] '[a-z]*': [a-z ]* texture '[^']*' not found \[texture-missing\]" "$tmp/out" | sort >"$tmp/v.txt"
expect 0 "convert the particle system" -- "$FERRY" convert "$s/p_walker_exhaust.alo" "$tmp/p.glb"
grep -o "emitter [0-9] '[a-z]*': [a-z ]* texture '[^']*' not found \[texture-missing\]" "$tmp/err" | sort >"$tmp/c.txt"
check "four missing textures" test "$(wc -l <"$tmp/v.txt")" -eq 4
check "the same ones in convert" cmp -s "$tmp/v.txt" "$tmp/c.txt"
check "counted" grep -q "4 warnings" "$tmp/err"
expect 0 "no texture warnings with --no-textures" -- "$FERRY" convert --no-textures "$s/p_walker_exhaust.alo" "$tmp/p.glb"
check "none" bash -c "! grep -q texture-missing '$tmp/err'"
finish
