"""ferry.open and Asset: any file ferry reads, behind one handle (libferry's
ferry_asset, include/ferry/format.h)."""

import ctypes
import json
import os
import warnings
import weakref
from ctypes import POINTER, byref, c_char_p, c_size_t, c_uint, c_uint32, c_void_p
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

from . import _native
from ._errors import ArgumentError, Error, UnsupportedError, check, from_native
from ._native import lib

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Source = Union[PathLike, bytes, bytearray, memoryview]

# ---- the format table ----

_CAPS = ((1 << 0, "read"), (1 << 1, "write"), (1 << 2, "validate"), (1 << 3, "info"), (1 << 4, "to_scene"),
         (1 << 5, "from_scene"), (1 << 6, "archive"))


@dataclass(frozen=True)
class Format:
    """A row of the library's format table (ferry_format_desc).

    ``key`` is short and stable ("alo", "particle", "ala", "odol", "alm",
    "glb", "gltf", "paa", "meg", "pbo", "rap", "config_text", ...), ``name``
    what ferry calls it ("ALO model", "ODOL", ...), ``extensions`` its file
    name endings (the first is what an output is named), ``caps`` what the
    library does with it: a set of "read", "write", "validate", "info",
    "to_scene", "from_scene", "archive".
    """

    id: int
    key: str
    name: str
    extensions: Tuple[str, ...]
    caps: FrozenSet[str]

    def __str__(self) -> str:
        return self.name


def _format_of(desc_ptr: Any) -> Optional[Format]:
    if not desc_ptr:
        return None
    d = desc_ptr.contents
    exts = []
    i = 0
    while d.extensions and d.extensions[i]:
        exts.append(d.extensions[i].decode("utf-8"))
        i += 1
    return Format(d.id, d.key.decode("utf-8"), d.name.decode("utf-8"), tuple(exts),
                  frozenset(name for bit, name in _CAPS if d.caps & bit))


_FORMATS: List[Format] = [f for f in (_format_of(lib.ferry_format_at(i)) for i in range(lib.ferry_format_count()))
                          if f is not None]
#: What an asset opened with bytes_only whose content is no known format is.
UNKNOWN = Format(0, "unknown", "unknown", (), frozenset())
_BY_ID: Dict[int, Format] = {f.id: f for f in _FORMATS}
_BY_ID[0] = UNKNOWN
_BY_KEY: Dict[str, Format] = {f.key: f for f in _FORMATS}


def formats() -> List[Format]:
    """Every row of the format table, in the library's order."""
    return list(_FORMATS)


def _format_key(fid: int) -> Optional[str]:
    f = _BY_ID.get(fid)
    return f.key if f else None


# ---- results ----

@dataclass(frozen=True)
class Diagnostic:
    """One problem validation found.

    ``severity`` is "error" (the game cannot load the file or draws it wrong)
    or "warning"; ``rule`` a short stable identifier ("index-range",
    "texture-missing", ...); ``offset`` the byte offset in the file checked
    (None when the problem has no position); ``path`` the chunk or record
    path; ``message`` the sentence. ``entry`` is None for the asset's own
    problems; for a problem of an archive's entry it is the entry's label
    "ARCHIVE:NAME" (the asset's name, a colon, the stored name; an archive
    inside gives ARCHIVE:INNER:NAME), and ``entry_format`` the key of the
    entry's format (None: named like an asset, content of none). An entry
    that could not be read is one error with the rule "read-error" (its
    located read error), as an asset opened with ``bytes_only`` reports its
    own.
    """

    severity: str
    rule: str
    offset: Optional[int]
    path: str
    message: str
    entry: Optional[str] = None
    entry_format: Optional[str] = None

    def __str__(self) -> str:
        """The line ``ferry validate`` prints for it (without the file's name
        for the asset's own: ``str(entry)`` starts with its label)."""
        where = "offset 0x%x (%d), " % (self.offset, self.offset) if self.offset is not None else ""
        if self.path:  # Alamo places are chunk paths ("0x400/0x401"); other formats name records
            where += "%s %s: " % ("chunk" if self.path.startswith("0x") else "at", self.path)
        return "%s%s: %s%s [%s]" % (self.entry + ": " if self.entry else "", self.severity, where, self.message,
                                    self.rule)


@dataclass(frozen=True)
class EntryReport:
    """One entry of an archive that :meth:`Asset.validate` checked (each
    entry whose content is a format ferry validates, or that is named like
    one: .alo, .ala, .p3d, .alm, .meg, .pbo, .paa, .pac, .rvmat).

    ``index`` is its record in the archive, ``name`` its stored name,
    ``label`` "ARCHIVE:NAME" (how its problems are named), ``format`` its
    content's format key (None: named like an asset, content of none).
    ``error`` is the :class:`ferry.Error` it could not be read with (then
    ``diagnostics`` is empty, and the report's list holds it as a
    "read-error"); else ``diagnostics`` its problems, ``error_count`` and
    ``warning_count`` their counts, ``dropped`` those counted but not listed.
    """

    index: int
    name: str
    label: str
    format: Optional[str]
    error: Optional[Error]
    diagnostics: List[Diagnostic]
    error_count: int
    warning_count: int
    dropped: int

    @property
    def valid(self) -> bool:
        return self.error_count == 0


