#!/usr/bin/env bash
# Batch glTF export over the corpus against `cp -r` of the same files, in the
# same run: medians of N alternating rounds. Then the peak memory of single
# conversions of the largest models (max RSS from /usr/bin/time, against the
# file size). Usage: bash bench/batch.sh BUILD_DIR [ROUNDS]
set -u
build=$(cd "${1:-build}" && pwd) || exit 2
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(cd "$here/../../shared/corpus/alamo" 2>/dev/null && pwd) || { echo "skipped: ../shared/corpus absent"; exit 0; }
ferry="$build/ferry"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=$(nproc)

now() { date +%s.%N; }
# ok CMD...: runs ferry's CMD; a failure stops the benchmark (exit 1, its
# stderr shown): a run that failed is no timing.
ok() {
  "$@" 2>"$work/err" && return 0
  echo "bench/batch.sh: failed (exit $?): $*" >&2
  tail -n 20 "$work/err" >&2
  exit 1
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

files=$(find "$corpus" -type f | wc -l)
models=$(find "$corpus" -type f -iname '*.alo' | wc -l)
bytes=$(du -sb "$corpus" | cut -f1)
echo "corpus: $files files ($models .alo), $bytes bytes; $jobs jobs; median of $rounds rounds"
: >"$work/cp" ; : >"$work/plain" ; : >"$work/tex"
for r in $(seq "$rounds"); do
  rm -rf "$work/copy" "$work/out1" "$work/out2"
  sync
  t0=$(now); cp -r "$corpus" "$work/copy"; t1=$(now)
  ok "$ferry" convert -r --quiet --no-textures --jobs "$jobs" "$corpus" "$work/out1"; t2=$(now)
  ok "$ferry" convert -r --quiet --jobs "$jobs" "$corpus" "$work/out2"; t3=$(now)
  echo "$t1 - $t0" | bc -l >>"$work/cp"
  echo "$t2 - $t1" | bc -l >>"$work/plain"
  echo "$t3 - $t2" | bc -l >>"$work/tex"
done
cp_s=$(median <"$work/cp"); plain_s=$(median <"$work/plain"); tex_s=$(median <"$work/tex")
out_plain=$(du -sb "$work/out1" | cut -f1); out_tex=$(du -sb "$work/out2" | cut -f1)
printf '%-40s %10s %10s\n' "operation" "seconds" "x cp -r"
printf '%-40s %10.3f %10.2f\n' "cp -r of the corpus" "$cp_s" 1
printf '%-40s %10.3f %10.2f\n' "convert -r, no textures" "$plain_s" "$(echo "$plain_s / $cp_s" | bc -l)"
printf '%-40s %10.3f %10.2f\n' "convert -r, textures embedded" "$tex_s" "$(echo "$tex_s / $cp_s" | bc -l)"
echo "output: $out_plain bytes without textures, $out_tex bytes with"

echo
echo "peak memory of one conversion (largest models, --anim auto, textures on)"
printf '%-40s %10s %12s %8s\n' "file" "bytes" "max RSS" "/file"
find "$corpus" -type f -iname '*.alo' -printf '%s %p\n' | sort -rn | head -n 3 | while read -r size path; do
  ok /usr/bin/time -o "$work/rss" -f '%M' "$ferry" convert --anim auto "$path" "$work/one.glb" >/dev/null
  rss_kb=$(tail -n 1 "$work/rss")
  printf '%-40s %10d %12d %8.2f\n' "$(basename "$path")" "$size" "$((rss_kb * 1024))" "$(echo "$rss_kb * 1024 / $size" | bc -l)"
done || exit 1
