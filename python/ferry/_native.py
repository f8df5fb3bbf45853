"""libferry through ctypes: finding the library, its structs and the C functions
the package calls, each with its argument and result types.

Every struct here mirrors one of include/ferry/*.h field for field; a change of
a header's struct needs the same change here (the tests compare each mirrored
function's results with the ferry tool's, which fails loudly when a layout
drifts). Nothing here knows a format: the package asks the library.
"""

import ctypes
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_char, c_char_p, c_double, c_float, c_int, c_int64,
                    c_size_t, c_uint, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)
from typing import Any, List, Optional

# ---- finding the library ----

#: The environment variable naming the libferry to load (a path to the shared
#: library); the test suite and the build tree use it.
LIBRARY_ENV = "FERRY_LIBRARY"


def _names() -> List[str]:
    if sys.platform == "win32":
        return ["ferry.dll", "libferry.dll"]
    if sys.platform == "darwin":
        return ["libferry.dylib", "libferry.0.dylib"]
    return ["libferry.so.0", "libferry.so"]


def _candidates() -> List[str]:
    """Where libferry is looked for, in order: FERRY_LIBRARY, beside this
    package (a wheel or an add-on bundles it there), then the system's."""
    found = []
    explicit = os.environ.get(LIBRARY_ENV)
    if explicit:
        return [explicit]
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _names():
        path = os.path.join(here, name)
        if os.path.exists(path):
            found.append(path)
    import ctypes.util
    system = ctypes.util.find_library("ferry")
    if system:
        found.append(system)
    found.extend(_names())  # the loader's own search (LD_LIBRARY_PATH, ldconfig)
    return found


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as exc:
            tried.append("%s (%s)" % (path, exc))
    raise ImportError("ferry: libferry not found; tried " + "; ".join(tried) +
                      ". Install the package with its library (python3 -m pip install ./python), "
                      "install libferry (make install), or set %s to the path of libferry.so" % LIBRARY_ENV)


lib = _load()
#: The file the library was loaded from (as the loader was given it).
library_path = lib._name

# ---- core (ferry.h) ----

OK = 0
NO_OFFSET = 0xFFFFFFFFFFFFFFFF


class Error(Structure):
    _fields_ = [("code", c_int), ("offset", c_uint64), ("path", c_char * 96), ("message", c_char * 256)]


class Buffer(Structure):
    _fields_ = [("data", POINTER(c_uint8)), ("size", c_size_t), ("capacity", c_size_t), ("failed", c_bool)]


class ReadOptions(Structure):
    _fields_ = [("memory_limit", c_size_t)]


class WriteOptions(Structure):
    _fields_ = [("protect_input", c_char_p), ("no_sync", c_bool)]


class Diagnostic(Structure):
    _fields_ = [("severity", c_int), ("offset", c_uint64), ("path", c_char * 96), ("rule", c_char * 32),
                ("message", c_char * 256)]


class Diagnostics(Structure):
    _fields_ = [("items", POINTER(Diagnostic)), ("count", c_size_t), ("capacity", c_size_t),
                ("error_count", c_size_t), ("warning_count", c_size_t), ("dropped", c_size_t),
                ("max_items", c_size_t)]


class FileSource(Structure):
    # Callbacks and state the library fills; Python only passes it along.
    _fields_ = [("load", c_void_p), ("release", c_void_p), ("list", c_void_p), ("close", c_void_p),
                ("user", c_void_p), ("label", c_char_p), ("disk_path", c_void_p)]


class Image(Structure):
    _fields_ = [("width", c_uint32), ("height", c_uint32), ("rgba", POINTER(c_uint8))]


# ---- the format table and assets (format.h) ----

class FormatDesc(Structure):
    _fields_ = [("id", c_int), ("name", c_char_p), ("key", c_char_p), ("extensions", POINTER(c_char_p)),
                ("caps", c_uint)]


class AssetOptions(Structure):
    _fields_ = [("read", ReadOptions), ("format", c_int), ("name", c_char_p), ("max_size", c_size_t),
                ("need", c_uint), ("bytes_only", c_bool), ("files", POINTER(FileSource)),
                ("detected", POINTER(c_int))]


