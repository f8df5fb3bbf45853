#!/usr/bin/env bash
# The Windows build's tests under wine (make windows-test; the CI's Windows
# stage):
#
#   bash tests/windows/run.sh WINDOWS_BUILD [NATIVE_BUILD]
#
# 1. A wine prefix: WINEPREFIX if set, else the one tools/cross/deps.sh
#    makes for its own check, ${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}/wine
#    (made here when missing, before the tests start, so that they do not
#    race to make it). ~/.wine is never used.
# 2. ctest in WINDOWS_BUILD, JOBS (default: the processor count) at a time:
#    every C test under wine, test_platform as nobody when run as root,
#    windows_library. The tests write the files tests/windows/outputs.sh
#    compares into WINDOWS_BUILD/test-outputs (FERRY_TEST_OUTPUTS).
# 3. What the C tests left out because it cannot run on Windows
#    (TEST_NOT_ON_WINDOWS in tests/test.h): each part with its test and
#    reason, and how many; and the checks the C tests passed, summed.
# 4. With NATIVE_BUILD (a Linux build of this tree with FERRY_TESTS on):
#    tests/windows/outputs.sh, the outputs against the Linux build's (the
#    C tests' and the CLI's).
# 5. The CLI's shell tests against ferry.exe under wine (tests/windows/cli.sh;
#    CLI_TESTS names which, default every one that can run), then
#    tests/windows/cli_paths.sh (names in any language, long paths, a
#    read-only folder, a hostile archive).
# 6. With the zip built (make dist-windows) and NATIVE_BUILD:
#    tests/windows/dist.sh, the zip unpacked into a fresh wine prefix.
#
# Exit status: 1 when ctest or the comparison failed, else 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$here/../.." && pwd)
BUILD=$(cd "$1" && pwd)
NATIVE=${2:-}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
command -v wine >/dev/null 2>&1 || { echo "windows tests: wine is not installed (Debian: wine)" >&2; exit 1; }

export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}/wine}
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  start=$SECONDS
  mkdir -p "$WINEPREFIX"
  wineboot -i >/dev/null 2>&1
  echo "windows tests: made the wine prefix $WINEPREFIX in $((SECONDS - start)) s"
fi

status=0
outputs=$BUILD/test-outputs
rm -rf "$outputs"
mkdir -p "$outputs"
start=$SECONDS
(cd "$BUILD" && FERRY_TEST_OUTPUTS=$outputs ctest --output-on-failure -j "$jobs") || status=1
echo "windows tests: ctest under wine took $((SECONDS - start)) s"

# Every test's output is in ctest's LastTest.log. Windows programs end their
# lines with CR LF.
log=$BUILD/Testing/Temporary/LastTest.log
if [ -f "$log" ]; then
  tr -d '\r' <"$log" | awk '
    /^[0-9]+\/[0-9]+ Test: / { test = $3 }
    /^left out on Windows: / { sub(/^left out on Windows: /, ""); parts[++n] = "  " test ": " $0 }
    /^[0-9]+ passed, [0-9]+ failed/ { passed += $1; failed += $3; programs++ }
    END {
      printf "windows tests: %d part(s) of the C tests left out on Windows (TEST_NOT_ON_WINDOWS)%s\n", n, n ? ":" : ""
      for (i = 1; i <= n; i++) print parts[i]
      printf "windows tests: %d checks passed, %d failed, in %d test programs and scripts\n", passed, failed, programs
    }'
fi

if [ -n "$NATIVE" ]; then
  start=$SECONDS
  bash "$here/outputs.sh" "$SRC" "$NATIVE" "$BUILD" "$outputs" || status=1
  echo "windows tests: the outputs compared in $((SECONDS - start)) s"
fi

# 5. The CLI's shell tests against ferry.exe (CLI_TESTS: which; default all).
if [ -f "$BUILD/ferry.exe" ]; then
  start=$SECONDS
  JOBS=$jobs bash "$here/cli.sh" "$SRC" "$BUILD" || status=1
  echo "windows tests: the CLI tests under wine took $((SECONDS - start)) s"
fi

# 5b. ferry.exe on the paths Windows makes hard, and a hostile archive.
if [ -f "$BUILD/ferry.exe" ] && [ -n "$NATIVE" ]; then
  bash "$here/cli_paths.sh" "$SRC" "$BUILD" "$NATIVE" || status=1
fi

# 6. The zip (make dist-windows), unpacked into a fresh wine prefix.
if [ -f "$BUILD/ferry-windows-x86_64.zip" ] && [ -n "$NATIVE" ]; then
  bash "$here/dist.sh" "$SRC" "$BUILD" "$NATIVE" || status=1
fi
exit "$status"
