"""What every test of the Python package shares: the package under test, the
ferry tool to compare with, the samples of every format, the corpus.

Environment:
  FERRY_LIBRARY      the libferry.so to load (default: the repository's build/)
  FERRY_CLI          the ferry tool the results are compared with (default: build/ferry)
  FERRY_SHARED_DIR   the folder holding corpus/ (default: ../shared beside the repository)
  FERRY_TEST_INSTALLED=1   test the installed package instead of the source tree's
  FERRY_REQUIRE_ALL=1      a test that cannot run (no tool, no corpus) fails instead of skipping
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' shared helpers (png_rows)

if not os.environ.get("FERRY_TEST_INSTALLED"):
    sys.path.insert(0, str(ROOT / "python"))
    built = ROOT / "build" / "libferry.so"
    if "FERRY_LIBRARY" not in os.environ and built.exists():
        os.environ["FERRY_LIBRARY"] = str(built)

import ferry  # noqa: E402

if os.environ.get("FERRY_TEST_INSTALLED"):
    assert not str(Path(ferry.__file__).resolve()).startswith(str(ROOT / "python") + os.sep), (
        "FERRY_TEST_INSTALLED: the source tree's package was imported (%s), not the installed one" % ferry.__file__)


def require_all() -> bool:
    return os.environ.get("FERRY_REQUIRE_ALL", "") not in ("", "0")


def skip(reason: str) -> None:
    """The test cannot run here: skipped, or failed under FERRY_REQUIRE_ALL
    (CI, where everything is installed: nothing may pass by not running)."""
    if require_all():
        pytest.fail("FERRY_REQUIRE_ALL is set, but the test cannot run: " + reason)
    pytest.skip(reason)


def _cli_path() -> str:
    given = os.environ.get("FERRY_CLI")
    if given:
        return given
    built = ROOT / "build" / "ferry"
    return str(built) if built.exists() else ""


CLI = _cli_path()
SHARED = Path(os.environ.get("FERRY_SHARED_DIR") or ROOT.parent / "shared")

S = ROOT / "samples"
F = ROOT / "fuzz" / "corpus"

#: One file of every format ferry reads, from the repository (format key -> paths).
SAMPLES: Dict[str, List[Path]] = {
    "alo": [S / "alamo/walker.alo", S / "alamo/crate.alo", S / "alamo/legacy.alo", F / "alo/full_v1.alo",
            F / "alo/full_v2.alo", F / "alo/kept_bytes.alo", F / "alo/minimal.alo"],
    "particle": [S / "alamo/p_walker_exhaust.alo"],
    "ala": [S / "alamo/walker_idle_00.ala", S / "alamo/walker_walk_00.ala", F / "ala/f1_walker_idle_00.ala",
            F / "ala/f2_walker_walk_00.ala"],
    "odol": [S / "odol/box.p3d", S / "odol/door.p3d", S / "odol/grid.p3d"],
    "alm": sorted((F / "alm").glob("*.alm")),
    "glb": [F / "gltf/crate.glb", F / "gltf/walker_walk.glb"],
    "gltf": [F / "gltf/skinned_triangle.gltf"],
    "paa": sorted((F / "paa").glob("*.paa")),
    "meg": sorted((F / "meg").glob("*.meg")),
    "pbo": sorted((F / "pbo").glob("*.pbo")),
    "rap": [F / "config/material.bin", F / "config/kinds.bin"],
    "config_text": [F / "config/material.rvmat", F / "config/kinds.rvmat"],
}


def all_samples() -> List[Path]:
    return [p for paths in SAMPLES.values() for p in paths]


def cli(*args: str, check: bool = True, cwd: str = None) -> subprocess.CompletedProcess:
    """Runs the ferry tool; its stdout as bytes."""
    if not CLI:
        skip("the ferry tool is not built (make), nor named by FERRY_CLI")
    # The tool carries its own sanitizer runtime in a sanitized build: the
    # runtime preloaded for this interpreter (tests/python.sh) would clash.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    r = subprocess.run([CLI] + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                       env=env)
    if check and r.returncode not in (0, 1):
        raise AssertionError("ferry %s: exit %d: %s" % (" ".join(map(str, args)), r.returncode,
                                                      r.stderr.decode(errors="replace")))
    return r


@pytest.fixture(scope="session")
def made(tmp_path_factory) -> Dict[str, Path]:
    """Files the ferry tool makes: archives with a good and a broken entry,
    an ALM built from a model, a raP config rapified from text."""
    d = tmp_path_factory.mktemp("made")
    folder = d / "addon" / "art"
    folder.mkdir(parents=True)
    shutil.copy(S / "alamo/walker.alo", folder)
    shutil.copy(S / "alamo/walker_idle_00.ala", folder)
    (folder / "broken.alo").write_bytes(b"not a model")
    out = {"pbo": d / "addon.pbo", "meg": d / "addon.meg", "alm": d / "walker.alm", "rap": d / "material.rvmat"}
    cli("pack", out["pbo"], d / "addon")
    cli("pack", out["meg"], d / "addon")
    cli("convert", S / "alamo/walker.alo", out["alm"])
    cli("convert", F / "config/material.rvmat", out["rap"])
    for path in out.values():
        assert path.exists(), path
    return out


def corpus_sample(per_kind: int) -> List[Path]:
    """A deterministic sample of the corpus: of each file name ending (.ala,
    .alo, .p3d, .paa, .rvmat, ...), `per_kind` files spread evenly over the
    path order; skipped (failed under FERRY_REQUIRE_ALL) without a corpus."""
    corpus = SHARED / "corpus"
    if not corpus.is_dir():
        skip("no corpus at %s (the project's own tests pass without it)" % corpus)
    kinds: Dict[str, List[Path]] = {}
    for p in sorted(corpus.rglob("*")):
        if p.is_file() and p.name != "README.md":
            kinds.setdefault(p.suffix.lower(), []).append(p)
    picked = []
    for files in kinds.values():
        step = max(1, len(files) // per_kind)
        picked += files[::step][:per_kind]
    return picked
