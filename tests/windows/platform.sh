#!/usr/bin/env bash
# tests/test_platform.c built for Windows (x86_64-w64-mingw32-gcc, with the
# platform layer's Win32 side and the rest of src/core, -Werror) and run
# under wine. The read-only folder case needs an account that a folder's
# mode stops: run as root, the program runs as nobody, with a wine prefix
# of nobody's own (wine refuses a prefix its user does not own).
#
#   bash tests/windows/platform.sh SRC [WORKDIR [EXE]]
#
# EXE: a test_platform.exe already built (the cross build's ctest passes
# its own), copied instead of building one here.
# Skips (77) without MinGW-w64 or wine (Debian: gcc-mingw-w64-x86-64,
# wine). A new wine prefix takes some seconds to make; later runs reuse it.
set -u
SRC=$(cd "$1" && pwd)
prebuilt=${3:-}
tools=(wine)
[ -n "$prebuilt" ] || tools+=(x86_64-w64-mingw32-gcc)
for tool in "${tools[@]}"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "skipped: $tool is not installed"
    exit 77
  fi
done

as=()
user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
  if ! id nobody >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
    echo "skipped: run as root, and no user nobody (or runuser) to run as"
    exit 77
  fi
  user=nobody
  as=(runuser -u nobody --)
fi
# Outside the tree and readable by that user.
work=${2:-${TMPDIR:-/tmp}/ferry-windows-$user}
mkdir -p "$work"
[ "$user" = nobody ] && chown nobody: "$work"

start=$SECONDS
exe=$work/test_platform.exe
if [ -n "$prebuilt" ]; then
  cp "$prebuilt" "$exe"
elif ! x86_64-w64-mingw32-gcc -std=c11 -O2 -Wall -Wextra -Werror -D__USE_MINGW_ANSI_STDIO=1 -DFERRY_STATIC \
    -I"$SRC/include" -I"$SRC/src" -I"$SRC/tests" "$SRC"/src/core/*.c "$SRC/tests/test_platform.c" -o "$exe"; then
  echo "FAIL: test_platform.exe does not build"
  exit 1
fi
chmod 755 "$exe"
built=$SECONDS

export WINEPREFIX=$work/prefix WINEDEBUG=-all HOME=$work
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  "${as[@]}" env WINEPREFIX="$WINEPREFIX" WINEDEBUG=-all HOME="$work" wineboot -i >/dev/null 2>&1
fi
booted=$SECONDS
cd "$work" || exit 1
"${as[@]}" env WINEPREFIX="$WINEPREFIX" WINEDEBUG=-all HOME="$work" timeout 300 wine "$exe"
status=$?
echo "windows platform test as $user: build $((built - start)) s, prefix $((booted - built)) s, run $((SECONDS - booted)) s"
exit $status