class Report(List[Diagnostic]):
    """What :meth:`Asset.validate` found: a list of :class:`Diagnostic`
    (the asset's own first, then each entry's of an archive, in the
    archive's order), with the counts the library kept.

    ``error_count`` counts every error, the entries' included (an entry that
    could not be read is one); ``warning_count`` the asset's own warnings
    and its entries'; ``dropped`` the problems counted but not listed (the
    library keeps the first 1000 of each asset); ``valid`` is
    ``error_count == 0``. ``entries``: every entry of an archive that was
    checked, in the archive's order (:class:`EntryReport`), those without
    problems too; empty for other formats.
    """

    error_count: int = 0
    warning_count: int = 0
    dropped: int = 0
    entries: List[EntryReport]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.entries = []

    @property
    def valid(self) -> bool:
        return self.error_count == 0

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self if d.severity == "error"]

    @property
    def warnings(self) -> List[Diagnostic]:
        return [d for d in self if d.severity == "warning"]


@dataclass(frozen=True)
class AlmLod:
    """A level of detail of an ALM mesh (ferry_alm_lod_extract): after
    ``collapses`` collapse records (``last_error``: the error of the last
    one, 0 for none), ``vertex_source[i]`` is the mesh vertex that LOD
    vertex i is, and ``triangles`` are (v0, v1, v2, material) with indices
    into the LOD's vertices, counter-clockwise."""

    collapses: int
    last_error: float
    vertex_source: List[int]
    triangles: List[Tuple[int, int, int, int]]


class SimulationWarning(UserWarning):
    """A limit the particle simulation reached (huge rates, connection loops):
    the particles it could not make are left out."""


class TextureWarning(UserWarning):
    """A texture a drawing needs was not found or could not be decoded: it is
    drawn as a soft glow."""


# ---- helpers ----

def _fspath(path: PathLike) -> bytes:
    return os.fsencode(path)


def _shown(path: PathLike) -> str:
    p = os.fspath(path)
    return p if isinstance(p, str) else os.fsdecode(p)


def _json_object(raw: bytes) -> Dict[str, Any]:
    """One JSON object the library made, parsed."""
    value = json.loads(raw.decode("utf-8"))
    assert isinstance(value, dict)
    return value


def _write_file(path: PathLike, data: bytes, protect: Optional[bytes] = None) -> None:
    """Writes atomically through the library (ferry_file_write)."""
    err = _native.Error()
    wo = _native.WriteOptions(protect, False)
    check(lib.ferry_file_write(_fspath(path), data, len(data), byref(wo), byref(err)), err, _shown(path))


class _TextureFolders:
    """Where the game finds a model's textures, as folder sources opened by
    the library (ferry_alamo_texture_folders_open): beside the model, its
    ../Textures, then each of `dirs`."""

    def __init__(self, model_path: Optional[bytes], dirs: Sequence[PathLike]):
        self._model_path = model_path  # the places point into it
        self._dirs = [_fspath(d) for d in dirs]
        array = (c_char_p * max(len(self._dirs), 1))(*self._dirs)
        self.folders = _native.TextureFolders()
        err = _native.Error()
        check(lib.ferry_alamo_texture_folders_open(model_path, array, len(self._dirs), byref(self.folders), byref(err)),
              err)
        self.open = True

    @property
    def places(self) -> Any:
        return ctypes.pointer(self.folders.places)

    def close(self) -> None:
        if self.open:
            lib.ferry_alamo_texture_folders_close(byref(self.folders))
            self.open = False

    def __enter__(self) -> "_TextureFolders":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Places:
    """Folders and archives opened once, and each folder listed once, for as
    long as this object lives (the library's ferry_places pool): the places a
    batch looks for textures in, as one run of the ferry tool does, so that
    validating, drawing or converting many files beside each other lists
    their folders once instead of once per file. Pass it as ``places=`` to
    :meth:`Asset.validate`, :meth:`Asset.render`, :meth:`Asset.to_gltf` and
    :func:`ferry.convert`.

    A folder changed after it was listed is not seen, so make a new Places
    for a new batch. May be used from several threads at once. Close it (or
    use ``with``) when the batch is done, once no call uses it.
    """

    def __init__(self) -> None:
        handle = lib.ferry_places_new()
        if not handle:
            raise MemoryError("ferry: out of memory (ferry_places_new)")
        self._handle: Optional[int] = int(handle)
        self._finalizer = weakref.finalize(self, lib.ferry_places_free, self._handle)

    def close(self) -> None:
        """Closes every folder and archive; the object may not be used afterwards."""
        self._handle = None
        self._finalizer()

    def __enter__(self) -> "Places":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _h(self) -> int:
        h = self._handle
        if h is None:
            raise ValueError("the places are closed")
        return h

    def _folder(self, path: bytes) -> Any:
        """The folder at `path` as a cached file source (ferry_places_folder);
        None when it cannot be opened (nothing is found there)."""
        place = lib.ferry_places_folder(self._h(), path, None)
        return place.contents.source if place else None

    def _place(self, path: PathLike) -> Any:
        """A folder or an archive at `path` (ferry_places_open), raising the
        library's error when it is neither or does not read."""
        err = _native.Error()
        place = lib.ferry_places_open(self._h(), _fspath(path), byref(err))
        if not place:
            check(err.code or 7, err, _shown(path))  # 7: FERRY_ERR_ARGUMENT, were the code left unset
        return place

    def _place_array(self, paths: Union[PathLike, Sequence[PathLike]]) -> Tuple[Any, int]:
        """The places at `paths` (one path or several) as the `textures`
        array of a job's options, and their count ((None, 0) for none)."""
        if isinstance(paths, (str, bytes, os.PathLike)):
            paths = [paths]
        found = [self._place(p) for p in paths]
        if not found:
            return None, 0
        return (POINTER(_native.Place) * len(found))(*found), len(found)

    def _texture_places(self, model_path: Optional[bytes], dirs: Sequence[PathLike]) -> "_PooledPlaces":
        return _PooledPlaces(self, model_path, [_fspath(d) for d in dirs])


