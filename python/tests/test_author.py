"""ferry.author_alo and ferry.author_ala against `ferry convert IN.glb
OUT.alo|OUT.ala`: the same files (the model, its animations, its .dds
textures), the same messages; from a path and from a .glb's bytes; errors
raising ferry.Error with their location and what the job said."""

from pathlib import Path
from typing import Dict

import pytest

import ferry
from conftest import F, S, cli


def files(folder: Path) -> Dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_author_alo_equals_the_tool(tmp_path):
    # a model exported by ferry with its animations and texture, then authored back
    (tmp_path / "src").mkdir()
    glb = tmp_path / "src" / "walker.glb"
    ferry.convert(S / "alamo" / "walker.alo", glb, animations=[S / "alamo" / "walker_idle_00.ala",
                                                               S / "alamo" / "walker_walk_00.ala"])
    for n, (args, options) in enumerate((([], {}), (["--ala-format", "1"], {"ala_format": 1}))):
        theirs, mine = tmp_path / ("tool%d" % n), tmp_path / ("mine%d" % n)
        theirs.mkdir()
        mine.mkdir()
        r = cli("convert", glb, theirs / "walker.alo", *args)
        assert r.returncode == 0, r.stderr
        report = ferry.author_alo(glb, mine / "walker.alo", **options)
        assert files(mine) == files(theirs) and len(files(mine)) == 3
        assert report.ok and report.output == str(mine / "walker.alo")
        assert report.details["animations_written"] == 2 and report.details["bones"] > 0
        said = r.stderr.decode()
        for m in report.messages:
            assert m.text.replace(str(mine), str(theirs)) in said, m
        with ferry.open(mine / "walker.alo") as model:
            assert model.validate().valid
    # the same through ferry.convert, which routes IN.glb -> OUT.alo as the tool does
    (tmp_path / "convert").mkdir()
    assert ferry.convert(glb, tmp_path / "convert" / "walker.alo").ok
    assert files(tmp_path / "convert") == files(tmp_path / "tool0")
    # the same from the .glb's bytes
    (tmp_path / "bytes").mkdir()
    report = ferry.author_alo(glb.read_bytes(), tmp_path / "bytes" / "walker.alo", name="walker.glb")
    assert files(tmp_path / "bytes") == files(tmp_path / "tool0")


def test_author_alo_textures_folder(tmp_path):
    glb = F / "gltf" / "crate.glb"
    (tmp_path / "tool").mkdir()
    (tmp_path / "mine").mkdir()
    r = cli("convert", glb, tmp_path / "tool" / "crate.alo", "--textures-out", tmp_path / "tool" / "tex")
    assert r.returncode == 0, r.stderr
    report = ferry.author_alo(glb, tmp_path / "mine" / "crate.alo", textures_folder=tmp_path / "mine" / "tex")
    assert files(tmp_path / "mine") == files(tmp_path / "tool")
    assert report.details["textures_written"] == report.details["texture_count"]


def test_author_ala_equals_the_tool(tmp_path):
    glb = F / "gltf" / "walker_walk.glb"
    for n, (args, options) in enumerate((([], {}), (["--ala-format", "1", "--fps", "15"], {"format": 1, "fps": 15}),
                                         (["--model", str(S / "alamo" / "walker.alo")], {"model": True}))):
        theirs, mine = tmp_path / ("tool%d.ala" % n), tmp_path / ("mine%d.ala" % n)
        r = cli("convert", glb, theirs, *args)
        assert r.returncode == 0, r.stderr
        if options.pop("model", False):
            with ferry.open(S / "alamo" / "walker.alo") as model:
                report = ferry.author_ala(glb, mine, model=model, **options)
        else:
            report = ferry.author_ala(glb, mine, **options)
        assert mine.read_bytes() == theirs.read_bytes(), args
        if not args:
            ferry.convert(glb, tmp_path / "convert.ala")
            assert (tmp_path / "convert.ala").read_bytes() == theirs.read_bytes()
            ferry.author_ala(glb, tmp_path / "named.ala", animation="animation 0")  # by name, as --animation NAME
            assert (tmp_path / "named.ala").read_bytes() == theirs.read_bytes()
        assert report.ok and report.details["frames"] > 0 and report.details["tracks"] > 0
        with ferry.open(mine) as anim:
            assert anim.validate().valid and anim.info()["frames"] == report.details["frames"]