class AssetEntryReport(Structure):
    _fields_ = [("index", c_size_t), ("name", POINTER(c_char)), ("name_length", c_size_t), ("label", c_char_p),
                ("format", c_int), ("error", POINTER(Error)), ("diagnostics", POINTER(Diagnostics)),
                ("error_count", c_size_t)]


EntryFn = CFUNCTYPE(None, c_void_p, POINTER(AssetEntryReport))


class TexturePlaces(Structure):
    _fields_ = [("model_source", POINTER(FileSource)), ("model_path", c_char_p),
                ("parent_source", POINTER(FileSource)), ("folders", POINTER(POINTER(FileSource))),
                ("folder_count", c_size_t)]


class TextureFolders(Structure):
    _fields_ = [("places", TexturePlaces), ("model", FileSource), ("parent", FileSource),
                ("folders", POINTER(FileSource)), ("folder_list", POINTER(POINTER(FileSource))),
                ("folder_count", c_size_t), ("model_name", c_void_p)]


class AssetValidateOptions(Structure):
    _fields_ = [("textures", POINTER(TexturePlaces)), ("model", c_void_p), ("entry", EntryFn), ("user", c_void_p)]


class InfoOptions(Structure):
    _fields_ = [("detail", c_int), ("exact", c_bool), ("nonfinite_strings", c_bool)]


class AssetSampleOptions(Structure):
    _fields_ = [("frame", c_double), ("has_time", c_bool), ("time", c_double), ("loop", c_bool), ("model", c_void_p),
                ("exact", c_bool), ("nonfinite_strings", c_bool)]


class AssetParticlesOptions(Structure):
    _fields_ = [("time", c_double), ("seed", c_uint64), ("ground_z", c_float), ("no_ground", c_bool),
                ("exact", c_bool), ("nonfinite_strings", c_bool), ("warnings", POINTER(c_uint))]


class AlmLodOptions(Structure):
    _fields_ = [("collapses", c_int64), ("max_triangles", c_uint32), ("max_error", c_double)]


# ---- ALM levels of detail (alm.h) ----

class AlmTriangle(Structure):
    _fields_ = [("vertices", c_uint32 * 3), ("material", c_uint32)]


class AlmLod(Structure):
    _fields_ = [("collapses_applied", c_uint32), ("last_error", c_double), ("vertex_source", POINTER(c_uint32)),
                ("vertex_count", c_uint32), ("triangles", POINTER(AlmTriangle)), ("triangle_count", c_uint32),
                ("arena", c_void_p)]


# ---- particle simulation and drawing (particle_sim.h) ----

class ParticleSimOptions(Structure):
    _fields_ = [("seed", c_uint64), ("transform", c_float * 16), ("has_transform", c_bool), ("wind", c_float * 3),
                ("ground_z", c_float), ("no_ground", c_bool), ("max_particles", c_size_t),
                ("max_emitters", c_size_t), ("max_spawn_depth", c_uint), ("max_rate", c_double)]


class ParticleCamera(Structure):
    _fields_ = [("eye", c_float * 3), ("target", c_float * 3), ("up", c_float * 3), ("fov_y", c_float)]


TextureFn = CFUNCTYPE(c_void_p, c_char_p, c_void_p)


class ParticleRenderOptions(Structure):
    _fields_ = [("width", c_uint32), ("height", c_uint32), ("camera", ParticleCamera), ("background", c_float * 3),
                ("checker", c_uint32), ("background2", c_float * 3), ("texture", TextureFn), ("user", c_void_p)]


# ---- jobs' messages and progress (ferry.h) ----

class Message(Structure):
    _fields_ = [("kind", c_int), ("file", c_char_p), ("text", c_char_p), ("rule", c_char_p), ("error", POINTER(Error))]


MessageFn = CFUNCTYPE(None, c_void_p, POINTER(Message))
ProgressFn = CFUNCTYPE(None, c_void_p, c_size_t, c_size_t, c_char_p)


# ---- archives and places (archive.h) ----

class ArchiveEntry(Structure):
    _fields_ = [("name", POINTER(c_char)), ("name_length", c_size_t), ("size", c_uint64), ("stored_size", c_uint64),
                ("start", c_uint64), ("offset", c_uint64), ("compressed", c_bool)]


class ArchiveOptions(Structure):
    _fields_ = [("read", ReadOptions), ("name", c_char_p)]