class _PooledPlaces:
    """A file's texture places from a Places pool: the file's folder, the
    folder above it (as DIR/..), then each further folder, as the ferry tool
    builds them from its pool (ferry_alamo_texture_places)."""

    def __init__(self, pool: Places, model_path: Optional[bytes], dirs: List[bytes]):
        self.struct = _native.TexturePlaces()
        if model_path is not None:
            folder, name = os.path.split(model_path)
            folder = folder or b"."
            self._name = name
            self.struct.model_source = pool._folder(folder)
            self.struct.model_path = name
            self.struct.parent_source = pool._folder(folder + b"/..")
        sources = [pool._folder(d) for d in dirs]
        # a folder that cannot be opened is a NULL entry: nothing is found there
        self._list = (POINTER(_native.FileSource) * max(len(sources), 1))()
        for i, x in enumerate(sources):
            if x:
                self._list[i] = x
        self.struct.folders = self._list
        self.struct.folder_count = len(sources)

    @property
    def places(self) -> Any:
        return ctypes.pointer(self.struct)

    def close(self) -> None:
        pass  # the pool owns the folders


def _texture_places(asset_path: Optional[bytes], dirs: Sequence[PathLike], places: Optional[Places]) -> Any:
    """The places a file's textures are looked up in: from a pool, or
    opened for this call alone (ferry_alamo_texture_folders_open)."""
    if places is not None:
        return places._texture_places(asset_path, dirs)
    return _TextureFolders(asset_path, dirs)


def _free_asset(handle: int) -> None:
    lib.ferry_asset_free(handle)


# ---- the asset ----

