#!/usr/bin/env bash
# The Blender add-on (blender/ferry_blender, docs/blender.md) in Blender,
# headless: tests/blender/driver.py says what is checked. Skipped (77)
# without Blender; with FERRY_REQUIRE_ALL (CI) that is a failure, as is a
# part left out (no corpus). The renders are kept in BUILD/blender-renders.
# Arguments: FERRY LIBFERRY SRC SHARED
set -u
FERRY=$1 LIB=$2 SRC=$3 SHARED=${4:-}
. "$SRC/tests/cli/lib.bash"
command -v blender >/dev/null 2>&1 || skip "blender is not installed (apt-get install blender)"
# A sanitized library (make asan) needs its runtime loaded first, into all of
# Blender: not done (CI leaves this test out of its ASan stage by name).
if grep -q '^FERRY_SANITIZE:BOOL=ON' "$(dirname "$LIB")/CMakeCache.txt" 2>/dev/null; then
  skip "the library is sanitized: it is not loaded into Blender"
fi
# Debian's python3 (the driver needs nothing but the standard library and
# the package in python/, over this build's libferry.so).
python=/usr/bin/python3
[ -x "$python" ] || python=python3
"$python" "$SRC/tests/blender/driver.py" "$FERRY" "$LIB" "$SRC" "$SHARED" "$tmp"
status=$?
renders=$(dirname "$LIB")/blender-renders
rm -rf "$renders" && cp -r "$tmp/renders" "$renders" 2>/dev/null
exit $status
