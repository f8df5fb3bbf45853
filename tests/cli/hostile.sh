#!/usr/bin/env bash
# Hostile files and file systems (issue 16): FIFOs and devices are refused
# without blocking, link loops are walked once, names that differ only in
# case are refused, a .gltf's files land together or not at all, stale
# temporaries of dead ferry processes are removed (and nothing else), names
# that are not UTF-8 appear in JSON, control characters are escaped in text,
# a read-only output counts nothing as written, info --json has an entry for
# every input. Everything runs under `timeout`: a hang is a failure.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
S="$SRC/samples/alamo"
# A guard against hangs, not a speed check: loaded CI machines run these batches
# several times slower than an idle one.
T="timeout 120"

# A 2x2 uncompressed 32-bit TGA, so that exports have an image to write.
tga() { printf '\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x02\x00\x20\x08'; printf '\xff\x00\x00\xff%.0s' 1 2 3 4; }

# ---- FIFOs and devices: every command refuses them at once, exit 1 ----
mkdir -p "$tmp/fifo"
for ext in alo ala p3d alm; do mkfifo "$tmp/fifo/f.$ext"; done
for ext in alo p3d alm; do
  expect 1 "info on a FIFO .$ext" -- $T "$FERRY" info "$tmp/fifo/f.$ext"
  check "info says .$ext is a FIFO" grep -q "is a FIFO (named pipe), not a regular file" "$tmp/err"
  expect 1 "info --json on a FIFO .$ext" -- $T "$FERRY" info --json "$tmp/fifo/f.$ext"
  check "the FIFO .$ext has an entry with its error" jq -e '.[0].read_error.message | test("FIFO")' "$tmp/out" >/dev/null
  expect 1 "validate on a FIFO .$ext" -- $T "$FERRY" validate "$tmp/fifo/f.$ext"
  expect 1 "dump on a FIFO .$ext" -- $T "$FERRY" dump "$tmp/fifo/f.$ext"
done
expect 1 "convert a FIFO .alo" -- $T "$FERRY" convert "$tmp/fifo/f.alo" "$tmp/fifo/o.glb"
check "convert names the FIFO" grep -q "FIFO" "$tmp/err"
expect 1 "convert a FIFO .p3d" -- $T "$FERRY" convert "$tmp/fifo/f.p3d" "$tmp/fifo/o.glb"
expect 1 "convert a FIFO .alm" -- $T "$FERRY" convert "$tmp/fifo/f.alm" "$tmp/fifo/o.glb"
expect 1 "info on a character device" -- $T "$FERRY" info /dev/null
check "it is called a character device" grep -q "character device" "$tmp/err"

# ---- a .p3d or .alm that is not one fails on its header ----
head -c 100000 /dev/zero >"$tmp/zeros.p3d"
expect 1 "zeros named .p3d" -- $T "$FERRY" info "$tmp/zeros.p3d"
check "the header is what is refused" grep -q 'not a P3D (ODOL or MLOD) file: it starts with bytes 00 00 00 00' "$tmp/err"
cp "$tmp/zeros.p3d" "$tmp/zeros.alm"
expect 1 "zeros named .alm" -- $T "$FERRY" validate "$tmp/zeros.alm"
check "the ALM header is what is refused" grep -q 'not an ALM file' "$tmp/err"
# A file of empty chunks after a skeleton chunk's header: refused by the
# chunk-record budget, not read into millions of records.
{ printf '\x00\x02\x00\x00\x00\x00\x00\x00'; head -c 999992 /dev/zero; } >"$tmp/zeros.alo"
expect 1 "empty chunks named .alo" -- $T "$FERRY" info "$tmp/zeros.alo"
check "refused by the record budget" grep -q "125000 more chunk records would pass the budget" "$tmp/err"

