"""ferry for Blender: game assets of the Alamo and Real Virtuality engines
imported and exported through libferry.

Import: ferry writes the asset as a temporary .glb (the library's export,
the one `ferry convert` runs), Blender's own glTF importer reads it, the
add-on sorts what the game does not draw into a hidden collection and names
things, the temporary is removed. Export: Blender's own glTF exporter
writes a temporary .glb, ferry's authoring makes the ALO model and one ALA
per action of it. No format is parsed here: every rule is the library's.
See docs/blender.md.
"""

bl_info = {
    "name": "ferry: Alamo and Real Virtuality assets",
    "author": "ferry developers",
    "version": (0, 1, 0),
    "blender": (2, 93, 0),
    "location": "File > Import, File > Export",
    "description": "Import and export Alamo ALO/ALA, ArmA P3D, ALM and MEG/PBO archives through libferry",
    "category": "Import-Export",
}

if "bpy" in locals():  # a script reload (F8) of the add-on: take the new modules
    import importlib
    for _name in ("bridge", "importing", "exporting"):
        if _name in locals():
            importlib.reload(locals()[_name])

import bpy  # noqa: E402

from . import bridge, exporting, importing  # noqa: E402


class FerryPreferences(bpy.types.AddonPreferences):
    """Where textures are found: folders and MEG/PBO archives the import
    looks in after the model's own folder and ../Textures (as the game
    does), one path per line in the field, separated by ';'."""

    bl_idname = __package__

    texture_places: bpy.props.StringProperty(  # type: ignore[valid-type]
        name="Texture places",
        description="Folders and MEG/PBO archives searched for textures after the model's folder and "
                    "../Textures, separated by ';' (e.g. a game's Data folder, Textures.meg)",
        default="",
    )

    def draw(self, context):
        self.layout.prop(self, "texture_places")


_CLASSES = (FerryPreferences,) + importing.CLASSES + exporting.CLASSES


def register():
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    importing.register_menus()
    exporting.register_menus()


def unregister():
    exporting.unregister_menus()
    importing.unregister_menus()
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
