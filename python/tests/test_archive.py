"""ferry.Archive and ferry.pack against the ferry tool: entries == `ferry
list --json`, read() and extract() == the bytes `ferry extract` writes (the
same refusals for hostile names), pack() == the bytes `ferry pack` writes;
bad input of every kind raising ferry.Error with its location."""

import json
import os
import struct
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import ferry
from conftest import SAMPLES, SHARED, S, cli, skip


def megf(out: Path, files: List[Tuple[str, bytes]]) -> Path:
    """A MEG format 1 archive written here byte by byte (independent of the
    library: records of zero CRCs, which reading does not need), holding
    each (stored name, bytes), hostile names included."""
    names = sum(2 + len(n.encode("latin-1")) for n, _ in files)
    start = 8 + names + 20 * len(files)
    head = struct.pack("<II", len(files), len(files))
    head += b"".join(struct.pack("<H", len(n.encode("latin-1"))) + n.encode("latin-1") for n, _ in files)
    for i, (_, data) in enumerate(files):
        head += struct.pack("<IIIII", 0, i, len(data), start, i)
        start += len(data)
    out.write_bytes(head + b"".join(d for _, d in files))
    return out


def archives(made) -> List[Path]:
    return SAMPLES["meg"] + SAMPLES["pbo"] + [made["meg"], made["pbo"]]


def tree(folder: Path) -> Dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_entries_equal_ferry_list(made):
    for path in archives(made):
        listed = json.loads(cli("list", "--json", path).stdout)
        with ferry.Archive(path) as a:
            assert a.format.key == {"MEG": "meg", "PBO": "pbo"}[listed["format"]]
            assert a.size == listed["size"] == path.stat().st_size
            assert len(a) == len(listed["files"])
            for e, t in zip(a, listed["files"]):
                assert (e.index, e.name, e.size, e.start) == (t["index"], t["name"], t["size"], t["start"]), path
                assert e.stored_size == t.get("data_size", t["size"])
                assert e.compressed == (t.get("method") == "compressed")
            if listed["format"] == "PBO":  # its property, else the file name it is mounted at
                assert a.prefix == (listed.get("prefix") or path.stem)
            else:
                assert a.prefix is None


def test_read_and_extract_equal_ferry_extract(made, tmp_path):
    for n, path in enumerate(archives(made)):
        theirs, mine = tmp_path / ("cli%d" % n), tmp_path / ("py%d" % n)
        r = cli("extract", path, theirs)
        with ferry.Archive(path) as a:
            report = a.extract(mine)
            assert report.ok == (r.returncode == 0) and report.extracted == len(tree(theirs))
            assert tree(mine) == tree(theirs), path
            for e in a:
                if e.raw_name:
                    rel = e.name.replace("\\", "/")
                    assert a.read(e) == (theirs / rel).read_bytes() == a.read(e.index) == a.read(e.name)


def test_corpus_archives_equal_the_tool(tmp_path):
    """Every MEG and PBO of the corpus: entries, bytes and extracted trees
    as the tool's (skipped without ../shared/corpus)."""
    corpus = SHARED / "corpus"
    if not corpus.is_dir():
        skip("no corpus at %s (the project's own tests pass without it)" % corpus)
    found = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in (".meg", ".pbo"))
    assert found
    for n, path in enumerate(found):
        listed = json.loads(cli("list", "--json", path).stdout)
        theirs, mine = tmp_path / ("cli%d" % n), tmp_path / ("py%d" % n)
        r = cli("extract", path, theirs)
        with ferry.Archive(path) as a:
            assert [(e.index, e.name, e.size, e.start) for e in a] == [
                (t["index"], t["name"], t["size"], t["start"]) for t in listed["files"]], path
            report = a.extract(mine)
            assert report.ok == (r.returncode == 0)
        assert tree(mine) == tree(theirs), path


