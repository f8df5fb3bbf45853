#!/usr/bin/env bash
# Builds libferry's dependencies for a cross target from Debian's own source
# packages, into a prefix outside the tree that later builds reuse:
#
#   bash tools/cross/deps.sh mingw64   Windows x86_64 (MinGW-w64), run under wine
#   bash tools/cross/deps.sh wasm      WebAssembly (Debian's emscripten)
#
# The prefix is ${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}/TARGET; the last
# line printed is its path. Each package is built once per machine: a stamp
# names the package, the source version apt gives and a hash of its recipe
# and the compiler, so a second run (same versions, same recipe) builds
# nothing. docs/cross-building.md says why each configure flag is there.
set -euo pipefail
# One brace group: bash reads it whole before running it, so editing this
# file while it runs cannot change what the running copy does.
{

target=${1:-}
case "$target" in
  mingw64|wasm) ;;
  *) echo "usage: bash tools/cross/deps.sh mingw64|wasm" >&2; exit 2 ;;
esac

cache=${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}
prefix=$cache/$target
srcroot=$cache/src          # apt-get source output, shared by the targets
buildroot=$cache/build/$target
stamps=$prefix/.stamps
jobs=${FERRY_DEPS_JOBS:-2}
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$srcroot" "$buildroot" "$stamps"

script_start=$SECONDS
log() { printf 'deps[%s]: %s\n' "$target" "$*" >&2; }
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
export DEBIAN_FRONTEND=noninteractive

# ---- Debian packages: the toolchain and the build tools ----
# dpkg-dev: dpkg-source, which apt-get source runs to unpack and patch.
# make, pkg-config: the packages' own build systems. m4: nettle's assembly
# is written in m4 and expanded at build time. autotools-dev: current
# config.sub/config.guess (see update_config_scripts).
packages=(dpkg-dev make pkg-config m4 cmake autotools-dev)
case "$target" in
  mingw64) packages+=(gcc-mingw-w64-x86-64 wine) ;;
  # nodejs comes with emscripten; node-acorn is the parser emcc's JS
  # optimizer loads through NODE_PATH (Debian does not put it beside emcc).
  wasm) packages+=(emscripten node-acorn) ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  t=$SECONDS
  log "installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  log "apt-get install: $((SECONDS - t)) s"
fi

