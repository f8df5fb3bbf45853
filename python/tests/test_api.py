"""Every function of the package on the samples: what it returns, what it
refuses, and that what it says agrees with the library's own reading (a
value read back, a file written back, a count)."""

import gc
import json
import os
import pickle
import struct
import tempfile
from pathlib import Path
from typing import Optional

import pytest

import ferry
from conftest import F, S, SAMPLES, SHARED, all_samples, cli, skip
from png_rows import decode_png, row_filters, zlib_stream

WALKER = S / "alamo/walker.alo"
IDLE = S / "alamo/walker_idle_00.ala"
WALK = S / "alamo/walker_walk_00.ala"
EXHAUST = S / "alamo/p_walker_exhaust.alo"
ALM = F / "alm/fixture_v10.alm"
PAA = F / "paa/dxt1_tags.paa"


def png_size(png: bytes):
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


# ---- the table ----

def test_formats_table():
    keys = [f.key for f in ferry.formats()]
    for key in SAMPLES:
        assert key in keys
    alo = next(f for f in ferry.formats() if f.key == "alo")
    assert alo.name == "ALO model" and alo.extensions[0] == ".alo"
    assert {"read", "write", "validate", "info", "to_scene", "from_scene"} <= alo.caps
    meg = next(f for f in ferry.formats() if f.key == "meg")
    assert "archive" in meg.caps and "to_scene" not in meg.caps
    assert str(alo) == "ALO model"


@pytest.mark.parametrize("path", all_samples(), ids=lambda p: p.name)
def test_open_every_sample(path):
    key = next(k for k, paths in SAMPLES.items() if path in paths)
    with ferry.open(path) as a:
        assert a.format.key == key
        assert a.name == str(path) and a.size == path.stat().st_size
        if "write" in a.format.caps:
            assert a.write() == path.read_bytes()
        if "info" in a.format.caps:
            info = a.info()
            assert info["format"] == a.format.name and info["file"] == str(path)
        if "validate" in a.format.caps:
            # kept_bytes.alo keeps bytes the format does not allow (for the writer's sake)
            report = a.validate()
            assert report.valid == (path.name != "kept_bytes.alo"), [str(d) for d in report.errors]
    assert a.closed


def test_open_sources(tmp_path):
    data = WALKER.read_bytes()
    # bytes are the content; a path is a str or an os.PathLike
    for source in (data, bytearray(data), memoryview(data), WALKER, str(WALKER)):
        with ferry.open(source) as a:
            assert a.format.key == "alo" and a.write() == data
    # bytes have no name unless given one
    with ferry.open(data) as a:
        assert a.name is None and a.info()["file"] is None
    with ferry.open(data, name="mine.alo") as a:
        assert a.name == "mine.alo" and a.info()["file"] == "mine.alo"
    # a bytearray changed after the open does not change the asset (copied)
    buf = bytearray(data)
    with ferry.open(buf) as a:
        buf[:] = b"\0" * len(buf)
        assert a.write() == data
    # the content decides, not the name
    renamed = tmp_path / "walker.bin"
    renamed.write_bytes(data)
    assert ferry.open(renamed).format.key == "alo"


def test_open_options():
    # forced format: the reader of that format refuses what is not its
    with pytest.raises(ferry.Error) as e:
        ferry.open(WALKER, format="ala")
    assert e.value.format == "ala"
    with pytest.raises(ValueError):
        ferry.open(WALKER, format="nope")
    # bytes_only: no object, each call reads for itself
    with ferry.open(b"not a known format at all", bytes_only=True) as a:
        assert a.format.key == "unknown" and not a.format.caps
        report = a.validate()
        assert not report.valid and report[0].rule == "not-validated"
        with pytest.raises(ferry.Error):
            a.info(detail="full")  # no chunk tree either
    with ferry.open(WALKER, bytes_only=True) as a:
        assert a.info()["bones"] == ferry.open(WALKER).info()["bones"]
    # memory limit
    with pytest.raises(ferry.LimitError):
        ferry.open(WALKER, memory_limit=1024)
    # size limit of ferry_asset_open
    with pytest.raises(ferry.Error):
        ferry.open(WALKER, max_size=100)