# ---- convert -r: a FIFO among models, link loops, case collisions ----
mkdir -p "$tmp/in/d/a" "$tmp/in/Textures"
cp "$S/crate.alo" "$tmp/in/d/a/crate.alo"
cp "$S/crate.alo" "$tmp/in/d/keep.alo"
mkfifo "$tmp/in/d/a.alo"
ln -s .. "$tmp/in/d/a/up"
ln -s ../.. "$tmp/in/d/a/up2"
ln -s d/a "$tmp/in/alink"
expect 1 "batch with a FIFO and link loops finishes" -- $T "$FERRY" convert -r --json "$tmp/in" "$tmp/o"
check "the FIFO is named as failed" grep -q "d/a.alo is a FIFO" "$tmp/err"
check "each loop is reported" test "$(grep -c 'already visited' "$tmp/err")" -eq 3
check "every real model converted once" test "$(find "$tmp/o" -name '*.glb' | wc -l)" -eq 2
check "at its real place" test -s "$tmp/o/d/a/crate.glb" -a -s "$tmp/o/d/keep.glb"
check "no copy under a link" test ! -e "$tmp/o/alink" -a ! -e "$tmp/o/d/a/up"
check "JSON: 2 converted, 1 failed, 3 folders skipped" \
  jq -e '.converted == 2 and .failed == 1 and .skipped_folders == 3' "$tmp/out" >/dev/null

mkdir -p "$tmp/case"
cp "$S/crate.alo" "$tmp/case/ship.alo"
cp "$S/walker.alo" "$tmp/case/ship.ALO"
cp "$S/crate.alo" "$tmp/case/other.alo"
expect 1 "case-colliding names" -- $T "$FERRY" convert -r "$tmp/case" "$tmp/case-out"
check "both are refused, naming each other" \
  test "$(grep -c 'would both be written as .*ship.glb (the names differ only in case)' "$tmp/err")" -eq 2
check "neither was written" test ! -e "$tmp/case-out/ship.glb"
check "the other file converted" test -s "$tmp/case-out/other.glb"
check "the summary counts 1 of 3" grep -q "1 of 3 files converted" "$tmp/err"

# ---- stale temporaries: only a dead ferry process's own are removed ----
mkdir -p "$tmp/stale-out/d"
dead=999999
while kill -0 "$dead" 2>/dev/null; do dead=$((dead - 1)); done
: >"$tmp/stale-out/d/keep.glb.ferry-tmp-$dead-Ab12Cd"
: >"$tmp/stale-out/d/keep.glb.ferry-tmp-$$-Ab12Cd"   # a live process: kept
: >"$tmp/stale-out/d/keep.glb.tmp-Ab12Cd"            # not ferry's pattern: kept
: >"$tmp/stale-out/notes.ferry-tmp-$dead-toolong"    # not the pattern: kept
ln -s "$tmp/stale-out/d/keep.glb.tmp-Ab12Cd" "$tmp/stale-out/d/x.glb.ferry-tmp-$dead-Zz99zz" # a link: kept
mkdir -p "$tmp/stale-in/d" && cp "$S/crate.alo" "$tmp/stale-in/d/keep.alo"
expect 0 "batch into a folder with stale temporaries" -- $T "$FERRY" convert -r "$tmp/stale-in" "$tmp/stale-out"
check "the dead process's temporary is gone" test ! -e "$tmp/stale-out/d/keep.glb.ferry-tmp-$dead-Ab12Cd"
check "the removal is reported" grep -q "removed 1 temporary" "$tmp/err"
check "a live process's temporary stays" test -e "$tmp/stale-out/d/keep.glb.ferry-tmp-$$-Ab12Cd"
check "other names stay" test -e "$tmp/stale-out/d/keep.glb.tmp-Ab12Cd" -a -e "$tmp/stale-out/notes.ferry-tmp-$dead-toolong"
check "links stay" test -L "$tmp/stale-out/d/x.glb.ferry-tmp-$dead-Zz99zz"
check "the batch's own output is complete" test -s "$tmp/stale-out/d/keep.glb"
check "no temporary of this run is left" bash -c "! ls '$tmp/stale-out/d' | grep -v -e '-Ab12Cd\$' -e 'Zz99zz\$' | grep -q ferry-tmp"

# ---- kill -9 mid-batch, then a rerun; two batches into one folder at once ----
mkdir -p "$tmp/many"
for i in $(seq 1 1500); do cp "$S/walker.alo" "$tmp/many/m$i.alo"; done
# The kill must land while the batch is writing: once some outputs exist
# and before all do. Waited for, not slept for: a fixed sleep killed a batch
# that had written nothing yet on a loaded machine or under a sanitizer (and
# one that had finished, on a fast one), and the checks then held vacuously.
"$FERRY" convert -r --quiet --jobs 2 "$tmp/many" "$tmp/many-out" 2>/dev/null &
victim=$!
outputs() { find "$tmp/many-out" -name '*.glb' 2>/dev/null | wc -l; }
polls=0 # 50 ms each, at most 2 minutes
while [ "$(outputs)" -lt 20 ] && kill -0 "$victim" 2>/dev/null && [ "$polls" -lt 2400 ]; do
  sleep 0.05
  polls=$((polls + 1))
