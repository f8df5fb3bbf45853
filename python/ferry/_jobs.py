"""The library's jobs from Python: the export to glTF (ferry_export_file,
include/ferry/engine.h) and archives (ferry_archive, include/ferry/archive.h).
Each call is one call of the library; what a job says comes back as
:class:`Message` items."""

import ctypes
import os
import weakref
from ctypes import POINTER, byref, c_uint32, c_void_p
from dataclasses import dataclass, field
from typing import Any, Iterator, List, Optional, Sequence

from . import _native
from ._asset import Asset, PathLike, Places, _BY_ID, _format_key, _fspath, _made, _shown
from ._errors import Error, check, from_native
from ._native import lib


@dataclass(frozen=True)
class Message:
    """One thing a job said as it went (ferry_message): ``kind`` "error"
    (something was not done), "warning" or "note"; ``file`` how the file it
    is about is named (None: the job itself); ``text`` one sentence;
    ``rule`` a short stable identifier ("texture-missing",
    "animation-skipped", "not-converted", ...) or None."""

    kind: str
    file: Optional[str]
    text: str
    rule: Optional[str]

    def __str__(self) -> str:
        """The line the ferry tool prints for it."""
        if self.kind == "note":
            return "%s: %s" % (self.file, self.text) if self.file else self.text
        return "%s%s: %s" % (self.file + ": " if self.file else "", self.kind, self.text)


@dataclass(frozen=True)
class ExportReport:
    """What :meth:`Asset.to_gltf` did (ferry_export_report): the input's
    ``format`` key, ``written``, the ``warnings`` a summary counts,
    ``validation_errors`` found (an export with ``allow_invalid``),
    ``animations`` attached, ``images`` embedded, ``meshes_left_out`` (ALO
    meshes the game does not draw at first sight, without ``all``),
    ``missing_textures`` (names not found, each once), ``shown_lod`` (ODOL
    in the game's view: the index of the LOD the game shows up close; None
    otherwise) and ``messages`` (everything the export said, in order)."""

    format: Optional[str]
    written: bool
    warnings: int
    validation_errors: int
    animations: int
    images: int
    meshes_left_out: int
    missing_textures: List[str]
    messages: List[Message] = field(default_factory=list)
    shown_lod: Optional[int] = None


def _collector(messages: List[Message]) -> Any:
    def on_message(_user: Any, m_ptr: Any) -> None:
        try:
            m = m_ptr.contents
            messages.append(Message(_native.MESSAGE_KINDS.get(m.kind, "note"),
                                    _native.text(m.file) if m.file else None, _native.text(m.text),
                                    _native.text(m.rule) if m.rule else None))
        except BaseException:  # never unwind through C; a message lost is better than a crash
            pass
    return _native.MessageFn(on_message)


