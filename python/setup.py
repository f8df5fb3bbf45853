"""The build step of the ferry package: libferry.so into the package.

The package itself is pure Python (ctypes); its wheel carries the library
beside its modules, where ferry/_native.py looks first. The library is

1. the file the FERRY_LIBRARY environment variable names (``make
   python-wheel`` passes the one it has just built), or else
2. built from this repository with CMake (the library alone: no CLI, tests
   or benchmarks) into build/libferry/ beside this file, again on each
   build (CMake rebuilds only what changed), or else, when the sources or
   CMake are missing,
3. none: the package then loads the system's libferry (``make install``),
   which must be there at run time.

A wheel holding the library is for one platform but any Python 3: tagged
py3-none-PLATFORM.
"""

import ctypes.util
import glob
import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _log(text):
    sys.stderr.write("ferry setup: %s\n" % text)


def _built_library():
    """The path of a libferry.so to bundle, or None (the system's is used)."""
    explicit = os.environ.get("FERRY_LIBRARY")
    if explicit:
        if not os.path.isfile(explicit):
            raise SystemExit("ferry setup: FERRY_LIBRARY=%s is not a file" % explicit)
        return os.path.realpath(explicit)
    if not os.path.isfile(os.path.join(REPO, "CMakeLists.txt")) or not os.path.isdir(os.path.join(REPO, "src")):
        return _no_sources("the repository's sources are not beside this folder")
    cmake = shutil.which("cmake")
    if not cmake:
        return _no_sources("cmake is not installed (Debian: apt-get install cmake)")
    build = os.path.join(HERE, "build", "libferry")
    configure = [cmake, "-S", REPO, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DFERRY_CLI=OFF",
                 "-DFERRY_ASSIMP=OFF", "-DFERRY_TESTS=OFF", "-DFERRY_BENCH=OFF", "-DFERRY_FUZZ=OFF"]
    jobs = str(os.cpu_count() or 2)
    _log("building libferry with CMake in %s" % build)
    try:
        subprocess.run(configure, check=True, stdout=sys.stderr)
        subprocess.run([cmake, "--build", build, "--target", "ferry_shared", "-j", jobs], check=True,
                       stdout=sys.stderr)
    except (OSError, subprocess.CalledProcessError) as exc:
        return _no_sources("building libferry failed (%s); the README lists the Debian packages it needs" % exc)
    found = sorted(glob.glob(os.path.join(build, "libferry.so.*.*.*")) + glob.glob(os.path.join(build, "*.dll")))
    if not found:
        raise SystemExit("ferry setup: CMake built no libferry.so in %s" % build)
    return found[0]


def _no_sources(why):
    system = ctypes.util.find_library("ferry")
    if system:
        _log("%s: the package will use the system's libferry (%s)" % (why, system))
        return None
    raise SystemExit("ferry setup: %s, and no libferry is installed: build it (make) and set FERRY_LIBRARY to "
                     "build/libferry.so, or install it (make install)" % why)


class BuildPyWithLibrary(build_py):
    """build_py, then libferry copied into the package being built."""

    def run(self):
        super().run()
        library = _built_library()
        if library is None:
            return
        target_dir = os.path.join(self.build_lib, "ferry")
        os.makedirs(target_dir, exist_ok=True)
        name = "ferry.dll" if library.endswith(".dll") else "libferry.so"
        target = os.path.join(target_dir, name)
        shutil.copyfile(library, target)
        os.chmod(target, 0o755)
        _log("bundled %s as %s" % (library, target))


class PlatformDistribution(Distribution):
    """The wheel holds a shared library: a platform wheel, not a pure one."""

    def has_ext_modules(self):
        return True


commands = {"build_py": BuildPyWithLibrary}
try:
    from wheel.bdist_wheel import bdist_wheel

    class BdistWheelAnyPython(bdist_wheel):
        """py3-none-PLATFORM: the library is loaded through ctypes, so any
        CPython 3 (and Blender's) uses the same wheel."""

        def get_tag(self):
            _, _, platform = super().get_tag()
            return "py3", "none", platform

    commands["bdist_wheel"] = BdistWheelAnyPython
except ImportError:  # no wheel package: pip's own install path does not need the tag
    pass

setup(cmdclass=commands, distclass=PlatformDistribution)
