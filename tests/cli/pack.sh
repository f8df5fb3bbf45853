#!/usr/bin/env bash
# ferry pack: a folder packed into MEG formats 1, 2 and 3, read back (list,
# extract, rewrite) and compared byte for byte; names the archive cannot
# store; the .pbo route; and the PetroglyphTools archives extracted and
# packed again when ../shared is there.
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

mkdir -p "$tmp/d/Data/Art/Models" "$tmp/d/Data/XML" "$tmp/d/empty"
cp "$SRC/samples/alamo/crate.alo" "$tmp/d/Data/Art/Models/ship.alo"
printf '<x/>' >"$tmp/d/Data/XML/units.xml"
: >"$tmp/d/Data/zero.txt"
head -c 100000 /dev/urandom >"$tmp/d/big.bin"
printf 'u' >"$tmp/d/$(printf 'caf\xc3\xa9.txt')" # UTF-8 e-acute: stored as Latin-1 0xE9
printf 'hidden' >"$tmp/d/.hidden"

for v in 1 2 3; do
    expect 0 "pack format $v" -- "$FERRY" pack --meg-format $v "$tmp/p$v.meg" "$tmp/d"
    check "format $v: says what was done" grep -q "5 files packed ($((100005 + $(stat -c %s "$tmp/d/Data/Art/Models/ship.alo"))) bytes, MEG format $v)" "$tmp/err"
    check "format $v: no progress bar when stderr is not a terminal" test -z "$(tr -cd '\r' <"$tmp/err")"
    expect 0 "format $v: validate: no error, no warning" -- "$FERRY" validate "$tmp/p$v.meg"
    check "format $v: clean" grep -q "p$v.meg: 0 errors, 0 warnings" "$tmp/out"
    check "format $v: the model inside checked too" grep -q "p$v.meg:DATA\\\\ART\\\\MODELS\\\\SHIP.ALO: 0 errors" "$tmp/out"
    expect 0 "format $v: info" -- "$FERRY" info "$tmp/p$v.meg"
    check "format $v: info names the format" grep -q "MEG archive, format $v" "$tmp/out"
    expect 0 "format $v: list" -- "$FERRY" list "$tmp/p$v.meg"
    check "format $v: names upper case with backslashes" grep -q 'DATA\\ART\\MODELS\\SHIP.ALO' "$tmp/out"
    check "format $v: names starting with '.' left out" test -z "$(grep -i hidden "$tmp/out")"
    expect 0 "format $v: extract" -- "$FERRY" extract "$tmp/p$v.meg" "$tmp/x$v"
    check "format $v: extracted bytes equal" cmp -s "$tmp/d/big.bin" "$tmp/x$v/BIG.BIN"
    check "format $v: nested file" cmp -s "$tmp/d/Data/Art/Models/ship.alo" "$tmp/x$v/DATA/ART/MODELS/SHIP.ALO"
    check "format $v: empty file" test -f "$tmp/x$v/DATA/ZERO.TXT" -a ! -s "$tmp/x$v/DATA/ZERO.TXT"
    check "format $v: UTF-8 name stored as Latin-1" test -f "$tmp/x$v/$(printf 'CAF\xe9.TXT')"
    expect 0 "format $v: rewrite" -- "$FERRY" convert "$tmp/p$v.meg" "$tmp/r$v.meg"
    check "format $v: rewrite byte-identical" cmp -s "$tmp/p$v.meg" "$tmp/r$v.meg"
    # The extracted folder packs back to the same archive.
    expect 0 "format $v: pack the extracted files" -- "$FERRY" pack --meg-format $v "$tmp/q$v.meg" "$tmp/x$v"
    check "format $v: same archive again" cmp -s "$tmp/p$v.meg" "$tmp/q$v.meg"
done
check "default format is 1" cmp -s "$tmp/p1.meg" "$tmp/q1.meg"
check "format 2 header: flags, id" test "$(head -c 8 "$tmp/p2.meg" | od -An -tx1 | tr -d ' \n')" = ffffffffa4707d3f
check "format 3 header: flags 0xFFFFFFFF (unencrypted)" test "$(head -c 4 "$tmp/p3.meg" | od -An -tx1 | tr -d ' \n')" = ffffffff
expect 0 "dump of format 3" -- "$FERRY" dump --json "$tmp/p3.meg"
check "records sorted by CRC, name table in record order, index = position, flags 0" \
    jq -e '[.files[].crc] == ([.files[].crc] | sort) and ([.files[] | .name_index == .index and .stored_index == .index and .flags == 0] | all)' "$tmp/out"
