#!/usr/bin/env bash
# Folders walked by `convert -r` and `validate -r`: a subfolder that cannot
# be read is a failure (exit 1), named in the summary and listed with its
# reason in --json; `validate -r` checks every file ferry recognises by
# content (animations against their models) and skips the rest.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
S="$SRC/samples/alamo"
T="timeout 60"

# ---- convert -r: a folder the batch cannot read ----
if [ "$(id -u)" -ne 0 ]; then
  as_user() { "$@"; }
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
  as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
  as_user=""
fi
if [ "$(type -t as_user)" = function ]; then
  chmod 755 "$tmp"
  mkdir -p "$tmp/np/in/locked" "$tmp/np/out"
  cp "$S/crate.alo" "$tmp/np/in/"
  cp "$S/crate.alo" "$tmp/np/in/locked/"
  chmod -R a+rwX "$tmp/np"
  chmod 700 "$tmp/np/in/locked"
  [ "$(id -u)" -ne 0 ] && chmod 000 "$tmp/np/in/locked"
  UFERRY=$(ferry_for_user)
  if [ -z "$UFERRY" ]; then
    left_out "the unreadable-folder checks (the unprivileged user cannot run a copy of ferry here)"
  elif as_user test -r "$tmp/np/in/locked"; then
    left_out "the unreadable-folder checks (cannot make a folder unreadable for this user here)"
  else
    expect 1 "convert -r with an unreadable folder fails" -- as_user $T "$UFERRY" convert -r --no-textures "$tmp/np/in" "$tmp/np/out"
    check "the folder is named as it is met" grep -q "cannot read the folder .*in/locked: Permission denied" "$tmp/err"
    check "the summary still counts the file converted" grep -q "1 of 1 files converted" "$tmp/err"
    check "the summary names the folder" grep -q "^1 folder could not be read:" "$tmp/err"
    check "with its reason" grep -q "^  .*np/in/locked: Permission denied" "$tmp/err"
    expect 1 "convert -r --json with an unreadable folder" -- as_user $T "$UFERRY" convert -r --json --no-textures "$tmp/np/in" "$tmp/np/out2"
    check "JSON: counts and the folder with its reason" \
      jq -e '.converted == 1 and .failed == 0 and .failed_folders == 1 and .skipped_folders == 1
             and (.skipped_folder_list | length) == 1
             and (.skipped_folder_list[0].path | endswith("np/in/locked"))
             and .skipped_folder_list[0].reason == "Permission denied"
             and .skipped_folder_list[0].failed == true' "$tmp/out" >/dev/null
    expect 1 "validate -r with an unreadable folder fails" -- as_user $T "$UFERRY" validate -r --no-textures "$tmp/np/in"
    check "validate names the folder" grep -q "cannot read the folder .*in/locked: Permission denied" "$tmp/err"
    expect 1 "validate -r --json with an unreadable folder" -- as_user $T "$UFERRY" validate -r --json --no-textures "$tmp/np/in"
    check "JSON: the folder has an entry of the read_error shape" \
      jq -e 'map(select(.file | endswith("np/in/locked")))[0] | .valid == false and (.read_error.message | test("Permission denied"))' "$tmp/out" >/dev/null
    chmod 755 "$tmp/np/in/locked"
  fi
else
  left_out "the unreadable-folder checks (setpriv unavailable as root)"
fi

# ---- convert -r --json: link loops listed with their reasons ----
mkdir -p "$tmp/loop/d"
cp "$S/crate.alo" "$tmp/loop/d/"
ln -s .. "$tmp/loop/d/up"
expect 0 "a link loop alone is no failure" -- $T "$FERRY" convert -r --json --no-textures "$tmp/loop" "$tmp/loop-out"
check "JSON: the loop listed, not failed" \
  jq -e '.skipped_folders == 1 and .failed_folders == 0 and (.skipped_folder_list[0].path | endswith("loop/d/up"))
         and (.skipped_folder_list[0].reason | test("already visited")) and .skipped_folder_list[0].failed == false' "$tmp/out" >/dev/null