class ExtractOptions(Structure):
    _fields_ = [("patterns", POINTER(c_char_p)), ("pattern_count", c_size_t), ("write", WriteOptions),
                ("message", MessageFn), ("user", c_void_p), ("progress", ProgressFn), ("progress_user", c_void_p)]


class ExtractReport(Structure):
    _fields_ = [("selected", c_size_t), ("extracted", c_size_t), ("refused", c_size_t)]


class PboProperty(Structure):
    _fields_ = [("key", c_char_p), ("value", c_char_p), ("key_length", c_size_t), ("value_length", c_size_t),
                ("offset", c_uint64)]


class PackFile(Structure):
    _fields_ = [("path", c_char_p), ("name", c_char_p)]


class PackOptions(Structure):
    _fields_ = [("format", c_int), ("meg_format", c_uint32), ("prefix", c_char_p),
                ("properties", POINTER(PboProperty)), ("property_count", c_size_t), ("files", POINTER(PackFile)),
                ("file_count", c_size_t), ("write", WriteOptions), ("message", MessageFn), ("user", c_void_p),
                ("progress", ProgressFn), ("progress_user", c_void_p)]


class PackReport(Structure):
    _fields_ = [("format", c_int), ("meg_format", c_uint32), ("packed", c_size_t), ("bytes", c_uint64),
                ("refused", c_size_t), ("failed_at", c_int)]


class Place(Structure):
    _fields_ = [("path", c_char_p), ("source", POINTER(FileSource)), ("archive", c_void_p), ("prefix", c_char_p)]


# ---- the export jobs (engine.h) ----

class OdolSceneReport(Structure):
    _fields_ = [("lods", c_uint32), ("triangles", c_uint64), ("points", c_uint64), ("proxies", c_uint32),
                ("materials", c_uint32), ("normals_repaired", c_uint64), ("normals_computed_primitives", c_uint32),
                ("proxy_triangles", c_uint32), ("colors", c_uint32), ("procedural_ignored", c_uint32),
                ("procedural_problem", c_char_p), ("visual_lod", ctypes.c_int32), ("textures", c_uint32),
                ("textures_found", c_uint32), ("images", c_uint32), ("rvmats", c_uint32), ("rvmats_read", c_uint32),
                ("missing_textures", POINTER(c_char_p)), ("missing_texture_count", c_size_t), ("skins", c_uint32),
                ("joints", c_uint32), ("animations", c_uint32), ("animations_unbound", c_uint32),
                ("animation_unbound", c_char_p)]


class AlmSceneReport(Structure):
    _fields_ = [("skinned", c_bool), ("reason", c_char_p), ("vertex_count", c_uint32), ("triangle_count", c_uint32),
                ("max_influences", c_uint32), ("positions_truncated", c_uint32), ("max_dropped_weight", c_double),
                ("images", c_uint32), ("collapses_applied", c_uint32)]


class ExportInput(Structure):
    _fields_ = [("asset", c_void_p), ("name", c_char_p), ("source", POINTER(FileSource)), ("path", c_char_p),
                ("parent", POINTER(FileSource)), ("prefix", c_char_p), ("addon", POINTER(FileSource)),
                ("file", c_char_p), ("owned", c_void_p)]


class ExportReport(Structure):
    _fields_ = [("format", c_int), ("written", c_bool), ("warnings", c_size_t), ("validation_errors", c_size_t),
                ("animations", c_size_t), ("images", c_size_t), ("meshes_left_out", c_size_t),
                ("missing_textures", POINTER(c_char_p)), ("missing_texture_count", c_size_t),
                ("odol", OdolSceneReport), ("texture_roots", c_size_t), ("game_view", c_bool),
                ("visual_lod_name", c_char * 64), ("visual_lod_empty", c_bool), ("lods_with_faces", c_uint32),
                ("lod_with_faces", c_uint32), ("lod_with_faces_name", c_char * 64), ("alm", AlmSceneReport),
                ("alm_lod", c_bool), ("bones", c_uint32), ("frames", c_uint32), ("collapses", c_uint32),
                ("owned", c_void_p)]


