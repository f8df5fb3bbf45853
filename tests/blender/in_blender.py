"""Runs inside Blender (blender -b --factory-startup --python THIS -- JOBS.json
OUT.json): installs the add-on's zip into the user scripts folder the
environment names (BLENDER_USER_SCRIPTS, a temporary one), enables it, and
runs the jobs the driver (tests/blender/driver.py) wrote, each in a fresh
empty scene. It reports what Blender holds after each job; the driver
compares that with what the ferry tool says of the same files.

A job: {"name", "op" (import operator of the add-on, or "gltf": Blender's own
importer), "params", "export" (a path: the scene exported with the add-on's
Alamo exporter, "export_params"), "poses" (each action's bone poses at the
frames of its animation), "render" (a PNG path: Workbench), "ala" (an
animation imported onto the armature afterwards: {"path", "params"}),
"build" ("model": a mesh, an armature and an action made from nothing)}.
"""

import contextlib
import io
import json
import math
import struct
import sys
import time
import traceback
import warnings

import addon_utils
import bpy

ARGS = sys.argv[sys.argv.index("--") + 1:]
ZIP, JOBS, OUT = ARGS[0], ARGS[1], ARGS[2]


def enable():
    """The add-on enabled; what it printed or warned while loading."""
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(out):
        warnings.simplefilter("always")
        module = addon_utils.enable("ferry_blender", default_set=True, handle_error=lambda e: print("ERROR", e))
    return module is not None, [str(w.message) for w in caught], out.getvalue()


def registered(op):
    """Whether an operator is registered (bpy.ops makes a wrapper for any
    name; its RNA type exists only for a registered one)."""
    module, name = op.split(".")
    try:
        getattr(getattr(bpy.ops, module), name).get_rna_type()
        return True
    except KeyError:
        return False


def png_block_type(data):
    """The type of the first deflate block in a PNG's first IDAT chunk (0:
    stored, 1 and 2: compressed), or -1 for bytes that are not such a PNG."""
    pos = 8
    while data[:8] == b"\x89PNG\r\n\x1a\n" and pos + 8 <= len(data):
        size, kind = struct.unpack_from(">I4s", data, pos)
        if kind == b"IDAT" and size >= 3:
            return (data[pos + 10] >> 1) & 3  # after the 2-byte zlib header
        pos += 12 + size
    return -1


def counts(objects):
    meshes = [o for o in objects if o.type == "MESH"]
    arms = [o for o in objects if o.type == "ARMATURE"]
    mats = set()
    for o in meshes:
        for m in o.data.materials:
            if m is not None:
                mats.add(m.name)
    hidden = [c for c in bpy.data.collections if c.name.endswith("(not drawn)")]
    return {
        "objects": len(objects),
        "mesh_objects": len(meshes),
        "alamo_meshes": sum(1 for o in objects if o.get("alamo") == "mesh"),
        "lod_nodes": sum(1 for o in objects if "lod" in o.keys() and o.get("resolution") is not None),
        "bones": sum(len(a.data.bones) for a in arms),
        "bone_names": sorted(b.name for a in arms for b in a.data.bones),
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
        "materials": len(mats),
        "images": sum(1 for i in bpy.data.images if i.type == "IMAGE"),
        # the packed PNGs' compression: the first deflate block of each
        "png_blocks": sorted(png_block_type(bytes(i.packed_file.data)) for i in bpy.data.images
                             if i.packed_file is not None and bytes(i.packed_file.data[:4]) != b"DDS "),
        # packed DDS images: their fourCC (a colorize colour's DXT1)
        "packed_dds": sorted(bytes(i.packed_file.data[84:88]).decode("latin-1") for i in bpy.data.images
                             if i.packed_file is not None and bytes(i.packed_file.data[:4]) == b"DDS "),
        # images left where they lie (linked texture files): their paths
        "linked": sorted(bpy.path.abspath(i.filepath) for i in bpy.data.images
                         if i.type == "IMAGE" and i.packed_file is None),
        "actions": sorted(a.name for a in bpy.data.actions),
        "proxies": sorted(str(o.get("proxy")) for o in objects if o.type == "EMPTY" and o.get("alamo") == "proxy"),
        "hidden_collection": sum(len(c.all_objects) for c in hidden),
        "material_props": {m.name: {"shader": m.get("shader"),
                                    "params": m["params"].to_dict() if "params" in m.keys() else None}
                           for m in bpy.data.materials if m.get("shader")},
        "roots": sorted((o.name, o.get("ferry_model", ""), o.get("ferry_entry", "")) for o in objects
                        if o.parent is None and ("ferry_model" in o.keys() or "ferry_archive" in o.keys())),
        "fps": bpy.context.scene.render.fps / bpy.context.scene.render.fps_base,
    }


