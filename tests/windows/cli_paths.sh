#!/usr/bin/env bash
# ferry.exe under wine on what Windows makes hard (issue 23's list): folders
# and files named in Cyrillic, Greek and CJK; paths over 260 characters; a
# read-only output folder; an archive with hostile entry names extracted
# (nothing written outside the folder, C:\ of the wine prefix included).
# Every output is compared with the Linux build's for the same input.
#
#   bash tests/windows/cli_paths.sh SRC WINDOWS_BUILD NATIVE_BUILD
#
# The read-only folder needs an account its mode stops: as root the
# command runs as nobody, with the wine prefix tests/windows/platform.sh
# makes for nobody (made here when missing).
set -u
SRC=$(cd "$1" && pwd) WIN=$(cd "$2" && pwd) NATIVE=$(cd "$3" && pwd)
. "$SRC/tests/cli/lib.bash"
command -v wine >/dev/null 2>&1 || skip "wine is not installed"
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}/wine}
exe=$WIN/ferry.exe
lin=$NATIVE/ferry
walker=$SRC/samples/alamo/walker.alo
chmod 755 "$tmp"

# ---- names in Cyrillic, Greek and CJK ----
intl=$tmp/Модели/Μοντέλα/模型
mkdir -p "$intl" "$tmp/linux"
cp "$walker" "$intl/шагоход.alo"
cp "$walker" "$tmp/linux/шагоход.alo"
expect 0 "info in a Cyrillic/Greek/CJK folder" -- wine "$exe" info "$intl/шагоход.alo"
check "info names the file in UTF-8" grep -q "^$intl/шагоход.alo: ALO model" "$tmp/out"
expect 0 "convert there, the output beside it" -- wine "$exe" convert --no-textures "$intl/шагоход.alo" "$intl/步行者.glb"
(cd "$tmp/linux" && "$lin" convert --no-textures шагоход.alo 步行者.glb) >/dev/null 2>&1
check "the glTF is the Linux build's" same_output "$intl/步行者.glb" "$tmp/linux/步行者.glb"
expect 0 "rewrite to a Greek name" -- wine "$exe" convert "$intl/шагоход.alo" "$intl/βάδισμα.alo"
check "the rewrite is byte for byte" cmp -s "$walker" "$intl/βάδισμα.alo"
expect 0 "validate -r walks the folders" -- wine "$exe" validate -r "$tmp/Модели"
check "validate -r found both models" grep -q "2 files" "$tmp/out" 
expect 0 "pack a folder with such names (PBO)" -- wine "$exe" pack "$tmp/международный.pbo" "$tmp/Модели"
expect 0 "list it" -- wine "$exe" list "$tmp/международный.pbo"
check "the entry's name is stored in UTF-8" grep -q 'Μοντέλα\\模型\\шагоход.alo' "$tmp/out"
expect 0 "extract it into a CJK folder" -- wine "$exe" extract "$tmp/международный.pbo" "$tmp/解压"
check "the entry lands under its name" cmp -s "$walker" "$tmp/解压/Μοντέλα/模型/шагоход.alo"

# ---- paths over 260 characters ----
seg=abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklm   # 49 characters
long=$tmp/$seg/$seg/$seg/$seg/$seg/$seg
mkdir -p "$long/$seg"
cp "$walker" "$long/walker.alo"
echo "cli paths: the long folder is ${#long} characters"
check "the folder is over 260 characters" test "${#long}" -gt 260
expect 0 "info on a long path" -- wine "$exe" info "$long/walker.alo"
expect 0 "convert within a long path" -- wine "$exe" convert --no-textures "$long/walker.alo" "$long/walker.glb"
(cd "$tmp/linux" && cp "$walker" walker.alo && "$lin" convert --no-textures walker.alo walker.glb) >/dev/null 2>&1
check "the glTF is the Linux build's" same_output "$long/walker.glb" "$tmp/linux/walker.glb"
expect 0 "validate -r on a long path" -- wine "$exe" validate -r "$tmp/$seg"
expect 0 "pack from a long path (MEG)" -- wine "$exe" pack "$long/a.meg" "$long"
expect 0 "extract into a long path" -- wine "$exe" extract "$long/a.meg" "$long/$seg/out"
check "the extracted model is the input" cmp -s "$walker" "$long/$seg/out/WALKER.ALO"
expect 0 "convert -r into a long path" -- wine "$exe" convert -r --no-textures "$long" "$long/$seg/tree"
check "convert -r wrote the glTF" same_output "$long/$seg/tree/walker.glb" "$tmp/linux/walker.glb"