check "data follows the tables in record order without gaps" \
    jq -e '.data_start == .files[0].start and ([range(1; .files | length) as $i | .files[$i].start == .files[$i-1].start + .files[$i-1].size] | all)' "$tmp/out"

# validate checks every known asset inside, named ARCHIVE:ENTRY.
mkdir -p "$tmp/v/Models"
printf 'not a model' >"$tmp/v/Models/broken.alo"
head -c 40 "$SRC/samples/alamo/crate.alo" >"$tmp/v/Models/cut.alo"
printf 'text' >"$tmp/v/readme.txt"
"$FERRY" pack "$tmp/v.meg" "$tmp/v" 2>/dev/null
expect 1 "validate: broken entries fail the archive" -- "$FERRY" validate "$tmp/v.meg"
check "the archive's own report" grep -q "v.meg: 0 errors, 0 warnings" "$tmp/out"
check "an entry named like a model but of no known format" grep -q 'v.meg:MODELS\\BROKEN.ALO: error: .*not a known format' "$tmp/err"
check "a truncated model: its located error" grep -q 'v.meg:MODELS\\CUT.ALO: .*offset' "$tmp/err"
check "other entries not reported" test -z "$(grep -i readme "$tmp/out" "$tmp/err")"
expect 1 "validate --json" -- "$FERRY" validate --json "$tmp/v.meg"
check "one object for the archive and one for each checked entry" jq -e 'length == 3 and .[0].format == "MEG" and (.[1:] | all(.file | startswith("'"$tmp"'/v.meg:MODELS\\")))' "$tmp/out"

# OUT inside DIR is left out (the old archive is not packed into the new).
cp "$tmp/p1.meg" "$tmp/d/self.meg"
expect 0 "pack into DIR" -- "$FERRY" pack "$tmp/d/self.meg" "$tmp/d"
expect 0 "list it" -- "$FERRY" list "$tmp/d/self.meg"
check "the archive itself not in it" test -z "$(grep SELF.MEG "$tmp/out")"
check "no temporaries left" test -z "$(ls -A "$tmp/d" | grep ferry-tmp)"
rm "$tmp/d/self.meg"

# Names the archive cannot store: named, the others packed, exit 1.
mkdir -p "$tmp/bad/sub"
printf 'ok' >"$tmp/bad/good.txt"
printf 'x' >"$tmp/bad/$(printf '\xc4\x80.txt')"   # U+0100: past Latin-1
printf 'x' >"$tmp/bad/$(printf '\xf0\x9f\x98\x80.txt')" # an emoji
printf 'x' >"$tmp/bad/back\\slash.txt"
printf '1' >"$tmp/bad/sub/same.txt"
printf '2' >"$tmp/bad/sub/SAME.TXT"
mkfifo "$tmp/bad/pipe"
expect 1 "pack refuses what it cannot store" -- "$FERRY" pack "$tmp/bad.meg" "$tmp/bad"
check "U+0100 named" grep -q "U+0100" "$tmp/err"
check "emoji named" grep -q "U+1F600" "$tmp/err"
check "backslash named" grep -q "backslash" "$tmp/err"
check "case clash named" grep -q "equal but for case" "$tmp/err"
check "FIFO named" grep -q "pipe: not packed: not a regular file" "$tmp/err"
check "summary counts both" grep -q "1 file packed (2 bytes, MEG format 1), 6 not packed (named above)" "$tmp/err"
expect 0 "the rest was packed" -- "$FERRY" list "$tmp/bad.meg"
check "good file in it" grep -q "GOOD.TXT" "$tmp/out"
check "neither of the clashing names in it" test -z "$(grep SAME "$tmp/out")"

# An empty folder packs to an empty archive.
mkdir -p "$tmp/none"
expect 0 "pack an empty folder" -- "$FERRY" pack "$tmp/none.meg" "$tmp/none"
check "8 zero bytes (format 1)" test "$(od -An -tx1 "$tmp/none.meg" | tr -d ' \n')" = 0000000000000000