def export_file(asset: Asset, handle: int, dest: PathLike, all: bool, lods: Optional[List[int]], alm_lod: Any,
                no_animations: bool, textures: bool, texture_dirs: Sequence[PathLike], animations: List[int],
                auto_animations: bool, force: bool, allow_invalid: bool, places: Optional[Places]) -> ExportReport:
    own_places = places is None
    pool = Places() if places is None else places
    messages: List[Message] = []
    callback = _collector(messages)
    inp = _native.ExportInput()
    opened = False
    report = _native.ExportReport()
    try:
        keep: List[Any] = []
        if asset._path is not None:
            err = _native.Error()
            check(lib.ferry_export_input_open(asset._path, pool._pool_handle(), byref(inp), byref(err)), err, asset.name)
            opened = True
            inp.asset = handle  # the asset already read (and its format, as chosen), not the input's copy
        elif asset._archive is not None:
            archive = asset._archive
            inp.asset = handle
            inp.source = lib.ferry_archive_source(archive._raw())
            inp.path = asset._entry_name
            inp.prefix = lib.ferry_archive_prefix(archive._raw())
        else:
            inp.asset = handle
        if asset.name is not None and not opened:
            name = os.fsencode(asset.name)
            keep.append(name)
            inp.name = name
        o = _native.ExportOptions()
        o.all = all
        if lods is not None:
            array = (c_uint32 * max(len(lods), 1))(*lods)
            keep.append(array)
            o.lods = array
            o.lod_count = len(lods)
        o.no_animations = no_animations
        if alm_lod is not None:
            keep.append(alm_lod)
            o.alm_lod = ctypes.pointer(alm_lod)
        if animations:
            anims = (c_void_p * len(animations))(*animations)
            keep.append(anims)
            o.animations = anims
            o.animation_count = len(animations)
        o.force = force
        o.auto_animations = auto_animations
        o.skip_textures = not textures
        if textures and texture_dirs:
            found = [pool.open(d) for d in texture_dirs]
            array2 = (POINTER(_native.Place) * len(found))(*found)
            keep.append(array2)
            o.textures = array2
            o.texture_count = len(found)
        o.allow_invalid = allow_invalid
        o.write.protect_input = asset._path
        o.message = callback
        o.report = ctypes.pointer(report)
        err = _native.Error()
        r = lib.ferry_export_file(byref(inp), _fspath(dest), byref(o), byref(err))
        if r != _native.OK:
            e = from_native(err, asset.name) if err.code else Error("code %d" % r, None, "", "the export failed",
                                                                   asset.name)
            setattr(e, "messages", messages)
            raise e
        return ExportReport(_format_key(report.format), bool(report.written), int(report.warnings),
                            int(report.validation_errors), int(report.animations), int(report.images),
                            int(report.meshes_left_out),
                            [_native.text(report.missing_textures[i]) for i in range(report.missing_texture_count)],
                            messages,
                            int(report.odol.visual_lod) if report.game_view and report.odol.visual_lod >= 0 else None)
    finally:
        lib.ferry_export_report_free(byref(report))
        if opened:
            lib.ferry_export_input_close(byref(inp))
        if own_places:
            pool.close()


# ---- archives ----

@dataclass(frozen=True)
class ArchiveEntry:
    """One entry of an :class:`Archive` (ferry_archive_entry): ``index`` in
    the archive's record order, ``name`` as stored (backslashes kept; read
    as Latin-1 when it is not UTF-8), ``size`` its bytes when read (a
    compressed PBO entry's decoded size), ``stored_size``, ``start`` (where
    its bytes begin), ``offset`` (where its record is), ``compressed``."""

    index: int
    name: str
    size: int
    stored_size: int
    start: int
    offset: int
    compressed: bool


