"""Several threads opening, validating, writing and converting at once: each
result equals the one a single thread gets. The library releases the
interpreter's lock while it works (ctypes), so the threads do run at once;
assets are independent, and one asset may be shared (it never changes)."""

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor

import ferry
from conftest import ROOT, SAMPLES

THREADS = 6
ROUNDS = 4


def work(path, out_dir, tag):
    """Everything one file goes through; what it gave, as comparable data."""
    result = {}
    with ferry.open(path) as a:
        caps = a.format.caps
        result["format"] = a.format.key
        if "info" in caps:
            result["info"] = a.info()
        if "validate" in caps:
            result["validate"] = [(d.severity, d.rule, d.offset, d.path, d.message, d.entry) for d in a.validate()]
        if "write" in caps:
            result["write"] = hashlib.sha256(a.write()).hexdigest()
        if "to_scene" in caps and a.format.key not in ("glb", "gltf"):  # glTF is not exported to glTF
            out = out_dir / ("%s_%s.glb" % (tag, path.name))
            a.to_gltf(out)
            result["glb"] = hashlib.sha256(out.read_bytes()).hexdigest()
            out.unlink()
        if a.format.key == "ala":
            result["sample"] = a.sample(frame=2.25, loop=True)
        if a.format.key == "particle":
            result["particles"] = a.particles(0.75, seed=9)
        if a.format.key == "paa":
            result["png"] = hashlib.sha256(a.to_png()).hexdigest()
    return result


def files():
    return [paths[0] for paths in SAMPLES.values()] + [SAMPLES["alm"][-1], SAMPLES["ala"][1]]


def test_threads_give_single_thread_results(tmp_path):
    expected = {p: work(p, tmp_path, "single") for p in files()}
    jobs = [(p, "t%d_%d" % (r, i)) for r in range(ROUNDS) for i, p in enumerate(files())]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        futures = [(p, pool.submit(work, p, tmp_path, tag)) for p, tag in jobs]
        for p, f in futures:
            assert f.result() == expected[p], p


def test_one_asset_shared_by_threads():
    path = SAMPLES["alo"][0]
    with ferry.open(path) as shared:
        expected = (shared.info(), [str(d) for d in shared.validate()], shared.write())
        barrier = threading.Barrier(THREADS)
        failures = []

        def use():
            barrier.wait()
            for _ in range(20):
                got = (shared.info(), [str(d) for d in shared.validate()], shared.write())
                if got != expected:
                    failures.append(got)

        threads = [threading.Thread(target=use) for _ in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures


def tree_outputs(folder):
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_threads_converting_trees_and_files_at_once(tmp_path, made):
    """ferry.convert of the samples folder, of an archive and of single
    files from several threads at once (each tree with 2 jobs of its own):
    the outputs and reports a single call gives."""
    sources = [ROOT / "samples", made["meg"], made["pbo"]]
    expected = {}
    for i, src in enumerate(sources):
        r = ferry.convert(src, tmp_path / ("single%d" % i), jobs=1)
        expected[i] = (tree_outputs(tmp_path / ("single%d" % i)), r.converted, r.failed)
        assert r.converted >= 1 and len(expected[i][0]) == r.converted, src
    files = [SAMPLES["alo"][0], SAMPLES["odol"][1], SAMPLES["alm"][-1], SAMPLES["particle"][0]]
    singles = {}
    for f in files:
        ferry.convert(f, tmp_path / ("one_" + f.name + ".glb"))
        singles[f] = (tmp_path / ("one_" + f.name + ".glb")).read_bytes()

    def tree(job):
        i, n = job
        out = tmp_path / ("t%d_%d" % (n, i))
        r = ferry.convert(sources[i], out, jobs=2)
        return i, (tree_outputs(out), r.converted, r.failed)

    def one(job):
        f, n = job
        out = tmp_path / ("f%d_%s.glb" % (n, f.name))
        ferry.convert(f, out)
        return f, out.read_bytes()

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        trees = [pool.submit(tree, (i, n)) for n in range(2) for i in range(len(sources))]
        ones = [pool.submit(one, (f, n)) for n in range(3) for f in files]
        for fut in trees:
            i, got = fut.result()
            assert got == expected[i], sources[i]
        for fut in ones:
            f, got = fut.result()
            assert got == singles[f], f


def test_one_archive_shared_by_threads(made, tmp_path):
    """One archive read, opened and extracted from several threads at once."""
    with ferry.Archive(made["pbo"]) as shared:
        expected = [shared.read(e) for e in shared]

        def use(n):
            got = []
            for _ in range(20):
                got.append([shared.read(e) for e in shared] == expected)
                with shared.open("art\\walker.alo") as model:
                    got.append(model.info()["bones"] == 7)
            report = shared.extract(tmp_path / ("x%d" % n))
            got.append(report.extracted == 3)
            return all(got)

        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            assert all(pool.map(use, range(THREADS)))
