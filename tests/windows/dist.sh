#!/usr/bin/env bash
# make dist-windows's zip as a modder uses it: unpacked into a folder of a
# fresh wine prefix (nothing else there: no MinGW runtime, no build tree on
# wine's C: drive), then bin\ferry.exe run by its Windows path: --help, and
# a conversion of a model in a folder with a Cyrillic name, written
# beside it and compared with the Linux build's output of the same model.
# Also: the zip's files, and that ferry.exe and libferry.dll load only
# Windows' own DLLs.
#
#   bash tests/windows/dist.sh SRC WINDOWS_BUILD NATIVE_BUILD
#
# Skips (77) without wine or the zip (make dist-windows).
set -u
SRC=$(cd "$1" && pwd) WIN=$(cd "$2" && pwd) NATIVE=$(cd "$3" && pwd)
. "$SRC/tests/cli/lib.bash"
zip=$WIN/ferry-windows-x86_64.zip
command -v wine >/dev/null 2>&1 || skip "wine is not installed"
[ -f "$zip" ] || skip "$zip is not built (make dist-windows)"
[ -x "$NATIVE/ferry" ] || skip "$NATIVE/ferry is not built"
export WINEDEBUG=-all WINEPREFIX=$tmp/prefix
start=$SECONDS
mkdir -p "$WINEPREFIX"
wineboot -i >/dev/null 2>&1
echo "dist: a fresh wine prefix in $((SECONDS - start)) s"

unzip -Z1 "$zip" | LC_ALL=C sort >"$tmp/listing"
for f in bin/ferry.exe bin/libferry.dll lib/libferry.dll.a lib/libferry.a include/ferry/ferry.h \
         lib/cmake/ferry/ferryConfig.cmake README.md README-windows.txt licenses/lzo2.copyright; do
  check "the zip holds $f" grep -qx "ferry-windows-x86_64/$f" "$tmp/listing"
done
for h in "$SRC"/include/ferry/*.h; do
  check "the zip holds header $(basename "$h")" grep -qx "ferry-windows-x86_64/include/ferry/$(basename "$h")" "$tmp/listing"
done

drive=$WINEPREFIX/drive_c
expect 0 "unzip into the prefix's C:\\ferry" -- unzip -q "$zip" -d "$drive/ferry"
exe='C:\ferry\ferry-windows-x86_64\bin\ferry.exe'
for f in bin/ferry.exe bin/libferry.dll; do
  x86_64-w64-mingw32-objdump -p "$drive/ferry/ferry-windows-x86_64/$f" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u >"$tmp/imports"
  echo "dist: $f loads $(tr '\n' ' ' <"$tmp/imports")"
  check "$f loads Windows' own DLLs only" test -z "$(grep -v -x -E 'kernel32\.dll|advapi32\.dll|msvcrt\.dll|shell32\.dll|user32\.dll|api-ms-win-.*\.dll' "$tmp/imports")"
done

expect 0 "ferry.exe --help from the unpacked zip" -- wine "$exe" --help
check "--help prints the usage" grep -q '^usage: ferry COMMAND' "$tmp/out"
check "--help names what the build leaves out" grep -q 'FBX, OBJ and Collada input (needs Assimp)' "$tmp/out"
check "--help ends its lines with LF alone, as on Linux" test "$(grep -c $'\r' "$tmp/out")" = 0
expect 0 "ferry.exe --version" -- wine "$exe" --version
check "--version" grep -qx 'ferry 0.1.0' "$tmp/out"

# A model in C:\модели, converted by Windows paths, written beside it.
mkdir -p "$drive/модели" "$tmp/linux"
cp "$SRC/samples/alamo/walker.alo" "$drive/модели/"
cp "$SRC/samples/alamo/walker.alo" "$tmp/linux/"
expect 0 "ferry.exe convert C:\\модели\\walker.alo C:\\модели\\walker.glb" -- \
  wine "$exe" convert --no-textures 'C:\модели\walker.alo' 'C:\модели\walker.glb'
(cd "$tmp/linux" && "$NATIVE/ferry" convert --no-textures walker.alo walker.glb) >/dev/null 2>&1
check "the glTF is the Linux build's, byte for byte" same_output "$drive/модели/walker.glb" "$tmp/linux/walker.glb"
expect 0 "ferry.exe info of the glTF's model by its Windows path" -- wine "$exe" info 'C:\модели\walker.alo'
check "info names the file as given" grep -q '^C:\\модели\\walker.alo: ALO model' "$tmp/out"
expect 1 "a missing file: exit 1" -- wine "$exe" info 'C:\модели\missing.alo'
expect 2 "no file: exit 2" -- wine "$exe" info

wineserver -k >/dev/null 2>&1 || true
echo "dist: zip $(wc -c <"$zip") bytes, $(grep -vc '/$' "$tmp/listing") files"
finish
