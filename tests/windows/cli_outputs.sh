#!/usr/bin/env bash
# The CLI's outputs on Windows against Linux's (tests/windows/outputs.sh
# runs this): the same commands, run by build/ferry and by ferry.exe under
# wine, each from a folder of its own holding the same relative paths, so
# that every path a command prints is spelt the same. Their stdout, their
# stderr, their exit statuses and every file they write are compared byte
# for byte.
#
#   bash tests/windows/cli_outputs.sh SRC LINUX_FERRY WINDOWS_FERRY_EXE OUT [CORPUS]
#
# On the samples: info and validate (text and --json), dump --json, convert
# of every model to .glb (and one .gltf), an ALM built from a model and
# back, rewrites (ALO, ALA, ALA between formats, MEG, PBO), pack, list,
# extract, render to PNG, PNG -> PAA -> PNG, sample, particles. With CORPUS
# (../shared/corpus): info and validate --json of every file, convert -r
# of each model folder, list and extract of every archive, and every tenth
# PAA/PAC to PNG. Fills OUT/linux and OUT/windows; exit 0 when both hold
# the same files with the same bytes.
set -u
{
SRC=$(cd "$1" && pwd) LFERRY=$(realpath "$2") WEXE=$(realpath "$3") OUT=$4 CORPUS=${5:-}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
export WINEDEBUG=-all

# run SIDE NAME ARGS...: ferry ARGS in OUT/SIDE, stdout to NAME.out,
# stderr to NAME.err, the exit status appended to status.txt.
run() {
  local side=$1 name=$2 code=0 t0=$SECONDS
  shift 2
  if [ "$side" = linux ]; then
    (cd "$OUT/$side" && "$LFERRY" "$@") >"$OUT/$side/log/$name.out" 2>"$OUT/$side/log/$name.err" || code=$?
  else
    (cd "$OUT/$side" && wine "$WEXE" "$@") >"$OUT/$side/log/$name.out" 2>"$OUT/$side/log/$name.err" || code=$?
  fi
  echo "$name $code" >>"$OUT/$side/log/status.txt"
  echo "$((SECONDS - t0)) $name" >>"$OUT/times-$side.txt"
}

# batch SIDE NAME CMD... -- FILE...: one command over many files, in runs
# of at most 200 (a Windows command line holds 32767 characters).
batch() {
  local side=$1 name=$2 i=0 n=0
  shift 2
  local cmd=()
  while [ "$1" != -- ]; do cmd+=("$1"); shift; done
  shift
  local files=("$@")
  while [ $i -lt ${#files[@]} ]; do
    run "$side" "$name.$n" "${cmd[@]}" "${files[@]:i:200}"
    i=$((i + 200)) n=$((n + 1))
  done
}

one_side() {
  local side=$1 f b
  rm -rf "${OUT:?}/$side"
  mkdir -p "$OUT/$side/log" "$OUT/$side/out"
  cp -rp "$SRC/samples" "$OUT/$side/in"  # -p: a PBO keeps each file's time
  cd "$OUT/$side" || return 1
  local models=(in/alamo/crate.alo in/alamo/legacy.alo in/alamo/walker.alo in/odol/box.p3d in/odol/door.p3d in/odol/grid.p3d)
  local all=(in/alamo/* in/odol/*)
  run "$side" info info "${all[@]}"
  run "$side" info-json info --json "${all[@]}"
  run "$side" validate validate "${all[@]}"
  run "$side" validate-json validate --json "${all[@]}"
  run "$side" dump-json dump --json in/alamo/walker.alo
  for f in "${models[@]}"; do
    b=$(basename "$f")
    run "$side" "convert-$b" convert "$f" "out/$b.glb"
  done
  mkdir -p out/walker-gltf
  run "$side" convert-gltf convert in/alamo/walker.alo out/walker-gltf/walker.gltf
  run "$side" convert-anim convert --anim in/alamo/walker_walk_00.ala in/alamo/walker.alo out/walker-anim.glb
  # ./in, not in: the paths a walk builds take the root's separator, and a
  # root without one gets the system's ('\\' on Windows, docs/platform.md).
  run "$side" convert-r convert -r --json ./in out/tree
  run "$side" alm convert in/alamo/crate.alo out/crate.alm
  run "$side" alm-info info --json out/crate.alm
  run "$side" alm-glb convert out/crate.alm out/crate-alm.glb
  run "$side" rewrite-alo convert in/alamo/walker.alo out/walker.alo
  run "$side" rewrite-particle convert in/alamo/p_walker_exhaust.alo out/p_walker_exhaust.alo
  run "$side" rewrite-ala convert in/alamo/walker_walk_00.ala out/walker_walk_00.ala
  run "$side" ala-format convert --ala-format 1 in/alamo/walker_idle_00.ala out/walker_idle_f1.ala
  run "$side" pack-meg pack out/samples.meg in
  run "$side" pack-pbo pack out/samples.pbo in
  for a in meg pbo; do
    run "$side" "list-$a" list "out/samples.$a"
    run "$side" "list-$a-json" list --json "out/samples.$a"
    run "$side" "extract-$a" extract "out/samples.$a" "out/extract-$a"
    run "$side" "rewrite-$a" convert "out/samples.$a" "out/rewritten.$a"
    run "$side" "convert-r-$a" convert -r "out/samples.$a" "out/tree-$a"
  done
  run "$side" render render --time 0.5 in/alamo/p_walker_exhaust.alo out/exhaust.png
  run "$side" paa convert out/exhaust.png out/exhaust.paa
  run "$side" paa-info info --json out/exhaust.paa
  run "$side" paa-png convert out/exhaust.paa out/exhaust-back.png
  run "$side" sample sample --frame 3 in/alamo/walker_walk_00.ala
  run "$side" particles particles --json --time 1 in/alamo/p_walker_exhaust.alo

  if [ -n "$CORPUS" ]; then
    ln -s "$CORPUS" corpus
    mkdir -p out/corpus-extract out/corpus-png
    local files=() archives=() textures=() k=0
    while IFS= read -r f; do files+=("$f"); done < <(find corpus/ -type f ! -name '*.md' | LC_ALL=C sort)
    batch "$side" corpus-info info --json -- "${files[@]}"
    batch "$side" corpus-validate validate --json -- "${files[@]}"
    for d in alamo odol; do run "$side" "corpus-convert-$d" convert -r --json "corpus/$d" "out/corpus-$d"; done
    while IFS= read -r f; do archives+=("$f"); done < <(find corpus/ -type f \( -iname '*.meg' -o -iname '*.pbo' \) | LC_ALL=C sort)
    for f in "${archives[@]}"; do
      b=$(basename "$f")
      run "$side" "corpus-list-$b" list --json "$f"
      run "$side" "corpus-extract-$b" extract "$f" "out/corpus-extract/$b"
    done
    while IFS= read -r f; do textures+=("$f"); done < <(find corpus/ -type f \( -iname '*.paa' -o -iname '*.pac' \) | LC_ALL=C sort)
    for f in "${textures[@]}"; do
      k=$((k + 1))
      [ $((k % 10)) -eq 1 ] || continue
      b=$(basename "$f")
      run "$side" "corpus-paa-$b" convert "$f" "out/corpus-png/$b.png"
    done
    rm corpus
  fi
  rm -rf in
}

start=$SECONDS
rm -f "$OUT"/times-*.txt
one_side linux
linux_s=$((SECONDS - start))
one_side windows
echo "cli outputs: Linux $linux_s s, Windows (wine) $((SECONDS - start - linux_s)) s; the slowest under wine:" \
  "$(sort -rn "$OUT/times-windows.txt" | head -n 5 | awk '{ printf "%s%s %d s", (NR > 1 ? ", " : ""), $2, $1 }')"
# Every file on both sides, byte for byte. A name that is not UTF-8 on the
# Linux side (an archive entry stored in Latin-1, extracted with its bytes)
# is on the Windows side in UTF-8, read as Latin-1 (extract on Windows,
# docs/platform.md): the Linux name is read so before the two are matched.
status=0
python3 - "$OUT/linux" "$OUT/windows" <<'PY' || status=1
import os, sys
latin1 = set()
def files(root):
    out = {}
    for d, _, names in os.walk(os.fsencode(root)):
        for n in names:
            full = os.path.join(d, n)
            rel = os.path.relpath(full, os.fsencode(root))
            try:
                key = rel.decode('utf-8')
            except UnicodeDecodeError:
                key = rel.decode('latin-1')
                latin1.add(key)
            out[key] = full
    return out
a, b = files(sys.argv[1]), files(sys.argv[2])
status = 0
if set(a) != set(b):
    status = 1
    print('cli outputs: FAIL: not the same files (< Linux, > Windows):', file=sys.stderr)
    for k in sorted(set(a) - set(b))[:10]: print('<', k, file=sys.stderr)
    for k in sorted(set(b) - set(a))[:10]: print('>', k, file=sys.stderr)
same = differ = size = 0
for k in sorted(set(a) & set(b)):
    x, y = open(a[k], 'rb').read(), open(b[k], 'rb').read()
    if x == y:
        same += 1
        size += len(x)
    else:
        differ += 1
        status = 1
        if differ <= 20: print('cli outputs: FAIL:', k, 'differs', file=sys.stderr)
print(f'cli outputs: {same} files identical ({size} bytes), {differ} differ; {len(latin1)} named in Latin-1 on Linux, in UTF-8 on Windows')
sys.exit(status)
PY
commands=$(wc -l <"$OUT/linux/log/status.txt")
echo "cli outputs: $commands commands on each side"
exit $status
}
