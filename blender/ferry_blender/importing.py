"""File > Import: Alamo models (.alo) and animations (.ala), ArmA P3D
(ODOL), ALM progressive meshes, and any of these from inside a MEG or PBO
archive. Each model goes through ferry's glTF export into a temporary .glb
and Blender's own glTF importer."""

import json
import math
import os

import bpy
from bpy.props import BoolProperty, EnumProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

from . import bridge
from .bridge import ferry

# Custom properties the add-on keeps on the armature (or root) of a model it
# imported: where the model came from, for an animation imported onto it later.
MODEL_PATH = "ferry_model"
MODEL_ARCHIVE = "ferry_archive"
MODEL_ENTRY = "ferry_entry"

MODEL_EXTENSIONS = (".alo", ".p3d", ".alm")


# ---- after Blender's importer ----

def _animation_extras(animations):
    return {a.get("name", ""): a.get("extras") or {} for a in animations}


def _rename_actions(actions, owners, extras):
    owners = sorted(owners, key=len, reverse=True)  # the longest suffix first
    """Blender's importer names an action ANIMATION_OBJECT; the game's name
    is the animation's. The animation's extras (frame rate, frame count,
    ALA format, visibility) are kept on the action so that export writes
    them back."""
    for action in actions:
        base = action.name
        for owner in owners:
            suffix = "_" + owner
            if base.endswith(suffix):
                base = base[: -len(suffix)]
                break
        action.name = base
        for key, value in extras.get(base, {}).items():
            try:
                action[key] = value
            except (TypeError, ValueError, OverflowError):
                action[key] = json.dumps(value)
        action.use_fake_user = True  # kept in the file even when no object uses it
        _hold_to_end(action, extras.get(base, {}))


def _hold_to_end(action, extras):
    """An animation lasts its frame count even where its last keys come
    earlier (an animation of constant tracks has keys at its first frame
    only, ATTE_Turret_Attack_00's 532 frames): each curve gets a key at the
    last frame holding its value, so that playback and export see the whole
    length."""
    frames, fps = extras.get("frame_count"), extras.get("fps")
    if not frames or not fps:
        return
    scene = bpy.context.scene
    end = (int(frames) - 1) * (scene.render.fps / scene.render.fps_base) / float(fps)
    for fc in action.fcurves:
        points = fc.keyframe_points
        if len(points) and points[-1].co[0] < end - 1e-4:
            last = points[-1]
            value = last.co[1]
            interpolation = last.interpolation
            key = points.insert(end, value, options={"FAST"})
            key.interpolation = interpolation
            last.interpolation = "CONSTANT" if interpolation == "CONSTANT" else last.interpolation
            fc.update()  # the curves left as they were need none


def _hide_collection(context, objects, name):
    """`objects` (and everything below them) moved into a collection of
    their own under the scene's, hidden in the viewport and in renders:
    what the game does not draw at first sight."""
    if not objects:
        return None
    hidden = bpy.data.collections.new(name)
    context.scene.collection.children.link(hidden)
    hidden.hide_render = True
    todo = list(objects)
    seen = set()
    while todo:
        o = todo.pop()
        if o in seen:
            continue
        seen.add(o)
        todo.extend(o.children)
        for c in list(o.users_collection):
            c.objects.unlink(o)
        hidden.objects.link(o)
    layer = _layer_collection(context.view_layer.layer_collection, hidden)
    if layer is not None:
        layer.hide_viewport = True
    return hidden


def _layer_collection(layer, collection):
    if layer.collection == collection:
        return layer
    for child in layer.children:
        found = _layer_collection(child, collection)
        if found is not None:
            return found
    return None


