"""ferry.convert and Asset.to_gltf: the library's export jobs (engine.h:
ferry_export_file for one model, ferry_export_tree for a folder or an
archive), with the ferry tool's options and reports."""

import ctypes
import os
from ctypes import byref, c_uint32, c_void_p
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _native
from ._asset import _BY_ID, Asset, PathLike, Places, _alm_lod_options, _fspath, _made, _shown
from ._errors import CODES, ArgumentError, Error, check
from ._jobs import Collector, Message, Progress, ProgressCallback, job_error, message_of, raise_kept
from ._native import lib

Animations = Union[None, str, Sequence[Union[PathLike, Asset]]]


@dataclass(frozen=True)
class ExportReport:
    """What exporting one model did (ferry_export_report), as the tool's
    summary lines say it.

    ``input`` and ``output`` name the files (a failed item of a tree: where
    it would have been written, None when its name was refused); ``ok``
    whether the output was written (a failed item: False, ``error`` saying
    why);
    ``format`` the input's format key; ``warnings`` the warnings said and
    those the summary stands for; ``validation_errors`` what validation
    found (refused, or converted anyway with ``allow_invalid``);
    ``animations`` attached, ``images`` embedded (or written beside a
    .gltf), ``meshes_left_out`` (ALO: not drawn at first sight; ``all``
    keeps them), ``missing_textures`` names not found, each once.
    ``odol`` and ``alm``: the converter's report of those formats as a dict
    (LODs, triangles, the LOD the game shows, ...), else None.
    ``messages``: what the export said, in order (findings, animations
    attached or skipped, why it failed).
    """

    input: str
    output: Optional[str]
    ok: bool
    format: Optional[str]
    warnings: int
    validation_errors: int
    animations: int
    images: int
    meshes_left_out: int
    missing_textures: List[str]
    odol: Optional[Dict[str, Any]] = None
    alm: Optional[Dict[str, Any]] = None
    messages: List[Message] = field(default_factory=list)
    error: Optional[Error] = None


@dataclass(frozen=True)
class FolderSkip:
    """A folder a tree's walk did not enter: ``failed`` when it could not
    be read (a failure), else a link loop or a second link to it."""

    path: str
    reason: str
    failed: bool