def poses(arm):
    """Each action's bone poses at every frame of its animation: local
    translation, rotation (x, y, z, w) and scale of each bone relative to
    its parent, as Blender evaluates them, in the animation's frames (its
    fps and frame_count custom properties, the extras ferry wrote)."""
    out = {}
    scene = bpy.context.scene
    rate = scene.render.fps / scene.render.fps_base
    saved = arm.animation_data.action if arm.animation_data else None
    arm.animation_data_create()
    for action in bpy.data.actions:
        fps = float(action.get("fps", rate))
        frames = int(action.get("frame_count", int(round((action.frame_range[1] - action.frame_range[0]) * fps / rate)) + 1))
        arm.animation_data.action = action
        start = action.frame_range[0]
        per_frame = []
        for i in range(frames):
            f = start + i * rate / fps
            scene.frame_set(int(math.floor(f)), subframe=f - math.floor(f))
            bones = {}
            for pb in arm.pose.bones:
                m = pb.matrix if pb.parent is None else pb.parent.matrix.inverted() @ pb.matrix
                t, q, s = m.decompose()
                # by the model's bone index (the bone's custom property from
                # ferry's extras): names may repeat in a model
                bones[str(pb.bone.get("bone_index", pb.name))] = [list(t), [q.x, q.y, q.z, q.w], list(s)]
            per_frame.append(bones)
        out[action.name] = {"frames": frames, "fps": fps, "poses": per_frame}
    arm.animation_data.action = saved
    return out


def frame_camera(objects):
    """A camera looking at the objects' world bounds from the front-right
    and above, framing them; Workbench, solid shading, a fixed size."""
    import mathutils
    pts = []
    for o in objects:
        if o.type == "MESH" and o.visible_get():
            pts.extend(o.matrix_world @ mathutils.Vector(c) for c in o.bound_box)
    if not pts:
        return False
    lo = mathutils.Vector([min(p[k] for p in pts) for k in range(3)])
    hi = mathutils.Vector([max(p[k] for p in pts) for k in range(3)])
    center = (lo + hi) / 2
    radius = max((hi - lo).length / 2, 1e-3)
    cam_data = bpy.data.cameras.new("ferry-test-camera")
    cam = bpy.data.objects.new("ferry-test-camera", cam_data)
    bpy.context.scene.collection.objects.link(cam)
    direction = mathutils.Vector((1.0, -1.6, 0.9)).normalized()
    cam.location = center + direction * radius * 3.2
    cam.rotation_euler = (center - cam.location).to_track_quat("-Z", "Y").to_euler()
    cam_data.clip_end = radius * 20
    bpy.context.scene.camera = cam
    return True


def render(path, engine="BLENDER_WORKBENCH"):
    scene = bpy.context.scene
    scene.render.engine = engine
    if engine == "CYCLES":
        # a sun, few samples, no denoiser (Debian's Blender has none)
        scene.cycles.samples = 16
        scene.cycles.use_denoising = False
        sun = bpy.data.objects.new("ferry-test-sun", bpy.data.lights.new("ferry-test-sun", "SUN"))
        scene.collection.objects.link(sun)
        sun.rotation_euler = (0.9, 0.2, 0.6)
        sun.data.energy = 4
    scene.display.shading.light = "STUDIO"
    scene.display.shading.color_type = "TEXTURE"
    scene.render.resolution_x = scene.render.resolution_y = 320
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = False
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = path
    bpy.ops.render.render(write_still=True)