def import_model(operator, context, asset, name, *, view_all=False, lod=None, triangles=None, textures=True,
                 places_text="", animations=True, no_animations=False, source=None):
    """The asset as ferry's .glb, imported by Blender: returns the
    operator's result set. `source`: the custom properties that say where
    the model came from (kept on its armature or root)."""
    dirs = bridge.places_from_text(places_text)
    fps = None
    shown = None
    with bridge.TemporaryFolder() as folder, ferry.Places() as places:
        glb = os.path.join(folder, (name or "model") + ".glb")
        try:
            report = asset.to_gltf(glb, all=view_all, lod=lod, triangles=triangles, textures=dirs if textures else (),
                                   no_textures=not textures, animations="auto" if animations else None,
                                   no_animations=no_animations, places=places,
                                   png_effort="fast" if getattr(operator, "compact_images", False) else "stored",
                                   skin_all_bones=True, faction_masks=False,
                                   native_textures=getattr(operator, "native_textures", False))
            if view_all and asset.format.key == "odol" and lod is None:
                # Which LOD the game shows: the library's choice in its own view.
                view = asset.to_gltf(os.path.join(folder, "view.glb"), no_textures=True, places=places)
                shown = view.odol["visual_lod"] if view.odol and view.odol.get("visual_lod", -1) >= 0 else None
        except ferry.Error as e:
            bridge.report_messages(operator, getattr(e, "messages", []))
            operator.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        bridge.report_messages(operator, [m for m in report.messages if m.kind != "error"])
        glb_doc = bridge.glb_document(glb)
        extras = _animation_extras(glb_doc.animations())
        fps = next((x.get("fps") for x in extras.values() if x.get("fps")), None)
        if fps:
            # One game frame, one Blender frame: the importer turns seconds
            # into frames at the scene's rate, and the exporter back.
            context.scene.render.fps = int(round(fps))
            context.scene.render.fps_base = int(round(fps)) / float(fps)
        try:
            # Linked textures stay the game's files; the embedded ones are
            # packed by the importer whatever this says.
            objects, actions, images, materials = bridge.gltf_import(glb, pack_images=False)
            # Names as the importer gave them, before the roots are renamed:
            # it names an action ANIMATION_OBJECT.
            owners = [o.name for o in objects] + [o.data.name for o in objects if o.type == "MESH"]
            bridge.keep_names(glb_doc, objects)
        except Exception as e:  # the importer's own failure, said as it is
            operator.report({"ERROR"}, "%s: Blender's glTF importer failed on ferry's glTF: %s" % (asset.name, e))
            return {"CANCELLED"}
        for image in images:
            if image.packed_file is None and image.filepath and image.filepath.startswith(folder):
                image.pack()  # nothing may point into the temporary folder
    roots = [o for o in objects if o.get("alamo") == "axis_root" or o.parent is None and o.get("format")]
    _rename_actions(actions, owners, extras)
    for root in roots:
        root.name = name
        if root.type == "ARMATURE":
            root.data.name = name
        for key, value in (source or {}).items():
            root[key] = value
    not_drawn = []
    if view_all:
        if asset.format.key == "odol":
            if shown is not None:
                not_drawn = [o for o in objects if "lod" in o.keys() and o.get("lod") != shown
                             and (o.parent is None or "lod" not in o.parent.keys())]
        else:
            not_drawn = [o for o in objects if o.get("not_drawn")]
    _hide_collection(context, not_drawn, "%s (not drawn)" % name)
    if actions:
        # Blender's glTF importer and exporter both put an animation's first
        # frame at Blender frame 0.
        context.scene.frame_start = 0
        context.scene.frame_end = max(int(math.ceil(a.frame_range[1])) for a in actions)
    operator.report({"INFO"}, "%s: %d objects, %d actions, %d images, %d materials%s" % (
        asset.name, len(objects), len(actions), len(images), len(materials),
        ", %d in the hidden collection" % len(not_drawn) if not_drawn else ""))
    return {"FINISHED"}


# ---- the operators ----

def _open(operator, path):
    """The file as a ferry asset, or None with the reason reported."""
    try:
        return ferry.open(path)
    except ferry.Error as e:
        operator.report({"ERROR"}, str(e))
        return None