class ExportOptions(Structure):
    _fields_ = [("all", c_bool), ("lods", POINTER(c_uint32)), ("lod_count", c_size_t), ("no_animations", c_bool),
                ("alm_lod", POINTER(AlmLodOptions)), ("animations", POINTER(c_void_p)),
                ("animation_count", c_size_t), ("force", c_bool), ("auto_animations", c_bool),
                ("textures", POINTER(POINTER(Place))), ("texture_count", c_size_t), ("skip_textures", c_bool),
                ("png_effort", c_int), ("skin_all_bones", c_bool), ("no_faction_masks", c_bool), ("native_textures", c_bool), ("allow_invalid", c_bool), ("write", WriteOptions), ("message", MessageFn), ("user", c_void_p),
                ("report", POINTER(ExportReport))]


class ExportItem(Structure):
    _fields_ = [("index", c_size_t), ("input", c_char_p), ("rel", c_char_p), ("output", c_char_p), ("ok", c_bool),
                ("result", c_int), ("messages", POINTER(Message)), ("message_count", c_size_t),
                ("report", POINTER(ExportReport))]


ExportItemFn = CFUNCTYPE(None, c_void_p, POINTER(ExportItem))


class FolderSkip(Structure):
    _fields_ = [("path", c_char_p), ("reason", c_char_p), ("failed", c_bool)]


class ExportTreeOptions(Structure):
    _fields_ = [("export", ExportOptions), ("jobs", c_uint), ("item", ExportItemFn), ("item_user", c_void_p),
                ("progress", ProgressFn), ("progress_user", c_void_p), ("places", c_void_p)]


class ExportTreeReport(Structure):
    _fields_ = [("items", POINTER(ExportItem)), ("item_count", c_size_t), ("converted", c_size_t),
                ("failed", c_size_t), ("warnings", c_size_t), ("animations", c_size_t), ("images", c_size_t),
                ("stale_removed", c_size_t), ("skipped", POINTER(FolderSkip)), ("skipped_count", c_size_t),
                ("failed_folders", c_size_t), ("missing_textures", POINTER(c_char_p)),
                ("missing_texture_count", c_size_t), ("owned", c_void_p)]


# ---- authoring (author.h, gltf.h) ----

class GltfReadOptions(Structure):
    _fields_ = [("read", ReadOptions), ("files", POINTER(FileSource)), ("file_limit", c_size_t),
                ("skip_images", c_bool)]


class AloFromSceneReport(Structure):
    _fields_ = [("ferry_export", c_bool), ("bones", c_size_t), ("meshes", c_size_t), ("submeshes", c_size_t),
                ("triangles", c_size_t), ("vertices", c_size_t), ("lights", c_size_t), ("proxies", c_size_t),
                ("materials", c_size_t), ("materials_from_extras", c_size_t), ("materials_mapped", c_size_t),
                ("primitives_split", c_size_t), ("vertices_reweighted", c_size_t),
                ("dropped_weight_total", c_double), ("dropped_weight_max", c_double),
                ("collision_trees", c_size_t), ("collision_disabled", c_size_t), ("own_bones", c_size_t),
                ("animations_not_converted", c_size_t), ("warnings", c_size_t), ("textures", c_void_p),
                ("texture_count", c_size_t)]


class AlaFromSceneReport(Structure):
    _fields_ = [("fps", c_double), ("fps_assumed", c_bool), ("frames", c_uint32), ("tracks", c_size_t),
                ("channels_used", c_size_t), ("channels_ignored", c_size_t), ("values_repaired", c_size_t),
                ("step_frames", c_size_t)]


class AuthorAloOptions(Structure):
    _fields_ = [("name", c_char_p), ("ala_format", c_uint8), ("allow_invalid", c_bool), ("write", WriteOptions),
                ("message", MessageFn), ("user", c_void_p)]


class AuthorAloReport(Structure):
    _fields_ = [("model", AloFromSceneReport), ("validation_errors", c_size_t), ("validation_warnings", c_size_t),
                ("write_failed", c_bool), ("animations_written", c_size_t), ("animation_result", c_int),
                ("animation_write_failed", c_bool), ("textures_written", c_size_t), ("textures_failed", c_size_t)]


class AuthorAlaOptions(Structure):
    _fields_ = [("name", c_char_p), ("animation_index", c_size_t), ("format", c_uint8), ("fps", c_double),
                ("model", c_void_p), ("write", WriteOptions), ("message", MessageFn), ("user", c_void_p)]


