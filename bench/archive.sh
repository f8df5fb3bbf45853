#!/usr/bin/env bash
# MEG archives against the plain tools, in one run side by side: `ferry
# extract` of a whole archive against `cp -r` of the same files, and `ferry
# pack` against `cat` of the same bytes into one file (medians of ROUNDS
# alternating rounds, page cache warm for all, a sync before each). Then the peak memory (max
# RSS, /usr/bin/time -v) of pack, list, info, validate, extract and rewrite
# on that archive; with BEFORE=path/to/older/ferry, the same commands of that
# binary beside (where it has them). The synthetic files go to a temporary
# folder under TMPDIR (default /tmp), removed at the end.
#
#   bash bench/archive.sh BUILD_DIR [MIB] [FILES] [ROUNDS]
#   e.g. bash bench/archive.sh build 1024 2000 3
set -u
build=$(cd "${1:-build}" && pwd) || exit 2
mib=${2:-256}
nfiles=${3:-2000}
rounds=${4:-3}
ferry="$build/ferry"
before=${BEFORE:-}
[ -x "$ferry" ] || { echo "bench/archive.sh: $ferry not found; build first" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ferry-bench-archive.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
# ok CMD...: runs it; a failure stops the benchmark (exit 1, its stderr
# shown): a run that failed is no timing.
ok() {
    "$@" 2>"$work/err" && return 0
    echo "bench/archive.sh: failed (exit $?): $*" >&2
    tail -n 20 "$work/err" >&2
    exit 1
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# FILES files in a tree of 20 folders, sizes spread from a few bytes to
# several MiB (a log-uniform spread, as a game's data folder), MIB in all.
python3 - "$work/src" "$mib" "$nfiles" <<'PY'
import os, random, sys
root, mib, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(1)
w = [rng.uniform(0, 12) for _ in range(n)]
w = [2 ** x for x in w]
total = mib << 20
sizes = [max(1, int(x * total / sum(w))) for x in w]
sizes[0] += total - sum(sizes)
blob = os.urandom(max(sizes) + 4096)
for i, s in enumerate(sizes):
    d = os.path.join(root, "Data", "Art", "Folder%02d" % (i % 20))
    os.makedirs(d, exist_ok=True)
    off = rng.randrange(0, 4096)
    with open(os.path.join(d, "FILE%05d.BIN" % i), "wb") as f:
        f.write(blob[off:off + s])
PY
bytes=$(du -sb "$work/src" | cut -f1)
find "$work/src" -type f | sort >"$work/list"
echo "== machine"
echo "cpu:    $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) ($(nproc) online)"
echo "fs:     $(df -T "$work" | awk 'NR==2 {print $2}') ($work)"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min)"
echo "commit: $(git -C "$build/.." rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "data:   $nfiles files, $bytes bytes; median of $rounds rounds"
echo
: >"$work/t_cp"; : >"$work/t_ext"; : >"$work/t_cat"; : >"$work/t_pack"
for r in $(seq "$rounds"); do
    rm -rf "$work/copy" "$work/x" "$work/cat.out" "$work/a.meg"
    # sync before each (untimed): no command pays for the last one's writeback.
    sync; t0=$(now); xargs -d '\n' cat <"$work/list" >"$work/cat.out"; t1=$(now)
    sync; t2=$(now); ok "$ferry" pack "$work/a.meg" "$work/src"; t3=$(now)
    sync; t4=$(now); cp -r "$work/src" "$work/copy"; t5=$(now)
    sync; t6=$(now); ok "$ferry" extract "$work/a.meg" "$work/x"; t7=$(now)
    echo "$t1 - $t0" | bc -l >>"$work/t_cat"
    echo "$t3 - $t2" | bc -l >>"$work/t_pack"
    echo "$t5 - $t4" | bc -l >>"$work/t_cp"
    echo "$t7 - $t6" | bc -l >>"$work/t_ext"
    rm -f "$work/cat.out"
done
# The extracted tree holds the same bytes under upper-case names.
same=$(cd "$work/src" && find . -type f | sort | while read -r f; do printf '%s %s\n' "$(printf '%s' "$f" | tr a-z A-Z)" "$(md5sum <"$f" | cut -c1-32)"; done | md5sum)
back=$(cd "$work/x" && find . -type f | sort | while read -r f; do printf '%s %s\n' "$f" "$(md5sum <"$f" | cut -c1-32)"; done | md5sum)
if [ "$same" = "$back" ]; then
    echo "extracted files: same names (upper case) and bytes as the originals"
else
    echo "bench/archive.sh: the extracted files DIFFER from the originals" >&2
    exit 1
fi
cat_s=$(median <"$work/t_cat"); pack_s=$(median <"$work/t_pack")
cp_s=$(median <"$work/t_cp"); ext_s=$(median <"$work/t_ext")
printf '%-44s %9s %9s\n' "operation" "seconds" "ratio"
printf '%-44s %9.3f %9s\n' "cat of the files into one file" "$cat_s" "1"
printf '%-44s %9.3f %9.2f\n' "ferry pack OUT.meg DIR" "$pack_s" "$(echo "$pack_s / $cat_s" | bc -l)"
printf '%-44s %9.3f %9s\n' "cp -r of the folder" "$cp_s" "1"
printf '%-44s %9.3f %9.2f\n' "ferry extract ARCHIVE OUTDIR" "$ext_s" "$(echo "$ext_s / $cp_s" | bc -l)"
echo "rounds (s): cat $(tr '\n' ' ' <"$work/t_cat")| pack $(tr '\n' ' ' <"$work/t_pack")"
echo "            cp -r $(tr '\n' ' ' <"$work/t_cp")| extract $(tr '\n' ' ' <"$work/t_ext")"
echo "archive: $(stat -c %s "$work/a.meg") bytes"
echo

rss() { # prints max RSS in KiB of the command, or '- (exit N)' when it fails
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
    local rc=$?
    local k
    k=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
    if [ $rc -ne 0 ]; then echo "- (exit $rc)"; else echo "$k"; fi
}
echo "== peak memory (max RSS, KiB) on the $(stat -c %s "$work/a.meg")-byte archive"
printf '%-36s %14s %14s\n' "command" "this build" "${before:+before}"
row() { # label args... (ARCHIVE and OUT substituted)
    local label=$1; shift
    local a=() b=()
    for x in "$@"; do a+=("${x//@/$work}"); done
    rm -rf "$work/x2" "$work/r.meg"
    local now_k; now_k=$(rss "$ferry" "${a[@]}")
    # This build must succeed on its own valid archive (an older one given
    # as BEFORE may lack a command: shown as '- (exit N)').
    case "$now_k" in -*) echo "bench/archive.sh: ferry $* failed: $now_k" >&2; exit 1 ;; esac
    local old_k=""
    if [ -n "$before" ]; then rm -rf "$work/x2" "$work/r.meg"; old_k=$(rss "$before" "${a[@]}"); fi
    printf '%-36s %14s %14s\n' "$label" "$now_k" "$old_k"
}
row "pack OUT.meg DIR" pack @/p.meg @/src
row "list ARCHIVE" list @/a.meg
row "info ARCHIVE" info @/a.meg
row "validate ARCHIVE" validate @/a.meg
row "extract ARCHIVE OUTDIR" extract @/a.meg @/x2
row "convert ARCHIVE OUT.meg (rewrite)" convert @/a.meg @/r.meg
cmp -s "$work/a.meg" "$work/r.meg" && echo "rewrite byte-identical: yes" || { echo "rewrite byte-identical: NO" >&2; exit 1; }
cmp -s "$work/a.meg" "$work/p.meg" && echo "pack reproducible (two packs identical): yes" || { echo "pack reproducible: NO" >&2; exit 1; }