class Archive:
    """A MEG or PBO archive behind one handle (ferry_archive_open): the file
    mapped, its tables read, each entry read when asked for.

    ``entries`` lists them; :meth:`open` reads one as an :class:`Asset`
    (its format told by content), whose animations and textures are then
    looked up inside the archive, beside it, as the game does. The archive
    must stay open while assets opened from it are used (they keep it
    alive). ``prefix``: a PBO's mount prefix (None for MEG).
    """

    def __init__(self, path: PathLike, name: Optional[str] = None, memory_limit: int = 0):
        o = _native.ArchiveOptions()
        o.read.memory_limit = memory_limit
        self._name_bytes = os.fsencode(name) if name is not None else None
        o.name = self._name_bytes
        handle = c_void_p()
        err = _native.Error()
        shown = name if name is not None else _shown(path)
        check(lib.ferry_archive_open(_fspath(path), byref(o), byref(handle), byref(err)), err, shown)
        self._handle: int = _made(handle)
        self._closed = False
        self._finalizer = weakref.finalize(self, lib.ferry_archive_free, self._handle)
        self.name: str = shown
        self.format = _BY_ID[lib.ferry_archive_format(self._handle)]
        prefix = lib.ferry_archive_prefix(self._handle)
        self.prefix: Optional[str] = _native.text(prefix) if prefix else None
        self._assets: "weakref.WeakSet[Asset]" = weakref.WeakSet()
        self.entries: List[ArchiveEntry] = []
        for i in range(lib.ferry_archive_entry_count(self._handle)):
            e = lib.ferry_archive_entry_at(self._handle, i).contents
            raw = ctypes.string_at(e.name, e.name_length) if e.name else b""
            self.entries.append(ArchiveEntry(i, _native.text(raw), int(e.size), int(e.stored_size), int(e.start),
                                             int(e.offset), bool(e.compressed)))

    def _h(self) -> int:
        if self._closed:
            raise ValueError("the archive is closed")
        return self._handle

    def _raw(self) -> int:
        """The handle for an asset opened from it (alive while the asset is)."""
        return self._handle

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[ArchiveEntry]:
        return iter(self.entries)

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """No more entries are opened from it; its memory is freed now, or
        once the assets opened from it are gone (they read from it)."""
        self._closed = True
        if not self._assets:
            self._finalizer()

    def __repr__(self) -> str:
        return "<ferry.Archive %s %r, %d entries>" % (self.format.key, self.name, len(self.entries))

    def open(self, entry: Any, bytes_only: bool = False, format: Optional[str] = None) -> Asset:
        """Entry ``entry`` (its index, its :class:`ArchiveEntry`, or its
        stored name, compared ignoring case and slash direction) as an
        :class:`Asset` (ferry_archive_open_entry), named ``ARCHIVE:NAME``.
        Raises :class:`ferry.Error` (located in the archive) when its bytes
        cannot be had or its reader refuses them."""
        index = self._index(entry)
        h = self._h()
        options = _native.AssetOptions()
        options.bytes_only = bytes_only
        if format is not None:
            from ._asset import _BY_KEY
            row = _BY_KEY.get(format)
            if row is None:
                raise ValueError("no format %r" % (format,))
            options.format = row.id
        detected = ctypes.c_int(0)
        options.detected = ctypes.pointer(detected)
        out = c_void_p()
        err = _native.Error()
        label = "%s:%s" % (self.name, self.entries[index].name)
        r = lib.ferry_archive_open_entry(h, index, byref(options), byref(out), byref(err))
        check(r, err, label, _format_key(detected.value))
        asset = Asset(_made(out), None, label, None)
        # The asset keeps the archive (and its finalizer) alive: it reads
        # into the mapping, and export looks beside it in the archive.
        asset._archive = self
        self._assets.add(asset)
        asset._entry_name = self._entry_path(index)
        return asset

    def _entry_path(self, index: int) -> Optional[bytes]:
        """The entry's name as the path its archive's source finds it by, '/'
        between folders (ferry_archive_entry_path, the rule convert -r
        takes); None for a name that could lead outside any folder: nothing
        is then looked up beside it."""
        e = lib.ferry_archive_entry_at(self._h(), index).contents
        out = ctypes.create_string_buffer(e.name_length + 1)
        err = _native.Error()
        if not e.name or lib.ferry_archive_entry_path(e.name, e.name_length, out, len(out), byref(err)) != _native.OK:
            return None
        return out.value

    def _index(self, entry: Any) -> int:
        if isinstance(entry, ArchiveEntry):
            return entry.index
        if isinstance(entry, int):
            if not 0 <= entry < len(self.entries):
                raise IndexError("entry %d: the archive has %d" % (entry, len(self.entries)))
            return entry
        if isinstance(entry, str):
            want = entry.replace("\\", "/").lower()
            for e in self.entries:
                if e.name.replace("\\", "/").lower() == want:
                    return e.index
            raise KeyError("no entry named %r in %s" % (entry, self.name))
        raise TypeError("an entry is an index, an ArchiveEntry or a name")

    def read(self, entry: Any) -> bytes:
        """Entry ``entry``'s bytes (a compressed PBO entry decoded)."""
        with self.open(entry, bytes_only=True) as asset:
            size = ctypes.c_size_t()
            data = lib.ferry_asset_bytes(asset._h(), byref(size))
            return ctypes.string_at(data, size.value) if size.value else b""


