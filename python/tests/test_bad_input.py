"""Bad input of every format: ferry.Error with its location, never a crash.

Each sample is cut short at many lengths and has bytes changed at random
(seeded: the same damage every run), then opened read as its own format.
What the reader refuses raises a ferry.Error located as the library located
it: a byte offset inside the input (or, for glTF, a JSON path); what it
accepts is described, validated, written and converted without a crash."""

import random

import pytest

import ferry
from conftest import SAMPLES


def damaged(data: bytes, seed: int):
    """Cuts at 0, 1, ..., 64 bytes and at 40 lengths spread over the file,
    then 40 copies with 4 bytes changed."""
    rng = random.Random(seed)
    lengths = sorted(set(list(range(0, min(len(data), 65))) + [rng.randrange(len(data)) for _ in range(40)]))
    for n in lengths:
        yield "cut at %d" % n, data[:n]
    for k in range(40):
        copy = bytearray(data)
        for _ in range(4):
            copy[rng.randrange(len(copy))] = rng.randrange(256)
        yield "changed %d" % k, bytes(copy)


def exercise(asset: ferry.Asset, tmp_path) -> None:
    """Whatever reads is described and checked without a crash."""
    caps = asset.format.caps
    if "info" in caps:
        asset.info()
    if "validate" in caps:
        asset.validate()
    if "write" in caps:
        asset.write()
    if "to_scene" in caps:
        try:
            asset.to_gltf(tmp_path / "out.glb")
        except ferry.Error as e:
            assert e.message
    try:
        if asset.format.key == "ala":
            asset.sample(frame=1.5)
        elif asset.format.key == "particle":
            asset.particles(0.5)
        elif asset.format.key == "paa":
            asset.to_png()
        elif asset.format.key == "alm":
            asset.lod(1)
    except ferry.Error as e:
        assert e.message


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_damaged_samples_raise_located_errors(key, tmp_path):
    path = SAMPLES[key][0]
    data = path.read_bytes()
    refused = 0
    for what, bytes_ in damaged(data, seed=len(data)):
        try:
            asset = ferry.open(bytes_, name="bad" + path.suffix, format=key)
        except ferry.Error as e:
            refused += 1
            assert e.code in ("truncated", "malformed", "unsupported", "limit"), (what, e)
            assert e.message, what
            assert e.file == "bad" + path.suffix
            assert isinstance(e.path, str)
            located = (e.offset is not None and e.offset <= len(bytes_)) or (e.offset is None and e.path)
            assert located, "%s %s: not located: %r" % (key, what, e)
            continue
        with asset:
            exercise(asset, tmp_path)
    assert refused > 0, "%s: no damage refused" % key


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_damaged_by_content(key):
    """Told by content (no format forced): refused with a located error, or
    read as whatever the content now is."""
    data = SAMPLES[key][0].read_bytes()
    for what, bytes_ in damaged(data, seed=len(data) + 1):
        try:
            with ferry.open(bytes_) as a:
                assert a.format.key in {f.key for f in ferry.formats()}
        except ferry.Error as e:
            assert e.offset is not None or e.path, (what, e)


def test_every_format_names_where(tmp_path):
    """One hand-made damage per format, its error checked field by field."""
    cases = {
        # an Alamo chunk announcing more than the file holds
        "alo": (bytes.fromhex("00020000" "10000000"), "truncated", 0, "0x200"),
        # an ODOL of an unknown version
        "odol": (b"ODOL" + bytes.fromhex("07000000"), "unsupported", 4, ""),
    }
    for key, (data, code, offset, path) in cases.items():
        with pytest.raises(ferry.Error) as e:
            ferry.open(data, name="x", format=key)
        assert (e.value.code, e.value.offset) == (code, offset), e.value
        assert e.value.path.startswith(path)
