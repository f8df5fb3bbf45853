#!/usr/bin/env bash
# libferry as another program uses it: installed into a temporary prefix
# (cmake --install), the examples copied out of the source tree and built
# there against the installed files only, through pkg-config (shared and
# fully static) and through find_package(ferry) (ferry::ferry and
# ferry::ferry_static), then run: print_bones on the walker sample, any_file
# on a sample of every format (the format table, no format named). The installed
# libferry.so exports exactly the functions the headers mark FERRY_API.
# Skips (77) without cmake, pkg-config, a C compiler or binutils, and on a
# sanitized build (its library needs the sanitizer runtimes to link).
set -u
FERRY=$1 SRC=$2 SHARED=$3
BUILD=$(cd "$(dirname "$FERRY")" && pwd)
. "$(dirname "$0")/lib.bash"

CC=${CC:-cc}
for tool in cmake pkg-config "$CC" make nm readelf; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    skip "$tool is not installed"
  fi
done
if grep -q '^FERRY_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
  # (ASan also refuses the fully static link checked below: nothing here
  # can run on such a build; CI runs this test on its unsanitized one.)
  skip "a sanitized build's library links only with the sanitizer runtimes"
fi

prefix=$tmp/prefix
expect 0 "cmake --install into a fresh prefix" -- cmake --install "$BUILD" --prefix "$prefix"
pc=$(find "$prefix" -name ferry.pc -path '*/pkgconfig/*' | head -n 1)
check "ferry.pc is installed" test -n "$pc"
libdir=$(cd "$(dirname "${pc:-$prefix/lib/pkgconfig/x}")/.." 2>/dev/null && pwd)
for h in "$SRC"/include/ferry/*.h; do
  check "header $(basename "$h") is installed" cmp -s "$h" "$prefix/include/ferry/$(basename "$h")"
done
check "libferry.a is installed" test -f "$libdir/libferry.a"
check "libferry.so.0 links to the versioned file" test "$(readlink "$libdir/libferry.so.0")" = "$(basename "$(ls "$libdir"/libferry.so.0.*.*)")"
check "libferry.so links to libferry.so.0" test "$(readlink "$libdir/libferry.so")" = libferry.so.0
check "the CMake package is installed" test -f "$libdir/cmake/ferry/ferryConfig.cmake" -a -f "$libdir/cmake/ferry/ferryConfigVersion.cmake"
check "the ferry tool is installed" test -x "$prefix/bin/ferry"
expect 0 "the installed tool runs" -- "$prefix/bin/ferry" info "$SRC/samples/alamo/walker.alo"

# The shared library: its SONAME, and exactly the FERRY_API functions.
readelf -d "$libdir/libferry.so" >"$tmp/dynamic"
check "SONAME is libferry.so.0" grep -q 'Library soname: \[libferry.so.0\]' "$tmp/dynamic"
nm -D --defined-only "$libdir/libferry.so" | awk '{print $3}' | sort >"$tmp/exported"
grep -h -o 'FERRY_API [^(]*(' "$SRC"/include/ferry/*.h | grep -o 'ferry_[A-Za-z0-9_]*($' | tr -d '(' | sort >"$tmp/declared"
# Every function declaration in the public headers carries FERRY_API (one
# without it would be missing from both lists below).
grep -n -E '^[A-Za-z_][A-Za-z0-9_ *]*[ *]ferry_[A-Za-z0-9_]+ *\(' "$SRC"/include/ferry/*.h |
  grep -v -E ':(FERRY_API|typedef|static) ' >"$tmp/unmarked"
if [ -s "$tmp/unmarked" ]; then
  echo "declared without FERRY_API:" >&2
  head -n 10 "$tmp/unmarked" >&2
fi
check "every public function is declared FERRY_API" test ! -s "$tmp/unmarked"
check "some functions are exported" test -s "$tmp/exported"
check "libferry.so exports only ferry_* symbols" test -z "$(grep -v '^ferry_' "$tmp/exported")"
if ! diff "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
  echo "declared FERRY_API (<) against exported (>):" >&2
  head -n 20 "$tmp/diff" >&2
fi
check "libferry.so exports exactly the FERRY_API declarations" cmp -s "$tmp/declared" "$tmp/exported"

# What print_bones prints for the walker, checked by hand against
# tools/sample_models.c (sample_build_walker) and `ferry dump walker.alo`:
# the local translations add up along the parents, except that the head is
# turned a quarter round about Z, so the beacon's (0, 0.3, 0.25) under it
# lands at (-0.3, 0, 0.25) from the head's (0, 0, 1.75).
cat >"$tmp/expected" <<'OUT'
7 bones
0 Root parent - at (0.000, 0.000, 0.000)
1 Pelvis parent Root at (0.000, 0.000, 0.500)
2 Spine parent Pelvis at (0.000, 0.000, 1.000)
3 Head parent Spine at (0.000, 0.000, 1.750)
4 Beacon parent Head at (-0.300, 0.000, 2.000)
5 SpotAnchor parent Root at (0.500, -1.000, 2.500)
6 p_exhaust parent Pelvis at (0.000, -0.300, 0.500)
OUT
walker=$SRC/samples/alamo/walker.alo

# run_example NAME BINARY: runs it on the walker and compares its output.
run_example() {
  local name=$1 bin=$2
  expect 0 "$name: print_bones walker.alo" -- env LD_LIBRARY_PATH="$libdir" "$bin" "$walker"
  if ! cmp -s "$tmp/out" "$tmp/expected"; then
    diff "$tmp/expected" "$tmp/out" >&2
  fi
  check "$name: prints the walker's bones" cmp -s "$tmp/out" "$tmp/expected"
}

# dynamic BINARY: whether it loads libferry.so.0.
needs_libferry() { readelf -d "$1" 2>/dev/null | grep -q 'NEEDED.*\[libferry.so.0\]'; }

# pkg-config, from a copy of examples/ outside the source tree.
export PKG_CONFIG_PATH=$libdir/pkgconfig
expect 0 "pkg-config knows ferry" -- pkg-config --modversion ferry
check "pkg-config names the installed version" grep -qx "$(sed -n 's/^#define FERRY_VERSION_STRING "\(.*\)"/\1/p' "$SRC/include/ferry/ferry.h")" "$tmp/out"
cp -r "$SRC/examples" "$tmp/pc-shared"
expect 0 "make (pkg-config, shared)" -- make -C "$tmp/pc-shared" CC="$CC"
run_example "pkg-config, shared" "$tmp/pc-shared/print_bones"
check "pkg-config, shared: loads libferry.so.0" needs_libferry "$tmp/pc-shared/print_bones"
cp -r "$SRC/examples" "$tmp/pc-static"
expect 0 "make STATIC=1 (pkg-config --static)" -- make -C "$tmp/pc-static" CC="$CC" STATIC=1
run_example "pkg-config, static" "$tmp/pc-static/print_bones"
check "pkg-config, static: no shared library at all" test -z "$(readelf -d "$tmp/pc-static/print_bones" 2>/dev/null | grep NEEDED)"
expect 1 "print_bones on a file that is not a model" -- env LD_LIBRARY_PATH="$libdir" "$tmp/pc-shared/print_bones" "$tmp/expected"
check "the error names the file" grep -q "$tmp/expected" "$tmp/err"
expect 2 "print_bones without a file" -- env LD_LIBRARY_PATH="$libdir" "$tmp/pc-shared/print_bones"
unset PKG_CONFIG_PATH

# any_file: every format's sample through the format table alone. Each line
# of the table: the sample, the format and key it must report, whether it is
# validated (valid), written back (the output's extension, "-": not) and made
# a glTF (glb, "-": not), as include/ferry/format.h's table says of the format.
S=$SRC/samples F=$SRC/fuzz/corpus
while read -r sample name key valid copy glb; do
  out=$tmp/any/$key
  mkdir -p "$out"
  expect 0 "any_file $key" -- env LD_LIBRARY_PATH="$libdir" "$tmp/pc-shared/any_file" "$sample" "$out"
  check "any_file $key: names the format" grep -qx "format: ${name//_/ } ($key)" "$tmp/out"
  if [ "$valid" = yes ]; then
    check "any_file $key: info names it" grep -q "^info: {\"file\":\"$sample\",\"format\":\"${name//_/ }\"" "$tmp/out"
    check "any_file $key: valid" grep -q "^valid: yes" "$tmp/out"
  else
    check "any_file $key: no info, no validation" test -z "$(grep -E '^(info|valid):' "$tmp/out")"
  fi
  if [ "$copy" != - ]; then
    check "any_file $key: written back byte for byte" cmp -s "$sample" "$out/copy$copy"
  else
    check "any_file $key: nothing written back" test -z "$(ls "$out" | grep -v '^copy.glb$')"
  fi
  if [ "$glb" = glb ]; then
    check "any_file $key: a glTF binary" test "$(head -c 4 "$out/copy.glb")" = glTF
    check "any_file $key: its nodes counted" grep -Eq "^wrote $out/copy.glb \([1-9][0-9]* nodes" "$tmp/out"
  else
    check "any_file $key: no glTF" test ! -e "$out/copy.glb"
  fi
done <<EOF
$S/alamo/walker.alo ALO_model alo yes .alo glb
$S/alamo/p_walker_exhaust.alo ALO_particle_system particle yes .alo glb
$S/alamo/walker_idle_00.ala ALA_animation ala yes .ala -
$S/odol/box.p3d ODOL odol yes .p3d glb
$F/alm/fixture_v10.alm ALM alm yes .alm glb
$F/gltf/crate.glb glTF_binary glb no - glb
$F/paa/dxt1_tags.paa PAA paa yes .paa -
$F/meg/format2.meg MEG meg yes .meg -
$F/pbo/addon.pbo PBO pbo yes .pbo -
$F/config/material.bin raP_config rap yes .bin -
$F/config/material.rvmat config_text config_text yes - -
EOF
# An archive's entries are checked as files: a model named like one that
# is not, inside a PBO (ferry pack makes it), is an error named ARCHIVE:ENTRY.
mkdir -p "$tmp/addon/art"
cp "$S/alamo/walker.alo" "$tmp/addon/art/"
echo "not a model" >"$tmp/addon/art/broken.alo"
expect 0 "ferry pack a PBO" -- "$prefix/bin/ferry" pack "$tmp/addon.pbo" "$tmp/addon"
expect 1 "any_file: a PBO with a broken entry" -- env LD_LIBRARY_PATH="$libdir" "$tmp/pc-shared/any_file" "$tmp/addon.pbo" "$tmp/any"
check "any_file: the broken entry named" grep -q "^$tmp/addon.pbo:art\\\\broken.alo: .*not a known format" "$tmp/err"
check "any_file: the good entry checked" grep -q "^$tmp/addon.pbo:art\\\\walker.alo: ALO model, 0 errors" "$tmp/out"
check "any_file: the archive itself valid, its entry not" grep -q "^valid: no (0 errors, 0 warnings; 1 in entries)" "$tmp/out"
expect 1 "any_file on a file of no format" -- env LD_LIBRARY_PATH="$libdir" "$tmp/pc-shared/any_file" "$tmp/expected" "$tmp/any"
check "any_file: the error names the file" grep -q "^$tmp/expected: .*not a known format" "$tmp/err"
expect 2 "any_file without arguments" -- env LD_LIBRARY_PATH="$libdir" "$tmp/pc-shared/any_file"
expect 0 "any_file, linked statically" -- "$tmp/pc-static/any_file" "$S/alamo/walker.alo" "$tmp/any/alo"
check "any_file, static: the same output" grep -qx "format: ALO model (alo)" "$tmp/out"

# find_package(ferry), from another copy.
cp -r "$SRC/examples" "$tmp/cm"
for variant in shared static; do
  static=OFF
  [ "$variant" = static ] && static=ON
  expect 0 "cmake configure (find_package, $variant)" -- \
    cmake -S "$tmp/cm" -B "$tmp/cm/build-$variant" -DCMAKE_C_COMPILER="$CC" -DCMAKE_PREFIX_PATH="$prefix" \
    -DFERRY_EXAMPLES_STATIC=$static
  expect 0 "cmake build (find_package, $variant)" -- cmake --build "$tmp/cm/build-$variant"
  run_example "find_package, $variant" "$tmp/cm/build-$variant/print_bones"
  expect 0 "find_package, $variant: any_file" -- env LD_LIBRARY_PATH="$libdir" "$tmp/cm/build-$variant/any_file" "$walker" "$tmp/any/alo"
  check "find_package, $variant: any_file names the format" grep -qx "format: ALO model (alo)" "$tmp/out"
done
check "find_package, shared: loads libferry.so.0" needs_libferry "$tmp/cm/build-shared/print_bones"
check "find_package, static: does not load libferry.so.0" eval '! needs_libferry "$tmp/cm/build-static/print_bones"'

# The package version file: 0.1 is this version, 1.0 is not.
mkdir -p "$tmp/cm-version"
cat >"$tmp/cm-version/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(version_check LANGUAGES NONE)
find_package(ferry ${WANT} REQUIRED)
CM
expect 0 "find_package(ferry 0.1) is found" -- \
  cmake -S "$tmp/cm-version" -B "$tmp/cm-version/a" -DCMAKE_PREFIX_PATH="$prefix" -DWANT=0.1
expect 1 "find_package(ferry 1.0) is refused" -- \
  cmake -S "$tmp/cm-version" -B "$tmp/cm-version/b" -DCMAKE_PREFIX_PATH="$prefix" -DWANT=1.0

finish