# PBO: the PBO library's packer behind the same walk.
expect 0 "pack a PBO with a prefix" -- "$FERRY" pack --prefix 'x\my_addon' "$tmp/a.pbo" "$tmp/d"
check "PBO: says what was done" grep -q "5 files packed .*PBO, prefix x.my_addon" "$tmp/err"
expect 0 "PBO: validate (SHA-1 and all)" -- "$FERRY" validate "$tmp/a.pbo"
check "PBO: clean" grep -q "a.pbo: 0 errors, 0 warnings" "$tmp/out"
check "PBO: the model inside checked too" grep -q 'a.pbo:Data\\Art\\Models\\ship.alo: 0 errors' "$tmp/out"
# A PBO's entries are validated as a MEG's are.
"$FERRY" pack "$tmp/v.pbo" "$tmp/v" 2>/dev/null
expect 1 "PBO validate: broken entries fail the archive" -- "$FERRY" validate "$tmp/v.pbo"
check "PBO: the archive's own report" grep -q "v.pbo: 0 errors, 0 warnings" "$tmp/out"
check "PBO: an entry named like a model but of no known format" grep -q 'v.pbo:Models\\broken.alo: error: .*not a known format' "$tmp/err"
check "PBO: a truncated model: its located error" grep -q 'v.pbo:Models\\cut.alo: .*offset' "$tmp/err"
check "PBO: other entries not reported" test -z "$(grep -i readme "$tmp/out" "$tmp/err")"
expect 0 "PBO: list" -- "$FERRY" list --json "$tmp/a.pbo"
check "PBO: prefix stored" jq -e '.prefix == "x\\my_addon" and .sha1_ok == true' "$tmp/out"
check "PBO: names keep their case, backslashes between folders" jq -e '[.files[].name] | index("Data\\Art\\Models\\ship.alo") != null' "$tmp/out"
expect 0 "PBO: extract" -- "$FERRY" extract "$tmp/a.pbo" "$tmp/xp"
check "PBO: extracted tree equals the folder (but for names starting with '.' and empty folders)" diff -r -x .hidden -x empty "$tmp/d" "$tmp/xp"
expect 0 "PBO: rewrite" -- "$FERRY" convert "$tmp/a.pbo" "$tmp/ra.pbo"
check "PBO: rewrite byte-identical" cmp -s "$tmp/a.pbo" "$tmp/ra.pbo"
expect 0 "PBO: pack the extracted files" -- "$FERRY" pack --prefix 'x\my_addon' "$tmp/b.pbo" "$tmp/xp"
expect_out "$tmp/l1" 0 "PBO: list a.pbo" -- "$FERRY" list --json "$tmp/a.pbo"
expect_out "$tmp/l2" 0 "PBO: list b.pbo" -- "$FERRY" list --json "$tmp/b.pbo"
check "PBO: same entries again, some" jq -e -n --slurpfile a "$tmp/l1" --slurpfile b "$tmp/l2" \
    '($a[0].files | length) > 0 and [$a[0].files[] | {name, size}] == [$b[0].files[] | {name, size}]' >/dev/null
expect 0 "PBO without a prefix" -- "$FERRY" pack "$tmp/c.pbo" "$tmp/xp"
expect 0 "PBO without a prefix: list" -- "$FERRY" list --json "$tmp/c.pbo"
check "PBO without a prefix: none" jq -e '.prefix == null' "$tmp/out"
expect 1 "PBO: a case clash refused" -- "$FERRY" pack "$tmp/bad.pbo" "$tmp/bad/sub"
check "PBO: case clash named" grep -q "equal but for case" "$tmp/err"

# Usage.
expect 2 "--prefix on a MEG" -- "$FERRY" pack --prefix x "$tmp/a.meg" "$tmp/d"
expect 2 "--meg-format on a PBO" -- "$FERRY" pack --meg-format 2 "$tmp/z.pbo" "$tmp/d"
check "nothing written on a usage error" test ! -e "$tmp/z.pbo"
expect 2 "format 4" -- "$FERRY" pack --meg-format 4 "$tmp/a.meg" "$tmp/d"
expect 2 "unknown extension" -- "$FERRY" pack "$tmp/a.zip" "$tmp/d"
expect 2 "missing folder" -- "$FERRY" pack "$tmp/a.meg" "$tmp/nothere"
expect 2 "DIR a file" -- "$FERRY" pack "$tmp/a.meg" "$tmp/d/big.bin"
expect 2 "no DIR" -- "$FERRY" pack "$tmp/a.meg"
expect 2 "unknown option" -- "$FERRY" pack --frob "$tmp/a.meg" "$tmp/d"
check "nothing written on usage errors" test ! -e "$tmp/a.meg"
expect 0 "pack --help" -- "$FERRY" pack --help
check "help names both formats" grep -q "OUT.pbo" "$tmp/out"
expect 0 "help pack" -- "$FERRY" help pack
check "help pack is pack's help" grep -q "usage: ferry pack" "$tmp/out"

