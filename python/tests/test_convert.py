"""ferry.convert and Asset.to_gltf against `ferry convert`: the same bytes
for every option (textures found or given, animations given or found,
all, LODs, allow_invalid, .gltf outputs), the same trees for folders and
archives (`convert -r`), the same refusals; bad input raising ferry.Error
with its location and what the export said."""

import json
import re
import shutil
import struct
from pathlib import Path
from typing import Dict

import pytest

import ferry
from conftest import F, S, cli


def tga(path: Path) -> Path:
    """An 8 x 8 uncompressed 24-bit TGA, a checker of two colours."""
    head = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, 8, 8, 24, 0)
    pixels = b"".join(b"\x20\x80\xff" if (x + y) % 2 else b"\xff\x60\x20" for y in range(8) for x in range(8))
    path.write_bytes(head + pixels)
    return path


def files(folder: Path) -> Dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def mod(tmp_path) -> Path:
    """A mod folder as the game lays it out: a model with its animations
    beside it and its texture in ../Textures."""
    models = tmp_path / "mod" / "Data" / "Art" / "Models"
    models.mkdir(parents=True)
    for name in ("walker.alo", "walker_idle_00.ala", "walker_walk_00.ala", "crate.alo", "p_walker_exhaust.alo"):
        shutil.copy(S / "alamo" / name, models)
    (tmp_path / "mod" / "Data" / "Art" / "Textures").mkdir()
    tga(tmp_path / "mod" / "Data" / "Art" / "Textures" / "walker.tga")
    (tmp_path / "elsewhere").mkdir()
    tga(tmp_path / "elsewhere" / "crate.tga")
    return tmp_path / "mod"


def said_by_tool(m: ferry.Message, stderr: str) -> bool:
    """The tool printed the message (its own words around the library's:
    "converting anyway (--allow-invalid): ...", "... [rule]")."""
    text = m.text.split(" [")[0]
    return text in stderr or text.split(": ", 1)[-1] in stderr


def same_as_tool(tmp_path: Path, src: Path, args, **options) -> ferry.ExportReport:
    """ferry.convert and Asset.to_gltf write the bytes `ferry convert` writes."""
    n = len(list(tmp_path.glob("tool*")))
    ext = ".gltf" if options.pop("gltf", False) else ".glb"
    theirs, mine, via_asset = (tmp_path / ("%s%d" % (w, n)) for w in ("tool", "mine", "asset"))
    for d in (theirs, mine, via_asset):
        d.mkdir()
    r = cli("convert", src, theirs / ("out" + ext), *args)
    assert r.returncode == 0, r.stderr
    report = ferry.convert(src, mine / ("out" + ext), **options)
    with ferry.open(src) as asset:
        again = asset.to_gltf(via_asset / ("out" + ext), **options)
    assert files(mine) == files(theirs) == files(via_asset), (src, args)
    assert report.ok and report.output == str(mine / ("out" + ext)) and report.input == str(src)
    assert (report.warnings, report.animations, report.images, report.missing_textures) == (
        again.warnings, again.animations, again.images, again.missing_textures)
    # every message the export said, the tool printed
    said = r.stderr.decode("utf-8", "replace")
    assert all(said_by_tool(m, said) for m in report.messages), said
    return report


