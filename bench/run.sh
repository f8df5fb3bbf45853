#!/usr/bin/env bash
# Runs the benchmarks over the shared corpus and prints the tables that
# docs/benchmarks.md records. Builds nothing: run `make` first (or `make bench`).
#
#   bash bench/run.sh [BUILD_DIR] [bench_alo_parse options, e.g. --rounds 11]
set -euo pipefail

build=${1:-build}
shift || true
here=$(dirname "$0")
corpus="$here/../../shared/corpus/alamo"
bin="$build/bench/bench_alo_parse"

if [ ! -d "$corpus" ]; then
    echo "skipped: ../shared/corpus absent (looked for $corpus)"
    exit 0
fi
if [ ! -x "$bin" ]; then
    echo "bench/run.sh: $bin not found; build first (make, or make bench)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Enough about the machine and build to judge whether two runs compare.
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
echo "== machine"
echo "cpu:      $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1) ($(nproc) online)"
echo "compiler: $("${cc:-cc}" --version 2>/dev/null | head -n 1), build type ${build_type:-?}"
echo "commit:   $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$here/.." diff --quiet HEAD -- src include 2>/dev/null || echo ' (library sources modified)')"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') (1/5/15 min; other work on the machine skews absolute MB/s more than ratios)"
echo

"$bin" --list "$corpus" | sort -n >"$tmp/models"

# Workloads by file size: per-load costs dominate small files and bytes
# dominate large ones, so one corpus-wide figure would hide either.
echo "== workloads: each row one pass over its files per iteration ($bin ${*:+$* }--total-only --label NAME FILES...)"
extra=("$@")
first=1
run_class() { # label min_bytes max_bytes (max exclusive)
    local label=$1 files=()
    mapfile -t files < <(awk -F'\t' -v lo="$2" -v hi="$3" '$1 >= lo && $1 < hi { print $2 }' "$tmp/models")
    [ "${#files[@]}" -gt 0 ] || return 0
    label="$label (${#files[@]} models)"
    if [ "$first" = 1 ]; then
        # The first run's summary line counts only its own files: drop it.
        "$bin" "${extra[@]}" --total-only --label "$label" "${files[@]}" | sed '1d'
        first=0
    else
        "$bin" "${extra[@]}" --total-only --no-header --label "$label" "${files[@]}"
    fi
}
run_class "small, < 64 KiB" 0 65536
run_class "medium, 64 KiB - 1 MiB" 65536 1048576
run_class "large, >= 1 MiB" 1048576 9223372036854775807
run_class "whole corpus" 0 9223372036854775807
echo

echo "== per file: $bin ${extra[*]:+${extra[*]} }--per-file-only $corpus"
"$bin" "${extra[@]}" --per-file-only "$corpus" | sed '1,3d'
echo

# ALM level of detail: ours against meshoptimizer's simplifier on the same meshes.
alm_bin="$build/bench/bench_alm_lod"
echo "== ALM level of detail against meshoptimizer ($alm_bin --rounds 5 samples/alamo $corpus)"
if [ -x "$alm_bin" ]; then
    "$alm_bin" --rounds 5 "$here/../samples/alamo" "$corpus"
else
    echo "skipped: $alm_bin not built"
fi
echo

# glTF -> ALO authoring against ALO -> glTF export of the same models, side by
# side in one run, and collision-tree building against n log n.
auth="$build/bench/bench_authoring"
if [ -x "$auth" ]; then
    icw="$corpus/icw/Models"
    auth_models=("$corpus/ueaw/Models")
    for f in RV_Republic RV_MC90_D W_Boz_Pity_Mausoleum EOTH_Kariek EotH_AirStraeker NV_Freighter_01 \
             W_kuattwoplanet Ri_Corran_Horn NV_freighter_08 UV_FLAME_TANK W_NEBULAA12; do
        [ -f "$icw/$f.ALO" ] && auth_models+=("$icw/$f.ALO")
    done
    echo "== authoring against export (${auth} --rounds 7 ueaw/Models + 11 icw models)"
    "$auth" --rounds 7 "${auth_models[@]}"
    echo