def test_extract_patterns(made, tmp_path):
    cli("extract", made["pbo"], tmp_path / "cli", "*.ALA", "art/walker.*")
    with ferry.Archive(made["pbo"]) as a:
        report = a.extract(tmp_path / "py", patterns=["*.ALA", "art/walker.*"])
    assert tree(tmp_path / "py") == tree(tmp_path / "cli") and len(tree(tmp_path / "py")) == 2
    assert report.selected == 2 and report.refused == 0


def test_hostile_names_refused_as_the_tool_refuses(tmp_path):
    data = (S / "alamo/crate.alo").read_bytes()
    evil = megf(tmp_path / "evil.meg", [("C:\\EVIL\\DRIVE.ALO", data), ("..\\..\\ESCAPE.ALO", data),
                                         ("DATA\\..\\..\\UP.ALO", data), ("\\ROOT.ALO", data),
                                         ("GOOD\\CRATE.ALO", data), ("good\\crate.alo", data), ("FINE.ALO", data)])
    out = tmp_path / "deep" / "out"
    out.parent.mkdir()
    r = cli("extract", evil, tmp_path / "cli")
    assert r.returncode == 1
    with ferry.Archive(evil) as a:
        report = a.extract(out)
    assert tree(out) == tree(tmp_path / "cli") == {"FINE.ALO": data}
    assert report.extracted == 1 and report.refused == 6 and not report.ok
    rules = [m.rule for m in report.messages]
    assert rules.count("entry-name") == 4 and rules.count("entry-case") == 2
    said = r.stderr.decode()
    for m in report.messages:
        assert m.kind == "error" and m.file == str(evil) and m.text in said
    # nothing outside the folder: the folder above holds only what was there
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli", "deep", "evil.meg"]
    assert [p.name for p in (tmp_path / "deep").iterdir()] == ["out"]


def test_open_entry_as_asset(made, tmp_path):
    with ferry.Archive(made["pbo"]) as a:
        model = a.open("art\\walker.alo")
        assert model.format.key == "alo" and model.name == "%s:art\\walker.alo" % made["pbo"]
        with ferry.open(S / "alamo/walker.alo") as disk:
            assert model.info()["bones"] == disk.info()["bones"] and model.write() == disk.write()
        # exported with its animation found beside it in the archive, as convert -r does
        report = model.to_gltf(tmp_path / "w.glb", animations="auto")
        assert report.animations == 1
        with pytest.raises(ferry.Error) as e:
            a.open("art\\broken.alo")
        assert e.value.file == "%s:art\\broken.alo" % made["pbo"] and e.value.offset == 0
    assert model.closed  # closed with its archive


def test_bad_archives_raise_located_errors(made, tmp_path):
    with pytest.raises(ferry.FileError):
        ferry.Archive(tmp_path / "missing.meg")
    with pytest.raises(ferry.UnsupportedError) as e:
        ferry.Archive(S / "alamo/walker.alo")
    assert "not an archive" in e.value.message
    good = made["meg"].read_bytes()
    for cut in (3, 12, 40):  # the tables cut: refused when opened, located
        bad = tmp_path / ("cut%d.meg" % cut)
        bad.write_bytes(good[:cut])
        with pytest.raises(ferry.Error) as e:
            ferry.Archive(bad)
        assert e.value.file == str(bad) and e.value.code in ("truncated", "malformed"), cut
        assert e.value.offset is not None and e.value.path and e.value.message
    # the last entry's bytes cut: the archive opens (only its tables are
    # read), reading that entry is refused naming its record
    bad = tmp_path / "short.meg"
    bad.write_bytes(good[:-1])
    with ferry.Archive(bad) as a:
        assert a.read(0) and a.read(1)
        with pytest.raises(ferry.Error) as e:
            a.read(2)
        assert e.value.path == "files[2]" and "outside the archive" in e.value.message and e.value.offset > 0
    with ferry.Archive(made["meg"]) as a:
        with pytest.raises(ferry.ArgumentError):
            a.read("NO SUCH ENTRY")
        with pytest.raises(ferry.ArgumentError):
            a.read(len(a))
        with pytest.raises(ferry.LimitError):
            a.read(0, max_size=1)
        (tmp_path / "file").write_bytes(b"")
        with pytest.raises(ferry.ArgumentError) as e:
            a.extract(tmp_path / "file")
        assert "not a folder" in e.value.message
    with pytest.raises(ValueError):
        a.entries and a.read(0)


