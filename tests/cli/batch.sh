#!/usr/bin/env bash
# ferry convert -r as a user runs it on a folder: every .alo becomes a .glb
# at the mirrored place, animations attached automatically; one bad file is
# named, does not stop the batch, and makes the exit status 1. On the
# corpus (when ../shared is present), every model converts and every output
# passes the Khronos validator with zero errors.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
validate="$SRC/tests/gltf/validate.mjs"
have_validator=false
command -v node >/dev/null 2>&1 && [ -d "$SRC/tests/gltf/node_modules/gltf-validator" ] && have_validator=true

mkdir -p "$tmp/in/Models/sub" "$tmp/in/Textures"
cp "$SRC"/samples/alamo/walker*.al? "$tmp/in/Models/"
cp "$SRC"/samples/alamo/crate.alo "$SRC"/samples/alamo/p_walker_exhaust.alo "$tmp/in/Models/sub/"
expect 0 "batch over the samples" -- "$FERRY" convert -r --jobs 2 "$tmp/in" "$tmp/glb"
for f in Models/walker Models/sub/crate Models/sub/p_walker_exhaust; do
  check "$f.glb written at the mirrored place" test -s "$tmp/glb/$f.glb"
done
check "no .glb for the animations themselves" test ! -e "$tmp/glb/Models/walker_walk_00.glb"
check "the summary counts 3 files and the walker's 2 animations" grep -q "3 of 3 files converted.*(2 animations" "$tmp/err"
expect 0 "batch --json" -- "$FERRY" convert -r --json --quiet "$tmp/in" "$tmp/glb2"
check "the JSON report lists every file" jq -e '.converted == 3 and .failed == 0 and (.files | length) == 3' "$tmp/out" >/dev/null
check "the walker got its animations" jq -e '.files[] | select(.input | endswith("walker.alo")) | .animations == 2' "$tmp/out" >/dev/null

head -c 200 "$SRC/samples/alamo/crate.alo" >"$tmp/in/Models/broken.alo"
expect 1 "a bad file makes the batch fail" -- "$FERRY" convert -r "$tmp/in" "$tmp/glb3"
check "the bad file is named" grep -q "broken.alo" "$tmp/err"
check "with an offset" grep -q "offset 0x" "$tmp/err"
check "the others were still converted" test -s "$tmp/glb3/Models/walker.glb" -a -s "$tmp/glb3/Models/sub/crate.glb"
check "the summary says 3 of 4" grep -q "3 of 4 files converted" "$tmp/err"
expect 2 "-r needs a folder" -- "$FERRY" convert -r "$SRC/samples/alamo/crate.alo" "$tmp/glb4"
if $have_validator; then
  expect 0 "every batch output passes the Khronos validator" -- node "$validate" "$tmp"/glb/Models/*.glb "$tmp"/glb/Models/sub/*.glb
fi

corpus="$SHARED/corpus/alamo"
if [ -d "$corpus" ]; then
  expect 0 "batch over the corpus" -- "$FERRY" convert -r --quiet "$corpus" "$tmp/corpus"
  models=$(find "$corpus" -iname '*.alo' | wc -l)
  outputs=$(find "$tmp/corpus" -name '*.glb' | wc -l)
  check "one .glb per corpus .alo ($models)" test "$models" -eq "$outputs"
  check "ueaw textures embedded" grep -q "[1-9][0-9]* images embedded" "$tmp/err"
  if $have_validator; then
    mapfile -d '' glbs < <(find "$tmp/corpus" -name '*.glb' -print0)
    expect 0 "every corpus output passes the Khronos validator" -- node "$validate" "${glbs[@]}"
    check "zero errors in every file" bash -c "! grep -q ': [1-9][0-9]* errors' '$tmp/out'"
  else
    left_out "the Khronos validator on the corpus outputs (node or tests/gltf/node_modules/gltf-validator is not installed (tools/setup.sh test installs them))"
  fi
else
  left_out "the corpus batch ($corpus is absent)"
fi
finish
