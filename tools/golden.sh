#!/bin/bash
# Golden outputs: runs one ferry binary over every bundled sample and every
# corpus file, with every command and option worth covering, and writes what
# it printed and wrote under OUTDIR, so that two binaries (before and after a
# change that must not change behaviour) can be compared with
#   tools/golden-compare.sh OUTDIR_A OUTDIR_B        (diff -r underneath)
#
#   tools/golden.sh FERRY OUTDIR [SHARED]
#
# FERRY: the binary. OUTDIR: created; must not exist or be empty. SHARED: the
# corpus folder (default: ../shared/corpus beside the repository, else
# /work/shared/corpus); when absent the corpus part is skipped with a message
# (and the samples' runs that name corpus folders, such as ODOL exports with
# --textures corpus/odol/addons, run without them: compare only runs made
# with the same corpus; OUTDIR/_meta/inputs.txt lists what each run read).
# GOLDEN_JOBS (default 2): per-file work in parallel. GOLDEN_TIMEOUT (default
# 600): seconds one ferry run may take (exit 124 in its record when killed).
#
# Layout of OUTDIR (each run of ferry is one record NAME.txt holding the
# command line, stdout, stderr, each with its byte count, and the exit status;
# files ferry wrote lie beside their record):
#   files/<input path>/   one folder per input (samples/..., corpus/...,
#                         misnamed/..., extra/...): info, dump, validate,
#                         rewrites, exports, particles, render, sample, ...
#   packs/                pack of folders to MEG and PBO, and what list,
#                         extract, validate and convert -r make of each pack
#   folders/              validate -r and convert -r of folders, multi-file runs
#   help/, usage/         every --help text, usage errors
#   _meta/inputs.txt      size and SHA-256 of every input (same corpus?)
#
# Comparable bytes: ferry runs in a scratch folder (mktemp, removed at the
# end) holding `samples` (a copy of the repository's samples with a fixed
# modification time: PBO packs store file times), `corpus` (a link to
# SHARED), `misnamed` (links to inputs under other formats' extensions),
# `extra` (a tiny OBJ and Collada file written here), `textures` (links
# giving particle textures no input has) and `out` (a link to OUTDIR); every
# path on ferry's command lines is relative to it, so messages name
# `corpus/...` and `out/...` whatever OUTDIR is. Rewrites that come out
# identical to their input are not kept (their record says "identical to the
# input"), only those that differ. LC_ALL=C and TZ=UTC.
#
# Prints the time each part takes and, at the end, every record name with
# the number of inputs it was run on and the seconds spent in ferry.
set -u
export LC_ALL=C TZ=UTC

# ---------------------------------------------------------------- helpers ---

# run LABEL ARGS...: runs ferry ARGS in the scratch folder; the record is
# $D/LABEL.txt. Returns ferry's exit status.
run() {
    local label=$1 rc t0=${EPOCHREALTIME/./}
    shift
    # (the braces keep bash's own "Segmentation fault" line off the terminal:
    # crashes are listed at the end from the records)
    { timeout "$GOLDEN_TIMEOUT" "$FERRY" "$@" >"$TMPD/o" 2>"$TMPD/e" </dev/null; rc=$?; } 2>/dev/null
    {
        printf '$ ferry'
        [ $# -gt 0 ] && printf ' %q' "$@"
        printf '\n== stdout: %d bytes\n' "$(stat -c %s "$TMPD/o")"
        cat "$TMPD/o"
        printf '\n== stderr: %d bytes\n' "$(stat -c %s "$TMPD/e")"
        cat "$TMPD/e"
        printf '\n== exit %d\n' "$rc"
    } >"$D/$label.txt"
    # kind, label, seconds: the summary's table and profile (not in OUTDIR)
    local t1=${EPOCHREALTIME/./}
    printf '%s %s %d\n' "$KIND" "$label" $((t1 - t0)) >>"$W/runs.txt"
    return $rc
}

# kept LABEL IN OUT: after a rewrite or conversion whose output may equal
# its input: an output identical to IN is removed and its record says so.
kept() {
    local label=$1 in=$2 out=$3 rec="$D/$1.txt"
    if [ -f "$out" ] && cmp -s "$in" "$out"; then
        rm -f "$out"
        printf '== output identical to the input (%d bytes), not kept\n' "$(stat -c %s "$in")" >>"$rec"
    elif [ -f "$out" ]; then
        printf '== output differs from the input, kept: %s\n' "${out##*/}" >>"$rec"
    else
        printf '== no output written\n' >>"$rec"
    fi
}

# lower-case extension of a path ("" when none)
ext_of() {
    local b=${1##*/}
    case $b in *.*) printf '%s' "${b##*.}" | tr 'A-Z' 'a-z' ;; *) ;; esac
}