def test_author_paa_equals_the_tool(tmp_path):
    with ferry.open(S / "alamo" / "p_walker_exhaust.alo") as system:
        png = system.render(time=1.0, size=(64, 64))
    (tmp_path / "smoke.png").write_bytes(png)
    for n, (name, args, options) in enumerate((("a.paa", [], {}), ("b.pac", ["--dxt1", "--no-lzo"],
                                                                    {"type": "dxt1", "no_lzo": True}),
                                                 ("c_nohq.paa", [], {}), ("d_nohq.paa", ["--srgb"], {"linear": False}),
                                                 ("e.paa", ["--linear", "--dxt5"], {"linear": True, "type": "dxt5"}))):
        theirs, mine = tmp_path / ("tool_" + name), tmp_path / ("mine_" + name)
        r = cli("convert", tmp_path / "smoke.png", theirs, *args)
        assert r.returncode == 0, r.stderr
        report = ferry.author_paa(tmp_path / "smoke.png", mine, **options)
        assert mine.read_bytes() == theirs.read_bytes(), args
        assert report.ok and report.details["width"] == 64 and report.details["bytes"] == len(mine.read_bytes())
        assert report.details["type"].encode() in r.stderr  # the tool's summary names the same type
    with pytest.raises(ferry.UnsupportedError) as e:  # another format's content
        ferry.author_paa(S / "alamo" / "walker.alo", tmp_path / "x.paa")
    assert "not an image (its format is ALO model)" in e.value.message and e.value.file.endswith("walker.alo")
    with pytest.raises(ferry.FileError) as e:  # the output cannot be written
        ferry.author_paa(tmp_path / "smoke.png", tmp_path / "no" / "x.paa")
    assert e.value.file.endswith("x.paa")
    with pytest.raises(ValueError):
        ferry.author_paa(tmp_path / "smoke.png", tmp_path / "x.paa", type="dxt3")


def test_author_errors(tmp_path):
    with pytest.raises(ferry.FileError) as e:
        ferry.author_alo(tmp_path / "missing.glb", tmp_path / "x.alo")
    assert e.value.file == str(tmp_path / "missing.glb")
    cut = (F / "gltf" / "crate.glb").read_bytes()[:100]
    with pytest.raises(ferry.Error) as e:
        ferry.author_alo(cut, tmp_path / "x.alo", name="cut.glb")
    assert e.value.file == "cut.glb" and e.value.offset is not None and e.value.message
    (tmp_path / "bad.gltf").write_text('{"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": '
                                       '{"POSITION": 7}}]}], "nodes": [{"mesh": 0}]}')
    with pytest.raises(ferry.Error) as e:
        ferry.author_alo(tmp_path / "bad.gltf", tmp_path / "x.alo")
    assert e.value.path  # a JSON path: meshes[0]/...
    with pytest.raises(ferry.Error) as e:  # an animation index the glTF lacks
        ferry.author_ala(F / "gltf" / "walker_walk.glb", tmp_path / "x.ala", animation=5)
    assert e.value.code == "argument"
    with pytest.raises(ferry.Error) as e:  # no animation at all
        ferry.author_ala(F / "gltf" / "crate.glb", tmp_path / "x.ala")
    with pytest.raises(ferry.ArgumentError) as e:  # a name the glTF lacks
        ferry.author_ala(F / "gltf" / "walker_walk.glb", tmp_path / "x.ala", animation="run")
    assert "'run'" in e.value.message
    with ferry.open(S / "alamo" / "walker_idle_00.ala") as not_a_model:
        with pytest.raises(ferry.ArgumentError):
            ferry.author_ala(F / "gltf" / "walker_walk.glb", tmp_path / "x.ala", model=not_a_model)
    with pytest.raises(ferry.Error):  # never over its input
        ferry.author_alo(F / "gltf" / "crate.glb", F / "gltf" / "crate.glb")
    with pytest.raises(ferry.FileError):
        ferry.author_alo(F / "gltf" / "crate.glb", tmp_path / "no" / "such" / "x.alo")
    for bad in ({"ala_format": 3},):
        with pytest.raises(ValueError):
            ferry.author_alo(F / "gltf" / "crate.glb", tmp_path / "x.alo", **bad)
    for bad in ({"format": 7}, {"fps": -1}, {"animation": -1}):
        with pytest.raises(ValueError):
            ferry.author_ala(F / "gltf" / "walker_walk.glb", tmp_path / "x.ala", **bad)
    assert not list(tmp_path.glob("x.*"))
