"""Runs inside Blender for bench/blender.sh: the add-on installed from its
zip, then per model, ROUNDS times each in a fresh empty scene (the best round kept: the
machine is shared, and the best is the least disturbed), the add-on's
import (ferry's .glb, Blender's importer, the add-on's sorting) timed
against Blender's own importer on the .glb the ferry tool writes with the
same options; and what the add-on's import of everything holds (for the
comparison with the ALAMO plugin).

    blender -b --factory-startup --python THIS -- ZIP OUT.json ROUNDS MODEL GLB GLB_NO_TEXTURES [...]

GLB is the tool's `ferry convert --anim auto` (textures embedded as PNG),
GLB_NO_TEXTURES the same with --no-textures (the add-on's import with
its Textures option off is timed against it).
"""

import json
import sys
import time

import addon_utils
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
ZIP, OUT, ROUNDS = args[0], args[1], int(args[2])
TRIPLES = list(zip(args[3::3], args[4::3], args[5::3]))


def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable("ferry_blender", default_set=True)


def timed(call):
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def what_we_import(model):
    """Our import of everything, counted as the plugin's driver counts."""
    fresh()
    op = bpy.ops.import_scene.ferry_p3d if model.lower().endswith(".p3d") else bpy.ops.import_scene.ferry_alo
    op(filepath=model, view="ALL")
    objs = list(bpy.context.scene.objects)
    meshes = [o for o in objs if o.type == "MESH"]
    arms = [o for o in objs if o.type == "ARMATURE"]
    return {
        "meshes": len(meshes),
        "bones": sum(len(a.data.bones) for a in arms),
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
        "vertices": sum(len(o.data.vertices) for o in meshes),
        "proxies": sum(1 for o in objs if o.get("alamo") == "proxy"),
        "hidden": sum(1 for o in meshes if not o.visible_get()),
        "shaders": sorted(str(m.get("shader")) for o in meshes for m in o.data.materials if m and m.get("shader")),
        "materials": len({m.name for o in meshes for m in o.data.materials if m}),
        "images": sum(1 for i in bpy.data.images if i.type == "IMAGE"),
        "actions": len(bpy.data.actions),
        "lights": sum(1 for o in objs if o.type == "LIGHT"),
    }


def main():
    bpy.ops.preferences.addon_install(filepath=ZIP)
    fresh()
    import numpy
    if "bool" not in numpy.__dict__:
        numpy.bool = bool
    # warm-up: the importer's modules loaded before anything is timed
    bpy.ops.import_scene.gltf(filepath=TRIPLES[0][1])
    out = []
    for model, glb, glb_plain in TRIPLES:
        op = bpy.ops.import_scene.ferry_p3d if model.lower().endswith(".p3d") else bpy.ops.import_scene.ferry_alo
        r = {"model": model}
        for key, textures, path in (("", True, glb), ("_no_textures", False, glb_plain)):
            ours, theirs = [], []
            for _ in range(ROUNDS):
                fresh()
                ours.append(timed(lambda: op(filepath=model, use_textures=textures)))
                fresh()
                theirs.append(timed(lambda: bpy.ops.import_scene.gltf(filepath=path, bone_heuristic="BLENDER",
                                                                      guess_original_bind_pose=False)))
            r["addon" + key] = min(ours)
            r["gltf" + key] = min(theirs)
        r["counts"] = what_we_import(model)
        out.append(r)
    with open(OUT, "w") as f:
        json.dump(out, f)


main()
