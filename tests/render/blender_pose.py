# Renders a glTF file in Blender 3.4 with one of its animations posed at
# given phases, from a given camera (workbench engine, 640x480 PNGs): the
# check of an export's animations in a second viewer (docs/formats/odol-gltf.md,
# "Skeleton and animations", lists what was looked at).
#
#   blender --background --factory-startup --python tests/render/blender_pose.py -- 'JSON'
#
# JSON: {"glb": FILE, "anim": NAME, "phases": [0, 0.5], "cam": [x, y, z],
#        "target": [x, y, z], "lens": 50, "out": PREFIX,
#        "attach": [{"glb": FILE, "to": NODE_NAME}]}
# Blender axes: glTF (x, y, z) is Blender (x, -z, y). "attach" imports another
# file and hangs its roots under a node (a proxy model under its proxy node).
# Writes PREFIX_PPP.png per phase (PPP: the phase in percent).
import sys, json, math
import numpy as _np
if not hasattr(_np, "bool"):
    _np.bool = bool
import bpy
from mathutils import Vector
args = json.loads(sys.argv[sys.argv.index("--") + 1])
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=args["glb"])
main_objs = set(bpy.context.scene.objects)
for attach in args.get("attach", []):
    before = set(bpy.context.scene.objects)
    bpy.ops.import_scene.gltf(filepath=attach["glb"])
    new = [o for o in bpy.context.scene.objects if o not in before]
    roots = [o for o in new if o.parent is None]
    target = bpy.data.objects[attach["to"]]
    for r in roots:
        r.parent = target
        r.matrix_parent_inverse.identity()
        r.matrix_basis.identity()
arm = [o for o in main_objs if o.type == "ARMATURE"][0]
# The importer names an action ANIMATION_NODE ("Door1_1.000").
act = bpy.data.actions.get(args["anim"]) or [a for a in bpy.data.actions if a.name.startswith(args["anim"] + "_")][0]
arm.animation_data_create()
arm.animation_data.action = act
# remove NLA tracks so only this action plays
for t in list(arm.animation_data.nla_tracks):
    arm.animation_data.nla_tracks.remove(t)
f0, f1 = act.frame_range
scene = bpy.context.scene
scene.render.engine = "BLENDER_WORKBENCH"
scene.display.shading.light = "STUDIO"
scene.display.shading.color_type = "SINGLE"
scene.render.resolution_x, scene.render.resolution_y = 640, 480
cam_data = bpy.data.cameras.new("cam")
cam_data.lens = args.get("lens", 50)
cam = bpy.data.objects.new("cam", cam_data)
scene.collection.objects.link(cam)
scene.camera = cam
cam.location = Vector(args["cam"])
d = Vector(args["target"]) - cam.location
cam.rotation_euler = d.to_track_quat("-Z", "Y").to_euler()
for ph in args["phases"]:
    fr = f0 + (f1 - f0) * ph
    scene.frame_set(int(math.floor(fr)), subframe=fr - math.floor(fr))
    scene.render.filepath = "%s_%03d.png" % (args["out"], int(round(ph * 100)))
    bpy.ops.render.render(write_still=True)
print("FERRY_DONE", act.name, f0, f1)