def test_open_refusals(tmp_path):
    with pytest.raises(ferry.FileError) as e:
        ferry.open(tmp_path / "missing.alo")
    assert isinstance(e.value, OSError)
    assert "missing.alo" in str(e.value)
    with pytest.raises(ferry.FileError):
        ferry.open(tmp_path)  # a folder
    with pytest.raises(ferry.UnsupportedError) as e:
        ferry.open(b"hello world, no format")
    assert e.value.code == "unsupported" and e.value.offset == 0
    assert "not a known format" in e.value.message
    with pytest.raises(ferry.Error):
        ferry.open(b"")


# ---- life ----

def test_close_and_context():
    a = ferry.open(WALKER)
    assert not a.closed and "alo" in repr(a)
    a.close()
    a.close()  # twice: nothing
    assert a.closed and "closed" in repr(a)
    for call in (a.info, a.validate, a.write, lambda: a.save("x"), lambda: a.to_gltf("x.glb")):
        with pytest.raises(ValueError):
            call()
    with ferry.open(WALKER) as b:
        pass
    assert b.closed


def test_garbage_collection_frees():
    import weakref
    a = ferry.open(WALKER)
    finalizer = a._finalizer
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None and not finalizer.alive


# ---- info ----

def test_info_details(made):
    with ferry.open(WALKER) as a:
        s = a.info()
        assert s["bones"] == 7 and s["format"] == "ALO model"
        full = a.info(detail="full")
        assert full != s and json.dumps(full)
        exact = a.info(exact=True)
        assert exact.keys() == s.keys()
        with pytest.raises(ValueError):
            a.info(detail="everything")
        with pytest.raises(ferry.ArgumentError):
            a.info(detail="entries")
    with ferry.open(made["pbo"]) as p:
        entries = p.info(detail="entries")
        names = json.dumps(entries)
        assert "walker.alo" in names and "broken.alo" in names
    # a format without info
    with ferry.open(F / "gltf/crate.glb") as g:
        with pytest.raises(ferry.UnsupportedError):
            g.info()


# ---- validate ----

def test_validate_report():
    with ferry.open(WALKER) as a:
        r = a.validate()
        # beside the sample there is no walker.tga: the lookup as the game does
        assert r.valid and r.error_count == 0 and r.warning_count == len(r.warnings) == 1
        d = r[0]
        assert (d.severity, d.rule, d.entry) == ("warning", "texture-missing", None)
        assert d.offset is not None and d.path.startswith("0x400") and "walker.tga" in d.message
        # the line the tool prints, but for the file's name
        line = cli("validate", WALKER).stdout.decode().splitlines()[0]
        assert line == "%s: %s" % (WALKER, d)
        assert len(a.validate(textures=False)) == 0


def test_validate_texture_dirs(tmp_path):
    textures = tmp_path / "tex"
    textures.mkdir()
    (textures / "WALKER.DDS").write_bytes(b"x")  # found by name, any case, .tga as .dds
    with ferry.open(WALKER) as a:
        assert not a.validate(texture_dirs=[textures]).warnings
    with ferry.open(WALKER.read_bytes()) as a:
        assert a.validate().warnings == []  # bytes: no place to look, not checked
        assert not a.validate(texture_dirs=[textures]).warnings
        assert a.validate(textures=True, texture_dirs=[tmp_path]).warnings


def test_validate_animation_against_model(tmp_path):
    with ferry.open(IDLE) as anim, ferry.open(WALKER) as model:
        assert anim.validate(model=model).valid
        with pytest.raises(ferry.ArgumentError):
            anim.validate(model=anim)
    # a model whose bones the animation does not name: warnings
    with ferry.open(IDLE) as anim, ferry.open(S / "alamo/crate.alo") as crate:
        r = anim.validate(model=crate)
        assert r.valid and {d.rule for d in r.warnings} & {"anim-bone-missing", "anim-bone-range",
                                                          "anim-bone-mismatch"}


def test_validate_archive_entries(made):
    for kind in ("pbo", "meg"):
        with ferry.open(made[kind]) as a:
            r = a.validate()
            assert not r.valid and r.error_count == 1
            (broken,) = [d for d in r if d.entry and "broken" in d.entry.lower()]  # MEG names are upper case
            assert broken.entry.startswith(str(made[kind]) + ":") and broken.severity == "error"
            assert broken.rule == "read-error" and broken.offset == 0 and "not a known format" in broken.message
            own = [d for d in r if d.entry is None]
            assert not [d for d in own if d.severity == "error"]