stem_of() {
    local b=${1##*/}
    printf '%s' "${b%.*}"
}

# The kind of an input, from its name and, for .alo, its first chunk (0x900
# and 0x1500: particle systems): decided by the harness, not by the ferry
# under test, so both runs do the same work.
kind_of() {
    local f=$1
    case $(ext_of "$f") in
    alo)
        case $(od -An -tx4 -N4 "$f" | tr -d ' \n') in
        00000900 | 00001500) echo particle ;;
        *) echo model ;;
        esac
        ;;
    ala) echo anim ;;
    p3d) echo p3d ;;
    alm) echo alm ;;
    paa | pac) echo paa ;;
    meg) echo meg ;;
    pbo) echo pbo ;;
    rvmat | bin | cpp | hpp) echo config ;;
    dds | tga | png) echo image ;;
    *) echo other ;;
    esac
}

# The Alamo model an animation pairs with by name (MODEL_NAME.ala with
# MODEL.alo, ignoring case, the longest model name winning), among the models
# listed in $W/models.txt in the animation's folder; nothing when none.
paired_model() {
    local a=$1
    awk -v dir="${a%/*}" -v stem="$(stem_of "$a" | tr 'A-Z' 'a-z')" '
        { d = $0; sub(/\/[^\/]*$/, "", d); if (d != dir) next
          b = $0; sub(/^.*\//, "", b); sub(/\.[^.]*$/, "", b); b = tolower(b)
          if (index(stem, b "_") == 1 && length(b) > best) { best = length(b); m = $0 } }
        END { if (m != "") print m }' "$W/models.txt"
}

# The MODEL_*.ala files beside a model (ignoring case; what --anim auto
# looks at), sorted.
model_animations() {
    local m=$1
    find "${m%/*}/" -maxdepth 1 -type f -iname '*.ala' -printf '%f\n' | sort |
        awk -v stem="$(stem_of "$m" | tr 'A-Z' 'a-z')" -v dir="${m%/*}" 'index(tolower($0), stem "_") == 1 { print dir "/" $0 }'
}

# ------------------------------------------------------- per-input tasks ---

common() { # info, dump, validate, text and JSON
    local f=$1
    run info info "$f"
    run info--json info --json "$f"
    run dump dump "$f"
    run dump--json dump --json "$f"
    run validate validate "$f"
    run validate--json validate --json "$f"
}

rewrite() { # convert F F'.same-ext: byte for byte
    local f=$1 e
    e=$(ext_of "$f")
    run rewrite convert "$f" "$D/rewrite.${e:-none}"
    kept rewrite "$f" "$D/rewrite.${e:-none}"
}

alm_tasks() { # an ALM ferry built: everything ferry does with one
    local a=$1 p=$2
    [ -f "$a" ] || return 0
    run "$p-info" info "$a"
    run "$p-info--json" info --json "$a"
    run "$p-dump" dump "$a"
    run "$p-validate--json" validate --json "$a"
    run "$p-rewrite" convert "$a" "$D/$p-rewrite.alm"
    kept "$p-rewrite" "$a" "$D/$p-rewrite.alm"
    run "$p-export" convert "$a" "$D/$p-export.glb"
    run "$p-export--lod-10" convert --lod 10 "$a" "$D/$p-export--lod-10.glb"
    run "$p-export--triangles-100" convert --triangles 100 "$a" "$D/$p-export--triangles-100.glb"
    run "$p-export--error-1" convert --error 1 "$a" "$D/$p-export--error-1.glb"
}

from_glb() { # from_glb GLB NAME ANIMS [MODEL]: what ferry makes of a glb it made
    local g=$1 n=$2 anims=$3 m=${4:-}
    [ -f "$g" ] || return 0
    run "$n-to-alo" convert "$g" "$D/$n-authored.alo" --textures-out "$D/$n-authored-textures"
    run "$n-to-alm" convert "$g" "$D/$n.alm"
    alm_tasks "$D/$n.alm" "$n-alm"
    if [ "$anims" = yes ]; then
        run "$n-to-ala" convert "$g" "$D/$n.ala" --animation 0
        run "$n-to-ala--ala-format-1" convert "$g" "$D/$n--ala-format-1.ala" --animation 0 --ala-format 1
        run "$n-to-ala--fps-24" convert "$g" "$D/$n--fps-24.ala" --animation 0 --fps 24
        [ -n "$m" ] && run "$n-to-ala--model" convert "$g" "$D/$n--model.ala" --animation 0 --model "$m"
    fi
    return 0
}

task_model() {
    local f=$1 anims=no invalid=no first
    common "$f"
    rewrite "$f"
    run validate--no-textures validate --no-textures "$f"
    grep -qx '== exit 1' "$D/validate.txt" && invalid=yes
    first=$(model_animations "$f" | head -n 1)
    [ -n "$first" ] && anims=yes
    run export convert "$f" "$D/export.glb"
    run export--all convert --all "$f" "$D/export--all.glb"
    run export--no-textures convert --no-textures "$f" "$D/export--no-textures.glb"
    mkdir -p "$D/gltf"
    run export-gltf convert "$f" "$D/gltf/export.gltf"
    if [ $anims = yes ]; then
        run export--anim-auto convert --anim auto "$f" "$D/export--anim-auto.glb"
        run export--anim-auto--all convert --anim auto --all "$f" "$D/export--anim-auto--all.glb"
        run export--anim-first convert --anim "$first" "$f" "$D/export--anim-first.glb"
    fi
    [ $invalid = yes ] && run export--allow-invalid convert --allow-invalid "$f" "$D/export--allow-invalid.glb"
    run render render "$f" "$D/render.png" --time 1 --seed 7 --size 128x128
    run build-alm convert "$f" "$D/build.alm"
    alm_tasks "$D/build.alm" alm
    if [ $anims = yes ]; then
        run build-alm--anim-auto convert --anim auto "$f" "$D/build--anim-auto.alm"
        alm_tasks "$D/build--anim-auto.alm" alm-anim
        run build-alm--anim-first convert --anim "$first" "$f" "$D/build--anim-first.alm"
    fi
    from_glb "$D/export--all.glb" fromglb-all no
    [ -f "$D/gltf/export.gltf" ] && run fromgltf-to-alo convert "$D/gltf/export.gltf" "$D/fromgltf-authored.alo"
    [ $anims = yes ] && from_glb "$D/export--anim-auto--all.glb" fromglb-anim yes "$f"
    return 0
}

task_particle() {
    local f=$1
    common "$f"
    rewrite "$f"
    run validate--no-textures validate --no-textures "$f"
    run export convert "$f" "$D/export.glb"
    run export--all convert --all "$f" "$D/export--all.glb"
    run particles--time-1.5--seed-7 particles "$f" --time 1.5 --seed 7
    run particles--time-1.5--seed-7--json particles "$f" --time 1.5 --seed 7 --json
    run particles--time-4--seed-3--no-ground--json particles "$f" --time 4 --seed 3 --no-ground --json
    run particles--time-0.25--ground-1--json particles "$f" --time 0.25 --ground 1 --json
    run render--time-1.5--seed-7 render "$f" "$D/render--time-1.5--seed-7.png" --time 1.5 --seed 7 --size 128x128
    run render--time-3--seed-2--no-ground render "$f" "$D/render--time-3--seed-2--no-ground.png" --time 3 --seed 2 --no-ground --size 96x64
    run render--time-1--textures render "$f" "$D/render--time-1--textures.png" --time 1 --size 96x96 --textures textures
    run render-gif render "$f" "$D/render.gif" --duration 1 --fps 6 --seed 5 --size 48x48
}

task_anim() {
    local f=$1 m
    common "$f"
    rewrite "$f"
    run ala-format-1 convert --ala-format 1 "$f" "$D/ala-format-1.ala"
    kept ala-format-1 "$f" "$D/ala-format-1.ala"
    run ala-format-2 convert --ala-format 2 "$f" "$D/ala-format-2.ala"
    kept ala-format-2 "$f" "$D/ala-format-2.ala"
    run sample--frame-0 sample "$f" --frame 0
    run sample--frame-1.5--json sample "$f" --frame 1.5 --json
    run sample--time-0.5--loop--json sample "$f" --time 0.5 --loop --json
    run sample--time-1000 sample "$f" --time 1000
    m=$(paired_model "$f")
    if [ -n "$m" ]; then
        run sample--model--frame-3--json sample "$f" --model "$m" --frame 3 --json
        run validate--model--json validate --json --model "$m" "$f"
    fi
    return 0
}

task_p3d() {
    local f=$1
    common "$f"
    rewrite "$f"
    run export convert "$f" "$D/export.glb"
    run export--all convert --all "$f" "$D/export--all.glb"
    run export--lod-0--lod-1 convert --lod 0 --lod 1 "$f" "$D/export--lod-0--lod-1.glb"
    run export--no-animations convert --no-animations "$f" "$D/export--no-animations.glb"
    run export--no-textures convert --no-textures "$f" "$D/export--no-textures.glb"
    mkdir -p "$D/gltf"
    if [ "$HAVE_CORPUS" = yes ]; then
        run export--textures-addons convert "$f" "$D/export--textures-addons.glb" --textures corpus/odol/addons
        run export--all--textures-addons convert --all "$f" "$D/export--all--textures-addons.glb" --textures corpus/odol/addons
        local pbos=() p
        for p in out/packs/addon-*.pbo; do [ -f "$p" ] && pbos+=(--textures "$p"); done
        run export--textures-addon-pbos convert "$f" "$D/export--textures-addon-pbos.glb" "${pbos[@]}"
        run export-gltf convert "$f" "$D/gltf/export.gltf" --textures corpus/odol/addons
    else
        run export-gltf convert "$f" "$D/gltf/export.gltf"
    fi
    from_glb "$D/export--all.glb" fromglb-all no
    from_glb "$D/export.glb" fromglb yes
}

task_paa() {
    local f=$1
    common "$f"
    rewrite "$f"
    run to-png convert "$f" "$D/mip0.png"
    run to-png--mip-1 convert "$f" "$D/mip1.png" --mip 1
    run to-png--mip-99 convert "$f" "$D/mip99.png" --mip 99
    if [ -f "$D/mip0.png" ]; then
        run png-to-paa convert "$D/mip0.png" "$D/frompng.paa"
        run png-to-paa--dxt5--no-lzo convert --dxt5 --no-lzo "$D/mip0.png" "$D/frompng--dxt5--no-lzo.paa"
        run png-to-paa--named-nohq convert "$D/mip0.png" "$D/frompng_nohq.paa"
        run png-to-pac--dxt1--srgb convert --dxt1 --srgb "$D/mip0.png" "$D/frompng--dxt1--srgb.pac"
    fi
    return 0
}

task_image() {
    local f=$1
    common "$f"
    run to-paa convert "$f" "$D/toimage.paa"
    run to-paa--linear convert --linear "$f" "$D/toimage--linear.paa"
}

task_config() {
    local f=$1
    common "$f"
    rewrite "$f"
    run to-text convert "$f" "$D/totext.cpp"
    run to-rap convert "$f" "$D/torap.bin"
    run to-rvmat convert "$f" "$D/torap.rvmat"
    [ -f "$D/totext.cpp" ] && run text-to-rap convert "$D/totext.cpp" "$D/roundtrip.bin"
    [ -f "$D/torap.bin" ] && run rap-to-text convert "$D/torap.bin" "$D/roundtrip.hpp"
    return 0
}

task_archive() { # MEG and PBO
    local f=$1
    common "$f"
    rewrite "$f"
    run list list "$f"
    run list--json list --json "$f"
    run extract extract "$f" "$D/extract"
    run extract--patterns extract "$f" "$D/extract-patterns" '*.txt' '*.ALO' '*.hpp' 'data/*'
    run convert-r convert -r "$f" "$D/convert-r" --jobs 2
    run convert-r--json convert -r --json "$f" "$D/convert-r-json" --jobs 2
}

task_misnamed() { # an input named as another format: read as what it is
    local f=$1 e
    e=$(ext_of "$f")
    run info--json info --json "$f"
    run validate--json validate --json "$f"
    run dump dump "$f"
    run export convert "$f" "$D/export.glb"
    run to-alo convert "$f" "$D/to.alo"
    run rewrite convert "$f" "$D/rewrite.$e"
    kept rewrite "$f" "$D/rewrite.$e"
}

task_extra() { # generated inputs (OBJ, Collada through Assimp)
    local f=$1
    common "$f"
    run to-alo convert "$f" "$D/to.alo"
    run to-glb convert "$f" "$D/to.glb"
}

task() { # task KIND PATH: one input, in the scratch folder
    local kind=$1 f=$2
    KIND=$kind
    D=out/files/$f
    mkdir -p "$D"
    TMPD=$(mktemp -d "$W/tmp/t.XXXXXX")
    case $kind in
    model) task_model "$f" ;;
    particle) task_particle "$f" ;;
    anim) task_anim "$f" ;;
    p3d) task_p3d "$f" ;;
    paa) task_paa "$f" ;;
    image) task_image "$f" ;;
    config) task_config "$f" ;;
    meg | pbo) task_archive "$f" ;;
    alm) common "$f"; rewrite "$f"; alm_tasks "$f" given ;;
    misnamed) task_misnamed "$f" ;;
    extra) task_extra "$f" ;;
    *) common "$f" ;;
    esac
    rm -rf "$TMPD"
}