def test_pack_equals_ferry_pack(made, tmp_path):
    folder = Path(made["pbo"]).parent / "addon"
    for name, options, args in (("a.meg", {}, []), ("b.meg", {"meg_format": 2}, ["--meg-format", "2"]),
                                ("c.meg", {"meg_format": 3}, ["--meg-format", "3"]), ("d.pbo", {}, []),
                                ("e.pbo", {"prefix": "x\\addon"}, ["--prefix", "x\\addon"])):
        cli("pack", *args, tmp_path / ("cli_" + name), folder)
        report = ferry.pack(tmp_path / name, folder, **options)
        assert (tmp_path / name).read_bytes() == (tmp_path / ("cli_" + name)).read_bytes(), name
        assert report.ok and report.packed == 3 and report.format == name[-3:]
        with ferry.Archive(tmp_path / name) as a:
            assert sorted(e.name.lower() for e in a) == ["art\\broken.alo", "art\\walker.alo",
                                                          "art\\walker_idle_00.ala"]
    # from a list of files, under the names given
    report = ferry.pack(tmp_path / "list.pbo", files=[(S / "alamo/crate.alo", "models/crate.alo")])
    with ferry.Archive(tmp_path / "list.pbo") as a:
        assert [e.name for e in a] == ["models\\crate.alo"] and a.read(0) == (S / "alamo/crate.alo").read_bytes()


def test_pack_refusals_and_failures(tmp_path):
    (tmp_path / "in" / "sub").mkdir(parents=True)
    (tmp_path / "in" / "sub" / "a.txt").write_bytes(b"a")
    (tmp_path / "in" / "sub" / "A.TXT").write_bytes(b"b")
    (tmp_path / "in" / "ok.txt").write_bytes(b"c")
    r = cli("pack", tmp_path / "cli.pbo", tmp_path / "in")
    report = ferry.pack(tmp_path / "py.pbo", tmp_path / "in")
    assert r.returncode == 1 and not report.ok and report.refused == 2 and report.packed == 1
    assert (tmp_path / "py.pbo").read_bytes() == (tmp_path / "cli.pbo").read_bytes()
    assert all(m.rule == "name-case" and m.text in r.stderr.decode() for m in report.messages)
    with pytest.raises(ferry.Error) as e:
        ferry.pack(tmp_path / "x.zip", tmp_path / "in")
    assert e.value.code == "argument"
    with pytest.raises(ferry.Error):
        ferry.pack(tmp_path / "x.meg", tmp_path / "missing")
    with pytest.raises(ferry.Error):
        ferry.pack(tmp_path / "no" / "such" / "folder" / "x.meg", tmp_path / "in")
    with pytest.raises(ValueError):
        ferry.pack(tmp_path / "x.meg")
    with pytest.raises(ValueError):
        ferry.pack(tmp_path / "x.meg", tmp_path / "in", format="zip")


def test_progress_and_a_callback_that_raises(made, tmp_path):
    seen = []
    with ferry.Archive(made["pbo"]) as a:
        a.extract(tmp_path / "a", progress=lambda done, total, item: seen.append((done, total)))
        assert seen[0] == (0, 3) and seen[-1] == (3, 3)

        def boom(done, total, item):
            raise KeyboardInterrupt("stop")
        with pytest.raises(KeyboardInterrupt):
            a.extract(tmp_path / "b", progress=boom)


def test_archive_memory_freed(made):
    import weakref
    a = ferry.Archive(made["meg"])
    asset = a.open("ART\\WALKER.ALO")
    ref = weakref.ref(a)
    del a
    assert ref() is not None  # the asset keeps its archive
    assert asset.info()["bones"] > 0
    del asset
    import gc
    gc.collect()
    assert ref() is None
    for _ in range(2000):
        with ferry.Archive(made["pbo"]) as a:
            a.read(1)
    assert os.path.exists(made["pbo"])
