"""What the operators share: the bundled ferry package, the texture places,
Blender's glTF importer and exporter called with the settings ferry's files
need, and the reports of the library's messages in Blender."""

import json
import os
import shutil
import struct
import sys
import tempfile

import bpy

if os.path.isdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ferry")):
    # the package bundled in the add-on's zip (make blender-addon), with
    # libferry.so beside its modules, where it looks first
    from . import ferry  # type: ignore[attr-defined]
else:  # the add-on's folder of a source checkout: the package installed in Blender's Python
    import ferry  # noqa: F401


def preferences(context):
    addon = context.preferences.addons.get(__package__)
    return addon.preferences if addon else None


def places_from_text(text):
    """The paths of a ';'-separated field, empty ones left out."""
    return [p.strip() for p in (text or "").split(";") if p.strip()]


def default_places(context):
    prefs = preferences(context)
    return prefs.texture_places if prefs else ""


def numpy_compat():
    """Blender 3.4's glTF importer calls numpy.bool, which numpy 1.24 removed
    (Debian 12 ships Blender 3.4 with numpy 1.24): the importer fails on
    every mesh without it. The alias is what numpy itself had until 1.24."""
    try:
        import numpy
    except ImportError:
        return
    if "bool" not in numpy.__dict__:
        numpy.bool = bool


def _memory_folder():
    """Linux's shared-memory folder when it has room, else None (the
    system's temporary folder). The .glb between ferry and Blender is
    written once and read once; on a disk, making and deleting its folder
    and file cost milliseconds of the file system's journal each (3.5 ms
    on ext4 where this was measured: a third of a small model's import),
    in memory 0.06 ms. A container's small /dev/shm (64 MB by default) is
    left alone: a large model's textures would not fit."""
    folder = "/dev/shm"
    if not sys.platform.startswith("linux") or not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
        return None
    try:
        stats = os.statvfs(folder)
    except OSError:
        return None
    return folder if stats.f_bavail * stats.f_frsize >= 1 << 30 else None


class TemporaryFolder:
    """A folder for the temporary .glb, removed with everything in it."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="ferry-blender-", dir=_memory_folder())
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


def report_messages(operator, messages, limit=40):
    """The library's messages in Blender's Info area: errors as errors,
    warnings as warnings, notes as info; the first `limit` of each kind,
    then a count of the rest."""
    shown = {"error": 0, "warning": 0, "note": 0}
    for m in messages:
        kind = m.kind if m.kind in shown else "note"
        shown[kind] += 1
        if shown[kind] <= limit:
            operator.report({"error": {"ERROR"}, "warning": {"WARNING"}, "note": {"INFO"}}[kind], str(m))
    for kind, count in shown.items():
        if count > limit:
            operator.report({"INFO"}, "%d more %ss not listed" % (count - limit, kind))


def gltf_import(path, pack_images=True):
    """Blender's own glTF importer on a file ferry wrote (`pack_images`:
    its images that name files are packed into the .blend, else left
    where they lie; embedded ones are packed either way). Bones keep the
    glTF's node frames (bone_heuristic BLENDER): the exporter writes them
    back unchanged, so an import exported again gives the same bones and
    the same poses (the other heuristics turn each bone for looks). The rest
    pose is the nodes' own transforms (guess_original_bind_pose off: a skin
    the add-on adds has no inverse bind matrices to guess from)."""
    numpy_compat()
    before = set(bpy.data.objects)
    actions_before = set(bpy.data.actions)
    images_before = set(bpy.data.images)
    materials_before = set(bpy.data.materials)
    options = {}
    if "import_pack_images" in bpy.ops.import_scene.gltf.get_rna_type().properties.keys():
        options["import_pack_images"] = pack_images
    result = bpy.ops.import_scene.gltf(filepath=path, import_shading="NORMALS", bone_heuristic="BLENDER",
                                       guess_original_bind_pose=False, **options)
    if "FINISHED" not in result:
        raise RuntimeError("Blender's glTF importer did not finish (%s)" % ", ".join(sorted(result)))
    return (
        [o for o in bpy.data.objects if o not in before],
        [a for a in bpy.data.actions if a not in actions_before],
        [i for i in bpy.data.images if i not in images_before],
        [m for m in bpy.data.materials if m not in materials_before],
    )


class _RestPose:
    """The armatures in their rest pose while the exporter writes the
    nodes: it places an object parented to a bone by the bone's pose at the
    current frame, so a posed armature would move every proxy, light and
    dazzle off its bone. Each armature's active action is unassigned (the
    exporter still writes every armature action: one armature, every action)
    and its pose bones' own transforms cleared, then both restored."""

    def __init__(self, objects):
        self.armatures = [o for o in objects if o.type == "ARMATURE"]
        self.saved = []

    def __enter__(self):
        for arm in self.armatures:
            action = arm.animation_data.action if arm.animation_data else None
            basis = {b.name: b.matrix_basis.copy() for b in arm.pose.bones}
            self.saved.append((arm, action, basis))
            if action is not None:
                arm.animation_data.action = None
            for b in arm.pose.bones:
                b.matrix_basis.identity()
        bpy.context.view_layer.update()
        return self

    def __exit__(self, *exc):
        for arm, action, basis in self.saved:
            if action is not None:
                arm.animation_data.action = action
            for b in arm.pose.bones:
                if b.name in basis:
                    b.matrix_basis = basis[b.name]
        bpy.context.view_layer.update()


