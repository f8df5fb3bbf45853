#!/usr/bin/env bash
# The Python package's test suite (python/tests, pytest) against this build:
# its libferry.so (FERRY_LIBRARY, which the package's loader honours first)
# and its ferry tool (FERRY_CLI, which the results are compared with).
# Skips (77) without a python3 that has pytest (Debian: python3-pytest);
# under FERRY_REQUIRE_ALL that, and every test pytest would skip, fails.
# Arguments: LIBFERRY FERRY SRC SHARED
set -u
LIB=$1
FERRY=$2
SRC=$3
SHARED=${4:-}
. "$SRC/tests/cli/lib.bash"

# The first python3 with pytest: FERRY_PYTHON, the one on PATH, Debian's.
python=
for candidate in "${FERRY_PYTHON:-}" python3 /usr/bin/python3; do
  [ -n "$candidate" ] || continue
  if "$candidate" -c 'import pytest' >/dev/null 2>&1; then
    python=$candidate
    break
  fi
done
[ -n "$python" ] || skip "no python3 with pytest (Debian: apt-get install python3-pytest)"

# A sanitized library (make asan, CI's ASan stage) needs the sanitizer's
# runtime loaded first: an executable links it in, python3 does not. Python's
# own memory is not freed at exit, so leak detection is off here (the C
# tests run under LeakSanitizer; test_memory.py measures the package's), and
# the quarantine too, so that freed memory leaves the process as it would.
cache=$(dirname "$LIB")/CMakeCache.txt
if grep -q '^FERRY_SANITIZE:BOOL=ON' "$cache" 2>/dev/null; then
  cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$cache")
  case "$cc" in
    *clang*) runtime=$("$cc" -print-file-name="libclang_rt.asan-$(uname -m).so") ;;
    *) runtime=$("$cc" -print-file-name=libasan.so) ;;
  esac
  [ -f "$runtime" ] || skip "the library is sanitized, but $cc has no shared ASan runtime to load it with"
  export LD_PRELOAD=$runtime
  export ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=0
fi

cd "$SRC"
# -p no:cacheprovider: nothing written into the source tree; -rs: the reason
# of each skip is shown (there are none under FERRY_REQUIRE_ALL: conftest.py
# fails instead).
FERRY_LIBRARY=$LIB FERRY_CLI=$FERRY FERRY_SHARED_DIR=$SHARED PYTHONDONTWRITEBYTECODE=1 \
  "$python" -m pytest python/tests -q -rs -p no:cacheprovider
