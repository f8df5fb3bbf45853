"""What the operators share: the bundled ferry package, the texture places,
Blender's glTF importer and exporter called with the settings ferry's files
need, and the reports of the library's messages in Blender."""

import os
import shutil
import tempfile

import bpy

try:  # the package bundled in the add-on's zip (make blender-addon)
    from . import ferry  # type: ignore[attr-defined]
except ImportError:  # a development checkout run from the source tree: the package installed
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


class TemporaryFolder:
    """A folder for the temporary .glb, removed with everything in it."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="ferry-blender-")
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


def gltf_import(path):
    """Blender's own glTF importer on a file ferry wrote. Bones keep the
    glTF's node frames (bone_heuristic BLENDER): the exporter writes them
    back unchanged, so an import exported again gives the same bones and
    the same poses (the other heuristics turn each bone for looks)."""
    numpy_compat()
    before = set(bpy.data.objects)
    actions_before = set(bpy.data.actions)
    images_before = set(bpy.data.images)
    materials_before = set(bpy.data.materials)
    result = bpy.ops.import_scene.gltf(filepath=path, import_shading="NORMALS", bone_heuristic="BLENDER",
                                       guess_original_bind_pose=True)
    if "FINISHED" not in result:
        raise RuntimeError("Blender's glTF importer did not finish (%s)" % ", ".join(sorted(result)))
    return (
        [o for o in bpy.data.objects if o not in before],
        [a for a in bpy.data.actions if a not in actions_before],
        [i for i in bpy.data.images if i not in images_before],
        [m for m in bpy.data.materials if m not in materials_before],
    )


def gltf_export(path, objects, context):
    """Blender's own glTF exporter writing `objects` (and their actions) as
    a .glb, with custom properties as extras (the Alamo shader and its
    parameters on materials)."""
    for o in context.view_layer.objects:
        o.select_set(o in objects)
    kwargs = dict(filepath=path, export_format="GLB", use_selection=True, export_extras=True,
                  export_yup=True, export_apply=False, export_animations=True, export_skins=True,
                  export_lights=True, export_texcoords=True, export_normals=True, export_materials="EXPORT")
    # Each action exported as its own animation (3.x: NLA strips or the
    # active action; export_nla_strips False gives one per action since 3.2
    # with "export_animation_mode" absent). Options that do not exist in a
    # release are left out rather than failing.
    props = bpy.ops.export_scene.gltf.get_rna_type().properties.keys()
    if "export_nla_strips" in props:
        kwargs["export_nla_strips"] = False
    if "export_animation_mode" in props:
        kwargs["export_animation_mode"] = "ACTIONS"
    if "export_force_sampling" in props:
        kwargs["export_force_sampling"] = True
    if "export_def_bones" in props:
        kwargs["export_def_bones"] = False
    kwargs = {k: v for k, v in kwargs.items() if k in props}
    result = bpy.ops.export_scene.gltf(**kwargs)
    if "FINISHED" not in result:
        raise RuntimeError("Blender's glTF exporter did not finish (%s)" % ", ".join(sorted(result)))


def model_name(path):
    base = os.path.basename(path.replace("\\", "/"))
    return base.rsplit(".", 1)[0] if "." in base else base
