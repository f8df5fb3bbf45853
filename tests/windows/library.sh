#!/usr/bin/env bash
# libferry for Windows as another program uses it (the cross build's ctest
# windows_library): installed into a temporary prefix (cmake --install);
# libferry.dll exports exactly the functions the headers mark FERRY_API and
# needs no DLL but Windows' own; libferry.a exports nothing from what links
# it; the examples built against the installed files with
# find_package(ferry) and the MinGW-w64 toolchain file, once against the
# DLL (ferry::ferry) and once against libferry.a (ferry::ferry_static, which
# brings FERRY_STATIC), and run under wine.
#
#   bash tests/windows/library.sh SRC WINDOWS_BUILD
#
# Skips (77) without wine or MinGW-w64's binutils.
set -u
SRC=$(cd "$1" && pwd) BUILD=$(cd "$2" && pwd)
. "$SRC/tests/cli/lib.bash"

triplet=x86_64-w64-mingw32
for tool in cmake wine "$triplet-gcc" "$triplet-objdump"; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed"
done
export WINEDEBUG=-all

prefix=$tmp/prefix
expect 0 "cmake --install into a fresh prefix" -- cmake --install "$BUILD" --prefix "$prefix"
for h in "$SRC"/include/ferry/*.h; do
  check "header $(basename "$h") is installed" cmp -s "$h" "$prefix/include/ferry/$(basename "$h")"
done
check "libferry.dll is installed in bin/" test -f "$prefix/bin/libferry.dll"
check "its import library libferry.dll.a in lib/" test -f "$prefix/lib/libferry.dll.a"
check "libferry.a is installed in lib/" test -f "$prefix/lib/libferry.a"
check "ferry.pc is installed" test -f "$prefix/lib/pkgconfig/ferry.pc"
check "the CMake package is installed" test -f "$prefix/lib/cmake/ferry/ferryConfig.cmake"

# The DLL's export table: exactly the FERRY_API declarations.
dll=$prefix/bin/libferry.dll
"$triplet-objdump" -p "$dll" >"$tmp/pe"
sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' "$tmp/pe" | sed -n 's/^[[:space:]]*\[ *[0-9]*\] //p' | sort >"$tmp/exported"
grep -h -o 'FERRY_API [^(]*(' "$SRC"/include/ferry/*.h | grep -o 'ferry_[A-Za-z0-9_]*($' | tr -d '(' | sort >"$tmp/declared"
check "some functions are exported" test -s "$tmp/exported"
check "libferry.dll exports only ferry_* symbols" test -z "$(grep -v '^ferry_' "$tmp/exported")"
if ! diff "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
  echo "declared FERRY_API (<) against exported (>):" >&2
  head -n 20 "$tmp/diff" >&2
fi
check "libferry.dll exports exactly the FERRY_API declarations" cmp -s "$tmp/declared" "$tmp/exported"
echo "libferry.dll: $(wc -l <"$tmp/exported") functions exported, $(wc -c <"$dll") bytes"

# What it loads: Windows' own DLLs only (libgcc and winpthread are linked in,
# cmake/toolchain-mingw64.cmake's -static).
sed -n 's/^[[:space:]]*DLL Name: //p' "$tmp/pe" | tr 'A-Z' 'a-z' | sort -u >"$tmp/imports"
echo "libferry.dll loads: $(tr '\n' ' ' <"$tmp/imports")"
check "libferry.dll loads no MinGW runtime DLL" test -z "$(grep -v -x -E 'kernel32\.dll|advapi32\.dll|msvcrt\.dll|ucrtbase\.dll|api-ms-win-.*\.dll' "$tmp/imports")"

# libferry.a's objects carry no export directive (-export: in .drectve):
# otherwise every program or DLL linking it would export ferry_* as well.
"$triplet-objdump" -s -j .drectve "$prefix/lib/libferry.a" >"$tmp/drectve" 2>/dev/null
# (The objects' own names, export.c.obj, are not directives.)
check "libferry.a exports nothing from what links it" test -z "$(grep -v 'file format' "$tmp/drectve" | grep -i 'export')"

# The examples, from a copy outside the source tree, through find_package.
# ferry_DIR names the package directly: the toolchain file limits find_package
# to the MinGW sysroot and the dependency prefix.
cp -r "$SRC/examples" "$tmp/cm"
walker=$SRC/samples/alamo/walker.alo
for variant in shared static; do
  static=OFF
  [ "$variant" = static ] && static=ON
  build=$tmp/cm/build-$variant
  expect 0 "cmake configure (find_package, $variant)" -- \
    cmake -S "$tmp/cm" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/toolchain-mingw64.cmake" \
    -Dferry_DIR="$prefix/lib/cmake/ferry" -DFERRY_EXAMPLES_STATIC=$static
  expect 0 "cmake build (find_package, $variant)" -- cmake --build "$build"
  "$triplet-objdump" -p "$build/print_bones.exe" >"$tmp/pe-$variant" 2>/dev/null
  [ "$variant" = shared ] && cp "$dll" "$build/"
  # A Windows program's stdout is in text mode: each "\n" is written as CR LF.
  expect 0 "$variant: print_bones walker.alo under wine" -- wine "$build/print_bones.exe" "$walker"
  check "$variant: print_bones ends its 8 lines with CR LF" test "$(grep -c $'\r$' "$tmp/out")" = 8
  tr -d '\r' <"$tmp/out" >"$tmp/bones-$variant"
  # The walker's bones as tests/cli/install.sh has them, checked by hand
  # there: the Beacon under the head turned a quarter round about Z.
  check "$variant: print_bones counts the walker's bones" grep -qx '7 bones' "$tmp/bones-$variant"
  check "$variant: print_bones places the Beacon" grep -qx '4 Beacon parent Head at (-0.300, 0.000, 2.000)' "$tmp/bones-$variant"
  mkdir -p "$tmp/any-$variant"
  expect 0 "$variant: any_file walker.alo under wine" -- wine "$build/any_file.exe" "$walker" "$tmp/any-$variant"
  check "$variant: any_file names the format" grep -qx $'format: ALO model (alo)\r' "$tmp/out"
  check "$variant: any_file writes the model back byte for byte" cmp -s "$walker" "$tmp/any-$variant/copy.alo"
  expect 2 "$variant: print_bones without a file" -- wine "$build/print_bones.exe"
done
check "the DLL and the static library print the same" same_output "$tmp/bones-shared" "$tmp/bones-static"
check "shared: print_bones loads libferry.dll" grep -q 'DLL Name: libferry.dll' "$tmp/pe-shared"
check "static: print_bones does not load libferry.dll" eval '! grep -q "DLL Name: libferry.dll" "$tmp/pe-static"'
check "static: print_bones exports nothing" eval '! grep -q "^\[Ordinal/Name Pointer\] Table" "$tmp/pe-static"'

finish
