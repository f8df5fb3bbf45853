#!/usr/bin/env bash
# The main job on the bundled samples: summarise, validate and rewrite them.
set -euo pipefail
ferry=${1:-build/ferry}
cd "$(dirname "$0")/.."
out=out/demo
mkdir -p "$out"
samples=(samples/alamo/*.alo)
echo "== ferry info =="
"$ferry" info "${samples[@]}"
echo
echo "== ferry validate =="
"$ferry" validate "${samples[@]}" || true
echo
echo "== ferry dump (first lines of ${samples[0]}) =="
"$ferry" dump "${samples[0]}" | head -n 25
echo
echo "== ferry convert: rewrite each sample and compare =="
for f in "${samples[@]}"; do
  dest="$out/$(basename "$f")"
  "$ferry" convert "$f" "$dest"
  if cmp -s "$f" "$dest"; then echo "$f -> $dest: byte-identical"; else echo "$f -> $dest: DIFFERS"; exit 1; fi
done