class Asset:
    """A file of any format ferry reads: its bytes, its format (told from
    the content once) and the library's object for it.

    Made by :func:`ferry.open`. Its memory is the library's and is freed by
    :meth:`close`, at the end of a ``with`` block, or when the asset is
    garbage-collected. An asset never changes once made, so several threads
    may use one at once (the library releases the interpreter's lock while it
    works); close it only when no thread uses it any more.
    """

    def __init__(self, handle: int, keep: Any, name: Optional[str], path: Optional[bytes]):
        self._handle: Optional[int] = handle
        self._keep = keep  # the bytes ferry_asset_read did not copy
        self._path = path
        self._entry: Any = None  # (archive, entry) for an archive's entry: its place when exported
        self.name = name
        """How the asset is named in its info ("file"), reports and errors: the
        path it was opened from, or the ``name`` given; None for bytes without one."""
        self.format: Format = _BY_ID[lib.ferry_asset_format(handle)]
        """The format the content was read as (a row of :func:`ferry.formats`)."""
        size = c_size_t()
        lib.ferry_asset_bytes(handle, byref(size))
        self.size: int = size.value
        """How many bytes the asset holds."""
        self._finalizer = weakref.finalize(self, _free_asset, handle)

    # -- life --

    def close(self) -> None:
        """Frees the library's memory (and unmaps the file) now; later calls
        raise ValueError. Closing twice does nothing."""
        self._handle = None
        self._finalizer()
        self._keep = None

    @property
    def closed(self) -> bool:
        return self._handle is None

    def __enter__(self) -> "Asset":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "%d bytes" % self.size
        return "<ferry.Asset %s %r, %s>" % (self.format.key, self.name, state)

    def _h(self) -> int:
        h = self._handle
        if h is None:
            raise ValueError("the asset is closed")
        return h

    def _object(self) -> int:
        """The typed object, for the calls that take one (PAA, ALM, particle
        systems); the kind is checked by the caller (_need)."""
        obj = lib.ferry_asset_object(self._h())
        if not obj:
            raise ArgumentError("argument", None, "", "the asset was opened with bytes_only: it holds no object "
                                "for this call (open it without bytes_only)", self.name)
        return int(obj)

    def _need(self, key: str, verb: str) -> None:
        if self.format.key != key:
            raise UnsupportedError("unsupported", None, "", "this is %s %s, not %s" % (
                "an" if self.format.name[0] in "AEIOU" else "a", self.format.name, verb), self.name)

    def _check(self, result: int, err: _native.Error) -> None:
        check(result, err, self.name)

    # -- every format --

    def info(self, detail: str = "summary", exact: bool = False) -> Dict[str, Any]:
        """The asset described as data (ferry_asset_info).

        ``detail="summary"``: the object ``ferry info --json`` prints for the
        file; ``"full"``: everything decoded, ``ferry dump --json``'s object;
        ``"entries"``: an archive's table, ``ferry list --json``'s (archives
        only). Names that are not UTF-8 are read as Latin-1 and their keys
        listed in the object's "latin1" list (the README's rule). ``exact``:
        reals to 17 significant digits (their exact float values) instead of
        the 9 the tool prints.
        """
        levels = {"summary": 0, "full": 1, "entries": 2}
        if detail not in levels:
            raise ValueError("detail must be 'summary', 'full' or 'entries', not %r" % (detail,))
        out = _native.Buffer()
        err = _native.Error()
        o = _native.InfoOptions(levels[detail], exact, False)
        r = lib.ferry_asset_info(self._h(), byref(o), byref(out), byref(err))
        if r != _native.OK:
            lib.ferry_buffer_free(byref(out))
            self._check(r, err)
        return _json_object(_native.take_buffer(out))

    def validate(self, textures: Optional[bool] = None, texture_dirs: Sequence[PathLike] = (),
                 model: Optional["Asset"] = None, places: Optional[Places] = None) -> Report:
        """Checks every rule of the asset's format (ferry_asset_validate);
        never raises for a broken file: its problems are the report.

        ``textures``: ALO models and particle systems look up the textures
        they name as the game does (beside the file, in ../Textures, then in
        each of ``texture_dirs``, folders); one not found is a warning. By
        default on for an asset opened from a path (as ``ferry validate``),
        off for bytes (unless ``texture_dirs`` are given). ``model``: an ALA
        animation is also checked against this ALO model's asset (as
        ``ferry validate --model``). An archive's entries are checked too
        and reported with their ``entry`` label. ``places``: a
        :class:`Places` the folders are taken from (each listed once for a
        whole batch; by default they are opened for this call).
        """
        h = self._h()
        if model is not None and model.format.key != "alo":
            raise ArgumentError("argument", None, "", "the model given is %s, not an ALO model" % model.format.name,
                                self.name)
        if textures is None:
            textures = self._path is not None or bool(texture_dirs)
        folders = None
        if textures and self.format.key in ("alo", "particle"):
            folders = _texture_places(self._path, texture_dirs, places)
        entries: List[EntryReport] = []
        failures: List[BaseException] = []

        def on_entry(_user: Any, report_ptr: Any) -> None:
            try:
                e = report_ptr.contents
                label = _native.text(e.label)
                fmt = _format_key(e.format)
                name = _native.text(ctypes.string_at(e.name, e.name_length))
                if e.error:
                    error = from_native(e.error.contents, label)
                    diags = [Diagnostic("error", "read-error", error.offset, error.path, error.message, label, fmt)]
                    entries.append(EntryReport(int(e.index), name, label, fmt, error, [], 1, 0, 0))
                    collected.extend(diags)
                else:
                    d = e.diagnostics.contents
                    diags = _diagnostics(d, label, fmt)
                    entries.append(EntryReport(int(e.index), name, label, fmt, None, diags, int(d.error_count),
                                               int(d.warning_count), int(d.dropped)))
                    collected.extend(diags)
            except BaseException as exc:  # never let an exception unwind through C
                failures.append(exc)

        collected: List[Diagnostic] = []
        callback = _native.EntryFn(on_entry)
        vo = _native.AssetValidateOptions(folders.places if folders else None, model._h() if model else None,
                                          callback, None)
        diags = _native.Diagnostics()
        try:
            errors = lib.ferry_asset_validate(h, byref(vo), byref(diags))
            report = Report(_diagnostics(diags))
            report.extend(collected)
            report.entries = entries
            report.error_count = int(errors)
            report.warning_count = int(diags.warning_count) + sum(e.warning_count for e in entries)
            report.dropped = int(diags.dropped) + sum(e.dropped for e in entries)
        finally:
            lib.ferry_diagnostics_free(byref(diags))
            if folders:
                folders.close()
        if failures:
            raise failures[0]
        return report

    def write(self, layout: Union[None, int, str] = None) -> bytes:
        """The asset's bytes in its format: the bytes read, byte for byte
        (ferry_asset_write; a raP config laid out otherwise than the tools
        lay it out comes back in their layout).

        ``layout``: the other layout of a format that has two
        (ferry_asset_write_layout): 1 or 2 for an ALA animation's format 1
        (Empire at War) or 2 (Forces of Corruption); "rap" or "text" for a
        config. A text config has only those (its ``write()`` raises
        UnsupportedError).
        """
        value = {None: 0, "rap": 1, "text": 2}.get(layout, layout) if not isinstance(layout, int) else layout
        if not isinstance(value, int):
            raise ValueError("layout must be None, 1, 2, 'rap' or 'text', not %r" % (layout,))
        out = _native.Buffer()
        err = _native.Error()
        r = lib.ferry_asset_write_layout(self._h(), value, byref(out), byref(err))
        if r != _native.OK:
            lib.ferry_buffer_free(byref(out))
            self._check(r, err)
        return _native.take_buffer(out)

    def save(self, path: PathLike) -> None:
        """:meth:`write` into a file, atomically (a temporary beside it, then
        a rename); an archive is written in pieces, never held whole. Never
        over the file the asset was opened from."""
        err = _native.Error()
        wo = _native.WriteOptions(self._path, False)
        check(lib.ferry_asset_save(self._h(), _fspath(path), byref(wo), byref(err)), err, _shown(path))

    def to_gltf(self, dest: PathLike, textures: Sequence[PathLike] = (), no_textures: bool = False,
                animations: Any = None, force: bool = False, all: bool = False,
                lod: Union[None, int, Sequence[int]] = None, triangles: Optional[int] = None,
                error: Optional[float] = None, no_animations: bool = False, allow_invalid: bool = False,
                places: Optional[Places] = None, png_effort: str = "small",
                skin_all_bones: bool = False, faction_masks: bool = True, native_textures: bool = False) -> Any:
        """Writes the asset as glTF 2.0 (``.glb``, or ``.gltf`` with a
        ``.bin`` and PNG images beside it) by the library's export
        (ferry_export_file), as ``ferry convert FILE OUT.glb`` does with the
        same options: the same bytes. ALO models and particle systems, ODOL
        models, ALM meshes.

        The asset is validated first and refused on errors unless
        ``allow_invalid``. Textures are found as the game finds them (an
        asset opened from a path: beside it and in ../Textures; an archive's
        entry: in its archive), then in each of ``textures`` (folders or
        archives); ``no_textures``: none. ``animations``: ALA files (paths or
        assets) to attach, or ``"auto"``: every MODEL_*.ala beside the model;
        ``force`` attaches one whose tracks do not fit. ``all``: every mesh
        (ALO) or LOD (ODOL) instead of what the game shows first. ``lod``:
        ODOL LOD indices (an int or a list); ALM: that many collapse records
        (or ``triangles``: the fewest that leave at most that many;
        ``error``: all whose error is at most it). ``no_animations``: an ODOL
        skeleton's animation classes left out. ``places``: a :class:`Places`
        pool for a batch. ``png_effort``: how the embedded textures are
        written as PNG: ``"small"`` (the tool's bytes), ``"fast"`` (zlib
        level 1, no row filter: several times faster, up to about a tenth
        larger) or ``"stored"`` (no compression: faster still, about as large
        as the pixels), the last two for a ``.glb`` read at once (an
        import); the pixels are the same. ``skin_all_bones`` (ALO, ALM):
        every bone a joint of a skin even where no mesh is skinned, for
        importers that make bones only of skins' joints (Blender's).
        ``faction_masks=False`` (ALO): no faction-colour mask image for a
        colorize shader (nor the material extras naming it), for importers
        that make nothing of an image no material slot uses (Blender's).
        ``native_textures`` (ALO): textures in the game's own formats, for
        an importer on this machine that reads DDS and TGA (Blender's): a
        texture used as its file holds it (a normal map, a plain base
        texture) found as a file of the disk (not in an archive) is named by
        its absolute path instead of embedded; a colorize shader's colour
        from a DXT texture is embedded as the DXT1 DDS of its colour blocks
        (``image/vnd-ms.dds``); the others stay PNGs. Such a glTF is not
        portable, and not valid glTF: it is for that importer alone.

        Returns a :class:`ferry.ExportReport`; raises :class:`ferry.Error`
        (its ``messages``: the validation errors of a refused asset).
        """
        from ._export import export_asset
        return export_asset(self, dest, places, textures, no_textures, animations, force, all, lod, triangles, error,
                            no_animations, allow_invalid, png_effort, skin_all_bones, faction_masks, native_textures)

    # -- animations --

    def sample(self, frame: Optional[float] = None, time: Optional[float] = None, loop: bool = False,
               model: Optional["Asset"] = None, exact: bool = False) -> Dict[str, Any]:
        """Every animated bone's local pose at one moment of an ALA animation
        (ferry_asset_sample): the object ``ferry sample --json`` prints,
        ``{"file", "frame", "frames", "fps", "loop", "bones": [{"name",
        "index", "translation", "rotation" (x, y, z, w), "scale", "visible"
        (None: the animation does not say)}]}``.

        Give ``frame`` (fractional frames interpolate) or ``time`` in
        seconds. ``loop``: wrap past the end (the last frame equals the
        first) instead of holding the last frame. ``model``: the ALO model's
        asset, whose bone names are shown by index. ``exact``: reals to 17
        digits (the float values themselves) instead of the tool's 9.
        """
        if (frame is None) == (time is None):
            raise ValueError("give exactly one of frame and time")
        o = _native.AssetSampleOptions()
        if time is not None:
            o.has_time = True
            o.time = time
        else:
            o.frame = frame
        o.loop = loop
        o.exact = exact
        if model is not None:
            o.model = model._h()
        out = _native.Buffer()
        err = _native.Error()
        r = lib.ferry_asset_sample(self._h(), byref(o), byref(out), byref(err))
        if r != _native.OK:
            lib.ferry_buffer_free(byref(out))
            self._check(r, err)
        return _json_object(_native.take_buffer(out))

    # -- particle systems --

    def particles(self, time: float, seed: int = 0, ground: float = 0.0, no_ground: bool = False,
                  exact: bool = False) -> Dict[str, Any]:
        """The live particles of a particle system ``time`` seconds after its
        creation (ferry_asset_particles): the object ``ferry particles
        --json`` prints, ``{"time", "emitters": [{"index", "name",
        "particles": [{"id", "position", "velocity", "size", "color",
        "rotation", "age", "lifetime", "frame"}]}]}``, by birth time.

        The same ``seed`` gives the same particles; ``ground`` is the height
        of the plane particles bounce on (``no_ground``: none). Limits the
        simulation reached are warned about (:class:`SimulationWarning`).
        ``exact``: reals to 17 digits instead of the tool's 9.
        """
        bits = c_uint()
        o = _native.AssetParticlesOptions(time, seed, ground, no_ground, exact, False, ctypes.pointer(bits))
        out = _native.Buffer()
        err = _native.Error()
        r = lib.ferry_asset_particles(self._h(), byref(o), byref(out), byref(err))
        if r != _native.OK:
            lib.ferry_buffer_free(byref(out))
            self._check(r, err)
        _warn_sim(self.name, bits.value)
        return _json_object(_native.take_buffer(out))

    def render(self, dest: Optional[PathLike] = None, time: float = 0.0, seed: int = 0,
               size: Tuple[int, int] = (512, 512), ground: float = 0.0, no_ground: bool = False,
               textures: Optional[bool] = None, texture_dirs: Sequence[PathLike] = (),
               places: Optional[Places] = None) -> bytes:
        """A particle system drawn at ``time`` seconds by the library's
        software renderer, as PNG bytes (written to ``dest`` too when
        given): what ``ferry render FILE OUT.png`` draws. Camera-facing
        sprites in each emitter's blend mode over a grey checkerboard, the
        camera framed on the live particles; textures found as the game
        finds them (beside the file, ../Textures, then ``texture_dirs``;
        ``textures``: by default when opened from a path), a missing one
        drawn as a soft glow (:class:`TextureWarning`); ``places``: a
        :class:`Places` to take the folders from.
        """
        self._need("particle", "a particle system")
        width, height = int(size[0]), int(size[1])
        if not (1 <= width <= 4096 and 1 <= height <= 4096):
            raise ValueError("size must be 1 to 4096 pixels a side")
        if textures is None:
            textures = self._path is not None or bool(texture_dirs)
        png = _render(self, time, seed, width, height, ground, no_ground,
                      _texture_places(self._path, texture_dirs, places) if textures else None)
        if dest is not None:
            _write_file(dest, png, self._path)
        return png

    # -- textures --

    def to_png(self, dest: Optional[PathLike] = None, mip: int = 0) -> bytes:
        """One mipmap of a PAA/PAC texture (0, the largest, by default)
        decoded to RGBA as PNG bytes (ferry_paa_encode_png), written to
        ``dest`` too when given: the bytes ``ferry convert TEX.paa OUT.png
        --mip N`` writes."""
        self._need("paa", "a PAA texture")
        out = _native.Buffer()
        err = _native.Error()
        r = lib.ferry_paa_encode_png(self._object(), mip, byref(out), byref(err))
        if r != _native.OK:
            lib.ferry_buffer_free(byref(out))
            self._check(r, err)
        png = _native.take_buffer(out)
        if dest is not None:
            _write_file(dest, png, self._path)
        return png

    # -- ALM progressive meshes --

    @property
    def lods(self) -> List[int]:
        """An ALM mesh's triangles after the first k collapse records, for
        every k from 0 (the full mesh) to the number of records
        (ferry_alm_lod_triangle_counts)."""
        self._need("alm", "an ALM mesh")
        records = int(self.info()["collapses"])
        counts = (c_uint32 * (records + 1))()
        err = _native.Error()
        self._check(lib.ferry_alm_lod_triangle_counts(self._object(), counts, byref(err)), err)
        return list(counts)

    def lod(self, collapses: Optional[int] = None, triangles: Optional[int] = None,
            error: Optional[float] = None) -> AlmLod:
        """A level of detail of an ALM mesh (ferry_alm_lod_extract): after
        ``collapses`` records, or the fewest that leave at most
        ``triangles`` triangles, or all those whose error is at most
        ``error`` (give one; none: the full mesh)."""
        self._need("alm", "an ALM mesh")
        o = _alm_lod_options(collapses, triangles, error)
        lod = POINTER(_native.AlmLod)()
        err = _native.Error()
        self._check(lib.ferry_alm_lod_extract(self._object(), byref(o), byref(lod), byref(err)), err)
        try:
            x = lod.contents
            return AlmLod(int(x.collapses_applied), float(x.last_error), x.vertex_source[:x.vertex_count],
                          [(t.vertices[0], t.vertices[1], t.vertices[2], t.material)
                           for t in x.triangles[:x.triangle_count]])
        finally:
            lib.ferry_alm_lod_free(lod)


