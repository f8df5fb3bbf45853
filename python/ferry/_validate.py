"""Validation of files with their context, and of whole trees, as
``ferry validate`` and ``ferry validate -r`` do: ferry_validate_tree in the
library (textures looked up beside each model, animations checked against
the model they pair with, archives' entries checked as files)."""
import os
from ctypes import byref, c_char_p
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence, Union

from . import _native
from ._asset import Diagnostic, PathLike, Places, _diagnostics, _format_key, _fspath
from ._errors import Error, from_native
from ._export import FolderSkip
from ._jobs import Collector, Message, Progress, ProgressCallback, job_error, raise_kept
from ._native import lib


@dataclass(frozen=True)
class ValidatedFile:
    """One thing checked: a file, an archive's entry (``entry``: named
    ARCHIVE:ENTRY, delivered after its archive) or a folder of the tree that
    could not be read (``folder``). ``error`` is set when it could not be
    read (``diagnostics`` then empty); ``model`` names the model an
    animation was checked against (None: checked alone)."""

    file: str
    format: Optional[str]
    entry: bool
    folder: bool
    error: Optional[Error]
    diagnostics: List[Diagnostic]
    model: Optional[str]
    error_count: int

    @property
    def ok(self) -> bool:
        """No errors (warnings allowed), as ``ferry validate`` says "valid"."""
        return self.error_count == 0


@dataclass(frozen=True)
class ValidateReport:
    """What :func:`ferry.validate_tree` checked: every item in order, and
    the counts ``ferry validate -r`` prints (``checked`` files, ``invalid``
    of them, ``errors`` over all, files of no format ferry validates
    ``skipped``), the folders not walked and the walk's messages. ``ok``:
    nothing invalid (``ferry validate``'s exit 0)."""

    items: List[ValidatedFile]
    checked: int
    invalid: int
    errors: int
    skipped: int
    folders: List[FolderSkip]
    failed_folders: int
    messages: List[Message] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.invalid == 0 and self.failed_folders == 0


class _Items:
    """The ferry_validate_item_fn: each item copied out while it lives."""

    def __init__(self) -> None:
        self.items: List[ValidatedFile] = []
        self.failures: List[BaseException] = []
        self.callback = _native.ValidateItemFn(self._on)

    def _on(self, _user: Any, p: Any) -> None:
        try:
            x = p.contents
            name = _native.text(x.file)
            fmt = _format_key(x.format)
            error = from_native(x.error.contents, name) if x.error else None
            diags = _diagnostics(x.diagnostics.contents) if x.diagnostics else []
            self.items.append(ValidatedFile(name, fmt, bool(x.entry), bool(x.folder), error, diags,
                                            _native.text(x.model) if x.model else None, int(x.error_count)))
        except BaseException as exc:  # never unwind through C
            self.failures.append(exc)


def validate_tree(paths: Union[PathLike, Sequence[PathLike]], recursive: bool = True,
                  textures: Sequence[PathLike] = (), no_textures: bool = False,
                  models: Sequence[PathLike] = (), places: Optional[Places] = None,
                  progress: Optional[ProgressCallback] = None) -> ValidateReport:
    """Checks files, folders (``recursive``: walked as ``ferry validate -r``
    walks them) and archives by their formats' rules, with their context:
    textures beside each model, in ../Textures and in ``textures`` (folders
    or archives; ``no_textures``: not looked up), each animation against
    the model it pairs with by name among ``models`` then beside it. A file
    that cannot be read is an item with its ``error``, not an exception;
    :class:`ferry.Error` is raised only when the job itself fails (out of
    memory). ``progress(done, total, item)`` is called as files are
    checked."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    encoded = [_fspath(p) for p in paths]
    if not encoded:
        raise ValueError("no path to validate")
    pool = places if places is not None else Places()
    keep: List[Any] = []
    try:
        o = _native.ValidateOptions()
        o.recursive = recursive
        o.skip_textures = no_textures
        if not no_textures:
            array, o.texture_count = pool._place_array(textures)
            if array is not None:
                keep.append(array)
                o.textures = array
        if models:
            names = (c_char_p * len(models))(*[_fspath(m) for m in models])
            keep.append(names)
            o.models = names
            o.model_count = len(models)
        o.places = pool._h()
        items = _Items()
        messages = Collector()
        prog = Progress(progress)
        o.item = items.callback
        o.message = messages.callback
        o.progress = prog.callback
        array_paths = (c_char_p * len(encoded))(*encoded)
        report = _native.ValidateReport()
        err = _native.Error()
        try:
            r = lib.ferry_validate_tree(array_paths, len(encoded), byref(o), byref(report), byref(err))
            raise_kept(items, messages, prog)
            if r != _native.OK:
                raise job_error(err, r, None, messages.messages)
            folders = [FolderSkip(_native.text(s.path), _native.text(s.reason), bool(s.failed))
                       for s in report.folders[:report.folder_count]]
            return ValidateReport(items.items, int(report.checked), int(report.invalid), int(report.errors),
                                  int(report.skipped), folders, int(report.failed_folders), messages.messages)
        finally:
            lib.ferry_validate_report_free(byref(report))
    finally:
        if places is None:
            pool.close()