def test_alamo_options(mod, tmp_path):
    walker = mod / "Data" / "Art" / "Models" / "walker.alo"
    crate = mod / "Data" / "Art" / "Models" / "crate.alo"
    r = same_as_tool(tmp_path, walker, [])
    assert r.format == "alo" and r.images == 1 and r.missing_textures == [] and r.animations == 0
    r = same_as_tool(tmp_path, walker, ["--anim", "auto"], animations="auto")
    assert r.animations == 2
    idle = mod / "Data" / "Art" / "Models" / "walker_idle_00.ala"
    r = same_as_tool(tmp_path, walker, ["--anim", str(idle)], animations=[idle])
    assert r.animations == 1
    with ferry.open(idle) as anim:  # an asset given as the animation: the same
        same_as_tool(tmp_path, walker, ["--anim", str(idle)], animations=[anim])
    r = same_as_tool(tmp_path, walker, ["--no-textures"], no_textures=True)
    assert r.images == 0
    same_as_tool(tmp_path, walker, ["--all"], all=True)
    same_as_tool(tmp_path, walker, [], gltf=True)
    r = same_as_tool(tmp_path, crate, [])
    assert r.missing_textures == ["crate.tga"] and r.warnings == 1
    r = same_as_tool(tmp_path, crate, ["--textures", str(tmp_path / "elsewhere")], textures=[tmp_path / "elsewhere"])
    assert r.missing_textures == [] and r.images == 1
    with ferry.Places() as places:  # a pool shared by a batch: the same
        r2 = ferry.convert(crate, tmp_path / "pooled.glb", textures=[tmp_path / "elsewhere"], places=places)
        assert r2.images == 1
    same_as_tool(tmp_path, mod / "Data" / "Art" / "Models" / "p_walker_exhaust.alo", [])


def test_odol_and_alm_options(tmp_path):
    door = S / "odol" / "door.p3d"
    r = same_as_tool(tmp_path, door, [])
    assert r.format == "odol" and r.odol["lods"] >= 1 and r.odol["game_view"]
    same_as_tool(tmp_path, door, ["--lod", "1"], lod=1)
    same_as_tool(tmp_path, door, ["--lod", "0", "--lod", "1"], lod=[0, 1])
    same_as_tool(tmp_path, door, ["--all"], all=True)
    same_as_tool(tmp_path, door, ["--no-animations"], no_animations=True)
    alm = F / "alm" / "fixture_v10.alm"
    r = same_as_tool(tmp_path, alm, [])
    assert r.format == "alm" and not r.alm["lod"]
    r = same_as_tool(tmp_path, alm, ["--lod", "1"], lod=1)
    assert r.alm["lod"] and r.alm["collapses_applied"] == 1
    same_as_tool(tmp_path, alm, ["--triangles", "1"], triangles=1)


def test_invalid_refused_unless_allowed(tmp_path):
    bad = F / "alo" / "kept_bytes.alo"
    r = cli("convert", bad, tmp_path / "tool.glb")
    assert r.returncode == 1
    with pytest.raises(ferry.Error) as e:
        ferry.convert(bad, tmp_path / "mine.glb")
    assert not (tmp_path / "mine.glb").exists()
    rules = [m.rule for m in e.value.messages]
    assert rules == ["chunk-size", "chunk-size", "not-converted"] and e.value.file == str(bad)
    assert e.value.messages[0].text.startswith("offset 0x8 (8), chunk 0x200/0x201: bone count")
    with ferry.open(bad) as asset:
        with pytest.raises(ferry.Error):
            asset.to_gltf(tmp_path / "mine.glb")
    r = same_as_tool(tmp_path, bad, ["--allow-invalid"], allow_invalid=True)
    assert r.validation_errors == 2 and "converted-anyway" in [m.rule for m in r.messages]


