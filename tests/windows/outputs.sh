#!/usr/bin/env bash
# The Windows build's outputs byte for byte against the Linux build's:
#   - the samples: make_samples.exe and make_odol_samples.exe, under wine,
#     write samples/ again; it must equal the committed samples/, which the
#     Linux build's make_samples and make_odol_samples write (checked here
#     too);
#   - the files test_convert (a .glb of every sample and corpus model,
#     animation and particle system) and test_gltf (hand-built scenes as
#     .glb, .gltf, .bin and .png) write with FERRY_TEST_OUTPUTS set: run
#     natively and under wine, every file compared. validator.txt, the Khronos
#     validator's report, is the one file only the Linux run writes (the
#     validator runs on node);
#   - the CLI's: tests/windows/cli_outputs.sh, build/ferry against
#     ferry.exe (stdout, stderr, exit statuses and every file written), on
#     the samples and the corpus.
#
#   bash tests/windows/outputs.sh SRC NATIVE_BUILD WINDOWS_BUILD [WINDOWS_OUTPUTS]
#
# WINDOWS_OUTPUTS: the FERRY_TEST_OUTPUTS folder of a ctest run of the
# Windows build (make windows-test passes it): its test_convert and
# test_gltf folders are compared instead of running them again under wine.
# Wine uses WINEPREFIX from the environment. Exit 0 when every file is the
# same, 1 otherwise.
set -u
SRC=$(cd "$1" && pwd) NATIVE=$(cd "$2" && pwd) WIN=$(cd "$3" && pwd)
given=${4:-}
export WINEDEBUG=-all
work=$(mktemp -d "${TMPDIR:-/tmp}/ferry-outputs.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
files=0 bytes=0

fail() {
  echo "outputs: FAIL: $*" >&2
  status=1
}

# compare NAME A B: every file under A and B, the same names and bytes
# (validator.txt left out).
compare() {
  local name=$1 a=$2 b=$3 f n=0 size=0
  (cd "$a" && find . -type f ! -name validator.txt | LC_ALL=C sort) >"$work/list-a"
  (cd "$b" && find . -type f ! -name validator.txt | LC_ALL=C sort) >"$work/list-b"
  if ! cmp -s "$work/list-a" "$work/list-b"; then
    fail "$name: not the same files (< $a, > $b):"
    diff "$work/list-a" "$work/list-b" | head -n 20 >&2
  fi
  if [ ! -s "$work/list-a" ]; then
    fail "$name: no file at all in $a"
    return
  fi
  while read -r f; do
    [ -f "$b/$f" ] || continue
    if cmp -s "$a/$f" "$b/$f"; then
      n=$((n + 1))
      size=$((size + $(wc -c <"$a/$f")))
    else
      fail "$name: $f differs"
    fi
  done <"$work/list-a"
  echo "outputs: $name: $n files identical ($size bytes)"
  files=$((files + n)) bytes=$((bytes + size))
}

# run_test NAME: the test, with FERRY_TEST_OUTPUTS, natively into
# $work/linux and (unless given) under wine into $work/windows.
run_test() {
  local t=$1 wdir
  mkdir -p "$work/linux"
  if ! (cd "$NATIVE/tests" && FERRY_TEST_OUTPUTS=$work/linux "./$t") >"$work/$t-linux.log" 2>&1; then
    tail -n 20 "$work/$t-linux.log" >&2
    fail "$t fails natively"
  fi
  if [ -n "$given" ] && [ -d "$given/$t" ]; then
    wdir=$given
  else
    wdir=$work/windows
    mkdir -p "$wdir"
    if ! (cd "$WIN/tests" && FERRY_TEST_OUTPUTS=$wdir wine "./$t.exe") >"$work/$t-windows.log" 2>&1; then
      tail -n 20 "$work/$t-windows.log" >&2
      fail "$t.exe fails under wine"
    fi
  fi
  compare "$t" "$work/linux/$t" "$wdir/$t"
}

# The samples, written by each build's sample writers.
for side in linux windows; do
  mkdir -p "$work/samples-$side"
  for maker in make_samples make_odol_samples; do
    if [ "$side" = linux ]; then
      run=("$NATIVE/$maker")
    else
      run=(wine "$WIN/$maker.exe")
    fi
    if ! "${run[@]}" "$work/samples-$side" >"$work/$maker-$side.log" 2>&1; then
      tail -n 20 "$work/$maker-$side.log" >&2
      fail "$maker ($side) fails"
    fi
  done
  compare "samples written on ${side^}" "$SRC/samples" "$work/samples-$side"
done

run_test test_convert
run_test test_gltf

# The CLI's outputs: the same commands run by the Linux build's ferry and
# by ferry.exe under wine (tests/windows/cli_outputs.sh), on the samples
# and, where ../shared is, on the corpus.
if [ -x "$NATIVE/ferry" ] && [ -f "$WIN/ferry.exe" ]; then
  corpus=$(cd "$SRC/.." && pwd)/shared/corpus
  [ -d "$corpus" ] || corpus=
  [ -n "$corpus" ] || echo "outputs: the CLI on the corpus left out: $(cd "$SRC/.." && pwd)/shared/corpus is absent"
  if bash "$SRC/tests/windows/cli_outputs.sh" "$SRC" "$NATIVE/ferry" "$WIN/ferry.exe" "$work/cli" $corpus >"$work/cli.log" 2>&1; then
    cat "$work/cli.log"
    n=$(sed -n 's/^cli outputs: \([0-9]*\) files identical (\([0-9]*\) bytes).*/\1 \2/p' "$work/cli.log")
    files=$((files + ${n% *})) bytes=$((bytes + ${n#* }))
  else
    cat "$work/cli.log" >&2
    fail "the CLI's outputs differ (tests/windows/cli_outputs.sh)"
  fi
else
  echo "outputs: the CLI's outputs not compared: $NATIVE/ferry or $WIN/ferry.exe is not built"
fi

if [ "$status" -eq 0 ]; then
  echo "outputs: the Windows build writes the Linux build's bytes: $files files, $bytes bytes"
fi
exit "$status"