done
before=$(outputs)
kill -9 "$victim" 2>/dev/null
wait "$victim" 2>/dev/null
status=$?
after=$(outputs)
check "the kill stopped a batch still running (status $status, 137 is killed by signal 9)" test "$status" -eq 137
check "the batch had written outputs before the kill ($before)" test "$before" -ge 20
check "outputs are missing after the kill ($after of 1500)" test "$after" -lt 1500
check "every output the killed batch left is complete" \
  bash -c 'for f in "$1"/*.glb; do [ -e "$f" ] || continue; [ "$(od -An -tu4 -j8 -N4 "$f" | tr -d " ")" -eq "$(wc -c <"$f")" ] || exit 1; done' _ "$tmp/many-out"
expect 0 "a rerun after kill -9" -- $T "$FERRY" convert -r --quiet "$tmp/many" "$tmp/many-out"
check "no temporary is left after the rerun" bash -c "! ls '$tmp/many-out' | grep -q ferry-tmp"
check "1500 outputs" test "$(ls "$tmp/many-out" | wc -l)" -eq 1500
$T "$FERRY" convert -r --quiet --jobs 1 "$tmp/many" "$tmp/two-out" 2>"$tmp/two1" &
first=$!
$T "$FERRY" convert -r --quiet --jobs 1 "$tmp/many" "$tmp/two-out" 2>"$tmp/two2"
second=$?
wait "$first"
check "two batches into one folder both succeed" test "$?" -eq 0 -a "$second" -eq 0
check "neither removed the other's temporaries" bash -c "! grep -q 'removed' '$tmp/two1' '$tmp/two2'"
check "1500 complete outputs, no temporaries" \
  bash -c 'n=0; for f in "$1"/*; do case "$f" in *ferry-tmp*) exit 1;; esac; [ "$(od -An -tu4 -j8 -N4 "$f" | tr -d " ")" -eq "$(wc -c <"$f")" ] || exit 1; n=$((n+1)); done; [ "$n" -eq 1500 ]' _ "$tmp/two-out"

# ---- a .gltf's files land together or not at all ----
mkdir -p "$tmp/g/Models" "$tmp/g/Textures"
cp "$S/crate.alo" "$tmp/g/Models/crate.alo"
tga >"$tmp/g/Textures/crate.tga"
expect 0 "a .gltf with an image" -- $T "$FERRY" convert "$tmp/g/Models/crate.alo" "$tmp/g/ok.gltf"
check "the .gltf, .bin and PNG are written" test -s "$tmp/g/ok.gltf" -a -s "$tmp/g/ok.bin" -a -s "$tmp/g/ok_image0.png"
mkdir "$tmp/g/x.bin"   # a folder in the way of the .bin
expect 1 "a .gltf whose .bin cannot be placed" -- $T "$FERRY" convert "$tmp/g/Models/crate.alo" "$tmp/g/x.gltf"
check "no .gltf" test ! -e "$tmp/g/x.gltf"
check "no PNG left beside it" test ! -e "$tmp/g/x_image0.png"
check "no temporary left" bash -c "! ls '$tmp/g' | grep -q ferry-tmp"
cp "$S/crate.alo" "$tmp/g/Models/e.bin"
expect 2 "input named like the .gltf's side file" -- $T "$FERRY" convert "$tmp/g/Models/e.bin" "$tmp/g/Models/e.gltf"
check "refused before any write: no PNG" test ! -e "$tmp/g/Models/e_image0.png"
check "no .gltf" test ! -e "$tmp/g/Models/e.gltf"
check "the input is intact" cmp -s "$S/crate.alo" "$tmp/g/Models/e.bin"

# ---- names that are not UTF-8; control characters ----
mkdir -p "$tmp/names"
latin="$tmp/names/$(printf 'ship\xe9.alo')"
# The mesh and bone "Crate" renamed "Cr\xe9te" (same length: the chunks keep their sizes).
perl -pe 's/Crate/Cr\xe9te/g' "$S/crate.alo" >"$latin"
expect 0 "info --json on a Latin-1 name" -- $T "$FERRY" info --json "$latin"
check "the file key is present, read as Latin-1" \
  jq -e '.[0].file | endswith("ship\u00e9.alo")' "$tmp/out" >/dev/null