class _PlacesMixin:
    use_textures: BoolProperty(  # type: ignore[valid-type]
        name="Textures", default=True,
        description="Find the textures as the game does (beside the model, ../Textures, then the places) "
                    "and embed them")
    texture_places: StringProperty(  # type: ignore[valid-type]
        name="Texture places", default="",
        description="Folders and MEG/PBO archives searched for textures after the model's own places, "
                    "separated by ';' (empty: the add-on's preferences)")

    compact_images: BoolProperty(  # type: ignore[valid-type]
        name="Compact images", default=False,
        description="Compress the embedded textures as PNG: the .blend, which keeps them packed, stays "
                    "smaller, and the import takes longer (off: uncompressed PNGs, the size of the pixels)")

    native_textures: BoolProperty(  # type: ignore[valid-type]
        name="Game texture files", default=True,
        description="Keep the textures in the game's own formats: those used as their files hold them "
                    "(normal maps, plain base textures) found as DDS or TGA files on the disk are linked "
                    "where they lie, a colorize shader's colour is packed as a DDS of its colour blocks. "
                    "Off, and for a texture inside an archive: decoded and packed as PNG")

    def places(self, context):
        return self.texture_places or bridge.default_places(context)


_VIEW_ITEMS = (
    ("GAME", "Game view", "What the game draws at first sight"),
    ("ALL", "Everything", "Every mesh; hidden, shadow, collision and lower-LOD meshes in a hidden collection"),
)


class IMPORT_SCENE_OT_ferry_alo(bpy.types.Operator, ImportHelper, _PlacesMixin):
    """Import an Alamo model (.alo) with its animations and textures, through ferry"""

    bl_idname = "import_scene.ferry_alo"
    bl_label = "Import Alamo model"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".alo"
    filter_glob: StringProperty(default="*.alo;*.ALO", options={"HIDDEN"})  # type: ignore[valid-type]
    view: EnumProperty(name="View", items=_VIEW_ITEMS, default="GAME")  # type: ignore[valid-type]
    animations: BoolProperty(  # type: ignore[valid-type]
        name="Animations", default=True,
        description="Every MODEL_*.ala beside the model, each an action on the armature")

    def execute(self, context):
        asset = _open(self, self.filepath)
        if asset is None:
            return {"CANCELLED"}
        with asset:
            return import_model(self, context, asset, bridge.model_name(self.filepath),
                                view_all=self.view == "ALL", textures=self.use_textures,
                                places_text=self.places(context), animations=self.animations,
                                source={MODEL_PATH: os.path.abspath(self.filepath)})


class IMPORT_SCENE_OT_ferry_p3d(bpy.types.Operator, ImportHelper, _PlacesMixin):
    """Import an ArmA P3D model (binarized ODOL) through ferry"""

    bl_idname = "import_scene.ferry_p3d"
    bl_label = "Import ArmA P3D"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".p3d"
    filter_glob: StringProperty(default="*.p3d;*.P3D", options={"HIDDEN"})  # type: ignore[valid-type]
    view: EnumProperty(name="LODs", default="GAME", items=(  # type: ignore[valid-type]
        ("GAME", "Game view", "The most detailed visual LOD, as the game draws it up close"),
        ("ALL", "Every LOD", "Every LOD; all but the one the game shows in a hidden collection"),
        ("LODS", "Chosen LODs", "The LODs listed by index"),
    ))
    lods: StringProperty(name="LOD indices", default="0",  # type: ignore[valid-type]
                         description="With 'Chosen LODs': indices separated by commas (ferry info lists them)")
    animations: BoolProperty(name="Animations", default=True,  # type: ignore[valid-type]
                             description="Each animation class of the skeleton as an action")

    def execute(self, context):
        lod = None
        if self.view == "LODS":
            try:
                lod = [int(x) for x in self.lods.replace(" ", "").split(",") if x]
            except ValueError:
                self.report({"ERROR"}, "LOD indices: numbers separated by commas, not %r" % self.lods)
                return {"CANCELLED"}
        asset = _open(self, self.filepath)
        if asset is None:
            return {"CANCELLED"}
        with asset:
            return import_model(self, context, asset, bridge.model_name(self.filepath), view_all=self.view == "ALL",
                                lod=lod, textures=self.use_textures, places_text=self.places(context),
                                animations=False, no_animations=not self.animations,
                                source={MODEL_PATH: os.path.abspath(self.filepath)})