# ---- authoring ----

@dataclass(frozen=True)
class AuthorReport:
    """What :func:`author_alo` made (ferry_author_alo_report): the model's
    ``bones``, ``meshes``, ``submeshes``, ``triangles``, ``vertices``,
    ``lights``, ``proxies`` and ``materials`` (``materials_from_extras``:
    shader and parameters from the glTF's extras, ``materials_mapped``:
    mapped from the glTF material), ``ferry_export`` (the glTF was ferry's
    own export), ``validation_errors`` and ``validation_warnings`` ferry
    validate found in the model, ``animations_written`` (.ala files beside
    it), ``textures_written`` and ``textures_failed`` (.dds files), and
    ``messages`` (everything the job said, in order)."""

    ferry_export: bool
    bones: int
    meshes: int
    submeshes: int
    triangles: int
    vertices: int
    lights: int
    proxies: int
    materials: int
    materials_from_extras: int
    materials_mapped: int
    validation_errors: int
    validation_warnings: int
    animations_written: int
    textures_written: int
    textures_failed: int
    messages: List[Message] = field(default_factory=list)


def author_alo(gltf: PathLike, dest: PathLike, textures_folder: Optional[PathLike] = None, ala_format: int = 2,
               allow_invalid: bool = False, name: Optional[str] = None) -> AuthorReport:
    """An Alamo model authored from a glTF file (``.glb``, or ``.gltf``
    with its files beside it; ferry_gltf_load, then ferry_author_alo): the
    job ``ferry convert MODEL.glb OUT.alo [--textures-out DIR]`` runs.

    The model is checked by ferry validate's rules before it is written: an
    error stops it (nothing written; raises :class:`ferry.Error`, whose
    ``messages`` hold the findings) unless ``allow_invalid``. Each glTF
    animation is written beside the model as the ALA the game finds
    (``MODEL_NAME.ala``, ALA format ``ala_format``, 1 or 2); with
    ``textures_folder``, the images the mapped materials name are written
    there as ``.dds``. ``name``: how messages name the input (default: its
    path). Returns an :class:`AuthorReport`; its ``messages`` hold the
    warnings (what the conversion changed or lost, what validation found).
    """
    if ala_format not in (1, 2):
        raise ValueError("ala_format is 1 or 2, not %r" % (ala_format,))
    shown = name if name is not None else _shown(gltf)
    scene = c_void_p()
    err = _native.Error()
    check(lib.ferry_gltf_load(_fspath(gltf), None, byref(scene), byref(err)), err, shown)
    messages: List[Message] = []
    callback = _collector(messages)
    report = _native.AuthorAloReport()
    try:
        o = _native.AuthorAloOptions()
        label = os.fsencode(shown)
        o.name = label
        o.ala_format = ala_format
        o.allow_invalid = allow_invalid
        o.write.protect_input = _fspath(gltf)
        o.message = callback
        err = _native.Error()
        folder = _fspath(textures_folder) if textures_folder is not None else None
        r = lib.ferry_author_alo(scene, _fspath(dest), folder, byref(o), byref(report), byref(err))
        if r != _native.OK:
            e = from_native(err, shown) if err.code else Error("code %d" % r, None, "", "authoring failed", shown)
            setattr(e, "messages", messages)
            raise e
    finally:
        lib.ferry_scene_free(scene)
    m = report.model
    return AuthorReport(bool(m.ferry_export), int(m.bones), int(m.meshes), int(m.submeshes), int(m.triangles),
                        int(m.vertices), int(m.lights), int(m.proxies), int(m.materials),
                        int(m.materials_from_extras), int(m.materials_mapped), int(report.validation_errors),
                        int(report.validation_warnings), int(report.animations_written),
                        int(report.textures_written), int(report.textures_failed), messages)