# ---- write and save ----

def test_write_layouts(tmp_path):
    with ferry.open(IDLE) as f1:
        two = f1.write(layout=2)
        with ferry.open(two) as f2:
            assert f2.info()["ala_format"] == 2
            assert f2.write(layout=1) == IDLE.read_bytes()
            assert f2.sample(frame=3.5) == {**f1.sample(frame=3.5), "file": None}
    with ferry.open(F / "config/material.rvmat") as text:
        with pytest.raises(ferry.UnsupportedError):
            text.write()
        rap = text.write(layout="rap")
        assert rap[:4] == b"\0raP"
        assert b"class" in text.write(layout="text")
    with ferry.open(WALKER) as a:
        with pytest.raises(ferry.ArgumentError):
            a.write(layout=2)
        with pytest.raises(ValueError):
            a.write(layout="rapid")


def test_save(tmp_path):
    for path in (WALKER, F / "meg/format2.meg", F / "pbo/addon.pbo"):
        out = tmp_path / ("copy" + path.suffix)
        with ferry.open(path) as a:
            a.save(out)
        assert out.read_bytes() == path.read_bytes()
    own = tmp_path / "own.alo"
    own.write_bytes(WALKER.read_bytes())
    with ferry.open(own) as a:
        with pytest.raises(ferry.Error):
            a.save(own)  # never over its own input
    assert own.read_bytes() == WALKER.read_bytes()
    with ferry.open(WALKER) as a:
        with pytest.raises(ferry.FileError):
            a.save(tmp_path / "no" / "such" / "folder.alo")
    assert not [p for p in tmp_path.iterdir() if "ferry-tmp" in p.name]


# ---- glTF ----

def test_to_gltf(tmp_path):
    with ferry.open(WALKER) as a:
        a.to_gltf(tmp_path / "w.glb")
        a.to_gltf(tmp_path / "w_all.glb", all=True)
        a.to_gltf(tmp_path / "w.gltf")
    glb = (tmp_path / "w.glb").read_bytes()
    assert glb[:4] == b"glTF"
    assert (tmp_path / "w.bin").exists()
    doc = json.loads((tmp_path / "w.gltf").read_text())
    assert doc["asset"]["version"] == "2.0" and doc["nodes"]
    # read back: a glTF is an asset too
    with ferry.open(tmp_path / "w.glb") as g:
        assert g.format.key == "glb"
    with ferry.open(IDLE) as anim:
        with pytest.raises(ferry.UnsupportedError):
            anim.to_gltf(tmp_path / "a.glb")
    with ferry.open(S / "odol/door.p3d") as p3d:
        p3d.to_gltf(tmp_path / "d0.glb", lod=0)
        p3d.to_gltf(tmp_path / "d_all.glb", all=True)
        p3d.to_gltf(tmp_path / "d_static.glb", no_animations=True)
        with pytest.raises(ValueError):
            p3d.to_gltf(tmp_path / "x.glb", triangles=3)
    with ferry.open(ALM) as alm:
        alm.to_gltf(tmp_path / "full.glb")
        alm.to_gltf(tmp_path / "lod1.glb", lod=1)
        alm.to_gltf(tmp_path / "tri.glb", triangles=1)
        with pytest.raises(ValueError):
            alm.to_gltf(tmp_path / "x.glb", lod=[1, 2])
        with pytest.raises(ValueError):
            alm.to_gltf(tmp_path / "x.glb", lod=1, error=0.5)
    assert (tmp_path / "full.glb").read_bytes() != (tmp_path / "lod1.glb").read_bytes()
    with ferry.open(WALKER) as a:
        with pytest.raises(ferry.Error):
            a.to_gltf(tmp_path / "missing" / "x.glb")


# ---- animations ----

