"""docs/python.md's examples run as written: each ```python block, from a
folder that holds the repository's samples where the examples name them,
and what they write is there afterwards."""

import re

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "python.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_doc_has_examples():
    assert len(blocks()) >= 7


@pytest.mark.parametrize("index", range(len(blocks())))
def test_doc_example_runs(index, tmp_path, monkeypatch, capsys):
    for name in ("samples", "fuzz"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    code = blocks()[index]
    exec(compile(code, "%s example %d" % (DOC.name, index + 1), "exec"), {"__name__": "__example__"})
    printed = capsys.readouterr().out
    # what the example writes exists, and it printed what it set out to print
    for written in re.findall(r'"([\w.]+\.(?:glb|png))"', code):
        assert (tmp_path / written).stat().st_size > 0, written
    if "print(" in code:
        assert printed.strip()
