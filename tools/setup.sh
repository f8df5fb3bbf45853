#!/usr/bin/env bash
# The README's two set-up commands:
#   bash tools/setup.sh demo   install what is missing, build, run ferry on the bundled samples
#   bash tools/setup.sh test   install what is missing, build, run the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."

job=${1:-}
case "$job" in
  demo|test) ;;
  *) echo "usage: bash tools/setup.sh demo|test" >&2; exit 2 ;;
esac

# Debian packages the build and the tests need, each with the command or
# pkg-config module that shows it is present.
missing=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_cmd cc || missing+=(gcc libc6-dev)
have_cmd make || missing+=(make)
have_cmd cmake || missing+=(cmake)
have_cmd pkg-config || missing+=(pkg-config)
for module in jansson:libjansson-dev libpng:libpng-dev zlib:zlib1g-dev stb:libstb-dev lzo2:liblzo2-dev nettle:nettle-dev assimp:libassimp-dev; do
  if ! have_cmd pkg-config || ! pkg-config --exists "${module%%:*}"; then missing+=("${module#*:}"); fi
done
# meshoptimizer (the benchmarks' reference simplifier) has no pkg-config file.
[ -f /usr/include/meshoptimizer.h ] || missing+=(libmeshoptimizer-dev)
# libsquish: the DXT compressor the PAA writer's benchmark compares stb_dxt with.
[ -f /usr/include/squish.h ] || missing+=(libsquish-dev)
# libmicrohttpd: the HTTP server of `ferry view`.
if ! have_cmd pkg-config || ! pkg-config --exists libmicrohttpd; then missing+=(libmicrohttpd-dev); fi
# giflib (animated particle renders, ferry render OUT.gif) has no pkg-config file either.
[ -f /usr/include/gif_lib.h ] || missing+=(libgif-dev)
if [ "$job" = test ]; then
  have_cmd jq || missing+=(jq)
  # The Khronos glTF validator (tests/gltf) runs on node.
  have_cmd node || missing+=(nodejs)
  have_cmd npm || missing+=(npm)
  # The Python package's tests (pytest), and installing it offline into a
  # venv with Debian's setuptools and wheel (docs/python.md).
  for pkg in python3-pytest python3-venv python3-setuptools python3-wheel; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The validator package, at the version package-lock.json pins.
if [ "$job" = test ] && [ ! -d tests/gltf/node_modules ]; then
  (cd tests/gltf && npm ci --no-audit --no-fund)
fi

make
if [ "$job" = demo ]; then
  make demo
else
  make test
fi
