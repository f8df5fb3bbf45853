#!/usr/bin/env bash
# ferry info/dump/validate/convert/list/extract on PBO archives written here
# byte by byte from the layout (docs/formats/pbo.md; the SHA-1 by sha1sum),
# hostile names and a lying compressed entry included, and on the corpus
# archives when ../shared is there.
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

le32() {
    local v=$1
    printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $(((v >> 8) & 255)))\\x$(printf %02x $(((v >> 16) & 255)))\\x$(printf %02x $(((v >> 24) & 255)))"
}

# pbo OUT PREFIX NAME=CONTENT...: a PBO with a product entry holding the
# prefix (none when PREFIX is empty), stored entries, the terminator, the
# data, a 0 byte and the SHA-1 of everything before it.
pbo() {
    local out=$1 prefix=$2
    shift 2
    {
        if [ -n "$prefix" ]; then
            printf '\0sreV'; le32 0; le32 0; le32 0; le32 0
            printf 'prefix\0%s\0\0' "$prefix"
        fi
        local arg c
        for arg in "$@"; do
            c=${arg#*=}
            printf '%s\0' "${arg%%=*}"; le32 0; le32 ${#c}; le32 0; le32 1700000000; le32 ${#c}
        done
        printf '\0'; le32 0; le32 0; le32 0; le32 0; le32 0
        for arg in "$@"; do printf '%s' "${arg#*=}"; done
    } >"$out.body"
    {
        cat "$out.body"
        printf '\0'
        printf "$(sha1sum "$out.body" | cut -c1-40 | sed 's/../\\x&/g')"
    } >"$out"
    rm -f "$out.body"
}

pbo "$tmp/ok.pbo" 'x\addon' 'config.cpp=class' 'data\Tex.paa=hello' 'README.txt=hi'
expect 0 "info" -- "$FERRY" info "$tmp/ok.pbo"
check "info says PBO" grep -q "PBO archive" "$tmp/out"
check "info shows the prefix" grep -q 'prefix: x\\addon' "$tmp/out"
check "info counts files and bytes" grep -q "3 files (0 compressed), 12 bytes stored" "$tmp/out"
check "info says the SHA-1 matches" grep -q "(matches)" "$tmp/out"
expect 0 "info --json" -- "$FERRY" info --json "$tmp/ok.pbo"
check "info --json" jq -e '.[0].format == "PBO" and .[0].prefix == "x\\addon" and .[0].files == 3 and .[0].sha1_ok' "$tmp/out"
expect 0 "list" -- "$FERRY" list "$tmp/ok.pbo"
check "list shows the stored name" grep -q 'data\\Tex.paa' "$tmp/out"
check "list shows the properties" grep -q 'property prefix = x\\addon' "$tmp/out"
check "list shows the timestamp" grep -q '1700000000' "$tmp/out"
expect 0 "list --json" -- "$FERRY" list --json "$tmp/ok.pbo"
check "list --json has what its help names" jq -e '.format == "PBO" and .prefix == "x\\addon" and (.properties[0] | .key == "prefix") and (.files | length == 3) and (.files[1] | .name == "data\\Tex.paa" and .size == 5 and .data_size == 5 and .original_size == 5 and .method == "stored" and .method_value == 0 and .reserved == 0 and .timestamp == 1700000000 and has("start") and has("index"))' "$tmp/out"
expect 0 "dump" -- "$FERRY" dump "$tmp/ok.pbo"
check "dump shows the product entry" grep -q "product entry @0" "$tmp/out"
expect 0 "dump --json" -- "$FERRY" dump --json "$tmp/ok.pbo"
check "dump --json has offsets" jq -e '.files[0].offset == 37 and .terminator.method_value == 0' "$tmp/out"
check "dump --json: the properties' offsets and the SHA-1 computed, as the text shows them" \
  jq -e '.properties[0].offset == 21 and .sha1_computed == .sha1' "$tmp/out"
# The archive itself is sound; its entry named like a texture holds
# "hello": every asset inside is validated too, so that one fails it.
expect 1 "validate" -- "$FERRY" validate "$tmp/ok.pbo"
check "no problem with the archive itself" grep -q "ok.pbo: 0 errors, 0 warnings" "$tmp/out"
check "the entry named like a texture but not one is named" grep -q 'ok.pbo:data\\Tex.paa: error: .*not a known format' "$tmp/err"
check "other entries not reported" test -z "$(grep -i readme "$tmp/out" "$tmp/err")"
expect 0 "convert rewrites" -- "$FERRY" convert "$tmp/ok.pbo" "$tmp/copy.pbo"
check "rewrite is byte-identical" cmp -s "$tmp/ok.pbo" "$tmp/copy.pbo"
expect 2 "convert to another format" -- "$FERRY" convert "$tmp/ok.pbo" "$tmp/copy.glb"
expect 0 "extract" -- "$FERRY" extract "$tmp/ok.pbo" "$tmp/out1"
check "backslashes become folders" test "$(cat "$tmp/out1/data/Tex.paa")" = hello
check "other entries" test "$(cat "$tmp/out1/config.cpp")$(cat "$tmp/out1/README.txt")" = classhi
check "extract says how many it wrote" grep -q "3 files extracted into $tmp/out1\$" "$tmp/err"
expect 0 "extract with a pattern" -- "$FERRY" extract "$tmp/ok.pbo" "$tmp/out2" 'DATA\*'
check "pattern matched, case ignored" test -f "$tmp/out2/data/Tex.paa"
check "pattern left the others out" test ! -e "$tmp/out2/config.cpp"

# A mission: no product entry.
pbo "$tmp/mission.pbo" '' 'mission.sqm=version=54;'
expect 0 "info of a mission" -- "$FERRY" info "$tmp/mission.pbo"
check "no prefix" grep -q "prefix: (none)" "$tmp/out"
expect 0 "validate a mission" -- "$FERRY" validate "$tmp/mission.pbo"

# A wrong SHA-1: reads, lists, extracts; validate fails naming it.
cp "$tmp/ok.pbo" "$tmp/bad_sha.pbo"
printf 'X' | dd of="$tmp/bad_sha.pbo" bs=1 seek=$(($(stat -c %s "$tmp/ok.pbo") - 1)) conv=notrunc 2>/dev/null
expect 1 "validate a wrong SHA-1" -- "$FERRY" validate "$tmp/bad_sha.pbo"
check "validate names the checksum" grep -q 'pbo-checksum' "$tmp/out"
expect 0 "list despite a wrong SHA-1" -- "$FERRY" list "$tmp/bad_sha.pbo"
expect 0 "info says it does not match" -- "$FERRY" info "$tmp/bad_sha.pbo"
check "does NOT match" grep -q "does NOT match" "$tmp/out"
expect 0 "rewrite keeps the stored SHA-1" -- "$FERRY" convert "$tmp/bad_sha.pbo" "$tmp/bad_copy.pbo"
check "byte-identical" cmp -s "$tmp/bad_sha.pbo" "$tmp/bad_copy.pbo"

# A compressed entry whose stream lies (a wrong checksum after it) is not
# extracted; the other is.
{
    printf 'a.txt\0srpC'; le32 9; le32 0; le32 0; le32 10
    printf 'b.txt\0'; le32 0; le32 2; le32 0; le32 0; le32 2
    printf '\0'; le32 0; le32 0; le32 0; le32 0; le32 0
    printf '\x07abc\x03\x03\x73\x03\0\0hi'
} >"$tmp/lzss.pbo"
expect 1 "extract a lying compressed entry" -- "$FERRY" extract "$tmp/lzss.pbo" "$tmp/lz"
check "the other entry is extracted" test "$(cat "$tmp/lz/b.txt")" = hi
check "the lying one is not" test ! -e "$tmp/lz/a.txt"
check "named with its record" grep -q "entries\[0\] 'a.txt' not extracted" "$tmp/err"
expect 1 "validate names it" -- "$FERRY" validate "$tmp/lzss.pbo"
check "pbo-compressed" grep -q "pbo-compressed" "$tmp/out"
printf '\x72' | dd of="$tmp/lzss.pbo" bs=1 seek=$((26 + 26 + 21 + 6)) conv=notrunc 2>/dev/null
expect 0 "the honest stream extracts" -- "$FERRY" extract "$tmp/lzss.pbo" "$tmp/lz2"
check "decoded" test "$(cat "$tmp/lz2/a.txt")" = abcabcabc

# An entry of an unknown method (an encrypted one, say) is not extracted as stored
# (a first record of an unknown method is not taken for a PBO: see detect.h).
{
    printf 'b.txt\0'; le32 0; le32 0; le32 0; le32 0; le32 2
    printf 'a.txt\0'; le32 0x45434e45; le32 2; le32 0; le32 0; le32 2
    printf '\0'; le32 0; le32 0; le32 0; le32 0; le32 0
    printf 'hixx'
} >"$tmp/method.pbo"
expect 1 "extract an entry of an unknown method" -- "$FERRY" extract "$tmp/method.pbo" "$tmp/me"
check "not written" test ! -e "$tmp/me/a.txt"
check "the method is named" grep -q "packing method 0x45434E45" "$tmp/err"
check "the other is" test "$(cat "$tmp/me/b.txt")" = hi

# Hostile names: none may land outside OUTDIR; the good one is extracted.
mkdir -p "$tmp/h/out"
pbo "$tmp/h/bad.pbo" 'x\y' '..\EVIL1.TXT=x' '\EVIL2.TXT=x' 'C:\EVIL3.TXT=x' 'A\..\..\EVIL4.TXT=x' 'GOOD.TXT=ok' \
    'SAME.TXT=1' 'same.txt=2' '/EVIL5.TXT=x'
expect 1 "extract refuses hostile names" -- "$FERRY" extract "$tmp/h/bad.pbo" "$tmp/h/out"
check "good entry extracted" test "$(cat "$tmp/h/out/GOOD.TXT")" = ok
check "nothing outside OUTDIR" test -z "$(find "$tmp/h" -name 'EVIL*')"
check "drive letter named" grep -q "drive letter" "$tmp/err"
check "'..' named" grep -q "'..'" "$tmp/err"
check "case clash named" grep -q "equal but for case" "$tmp/err"
check "case clash: neither written" test ! -e "$tmp/h/out/SAME.TXT" -a ! -e "$tmp/h/out/same.txt"
check "the summary counts the 1 written and the 7 refused" \
  grep -q "1 file extracted into $tmp/h/out, 7 not extracted (named above)" "$tmp/err"
expect 0 "validate warns about them" -- "$FERRY" validate "$tmp/h/bad.pbo"
check "unsafe names warned" grep -q "pbo-name-unsafe" "$tmp/out"
check "duplicates warned" grep -q "pbo-name-duplicate" "$tmp/out"
mkdir -p "$tmp/l/out" "$tmp/l/elsewhere"
ln -s "$tmp/l/elsewhere" "$tmp/l/out/data"
expect 1 "extract refuses a linked folder" -- "$FERRY" extract "$tmp/ok.pbo" "$tmp/l/out"
check "nothing written through the link" test -z "$(ls -A "$tmp/l/elsewhere")"

# Truncated inputs and sizes past the end.
head -c 40 "$tmp/ok.pbo" >"$tmp/short.pbo"
expect 1 "truncated table" -- "$FERRY" list "$tmp/short.pbo"
check "located error" grep -q "offset" "$tmp/err"
head -c 60 "$tmp/ok.pbo" >"$tmp/short2.pbo"
{
    printf 'a.txt\0'; le32 0; le32 0; le32 0; le32 0; le32 2
    printf 'b.txt\0'; le32 0; le32 0; le32 0; le32 0; le32 5000
    printf '\0'; le32 0; le32 0; le32 0; le32 0; le32 0
    printf 'hi'
} >"$tmp/past.pbo"
expect 1 "validate a size past the end" -- "$FERRY" validate "$tmp/past.pbo"
check "pbo-bounds" grep -q "pbo-bounds" "$tmp/out"
expect 1 "extract: the other is extracted" -- "$FERRY" extract "$tmp/past.pbo" "$tmp/past"
check "a.txt written" test "$(cat "$tmp/past/a.txt")" = hi
check "b.txt named" grep -q "entries\[1\] 'b.txt' not extracted" "$tmp/err"

expect 0 "convert --help names PBO" -- "$FERRY" convert --help
check "PBO in convert's help" grep -q "IN.pbo -> OUT.pbo" "$tmp/out"
expect 0 "list --help names PBO" -- "$FERRY" list --help
check "PBO in list's help" grep -q "PBO archive" "$tmp/out"

# An archive over 2 GiB (sparse: the bytes after the trailer are never
# read) is mapped, not loaded: info and dump read it as list and extract
# do, with no size limit (both refused it as over CLI_MAX_INPUT).
cp "$tmp/ok.pbo" "$tmp/big.pbo"
if truncate -s 2200000000 "$tmp/big.pbo" 2>/dev/null; then
    expect 0 "info on a PBO over 2 GiB" -- "$FERRY" info "$tmp/big.pbo"
    check "info on it: its size" grep -q "PBO archive, 2200000000 bytes" "$tmp/out"
    expect 0 "list on a PBO over 2 GiB" -- "$FERRY" list "$tmp/big.pbo"
    expect 0 "dump on a PBO over 2 GiB" -- "$FERRY" dump "$tmp/big.pbo"
    check "dump on it: the SHA-1" grep -q "SHA-1 stored" "$tmp/out"
fi
rm -f "$tmp/big.pbo"

# The real archives (HEMTT, Mikero's DePbo, a mission from the editor).
D=$SHARED/corpus/pbo/hemtt
if [ -n "$SHARED" ] && [ -d "$D" ]; then
    mkdir -p "$tmp/real"
    for f in "$D"/*.pbo; do
        b=$(basename "$f" .pbo)
        expect 0 "$b: validate" -- "$FERRY" validate "$f"
        expect 0 "$b: convert" -- "$FERRY" convert "$f" "$tmp/$b.pbo"
        check "$b: byte-identical" cmp -s "$f" "$tmp/$b.pbo"
        expect 0 "$b: extract" -- "$FERRY" extract "$f" "$tmp/real/$b"
    done
    check "source.pbo's prefix" test "$("$FERRY" list --json "$D/source.pbo" | jq -r .prefix)" = 'z\ace\addons\ai'
    check "a nested entry" test -s "$tmp/real/source/functions/fnc_garrison.sqf"
    check "26 files from source.pbo" test "$(find "$tmp/real/source" -type f | wc -l)" = 26
else
    left_out "the real archives ($D is absent)"
fi

finish
