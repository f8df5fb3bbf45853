"""File > Export: an Alamo model (.alo) and one .ala per action. Blender's
own glTF exporter writes a temporary .glb; ferry's authoring
(ferry_author_alo) makes the model, checks it by ferry validate's rules
before writing it, writes each animation as the ALA the game finds beside
the model, and the mapped materials' images as DDS textures."""

import os

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper

from . import bridge
from .bridge import ferry


def _objects_to_export(context, selected_only):
    """The objects of the model: the selection (or every object of the
    view layer), with the armatures they hang on and everything below
    those (so that a selected mesh brings its skeleton)."""
    layer = list(context.view_layer.objects)
    chosen = [o for o in layer if o.select_get()] if selected_only else layer
    out = set(chosen)
    for o in chosen:
        p = o.parent
        while p is not None:
            out.add(p)
            p = p.parent
        for m in o.modifiers if hasattr(o, "modifiers") else ():
            if m.type == "ARMATURE" and m.object is not None:
                out.add(m.object)
    todo = [o for o in out if o.type == "ARMATURE"]
    while todo:
        o = todo.pop()
        for c in o.children:
            if c not in out and c.name in context.view_layer.objects:
                out.add(c)
                todo.append(c)
    return [o for o in layer if o in out]


class EXPORT_SCENE_OT_ferry_alo(bpy.types.Operator, ExportHelper):
    """Export an Alamo model (.alo) and one .ala animation per action, through Blender's glTF exporter and ferry"""

    bl_idname = "export_scene.ferry_alo"
    bl_label = "Export Alamo model"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".alo"
    filter_glob: StringProperty(default="*.alo;*.ALO", options={"HIDDEN"})  # type: ignore[valid-type]
    use_selection: BoolProperty(  # type: ignore[valid-type]
        name="Selected only", default=False,
        description="Export the selected objects (with their armature) instead of the whole scene")
    ala_format: EnumProperty(name="ALA format", default="2", items=(  # type: ignore[valid-type]
        ("2", "Format 2", "Forces of Corruption"),
        ("1", "Format 1", "Empire at War"),
    ))
    dds_textures: BoolProperty(  # type: ignore[valid-type]
        name="DDS textures", default=False,
        description="Write the textures of materials without an Alamo shader as .dds (DXT1, DXT5 with alpha)")
    textures_folder: StringProperty(  # type: ignore[valid-type]
        name="Textures folder", default="", subtype="DIR_PATH",
        description="Where the .dds files go (empty: beside the model)")
    allow_invalid: BoolProperty(  # type: ignore[valid-type]
        name="Write even if invalid", default=False,
        description="Write a model ferry validate finds errors in (the game may not load it)")

    def execute(self, context):
        objects = _objects_to_export(context, self.use_selection)
        if not any(o.type == "MESH" for o in objects):
            self.report({"ERROR"}, "nothing to export: no mesh %s" % ("selected" if self.use_selection else "in the scene"))
            return {"CANCELLED"}
        armatures = [o for o in objects if o.type == "ARMATURE"]
        if len(armatures) > 1:
            self.report({"ERROR"}, "one model at a time: %d armatures (%s); select one model and use 'Selected only'"
                        % (len(armatures), ", ".join(a.name for a in armatures)))
            return {"CANCELLED"}
        folder = None
        if self.dds_textures:
            folder = bpy.path.abspath(self.textures_folder) if self.textures_folder else os.path.dirname(self.filepath)
        selected = [o for o in context.view_layer.objects if o.select_get()]
        active = context.view_layer.objects.active
        with bridge.TemporaryFolder() as tmp:
            glb = os.path.join(tmp, bridge.model_name(self.filepath) + ".glb")
            try:
                bridge.gltf_export(glb, objects, context)
            except Exception as e:  # the exporter's own failure, said as it is
                self.report({"ERROR"}, "Blender's glTF exporter failed: %s" % e)
                return {"CANCELLED"}
            finally:
                for o in context.view_layer.objects:
                    o.select_set(o in selected)
                context.view_layer.objects.active = active
            try:
                report = ferry.author_alo(glb, self.filepath, textures_folder=folder,
                                          ala_format=int(self.ala_format), allow_invalid=self.allow_invalid,
                                          name=context.scene.name)
            except ferry.Error as e:
                # The validation report: errors stop the export, each said.
                bridge.report_messages(self, getattr(e, "messages", []))
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
        bridge.report_messages(self, [m for m in report.messages if m.kind != "note"])
        d = report.details
        self.report({"INFO"}, "%s: %d bones, %d meshes, %d triangles, %d materials (%d with their Alamo shader), "
                    "%d animations, %d textures%s" % (
                        self.filepath, d["bones"], d["meshes"], d["triangles"], d["materials"],
                        d["materials_from_extras"], d["animations_written"], d["textures_written"],
                        ", %d warnings" % d["validation_warnings"] if d["validation_warnings"] else ""))
        if not report.ok:  # the model is written; an animation or a texture was not (the messages say which)
            self.report({"WARNING"}, "%s: not every animation or texture was written" % self.filepath)
        return {"FINISHED"}


CLASSES = (EXPORT_SCENE_OT_ferry_alo,)


def _menu(self, context):
    self.layout.operator(EXPORT_SCENE_OT_ferry_alo.bl_idname, text="Alamo model (.alo + .ala)")


def register_menus():
    bpy.types.TOPBAR_MT_file_export.append(_menu)


def unregister_menus():
    bpy.types.TOPBAR_MT_file_export.remove(_menu)
