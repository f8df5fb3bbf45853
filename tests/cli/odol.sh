#!/usr/bin/env bash
# ODOL (binarized P3D) files through the tool: the real v40 models of
# ../shared/corpus/odol inspect, validate and rewrite byte-identically;
# truncated copies fail with a location; the v48 and v50 models inspect,
# validate and rewrite byte-identically; other versions are refused by name;
# usage errors exit 2. Skips without ../shared.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
corpus="$SHARED/corpus/odol"
[ -d "$corpus/v40" ] || skip "$corpus is absent"
models=("$corpus"/v40/*.p3d)
check "corpus has v40 models" test ${#models[@]} -ge 6
expect 0 "validate every v40 model" -- "$FERRY" validate --json "${models[@]}"
check "no v40 model has errors" jq -e 'length == '${#models[@]}' and all(.[]; .error_count == 0 and .format == "ODOL")' "$tmp/out" >/dev/null
expect 0 "info --json" -- "$FERRY" info --json "${models[@]}"
check "info lists every LOD with a name" jq -e 'all(.[]; (.lods | length) > 0 and all(.lods[]; .name != ""))' "$tmp/out" >/dev/null
check "GyroP has 18 LODs incl. Geometry and Memory" jq -e '.[] | select(.file | endswith("CSJ_GyroP.p3d")) | (.lods | length) == 18 and any(.lods[]; .name == "Geometry") and any(.lods[]; .name == "Memory")' "$tmp/out" >/dev/null
for f in "${models[@]}"; do
  name=$(basename "$f")
  expect 0 "rewrite $name" -- "$FERRY" convert "$f" "$tmp/x.p3d"
  check "$name rewrites byte-identically" cmp -s "$f" "$tmp/x.p3d"
  expect 0 "dump $name" -- "$FERRY" dump "$f"
  expect 0 "dump --json $name" -- "$FERRY" dump --json "$f"
  check "$name dump --json parses and has every LOD" jq -e '(.lods | length) > 0 and all(.lods[]; has("face_list"))' "$tmp/out" >/dev/null
  size=$(stat -c %s "$f")
  for cut in 7 $((size / 3)) $((size - 1)); do
    head -c "$cut" "$f" >"$tmp/cut.p3d"
    expect 1 "$name cut at $cut" -- "$FERRY" validate "$tmp/cut.p3d"
    check "$name cut at $cut: located message" grep -q "offset 0x" "$tmp/err"
  done
done
for f in "$corpus"/v48/*.p3d "$corpus"/v50/*.p3d; do
  [ -f "$f" ] || continue
  v=$(basename "$(dirname "$f")"); v=${v#v}
  name=$(basename "$f")
  expect 0 "info $name (v$v)" -- "$FERRY" info "$f"
  check "$name: info names version $v" grep -q "ODOL version $v" "$tmp/out"
  expect 0 "validate $name (v$v)" -- "$FERRY" validate "$f"
  check "$name: 0 errors, 0 warnings" grep -q ": 0 errors, 0 warnings" "$tmp/out"
  expect 0 "rewrite $name" -- "$FERRY" convert "$f" "$tmp/later.p3d"
  check "$name rewrites byte-identically" cmp -s "$f" "$tmp/later.p3d"
  if [ "$v" = 50 ]; then
    # Version 51 is not read: patch the version field of a real v50 file.
    { head -c 4 "$f"; printf '\x33'; tail -c +6 "$f"; } >"$tmp/v51.p3d"
    expect 1 "$name patched to v51 is refused" -- "$FERRY" info "$tmp/v51.p3d"
    check "$name patched to v51: the message names version 51" grep -q "version 51" "$tmp/err"
  fi
done
expect 2 "convert to an unknown extension" -- "$FERRY" convert "${models[0]}" "$tmp/x.obj"
expect 2 "--lod without a number" -- "$FERRY" convert "${models[0]}" "$tmp/x.glb" --lod
expect 2 "--lod on a .p3d output" -- "$FERRY" convert "${models[0]}" "$tmp/x.p3d" --lod 0
expect 1 "convert a missing file" -- "$FERRY" convert "$tmp/none.p3d" "$tmp/y.p3d"
expect 2 "never overwrite the input" -- "$FERRY" convert "$tmp/x.p3d" "$tmp/x.p3d"
check "the input is intact" cmp -s "${models[${#models[@]}-1]}" "$tmp/x.p3d"
expect 0 "convert --help mentions P3D" -- "$FERRY" convert --help
check "help text lists .p3d" grep -q "IN.p3d" "$tmp/out"
finish
