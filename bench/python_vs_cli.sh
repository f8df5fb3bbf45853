#!/usr/bin/env bash
# The Python package's overhead over the ferry tool, in one run side by
# side: validating and describing the same corpus files from Python (one
# interpreter: ferry.open, then validate() or info(), per file) and with the
# tool (one process given every file: ferry validate --json, ferry info
# --json, output to /dev/null). Medians of ROUNDS alternating rounds after a
# warm-up of each (page cache warm for both).
#
# Converting: the whole corpus folder to glTF, `ferry convert -r --jobs 1`
# against ferry.convert(folder, out, jobs=1) (one library call each), and
# against a Python loop calling ferry.convert(file, out, animations="auto")
# per model (the overhead of a call per file); each into a fresh folder.
#
# Two file sets: the corpus's models, textures, materials and archives
# (everything but animations), where both do exactly the same work; and the
# animations alone, which the tool also checks against the model it pairs
# each with by name (loading that model) and the package, until phase 2,
# does not: there the tool does more, shown for completeness.
#
#   bash bench/python_vs_cli.sh [BUILD_DIR] [CORPUS] [ROUNDS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
corpus=${2:-$here/../../shared/corpus}
rounds=${3:-5}
[ -x "$build/ferry" ] && [ -e "$build/libferry.so" ] || { echo "bench/python_vs_cli.sh: build first (make)" >&2; exit 1; }
if [ ! -d "$corpus" ]; then
  echo "skipped: no corpus at $corpus"
  exit 0
fi
python=${FERRY_PYTHON:-python3}
"$python" -c 'import ctypes' 2>/dev/null || python=/usr/bin/python3

echo "== machine"
echo "cpu:    $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1) ($(nproc) online)"
echo "python: $("$python" --version 2>&1)"
echo "commit: $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo

FERRY_LIBRARY=$build/libferry.so PYTHONPATH=$here/../python "$python" - "$build/ferry" "$corpus" "$rounds" <<'PY'
import os, resource, shutil, statistics, subprocess, sys, tempfile, time, warnings
import ferry

tool, corpus, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
assets = (".alo", ".ala", ".p3d", ".alm", ".paa", ".pac", ".rvmat", ".bin", ".meg", ".pbo", ".hpp", ".cpp")
files = sorted(os.path.join(d, f) for d, _, names in os.walk(corpus) for f in names if f.lower().endswith(assets))
sets = {"models, textures, configs, archives": [f for f in files if not f.lower().endswith(".ala")],
        "animations": [f for f in files if f.lower().endswith(".ala")]}
warnings.simplefilter("ignore")


def py_validate(paths):
    # The folders textures are looked up in opened and listed once for the
    # batch, as one run of the tool does (ferry.Places).
    errors = 0
    with ferry.Places() as places:
        for p in paths:
            try:
                with ferry.open(p) as a:
                    errors += a.validate(places=places).error_count
            except ferry.Error:
                errors += 1
    return errors


def py_info(paths):
    for p in paths:
        try:
            with ferry.open(p) as a:
                a.info()
        except ferry.Error:
            pass


models = [f for f in files if f.lower().endswith((".alo", ".p3d", ".alm"))]
scratch = tempfile.mkdtemp(prefix="ferry_bench_")


def fresh(name):
    out = os.path.join(scratch, name)
    shutil.rmtree(out, ignore_errors=True)
    return out


def cli_convert_tree(_paths):
    subprocess.run([tool, "convert", "-r", "--jobs", "1", "--quiet", corpus, fresh("cli")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def py_convert_tree(_paths):
    ferry.convert(corpus, fresh("py"), jobs=1)


def py_convert_files(paths):
    # what a script converting file by file does: one call per model, the
    # folders pooled (ferry.Places) as one run of the tool pools them
    out = fresh("py_files")
    with ferry.Places() as places:
        for p in paths:
            dest = os.path.join(out, os.path.splitext(os.path.relpath(p, corpus))[0] + ".glb")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            try:
                ferry.convert(p, dest, animations="auto", places=places)
            except ferry.Error:
                pass


def cli(command, paths):
    subprocess.run([tool, command, "--json"] + paths, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cpu():
    """CPU seconds (user + system) of this process and of its finished children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn, *args):
    """Wall and CPU seconds of one call (a child's CPU counted once it has
    ended, which subprocess.run waits for)."""
    t, c = time.perf_counter(), cpu()
    fn(*args)
    return time.perf_counter() - t, cpu() - c


# Wall time is what a user waits; CPU time (user + system, the tool's
# process or the interpreter) is the figure that holds under foreign load.
print("| files | job | ferry: wall (CPU) s | Python: wall (CPU) s | Python / ferry: wall (CPU) |")
print("|---|---|--:|--:|--:|")
for label, paths in sets.items():
    for job, py in (("validate", py_validate), ("info", py_info)):
        timed(cli, job, paths), timed(py, paths)  # warm-up: the page cache, the loader
        tool_runs, py_runs = [], []
        for _ in range(rounds):
            tool_runs.append(timed(cli, job, paths))
            py_runs.append(timed(py, paths))
        tw, tc = (statistics.median(r[i] for r in tool_runs) for i in (0, 1))
        pw, pc = (statistics.median(r[i] for r in py_runs) for i in (0, 1))
        print("| %s (%d) | %s | %.3f (%.3f) | %.3f (%.3f) | %.2f (%.2f) |" % (label, len(paths), job, tw, tc, pw, pc,
                                                                          pw / tw, pc / tc))
for label, py in (("convert -r: ferry.convert(folder)", py_convert_tree),
                  ("convert -r: ferry.convert per file", py_convert_files)):
    timed(cli_convert_tree, models), timed(py, models)
    tool_runs, py_runs = [], []
    for _ in range(rounds):
        tool_runs.append(timed(cli_convert_tree, models))
        py_runs.append(timed(py, models))
    tw, tc = (statistics.median(r[i] for r in tool_runs) for i in (0, 1))
    pw, pc = (statistics.median(r[i] for r in py_runs) for i in (0, 1))
    print("| models (%d) | %s | %.3f (%.3f) | %.3f (%.3f) | %.2f (%.2f) |" % (len(models), label, tw, tc, pw, pc,
                                                                        pw / tw, pc / tc))
# the trees written are the same files (the per-file loop writes the same
# names; a model the tree refuses, the loop skips)
def listing(d):
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)
assert listing(os.path.join(scratch, "cli")) == listing(os.path.join(scratch, "py")), "tree outputs differ"
for f in listing(os.path.join(scratch, "cli")):
    a, b = (open(os.path.join(scratch, w, f), "rb").read() for w in ("cli", "py"))
    assert a == b, f
shutil.rmtree(scratch)
PY