def _alm_lod_options(collapses: Optional[int], triangles: Optional[int], error: Optional[float]) -> Any:
    given = [x is not None for x in (collapses, triangles, error)]
    if sum(given) > 1:
        raise ValueError("give one of collapses (lod), triangles and error")
    o = _native.AlmLodOptions(-1, 0, -1.0)
    if collapses is not None:
        if collapses < 0:
            raise ValueError("collapses must be 0 or more")
        o.collapses = collapses
    elif triangles is not None:
        if triangles < 1:
            raise ValueError("triangles must be 1 or more")
        o.max_triangles = triangles
    elif error is not None:
        if not error >= 0:
            raise ValueError("error must be 0 or more")
        o.max_error = error
    else:
        o.collapses = 0
    return o


def _diagnostics(d: _native.Diagnostics, entry: Optional[str] = None,
                 entry_format: Optional[str] = None) -> List[Diagnostic]:
    out = []
    for i in range(d.count):
        x = d.items[i]
        out.append(Diagnostic("error" if x.severity == 0 else "warning", _native.text(x.rule),
                              None if x.offset == _native.NO_OFFSET else int(x.offset), _native.text(x.path),
                              _native.text(x.message), entry, entry_format))
    return out


def _warn_sim(name: Optional[str], bits: int) -> None:
    for b in range(_native.PARTICLE_SIM_WARN_COUNT):
        if bits & (1 << b):
            sentence = lib.ferry_particle_sim_warning_text(1 << b)
            warnings.warn(SimulationWarning("%s: %s" % (name or "particles", _native.text(sentence))), stacklevel=3)