class AuthorAlaReport(Structure):
    _fields_ = [("animation", AlaFromSceneReport), ("format", c_uint8), ("warnings", c_size_t),
                ("validation_errors", c_size_t), ("write_failed", c_bool)]


class PaaEncodeOptions(Structure):
    _fields_ = [("type", c_uint16), ("linear", c_bool), ("no_lzo", c_bool)]


class AuthorPaaOptions(Structure):
    _fields_ = [("encode", PaaEncodeOptions), ("write", WriteOptions)]


class AuthorPaaReport(Structure):
    _fields_ = [("type", c_uint16), ("width", c_uint32), ("height", c_uint32), ("last_width", c_uint32),
                ("last_height", c_uint32), ("mip_count", c_size_t), ("lzo_count", c_size_t), ("bytes", c_size_t),
                ("write_failed", c_bool)]


PAA_DXT1 = 0xFF01
PAA_DXT5 = 0xFF05


# ---- the functions ----

def _declare(name: str, restype: Any, *argtypes: Any) -> None:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_u8p = POINTER(c_uint8)
_declare("ferry_result_name", c_char_p, c_int)
_declare("ferry_error_format", None, POINTER(Error), c_char_p, c_size_t)
_declare("ferry_buffer_free", None, POINTER(Buffer))
_declare("ferry_diagnostics_free", None, POINTER(Diagnostics))
_declare("ferry_file_write", c_int, c_char_p, c_void_p, c_size_t, POINTER(WriteOptions), POINTER(Error))
_declare("ferry_file_source_load", c_int, POINTER(FileSource), c_char_p, c_size_t, POINTER(_u8p),
         POINTER(c_size_t), POINTER(Error))
_declare("ferry_file_source_release", None, POINTER(FileSource), _u8p, c_size_t)
_declare("ferry_file_source_folder", c_int, c_char_p, POINTER(FileSource), POINTER(Error))
_declare("ferry_file_source_cached", c_int, POINTER(FileSource), POINTER(FileSource), POINTER(Error))
_declare("ferry_file_source_close", None, POINTER(FileSource))
_declare("ferry_image_decode", c_int, _u8p, c_size_t, c_void_p, POINTER(Image), POINTER(Error))
_declare("ferry_image_free", None, POINTER(Image))
_declare("ferry_image_encode_png", c_int, POINTER(Image), c_void_p, POINTER(Buffer), POINTER(Error))
_declare("ferry_text_utf8", c_bool, c_char_p, c_size_t, POINTER(Buffer))

_declare("ferry_version", c_char_p)

_VP = c_void_p
_declare("ferry_archive_open", c_int, c_char_p, POINTER(ArchiveOptions), POINTER(_VP), POINTER(Error))
_declare("ferry_archive_free", None, _VP)
_declare("ferry_archive_format", c_int, _VP)
_declare("ferry_archive_name", c_char_p, _VP)
_declare("ferry_archive_size", c_uint64, _VP)
_declare("ferry_archive_prefix", c_char_p, _VP)
_declare("ferry_archive_source", POINTER(FileSource), _VP)
_declare("ferry_archive_entry_count", c_size_t, _VP)
_declare("ferry_archive_entry_at", POINTER(ArchiveEntry), _VP, c_size_t)
_declare("ferry_archive_read_entry", c_int, _VP, c_size_t, c_size_t, POINTER(_u8p), POINTER(c_size_t), POINTER(Error))
_declare("ferry_archive_open_entry", c_int, _VP, c_size_t, POINTER(AssetOptions), POINTER(_VP), POINTER(Error))
_declare("ferry_archive_entry_path", c_int, POINTER(c_char), c_size_t, c_char_p, c_size_t, POINTER(Error))
_declare("ferry_archive_extract", c_int, _VP, c_char_p, POINTER(ExtractOptions), POINTER(ExtractReport),
         POINTER(Error))
_declare("ferry_archive_pack", c_int, c_char_p, c_char_p, POINTER(PackOptions), POINTER(PackReport), POINTER(Error))
_declare("ferry_file_free", None, _u8p)