# ---- deb-src lines ----
# apt-get source needs the Sources indexes. For every enabled 'deb' entry of
# this Debian release (its suite is the codename or codename-something, so
# third-party repositories are left alone) a matching 'deb-src' entry is
# written to one file of our own, in the same format as the entry: deb822
# stanzas from *.sources, one-line entries from sources.list and *.list.
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
add_deb_src() {
  local dir=/etc/apt/sources.list.d out822 outlist f
  out822=$(mktemp) outlist=$(mktemp)
  for f in "$dir"/*.sources; do
    [ -f "$f" ] || continue
    case "$f" in */ferry-deb-src.sources) continue ;; esac
    # A stanza is kept if Types has deb and not deb-src and a suite is of
    # this release; it is printed again with Types: deb-src.
    awk -v rel="$codename" '
      function flush() {
        if (n && has_deb && !has_src && ours && enabled) {
          print "Types: deb-src"
          for (i = 1; i <= n; i++) if (lines[i] !~ /^Types:/) print lines[i]
          print ""
        }
        n = 0; has_deb = has_src = ours = 0; enabled = 1
      }
      BEGIN { enabled = 1 }
      /^[ \t]*$/ { flush(); next }
      /^#/ { next }
      {
        lines[++n] = $0
        if ($1 == "Types:") for (i = 2; i <= NF; i++) { if ($i == "deb") has_deb = 1; if ($i == "deb-src") has_src = 1 }
        if ($1 == "Suites:") for (i = 2; i <= NF; i++) if ($i == rel || index($i, rel "-") == 1) ours = 1
        if ($1 == "Enabled:" && tolower($2) == "no") enabled = 0
      }
      END { flush() }' "$f" >>"$out822"
  done
  for f in /etc/apt/sources.list "$dir"/*.list; do
    [ -f "$f" ] || continue
    case "$f" in */ferry-deb-src.list) continue ;; esac
    # deb [options] URI SUITE COMPONENTS...: the suite is the first field
    # after the URI (options are one bracketed group).
    awk -v rel="$codename" '
      $1 != "deb" { next }
      {
        s = 3; if ($2 ~ /^\[/) { while (s <= NF && $(s - 1) !~ /\]$/) s++; s++ }
        if ($s == rel || index($s, rel "-") == 1) { sub(/^deb/, "deb-src"); print }
      }' "$f" >>"$outlist"
  done
  if [ -s "$out822" ]; then "${as_root[@]}" install -m 644 "$out822" "$dir/ferry-deb-src.sources"; fi
  if [ -s "$outlist" ]; then "${as_root[@]}" install -m 644 "$outlist" "$dir/ferry-deb-src.list"; fi
  rm -f "$out822" "$outlist"
  [ -s "$dir/ferry-deb-src.sources" ] || [ -s "$dir/ferry-deb-src.list" ]
}
# The source version apt would fetch (empty if apt has no Sources index).
source_version() {
  apt-get source --print-uris -qq "$1" 2>/dev/null | awk -v p="$1" '
    $2 ~ "\\.dsc$" { v = $2; sub("^" p "_", "", v); sub("\\.dsc$", "", v); print v; exit }'
}
if [ -z "$(source_version zlib)" ]; then
  if ! grep -rqsE '^[[:space:]]*deb-src[[:space:]]|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    log "adding deb-src entries for $codename"
    add_deb_src || { echo "deps: found no Debian '$codename' entry in apt's sources to add deb-src lines for" >&2; exit 1; }
  fi
  "${as_root[@]}" apt-get update -qq
  [ -n "$(source_version zlib)" ] || { echo "deps: apt has no source package index even after adding deb-src lines" >&2; exit 1; }
fi

# ---- the target's compilers ----
repo=$(cd "$(dirname "$0")/../.." && pwd)
case "$target" in
  mingw64)
    host=x86_64-w64-mingw32
    export CC=$host-gcc AR=$host-ar RANLIB=$host-ranlib
    toolchain=$repo/cmake/toolchain-mingw64.cmake
    compiler_id=$($CC --version | head -n 1)
    run_configure() { ./configure --host=$host "$@"; }
    run_make() { make "$@"; }
    ;;
  wasm)
    host=wasm32-unknown-emscripten
    export NODE_PATH=/usr/share/nodejs   # node-acorn, see above
    # Debian's emcc runs ${EMSDK_PYTHON:-python3}: Debian's own python3, not
    # whatever python3 comes first on PATH (a pyenv shim costs 0.4 s a call,
    # and a configure step calls emcc hundreds of times).
    export EMSDK_PYTHON=/usr/bin/python3
    export CC=emcc AR=emar RANLIB=emranlib
    toolchain=$repo/cmake/toolchain-wasm.cmake
    compiler_id=$(emcc --version | head -n 1)
    run_configure() { emconfigure ./configure --host=$host "$@"; }
    run_make() { emmake make "$@"; }
    ;;
esac
export CFLAGS=-O2
unset CPPFLAGS LDFLAGS LIBS
cmake_configure() {
  cmake -S . -B ferry-build -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DFERRY_DEPS_PREFIX="$prefix" \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release "$@"
}

# Debian's autotools-dev config.sub and config.guess over a package's own,
# as Debian's build does (dh_update_autotools_config): lzo2's 2017 copy does
# not know wasm32-unknown-emscripten.
update_config_scripts() {
  local f
  find . -name config.sub -o -name config.guess | while read -r f; do
    cp "/usr/share/misc/$(basename "$f")" "$f"
  done
}

# ---- the recipes: one function per Debian source package ----
# Each runs in a fresh copy of the unpacked, patched source and installs
# static libraries, headers and .pc files into $prefix.