# ---- drawing a particle system ----

class _TextureCache:
    """Textures for the renderer by the names the emitters give, each found
    (ferry_alamo_texture_find), loaded and decoded by the library once; the
    images stay where they are until the drawing is done."""

    def __init__(self, folders: Any, name: Optional[str]):
        self.folders = folders
        self.name = name or "particles"
        self.images: Dict[bytes, Optional[_native.Image]] = {}
        self.missing: List[str] = []  # warned about once the drawing is done (never from inside C)
        self.callback = _native.TextureFn(self._lookup)

    def _lookup(self, texture: bytes, _user: Any) -> Optional[int]:
        try:
            if texture not in self.images:
                self.images[texture] = self._load(texture)
            image = self.images[texture]
            return ctypes.addressof(image) if image is not None else None
        except BaseException:  # never unwind through C: the particle is drawn as a glow
            return None

    def _load(self, texture: bytes) -> Optional[_native.Image]:
        source = POINTER(_native.FileSource)()
        path = ctypes.create_string_buffer(4096)
        found = self.folders is not None and lib.ferry_alamo_texture_find(self.folders.places, texture, byref(source),
                                                                          path, len(path))
        if found:
            data = POINTER(ctypes.c_uint8)()
            size = c_size_t()
            err = _native.Error()
            if lib.ferry_file_source_load(source, path.value, 256 << 20, byref(data), byref(size),
                                          byref(err)) == _native.OK:
                image = _native.Image()
                err = _native.Error()
                ok = lib.ferry_image_decode(data, size, None, byref(image), byref(err)) == _native.OK
                lib.ferry_file_source_release(source, data, size)
                if ok:
                    return image
                self.missing.append("%s: texture %s: %s" % (self.name, _native.text(path.value),
                                                            _native.text(err.message)))
        self.missing.append("%s: texture '%s' not found: drawn as a soft glow" % (self.name, _native.text(texture)))
        return None

    def close(self) -> None:
        for image in self.images.values():
            if image is not None:
                lib.ferry_image_free(byref(image))
        self.images.clear()
        if self.folders:
            self.folders.close()


