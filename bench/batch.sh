#!/usr/bin/env bash
# Batch glTF export against `cp -r` of the same folder, in the same run:
# medians of N alternating rounds, wall time and CPU time (user + system).
# Then the peak memory of single conversions of the largest models (max RSS
# from /usr/bin/time, against the file size).
#
#   bash bench/batch.sh BUILD_DIR [ROUNDS] [FOLDER]
#
# FOLDER: the folder converted (default: the corpus's alamo folder,
# ../shared/corpus/alamo). JOBS (default: nproc): --jobs of convert -r.
# BASELINE: another ferry binary (an earlier build) timed in the same
# rounds, for before/after figures measured side by side.
set -u
build=$(cd "${1:-build}" && pwd) || exit 2
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${3:-}" ]; then
  corpus=$(cd "$3" && pwd) || exit 2
else
  corpus=$(cd "$here/../../shared/corpus/alamo" 2>/dev/null && pwd) || { echo "skipped: ../shared/corpus absent"; exit 0; }
fi
ferry="$build/ferry"
baseline=${BASELINE:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=${JOBS:-$(nproc)}

# timed NAME CMD...: runs CMD, appends its wall and CPU seconds to
# $work/NAME.wall and $work/NAME.cpu; a failure stops the benchmark (exit 1,
# its stderr shown): a run that failed is no timing.
timed() {
  local name=$1
  shift
  /usr/bin/time -o "$work/time" -f '%e %U %S' "$@" 2>"$work/err" >/dev/null || {
    echo "bench/batch.sh: failed: $*" >&2
    tail -n 20 "$work/err" >&2
    exit 1
  }
  read -r wall user sys <"$work/time"
  echo "$wall" >>"$work/$name.wall"
  echo "$user + $sys" | bc -l >>"$work/$name.cpu"
}
ok() {
  "$@" 2>"$work/err" && return 0
  echo "bench/batch.sh: failed (exit $?): $*" >&2
  tail -n 20 "$work/err" >&2
  exit 1
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

files=$(find "$corpus" -type f | wc -l)
models=$(find "$corpus" -type f \( -iname '*.alo' -o -iname '*.p3d' -o -iname '*.alm' \) | wc -l)
bytes=$(du -sbL "$corpus" | cut -f1)
echo "folder: $corpus"
echo "$files files ($models .alo/.p3d/.alm), $bytes bytes; --jobs $jobs; median of $rounds rounds"
names="cp plain tex"
[ -n "$baseline" ] && names="$names base_plain base_tex"
for r in $(seq "$rounds"); do
  rm -rf "$work/copy" "$work"/out*
  sync
  # /usr/bin/time's own start-up is in every row alike.
  timed cp cp -r "$corpus" "$work/copy"
  timed plain "$ferry" convert -r --quiet --no-textures --jobs "$jobs" "$corpus" "$work/out1"
  timed tex "$ferry" convert -r --quiet --jobs "$jobs" "$corpus" "$work/out2"
  if [ -n "$baseline" ]; then
    timed base_plain "$baseline" convert -r --quiet --no-textures --jobs "$jobs" "$corpus" "$work/out3"
    timed base_tex "$baseline" convert -r --quiet --jobs "$jobs" "$corpus" "$work/out4"
  fi
done
cp_s=$(median <"$work/cp.wall")
cp_c=$(median <"$work/cp.cpu")
printf '%-40s %10s %10s %10s %10s\n' "operation" "seconds" "x cp -r" "CPU s" "x cp CPU"
row() {
  local label=$1 name=$2 s c
  s=$(median <"$work/$name.wall")
  c=$(median <"$work/$name.cpu")
  printf '%-40s %10.3f %10.2f %10.3f %10.2f\n' "$label" "$s" "$(echo "$s / $cp_s" | bc -l)" "$c" \
    "$(echo "$c / ($cp_c + 0.0001)" | bc -l)"
}
row "cp -r of the folder" cp
row "convert -r, no textures" plain
row "convert -r, textures looked up" tex
if [ -n "$baseline" ]; then
  row "baseline convert -r, no textures" base_plain
  row "baseline convert -r, textures looked up" base_tex
fi
echo "output: $(du -sb "$work/out1" | cut -f1) bytes without textures, $(du -sb "$work/out2" | cut -f1) bytes with"

echo
echo "peak memory of one conversion (largest models, --anim auto, textures on)"
printf '%-40s %10s %12s %8s\n' "file" "bytes" "max RSS" "/file"
find "$corpus" -type f \( -iname '*.alo' -o -iname '*.p3d' \) -printf '%s %p\n' | sort -rn | head -n 3 |
  while read -r size path; do
    args=(--anim auto)
    case "$path" in *.p3d|*.P3D) args=() ;; esac
    ok /usr/bin/time -o "$work/rss" -f '%M' "$ferry" convert "${args[@]}" "$path" "$work/one.glb" >/dev/null
    rss_kb=$(tail -n 1 "$work/rss")
    printf '%-40s %10d %12d %8.2f\n' "$(basename "$path")" "$size" "$((rss_kb * 1024))" "$(echo "$rss_kb * 1024 / $size" | bc -l)"
  done || exit 1