def test_sample():
    with ferry.open(WALK) as a, ferry.open(WALKER) as model:
        info = a.info()
        s = a.sample(frame=2.5)
        assert s["frame"] == 2.5 and s["frames"] == info["frames"] and s["loop"] is False
        assert [b["name"] for b in s["bones"]] == [b["name"] for b in info["bone_list"]]
        for b in s["bones"]:
            assert len(b["translation"]) == 3 and len(b["rotation"]) == 4 and len(b["scale"]) == 3
            assert abs(sum(q * q for q in b["rotation"]) - 1) < 1e-6  # unit quaternions
        # a time is its frame
        t = a.sample(time=0.2)
        assert t["frame"] == pytest.approx(0.2 * info["fps"])
        assert t["bones"] == a.sample(frame=t["frame"])["bones"]
        # past the end: held, or wrapped (the last frame is the first again)
        last = info["frames"] - 1
        assert a.sample(frame=last + 5)["bones"] == a.sample(frame=last)["bones"]
        assert a.sample(frame=last + 2, loop=True)["bones"] == a.sample(frame=2, loop=True)["bones"]
        # exact: the float values themselves, within float precision of the 9 digits
        ex = a.sample(frame=2.5, exact=True)
        for b9, b17 in zip(s["bones"], ex["bones"]):
            for v9, v17 in zip(b9["rotation"], b17["rotation"]):
                assert struct.pack("<f", v9) == struct.pack("<f", v17)
        named = a.sample(frame=1, model=model)
        assert named["bones"][0]["index"] == s["bones"][0]["index"]
        with pytest.raises(ValueError):
            a.sample()
        with pytest.raises(ValueError):
            a.sample(frame=1, time=1)
        with pytest.raises(ferry.ArgumentError):
            a.sample(frame=-1)
        with pytest.raises(ferry.ArgumentError):
            a.sample(frame=float("nan"))
        with pytest.raises(ferry.ArgumentError):
            a.sample(time=1e308)
        with pytest.raises(ferry.ArgumentError):
            a.sample(frame=1, model=a)
    with ferry.open(WALKER) as m:
        with pytest.raises(ferry.UnsupportedError) as e:
            m.sample(frame=0)
        assert "not an animation" in str(e.value)


# ---- particle systems ----

def test_particles():
    with ferry.open(EXHAUST) as p:
        info = p.info()
        at = p.particles(0.5, seed=3)
        assert at["time"] == 0.5
        assert [e["name"] for e in at["emitters"]] == [e["name"] for e in info["emitters"]]
        parts = [q for e in at["emitters"] for q in e["particles"]]
        assert parts and all(0 <= q["age"] <= 0.5 + 1e-6 for q in parts)
        assert p.particles(0.5, seed=3) == at
        assert p.particles(0.5, seed=4) != at
        assert p.particles(0.0)["time"] == 0.0
        ex = p.particles(0.5, seed=3, exact=True)
        assert [q["id"] for e in ex["emitters"] for q in e["particles"]] == [q["id"] for q in parts]
        with pytest.raises(ferry.ArgumentError):
            p.particles(-1)
        with pytest.raises(ferry.ArgumentError):
            p.particles(float("inf"))
    with ferry.open(WALKER) as m:
        with pytest.raises(ferry.UnsupportedError):
            m.particles(1.0)


def test_render(tmp_path):
    with ferry.open(EXHAUST) as p:
        with pytest.warns(ferry.TextureWarning, match="p_walker_smoke.tga"):
            png = p.render(tmp_path / "p.png", time=0.5, size=(64, 48))
        assert png_size(png) == (64, 48)
        assert (tmp_path / "p.png").read_bytes() == png
        with pytest.warns(ferry.SimulationWarning, match="no live particles"):
            empty = p.render(time=0.0, size=(32, 32), textures=False)
        assert png_size(empty) == (32, 32)
        with pytest.warns(ferry.TextureWarning):  # no places: every texture is a glow
            assert p.render(time=0.5, seed=1, textures=False) != p.render(time=0.5, seed=2, textures=False)
        with pytest.raises(ValueError):
            p.render(size=(0, 10))
        with pytest.raises(ferry.ArgumentError):
            p.render(time=-1, textures=False)
    with ferry.open(WALKER) as m:
        with pytest.raises(ferry.UnsupportedError):
            m.render()


def _glb_pngs(path: Path):
    """The PNG images a .glb embeds, in order."""
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + length])
    binary = data[20 + length + 8:]
    views = doc["bufferViews"]
    return [binary[views[i["bufferView"]].get("byteOffset", 0):][:views[i["bufferView"]]["byteLength"]]
            for i in doc.get("images", [])]