def _new_sim(asset: Asset, seed: int, ground: float, no_ground: bool) -> c_void_p:
    so = _native.ParticleSimOptions()
    so.seed = seed
    so.ground_z = ground
    so.no_ground = no_ground
    sim = c_void_p()
    err = _native.Error()
    asset._check(lib.ferry_particle_sim_create(asset._object(), byref(so), byref(sim), byref(err)), err)
    return sim


def _render(asset: Asset, time: float, seed: int, width: int, height: int, ground: float, no_ground: bool,
            folders: Any) -> bytes:
    if not (time >= 0 and time != float("inf")):
        raise ArgumentError("argument", None, "", "the time must be a finite number of seconds, 0 or more",
                            asset.name)
    cache = _TextureCache(folders, asset.name)
    sim = c_void_p()
    image = _native.Image()
    try:
        # Framed as `ferry render` frames a still: on the particles at `time`.
        sim = _new_sim(asset, seed, ground, no_ground)
        lib.ferry_particle_sim_advance(sim, time)
        lo, hi = (ctypes.c_float * 3)(), (ctypes.c_float * 3)()
        live = lib.ferry_particle_sim_bounds(sim, lo, hi)
        _warn_sim(asset.name, lib.ferry_particle_sim_warnings(sim))
        if not live:
            lo, hi = (ctypes.c_float * 3)(), (ctypes.c_float * 3)()
            warnings.warn(SimulationWarning("%s: no live particles at this time: the image is background only"
                                            % (asset.name or "particles")), stacklevel=3)
        ro = _native.ParticleRenderOptions()
        ro.width, ro.height = width, height
        # The tool's grey checkerboard: smoke of any grey shows on one of its cells.
        ro.background[:] = [0.32, 0.32, 0.32]
        ro.background2[:] = [0.48, 0.48, 0.48]
        ro.checker = width // 16 if width // 16 > 4 else 4
        ro.texture = cache.callback
        lib.ferry_particle_camera_frame(lo, hi, ctypes.c_float(width / height), byref(ro.camera))
        err = _native.Error()
        asset._check(lib.ferry_particle_render(sim, byref(ro), byref(image), byref(err)), err)
        for line in cache.missing:
            warnings.warn(TextureWarning(line), stacklevel=3)
        out = _native.Buffer()
        err = _native.Error()
        r = lib.ferry_image_encode_png(byref(image), None, byref(out), byref(err))
        if r != _native.OK:
            lib.ferry_buffer_free(byref(out))
            asset._check(r, err)
        return _native.take_buffer(out)
    finally:
        lib.ferry_image_free(byref(image))
        lib.ferry_particle_sim_free(sim)
        cache.close()