fi

# PAA mipmap decode against memcpy of the decoded bytes (hemtt's textures and
# the addons' textures under 400 KB).
paa="$build/bench/bench_paa"
if [ -x "$paa" ] && [ -d "$here/../../shared/corpus/paa" ]; then
    echo "== PAA decode of the largest mipmap ($paa --rounds 5 FILES...)"
    # hemtt's first (each folder sorted on its own: one sort of both put the
    # addons first, and the 12 were all theirs).
    mapfile -t textures < <(for d in paa odol/addons; do
        find "$here/../../shared/corpus/$d" -type f \( -iname '*.paa' -o -iname '*.pac' \) -size -400k | sort
    done | head -n 12)
    "$paa" --rounds 5 "${textures[@]}"
    echo
    echo "== PAA writing: those mipmaps encoded again ($paa --encode --rounds 5 FILES...)"
    "$paa" --encode --rounds 5 "${textures[@]}"
    echo
    dxt="$build/bench/bench_dxt"
    if [ -x "$dxt" ]; then
        echo "== DXT compressors on the same pixels ($dxt --rounds 3 FILES...)"
        "$dxt" --rounds 3 "${textures[@]}"
    else
        echo "== DXT compressors: skipped, $dxt not built (libsquish-dev or a C++ compiler missing)"
    fi
    echo
fi

# Particle simulation: updates per second against array-of-structs loops
# (a system built in the tool; no corpus needed), on one core.
psim="$build/bench/bench_particle_sim"
if [ -x "$psim" ]; then
    pin=()
    command -v taskset >/dev/null 2>&1 && pin=(taskset -c 0)
    echo "== particle simulation (${pin[*]:+${pin[*]} }$psim --particles 100000 --rounds 7)"
    "${pin[@]}" "$psim" --particles 100000 --rounds 7
    echo
fi

# Hostile inputs whose tests check only that a cap is reached
# (test_alm_bad_input, test_particle_sim): their time, measured, not asserted.
hostile="$build/bench/bench_hostile"
if [ -x "$hostile" ]; then
    echo "== hostile inputs built in memory ($hostile --rounds 5)"
    "$hostile" --rounds 5
    echo
fi

echo "== peak memory of one load, the 3 largest models"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "skipped: valgrind not installed; the arena/file column above is the estimate"
    exit 0
fi
printf '%-34s %9s %11s %6s %11s %6s %11s %6s\n' "file" "bytes" "heap peak" "/file" "lib heap" "/file" "RSS rise" "/file"
printf '%-34s %9s %11s %6s %11s %6s %11s %6s\n' "" "" "with input" "" "no input" "" "VmHWM" ""
sort -n -r "$tmp/models" | head -n 3 | while IFS=$'\t' read -r size path; do
    # --peak-inaccuracy=0 makes massif snapshot at the true high point
    # instead of within 1% of it.
    valgrind --tool=massif --peak-inaccuracy=0.0 --massif-out-file="$tmp/massif.out" \
        "$bin" --peak "$path" >/dev/null 2>"$tmp/valgrind.log" || {
        echo "massif failed on $path:" >&2
        cat "$tmp/valgrind.log" >&2
        exit 1
    }
    peak=$(awk -F= '/^mem_heap_B=/ { if ($2 + 0 > max) max = $2 + 0 } END { print max + 0 }' "$tmp/massif.out")
    # Resident memory only means something without valgrind underneath.
    rss=$("$bin" --peak "$path" | awk '{ print $3 }')
    awk -v name="$(basename "$path")" -v size="$size" -v peak="$peak" -v rss="$rss" 'BEGIN {
        printf "%-34.34s %9d %11d %6.2f %11d %6.2f %11d %6.2f\n", name, size, peak, peak / size,
               peak - size, (peak - size) / size, rss, rss / size
    }'
done
echo "heap: most bytes malloc'd at once (massif), input copy included; lib heap: the same less the input copy"
echo "RSS rise: growth of the resident high-water mark over the load (pages actually touched, first-run code pages included)"