build_zlib() {
  # zlib's own configure (not autoconf): CHOST picks the cross tools and,
  # for mingw, the Windows flavour; --static builds libz.a only.
  CHOST=$host run_configure_zlib --static --prefix="$prefix"
  run_make -j"$jobs" libz.a
  run_make install
}
run_configure_zlib() {
  if [ "$target" = wasm ]; then emconfigure ./configure "$@"; else ./configure "$@"; fi
}

build_libpng1.6() {
  # zlib from the prefix. No hardware optimizations: none exists for wasm,
  # and for x86_64 the SSE code is the same either way but keeps the
  # library the one Debian builds for amd64 only (not used for MinGW).
  update_config_scripts
  run_configure --prefix="$prefix" --disable-shared --enable-static \
    --disable-hardware-optimizations \
    CPPFLAGS="-I$prefix/include" LDFLAGS="-L$prefix/lib"
  run_make -j"$jobs"
  run_make install
}

build_jansson() {
  # jansson's Debian source has no generated configure: its CMake build.
  # No docs (sphinx), examples or tests; static only (the default).
  # MinGW: jansson_private.h turns snprintf into msvcrt's _snprintf for any
  # Windows compiler but MSVC, and msvcrt's %g rounds a tie away from zero
  # (331.9765625 to 9 digits: 331.976563) where glibc rounds it to even
  # (331.976562), so glTF written on Windows would differ from Linux's. The
  # two lines go, and MinGW's own C99 printf family is used, as for libferry.
  local flags=$CFLAGS
  if [ "$target" = mingw64 ]; then
    sed -i '/Other Windows compiller/,/^#endif/{/#define snprintf  *_snprintf/d;/#define vsnprintf _vsnprintf/d}' \
      src/jansson_private.h
    if sed -n '/Other Windows compiller/,/^#endif/p' src/jansson_private.h | grep -q '#define'; then
      echo "jansson_private.h: its Windows snprintf lines are not the ones expected" >&2
      return 1
    fi
    flags="$flags -D__USE_MINGW_ANSI_STDIO=1"
  fi
  cmake_configure -DJANSSON_BUILD_DOCS=OFF -DJANSSON_EXAMPLES=OFF -DJANSSON_WITHOUT_TESTS=ON \
    -DJANSSON_BUILD_SHARED_LIBS=OFF -DCMAKE_C_FLAGS="$flags"
  cmake --build ferry-build -j "$jobs"
  cmake --install ferry-build
}

build_lzo2() {
  # -DLZO_CFG_MODERN_C=1: Debian's own CPPFLAGS for lzo2 (debian/rules).
  update_config_scripts
  run_configure --prefix="$prefix" --disable-shared --enable-static CPPFLAGS=-DLZO_CFG_MODERN_C=1
  run_make -j"$jobs" src/liblzo2.la
  run_make install-libLTLIBRARIES install-pkgincludeHEADERS install-pkgconfigDATA
}

build_nettle() {
  # libferry uses SHA-1 only: no public-key part (hogweed, which needs GMP),
  # no documentation (makeinfo), no shared library. The library alone
  # (all-here), not the tools, testsuite and examples. wasm has no
  # assembly; x86_64 MinGW keeps nettle's W64-ABI assembly.
  # Debian's fPIC.patch changes aclocal.m4 and configure together, which
  # leaves stamp-h.in older than aclocal.m4 and make would rerun autoheader
  # (not installed): the patched configure is current, so are the stamps.
  local asm=()
  [ "$target" = wasm ] && asm=(--disable-assembler)
  update_config_scripts
  touch stamp-h.in config.h.in
  run_configure --prefix="$prefix" --disable-shared --enable-static --disable-public-key \
    --disable-documentation --disable-openssl "${asm[@]}"
  run_make -j"$jobs" all-here
  run_make install-headers install-static install-pkgconfig
}

build_giflib() {
  # giflib's plain Makefile: libgif.a alone (the default target also builds
  # the shared library, utilities and docs). No .pc file upstream or in
  # Debian: CMake finds gif_lib.h and libgif.a under the prefix.
  run_make -j"$jobs" libgif.a CC="$CC" AR="$AR" OFLAGS="$CFLAGS"
  install -d "$prefix/include" "$prefix/lib"
  install -m 644 gif_lib.h "$prefix/include/"
  install -m 644 libgif.a "$prefix/lib/"
}