def test_trees_equal_convert_r(mod, made, tmp_path):
    for n, (src, args, options) in enumerate(((mod, [], {}), (S, ["--no-textures"], {"no_textures": True}),
                                              (made["meg"], [], {}), (made["pbo"], ["--all"], {"all": True}))):
        theirs, mine = tmp_path / ("tool%d" % n), tmp_path / ("mine%d" % n)
        r = cli("convert", "-r", "--json", "--jobs", "2", *args, src, theirs)
        tool = json.loads(r.stdout)
        report = ferry.convert(src, mine, jobs=2, **options)
        assert isinstance(report, ferry.TreeReport)
        assert files(mine) == files(theirs) and files(mine), src
        assert (report.converted, report.failed, report.ok) == (tool["converted"], tool["failed"], r.returncode == 0)
        assert len(report.items) == len(tool["files"])
        for item, t in zip(report.items, tool["files"]):
            assert item.input == t["input"] and item.ok == t["ok"]
            if item.ok:  # a failed item's output is where it would have been (the tool prints null)
                assert item.output == t["output"].replace(str(theirs), str(mine))
            assert (item.warnings, item.missing_textures) == (t["warnings"], t["missing_textures"])
            if item.ok:
                assert (item.animations, item.images) == (t["animations"], t["images"])
            else:
                assert isinstance(item.error, ferry.Error) and item.error.message
                assert all(said_by_tool(m, t["messages"]) for m in item.messages)
        # the batch's missing textures: each name once, as the tool's last line lists them
        said = [n for i in report.items if i.ok for n in i.missing_textures]
        said.sort(key=lambda n: (n.lower(), n))
        assert report.missing_textures == [n for k, n in enumerate(said) if k == 0 or n.lower() != said[k - 1].lower()]
        line = re.search(rb"^\d+ textures? missing:(.*)$", r.stderr, re.M)
        assert (line.group(1).decode().split() if line else []) == report.missing_textures
    # the made archives hold a broken model: named, the others converted
    broken = [i for i in ferry.convert(made["pbo"], tmp_path / "again").items if not i.ok]
    assert [i.input for i in broken] == ["%s/art/broken.alo" % made["pbo"]]


def test_bad_input_raises_located_errors(tmp_path, mod):
    with pytest.raises(ferry.FileError) as e:
        ferry.convert(tmp_path / "missing.alo", tmp_path / "x.glb")
    assert e.value.file == str(tmp_path / "missing.alo")
    with pytest.raises(ferry.UnsupportedError) as e:
        ferry.convert(F / "paa" / "dxt1_tags.paa", tmp_path / "x.glb")
    assert "not a model" in str(e.value) or e.value.messages
    with pytest.raises(ferry.Error) as e:
        ferry.convert(S / "alamo" / "walker_idle_00.ala", tmp_path / "x.glb")
    assert e.value.messages[-1].rule == "animation-alone"
    (tmp_path / "cut.alo").write_bytes((S / "alamo" / "walker.alo").read_bytes()[:300])
    with pytest.raises(ferry.Error) as e:
        ferry.convert(tmp_path / "cut.alo", tmp_path / "x.glb")
    assert e.value.offset is not None and e.value.path and e.value.file == str(tmp_path / "cut.alo")
    with pytest.raises(ferry.ArgumentError) as e:
        ferry.convert(S / "odol" / "door.p3d", tmp_path / "x.glb", lod=9)
    assert "LOD 9" in e.value.message
    with pytest.raises(ferry.Error) as e:  # an animation that does not fit
        ferry.convert(S / "alamo" / "crate.alo", tmp_path / "x.glb", animations=[S / "alamo" / "walker_idle_00.ala"])
    assert e.value.messages[-1].rule == "animation-misfit"
    with pytest.raises(ferry.Error):
        ferry.convert(S / "alamo" / "walker.alo", tmp_path / "x.glb", textures=[tmp_path / "no_such_place"])
    with pytest.raises(ferry.FileError):
        ferry.convert(S / "alamo" / "walker.alo", tmp_path / "no" / "folder" / "x.glb")
    with pytest.raises(ferry.Error):  # never over its own input
        ferry.convert(mod / "Data" / "Art" / "Models" / "walker.alo", mod / "Data" / "Art" / "Models" / "walker.alo")
    (tmp_path / "afile").write_bytes(b"")
    with pytest.raises(ferry.ArgumentError):
        ferry.convert(mod, tmp_path / "afile")
    with pytest.raises(ValueError):
        ferry.convert(mod, tmp_path / "t", lod=1)
    with pytest.raises(ValueError):
        ferry.convert(S / "alamo" / "walker.alo", tmp_path / "x.glb", jobs=2)
    with pytest.raises(ValueError):
        ferry.convert(F / "alm" / "fixture_v10.alm", tmp_path / "x.glb", lod=[1, 2])
    # bytes: exported alone (nothing beside them)
    with ferry.open((S / "alamo" / "walker.alo").read_bytes(), name="walker.alo") as asset:
        r = asset.to_gltf(tmp_path / "bytes.glb")
        assert r.input == "walker.alo" and r.images == 0 and r.ok