def build_model():
    """A mesh skinned to a two-bone armature with an action, made from
    nothing: what a modder starts with."""
    bpy.ops.object.armature_add(enter_editmode=True, location=(0, 0, 0))
    arm = bpy.context.object
    arm.name = "Rig"
    eb = arm.data.edit_bones
    root = eb[0]
    root.name = "Root"
    root.head, root.tail = (0, 0, 0), (0, 0, 1)
    arm_bone = eb.new("Arm")
    arm_bone.head, arm_bone.tail = (0, 0, 1), (0, 0, 2)
    arm_bone.parent = root
    bpy.ops.object.mode_set(mode="OBJECT")
    bpy.ops.mesh.primitive_cylinder_add(vertices=8, radius=0.3, depth=2, location=(0, 0, 1))
    body = bpy.context.object
    body.name = "Body"
    body.parent = arm
    mod = body.modifiers.new("Armature", "ARMATURE")
    mod.object = arm
    g_root = body.vertex_groups.new(name="Root")
    g_arm = body.vertex_groups.new(name="Arm")
    for v in body.data.vertices:
        (g_arm if v.co.z > 0 else g_root).add([v.index], 1.0, "REPLACE")
    mat = bpy.data.materials.new("Skin")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (0.8, 0.3, 0.1, 1)
    # a texture, packed: the exporter embeds it, the DDS option writes it
    image = bpy.data.images.new("rig_skin", 64, 64, alpha=False)
    image.generated_type = "COLOR_GRID"
    image.pack()
    tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = image
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    body.data.materials.append(mat)
    action = bpy.data.actions.new("Rig_wave")
    arm.animation_data_create()
    arm.animation_data.action = action
    pb = arm.pose.bones["Arm"]
    pb.rotation_mode = "QUATERNION"
    for frame, angle in ((0, 0.0), (10, 0.8), (20, 0.0)):
        pb.rotation_quaternion = (math.cos(angle / 2), math.sin(angle / 2), 0, 0)
        pb.keyframe_insert("rotation_quaternion", frame=frame)
    bpy.context.scene.render.fps = 30
    return arm


def run_job(job):
    r = {"name": job["name"]}
    bpy.ops.wm.read_factory_settings(use_empty=True)
    ok, _, _ = enable()
    if not ok:
        r["error"] = "the add-on did not enable"
        return r
    if job.get("build") == "model":
        build_model()
        r["result"] = ["FINISHED"]
    else:
        before = set(bpy.data.objects)
        t0 = time.perf_counter()
        if job["op"] == "gltf":
            import numpy
            if "bool" not in numpy.__dict__:
                numpy.bool = bool
            result = bpy.ops.import_scene.gltf(filepath=job["params"]["filepath"], import_shading="NORMALS",
                                               bone_heuristic="BLENDER", guess_original_bind_pose=False)
        else:
            result = getattr(bpy.ops.import_scene, job["op"])(**job["params"])
        r["seconds"] = time.perf_counter() - t0
        r["result"] = sorted(result)
        objects = [o for o in bpy.data.objects if o not in before]
        r.update(counts(objects))
        if job.get("ala"):
            arms = [o for o in objects if o.type == "ARMATURE"]
            for a in list(bpy.data.actions):
                bpy.data.actions.remove(a)
            bpy.context.view_layer.objects.active = arms[0] if arms else None
            res = bpy.ops.import_scene.ferry_ala(filepath=job["ala"]["path"], **job["ala"].get("params", {}))
            r["ala_result"] = sorted(res)
            r["ala_actions"] = sorted(a.name for a in bpy.data.actions)
        if job.get("poses"):
            arms = [o for o in objects if o.type == "ARMATURE"]
            r["poses"] = poses(arms[0]) if arms else {}
        if job.get("render"):
            # both imports at the animation's first moment: Blender frame 0
            # (the add-on sets the scene's rate to the animation's, Blender's
            # own import leaves it, so another frame is another moment)
            bpy.context.scene.frame_set(0)
            if frame_camera(objects):
                render(job["render"], job.get("engine", "BLENDER_WORKBENCH"))
                r["rendered"] = job["render"]
    if job.get("export"):
        res = bpy.ops.export_scene.ferry_alo(filepath=job["export"], **job.get("export_params", {}))
        r["export_result"] = sorted(res)
    return r


def main():
    bpy.ops.preferences.addon_install(filepath=ZIP)
    ok, caught, printed = enable()
    bridge = sys.modules.get("ferry_blender.bridge")
    results = {"enabled": ok, "enable_warnings": caught, "enable_output": printed, "jobs": [],
               "library": bridge.ferry.library_path if bridge else None,
               "package": bridge.ferry.__file__ if bridge else None,
               # the File menus' entries: the functions the add-on appended, and the operators they name
               "menus": {m: [f.__module__ for f in getattr(bpy.types, m)._dyn_ui_initialize()
                             if f.__module__.startswith("ferry_blender")]
                         for m in ("TOPBAR_MT_file_import", "TOPBAR_MT_file_export")},
               "operators": sorted(op for op in ("import_scene.ferry_alo", "import_scene.ferry_ala",
                                                 "import_scene.ferry_p3d", "import_scene.ferry_alm",
                                                 "import_scene.ferry_archive", "export_scene.ferry_alo")
                                   if registered(op))}
    for job in json.load(open(JOBS)):
        try:
            results["jobs"].append(run_job(job))
        except Exception:
            results["jobs"].append({"name": job["name"], "error": traceback.format_exc()})
    with open(OUT, "w") as f:
        json.dump(results, f)


main()
