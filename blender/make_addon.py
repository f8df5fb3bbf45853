"""Builds the add-on's zip (make blender-addon): the add-on package
(blender/ferry_blender), the Python package (python/ferry) inside it as
ferry_blender/ferry, and the build's libferry.so beside that package's
modules, where it looks first. Entries are sorted and dated 1980-01-01, so
that the same inputs give the same zip.

    python3 blender/make_addon.py LIBFERRY OUT.zip
"""

import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ADDON = os.path.join(HERE, "ferry_blender")
PACKAGE = os.path.join(ROOT, "python", "ferry")
WANTED = (".py", ".toml", ".typed")


def files(folder, prefix):
    out = []
    for base, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(names):
            if name.endswith(WANTED):
                path = os.path.join(base, name)
                out.append((path, prefix + "/" + os.path.relpath(path, folder).replace(os.sep, "/")))
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: make_addon.py LIBFERRY OUT.zip")
    library, out = argv[1], argv[2]
    if not os.path.isfile(library):
        sys.exit("make_addon.py: %s: no such library (make builds it)" % library)
    entries = files(ADDON, "ferry_blender") + files(PACKAGE, "ferry_blender/ferry")
    # The library under the name the package's loader looks for beside it;
    # a symbolic link (libferry.so -> libferry.so.0 -> ...) is stored as the file.
    entries.append((os.path.realpath(library), "ferry_blender/ferry/libferry.so"))
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for path, name in sorted(entries, key=lambda e: e[1]):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            with open(path, "rb") as f:
                z.writestr(info, f.read())
    os.replace(tmp, out)
    print("%s: %d files" % (out, len(entries)))


if __name__ == "__main__":
    main(sys.argv)