_declare("ferry_places_new", _VP)
_declare("ferry_places_free", None, _VP)
_declare("ferry_places_open", POINTER(Place), _VP, c_char_p, POINTER(Error))
_declare("ferry_places_folder", POINTER(Place), _VP, c_char_p, POINTER(Error))
_declare("ferry_places_kind", c_int, c_char_p, POINTER(c_int), POINTER(Error))

_declare("ferry_export_input_open", c_int, c_char_p, _VP, POINTER(ExportInput), POINTER(Error))
_declare("ferry_export_input_of_asset", c_int, _VP, c_char_p, _VP, POINTER(ExportInput), POINTER(Error))
_declare("ferry_export_input_close", None, POINTER(ExportInput))
_declare("ferry_export_report_free", None, POINTER(ExportReport))
_declare("ferry_export_file", c_int, POINTER(ExportInput), c_char_p, POINTER(ExportOptions), POINTER(Error))
_declare("ferry_export_tree", c_int, c_char_p, c_char_p, POINTER(ExportTreeOptions), POINTER(ExportTreeReport),
         POINTER(Error))
_declare("ferry_export_tree_report_free", None, POINTER(ExportTreeReport))

_declare("ferry_gltf_load", c_int, c_char_p, POINTER(GltfReadOptions), POINTER(_VP), POINTER(Error))
_declare("ferry_gltf_read", c_int, c_void_p, c_size_t, POINTER(GltfReadOptions), POINTER(_VP), POINTER(Error))
_declare("ferry_author_alo", c_int, _VP, c_char_p, c_char_p, POINTER(AuthorAloOptions), POINTER(AuthorAloReport),
         POINTER(Error))
_declare("ferry_author_ala", c_int, _VP, c_char_p, POINTER(AuthorAlaOptions), POINTER(AuthorAlaReport),
         POINTER(Error))
_declare("ferry_author_paa", c_int, c_char_p, c_char_p, POINTER(AuthorPaaOptions), POINTER(AuthorPaaReport),
         POINTER(Error))
_declare("ferry_paa_data_map_name", c_bool, c_char_p)
_declare("ferry_paa_encode_png", c_int, c_void_p, c_size_t, POINTER(Buffer), POINTER(Error))
_declare("ferry_paa_type_name", c_char_p, c_uint16)

_declare("ferry_format_count", c_size_t)
_declare("ferry_format_at", POINTER(FormatDesc), c_size_t)
_declare("ferry_format_describe", POINTER(FormatDesc), c_int)
_declare("ferry_format_from_name", c_int, c_char_p)

_declare("ferry_asset_read", c_int, c_void_p, c_size_t, POINTER(AssetOptions), POINTER(c_void_p), POINTER(Error))
_declare("ferry_asset_open", c_int, c_char_p, POINTER(AssetOptions), POINTER(c_void_p), POINTER(Error))
_declare("ferry_asset_free", None, c_void_p)
_declare("ferry_asset_format", c_int, c_void_p)
_declare("ferry_asset_object", c_void_p, c_void_p)
_declare("ferry_asset_bytes", c_void_p, c_void_p, POINTER(c_size_t))
_declare("ferry_asset_name", c_char_p, c_void_p)
_declare("ferry_asset_write_layout", c_int, c_void_p, c_uint, POINTER(Buffer), POINTER(Error))
_declare("ferry_asset_save", c_int, c_void_p, c_char_p, POINTER(WriteOptions), POINTER(Error))
_declare("ferry_asset_validate", c_size_t, c_void_p, POINTER(AssetValidateOptions), POINTER(Diagnostics))
_declare("ferry_asset_info", c_int, c_void_p, POINTER(InfoOptions), POINTER(Buffer), POINTER(Error))
_declare("ferry_asset_sample", c_int, c_void_p, POINTER(AssetSampleOptions), POINTER(Buffer), POINTER(Error))
_declare("ferry_asset_particles", c_int, c_void_p, POINTER(AssetParticlesOptions), POINTER(Buffer), POINTER(Error))
_declare("ferry_scene_free", None, c_void_p)
_declare("ferry_scene_find_animation", c_bool, c_void_p, c_char_p, POINTER(c_size_t))

_declare("ferry_alamo_texture_folders_open", c_int, c_char_p, POINTER(c_char_p), c_size_t, POINTER(TextureFolders),
         POINTER(Error))
