"""The export the Blender add-on's import asks of the library, timed alone:
Asset.to_gltf with stored PNGs, the skin of every bone and the animations
beside the model (and no faction masks, and the game's texture files, where
the package has those options), into a folder in memory; the best of ROUNDS
per model.

    FERRY_LIBRARY=BUILD/libferry.so python3 bench/addon_export.py PYTHON_DIR ROUNDS MODEL...

PYTHON_DIR: the package's folder (python/ of the tree measured), so that two
trees (before and after a change) can be run one after the other with their
own library (docs/benchmarks.md)."""

import os
import sys
import tempfile
import time

sys.path.insert(0, sys.argv[1])
import ferry  # noqa: E402

rounds = int(sys.argv[2])
folder = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
options = ferry.Asset.to_gltf.__code__.co_varnames
extra = {"faction_masks": False} if "faction_masks" in options else {}
if "native_textures" in options:
    extra["native_textures"] = True
try:
    for model in sys.argv[3:]:
        out = os.path.join(folder, "model.glb")
        best = float("inf")
        with ferry.open(model) as asset:
            for _ in range(rounds):
                t = time.perf_counter()
                with ferry.Places() as places:
                    asset.to_gltf(out, animations="auto", places=places, png_effort="stored", skin_all_bones=True,
                                  **extra)
                best = min(best, time.perf_counter() - t)
        print("%-28s %7.2f ms  %9d bytes" % (os.path.basename(model), best * 1e3, os.path.getsize(out)))
finally:
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    os.rmdir(folder)
