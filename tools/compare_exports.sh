#!/bin/bash
# Byte-for-byte comparison of what two ferry binaries export, for changes that
# must not change output (issue 11). Run from the source tree:
#   tools/compare_exports.sh OLD_FERRY NEW_FERRY [WORKDIR]
# Every .alo and .p3d under samples/ and ../shared/corpus becomes a .glb
# (--anim auto for models, --all for P3D), the first 40 of those an .alm
# (glTF reader and ALM building) and that .alm a .glb again; each output and
# each log (output folder names masked) is compared with cmp. Exit 1 if any differ.
set -u
OLD=$1 NEW=$2 WORK=${3:-$(mktemp -d)}
run() {
    local F=$1 OUT=$2 n=0 f g
    rm -rf "$OUT" && mkdir -p "$OUT"
    find samples ../shared/corpus -type f \( -iname '*.alo' -o -iname '*.p3d' \) 2>/dev/null | sort >"$OUT/list"
    while read -r f; do
        n=$((n + 1))
        if [[ "${f,,}" == *.p3d ]]; then opt=--all; else opt="--anim auto"; fi
        # shellcheck disable=SC2086
        "$F" convert $opt "$f" "$OUT/$n.glb" >"$OUT/$n.log" 2>&1
        echo "rc=$?" >>"$OUT/$n.log"
    done <"$OUT/list"
    for g in $(ls "$OUT"/*.glb 2>/dev/null | head -40); do
        "$F" convert "$g" "${g%.glb}.fromglb.alm" >"${g%.glb}.alm.log" 2>&1
        echo "rc=$?" >>"${g%.glb}.alm.log"
        [ -f "${g%.glb}.fromglb.alm" ] && "$F" convert "${g%.glb}.fromglb.alm" "${g%.glb}.alm.glb" >>"${g%.glb}.alm.log" 2>&1
    done
}
run "$OLD" "$WORK/old"
run "$NEW" "$WORK/new"
n=0 bad=0
for f in "$WORK/old"/*; do
    b=$(basename "$f")
    n=$((n + 1))
    if [[ $b == *.log ]]; then
        cmp -s <(sed "s|$WORK/old|OUT|g" "$f") <(sed "s|$WORK/new|OUT|g" "$WORK/new/$b") || { echo "differs: $b"; bad=$((bad + 1)); }
    else
        cmp -s "$f" "$WORK/new/$b" || { echo "differs: $b"; bad=$((bad + 1)); }
    fi
done
[ "$(ls "$WORK/old" | wc -l)" = "$(ls "$WORK/new" | wc -l)" ] || { echo "different sets of outputs"; bad=$((bad + 1)); }
echo "compared $n files in $WORK: $bad differ"
[ "$bad" = 0 ]
