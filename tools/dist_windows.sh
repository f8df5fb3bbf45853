#!/usr/bin/env bash
# make dist-windows: the zip a modder unpacks and runs, nothing else to
# install (docs/cross-building.md):
#
#   bash tools/dist_windows.sh WINDOWS_BUILD
#
# WINDOWS_BUILD/ferry-windows-x86_64.zip holds one folder,
# ferry-windows-x86_64/: bin/ferry.exe (libferry.a and its dependencies
# linked in) and bin/libferry.dll, both stripped of their debugging
# information; include/ferry/*.h; lib/libferry.dll.a (the DLL's import
# library) and lib/libferry.a with lib/pkgconfig/ferry.pc and
# lib/cmake/ferry (cmake --install's layout); README.md, README-windows.txt
# and licenses/ (the copyright files of the Debian source packages linked
# in, from tools/cross/deps.sh's prefix).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$1" && pwd)
triplet=x86_64-w64-mingw32
name=ferry-windows-x86_64
deps=${FERRY_DEPS_PREFIX:-${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}/mingw64}
[ -f "$BUILD/ferry.exe" ] || { echo "dist-windows: $BUILD/ferry.exe is not built (make windows)" >&2; exit 1; }

stage=$BUILD/dist
rm -rf "$stage"
mkdir -p "$stage"
cmake --install "$BUILD" --prefix "$stage/$name" >/dev/null
root=$stage/$name
"$triplet-strip" --strip-debug "$root/bin/ferry.exe" "$root/bin/libferry.dll"
"$triplet-strip" --strip-debug "$root/lib/libferry.a"
cp "$SRC/README.md" "$root/"
mkdir -p "$root/licenses"
if [ -d "$deps/share/licenses" ]; then
  cp "$deps"/share/licenses/*.copyright "$root/licenses/"
fi
[ -n "$(ls "$root/licenses")" ] || { echo "dist-windows: no copyright files in $deps/share/licenses (run tools/cross/deps.sh mingw64)" >&2; exit 1; }
cat >"$root/README-windows.txt" <<'TXT'
ferry for Windows (x86_64, Windows 10 or later)

bin\ferry.exe is the command-line tool: it needs nothing else (libferry is
linked into it). Open a command prompt in this folder and run

    bin\ferry.exe --help
    bin\ferry.exe info C:\Games\EaW\Data\Art\Models\walker.alo
    bin\ferry.exe convert walker.alo walker.glb

File names in any language and paths longer than 260 characters work.
Left out of this build: FBX, OBJ and Collada input (it needs Assimp) and
`ferry view` (it needs libmicrohttpd); `ferry --help` says so too.

For programs using the library: include\ferry\*.h, bin\libferry.dll with
its import library lib\libferry.dll.a, or lib\libferry.a (define
FERRY_STATIC and link jansson, libpng, zlib, lzo2 and nettle yourself).
CMake: find_package(ferry) with -Dferry_DIR=<this folder>\lib\cmake\ferry.

licenses\ holds the copyright and licence terms of the libraries linked
into ferry.exe and libferry.dll (from Debian's source packages).
TXT
# Windows' own line ends for the text a Windows user opens.
sed -i 's/$/\r/' "$root/README-windows.txt"
rm -f "$BUILD/$name.zip"
(cd "$stage" && zip -q -r -X "$BUILD/$name.zip" "$name")
echo "dist-windows: $BUILD/$name.zip, $(wc -c <"$BUILD/$name.zip") bytes, $(unzip -Z1 "$BUILD/$name.zip" | grep -vc '/$') files"
