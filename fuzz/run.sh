#!/usr/bin/env bash
# Smoke-tests the libFuzzer targets: (1) replays the committed seed corpus
# through each target, (2) fuzzes each one for SECONDS seconds from a
# temporary copy of that corpus (plus small real models from ../shared when
# present, copied into the temporary directory only). Exits non-zero on any
# crash, leak, timeout or out-of-memory; the failing inputs are kept in
# BUILD_DIR/fuzz-artifacts/.
#
#   cmake -S . -B build-fuzz -DFERRY_FUZZ=ON -DCMAKE_C_COMPILER=clang -DFERRY_BENCH=OFF
#   cmake --build build-fuzz
#   fuzz/run.sh build-fuzz 30
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR SECONDS" >&2
    exit 2
fi
build=$(cd "$1" && pwd) || exit 2
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
shared=${FERRY_SHARED_DIR:-$here/../../shared}
targets="detect chunk alo ala particle particle_sim image lzss alm odol gltf gltf_alo gltf_ala lzo paa meg pbo config asset archive"

for t in $targets; do
    if [ ! -x "$build/fuzz/fuzz_$t" ]; then
        echo "$build/fuzz/fuzz_$t is missing: configure with -DFERRY_FUZZ=ON -DCMAKE_C_COMPILER=clang" >&2
        exit 2
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ferry-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/seeds-asset" "$work/seeds-archive"
for d in "$here"/corpus/*/ "$here/../samples/alamo/" "$here/../samples/odol/"; do
    for f in "$d"*; do cp "$f" "$work/seeds-asset/$(basename "$d")-$(basename "$f")"; done
done
# The archive target's seeds: the MEG and the PBO seeds together.
for d in meg pbo; do
    for f in "$here/corpus/$d"/*; do cp "$f" "$work/seeds-archive/$d-$(basename "$f")"; done
done
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
status=0

# Leak checking stays on: every load is one arena, so a leak is a bug.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The committed seeds of a target: the ODOL reader's are the bundled samples,
# ferry_detect's the glTF seeds (plus the Alamo samples, below), the format
# table's (asset) every format's seeds and samples, gathered in the
# temporary directory.
seeds_of() {
    if [ "$1" = asset ]; then echo "$work/seeds-asset"; elif [ "$1" = archive ]; then echo "$work/seeds-archive"; elif [ "$1" = odol ]; then echo "$here/../samples/odol"; elif [ "$1" = detect ] || [ "$1" = gltf_alo ] || [ "$1" = gltf_ala ]; then echo "$here/corpus/gltf"; elif [ "$1" = particle_sim ]; then echo "$here/corpus/particle"; else echo "$here/corpus/$1"; fi
}

echo "== replaying the seed corpus"
for t in $targets; do
    if ! "$build/fuzz/fuzz_$t" -runs=0 -artifact_prefix="$artifacts/$t-" "$(seeds_of "$t")" >"$work/replay-$t.log" 2>&1; then
        cat "$work/replay-$t.log"
        echo "FAIL: fuzz_$t crashed on the committed corpus" >&2
        status=1
    else
        echo "fuzz_$t: $(ls "$(seeds_of "$t")" | wc -l) seeds replayed, no failure"
    fi
done

echo "== fuzzing each target for ${seconds}s"
for t in $targets; do
    corpus="$work/corpus-$t"
    mkdir -p "$corpus"
    cp "$(seeds_of "$t")"/* "$corpus/"
    # Every Alamo target reads any Alamo input: the bundled samples seed them all.
    [ "$t" = image ] || [ "$t" = lzss ] || [ "$t" = alm ] || [ "$t" = odol ] || [ "$t" = gltf ] || [ "$t" = gltf_alo ] || [ "$t" = gltf_ala ] || [ "$t" = lzo ] || [ "$t" = paa ] || [ "$t" = meg ] || [ "$t" = pbo ] || [ "$t" = config ] || [ "$t" = asset ] || [ "$t" = archive ] || cp "$here/../samples/alamo"/* "$corpus/"
    if [ "$t" = image ] || [ "$t" = lzss ] || [ "$t" = alm ] || [ "$t" = gltf ] || [ "$t" = gltf_alo ] || [ "$t" = gltf_ala ] || [ "$t" = lzo ]; then
        :  # real textures are 64-350 KB: too big for useful seeds
    elif [ "$t" = pbo ] || [ "$t" = asset ] || [ "$t" = archive ]; then
        :  # hand-built seeds only (fuzz/make_seeds.c), and the samples
    elif [ "$t" = paa ]; then
        # The small real textures (under 16 KiB), copied into the temporary directory only.
        [ -d "$shared/corpus" ] &&
            find "$shared/corpus/paa" "$shared/corpus/odol/addons" -type f \( -iname '*.paa' -o -iname '*.pac' \) -size -16k -exec cp {} "$corpus/" \; 2>/dev/null
    elif [ "$t" = config ]; then
        # The real materials (a few KiB each, both forms), copied into the temporary directory only.
        [ -d "$shared/corpus/odol/addons" ] &&
            find "$shared/corpus/odol/addons" -type f -iname '*.rvmat' -size -16k -exec cp {} "$corpus/" \; 2>/dev/null
    elif [ "$t" = meg ]; then
        # PetroglyphTools' small test archives, copied into the temporary directory only.
        [ -d "$shared/corpus/meg" ] && find "$shared/corpus/meg" -type f -iname '*.meg' -size -16k -exec cp {} "$corpus/" \;
    elif [ "$t" = odol ]; then
        # The small real v40 models (under 16 KiB), copied into the temporary directory only.
        [ -d "$shared/corpus/odol/v40" ] &&
            find "$shared/corpus/odol/v40" -type f -iname '*.p3d' -size -16k -exec cp {} "$corpus/" \;
    elif [ -d "$shared/corpus/alamo" ]; then
        # Small real files make good extra seeds; never copied anywhere else.
        find "$shared/corpus/alamo" -type f \( -iname '*.alo' -o -iname '*.ala' \) -size -64k -exec cp {} "$corpus/" \;
    fi
    echo "fuzz_$t: $(ls "$corpus" | wc -l) seeds"
    log="$work/fuzz-$t.log"
    "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$t-" "$corpus" >"$log" 2>&1
    rc=$?
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" |
        sed "s/^/fuzz_$t: /"
    grep -E '^Done [0-9]+ runs' "$log" | sed "s/^/fuzz_$t: /"
    if [ $rc -ne 0 ]; then
        tail -n 60 "$log"
        echo "FAIL: fuzz_$t exited with $rc; inputs kept in $artifacts" >&2
        status=1
    fi
done

if [ $status -eq 0 ]; then
    echo "fuzz smoke test passed"
fi
exit $status