_declare("ferry_alamo_texture_folders_close", None, POINTER(TextureFolders))
_declare("ferry_alamo_texture_find", c_bool, POINTER(TexturePlaces), c_char_p, POINTER(POINTER(FileSource)),
         c_char_p, c_size_t)

_declare("ferry_paa_decode_mip", c_int, c_void_p, c_size_t, POINTER(Image), POINTER(Error))

_declare("ferry_alm_lod_extract", c_int, c_void_p, POINTER(AlmLodOptions), POINTER(POINTER(AlmLod)), POINTER(Error))
_declare("ferry_alm_lod_free", None, POINTER(AlmLod))
_declare("ferry_alm_lod_triangle_counts", c_int, c_void_p, POINTER(c_uint32), POINTER(Error))

_declare("ferry_particle_sim_create", c_int, c_void_p, POINTER(ParticleSimOptions), POINTER(c_void_p), POINTER(Error))
_declare("ferry_particle_sim_free", None, c_void_p)
_declare("ferry_particle_sim_advance", None, c_void_p, c_double)
_declare("ferry_particle_sim_warnings", c_uint, c_void_p)
_declare("ferry_particle_sim_warning_text", c_char_p, c_uint)
_declare("ferry_particle_sim_bounds", c_bool, c_void_p, c_float * 3, c_float * 3)
_declare("ferry_particle_camera_frame", None, c_float * 3, c_float * 3, c_float, POINTER(ParticleCamera))
_declare("ferry_particle_render", c_int, c_void_p, POINTER(ParticleRenderOptions), POINTER(Image), POINTER(Error))

# Bits of ferry_particle_sim_warnings (FERRY_PARTICLE_SIM_WARN_COUNT of them).
PARTICLE_SIM_WARN_COUNT = 7


def take_buffer(buf: Buffer) -> bytes:
    """The bytes a writer appended, copied out; the buffer is freed."""
    try:
        return ctypes.string_at(buf.data, buf.size) if buf.size else b""
    finally:
        lib.ferry_buffer_free(ctypes.byref(buf))


def text(raw: Optional[bytes]) -> str:
    """Text from a file (a name, a message) by the library's rule
    (ferry_text_utf8): UTF-8 as it is, anything else read as Latin-1."""
    if not raw:
        return ""
    try:
        # Valid UTF-8 (Python's strict decoder refuses what the library's
        # check refuses: overlong forms, surrogates, past U+10FFFF) is the
        # text as it is; anything else is the library's to read.
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out = Buffer()
    lib.ferry_text_utf8(raw, len(raw), ctypes.byref(out))
    return take_buffer(out).decode("utf-8")


# ---- validation in context (engine.h: ferry_validate_input, ferry_validate_tree) ----

class ValidateItem(Structure):
    _fields_ = [("file", c_char_p), ("format", c_int), ("entry", c_bool), ("folder", c_bool),
                ("error", POINTER(Error)), ("diagnostics", POINTER(Diagnostics)), ("model", c_char_p),
                ("error_count", c_size_t), ("entry_report", POINTER(AssetEntryReport))]


ValidateItemFn = CFUNCTYPE(None, c_void_p, POINTER(ValidateItem))


class ValidateOptions(Structure):
    _fields_ = [("textures", POINTER(POINTER(Place))), ("texture_count", c_size_t), ("skip_textures", c_bool),
                ("model", c_void_p), ("model_name", c_char_p), ("models", POINTER(c_char_p)),
                ("model_count", c_size_t), ("recursive", c_bool), ("places", c_void_p),
                ("item", ValidateItemFn), ("item_user", c_void_p), ("message", MessageFn), ("user", c_void_p),
                ("progress", ProgressFn), ("progress_user", c_void_p)]


class ValidateReport(Structure):
    _fields_ = [("checked", c_size_t), ("invalid", c_size_t), ("errors", c_size_t), ("skipped", c_size_t),
                ("folders", POINTER(FolderSkip)), ("folder_count", c_size_t), ("failed_folders", c_size_t),
                ("owned", c_void_p)]


_declare("ferry_validate_tree", c_int, POINTER(c_char_p), c_size_t, POINTER(ValidateOptions),
         POINTER(ValidateReport), POINTER(Error))
_declare("ferry_validate_report_free", None, POINTER(ValidateReport))
