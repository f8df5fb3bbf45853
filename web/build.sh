#!/usr/bin/env bash
# make web: the web viewer as a static folder, BUILD/web (docs/web.md).
#
#   bash web/build.sh [BUILD]      (default BUILD: build)
#
# 1. The WebAssembly dependencies (Debian's source packages, built once per
#    machine outside the tree by tools/cross/deps.sh wasm) when the prefix
#    lacks them.
# 2. libferry and web/src/ferry_web.c with Debian's emscripten
#    (cmake/toolchain-wasm.cmake) in BUILD/wasm: ferry.js and ferry.wasm.
# 3. three.js from npm at the version web/package-lock.json pins (npm ci).
# 4. BUILD/web: index.html, style.css, js/, ferry.js, ferry.wasm and the
#    three.js files the page imports, with their licence. Nothing is
#    fetched by the page from anywhere else.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
prefix=${FERRY_DEPS_PREFIX:-${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}/wasm}

missing=0
for pc in jansson libpng lzo2 nettle stb zlib; do
  [ -f "$prefix/lib/pkgconfig/$pc.pc" ] || missing=1
done
if [ "$missing" = 1 ]; then
  echo "web: the WebAssembly dependencies are not in $prefix: building them (tools/cross/deps.sh wasm)" >&2
  bash tools/cross/deps.sh wasm
fi
if ! command -v emcc >/dev/null 2>&1; then
  echo "web: emcc is missing: apt-get install emscripten node-acorn (tools/cross/deps.sh wasm does)" >&2
  exit 1
fi

wasm="$build/wasm"
if [ ! -f "$wasm/CMakeCache.txt" ]; then
  cmake -S . -B "$wasm" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-wasm.cmake" -DFERRY_DEPS_PREFIX="$prefix" \
        -DCMAKE_BUILD_TYPE=Release -DFERRY_ASSIMP=OFF -DFERRY_CLI=OFF -DFERRY_TESTS=OFF -DFERRY_BENCH=OFF >/dev/null
fi
cmake --build "$wasm" --target ferry_web -j "${JOBS:-2}"

three_version=$(sed -n 's/.*"three": "\(.*\)".*/\1/p' web/package.json)
if [ ! -f web/node_modules/three/package.json ] ||
   ! grep -q "\"version\": \"$three_version\"" web/node_modules/three/package.json; then
  (cd web && npm ci --no-audit --no-fund)
fi

out="$build/web"
tmp="$build/web.tmp"
rm -rf "$tmp"
mkdir -p "$tmp/js" "$tmp/three/build" "$tmp/three/examples/jsm/loaders" "$tmp/three/examples/jsm/controls" \
         "$tmp/three/examples/jsm/utils"
cp web/index.html web/style.css "$tmp/"
cp web/js/*.js "$tmp/js/"
cp "$wasm/web/ferry.js" "$wasm/web/ferry.wasm" "$tmp/"
three=web/node_modules/three
cp "$three/LICENSE" "$three/package.json" "$tmp/three/"
cp "$three/build/three.module.js" "$three/build/three.core.js" "$tmp/three/build/"
cp "$three/examples/jsm/loaders/GLTFLoader.js" "$tmp/three/examples/jsm/loaders/"
cp "$three/examples/jsm/controls/OrbitControls.js" "$tmp/three/examples/jsm/controls/"
cp "$three/examples/jsm/utils/BufferGeometryUtils.js" "$three/examples/jsm/utils/SkeletonUtils.js" \
   "$tmp/three/examples/jsm/utils/"
# The page's Content-Security-Policy allows its one inline script, the
# import map, by its hash.
hash=$(python3 - "$tmp/index.html" <<'PY'
import base64, hashlib, re, sys
html = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'<script type="importmap">(.*?)</script>', html, re.S)
print(base64.b64encode(hashlib.sha256(m.group(1).encode()).digest()).decode())
PY
)
sed -i "s|script-src 'self'|script-src 'self' 'sha256-$hash'|" "$tmp/index.html"
rm -rf "$out"
mv "$tmp" "$out"
echo "web: $out ($(du -sh "$out" | cut -f1); ferry.wasm $(stat -c %s "$out/ferry.wasm") bytes)"