check "the mesh name is in the list" jq -e '.[0].mesh_names == ["Cr\u00e9te"]' "$tmp/out" >/dev/null
check "both are marked Latin-1" jq -e '.[0].latin1 == ["file", "mesh_names/0"]' "$tmp/out" >/dev/null
expect 0 "validate --json on a Latin-1 name" -- $T "$FERRY" validate --json "$latin"
check "validate keeps the file key" grep -q 'ship\\u00e9.alo\|shipé.alo' "$tmp/out"
check "validate's file key is the name" jq -e '[.. | objects | select(has("file")) | .file | endswith("ship\u00e9.alo")] | any' "$tmp/out" >/dev/null
expect 0 "convert -r --json over Latin-1 names" -- $T "$FERRY" convert -r --json "$tmp/names" "$tmp/names-out"
check "input and output are present" \
  jq -e '.files[0] | (.input | endswith("ship\u00e9.alo")) and (.output | endswith("ship\u00e9.glb")) and (.latin1 | index("input") != null and index("output") != null)' "$tmp/out" >/dev/null
check "the output has the same bytes in its name" test -s "$tmp/names-out/$(printf 'ship\xe9.glb')"
expect 0 "dump --json on a Latin-1 name" -- $T "$FERRY" dump --json "$latin"
check "dump --json: the chunk string read as Latin-1 and marked" \
  jq -e '[.. | objects | select(.string? == "Cr\u00e9te" and (.latin1 == ["string"]))] | length >= 2' "$tmp/out" >/dev/null
check "dump --json: no \\x text" bash -c '! grep -q "\\\\x" "$1"' _ "$tmp/out"
# A name holding the text \x9b (valid UTF-8) stays that text, unmarked.
perl -pe 's/Crate/C\\x9b/g' "$S/crate.alo" >"$tmp/names/literal.alo"
expect 0 "dump --json on a name holding backslash-x" -- $T "$FERRY" dump --json "$tmp/names/literal.alo"
check "dump --json: the literal text, not marked" \
  jq -e '[.. | objects | select(.string? == "C\\x9b")] | length >= 2 and all(has("latin1") | not)' "$tmp/out" >/dev/null
perl -pe 's/Crate/Cr\x1bte/g' "$S/crate.alo" >"$tmp/names/esc.alo"
expect 0 "dump --json on a name with a control character" -- $T "$FERRY" dump --json "$tmp/names/esc.alo"
check "dump --json: the control character escaped by JSON" \
  jq -e '[.. | objects | select(.string? == "Cr\u001bte")] | length >= 2 and all(has("latin1") | not)' "$tmp/out" >/dev/null
expect 0 "dump text on a name with a control character" -- $T "$FERRY" dump "$tmp/names/esc.alo"
check "dump text: escaped" bash -c "grep -q 'Cr\\\\x1bte' '$tmp/out' && ! grep -q $'\033' '$tmp/out'"

esc="$tmp/names/$(printf 'a\033[31mb\nc.alo')"
cp "$S/crate.alo" "$esc"
expect 0 "info on a name with control characters" -- $T "$FERRY" info "$esc"
check "ESC and newline are printed escaped" grep -q 'a\\x1b\[31mb\\x0ac.alo: ALO model' "$tmp/out"
check "no raw ESC byte in the text" bash -c "! grep -q $'\033' '$tmp/out'"
expect 1 "an error naming it" -- $T "$FERRY" info "$tmp/names/$(printf 'no\033such.alo')"
check "the error escapes it too" grep -q 'no\\x1bsuch.alo: error' "$tmp/err"

# ---- info --json: every input an entry, one shape for every format ----
head -c 300 "$S/crate.alo" >"$tmp/broken.alo"
printf 'ODOL\x28\x00\x00\x00' >"$tmp/broken.p3d"
printf 'ALM\x00\x00\x00\x00\x09' >"$tmp/broken.alm"
expect 1 "info --json over good and broken files" -- $T "$FERRY" info --json "$S/crate.alo" "$tmp/broken.alo" "$tmp/broken.p3d" "$tmp/broken.alm" "$tmp/missing.alo"
check "five entries" jq -e 'length == 5' "$tmp/out" >/dev/null
check "each failed one has file, format, a located read_error and valid false" \
  jq -e '.[1:] | all((keys - ["latin1"]) == ["file", "format", "read_error", "valid"] and (.read_error | keys) == ["code", "message", "offset", "path"] and .valid == false)' "$tmp/out" >/dev/null