def gltf_export(path, objects, context):
    """Blender's own glTF exporter writing `objects` (and the armature's
    actions) as a .glb, with custom properties as extras (the Alamo shader
    and its parameters on materials, the animations' frame rates)."""
    for o in context.view_layer.objects:
        o.select_set(o in objects)
    # export_force_sampling off: the actions' keys are written as they are
    # (an imported animation has a key at every game frame; the library
    # samples what it is given at whole frames), and the exporter does not
    # invent an animation for each selected object that has none (it bakes
    # one per object when sampling a selection).
    kwargs = dict(filepath=path, export_format="GLB", use_selection=True, export_extras=True,
                  export_yup=True, export_apply=False, export_animations=True, export_skins=True,
                  export_lights=True, export_texcoords=True, export_normals=True, export_materials="EXPORT",
                  export_force_sampling=False, export_def_bones=False, export_nla_strips=True,
                  export_anim_single_armature=True)
    props = bpy.ops.export_scene.gltf.get_rna_type().properties.keys()
    kwargs = {k: v for k, v in kwargs.items() if k in props}  # options a release lacks are left out
    with _RestPose(objects):
        result = bpy.ops.export_scene.gltf(**kwargs)
    if "FINISHED" not in result:
        raise RuntimeError("Blender's glTF exporter did not finish (%s)" % ", ".join(sorted(result)))
    restore_names(path)


NAME_PROPERTY = "ferry_name"


def _glb_json_text(f):
    """The JSON chunk's bytes of an open .glb and its header's version, the
    file left just after the JSON chunk; None for a file that is not a .glb."""
    head = f.read(20)
    if len(head) < 20:
        return None
    magic, version, _, length, kind = struct.unpack("<IIIII", head)
    if magic != 0x46546C67 or kind != 0x4E4F534A:
        return None
    return f.read(length), version


def _glb_json(f):
    """The JSON document of an open .glb and its header's version (as
    _glb_json_text)."""
    read = _glb_json_text(f)
    return None if read is None else (json.loads(read[0].decode("utf-8")), read[1])


def read_glb(path):
    """A .glb's JSON document and the rest of the file after its JSON chunk
    (the binary chunk), or None for a file that is not a .glb."""
    with open(path, "rb") as f:
        read = _glb_json(f)
        return None if read is None else (read[0], f.read(), read[1])


def _glb_head(doc, size_after, version):
    """The header and JSON chunk of a .glb whose JSON is `doc`, followed by
    `size_after` bytes (its binary chunk)."""
    text = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    return struct.pack("<IIIII", 0x46546C67, version, 12 + 8 + len(text) + size_after, len(text), 0x4E4F534A) + text


def write_glb(path, doc, rest, version=2):
    with open(path, "wb") as f:
        f.write(_glb_head(doc, len(rest), version))
        f.write(rest)


def keep_names(glb, objects):
    """Blender names must be unique (objects among objects, bones within
    their armature); a model's need not be (RV_MC90_D has two bones called
    P_FIRE_MED00 and two proxies of each name). Where Blender renamed a
    node of the .glb ("NAME.001"), the game's name is kept as the custom
    property ferry_name, and export gives it back (restore_names). `glb`:
    the GlbDocument, read only when a name looks renamed."""
    things = list(objects) + [b for o in objects if o.type == "ARMATURE" for b in o.data.bones]
    suffixed = []
    for thing in things:
        base, dot, number = thing.name.rpartition(".")
        if dot and number.isdigit() and len(number) == 3:
            suffixed.append((thing, base))
    if not suffixed:
        return
    names = {n.get("name") for n in glb.doc.get("nodes", []) if n.get("name")}
    for thing, base in suffixed:
        if thing.name not in names and base in names:
            thing[NAME_PROPERTY] = base


def restore_names(path):
    """The names Blender changed given back in the .glb Blender's exporter
    wrote (nodes whose extras hold ferry_name)."""
    read = read_glb(path)
    if read is None:
        return
    doc, rest, version = read
    changed = False
    for node in doc.get("nodes", []):
        extras = node.get("extras")
        if isinstance(extras, dict) and NAME_PROPERTY in extras:
            node["name"] = str(extras.pop(NAME_PROPERTY))
            changed = True
    if changed:
        write_glb(path, doc, rest, version)


class GlbDocument:
    """The JSON document of the .glb ferry wrote ({} for another file): its
    animations' extras and its names are read from it after the import.
    Only the JSON chunk is read, not the binary chunk (mostly textures), and
    it is parsed only when asked for (`doc`): a model without animations
    whose names Blender kept needs nothing of it (parsing a textured model's
    JSON costs Blender's Python 0.2 to 0.4 ms)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            read = _glb_json_text(f)
        self._text = read[0] if read is not None else b""
        self._doc = None if read is not None else {}

    def may_have(self, key):
        """False when the document certainly has no member `key` (its name
        appears nowhere in the text); True when it may."""
        return ('"%s"' % key).encode("utf-8") in self._text

    @property
    def doc(self):
        if self._doc is None:
            self._doc = json.loads(self._text.decode("utf-8"))
        return self._doc

    def animations(self):
        """The document's animations ([] when it has none)."""
        return self.doc.get("animations", []) if self.may_have("animations") else []


def glb_document(path):
    """The .glb's GlbDocument."""
    return GlbDocument(path)


def model_name(path):
    base = os.path.basename(path.replace("\\", "/"))
    return base.rsplit(".", 1)[0] if "." in base else base