# ---- opening ----

def _open_options(format: Optional[str], bytes_only: bool, memory_limit: int,
                  max_size: int) -> Tuple[_native.AssetOptions, ctypes.c_int]:
    """ferry_asset_options for open() and Archive.open(), with the int the
    library fills with the format it detected."""
    options = _native.AssetOptions()
    options.read.memory_limit = memory_limit
    options.max_size = max_size
    options.bytes_only = bytes_only
    if format is not None:
        row = _BY_KEY.get(format)
        if row is None:
            raise ValueError("no format %r; the keys are %s" % (format, ", ".join(sorted(_BY_KEY))))
        options.format = row.id
    detected = ctypes.c_int(0)
    options.detected = ctypes.pointer(detected)
    return options, detected


def open(source: Source, name: Optional[str] = None, format: Optional[str] = None, bytes_only: bool = False,
         memory_limit: int = 0, max_size: int = 0) -> Asset:
    """Reads a file of any format ferry knows, told by its content.

    ``source`` is a path (str, bytes or os.PathLike: the file is mapped
    once, ferry_asset_open) or the file's bytes (bytes, bytearray or
    memoryview: ferry_asset_read; a bytes object is used in place and kept
    alive with the asset, the others are copied once).

    ``name``: how the asset is named in its info, reports and errors (by
    default its path; bytes have none). ``format``: read the content as this
    format's key instead of the one detected. ``bytes_only``: tell the
    format but read no object (each call reads it for itself; for looking at
    a file its reader refuses, e.g. ``info(detail="full")`` of an Alamo file
    is its chunk tree). ``memory_limit``: the most the read may allocate (0:
    16 times the input plus 1 MiB, at most 4 GiB). ``max_size``: the largest
    file read (0: 2 GiB; archives are mapped whatever their size).

    Raises :class:`ferry.Error` (located: offset, path, message) when the
    content is of no known format or its reader refuses it.
    """
    options, detected = _open_options(format, bytes_only, memory_limit, max_size)
    handle = c_void_p()
    err = _native.Error()
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = source if isinstance(source, bytes) else bytes(source)
        options.name = os.fsencode(name) if name is not None else None
        r = lib.ferry_asset_read(data, len(data), byref(options), byref(handle), byref(err))
        check(r, err, name, _format_key(detected.value))
        return Asset(_made(handle), data, name, None)
    path = _fspath(source)
    shown = name if name is not None else _shown(source)
    options.name = os.fsencode(name) if name is not None else path
    r = lib.ferry_asset_open(path, byref(options), byref(handle), byref(err))
    check(r, err, shown, _format_key(detected.value))
    return Asset(_made(handle), None, shown, path)


def _made(handle: c_void_p) -> int:
    """The asset a call that succeeded made (never NULL then)."""
    if not handle.value:
        raise RuntimeError("ferry: the library reported success without an asset")
    return int(handle.value)
