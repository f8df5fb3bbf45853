#!/usr/bin/env bash
# ferry info/dump/validate/convert/list/extract on MEG archives written here
# byte by byte from the layout (docs/formats/meg.md), hostile names included,
# and on the PetroglyphTools corpus archives when ../shared is there.
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

le32() {
    local v=$1
    printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $(((v >> 8) & 255)))\\x$(printf %02x $(((v >> 16) & 255)))\\x$(printf %02x $(((v >> 24) & 255)))"
}
le16() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $((($1 >> 8) & 255)))"; }

# meg1 OUT NAME=CONTENT...: a format 1 archive, records in the order given
# (CRC fields zero: extraction does not need them; validate reports them).
meg1() {
    local out=$1
    shift
    local n=$# names=0 arg nm
    for arg in "$@"; do nm=${arg%%=*}; names=$((names + 2 + ${#nm})); done
    local start=$((8 + names + 20 * n)) i=0
    {
        le32 $n; le32 $n
        for arg in "$@"; do nm=${arg%%=*}; le16 ${#nm}; printf '%s' "$nm"; done
        for arg in "$@"; do
            local c=${arg#*=}
            le32 0; le32 $i; le32 ${#c}; le32 $start; le32 $i
            start=$((start + ${#c})); i=$((i + 1))
        done
        for arg in "$@"; do printf '%s' "${arg#*=}"; done
    } >"$out"
}

meg1 "$tmp/ok.meg" 'DATA\ART\X.TXT=hello' 'README.TXT=hi'
expect 0 "info" -- "$FERRY" info "$tmp/ok.meg"
check "info says MEG format 1" grep -q "MEG archive, format 1" "$tmp/out"
check "info counts files and names" grep -q "2 files, 2 names, 7 bytes of entries" "$tmp/out"
meg1 "$tmp/one.meg" 'A.TXT=x'
expect 0 "info of a one-file archive" -- "$FERRY" info "$tmp/one.meg"
check "in the singular" grep -q "1 file, 1 name, 1 byte of entries" "$tmp/out"
expect 0 "list" -- "$FERRY" list "$tmp/ok.meg"
check "list shows the stored name" grep -q 'DATA\\ART\\X.TXT' "$tmp/out"
expect 0 "list --json" -- "$FERRY" list --json "$tmp/ok.meg"
check "list --json has sizes" grep -q '"size": 5' "$tmp/out"
check "list --json has what its help names" jq -e '.format == "MEG" and .version >= 1 and (.files[0] | has("index") and has("name") and has("size") and has("start") and has("crc") and has("stored_index") and has("name_index") and has("flags"))' "$tmp/out"
expect 0 "dump --json" -- "$FERRY" dump --json "$tmp/ok.meg"
check "dump --json has the records" grep -q '"name_index": 1' "$tmp/out"
expect 1 "validate finds the zero CRCs" -- "$FERRY" validate "$tmp/ok.meg"
check "validate names the record" grep -q 'files\[0\]/crc' "$tmp/out"
expect 0 "convert rewrites" -- "$FERRY" convert "$tmp/ok.meg" "$tmp/copy.meg"
check "rewrite is byte-identical" cmp -s "$tmp/ok.meg" "$tmp/copy.meg"
expect 2 "convert to another format" -- "$FERRY" convert "$tmp/ok.meg" "$tmp/copy.glb"
expect 0 "extract" -- "$FERRY" extract "$tmp/ok.meg" "$tmp/out1"
check "backslashes become folders" test "$(cat "$tmp/out1/DATA/ART/X.TXT")" = hello
check "second entry" test "$(cat "$tmp/out1/README.TXT")" = hi
check "extract says how many it wrote" grep -q "2 files extracted into $tmp/out1\$" "$tmp/err"
expect 0 "extract with a pattern" -- "$FERRY" extract "$tmp/ok.meg" "$tmp/out2" 'data\art\*'
check "pattern matched, case ignored" test -f "$tmp/out2/DATA/ART/X.TXT"
check "pattern left the other out" test ! -e "$tmp/out2/README.TXT"
check "extract with a pattern counts what it wrote" grep -q "1 file extracted into $tmp/out2\$" "$tmp/err"

# Hostile names: none may land outside OUTDIR; the good one is extracted.
mkdir -p "$tmp/h/out"
meg1 "$tmp/h/bad.meg" '..\EVIL1.TXT=x' '\EVIL2.TXT=x' 'C:\EVIL3.TXT=x' 'A\..\..\EVIL4.TXT=x' 'GOOD.TXT=ok' \
    'SAME.TXT=1' 'same.txt=2' '/EVIL5.TXT=x'
expect 1 "extract refuses hostile names" -- "$FERRY" extract "$tmp/h/bad.meg" "$tmp/h/out"
check "good entry extracted" test "$(cat "$tmp/h/out/GOOD.TXT")" = ok
check "nothing outside OUTDIR" test -z "$(find "$tmp/h" -name 'EVIL*')"
check "drive letter named" grep -q "drive letter" "$tmp/err"
check "'..' named" grep -q "'..'" "$tmp/err"
check "case clash named" grep -q "equal but for case" "$tmp/err"
check "case clash: neither written" test ! -e "$tmp/h/out/SAME.TXT" -a ! -e "$tmp/h/out/same.txt"
check "the summary counts the 1 written and the 7 refused" \
  grep -q "1 file extracted into $tmp/h/out, 7 not extracted (named above)" "$tmp/err"
# A folder on the way that is a link out of OUTDIR is refused.
mkdir -p "$tmp/l/out" "$tmp/l/elsewhere"
ln -s "$tmp/l/elsewhere" "$tmp/l/out/DATA"
expect 1 "extract refuses a linked folder" -- "$FERRY" extract "$tmp/ok.meg" "$tmp/l/out"
check "nothing written through the link" test -z "$(ls -A "$tmp/l/elsewhere")"

# Truncated and non-MEG inputs.
head -c 20 "$tmp/ok.meg" >"$tmp/short.meg"
expect 1 "truncated archive" -- "$FERRY" list "$tmp/short.meg"
check "located error" grep -q "offset" "$tmp/err"
printf 'ODOL\x28\0\0\0' >"$tmp/x.meg"
expect 1 "list on a non-archive" -- "$FERRY" list "$tmp/x.meg"
expect 2 "list without a file" -- "$FERRY" list
expect 2 "extract without OUTDIR" -- "$FERRY" extract "$tmp/ok.meg"
printf 'x' >"$tmp/plain"
expect 2 "extract into a file" -- "$FERRY" extract "$tmp/ok.meg" "$tmp/plain"
check "said once, as convert -r says it" test "$(grep -c "exists and is not a folder" "$tmp/err")" = 1
expect 1 "list on a model" -- "$FERRY" list "$SRC/samples/alamo/crate.alo"
check "list names what the file is" grep -q "error: ferry list reads MEG and PBO archives, not ALO model files" "$tmp/err"
expect 2 "list unknown option" -- "$FERRY" list --frob "$tmp/ok.meg"
expect 0 "list --help" -- "$FERRY" list --help
expect 0 "extract --help" -- "$FERRY" extract --help
check "extract help says nothing leaves OUTDIR" grep -q "outside OUTDIR" "$tmp/out"
expect 0 "help list" -- "$FERRY" help list
check "help list is list's help" grep -q "usage: ferry list" "$tmp/out"
expect 0 "help" -- "$FERRY" help
check "help lists list and extract" grep -q "extract ARCHIVE OUTDIR" "$tmp/out"

# The PetroglyphTools test archives (formats 1, 2, 3, empty, non-ASCII, drive letters).
D=$SHARED/corpus/meg/petroglyphtools
if [ -n "$SHARED" ] && [ -d "$D" ]; then
    for f in "$D"/*.meg; do
        b=$(basename "$f" .meg)
        expect 0 "$b: validate" -- "$FERRY" validate "$f"
        expect 0 "$b: convert" -- "$FERRY" convert "$f" "$tmp/$b.meg"
        check "$b: byte-identical" cmp -s "$f" "$tmp/$b.meg"
    done
    expect 0 "v3 extract" -- "$FERRY" extract "$D/v3n_2_files_data.meg" "$tmp/v3"
    check "v3 entry bytes" test "$(cat "$tmp/v3/B.TXT")" = 123
    expect 1 "drive-letter archive: not extracted" -- "$FERRY" extract "$D/v1_2_files_empty.meg" "$tmp/v1e"
    check "nothing extracted" test -z "$(ls -A "$tmp/v1e")"
else
    left_out "the PetroglyphTools archives ($D is absent)"
fi

finish