def _png_pixels(png: bytes):
    """(width, height, rows) of a PNG, decoded apart from libpng."""
    width, height, _, rows = decode_png(png)
    return width, height, rows


def _stored_deflate(png: bytes) -> Optional[bytes]:
    """The bytes of a PNG's zlib stream when it is stored deflate blocks
    only (RFC 1951 block type 00), else None."""
    z = zlib_stream(png)
    pos, out = 2, b""  # after the zlib header
    while True:
        head = z[pos]
        if (head >> 1) & 3 != 0:
            return None
        length, inverse = struct.unpack_from("<HH", z, pos + 1)
        assert length ^ inverse == 0xFFFF
        out += z[pos + 5:pos + 5 + length]
        pos += 5 + length
        if head & 1:
            return out


def test_to_gltf_png_efforts(tmp_path):
    # the walker beside a texture of the name it asks for: a 24-bit TGA
    # made here, a gradient with a pattern deflate can find
    (tmp_path / "walker.alo").write_bytes(WALKER.read_bytes())
    w, h = 96, 64
    pixels = bytes(v for y in range(h) for x in range(w) for v in ((x * 8) & 255, (y * 4) & 255, (x ^ y) & 255))
    (tmp_path / "walker.tga").write_bytes(struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, w, h, 24, 0)
                                          + pixels)
    with ferry.open(tmp_path / "walker.alo") as a:
        small = a.to_gltf(tmp_path / "small.glb")
        fast = a.to_gltf(tmp_path / "fast.glb", png_effort="fast")
        stored = a.to_gltf(tmp_path / "stored.glb", png_effort="stored")
        with pytest.raises(ValueError, match="png_effort 'quick'"):
            a.to_gltf(tmp_path / "quick.glb", png_effort="quick")
    assert not (tmp_path / "quick.glb").exists()
    assert small.images == fast.images == stored.images == 1
    (small_png,), (fast_png,) = _glb_pngs(tmp_path / "small.glb"), _glb_pngs(tmp_path / "fast.glb")
    (stored_png,) = _glb_pngs(tmp_path / "stored.glb")
    # the default is the tool's bytes; fast writes others of the same pixels
    cli("convert", str(tmp_path / "walker.alo"), str(tmp_path / "tool.glb"))
    assert (tmp_path / "tool.glb").read_bytes() == (tmp_path / "small.glb").read_bytes()
    assert small_png != fast_png
    # fast: no row filter; the default chooses one per row (libpng's heuristic)
    assert set(row_filters(fast_png)) == {0} and set(row_filters(small_png)) != {0}
    assert _png_pixels(small_png) == _png_pixels(fast_png) == _png_pixels(stored_png)
    # stored: no filter and no compression, so the zlib stream is stored
    # blocks only, which hold the rows as they are, each after its filter
    # byte 0
    assert set(row_filters(stored_png)) == {0}
    _, _, rows = _png_pixels(stored_png)
    assert _stored_deflate(stored_png) == b"".join(b"\0" + row for row in rows)
    assert _stored_deflate(fast_png) is None
    # and they are the texture's (a TGA holds blue, green, red, its rows
    # bottom to top)
    width, height, rows = _png_pixels(fast_png)
    assert (width, height) == (w, h)
    assert rows == [bytes(v for x in range(w) for v in ((x ^ t) & 255, (t * 4) & 255, (x * 8) & 255))
                    for t in range(h - 1, -1, -1)]


def test_to_gltf_faction_masks():
    # a shipped model whose colorize shader's texture lies in ../Textures:
    # by default its faction mask is an image of its own, named by the
    # material's extras; faction_masks=False leaves both out, and the other
    # images are the same bytes
    model = SHARED / "corpus/alamo/ueaw/Models/VCFr_NEBULONB_D.ALO"
    if not model.is_file():
        skip("no corpus model %s (the project's own tests pass without it)" % model)
    with tempfile.TemporaryDirectory() as tmp, ferry.open(model) as a:
        out = Path(tmp)
        kept = a.to_gltf(out / "kept.glb", png_effort="stored")
        left = a.to_gltf(out / "left.glb", png_effort="stored", faction_masks=False)
        assert (kept.images, left.images) == (3, 2)

        def doc(path: Path):
            data = path.read_bytes()
            return json.loads(data[20:20 + struct.unpack_from("<I", data, 12)[0]])
        kept_doc, left_doc = doc(out / "kept.glb"), doc(out / "left.glb")
        masks = [m["extras"]["faction_mask"] for m in kept_doc["materials"] if "faction_mask" in m.get("extras", {})]
        assert masks and all("mask" in kept_doc["images"][m["image"]]["name"] for m in masks)
        assert not any("faction_mask" in m.get("extras", {}) for m in left_doc["materials"])
        assert not any("mask" in i["name"] for i in left_doc["images"])
        kept_pngs = dict(zip((i["name"] for i in kept_doc["images"]), _glb_pngs(out / "kept.glb")))
        for name, png in zip((i["name"] for i in left_doc["images"]), _glb_pngs(out / "left.glb")):
            assert kept_pngs[name] == png