# A progress bar on a terminal (script(1) gives the command one).
if command -v script >/dev/null 2>&1; then
    mkdir -p "$tmp/many"
    for i in $(seq 1 12); do printf '%s' "$i" >"$tmp/many/f$i.txt"; done
    script -qec "'$FERRY' pack '$tmp/many.meg' '$tmp/many'" /dev/null >"$tmp/tty" 2>&1
    check "progress bar on a terminal" grep -q '12/12' "$tmp/tty"
    script -qec "'$FERRY' extract '$tmp/many.meg' '$tmp/many-x'" /dev/null >"$tmp/tty" 2>&1
    check "extract: progress bar on a terminal" grep -q '12/12' "$tmp/tty"
else
    left_out "the progress bar checks (script(1) is not installed)"
fi

# The PetroglyphTools archives: extracted, packed again in their format.
D=$SHARED/corpus/meg/petroglyphtools
if [ -n "$SHARED" ] && [ -d "$D" ]; then
    mkdir -p "$tmp/c"
    for f in "$D"/*.meg; do
        b=$(basename "$f" .meg)
        expect 0 "$b: list" -- "$FERRY" list --json "$f"
        v=$(jq .version "$tmp/out")
        # (v1_2_files_empty's names have a drive letter: extract refuses
        # them, exit 1, as meg.sh checks.)
        want=0
        [ "$b" = v1_2_files_empty ] && want=1
        expect $want "$b: extract" -- "$FERRY" extract "$f" "$tmp/c/$b"
        expect 0 "$b: pack the extracted files" -- "$FERRY" pack --meg-format "$v" "$tmp/c/$b.meg" "$tmp/c/$b"
        if [ "$b" = v1_2_files_empty ]; then
            # Its names have a drive letter (C:\1.TXT): extract refuses them,
            # so there is nothing to pack (docs/formats/meg.md).
            check "$b: empty" test "$("$FERRY" list --json "$tmp/c/$b.meg" | jq '.files | length')" = 0
            continue
        fi
        expect_out "$tmp/l1" 0 "$b: list the original" -- "$FERRY" list "$f"
        expect_out "$tmp/l2" 0 "$b: list the pack" -- "$FERRY" list "$tmp/c/$b.meg"
        check "$b: same listing" same_output "$tmp/l1" "$tmp/l2"
        check "$b: byte-identical" cmp -s "$f" "$tmp/c/$b.meg"
    done
else
    left_out "the PetroglyphTools archives ($D is absent)"
fi
# Real PBOs (made by HEMTT): extracted and packed again with their prefix,
# the same entries (names, sizes) and prefix; not byte-identical, since the
# other properties (hemtt, version) and the timestamps are not given back.
P=$SHARED/corpus/pbo
if [ -n "$SHARED" ] && [ -d "$P" ]; then
    mkdir -p "$tmp/cp"
    for f in $(find "$P" -name '*.pbo' | sort | head -n 4); do
        b=$(basename "$f" .pbo)
        expect_out "$tmp/l1" 0 "$b.pbo: list" -- "$FERRY" list --json "$f"
        prefix=$(jq -r '.prefix // empty' "$tmp/l1")
        expect 0 "$b.pbo: extract" -- "$FERRY" extract "$f" "$tmp/cp/$b"
        expect 0 "$b.pbo: pack the extracted files" -- "$FERRY" pack ${prefix:+--prefix "$prefix"} "$tmp/cp/$b.pbo" "$tmp/cp/$b"
        expect_out "$tmp/l2" 0 "$b.pbo: list the pack" -- "$FERRY" list --json "$tmp/cp/$b.pbo"
        check "$b.pbo: same entries, some" jq -e -n --slurpfile a "$tmp/l1" --slurpfile b "$tmp/l2" \
            '($a[0].files | length) > 0 and ([$a[0].files[] | {name: (.name | ascii_downcase), size}] | sort) == ([$b[0].files[] | {name: (.name | ascii_downcase), size}] | sort)' >/dev/null
        check "$b.pbo: same prefix" test "$(jq -r '.prefix // empty' "$tmp/l2")" = "$prefix"
        expect 0 "$b.pbo: the pack validates" -- "$FERRY" validate "$tmp/cp/$b.pbo"
    done
else
    left_out "the real PBOs ($P is absent)"
fi

finish
