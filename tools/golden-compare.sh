#!/bin/bash
# Compares two runs of tools/golden.sh (e.g. before and after a change that
# must not change behaviour):
#
#   tools/golden-compare.sh [-q] [-n LINES] A B
#
# Prints the files only in A, only in B, and each file that differs: a text
# file (records: command line, stdout, stderr, exit status; JSON, configs)
# with its count of changed lines and the first LINES lines of its unified
# diff (default 12; -q: names only); a binary file (glb, ALO, ALA, ALM, PAA,
# PNG, archives) with both sizes and the first differing byte, and for a
# .glb whether its JSON chunk or only its binary chunk differs. Ends with the
# differing files counted per record or output name (export.glb: 37 inputs
# ...), which tells a systematic change from a local one.
# Exit status: 0 identical, 1 differences, 2 usage error.
set -u
export LC_ALL=C
quiet=no lines=12
while [ $# -gt 0 ]; do
    case $1 in
    -q) quiet=yes; shift ;;
    -n) lines=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "usage: tools/golden-compare.sh [-q] [-n LINES] A B" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
    echo "usage: tools/golden-compare.sh [-q] [-n LINES] A B (two folders written by tools/golden.sh)" >&2
    exit 2
fi
A=${1%/} B=${2%/}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# glb_json FILE: the JSON chunk of a .glb (header 12 bytes, then the chunk's
# length, type and bytes).
glb_json() {
    local n
    n=$(od -An -tu4 -j12 -N4 "$1" 2>/dev/null | tr -d ' ')
    [ -n "$n" ] && tail -c +21 "$1" | head -c "$n"
}

diff -rq --no-dereference "$A" "$B" >"$tmp/q"
status=$?
[ $status -gt 1 ] && { echo "golden-compare: diff failed" >&2; exit 2; }
files=$(find "$A" -type f | wc -l)
only_a=0 only_b=0 text=0 binary=0
: >"$tmp/names"
while IFS= read -r line; do
    case $line in
    "Only in $A"* | "Only in $B"*)
        dir=${line#Only in }
        dir=${dir%%: *}
        name=${line##*: }
        case $dir in "$A"*) side=A; only_a=$((only_a + 1)) ;; *) side=B; only_b=$((only_b + 1)) ;; esac
        rel=${dir#"$A"}
        [ $side = B ] && rel=${dir#"$B"}
        rel=${rel#/}
        echo "only in $side: ${rel:+$rel/}$name"
        echo "$name (only in $side)" >>"$tmp/names"
        ;;
    "Files "*" differ")
        # "Files A/REL and B/REL differ": REL's length from the whole line's
        rest=${line#"Files $A/"}
        rest=${rest%" differ"}
        rel=${rest:0:$(((${#rest} - ${#B} - 6) / 2))}
        fa=$A/$rel fb=$B/$rel
        echo "${rel##*/}" >>"$tmp/names"
        diff -u "$fa" "$fb" >"$tmp/d" 2>&1
        if grep -q '^Binary files ' "$tmp/d"; then
            binary=$((binary + 1))
            first=$(cmp "$fa" "$fb" 2>&1 | head -n 1)
            case $first in
            *"differ: char "*) n=${first#*char }; first="byte ${n%%,*}" ;;
            *"EOF on "*) n=${first#*after byte }; n=${n%%[!0-9]*}; first="byte $((n + 1)), where the shorter one ends" ;;
            esac
            extra= json=same
            if [ "${rel##*.}" = glb ]; then
                cmp -s <(glb_json "$fa") <(glb_json "$fb") || json=differs
                if [ $json = same ]; then extra=", JSON chunk the same (binary chunk differs)"; else extra=", JSON chunk differs"; fi
            fi
            echo "binary differs: $rel ($(stat -c %s "$fa") -> $(stat -c %s "$fb") bytes, first difference at $first$extra)"
            if [ $quiet = no ] && [ $json = differs ]; then
                diff -u <(glb_json "$fa" | tr ',' '\n') <(glb_json "$fb" | tr ',' '\n') | sed -n "3,$((lines + 2))p" | sed 's/^/    /'
            fi
        else
            text=$((text + 1))
            plus=$(grep -c '^+[^+]' "$tmp/d") minus=$(grep -c '^-[^-]' "$tmp/d")
            echo "text differs: $rel (-$minus +$plus lines)"
            [ $quiet = no ] && sed -n "3,$((lines + 2))p" "$tmp/d" | sed 's/^/    /'
        fi
        ;;
    *) echo "$line" ;;
    esac
done <"$tmp/q"

echo "golden-compare: $files files in A; $((text + binary)) differ ($text text, $binary binary); $only_a only in A, $only_b only in B"
if [ -s "$tmp/names" ]; then
    echo "golden-compare: differing files per name:"
    sort "$tmp/names" | uniq -c | sort -rn | awk '{ n = $1; $1 = ""; printf "  %6d%s\n", n, $0 }'
fi
[ $status -eq 0 ]
