#!/usr/bin/env bash
# The Khronos glTF validator on what `ferry convert` writes: every bundled
# model as .glb and as .gltf (with its .bin), the walker with its
# animations. Skips (77) only when node itself is absent; with node but
# without tests/gltf/node_modules it fails, so that a CI run that did
# `tools/setup.sh test` really validates instead of skipping quietly.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
command -v node >/dev/null 2>&1 || skip "node is not installed (tools/setup.sh test installs it)"
validate="$SRC/tests/gltf/validate.mjs"
if [ ! -d "$SRC/tests/gltf/node_modules/gltf-validator" ]; then
  echo "FAIL: tests/gltf/node_modules is missing: run (cd tests/gltf && npm ci)" >&2
  exit 1
fi

# The script itself: usage errors are 2, a broken file is 1.
expect 2 "validate.mjs without files is a usage error" -- node "$validate"
expect 2 "validate.mjs refuses other extensions" -- node "$validate" "$tmp/x.obj"
printf 'glTF\002\000\000\000\014\000\000\000' >"$tmp/broken.glb"
expect 1 "a broken .glb fails validation" -- node "$validate" "$tmp/broken.glb"
check "the failure is reported per file" grep -q "broken.glb: [1-9][0-9]* errors" "$tmp/out"

files=()
for f in "$SRC"/samples/alamo/*.alo; do
  name=$(basename "$f" .alo)
  for ext in glb gltf; do
    expect 0 "convert $name.alo to .$ext" -- "$FERRY" convert "$f" "$tmp/$name.$ext"
    files+=("$tmp/$name.$ext")
  done
done
anims=()
for a in "$SRC"/samples/alamo/walker_*.ala; do anims+=(--anim "$a"); done
expect 0 "convert walker.alo with its animations" -- "$FERRY" convert "${anims[@]}" "$SRC/samples/alamo/walker.alo" "$tmp/walker_animated.glb"
files+=("$tmp/walker_animated.glb")

expect 0 "the Khronos validator finds no errors" -- node "$validate" "${files[@]}"
cat "$tmp/out"
check "every file was validated" test "$(grep -c ': 0 errors' "$tmp/out")" -eq "${#files[@]}"
finish