build_libstb() {
  # Debian's Makefile (debian/patches/0001-Makefile-refactor.patch): every
  # header's implementation in libstb.a, as Debian's libstb-dev ships, and
  # stb.pc. MULTIARCH empty: lib/, not lib/<triplet>/. emcc refuses an
  # implicit declaration: stb_dxt.h calls memcpy without <string.h>.
  local cppflags=
  [ "$target" = wasm ] && cppflags="-include string.h"
  CPPFLAGS=$cppflags run_make -j"$jobs" libstb.a stb.pc CC="$CC" AR="$AR" MULTIARCH= \
    PREFIX="$prefix" LIBDIR=lib
  run_make install-static install-header MULTIARCH= PREFIX="$prefix" LIBDIR=lib
}

# The prefix holds static libraries only, so what a .pc file lists as
# private (libpng's zlib) is needed by every link: Requires.private and
# Libs.private are folded into Requires and Libs, and a plain
# `pkg-config --libs` (what CMake's pkg_check_modules uses) is complete.
fold_private_pc() {
  local pc tmp
  for pc in "$prefix"/lib/pkgconfig/*.pc; do
    grep -qE '^(Requires|Libs)\.private:' "$pc" || continue
    tmp=$(mktemp)
    awk '
      /^Requires(\.private)?:/ { v = $0; sub(/^[^:]*:[ \t]*/, "", v); if (v != "") req = req (req == "" ? "" : ", ") v; next }
      /^Libs(\.private)?:/ { v = $0; sub(/^[^:]*:[ \t]*/, "", v); if (v != "") libs = libs (libs == "" ? "" : " ") v; next }
      { print }
      END { if (req != "") print "Requires: " req; print "Libs: " libs }' "$pc" >"$tmp"
    mv "$tmp" "$pc"
  done
}

# Build order: libpng needs zlib.
sources=(zlib libpng1.6 jansson lzo2 nettle giflib libstb)

# Versions apt offers for a source package, newest first.
source_versions() {
  apt-cache showsrc "$1" 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -u -r -V
}
# Downloads and unpacks PKG=VERSION into $srcroot/PKG_VERSION/ (once).
fetch_source() {
  local pkg=$1 ver=$2 dir=$srcroot/${1}_$2
  if [ ! -f "$dir/.unpacked" ]; then
    rm -rf "$dir"; mkdir -p "$dir"
    # _apt cannot write into root's home: apt downloads as root then, and says so.
    if ! (cd "$dir" && apt-get source -qq "$pkg=$ver" >fetch.log 2>&1); then
      rm -rf "$dir"
      return 1
    fi
    touch "$dir/.unpacked"
  fi
  find "$dir" -mindepth 1 -maxdepth 1 -type d | head -n 1
}

# What a stamp depends on besides the version: the recipe, the compiler, the
# flags and the CMake toolchain file.
recipe_hash() {
  { declare -f "build_$1" fold_private_pc update_config_scripts run_configure run_make cmake_configure run_configure_zlib
    echo "$compiler_id $CFLAGS"; cat "$toolchain"; } | sha1sum | cut -c1-12
}

