"""ferry.validate_tree against `ferry validate -r --json`: the same items
(files, archives' entries, unreadable ones) with the same diagnostics, the
same counts; bad paths reported as items, not exceptions."""

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import ferry
from conftest import S, SHARED, cli


def cli_items(*paths: Path) -> List[Dict[str, Any]]:
    r = cli("validate", "-r", "--json", *paths)
    return json.loads(r.stdout)


def diag_tuples(ds: List[Any]) -> List[tuple]:
    return [(d["severity"], d["rule"], d["offset"], d["path"], d["message"]) for d in ds]


def compare(report: ferry.ValidateReport, expected: List[Dict[str, Any]]) -> None:
    by_file = {e["file"]: e for e in expected}
    assert len(report.items) == len(expected)
    for item in report.items:
        e = by_file[item.file]
        if item.error is not None:
            assert "error" in e or e.get("error_count", 1) >= 1, e
            continue
        mine = [(d.severity, d.rule, d.offset, d.path, d.message) for d in item.diagnostics]
        theirs = diag_tuples(e.get("errors", []) + e.get("warnings", []))
        assert sorted(mine, key=repr) == sorted(theirs, key=repr), item.file
        assert item.error_count == e["error_count"], item.file


def test_samples_as_the_tool() -> None:
    report = ferry.validate_tree(S)
    compare(report, cli_items(S))
    assert report.checked == len([i for i in report.items if not i.entry and not i.folder])
    assert report.ok == all(e.get("valid", False) for e in cli_items(S))


def test_made_archives(made: Dict[str, Path]) -> None:
    for kind in ("pbo", "meg"):
        report = ferry.validate_tree(made[kind], recursive=False)
        compare(report, cli_items(made[kind]))
        assert any(i.entry for i in report.items)
        assert not report.ok  # broken.alo inside


def test_corpus_folder_as_the_tool() -> None:
    folder = SHARED / "corpus" / "pbo"
    if not folder.is_dir():
        pytest.skip("no corpus at %s (the project's own tests pass without it)" % folder)
    report = ferry.validate_tree(folder)
    compare(report, cli_items(folder))


def test_missing_path_is_an_item(tmp_path: Path) -> None:
    report = ferry.validate_tree(tmp_path / "nothing.alo", recursive=False)
    assert len(report.items) == 1 and report.items[0].error is not None
    assert not report.ok and report.invalid == 1


def test_folder_without_recursive_is_unreadable(tmp_path: Path) -> None:
    report = ferry.validate_tree(tmp_path, recursive=False)
    assert len(report.items) == 1 and report.items[0].error is not None


def test_no_paths() -> None:
    with pytest.raises(ValueError):
        ferry.validate_tree([])