# ---- validate -r: a mod folder ----
mkdir -p "$tmp/mod/Models/sub" "$tmp/mod/Textures"
cp "$S/walker.alo" "$S/walker_walk_00.ala" "$tmp/mod/Models/"
cp "$S/crate.alo" "$tmp/mod/Models/sub/"
cp "$SRC/samples/odol/box.p3d" "$tmp/mod/Models/sub/"
printf 'DDS |\x00\x00\x00' >"$tmp/mod/Textures/w.dds"
printf '<?xml version="1.0"?><x/>\n' >"$tmp/mod/units.xml"
expect 1 "validate on a folder without -r" -- "$FERRY" validate --no-textures "$tmp/mod/Models"
check "says it is a folder and suggests -r" grep -q "is a folder.*-r" "$tmp/err"
expect 0 "validate -r on a mod folder" -- $T "$FERRY" validate -r --no-textures "$tmp/mod"
check "the model is checked" grep -q "Models/walker.alo: 0 errors" "$tmp/out"
check "the animation is checked against its model" grep -q "Models/walker_walk_00.ala: 0 errors.*(against .*walker.alo)" "$tmp/out"
check "the subfolder's model is checked" grep -q "Models/sub/crate.alo: 0 errors" "$tmp/out"
check "the P3D is checked" grep -q "Models/sub/box.p3d: 0 errors" "$tmp/out"
check "nothing else is checked" test "$(grep -c ': 0 errors' "$tmp/out")" -eq 4
check "the summary counts the files and the skipped ones" grep -q "^4 files checked, 0 with errors, 2 skipped (no format ferry validates)" "$tmp/out"
check "textures are not errors" bash -c '! grep -q w.dds "$1/out" "$1/err"' _ "$tmp"
expect 0 "validate -r --json" -- $T "$FERRY" validate -r --json --no-textures "$tmp/mod"
check "JSON: one entry per checked file, all valid" jq -e 'length == 4 and all(.valid)' "$tmp/out" >/dev/null
check "JSON: the animation names its model" \
  jq -e '.[] | select(.file | endswith("walker_walk_00.ala")) | .model | endswith("walker.alo")' "$tmp/out" >/dev/null
check "the skipped count on stderr" grep -q "2 files skipped (no format ferry validates)" "$tmp/err"
head -c 200 "$S/crate.alo" >"$tmp/mod/Models/sub/broken.alo"
: >"$tmp/mod/Models/empty.alo"
expect 1 "a broken model in the tree fails" -- $T "$FERRY" validate -r --no-textures "$tmp/mod"
check "the broken model is named with an offset" grep -q "broken.alo: .*offset 0x" "$tmp/err"
check "an empty file named .alo is an error, not skipped" grep -q "empty.alo: .*empty" "$tmp/err"
check "the summary counts them" grep -q "^6 files checked, 2 with errors, 2 skipped" "$tmp/out"
: >"$tmp/mod/Textures/empty.paa"
expect 1 "an empty file named .paa is checked too" -- $T "$FERRY" validate -r --no-textures "$tmp/mod"
check "named as an error, not skipped" grep -q "empty.paa: .*empty" "$tmp/err"
check "the summary counts it" grep -q "^7 files checked, 3 with errors, 2 skipped" "$tmp/out"
rm "$tmp/mod/Textures/empty.paa"
expect 0 "validate -r takes files too" -- $T "$FERRY" validate -r --no-textures "$S/crate.alo" "$tmp/mod/Models/walker.alo"
expect 2 "validate -r on a missing folder" -- $T "$FERRY" validate -r "$tmp/nothing"
validate_help() { "$FERRY" validate --help | grep -q -- "-r"; }
check "validate --help names -r" validate_help

# ---- validate -r on the corpus: every shipped file passes ----
if [ -d "$SHARED/corpus/alamo" ]; then
  expect 0 "validate -r on the Alamo corpus" -- timeout 900 "$FERRY" validate -r "$SHARED/corpus/alamo"
  check "files were checked" grep -q "files checked, 0 with errors" "$tmp/out"
else
  left_out "validate -r on the Alamo corpus ($SHARED/corpus/alamo is absent)"
fi

finish