if [ "${1:-}" = --task ]; then # internal: a worker started by the run below
    cd "$W" || exit 1
    task "$2" "$3"
    exit 0
fi

# ------------------------------------------------------------------ run ---

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: tools/golden.sh FERRY OUTDIR [SHARED]" >&2
    exit 2
fi
SELF=$(realpath "$0")
REPO=$(dirname "$(dirname "$SELF")")
FERRY=$(realpath "$1") || exit 2
[ -x "$FERRY" ] || { echo "golden: $1 is not an executable" >&2; exit 2; }
OUTDIR=$2
SHARED=${3:-$REPO/../shared/corpus}
[ -d "$SHARED" ] || [ $# -eq 3 ] || SHARED=/work/shared/corpus
if [ -e "$OUTDIR" ] && [ -n "$(ls -A "$OUTDIR" 2>/dev/null)" ]; then
    echo "golden: $OUTDIR exists and is not empty (give a new folder)" >&2
    exit 2
fi
mkdir -p "$OUTDIR" || exit 2
OUTDIR=$(realpath "$OUTDIR")
case "$OUTDIR/" in "$REPO"/*) echo "golden: OUTDIR must be outside the repository" >&2; exit 2 ;; esac
GOLDEN_JOBS=${GOLDEN_JOBS:-2}
GOLDEN_TIMEOUT=${GOLDEN_TIMEOUT:-600}

W=$(mktemp -d "${TMPDIR:-/tmp}/ferry-golden.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/tmp" "$W/misnamed" "$W/extra"
cp -r "$REPO/samples" "$W/samples"
# PBO packs store each file's modification time: a fixed one for the copy.
find "$W/samples" -exec touch -h -d @1000000000 {} +
ln -s "$OUTDIR" "$W/out"
HAVE_CORPUS=no
if [ -d "$SHARED" ]; then
    ln -s "$(realpath "$SHARED")" "$W/corpus"
    HAVE_CORPUS=yes
else
    echo "golden: no corpus at $SHARED: corpus files skipped (samples only)"
fi
export FERRY W HAVE_CORPUS GOLDEN_TIMEOUT
cd "$W" || exit 1
mkdir -p out/_meta out/help out/usage out/packs out/folders out/files
TMPD=$W/tmp/main
mkdir -p "$TMPD"

START=$(date +%s.%N)
T0=$START
part() { # part NAME: prints the time the previous part took
    local now
    now=$(date +%s.%N)
    [ -n "${PART:-}" ] && printf 'golden: %-34s %7.1f s\n' "$PART" "$(awk -v a="$T0" -v b="$now" 'BEGIN { print b - a }')"
    PART=$1 T0=$now
}

# Inputs: sorted, so both runs list them alike.
find samples -type f | sort >"$W/inputs.txt"
[ $HAVE_CORPUS = yes ] && find -H corpus -type f | sort >>"$W/inputs.txt"
while IFS= read -r f; do [ "$(kind_of "$f")" = model ] && echo "$f"; done <"$W/inputs.txt" >"$W/models.txt"

# Misnamed inputs: links to one file of each kind under every other kind's
# extension (the content decides what a file is; the name only what an
# output becomes).
{
    echo samples/alamo/walker.alo
    echo samples/alamo/p_walker_exhaust.alo
    echo samples/alamo/walker_walk_00.ala
    echo samples/odol/box.p3d
    if [ $HAVE_CORPUS = yes ]; then
        echo corpus/paa/hemtt/dxt5.paa
        echo corpus/meg/petroglyphtools/v2_2_files_data.meg
        echo corpus/pbo/hemtt/hemtt_photoshoot.pbo
        echo corpus/rapify/hemtt/single_class/expected.bin
        echo corpus/rapify/hemtt/single_class/source.hpp
        echo corpus/mlod/hemtt/kat_iv.p3d
        echo corpus/alamo/ueaw/Textures/"$(ls corpus/alamo/ueaw/Textures | grep -i '\.dds$' | head -1)"
    fi
} >"$W/misnamed-sources.txt"
while IFS= read -r f; do
    [ -f "$f" ] || continue
    b=$(stem_of "$f")
    for e in alo ala p3d alm paa meg pbo rvmat bin obj fbx dae png txt; do
        [ "$e" = "$(ext_of "$f")" ] && continue
        ln -s "../$f" "misnamed/$b.$(ext_of "$f")-as.$e"
    done
done <"$W/misnamed-sources.txt"

# Generated inputs for the Assimp readers (no such file is bundled).
cat >extra/quad.obj <<'EOF'
# two triangles, normals and UVs, no material library
o quad
v -1 -1 0
v 1 -1 0
v 1 1 0
v -1 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 1
f 1/1/1 2/2/1 3/3/1
f 1/1/1 3/3/1 4/4/1
EOF
cat >extra/triangle.dae <<'EOF'
<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="tri" name="tri">
      <mesh>
        <source id="tri-pos">
          <float_array id="tri-pos-a" count="9">0 0 0 1 0 0 0 1 0</float_array>
          <technique_common><accessor source="#tri-pos-a" count="3" stride="3">
            <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
          </accessor></technique_common>
        </source>
        <vertices id="tri-v"><input semantic="POSITION" source="#tri-pos"/></vertices>
        <triangles count="1"><input semantic="VERTEX" source="#tri-v" offset="0"/><p>0 1 2</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene"><node id="n" name="tri"><instance_geometry url="#tri"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
EOF
touch -d @1000000000 extra/*

# Particle textures none of the inputs holds, as links to textures that are
# there (a TGA and a DDS of the corpus), for render --textures: sprites drawn
# with a texture rather than the soft glow of a missing one.
mkdir -p textures
if [ $HAVE_CORPUS = yes ]; then
    for t in p_particle_master.tga p_particle_heat_master.tga p_walker_smoke.tga; do
        ln -s ../corpus/alamo/ueaw/Textures/glow_red.tga "textures/$t"
    done
    for t in W_SPARKLE1.dds W_SPARKLE.dds exexplo03n.dds W_NemSmoke.dds; do
        ln -s ../corpus/alamo/ueaw/Textures/W_LASER_SMALL.DDS "textures/$t"
    done
fi

# Every input's size and hash: a different corpus shows here first.
{
    cat "$W/inputs.txt"
    find misnamed extra textures -type f -o -type l | sort
} | while IFS= read -r f; do
    printf '%s %s %s\n' "$(sha256sum <"$f" | cut -c1-64)" "$(stat -L -c %s "$f")" "$f"
done >out/_meta/inputs.txt

part "help and usage errors"
KIND=help D=out/help
run ferry-no-arguments
run help help
run --help --help
run -h -h
run --version --version
run help-nosuch help nosuch
run help-two help info dump
run nosuch nosuch
for c in info dump validate convert sample particles render list extract pack help; do
    run "help-$c" help "$c"
    run "$c--help" "$c" --help
done
KIND=usage D=out/usage
s=samples/alamo/walker.alo a=samples/alamo/walker_walk_00.ala p=samples/alamo/p_walker_exhaust.alo
u=0
usage() { u=$((u + 1)); run "$(printf '%02d' $u)" "$@"; }
usage info
usage info --nosuch "$s"
usage info -- -nosuch.alo
usage info /dev/null
usage info samples
usage info missing.alo
usage dump
usage dump "$s" "$a"
usage validate
usage validate samples
usage validate --textures missing-folder "$s"
usage validate --model "$a" "$a"
usage convert
usage convert "$s"
usage convert "$s" out/usage/x.zzz
usage convert "$s" "$s"
usage convert --ala-format 3 "$a" out/usage/x.ala
usage convert --anim missing.ala "$s" out/usage/x.glb
usage convert --anim "$a" --force samples/alamo/crate.alo out/usage/forced.glb
usage convert --anim "$a" samples/alamo/crate.alo out/usage/misfit.glb
usage convert --lod 1 "$s" out/usage/x.glb
usage convert --jobs 0 -r samples out/usage/r
usage convert -r samples
usage convert --mip 1 "$s" out/usage/x.png
usage convert --textures missing-folder "$s" out/usage/x.glb
usage sample "$a"
usage sample "$a" --frame 1 --time 1
usage sample "$s" --frame 0
usage particles "$p"
usage particles "$p" --time -1
usage particles "$s" --time 1
usage particles "$p" --time 1 --seed x
usage render "$p"
usage render "$p" out/usage/x.png --size 0x0
usage render "$p" out/usage/x.gif
usage render "$p" out/usage/x.bmp --time 1
usage list
usage list "$s"
usage extract samples/alamo/walker.alo out/usage/extract
usage pack out/usage/x.zip samples
usage pack --meg-format 4 out/usage/x.meg samples
usage pack out/usage/x.meg missing-folder
usage -- info "$s"

part "packs (MEG, PBO) and their use"
KIND=packs D=out/packs
# pack_one NAME DIR [OPTIONS...]: pack DIR into NAME (.meg or .pbo), then
# list, validate, extract and convert -r it.
pack_one() {
    local name=$1 dir=$2
    shift 2
    run "$name-pack" pack "$@" "out/packs/$name" "$dir"
    [ -f "out/packs/$name" ] || return 0
    run "$name-list" list "out/packs/$name"
    run "$name-list--json" list --json "out/packs/$name"
    run "$name-info--json" info --json "out/packs/$name"
    run "$name-validate" validate "out/packs/$name"
    run "$name-extract" extract "out/packs/$name" "out/packs/$name.extract"
    run "$name-convert-r" convert -r "out/packs/$name" "out/packs/$name.convert-r" --jobs 2
}
pack_one samples.meg samples
pack_one samples-2.meg samples --meg-format 2
pack_one samples-3.meg samples --meg-format 3
pack_one samples.pbo samples --prefix 'golden\samples'
pack_one samples-noprefix.pbo samples
if [ $HAVE_CORPUS = yes ]; then
    pack_one ueaw-models.meg corpus/alamo/ueaw/Models
    pack_one ueaw-textures.meg corpus/alamo/ueaw/Textures
    pack_one ueaw-textures.pbo corpus/alamo/ueaw/Textures
    pack_one ueaw.meg corpus/alamo/ueaw
    pack_one ufocp.meg corpus/alamo/ufocp
    pack_one odol-v40.pbo corpus/odol/v40 --prefix 'golden\v40'
    pack_one rapify.pbo corpus/rapify/hemtt
    pack_one paa.meg corpus/paa/hemtt --meg-format 3
    for a in corpus/odol/addons/*/; do
        a=${a%/}
        prefix=
        [ -f "$a/\$PREFIX\$" ] && prefix=$(tr -d '\r\n' <"$a/\$PREFIX\$")
        pack_one "addon-${a##*/}.pbo" "$a" --prefix "${prefix:-${a##*/}}"
    done
    pack_one addon-glt_signs.meg corpus/odol/addons/glt_signs --meg-format 2
    # Models from an archive, textures from another archive (README's example)
    run ueaw-models.meg-convert-r--textures-meg convert -r out/packs/ueaw-models.meg out/packs/ueaw-models.meg.convert-r-textures-meg --textures out/packs/ueaw-textures.meg --jobs 2
    run ueaw-models.meg-convert-r--textures-pbo--json convert -r --json out/packs/ueaw-models.meg out/packs/ueaw-models.meg.convert-r-textures-pbo --textures out/packs/ueaw-textures.pbo --jobs 2
    run ueaw-models.meg-validate--textures-meg validate --textures out/packs/ueaw-textures.meg out/packs/ueaw-models.meg
    pbos=()
    for a in out/packs/addon-*.pbo; do pbos+=(--textures "$a"); done
    run odol-v40.pbo-convert-r--textures-addon-pbos convert -r out/packs/odol-v40.pbo out/packs/odol-v40.pbo.convert-r-textures "${pbos[@]}" --jobs 2
fi
run samples.meg-extract--patterns extract out/packs/samples.meg out/packs/samples.meg.extract-patterns '*.ALA' 'samples/odol/*'

part "per input (samples, corpus, misnamed)"
ninputs=$(wc -l <"$W/inputs.txt")
echo "golden: $ninputs inputs, $(ls misnamed | wc -l) misnamed links, $(ls extra | wc -l) generated, $GOLDEN_JOBS at a time"
{
    while IFS= read -r f; do printf '%s\0%s\0' "$(kind_of "$f")" "$f"; done <"$W/inputs.txt"
    find misnamed -type l | sort | while IFS= read -r f; do printf 'misnamed\0%s\0' "$f"; done
    find extra -type f | sort | while IFS= read -r f; do printf 'extra\0%s\0' "$f"; done
} | xargs -0 -n 2 -P "$GOLDEN_JOBS" "$SELF" --task

part "folders (validate -r, convert -r)"
KIND=folders D=out/folders
run samples-validate-r validate -r samples
run samples-validate-r--json validate -r --json samples
run samples-validate-files validate samples/alamo/walker.alo samples/alamo/walker_walk_00.ala samples/alamo/walker_idle_00.ala samples/alamo/crate.alo
run samples-info--json-files info --json samples/alamo/walker.alo samples/alamo/walker_idle_00.ala samples/odol/box.p3d
run samples-convert-r convert -r samples out/folders/samples.convert-r --jobs 2
run samples-convert-r--json--all convert -r --json --all samples out/folders/samples.convert-r-all --jobs 2
run samples-convert-r--quiet--no-textures convert -r --quiet --no-textures samples out/folders/samples.convert-r-quiet --jobs 1
run misnamed-validate-r--json validate -r --json misnamed
run usage-game-view convert --game-view samples/alamo/walker.alo out/folders/walker--game-view.glb
if [ $HAVE_CORPUS = yes ]; then
    run corpus-validate-r validate -r corpus
    # Animations paired with models among the files given
    run ufocp-validate-files validate corpus/alamo/ufocp/*
    run ufocp-validate-files--json validate --json corpus/alamo/ufocp/*
    run ufocp-info--json-files info --json corpus/alamo/ufocp/*
    run corpus-validate-r--json validate -r --json corpus
    run corpus-alamo-validate-r--no-textures--json validate -r --no-textures --json corpus/alamo
    run corpus-convert-r--json convert -r --json corpus out/folders/corpus.convert-r --jobs 2
    run corpus-ufocp-convert-r--all--quiet convert -r --all --quiet corpus/alamo/ufocp out/folders/ufocp.convert-r-all --jobs 2
    run corpus-ueaw-convert-r--no-textures convert -r --no-textures corpus/alamo/ueaw out/folders/ueaw.convert-r-no-textures --jobs 2
    run corpus-ueaw-convert-r--textures-meg convert -r corpus/alamo/ueaw/Models out/folders/ueaw-models.convert-r-textures-meg --textures out/packs/ueaw-textures.meg --jobs 2
    run corpus-odol-convert-r--textures-addons--json convert -r --json corpus/odol out/folders/odol.convert-r-textures --textures corpus/odol/addons --jobs 2
    run corpus-odol-convert-r--all--allow-invalid convert -r --all --allow-invalid corpus/odol out/folders/odol.convert-r-all --jobs 2
fi

part ""
printf 'golden: %d ferry runs recorded, %d files, %s in %s\n' "$(wc -l <"$W/runs.txt")" \
    "$(find "$OUTDIR" -type f | wc -l)" "$(du -sh "$OUTDIR" | cut -f1)" "$OUTDIR"
# Runs killed by a signal (a crash: exit 128+N), timed out (124) or not run
# (126, 127): ferry must never crash or hang, whatever the input.
grep -rlE --include='*.txt' '^== exit (12[4-9]|1[3-9][0-9]|2[0-9][0-9])$' "$OUTDIR" | sort >"$W/crashed.txt"
if [ -s "$W/crashed.txt" ]; then
    echo "golden: $(wc -l <"$W/crashed.txt") runs crashed, timed out or did not run (exit >= 124), per record name:"
    sed 's|.*/||' "$W/crashed.txt" | sort | uniq -c | awk '{ printf "  %6d %s\n", $1, $2 }'
    sed "s|^$OUTDIR/||" "$W/crashed.txt" | head -n 10 | sed 's/^/    /'
    [ "$(wc -l <"$W/crashed.txt")" -gt 10 ] && echo "    ..."
fi
printf 'golden: total %.1f s\n' "$(awk -v a="$START" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')"
echo "golden: runs (inputs) per kind of input and record, seconds spent in ferry:"
sort -k1,1 -k2,2 "$W/runs.txt" | awk '
    { k = $1 " " $2; if (k != last && last != "") { printf "  %-9s %-48s %6d %8.1f\n", lk, ll, n, t / 1e6; n = t = 0 }
      last = k; lk = $1; ll = $2; n++; t += $3; kt[$1] += $3; kn[$1]++ }
    END { printf "  %-9s %-48s %6d %8.1f\n", lk, ll, n, t / 1e6
          for (k in kt) printf "golden: %-9s %6d runs %8.1f s in ferry\n", k, kn[k], kt[k] / 1e6 }'