class IMPORT_SCENE_OT_ferry_alm(bpy.types.Operator, ImportHelper):
    """Import an ALM progressive mesh at a chosen level of detail, through ferry"""

    bl_idname = "import_scene.ferry_alm"
    bl_label = "Import ALM"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".alm"
    filter_glob: StringProperty(default="*.alm;*.ALM", options={"HIDDEN"})  # type: ignore[valid-type]
    detail: EnumProperty(name="Level of detail", default="FULL", items=(  # type: ignore[valid-type]
        ("FULL", "Full", "Every triangle"),
        ("COLLAPSES", "Collapses", "After this many collapse records"),
        ("TRIANGLES", "Triangles", "The fewest collapses that leave at most this many triangles"),
    ))
    collapses: IntProperty(name="Collapses", default=0, min=0)  # type: ignore[valid-type]
    triangles: IntProperty(name="Triangles", default=1000, min=1)  # type: ignore[valid-type]

    def execute(self, context):
        asset = _open(self, self.filepath)
        if asset is None:
            return {"CANCELLED"}
        with asset:
            return import_model(self, context, asset, bridge.model_name(self.filepath),
                                lod=self.collapses if self.detail == "COLLAPSES" else None,
                                triangles=self.triangles if self.detail == "TRIANGLES" else None,
                                animations=False, source={MODEL_PATH: os.path.abspath(self.filepath)})


def _open_model_of(armature, given):
    """The model an armature was imported from (or the file given): an asset
    and what keeps it readable (an archive), or an error's text."""
    if given:
        return ferry.open(given), None
    archive_path = armature.get(MODEL_ARCHIVE)
    if archive_path:
        archive = ferry.Archive(archive_path)
        return archive.open(_entry_named(archive, armature.get(MODEL_ENTRY, ""))), archive
    path = armature.get(MODEL_PATH)
    if not path:
        raise LookupError("%s was not imported by ferry: give the model file (Model) the animation is for"
                          % armature.name)
    return ferry.open(path), None


