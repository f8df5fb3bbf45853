#!/usr/bin/env python3
"""The mechanical part of the public API convention (docs/api.md).

Renames public headers and identifiers across the whole tree: src, include,
tests, tools, fuzz, bench, examples, docs and the top-level files. Run it
from the repository root (or pass the root as the only argument). It is
idempotent: running it again on a renamed tree changes nothing, so it can be
re-run after merging branches that still use the old names.

Signature changes (validators' options, the gltf save merge) are not done
here: they are hand edits in their own commits.
"""
import os
import re
import subprocess
import sys

# Header files: old path -> new path (moved with git mv when present).
FILES = {
    "include/ferry/chunk.h": "include/ferry/alamo_chunk.h",
}

# Plain text replacements, applied before the identifier renames.
TEXT = [
    ("<ferry/chunk.h>", "<ferry/alamo_chunk.h>"),
    ("include/ferry/chunk.h", "include/ferry/alamo_chunk.h"),
    ("FERRY_CHUNK_H", "FERRY_ALAMO_CHUNK_H"),
    # docs/architecture.md lists the headers by base name
    (" chunk.h (chunk tree)", " alamo_chunk.h (Alamo chunk tree)"),
]

# Identifiers, renamed where they stand as whole words.
IDENTIFIERS = {
    # the Alamo chunk tree's functions carry the name of their header
    "ferry_chunk_read": "ferry_alamo_chunk_read",
    "ferry_chunk_write": "ferry_alamo_chunk_write",
    "ferry_chunk_tree_free": "ferry_alamo_chunk_free",  # ferry_X_free pairs with ferry_X_read
    "ferry_alamo_chunk_tree_free": "ferry_alamo_chunk_free",  # the name an earlier run of this script gave
    "ferry_chunk_path": "ferry_alamo_chunk_path",
    "ferry_mini_chunks_parse": "ferry_alamo_mini_chunks_parse",
    "ferry_mini_chunks_plausible": "ferry_alamo_mini_chunks_plausible",
}

DIRS = ["src", "include", "tests", "tools", "fuzz", "bench", "examples", "docs"]
TOP = ["README.md", "CMakeLists.txt", "Makefile", "CHANGELOG.md", "CONTRIBUTING.md"]
EXTS = {".c", ".h", ".md", ".txt", ".sh", ".py", ".cmake", ".in", ".mjs", ".js", ".json", ".yml", ".yaml", ""}
SKIP_DIRS = {"node_modules", "build", ".git", "corpus"}
# this script, and docs/api.md whose table lists the old names on purpose
SKIP_FILES = {os.path.normpath("tools/api_rename.py"), os.path.normpath("docs/api.md")}


def files(root):
    for top in TOP:
        if os.path.isfile(os.path.join(root, top)):
            yield top
    for d in DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = [n for n in dirnames if n not in SKIP_DIRS and not os.path.islink(os.path.join(dirpath, n))]
            for name in filenames:
                path = os.path.join(dirpath, name)
                rel = os.path.normpath(os.path.relpath(path, root))
                if rel in SKIP_FILES or os.path.islink(path):
                    continue
                ext = os.path.splitext(name)[1]
                if ext in EXTS or name == "Makefile":
                    yield rel


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    for old, new in FILES.items():
        if os.path.exists(os.path.join(root, old)) and not os.path.exists(os.path.join(root, new)):
            if subprocess.call(["git", "-C", root, "mv", old, new], stderr=subprocess.DEVNULL) != 0:
                os.rename(os.path.join(root, old), os.path.join(root, new))  # not a git tree
            print("moved", old, "->", new)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, IDENTIFIERS)) + r")\b")
    changed = 0
    for rel in files(root):
        path = os.path.join(root, rel)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, IsADirectoryError):
            continue
        new = text
        for old, repl in TEXT:
            new = new.replace(old, repl)
        new = pattern.sub(lambda m: IDENTIFIERS[m.group(1)], new)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            changed += 1
            print("renamed in", rel)
    print(f"{changed} files changed")


if __name__ == "__main__":
    main()
