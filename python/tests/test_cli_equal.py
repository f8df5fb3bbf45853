"""The package gives what the ferry tool gives, on every sample and on a
deterministic sample of the corpus (../shared/corpus; skipped without it):

- info:      asset.info() == the object of `ferry info --json FILE`
             (detail="full": of `ferry dump --json FILE`)
- validate:  asset.validate(), in the tool's report shape, == `ferry validate
             --json FILE` (an animation is checked alone: copied into a folder
             of its own, since the tool pairs it with a model beside it)
- failures:  a file the tool cannot read: ferry.Error with the tool's
             read_error (code, offset, path, message)
- write:     asset.write() == the bytes of `ferry convert FILE OUT.<same>`
- glTF:      asset.to_gltf(OUT.glb) == `ferry convert FILE OUT.glb` (the
             library's export: textures looked up, invalid files refused with
             the same validation errors), and ferry.convert(FILE, OUT.glb) too
- sample, particles: == `ferry sample --json`, `ferry particles --json`
- render, to_png: the PNG bytes of `ferry render`, `ferry convert X.paa Y.png`
"""

import json
import shutil
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

import ferry
from conftest import all_samples, cli, corpus_sample

_NAMES = {f.key: f.name for f in ferry.formats()}


def strip_latin1(value: Any) -> Any:
    """The tool's validate report without its "latin1" lists: the package's
    Diagnostic strings are the same text (read by the same rule) without the
    marker. (info, dump, sample and particles come from the library's JSON
    in both, "latin1" lists included: compared whole.)"""
    if isinstance(value, dict):
        return {k: strip_latin1(v) for k, v in value.items() if k != "latin1"}
    if isinstance(value, list):
        return [strip_latin1(v) for v in value]
    return value


def tool_json(*args) -> Any:
    r = cli(*args)
    return json.loads(r.stdout.decode("utf-8"))


def read_error(e: ferry.Error) -> Dict[str, Any]:
    return {"code": e.code, "offset": e.offset, "path": e.path, "message": e.message}


def failure(file: str, e: ferry.Error) -> Dict[str, Any]:
    return {"file": file, "format": _NAMES.get(e.format) if e.format else None, "read_error": read_error(e),
            "valid": False}


def diag_json(d: ferry.Diagnostic) -> Dict[str, Any]:
    return {"severity": d.severity, "rule": d.rule, "offset": d.offset, "path": d.path, "message": d.message}


def report_json(file: str, asset: ferry.Asset, report: ferry.Report) -> List[Dict[str, Any]]:
    """The report in the shape `ferry validate --json` prints: the file's
    own object, then one per archive entry checked."""

    def one(name, format_key, diags, error_count, warning_count):
        o = {"file": name, "format": _NAMES.get(format_key) if format_key else None,
             "errors": [diag_json(d) for d in diags if d.severity == "error"],
             "warnings": [diag_json(d) for d in diags if d.severity == "warning"],
             "error_count": error_count, "warning_count": warning_count, "valid": error_count == 0}
        if format_key == "ala":
            o["model"] = None
        return o

    own = [d for d in report if d.entry is None]
    out = [one(file, asset.format.key, own,
               report.error_count - sum(e.error_count for e in report.entries),
               report.warning_count - sum(e.warning_count for e in report.entries))]
    for e in report.entries:
        if e.error is not None:
            out.append(failure(e.label, e.error))
            out[-1]["format"] = _NAMES.get(e.format) if e.format else None
        else:
            out.append(one(e.label, e.format, e.diagnostics, e.error_count, e.warning_count))
    # the flat list holds the entries' problems too, each named by its entry
    listed = []
    for e in report.entries:
        listed += e.diagnostics if e.error is None else [ferry.Diagnostic(
            "error", "read-error", e.error.offset, e.error.path, e.error.message, e.label, e.format)]
    assert [d for d in report if d.entry is not None] == listed
    return out


def same_report(ours: List[Dict[str, Any]], theirs: List[Dict[str, Any]]) -> None:
    assert [o["file"] for o in ours] == [t["file"] for t in theirs]
    for o, t in zip(ours, theirs):
        assert o == t