class IMPORT_SCENE_OT_ferry_ala(bpy.types.Operator, ImportHelper):
    """Import an Alamo animation (.ala) onto the selected armature as an action, through ferry"""

    bl_idname = "import_scene.ferry_ala"
    bl_label = "Import Alamo animation"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".ala"
    filter_glob: StringProperty(default="*.ala;*.ALA", options={"HIDDEN"})  # type: ignore[valid-type]
    model: StringProperty(  # type: ignore[valid-type]
        name="Model", default="", subtype="FILE_PATH",
        description="The .alo the animation is for (empty: the one the selected armature was imported from)")
    force: BoolProperty(name="Attach a misfit", default=False,  # type: ignore[valid-type]
                        description="Attach an animation whose tracks do not all fit the model's bones")

    @classmethod
    def poll(cls, context):
        return context.active_object is not None and context.active_object.type == "ARMATURE"

    def execute(self, context):
        armature = context.active_object
        if armature is None or armature.type != "ARMATURE":
            self.report({"ERROR"}, "select the armature the animation is for")
            return {"CANCELLED"}
        try:
            model, keep = _open_model_of(armature, self.model)
            anim = ferry.open(self.filepath)
        except (ferry.Error, LookupError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        with model, anim:
            return self._attach(context, armature, model, anim)

    def _attach(self, context, armature, model, anim):
        """The model with this animation alone through the same glTF path as
        the model's import (so the action's bones are the armature's, in the
        same frames); the action kept, everything else the import made
        removed."""
        with bridge.TemporaryFolder() as folder:
            glb = os.path.join(folder, "animation.glb")
            try:
                report = model.to_gltf(glb, animations=[anim], force=self.force, no_textures=True, skin_all_bones=True)
            except ferry.Error as e:
                bridge.report_messages(self, getattr(e, "messages", []))
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
            bridge.report_messages(self, [m for m in report.messages if m.kind == "warning"
                                          and m.rule != "texture-missing"])
            extras = _animation_extras(bridge.glb_document(glb).animations())
            fps = next((x.get("fps") for x in extras.values() if x.get("fps")), None)
            if fps:
                context.scene.render.fps = int(round(fps))
                context.scene.render.fps_base = int(round(fps)) / float(fps)
            active = context.view_layer.objects.active
            selected = [o for o in context.view_layer.objects if o.select_get()]
            objects, actions, images, materials = bridge.gltf_import(glb)
        owners = [o.name for o in objects]
        _rename_actions(actions, owners, extras)
        meshes = [o.data for o in objects if o.type == "MESH"]
        others = [o.data for o in objects if o.type in ("ARMATURE", "LIGHT", "CAMERA")]
        for o in objects:
            bpy.data.objects.remove(o)
        for data in meshes:
            bpy.data.meshes.remove(data)
        for data in others:
            if isinstance(data, bpy.types.Armature):
                bpy.data.armatures.remove(data)
            elif isinstance(data, bpy.types.Light):
                bpy.data.lights.remove(data)
        for m in materials:
            bpy.data.materials.remove(m)
        for i in images:
            bpy.data.images.remove(i)
        if not actions:
            self.report({"ERROR"}, "%s: no action came of it" % anim.name)
            return {"CANCELLED"}
        action = actions[0]
        armature.animation_data_create()
        armature.animation_data.action = action
        for o in context.view_layer.objects:
            o.select_set(o in selected)
        context.view_layer.objects.active = active
        context.scene.frame_end = max(context.scene.frame_end, int(action.frame_range[1]))
        self.report({"INFO"}, "%s: action '%s' on %s" % (anim.name, action.name, armature.name))
        return {"FINISHED"}


# The list the pick popup shows, for the archive last listed: Blender needs
# the item strings to outlive the callback, so they are kept here.
_ENTRIES = {"path": None, "items": []}


def _entry_items(self, context):
    """The models and animations of the archive named by the operator's
    filepath (ferry.Archive lists them), for the list to pick from."""
    key = self.filepath
    if _ENTRIES["path"] != key:
        items = []
        try:
            with ferry.Archive(key) as archive:
                for e in archive:
                    if e.name.lower().endswith(MODEL_EXTENSIONS):
                        items.append((e.name, e.name, "%d bytes" % e.size))
        except (ferry.Error, OSError):
            items = []
        _ENTRIES["items"] = items or [("", "(no models in this archive)", "")]
        _ENTRIES["path"] = key
    return _ENTRIES["items"]


class IMPORT_SCENE_OT_ferry_archive(bpy.types.Operator, ImportHelper, _PlacesMixin):
    """Import a model from inside a MEG or PBO archive, through ferry"""

    bl_idname = "import_scene.ferry_archive"
    bl_label = "Import from MEG/PBO archive"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".meg"
    filter_glob: StringProperty(default="*.meg;*.MEG;*.pbo;*.PBO", options={"HIDDEN"})  # type: ignore[valid-type]
    entry: StringProperty(name="Entry", default="",  # type: ignore[valid-type]
                          description="The model's name inside the archive (empty: pick it from a list)")
    view: EnumProperty(name="View", items=_VIEW_ITEMS, default="GAME")  # type: ignore[valid-type]
    animations: BoolProperty(name="Animations", default=True)  # type: ignore[valid-type]

    def execute(self, context):
        entry = self.entry
        if not entry:
            if bpy.app.background or context.window is None:  # no popup to pick from
                self.report({"ERROR"}, "name the entry to import (entry=...)")
                return {"CANCELLED"}
            # The archive is chosen: now the model in it, from a list.
            bpy.ops.import_scene.ferry_archive_pick("INVOKE_DEFAULT", filepath=self.filepath, view=self.view,
                                                    animations=self.animations, use_textures=self.use_textures,
                                                    texture_places=self.texture_places,
                                                    compact_images=self.compact_images,
                                                    native_textures=self.native_textures)
            return {"FINISHED"}
        return import_entry(self, context, self.filepath, entry)


class IMPORT_SCENE_OT_ferry_archive_pick(bpy.types.Operator, _PlacesMixin):
    """Pick the model to import from the archive's entries"""

    bl_idname = "import_scene.ferry_archive_pick"
    bl_label = "Pick a model"
    bl_options = {"REGISTER", "UNDO", "INTERNAL"}
    bl_property = "pick"

    filepath: StringProperty(options={"HIDDEN"})  # type: ignore[valid-type]
    pick: EnumProperty(name="Model", items=_entry_items)  # type: ignore[valid-type]
    view: EnumProperty(name="View", items=_VIEW_ITEMS, default="GAME")  # type: ignore[valid-type]
    animations: BoolProperty(name="Animations", default=True)  # type: ignore[valid-type]

    def invoke(self, context, event):
        context.window_manager.invoke_search_popup(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        if not self.pick:
            self.report({"ERROR"}, "no model picked")
            return {"CANCELLED"}
        return import_entry(self, context, self.filepath, self.pick)


def _entry_named(archive, name):
    """The archive's entry of that name, ignoring case and slash direction
    (MEG names are stored upper case with '\\'; a modder types them as a
    path)."""
    want = name.replace("\\", "/").lower()
    for e in archive:
        if e.name.replace("\\", "/").lower() == want:
            return e
    raise LookupError("%s: no entry named '%s'" % (archive.name, name))


def import_entry(operator, context, archive_path, entry):
    try:
        archive = ferry.Archive(archive_path)
        asset = archive.open(_entry_named(archive, entry))
    except (ferry.Error, LookupError) as e:
        operator.report({"ERROR"}, str(e))
        return {"CANCELLED"}
    source = {MODEL_ARCHIVE: os.path.abspath(archive_path), MODEL_ENTRY: entry}
    name = bridge.model_name(entry)
    with archive, asset:
        if asset.format.key == "ala":
            operator.report({"ERROR"}, "%s is an animation: import its model, then the animation onto it" % entry)
            return {"CANCELLED"}
        lod = None
        return import_model(operator, context, asset, name, view_all=getattr(operator, "view", "GAME") == "ALL",
                            lod=lod, textures=operator.use_textures, places_text=operator.places(context),
                            animations=getattr(operator, "animations", True) and asset.format.key == "alo",
                            source=source)


CLASSES = (IMPORT_SCENE_OT_ferry_alo, IMPORT_SCENE_OT_ferry_ala, IMPORT_SCENE_OT_ferry_p3d,
           IMPORT_SCENE_OT_ferry_alm, IMPORT_SCENE_OT_ferry_archive, IMPORT_SCENE_OT_ferry_archive_pick)

_MENU = (
    (IMPORT_SCENE_OT_ferry_alo, "Alamo model (.alo)"),
    (IMPORT_SCENE_OT_ferry_ala, "Alamo animation (.ala)"),
    (IMPORT_SCENE_OT_ferry_p3d, "ArmA P3D (.p3d)"),
    (IMPORT_SCENE_OT_ferry_alm, "ALM (.alm)"),
    (IMPORT_SCENE_OT_ferry_archive, "From MEG/PBO archive"),
)


def _menu(self, context):
    for cls, text in _MENU:
        self.layout.operator(cls.bl_idname, text=text)


def register_menus():
    bpy.types.TOPBAR_MT_file_import.append(_menu)


def unregister_menus():
    bpy.types.TOPBAR_MT_file_import.remove(_menu)
