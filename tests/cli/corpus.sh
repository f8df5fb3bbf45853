#!/usr/bin/env bash
# Real models from ../shared/corpus through the tool: each validates without
# errors and converts byte-identically; truncated copies fail with an offset.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
corpus="$SHARED/corpus/alamo"
[ -d "$corpus" ] || skip "$corpus is absent"
models=()
while IFS= read -r -d '' f; do
  # Only models (first chunk 0x200); particle systems come in a later issue.
  if [ "$(head -c 4 "$f" | od -An -tx4 | tr -d ' ')" = "00000200" ]; then models+=("$f"); fi
done < <(find "$corpus" -iname '*.alo' -print0 | sort -z)
check "corpus has models" test ${#models[@]} -gt 0
expect 0 "validate every corpus model" -- "$FERRY" validate --json "${models[@]}"
check "no corpus model has errors" jq -e 'all(.[]; .error_count == 0)' "$tmp/out" >/dev/null
for f in "${models[@]}"; do
  expect 0 "convert $(basename "$f")" -- "$FERRY" convert "$f" "$tmp/x.alo"
  check "$(basename "$f") rewrites byte-identically" cmp -s "$f" "$tmp/x.alo"
  size=$(stat -c %s "$f")
  for cut in 7 $((size / 3)) $((size - 1)); do
    head -c "$cut" "$f" >"$tmp/cut.alo"
    expect 1 "$(basename "$f") cut at $cut" -- "$FERRY" validate "$tmp/cut.alo"
    check "$(basename "$f") cut at $cut: located message" grep -q "offset 0x" "$tmp/err"
  done
done
echo "${#models[@]} corpus models checked"
finish