def test_to_gltf_native_textures():
    # native_textures: the normal map (used as its file has it) is named by
    # the file's absolute path, with no bytes and no mimeType; the colorize
    # colour (its alpha left out) is embedded as a DXT1 DDS of its colour
    # blocks. A normal map found in an archive has no file of its own: a PNG.
    model = SHARED / "corpus/alamo/ueaw/Models/VCFr_NEBULONB_D.ALO"
    if not model.is_file():
        skip("no corpus model %s (the project's own tests pass without it)" % model)
    normal = os.path.realpath(model.parent.parent / "Textures" / "RV_NEBULONB_BC.DDS")

    def doc(path: Path):
        data = path.read_bytes()
        return json.loads(data[20:20 + struct.unpack_from("<I", data, 12)[0]])
    with tempfile.TemporaryDirectory() as tmp, ferry.open(model) as a:
        out = Path(tmp)
        report = a.to_gltf(out / "linked.glb", png_effort="stored", faction_masks=False, native_textures=True)
        assert report.images == 2
        images = doc(out / "linked.glb")["images"]
        linked = [i for i in images if "uri" in i]
        assert linked == [{"name": "RV_NebulonB_BC", "uri": normal}]
        assert [(i["name"], i["mimeType"]) for i in images if "bufferView" in i] == [
            ("RV_NebulonB (colour)", "image/vnd-ms.dds")]
        # the tool's .gltf: the linked file is not written beside it
        a.to_gltf(out / "linked.gltf", native_textures=True, faction_masks=False)
        assert sorted(p.name for p in out.iterdir() if p.suffix in (".png", ".dds")) == ["linked_image0.dds"]
        textures = model.parent.parent / "Textures"
        ferry.pack(out / "textures.meg", files=[(textures / "RV_NEBULONB.DDS", "RV_NEBULONB.DDS"),
                                                (textures / "RV_NEBULONB_BC.DDS", "RV_NEBULONB_BC.DDS")])
        with ferry.open(model.read_bytes(), name=model.name) as b:
            b.to_gltf(out / "meg.glb", textures=[out / "textures.meg"], native_textures=True, faction_masks=False)
            assert [(i["mimeType"], "uri" in i) for i in doc(out / "meg.glb")["images"]] == [
                ("image/vnd-ms.dds", False), ("image/png", False)]
            # a folder given for the textures is the disk's: linked again
            b.to_gltf(out / "dir.glb", textures=[textures], native_textures=True, faction_masks=False)
            assert [i for i in doc(out / "dir.glb")["images"] if "uri" in i] == linked


# ---- textures ----

def test_to_png(tmp_path):
    with ferry.open(PAA) as t:
        mips = t.info()["mipmaps"]
        for level, mip in enumerate(mips):
            png = t.to_png(mip=level)
            assert png_size(png) == (mip["width"], mip["height"])
        t.to_png(tmp_path / "m0.png")
        assert (tmp_path / "m0.png").read_bytes() == t.to_png()
        with pytest.raises(ferry.ArgumentError):
            t.to_png(mip=len(mips))
    with ferry.open(WALKER) as m:
        with pytest.raises(ferry.UnsupportedError):
            m.to_png()


# ---- ALM ----