built=0
for pkg in "${sources[@]}"; do
  hash=$(recipe_hash "$pkg")
  done_pkg=false
  for ver in $(source_versions "$pkg"); do
    stamp=$stamps/${pkg}_${ver}_$hash
    if [ -f "$stamp" ]; then
      log "$pkg $ver: up to date"
      done_pkg=true; break
    fi
    # A version the mirror did not have is tried again a day later, not on
    # every run (apt's index can list a version before its files are there).
    unavailable=$srcroot/${pkg}_$ver.unavailable
    if [ -n "$(find "$unavailable" -mmin -1440 2>/dev/null)" ]; then
      log "$pkg $ver: not on the mirror at the last try, using an older version"
      continue
    fi
    t=$SECONDS
    if ! src=$(fetch_source "$pkg" "$ver"); then
      log "$pkg $ver: apt-get source failed (the mirror may not have it yet), trying an older version"
      touch "$unavailable"
      continue
    fi
    rm -f "$unavailable"
    log "$pkg $ver: building (fetched in $((SECONDS - t)) s)"
    t=$SECONDS
    work=$buildroot/$pkg
    rm -rf "$work"; cp -a "$src" "$work"
    rm -f "$stamps/${pkg}"_*
    if ! (cd "$work" && "build_$pkg" && fold_private_pc) >"$buildroot/$pkg.log" 2>&1; then
      tail -n 40 "$buildroot/$pkg.log" >&2
      echo "deps: building $pkg $ver for $target failed; full log: $buildroot/$pkg.log" >&2
      exit 1
    fi
    echo "$pkg $ver built in $((SECONDS - t)) s" >"$stamp"
    log "$pkg $ver: built in $((SECONDS - t)) s"
    rm -rf "$work"
    built=$((built + 1)); done_pkg=true
    break
  done
  $done_pkg || { echo "deps: no version of source package $pkg could be fetched" >&2; exit 1; }
done

# ---- the packages' copyright files ----
# debian/copyright of each source package built, into PREFIX/share/licenses
# (make dist-windows puts them in the zip beside the libraries they cover).
mkdir -p "$prefix/share/licenses"
for pkg in "${sources[@]}"; do
  stamp=$(find "$stamps" -name "${pkg}_*" ! -name 'check_*' | head -n 1)
  ver=${stamp##*/${pkg}_}
  ver=${ver%_*}
  copyright=$(find "$srcroot/${pkg}_$ver" -mindepth 3 -maxdepth 3 -path '*/debian/copyright' 2>/dev/null | head -n 1)
  [ -n "$copyright" ] && cp "$copyright" "$prefix/share/licenses/$pkg.copyright"
done

# ---- check: every library linked into one program, run on the target ----
# tools/cross/deps_check.c under wine (its own WINEPREFIX in the cache, so
# ~/.wine is left alone; the first run creates it, ~15 s) or node. Once per
# set of stamps.
package_stamps() { local f; for f in "$stamps"/*; do case ${f##*/} in check_*) ;; *) echo "${f##*/}" ;; esac; done; }
check_stamp=$stamps/check_$({ package_stamps; cat "$repo/tools/cross/deps_check.c"; } | sha1sum | cut -c1-12)
if [ ! -f "$check_stamp" ]; then
  t=$SECONDS
  checkdir=$buildroot/check
  rm -rf "$checkdir"; mkdir -p "$checkdir"
  # giflib has no .pc file: -lgif by hand.
  libs=$(PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig pkg-config --cflags --libs jansson libpng lzo2 nettle stb zlib)
  case "$target" in
    mingw64)
      # shellcheck disable=SC2086
      $CC -std=c11 -Wall -Wextra -O2 "$repo/tools/cross/deps_check.c" $libs -lgif -static -o "$checkdir/deps_check.exe"
      export WINEPREFIX=$cache/wine WINEDEBUG=-all
      run_check=(wine "$checkdir/deps_check.exe")
      ;;
    wasm)
      # shellcheck disable=SC2086
      emcc -std=c11 -Wall -Wextra -O2 "$repo/tools/cross/deps_check.c" $libs -lgif -o "$checkdir/deps_check.js"
      run_check=(node --no-experimental-fetch "$checkdir/deps_check.js")
      ;;
  esac
  if ! "${run_check[@]}" >"$checkdir/out.txt" 2>&1 </dev/null; then
    cat "$checkdir/out.txt" >&2
    echo "deps: the libraries in $prefix do not work on $target (tools/cross/deps_check.c)" >&2
    exit 1
  fi
  rm -f "$stamps"/check_*
  cp "$checkdir/out.txt" "$check_stamp"
  log "check: $(grep -c ' ok' "$checkdir/out.txt") libraries work on $target ($((SECONDS - t)) s)"
fi

log "$built package(s) built, $(du -sh "$prefix" | cut -f1) in the prefix, $((SECONDS - script_start)) s in all"
echo "$prefix"
exit 0
}