# ---- a hostile archive ----
# A MEG (format 1) whose names climb out, name a drive or a root, or clash
# by case; written here from the layout (docs/formats/meg.md).
python3 - "$tmp/bad.meg" "$walker" <<'PY'
import struct, sys
names = [b'..\\EVIL1.TXT', b'\\EVIL2.TXT', b'C:\\EVIL3.TXT', b'A\\..\\..\\EVIL4.TXT', b'GOOD.TXT',
         b'SAME.TXT', b'same.txt', b'/EVIL5.TXT', b'C:EVIL6.TXT', b'\\\\server\\share\\EVIL7.TXT',
         b'C:\\EVIL8.ALO', b'..\\EVIL9.ALO']
model = open(sys.argv[2], 'rb').read()
data = [b'ok' if n == b'GOOD.TXT' else model if n.endswith(b'.ALO') else b'x' for n in names]
head = struct.pack('<II', len(names), len(names)) + b''.join(struct.pack('<H', len(n)) + n for n in names)
start = len(head) + 20 * len(names)
records, blob = b'', b''
for i, d in enumerate(data):
    records += struct.pack('<IIIII', 0, i, len(d), start + len(blob), i)
    blob += d
open(sys.argv[1], 'wb').write(head + records + blob)
PY
mkdir -p "$tmp/h/out"
expect 1 "extract refuses the hostile names (exit 1)" -- wine "$exe" extract "$tmp/bad.meg" "$tmp/h/out"
check "the good entry is extracted" test "$(cat "$tmp/h/out/GOOD.TXT" 2>/dev/null)" = ok
check "nothing outside the folder" test -z "$(find "$tmp" -name 'EVIL*')"
check "nothing on the prefix's C:" test -z "$(find "$WINEPREFIX/drive_c" -maxdepth 3 -name 'EVIL*' 2>/dev/null)"
check "nothing in the current folder" test -z "$(find . -maxdepth 1 -name 'EVIL*')"
check "the drive letter is named" grep -q "drive letter" "$tmp/err"
check "the case clash is named" grep -q "equal but for case" "$tmp/err"
expect 1 "convert -r on it refuses the models named so (exit 1)" -- wine "$exe" convert -r "$tmp/bad.meg" "$tmp/h/tree"
check "still nothing outside" test -z "$(find "$tmp" -name 'EVIL*')"

# ---- a read-only output folder ----
as=()
ro_prefix=$WINEPREFIX
if [ "$(id -u)" -eq 0 ]; then
  if id nobody >/dev/null 2>&1 && command -v runuser >/dev/null 2>&1; then
    base=${TMPDIR:-/tmp}/ferry-windows-nobody
    mkdir -p "$base" && chown nobody: "$base"
    ro_prefix=$base/prefix
    as=(runuser -u nobody -- env HOME="$base" WINEPREFIX="$ro_prefix" WINEDEBUG=-all)
    [ -f "$ro_prefix/system.reg" ] || "${as[@]}" wineboot -i >/dev/null 2>&1
    cp "$exe" "$base/ferry.exe" && chmod 755 "$base/ferry.exe"
    exe_ro=$base/ferry.exe
  else
    left_out "the read-only folder: run as root, and no user nobody to run as"
  fi
else
  exe_ro=$exe
fi
if [ -n "${exe_ro:-}" ]; then
  mkdir -p "$tmp/ro"
  cp "$walker" "$tmp/ro-in.alo" && chmod 644 "$tmp/ro-in.alo"
  [ "$(id -u)" -eq 0 ] && chown nobody: "$tmp/ro"
  chmod 555 "$tmp/ro"
  expect 1 "convert into a read-only folder fails (exit 1)" -- "${as[@]}" wine "$exe_ro" convert --no-textures "$tmp/ro-in.alo" "$tmp/ro/w.glb"
  check "it says the folder refused the file" grep -q "cannot create a temporary file beside .*w.glb: Access denied" "$tmp/err"
  check "nothing is left in the folder" test -z "$(ls -A "$tmp/ro")"
  expect 1 "extract into a read-only folder fails (exit 1)" -- "${as[@]}" wine "$exe_ro" extract "$long/a.meg" "$tmp/ro"
  check "nothing is left in it" test -z "$(ls -A "$tmp/ro")"
  chmod 755 "$tmp/ro"
fi
finish