def check_file(path: Path, tmp: Path, done: Optional[Dict[str, int]] = None) -> None:
    """Every comparison that applies to one file; counted in `done`."""
    done = done if done is not None else {}

    def compared(what: str) -> None:
        done[what] = done.get(what, 0) + 1

    name = str(path)
    # info and dump
    info = tool_json("info", "--json", name)[0]
    try:
        asset = ferry.open(path)
    except ferry.Error as e:
        assert failure(name, e) == info
        compared("read failure")
        return
    with asset:
        caps = asset.format.caps
        try:
            ours = asset.info()
        except ferry.Error as e:
            ours = failure(name, e)
            ours["format"] = None  # the tool refuses a format without info as no known format
        assert ours == info
        compared("info")
        if "info" in caps:
            dump = tool_json("dump", "--json", name)
            assert asset.info(detail="full") == (dump[0] if isinstance(dump, list) else dump)
            compared("dump")

        if "archive" in caps:
            assert asset.info(detail="entries") == tool_json("list", "--json", name)
            compared("list")

        # validate: an animation alone, in a folder of its own
        if "validate" in caps:
            alone = path
            if asset.format.key == "ala":
                (tmp / "alone").mkdir(exist_ok=True)
                alone = tmp / "alone" / path.name
                shutil.copyfile(path, alone)
            with ferry.open(alone) as checked:
                ours_report = report_json(str(alone), checked, checked.validate())
            same_report(ours_report, strip_latin1(tool_json("validate", "--json", alone)))
            compared("validate")

        # written back
        if "write" in caps:
            out = tmp / ("copy" + path.suffix)
            r = cli("convert", name, out)
            assert r.returncode == 0, r.stderr
            assert asset.write() == out.read_bytes()
            compared("write")
        elif asset.format.key == "config_text" and path.suffix.lower() == ".rvmat":
            out = tmp / "copy.rvmat"
            cli("convert", name, out)
            assert asset.write(layout="rap") == out.read_bytes()

        # glTF, where the tool converts
        if "to_scene" in caps and asset.format.key not in ("glb", "gltf"):
            theirs = tmp / "tool.glb"
            r = cli("convert", name, theirs)
            mine, converted = tmp / "mine.glb", tmp / "converted.glb"
            if r.returncode == 0:
                report = asset.to_gltf(mine)
                assert mine.read_bytes() == theirs.read_bytes()
                assert ferry.convert(path, converted).missing_textures == report.missing_textures
                assert converted.read_bytes() == theirs.read_bytes()
                compared("glTF")
            else:
                with pytest.raises(ferry.Error) as refused:
                    asset.to_gltf(mine)
                # the tool printed each message the export said, and the failure
                said = r.stderr.decode("utf-8", "replace")
                assert refused.value.messages and all(m.text.split(" [")[0] in said for m in refused.value.messages)
                assert not mine.exists()
                compared("glTF refused by the tool and the package")

        if asset.format.key == "ala":
            for args, kw in ((["--frame", "2.5"], {"frame": 2.5}), (["--time", "0.7", "--loop"],
                                                                      {"time": 0.7, "loop": True})):
                assert asset.sample(**kw) == tool_json("sample", "--json", *args, name)
                compared("sample")
        if asset.format.key == "particle":
            for args, kw in ((["--time", "0.7", "--seed", "3"], {"seed": 3}),
                             (["--time", "0.7", "--ground", "0.25"], {"ground": 0.25}),
                             (["--time", "0.7", "--no-ground"], {"no_ground": True})):
                assert asset.particles(0.7, **kw) == tool_json("particles", "--json", *args, name)
                compared("particles")
            theirs = tmp / "tool.png"
            cli("render", name, theirs, "--time", "0.6", "--seed", "2", "--size", "96x64")
            with _quiet():
                mine = asset.render(time=0.6, seed=2, size=(96, 64))
            assert mine == theirs.read_bytes()
            compared("render")
        if asset.format.key == "paa":
            for mip in range(len(asset.info()["mipmaps"])):
                theirs = tmp / "tool.png"
                r = cli("convert", name, theirs, "--mip", str(mip))
                try:
                    mine = asset.to_png(mip=mip)
                except ferry.Error:
                    assert r.returncode != 0
                    continue
                assert mine == theirs.read_bytes()
                compared("png")


class _quiet:
    """Warnings the tool prints on stderr are the package's warnings: not
    compared here, only let through."""

    def __enter__(self):
        import warnings
        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        self._catch.__exit__(*exc)


@pytest.mark.parametrize("path", all_samples(), ids=lambda p: p.name)
def test_samples_equal_cli(path, tmp_path):
    check_file(path, tmp_path)


@pytest.mark.parametrize("key", ["pbo", "meg", "alm", "rap"])
def test_made_equal_cli(key, made, tmp_path):
    check_file(made[key], tmp_path)


def test_corpus_equal_cli(tmp_path):
    files = corpus_sample(8)
    done: Dict[str, int] = {}
    for i, path in enumerate(files):
        d = tmp_path / str(i)
        d.mkdir()
        check_file(path, d, done)
    print("corpus: %d files; compared: %s" % (len(files), ", ".join("%s %d" % kv for kv in sorted(done.items()))))
    for what in ("info", "dump", "list", "validate", "write", "glTF", "sample", "particles", "render", "png"):
        assert done.get(what), "the corpus sample compared no %s" % what