@dataclass(frozen=True)
class TreeReport:
    """What :func:`ferry.convert` of a folder or an archive did
    (ferry_export_tree_report): one :class:`ExportReport` per model found,
    in order (``items``), the counts the tool's summary line prints, the
    folders not walked, and the tree's own ``messages`` (folders skipped,
    temporaries of killed writers removed); ``missing_textures``: the
    textures not found over the models written, each name once, sorted
    (the list the tool prints last). ``ok``: nothing failed (``ferry
    convert -r``'s exit 0)."""

    items: List[ExportReport]
    converted: int
    failed: int
    warnings: int
    animations: int
    images: int
    stale_removed: int
    skipped: List[FolderSkip]
    failed_folders: int
    messages: List[Message] = field(default_factory=list)
    missing_textures: List[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.failed_folders == 0


def _struct_dict(s: Any) -> Dict[str, Any]:
    """A report struct's numbers and strings (pointers to lists left out)."""
    out: Dict[str, Any] = {}
    for name, kind in s._fields_:
        v = getattr(s, name)
        if kind is ctypes.c_char_p:
            out[name] = _native.text(v) if v is not None else None
        elif isinstance(v, (int, float, bool)):
            out[name] = v
    return out


def _report(r: Any, input: str, output: Optional[str], ok: bool, messages: List[Message],
            error: Optional[Error] = None) -> ExportReport:
    f = _BY_ID.get(r.format)
    key = f.key if f and r.format else None
    odol = alm = None
    if key == "odol":
        odol = _struct_dict(r.odol)
        odol["missing_textures"] = [_native.text(r.odol.missing_textures[i])
                                    for i in range(r.odol.missing_texture_count)]
        odol.update(game_view=bool(r.game_view), visual_lod_name=_native.text(r.visual_lod_name),
                    visual_lod_empty=bool(r.visual_lod_empty), lods_with_faces=int(r.lods_with_faces),
                    lod_with_faces=int(r.lod_with_faces), lod_with_faces_name=_native.text(r.lod_with_faces_name),
                    texture_roots=int(r.texture_roots))
    elif key == "alm":
        alm = _struct_dict(r.alm)
        alm.update(lod=bool(r.alm_lod), bones=int(r.bones), frames=int(r.frames), collapses=int(r.collapses))
    return ExportReport(input, output, ok, key, int(r.warnings), int(r.validation_errors), int(r.animations),
                        int(r.images), int(r.meshes_left_out),
                        [_native.text(r.missing_textures[i]) for i in range(r.missing_texture_count)], odol, alm,
                        messages, error)


class _Options:
    """ferry_export_options from the tool's options, and what they hold
    (the animations opened, the places): freed by close()."""

    def __init__(self, places: Optional[Places], textures: Sequence[PathLike], no_textures: bool,
                 animations: Animations, force: bool, all: bool, no_animations: bool, allow_invalid: bool):
        self.struct = _native.ExportOptions()
        self.keep: List[Any] = []
        self._anims: List[int] = []
        self.pool = places if places is not None else Places()
        self._own_pool = places is None
        try:
            o = self.struct
            o.all = all
            o.no_animations = no_animations
            o.force = force
            o.skip_textures = no_textures
            o.allow_invalid = allow_invalid
            if not no_textures:
                array, o.texture_count = self.pool._place_array(textures)
                if array is not None:
                    self.keep.append(array)
                    o.textures = array
            if isinstance(animations, str) and animations == "auto":
                o.auto_animations = True
            elif animations is not None:
                if isinstance(animations, (str, bytes, os.PathLike, Asset)):
                    animations = [animations]
                handles = []
                for a in animations:
                    if isinstance(a, Asset):
                        handles.append(a._h())
                        self.keep.append(a)
                    else:
                        handles.append(self._open_animation(a))
                anims = (c_void_p * max(len(handles), 1))(*handles)
                self.keep.append(anims)
                o.animations = anims
                o.animation_count = len(handles)
        except BaseException:
            self.close()
            raise

    def _open_animation(self, path: PathLike) -> int:
        """An --anim FILE told once, read by the export as it attaches it."""
        ao = _native.AssetOptions()
        ao.name = _fspath(path)
        ao.bytes_only = True
        h = c_void_p()
        err = _native.Error()
        check(lib.ferry_asset_open(_fspath(path), byref(ao), byref(h), byref(err)), err, _shown(path))
        handle = _made(h)
        self._anims.append(handle)
        return handle

    def lods(self, fmt: int, lod: Union[None, int, Sequence[int]], triangles: Optional[int],
             error: Optional[float]) -> None:
        """The level of detail asked for, by the input's format: ODOL LOD
        indices, or an ALM mesh's collapse records (or ``triangles`` /
        ``error``)."""
        f = _BY_ID.get(fmt)
        if f is not None and f.key == "alm":
            if lod is not None and not isinstance(lod, int):
                raise ValueError("an ALM mesh takes one lod (collapse records), not a list")
            if lod is not None or triangles is not None or error is not None:
                lo = _alm_lod_options(lod, triangles, error)
                self.keep.append(lo)
                self.struct.alm_lod = ctypes.pointer(lo)
            return
        if triangles is not None or error is not None:
            raise ValueError("triangles and error choose an ALM mesh's level of detail")
        if lod is not None:
            lods = [lod] if isinstance(lod, int) else list(lod)
            if any(x < 0 for x in lods):
                raise ValueError("LOD indices are 0 or more")
            array = (c_uint32 * max(len(lods), 1))(*lods)
            self.keep.append(array)
            self.struct.lods = array
            self.struct.lod_count = len(lods)

    def close(self) -> None:
        for h in self._anims:
            lib.ferry_asset_free(h)
        self._anims = []
        if self._own_pool:
            self.pool.close()


def _export(inp: _native.ExportInput, dest: PathLike, o: _Options, input_name: str) -> ExportReport:
    """ferry_export_file: the report, or the error with what it said."""
    messages = Collector()
    report = _native.ExportReport()
    o.struct.message = messages.callback
    o.struct.report = ctypes.pointer(report)
    err = _native.Error()
    try:
        r = lib.ferry_export_file(byref(inp), _fspath(dest), byref(o.struct), byref(err))
        raise_kept(messages)
        if r != _native.OK:
            raise job_error(err, r, input_name, messages.messages)
        return _report(report, input_name, _shown(dest), True, messages.messages)
    finally:
        lib.ferry_export_report_free(byref(report))


# ferry_png_effort (image.h) in its order: FERRY_PNG_SMALL, _FAST, _STORED
PNG_EFFORTS = ("small", "fast", "stored")


def export_asset(asset: Asset, dest: PathLike, places: Optional[Places], textures: Sequence[PathLike],
                 no_textures: bool, animations: Animations, force: bool, all: bool, lod: Any, triangles: Any,
                 error: Any, no_animations: bool, allow_invalid: bool, png_effort: str = "small",
                 skin_all_bones: bool = False, faction_masks: bool = True,
                 native_textures: bool = False) -> ExportReport:
    """Asset.to_gltf: an asset opened from a path is the input the tool
    makes of that file, the asset as it is open (ferry_export_input_of_asset:
    its folder, the one above, its addon); an archive's entry has the archive as its place; bytes have
    none."""
    asset._h()  # a closed asset raises ValueError
    if png_effort not in PNG_EFFORTS:
        raise ValueError("png_effort %r: expected one of %s" % (png_effort, ", ".join(map(repr, PNG_EFFORTS))))
    o = _Options(places, textures, no_textures, animations, force, all, no_animations, allow_invalid)
    o.struct.png_effort = PNG_EFFORTS.index(png_effort)
    o.struct.skin_all_bones = skin_all_bones
    o.struct.no_faction_masks = not faction_masks
    o.struct.native_textures = native_textures
    inp = _native.ExportInput()
    opened = False
    try:
        o.lods(asset.format.id, lod, triangles, error)
        if asset._path is not None:
            # the asset as it is open (its model not read a second time),
            # its places found from its path as the tool finds them
            err = _native.Error()
            check(lib.ferry_export_input_of_asset(asset._h(), asset._path, o.pool._h(), byref(inp), byref(err)), err,
                  asset.name)
            opened = True
        else:
            inp.asset = asset._h()
            entry = getattr(asset, "_entry", None)
            if entry is not None:
                archive, e = entry
                path = ctypes.create_string_buffer(len(e.raw_name or b"") + 1)
                if e.raw_name is not None and lib.ferry_archive_entry_path(
                        e.raw_name, len(e.raw_name), path, len(path), None) == _native.OK:
                    inp.source = lib.ferry_archive_source(archive._h())
                    inp.path = path.value
                    inp.prefix = lib.ferry_archive_prefix(archive._h())
                    o.keep.append(path)
        name = os.fsencode(asset.name) if asset.name else None
        inp.name = name
        o.struct.write.protect_input = asset._path
        return _export(inp, dest, o, asset.name or "bytes")
    finally:
        if opened:
            lib.ferry_export_input_close(byref(inp))
        o.close()


def convert(src: PathLike, dst: PathLike, textures: Sequence[PathLike] = (), no_textures: bool = False,
            animations: Animations = None, force: bool = False, all: bool = False,
            lod: Union[None, int, Sequence[int]] = None, triangles: Optional[int] = None,
            error: Optional[float] = None, no_animations: bool = False, allow_invalid: bool = False, jobs: int = 0,
            places: Optional[Places] = None,
            progress: Optional[ProgressCallback] = None) -> Any:
    """``ferry convert SRC DST`` to glTF: one model, or every model of a
    folder or an archive, by the library's export (ferry_export_file,
    ferry_export_tree), so the files written are the tool's, byte for byte.

    One file (an ALO model or particle system, an ODOL P3D, an ALM mesh;
    ``dst`` a .glb, or a .gltf with its .bin and PNG images): validated
    first (refused on errors unless ``allow_invalid``), textures found as
    the game finds them (beside it, in ../Textures, then in each of
    ``textures``, folders or archives; ``no_textures``: none), the
    ``animations`` given attached (paths or assets of ALA files; ``"auto"``:
    every MODEL_*.ala beside the model; ``force`` attaches one that does not
    fit), ``all`` meshes or LODs, ``lod`` (ODOL: LOD indices; ALM: collapse
    records, or ``triangles`` / ``error``), ``no_animations`` (ODOL). Returns
    an :class:`ExportReport`; a failure raises :class:`ferry.Error` whose
    ``messages`` hold what the export said (the validation errors of a
    refused model).

    A folder or an archive (MEG, PBO): as ``ferry convert -r``, every
    .alo, .p3d and .alm below it becomes a .glb under the folder ``dst`` at
    the same relative path, ``jobs`` at once (0: the processors), each
    model's animations attached automatically; one that fails never stops
    the others. Returns a :class:`TreeReport` (``report.ok``: none failed);
    raises only when the tree cannot be walked at all.

    A glTF to ``dst`` .alo or .ala: as ``ferry convert IN.glb OUT.alo``,
    :func:`ferry.author_alo` (``allow_invalid`` passed on) or
    :func:`ferry.author_ala` with their defaults; an :class:`AuthorReport`.

    ``places``: a :class:`Places` pool shared with other calls (the
    folders and archives opened once); ``progress(done, total, item)``.
    """
    kind = ctypes.c_int(0)
    err = _native.Error()
    check(lib.ferry_places_kind(_fspath(src), byref(kind), byref(err)), err, _shown(src))
    tree = kind.value == 1 or (kind.value == 2 and not str(_shown(dst)).lower().endswith((".glb", ".gltf")))
    if tree:
        if lod is not None or triangles is not None or error is not None:
            raise ValueError("lod, triangles and error apply to one model, not to a folder or an archive")
        return _convert_tree(src, dst, places, textures, no_textures, animations, force, all, allow_invalid, jobs,
                             progress)
    if jobs:
        raise ValueError("jobs applies to a folder or an archive")
    if str(_shown(dst)).lower().endswith((".alo", ".ala")):
        # `ferry convert IN.glb OUT.alo|OUT.ala`: a glTF authored for the game
        from ._asset import open as open_asset
        from ._author import author_ala, author_alo
        with open_asset(src, bytes_only=True) as probe:
            gltf = probe.format.key in ("glb", "gltf")
        if gltf and str(_shown(dst)).lower().endswith(".alo"):
            return author_alo(src, dst, allow_invalid=allow_invalid)
        if gltf:
            return author_ala(src, dst)
    o = _Options(places, textures, no_textures, animations, force, all, no_animations, allow_invalid)
    inp = _native.ExportInput()
    opened = False
    try:
        err = _native.Error()
        check(lib.ferry_export_input_open(_fspath(src), o.pool._h(), byref(inp), byref(err)), err, _shown(src))
        opened = True
        o.lods(lib.ferry_asset_format(inp.asset), lod, triangles, error)
        return _export(inp, dst, o, _shown(src))
    finally:
        if opened:
            lib.ferry_export_input_close(byref(inp))
        o.close()


def _item_error(item: Any, messages: List[Message], input: str) -> Error:
    for m in reversed(messages):
        if m.kind == "error" and m.error is not None:
            return m.error
    text = next((m.text for m in reversed(messages) if m.kind == "error"), "not converted")
    code = CODES.get(item.result, "malformed")
    return ArgumentError(code, None, "", text, input) if code == "argument" else Error(code, None, "", text, input)


def _convert_tree(src: PathLike, dst: PathLike, places: Optional[Places], textures: Sequence[PathLike],
                  no_textures: bool, animations: Animations, force: bool, all: bool, allow_invalid: bool, jobs: int,
                  progress: Optional[ProgressCallback]) -> TreeReport:
    if jobs < 0 or jobs > 256:
        raise ValueError("jobs is 0 (the processors) or 1 to 256")
    o = _Options(places, textures, no_textures, animations, force, all, False, allow_invalid)
    messages = Collector()
    prog = Progress(progress)
    t = _native.ExportTreeOptions()
    t.export = o.struct
    # As `ferry convert -r`: every model's animations found beside it (the
    # tool sets this; ferry_export_tree does not imply it).
    t.export.auto_animations = True
    t.export.write.no_sync = True  # as the tool: a batch writes new files; a flush each costs more than converting
    t.export.message = messages.callback
    t.jobs = jobs
    t.progress = prog.callback
    t.places = o.pool._h()
    report = _native.ExportTreeReport()
    err = _native.Error()
    try:
        r = lib.ferry_export_tree(_fspath(src), _fspath(dst), byref(t), byref(report), byref(err))
        raise_kept(messages, prog)
        if r != _native.OK:  # the tree itself failed (the archive does not read, dst cannot be made)
            raise job_error(err, r, _shown(src), messages.messages)
        items = []
        for i in range(report.item_count):
            x = report.items[i]
            said = [message_of(x.messages[k]) for k in range(x.message_count)]
            name = _native.text(x.input)
            out = _native.text(x.output) if x.output else None
            items.append(_report(x.report.contents, name, out, bool(x.ok), said,
                                 None if x.ok else _item_error(x, said, name)))
        skipped = [FolderSkip(_native.text(s.path), _native.text(s.reason), bool(s.failed))
                   for s in report.skipped[:report.skipped_count]]
        return TreeReport(items, int(report.converted), int(report.failed), int(report.warnings),
                          int(report.animations), int(report.images), int(report.stale_removed), skipped,
                          int(report.failed_folders), messages.messages,
                          [_native.text(report.missing_textures[i]) for i in range(report.missing_texture_count)])
    finally:
        lib.ferry_export_tree_report_free(byref(report))
        o.close()