def test_alm_lods():
    with ferry.open(ALM) as m:
        info = m.info()
        lods = m.lods
        assert len(lods) == info["collapses"] + 1 and lods[0] == info["triangles"]
        for row in info["lods"]:  # the info's levels agree with the counts
            assert lods[row["collapses"]] == row["triangles"]
        for k in range(len(lods)):
            lod = m.lod(k)
            assert lod.collapses == k and len(lod.triangles) == lods[k]
            assert all(v < len(lod.vertex_source) for t in lod.triangles for v in t[:3])
        assert m.lod().collapses == 0
        assert len(m.lod(triangles=1).triangles) <= 1
        assert m.lod(error=0.0).last_error <= 0.0
        with pytest.raises(ValueError):
            m.lod(1, triangles=2)
        with pytest.raises(ValueError):
            m.lod(-1)
    with ferry.open(WALKER) as a:
        with pytest.raises(ferry.UnsupportedError):
            a.lods
        with pytest.raises(ferry.UnsupportedError):
            a.lod(0)


# ---- errors ----

def test_error_fields_and_pickle():
    data = WALKER.read_bytes()[:100]
    with pytest.raises(ferry.Error) as e:
        ferry.open(data, name="cut.alo")
    err = e.value
    assert isinstance(err, ferry.TruncatedError) and err.code == "truncated"
    assert err.offset is not None and err.offset <= 100 and err.path and err.message
    assert err.file == "cut.alo" and err.format == "alo"
    assert str(err).startswith("cut.alo: offset 0x")
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err) and str(again) == str(err) and again.path == err.path


def test_version_is_the_library_s():
    """ferry.version() asks the library loaded (ferry_version); the header
    and CMake state the same (CMake checks the header against its project
    version), and so does the tool and the package's metadata."""
    root = Path(__file__).resolve().parents[2]
    header = (root / "include/ferry/ferry.h").read_text()
    assert ferry.version() == ferry.__version__
    assert '#define FERRY_VERSION_STRING "%s"' % ferry.version() in header
    assert 'project(ferry VERSION %s ' % ferry.version() in (root / "CMakeLists.txt").read_text()
    assert 'version = "%s"' % ferry.version() in (root / "python/pyproject.toml").read_text()
    assert cli("--version").stdout.decode().strip() == "ferry " + ferry.version()


# ---- places ----

def test_places_give_the_same_reports(tmp_path):
    textures = tmp_path / "tex"
    textures.mkdir()
    (textures / "walker.tga").write_bytes(b"x")
    with ferry.Places() as places:
        for path in (WALKER, S / "alamo/crate.alo", EXHAUST):
            with ferry.open(path) as a:
                for dirs in ((), (textures,)):
                    assert a.validate(texture_dirs=dirs) == a.validate(texture_dirs=dirs, places=places)
        with ferry.open(EXHAUST) as p, pytest.warns(ferry.TextureWarning):
            assert p.render(time=0.5, size=(32, 32), places=places) == p.render(time=0.5, size=(32, 32))
    with pytest.raises(ValueError):
        with ferry.open(WALKER) as a:
            a.validate(places=places)  # closed


def test_places_list_each_folder_once(tmp_path):
    """A texture added after its folder was listed is not seen through the
    same Places (each folder listed once), and is through a new one."""
    model = tmp_path / "walker.alo"
    model.write_bytes(WALKER.read_bytes())
    with ferry.Places() as places, ferry.open(model) as a:
        assert a.validate(places=places).warnings
        (tmp_path / "walker.tga").write_bytes(b"x")
        assert a.validate(places=places).warnings
        assert not a.validate().warnings
        with ferry.Places() as fresh:
            assert not a.validate(places=fresh).warnings


def test_text_rule():
    from ferry import _native
    assert _native.text("café".encode()) == "café"
    assert _native.text(b"caf\xe9") == "café"  # not UTF-8: Latin-1, by the library
    assert _native.text(b"\xed\xa0\x80") == "\xed\xa0\x80"  # a surrogate is not UTF-8
    assert _native.text(b"") == ""


def test_bytes_only_assets_refuse_typed_calls():
    for path, call in ((PAA, lambda a: a.to_png()), (ALM, lambda a: a.lod(0)), (ALM, lambda a: a.lods),
                       (EXHAUST, lambda a: a.render(textures=False))):
        with ferry.open(path, bytes_only=True) as a:
            with pytest.raises(ferry.ArgumentError):
                call(a)
            a.info()  # the verbs read an object for themselves
    with ferry.open(EXHAUST, bytes_only=True) as p:
        assert p.particles(0.5) == ferry.open(EXHAUST).particles(0.5)
