#!/usr/bin/env bash
# ferry convert -r straight from archives: every model inside a MEG (ALO and
# P3D alike) becomes a .glb at its entry's path, animations found beside the
# model inside the archive, textures looked up as the game does (beside the
# model, ../Textures inside the archive, then each --textures folder or
# archive at its root and in its Data/Art/Textures); hostile entry names
# are named and never written outside OUTDIR; folder batches take every
# model format too. The archives are packed here from the bundled samples
# (format 1, the layout of docs/formats/meg.md).
set -u
FERRY=$1 SRC=$2 SHARED=${3:-}
. "$(dirname "$0")/lib.bash"
S="$SRC/samples"

le32() {
    local v=$1
    printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $(((v >> 8) & 255)))\\x$(printf %02x $(((v >> 16) & 255)))\\x$(printf %02x $(((v >> 24) & 255)))"
}
le16() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $((($1 >> 8) & 255)))"; }

# megf OUT NAME=FILE...: a format 1 archive holding FILE's bytes as NAME
# (CRC fields zero: reading does not need them).
megf() {
    local out=$1
    shift
    local n=$# names=0 arg nm f
    for arg in "$@"; do nm=${arg%%=*}; names=$((names + 2 + ${#nm})); done
    local start=$((8 + names + 20 * n)) i=0 size
    {
        le32 $n; le32 $n
        for arg in "$@"; do nm=${arg%%=*}; le16 ${#nm}; printf '%s' "$nm"; done
        for arg in "$@"; do
            f=${arg#*=}
            size=$(stat -c %s "$f")
            le32 0; le32 $i; le32 $size; le32 $start; le32 $i
            start=$((start + size)); i=$((i + 1))
        done
        for arg in "$@"; do cat "${arg#*=}"; done
    } >"$out"
}

# An 8 x 8 uncompressed 24-bit TGA: a checker of orange and blue (bottom-up
# rows, BGR), so that a render shows the texture, not a flat colour.
tga() {
    printf '\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00\x08\x00\x18\x00'
    local y x
    for y in 0 1 2 3 4 5 6 7; do
        for x in 0 1 2 3 4 5 6 7; do
            if [ $(((x / 2 + y / 2) % 2)) -eq 0 ]; then printf '\x20\x80\xff'; else printf '\xe0\x60\x20'; fi
        done
    done
}

mkdir -p "$tmp/f"
tga >"$tmp/f/crate.tga"
megf "$tmp/Models.meg" \
    'DATA\ART\MODELS\WALKER.ALO='"$S/alamo/walker.alo" \
    'DATA\ART\MODELS\WALKER_IDLE_00.ALA='"$S/alamo/walker_idle_00.ala" \
    'DATA\ART\MODELS\WALKER_WALK_00.ALA='"$S/alamo/walker_walk_00.ala" \
    'DATA\ART\MODELS\CRATE.ALO='"$S/alamo/crate.alo" \
    'DATA\ART\MODELS\BOX.P3D='"$S/odol/box.p3d"
megf "$tmp/Textures.meg" 'DATA\ART\TEXTURES\CRATE.TGA='"$tmp/f/crate.tga"

expect 0 "convert -r from an archive, textures from another" -- "$FERRY" convert -r --jobs 2 --json "$tmp/Models.meg" "$tmp/o1" --textures "$tmp/Textures.meg"
for f in WALKER CRATE BOX; do
    check "$f.glb at the entry's path" test -s "$tmp/o1/DATA/ART/MODELS/$f.glb"
done
check "no .glb for the animations" test ! -e "$tmp/o1/DATA/ART/MODELS/WALKER_IDLE_00.glb"
check "3 of 3 converted, the walker's 2 animations, the crate's image" grep -q "3 of 3 files converted into $tmp/o1 (2 animations, 1 images embedded" "$tmp/err"
check "the JSON names the entries inside the archive" jq -e '[.files[].input] == ["'"$tmp"'/Models.meg/DATA/ART/MODELS/BOX.P3D", "'"$tmp"'/Models.meg/DATA/ART/MODELS/CRATE.ALO", "'"$tmp"'/Models.meg/DATA/ART/MODELS/WALKER.ALO"]' "$tmp/out" >/dev/null
check "the crate's texture embedded" jq -e '.files[] | select(.input | endswith("CRATE.ALO")) | .images == 1 and .missing_textures == []' "$tmp/out" >/dev/null
check "the walker's animations found inside the archive" jq -e '.files[] | select(.input | endswith("WALKER.ALO")) | .animations == 2' "$tmp/out" >/dev/null
check "the walker's texture is missing (none packed)" jq -e '.files[] | select(.input | endswith("WALKER.ALO")) | .missing_textures == ["walker.tga"]' "$tmp/out" >/dev/null
if command -v node >/dev/null; then
    node -e '
const b = require("fs").readFileSync(process.argv[1]); const n = b.readUInt32LE(12);
const j = JSON.parse(b.subarray(20, 20 + n).toString());
process.exit(j.images && j.images.length === 1 && j.images[0].mimeType === "image/png" ? 0 : 1);' "$tmp/o1/DATA/ART/MODELS/CRATE.glb"
    check "CRATE.glb holds one PNG image" test $? -eq 0
else
    left_out "the embedded-image check (node is not installed)"
fi

if command -v node >/dev/null 2>&1 && [ -d "$SRC/tests/gltf/node_modules/gltf-validator" ]; then
    expect 0 "the outputs pass the Khronos validator" -- node "$SRC/tests/gltf/validate.mjs" "$tmp"/o1/DATA/ART/MODELS/*.glb
else
    left_out "the Khronos validator (node or tests/gltf/node_modules/gltf-validator is not installed (tools/setup.sh test installs them))"
fi

expect 0 "without --textures" -- "$FERRY" convert -r "$tmp/Models.meg" "$tmp/o2"
check "the crate's texture is missing" grep -q "2 textures missing: crate.tga walker.tga" "$tmp/err"

# Textures inside the model's own archive: DATA/ART/MODELS/../Textures.
megf "$tmp/All.meg" 'DATA\ART\MODELS\CRATE.ALO='"$S/alamo/crate.alo" 'DATA\ART\TEXTURES\CRATE.TGA='"$tmp/f/crate.tga"
expect 0 "textures in the model's archive" -- "$FERRY" convert -r "$tmp/All.meg" "$tmp/o3"
check "found in ../Textures inside it" grep -q "1 of 1 files converted.*1 images embedded" "$tmp/err"

# Mixed --textures: an empty folder, a game folder (Data/Art/Textures in
# any case), an archive; searched in order, each at its root and in its
# Data/Art/Textures.
mkdir -p "$tmp/empty" "$tmp/game/data/Art/TEXTURES"
cp "$tmp/f/crate.tga" "$tmp/game/data/Art/TEXTURES/CRATE.TGA"
expect 0 "a game folder among the --textures" -- "$FERRY" convert -r "$tmp/Models.meg" "$tmp/o4" --textures "$tmp/empty" --textures "$tmp/game"
check "found in its data/Art/TEXTURES" grep -q "3 of 3 files converted.*1 images embedded" "$tmp/err"
megf "$tmp/Other.meg" 'README.TXT='"$tmp/f/crate.tga"
expect 0 "a folder and archives mixed" -- "$FERRY" convert -r "$tmp/Models.meg" "$tmp/o5" --textures "$tmp/empty" --textures "$tmp/Other.meg" --textures "$tmp/Textures.meg"
check "found in the last archive" grep -q "3 of 3 files converted.*1 images embedded" "$tmp/err"
expect 0 "a single conversion takes an archive for --textures" -- "$FERRY" convert "$S/alamo/crate.alo" "$tmp/c.glb" --textures "$tmp/Textures.meg"
check "its image embedded" grep -q "1 image embedded" "$tmp/err"
expect 0 "validate takes an archive for --textures" -- "$FERRY" validate "$S/alamo/crate.alo" --textures "$tmp/empty" --textures "$tmp/Textures.meg"
check "the texture is found in it" bash -c '! grep -q texture-missing "$1"' _ "$tmp/out"
expect 0 "validate without it" -- "$FERRY" validate "$S/alamo/crate.alo"
check "the texture is missing" grep -q texture-missing "$tmp/out"
expect 2 "--textures with a file that is no archive" -- "$FERRY" convert -r "$tmp/Models.meg" "$tmp/o6" --textures "$S/alamo/crate.alo"
check "says why" grep -q "neither a folder nor an archive" "$tmp/err"
check "names both archive formats" grep -q "nor an archive (MEG, PBO)" "$tmp/err"
printf 'not an archive' >"$tmp/bad.meg"
expect 1 "--textures with an archive that cannot be read" -- "$FERRY" convert -r "$tmp/Models.meg" "$tmp/o7" --textures "$tmp/bad.meg"
: >"$tmp/empty.meg"
expect 1 "an empty archive" -- "$FERRY" convert -r "$tmp/empty.meg" "$tmp/o12"
check "named with the offset" grep -q "empty.meg: error: offset 0x0" "$tmp/err"
mkfifo "$tmp/fifo.meg"
expect 1 "a FIFO named .meg is refused, never blocks" -- timeout 20 "$FERRY" convert -r "$tmp/fifo.meg" "$tmp/o13"
check "as not a regular file" grep -q "fifo.meg: error: .*not a regular file" "$tmp/err"
expect 2 "-r with a file that is no archive" -- "$FERRY" convert -r "$S/alamo/crate.alo" "$tmp/o8"

# Hostile names: a drive letter, an absolute path, '..' segments. Each is
# named and not converted; the others are; nothing lands outside OUTDIR.
mkdir -p "$tmp/h/out"
megf "$tmp/h/evil.meg" \
    'C:\EVIL\DRIVE.ALO='"$S/alamo/crate.alo" \
    '\ABS\ROOTED.ALO='"$S/alamo/crate.alo" \
    '..\..\ESCAPE.ALO='"$S/alamo/crate.alo" \
    'DATA\..\..\UP.ALO='"$S/alamo/crate.alo" \
    'DATA\OK.ALO='"$S/alamo/crate.alo"
expect 1 "hostile names make the batch fail" -- "$FERRY" convert -r "$tmp/h/evil.meg" "$tmp/h/out/deep"
check "the good entry converted" test -s "$tmp/h/out/deep/DATA/OK.glb"
check "the drive letter named" grep -q "evil.meg: files\[0\] 'C:\\\\EVIL\\\\DRIVE.ALO': error: not converted: its name starts with a drive letter" "$tmp/err"
check "the absolute path named" grep -q "files\[1\] .*: error: not converted: its name is an absolute path" "$tmp/err"
check "the '..' named" grep -q "files\[2\] .*: error: not converted: its name has an empty, '.' or '..' segment" "$tmp/err"
check "the '..' inside named" grep -q "files\[3\] .*: error: not converted" "$tmp/err"
check "each named in the list of failures" test "$(grep -c '^  .*evil.meg: files\[[0-3]\]' "$tmp/err")" -eq 4
check "1 of 5 converted" grep -q "1 of 5 files converted" "$tmp/err"
check "nothing written but DATA/OK.glb" test "$(cd "$tmp" && find . -name '*.glb' -path './h/*' | sort | tr '\n' ' ')" = "./h/out/deep/DATA/OK.glb "
check "nothing outside OUTDIR" test -z "$(find "$tmp" -name 'ESCAPE*' -o -name 'UP.glb' -o -name 'ROOTED*' -o -name 'DRIVE*')"

# A link below OUTDIR is never followed for an archive's entry.
mkdir -p "$tmp/l/out" "$tmp/l/elsewhere"
ln -s "$tmp/l/elsewhere" "$tmp/l/out/DATA"
megf "$tmp/l/x.meg" 'DATA\OK.ALO='"$S/alamo/crate.alo"
expect 1 "a link in OUTDIR on an entry's path" -- "$FERRY" convert -r "$tmp/l/x.meg" "$tmp/l/out"
check "named" grep -q "is a link or not a folder" "$tmp/err"
check "nothing written through the link" test -z "$(ls -A "$tmp/l/elsewhere")"

# Two entries whose outputs differ only in case or extension: both refused.
megf "$tmp/dup.meg" 'M\CRATE.ALO='"$S/alamo/crate.alo" 'M\crate.alo='"$S/alamo/crate.alo" 'M\BOX.ALO='"$S/alamo/crate.alo" 'M\BOX.P3D='"$S/odol/box.p3d"
expect 1 "outputs that collide" -- "$FERRY" convert -r "$tmp/dup.meg" "$tmp/o9"
check "case collision named" grep -q "would both be written as .*CRATE.glb (the names differ only in case)" "$tmp/err"
check "extension collision named" grep -q "would both be written as .*BOX.glb (the names differ only in case or extension)" "$tmp/err"

# An ALM mesh (built here from the crate) inside an archive: exported too,
# and a model of no format ferry exports (an animation named .alo) fails
# alone, named.
expect 0 "build an ALM" -- "$FERRY" convert "$S/alamo/crate.alo" "$tmp/f/crate.alm"
megf "$tmp/alm.meg" 'M\CRATE.ALM='"$tmp/f/crate.alm" 'M\ANIM.ALO='"$S/alamo/walker_walk_00.ala" 'M\TEXT.P3D='"$tmp/f/crate.tga"
expect 1 "an ALM, an animation and a texture named as models" -- "$FERRY" convert -r "$tmp/alm.meg" "$tmp/o11"
check "the ALM converted" test -s "$tmp/o11/M/CRATE.glb"
check "the animation named" grep -q "alm.meg/M/ANIM.ALO: error: an animation alone cannot be exported" "$tmp/err"
check "the texture named" grep -q "alm.meg/M/TEXT.P3D: error: .*not a known format" "$tmp/err"
check "1 of 3" grep -q "1 of 3 files converted" "$tmp/err"

# Folders: every model format, converted by content.
mkdir -p "$tmp/d/Models" "$tmp/d/Textures"
cp "$S/alamo/crate.alo" "$S/odol/box.p3d" "$tmp/d/Models/"
cp "$tmp/f/crate.tga" "$tmp/d/Textures/"
cp "$S/alamo/crate.alo" "$tmp/d/Models/notreally.p3d"
expect 0 "a folder of ALO and P3D models" -- "$FERRY" convert -r --json "$tmp/d/Models" "$tmp/o10"
check "the P3D converted" test -s "$tmp/o10/box.glb"
check "the ALO converted, its texture from ../Textures" jq -e '.files[] | select(.input | endswith("crate.alo")) | .images == 1' "$tmp/out" >/dev/null
check "a .p3d holding an ALO model is converted as one" test -s "$tmp/o10/notreally.glb"
check "3 of 3" jq -e '.converted == 3 and .failed == 0' "$tmp/out" >/dev/null
printf 'hello world' >"$tmp/d/Models/text.alm"
expect 1 "a file of no known format named as a model" -- "$FERRY" convert -r "$tmp/d/Models" "$tmp/o14"
check "named with what it starts with" grep -q "text.alm: error: offset 0x0 (0): not an ALM file: it starts with bytes 68 65 6c 6c" "$tmp/err"

# The corpus archives of PetroglyphTools hold no models: nothing to do.
corpus="$SHARED/corpus/meg"
if [ -n "$SHARED" ] && [ -d "$corpus" ]; then
    while IFS= read -r -d '' m; do
        expect 0 "convert -r on $(basename "$m")" -- "$FERRY" convert -r "$m" "$tmp/corpus"
        check "0 of 0 files" grep -q "0 of 0 files converted" "$tmp/err"
    done < <(find "$corpus" -iname '*.meg' -print0)
else
    left_out "the corpus archives ($corpus is absent)"
fi
finish