check "the broken ALO's error has its offset" jq -e '.[1].read_error.offset != null' "$tmp/out" >/dev/null
expect 1 "validate --json over the same files" -- $T "$FERRY" validate --json --no-textures "$S/crate.alo" "$tmp/broken.alo" "$tmp/broken.p3d" "$tmp/broken.alm" "$tmp/missing.alo"
check "validate: the same shape for every failed input" \
  jq -e 'length == 5 and (.[1:] | all((keys - ["latin1"]) == ["file", "format", "read_error", "valid"] and .valid == false))' "$tmp/out" >/dev/null

# ---- one policy for files that fail validation: refused, --allow-invalid converts ----
mkdir -p "$tmp/policy"
cp "$S/crate.alo" "$tmp/policy/bad.alo"
# Triangle 0's first index (the index chunk 0x10004 is at 8720) made 32767: an [index-range] error.
printf '\xff\x7f' | dd of="$tmp/policy/bad.alo" bs=1 seek=$((8720 + 8)) conv=notrunc 2>/dev/null
expect 1 "validate finds the error" -- $T "$FERRY" validate --no-textures "$tmp/policy/bad.alo"
expect 1 "convert refuses it" -- $T "$FERRY" convert "$tmp/policy/bad.alo" "$tmp/policy/bad.glb"
check "the error and the refusal are said" grep -q "index-range.*" "$tmp/err"
check "not converted" grep -q "bad.alo: not converted: 1 validation error" "$tmp/err"
check "nothing written" test ! -e "$tmp/policy/bad.glb"
expect 0 "--allow-invalid converts it" -- $T "$FERRY" convert --allow-invalid "$tmp/policy/bad.alo" "$tmp/policy/bad.glb"
check "saying so" grep -q "converting anyway (--allow-invalid): 1 validation error" "$tmp/err"
cp "$S/crate.alo" "$tmp/policy/good.alo"
expect 1 "a batch refuses it too" -- $T "$FERRY" convert -r "$tmp/policy" "$tmp/policy-out"
check "1 of 2 converted" grep -q "1 of 2 files converted" "$tmp/err"
expect 0 "a batch with --allow-invalid" -- $T "$FERRY" convert -r --allow-invalid "$tmp/policy" "$tmp/policy-out2"
check "2 of 2 converted" grep -q "2 of 2 files converted" "$tmp/err"
p3d=$(ls "$SRC"/samples/odol/*.p3d 2>/dev/null | head -n 1)
if [ -n "$p3d" ]; then
  expect 0 "P3D conversion takes --allow-invalid" -- $T "$FERRY" convert --allow-invalid "$p3d" "$tmp/policy/p.glb"
fi

# ---- a read-only output folder: nothing counted as written ----
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
  as_user() { "$@"; }
fi
chmod 755 "$tmp"
mkdir -p "$tmp/ro-in/sub" "$tmp/ro-in/Textures" "$tmp/ro-out"
cp "$S/crate.alo" "$tmp/ro-in/crate.alo"
cp "$S/crate.alo" "$tmp/ro-in/sub/crate2.alo"
tga >"$tmp/ro-in/Textures/crate.tga"
chmod -R a+rX "$tmp/ro-in"
chmod 555 "$tmp/ro-out"
UFERRY=$(ferry_for_user)
if [ -z "$UFERRY" ]; then
  left_out "the read-only checks (the unprivileged user cannot run a copy of ferry here)"
elif as_user test -w "$tmp/ro-out"; then
  left_out "the read-only checks (cannot make a folder read-only for this user here)"
else
  expect 1 "a batch into a read-only folder" -- as_user $T "$UFERRY" convert -r "$tmp/ro-in" "$tmp/ro-out"
  check "nothing counted as converted or embedded" grep -q "0 of 2 files converted into .* (0 animations, 0 images embedded" "$tmp/err"
  check "the folder that cannot be created says why" grep -q "cannot create the folder .*ro-out/sub: Permission denied" "$tmp/err"
  check "the file that cannot be written says why" grep -q "crate.glb: error: cannot create a temporary file beside .*Permission denied" "$tmp/err"
  expect 1 "a folder that cannot be created" -- as_user $T "$UFERRY" convert -r "$tmp/ro-in" "$tmp/ro-out/new"
  check "says why" grep -q "cannot create $tmp/ro-out/new: Permission denied" "$tmp/err"
fi
chmod 755 "$tmp/ro-out"

finish
