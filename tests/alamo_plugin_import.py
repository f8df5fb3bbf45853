"""Runs the Blender ALAMO plugin (io_alamo_tools, ../shared/peers, used as it
is, never copied or changed) inside Blender on the files given, and prints
one line "RESULT [...]": per file, what its import made (meshes, bones and
their visibility, proxies, triangles, vertices, hidden meshes, shader
names, parents, bone constraints, world bounds). Shared by
tests/cli/gltf_alo_alamo_plugin.sh and bench/blender.sh.

    blender -b --factory-startup --python THIS -- PLUGIN_PARENT FILE...

What a Linux run needs (../shared/peers/README.md) is given here at run
time: the plugin's modules read with native struct sizes ('l' is 8 bytes on
Linux, 4 in the format), so each module's `struct` is replaced by one that
reads with standard sizes, little-endian, as the format has them; and its
animation lookup splits paths at backslashes, so animations are not
imported (importAnimations=False, the plugin's own option).
"""
import json
import struct
import sys

sys.dont_write_bytecode = True  # nothing is written into the plugin's folder
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
sys.path.insert(0, args[0])
import io_alamo_tools

io_alamo_tools.register()


class StandardStruct:
    """struct with standard sizes, little-endian: what the plugin means by
    "l", "I", "H" or "f" when it reads the format (no prefix means native
    sizes and alignment, and a native "l" is 8 bytes on Linux)."""

    error = struct.error

    @staticmethod
    def _standard(fmt):
        return fmt if fmt[:1] in ("<", ">", "!", "=") else "<" + fmt.lstrip("@")

    def unpack(self, fmt, data):
        return struct.unpack(self._standard(fmt), data)

    def unpack_from(self, fmt, data, offset=0):
        return struct.unpack_from(self._standard(fmt), data, offset)

    def pack(self, fmt, *values):
        return struct.pack(self._standard(fmt), *values)

    def calcsize(self, fmt):
        return struct.calcsize(self._standard(fmt))

    def Struct(self, fmt):
        return struct.Struct(self._standard(fmt))


patched = []
for name, module in list(sys.modules.items()):
    if name.split(".")[0] == "io_alamo_tools" and getattr(module, "struct", None) is struct:
        module.struct = StandardStruct()
        patched.append(name)
if "io_alamo_tools.import_alo" not in patched:
    sys.exit("the plugin's import_alo module was not found to give standard struct sizes")

out = []
for f in args[1:]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        result = sorted(bpy.ops.import_mesh.alo(filepath=f, importAnimations=False))
    except Exception as e:  # reported, and the file's result differs from any that finished
        result = ["%s: %s" % (type(e).__name__, e)]
    bpy.context.view_layer.update()  # world matrices after the bone constraints
    objs = list(bpy.context.scene.objects)
    meshes = [o for o in objs if o.type == "MESH"]
    arm = [o for o in objs if o.type == "ARMATURE"]
    pts = [o.matrix_world @ v.co for o in meshes for v in o.data.vertices]
    out.append({
        "result": result,
        "meshes": sorted(o.name for o in meshes),
        "bones": sorted((b.name, bool(b.get("Visible", True))) for o in arm for b in o.data.bones),
        "proxies": sorted((b.name, str(b.get("ProxyName", "")), bool(b.get("proxyIsHidden", False))) for o in arm for b in o.data.bones if b.get("EnableProxy", False)),
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
        "vertices": sum(len(o.data.vertices) for o in meshes),
        "hidden": sorted(o.name for o in meshes if o.hide_viewport or o.hide_get()),
        "shaders": sorted(str(m.shaderList.shaderList) for o in meshes for m in o.data.materials if m and hasattr(m, "shaderList")),
        "parents": sorted((o.name, o.parent_bone if o.parent_type == "BONE" else (o.parent.name if o.parent else "")) for o in meshes),
        "constraints": sorted((o.name, c.subtarget) for o in meshes for c in o.constraints if c.type == "CHILD_OF"),
        "bounds": [[round(min(p[k] for p in pts), 3) for k in range(3)], [round(max(p[k] for p in pts), 3) for k in range(3)]] if pts else None,
    })
print("RESULT " + json.dumps(out))
