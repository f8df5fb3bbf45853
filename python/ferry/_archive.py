"""ferry.Archive and ferry.pack: MEG and PBO archives behind one handle
(libferry's ferry_archive, include/ferry/archive.h)."""

import ctypes
import os
import threading
import weakref
from ctypes import POINTER, byref, c_size_t, c_void_p
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _native
from ._asset import _BY_ID, _BY_KEY, Asset, Format, PathLike, _fspath, _made, _open_options, _shown
from ._errors import ArgumentError, check
from ._jobs import Collector, Message, Progress, ProgressCallback, job_error, raise_kept, strings
from ._native import lib


@dataclass(frozen=True)
class Entry:
    """One entry of an archive (ferry_archive_entry), in record order.

    ``name`` is its stored name as text ('\\' between folders, as stored;
    not UTF-8: read as Latin-1), ``raw_name`` its bytes (None: the record
    names none). ``size`` is its bytes when read (a compressed PBO entry's
    decoded size), ``stored_size`` what it takes in the archive, ``start``
    where those begin, ``offset`` where its record is, ``compressed``
    whether it is stored compressed (PBO)."""

    index: int
    name: str
    raw_name: Optional[bytes]
    size: int
    stored_size: int
    start: int
    offset: int
    compressed: bool


@dataclass(frozen=True)
class ExtractReport:
    """What :meth:`Archive.extract` did (ferry_extract_report): ``selected``
    entries the patterns chose, ``extracted`` files written, ``refused``
    entries not extracted, each named in ``messages`` with its reason (rule
    "entry-name": a name that could lead outside the folder, "entry-case":
    two names equal but for case, "entry-bytes", "entry-folder",
    "write-error")."""

    selected: int
    extracted: int
    refused: int
    messages: List[Message] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every entry chosen was extracted (``ferry extract``'s exit 0)."""
        return self.refused == 0


@dataclass(frozen=True)
class PackReport:
    """What :func:`ferry.pack` did (ferry_pack_report): the ``format`` key
    written ("meg", "pbo"), ``meg_format`` (MEG: 1, 2 or 3), ``packed`` files
    and their ``bytes``, ``refused`` files not packed and folders not read,
    each named in ``messages`` (rules "file-unreadable", "file-kind", "name",
    "name-case", "folder-unreadable", "folder-revisited")."""

    format: str
    meg_format: int
    packed: int
    bytes: int
    refused: int
    messages: List[Message] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every file was packed (``ferry pack``'s exit 0)."""
        return self.refused == 0


def _free_archive(handle: int) -> None:
    lib.ferry_archive_free(handle)


class Archive:
    """A MEG or PBO archive: its entries, their bytes, each as an asset, and
    extracting them (ferry_archive).

    ``Archive(path)`` maps the file (only the pages of its tables and of the
    entries read are read, whatever its size); its format is told by
    content, else by the name's extension. Iterating gives its
    :class:`Entry` values in record order; ``len()`` counts them.
    ``name``: how entries' labels name the archive (by default its path; a
    PBO without a prefix property is mounted at its file name).

    Its memory is freed by :meth:`close`, at the end of a ``with`` block or
    when it is garbage-collected; closing it closes the assets opened from
    it too. An archive never changes once opened: several threads may read
    it at once.
    """

    def __init__(self, path: PathLike, name: Optional[str] = None, memory_limit: int = 0):
        o = _native.ArchiveOptions()
        o.read.memory_limit = memory_limit
        o.name = os.fsencode(name) if name is not None else None
        handle = c_void_p()
        err = _native.Error()
        self._path = _fspath(path)
        self.name: str = name if name is not None else _shown(path)
        """How the archive is named in labels, messages and errors."""
        check(lib.ferry_archive_open(self._path, byref(o), byref(handle), byref(err)), err, self.name)
        self._handle: Optional[int] = _made(handle)
        self._finalizer = weakref.finalize(self, _free_archive, self._handle)
        self._assets: "weakref.WeakSet[Asset]" = weakref.WeakSet()
        self._lock = threading.Lock()
        h = self._handle
        self.format: Format = _BY_ID[lib.ferry_archive_format(h)]
        """The archive's format ("meg" or "pbo")."""
        self.size: int = int(lib.ferry_archive_size(h))
        """The archive's size in bytes."""
        prefix = lib.ferry_archive_prefix(h)
        self.prefix: Optional[str] = _native.text(prefix) if prefix is not None else None
        """The engine path a PBO's entries are mounted at (its "prefix"
        property, else its file name without extension); None for a MEG."""
        self._entries = [self._entry(h, i) for i in range(lib.ferry_archive_entry_count(h))]
        self._by_name: Dict[Any, int] = {}
        for e in reversed(self._entries):  # the first of two equal names wins
            if e.raw_name is not None:
                self._by_name[e.raw_name] = e.index
                self._by_name[e.name] = e.index

    @staticmethod
    def _entry(h: int, i: int) -> Entry:
        e = lib.ferry_archive_entry_at(h, i).contents
        raw = ctypes.string_at(e.name, e.name_length) if e.name else None
        return Entry(i, _native.text(raw) if raw is not None else "", raw, int(e.size), int(e.stored_size),
                     int(e.start), int(e.offset), bool(e.compressed))

    # -- life --

    def close(self) -> None:
        """Frees the archive now, and closes every asset opened from it
        (:meth:`open`); later calls raise ValueError. Closing twice does
        nothing."""
        with self._lock:
            for asset in list(self._assets):
                asset.close()
            self._handle = None
            self._finalizer()

    @property
    def closed(self) -> bool:
        return self._handle is None

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<ferry.Archive %s %r, %s>" % (self.format.key, self.name,
                                              "closed" if self.closed else "%d entries" % len(self._entries))

    def _h(self) -> int:
        h = self._handle
        if h is None:
            raise ValueError("the archive is closed")
        return h

    # -- entries --

    @property
    def entries(self) -> List[Entry]:
        """Every entry, in record order."""
        return list(self._entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def entry(self, which: Union[int, str, bytes, Entry]) -> Entry:
        """The entry at an index, or of a stored name (as :attr:`Entry.name`
        gives it, or its bytes: the name exactly as stored, '\\' and case
        included)."""
        if isinstance(which, Entry):
            which = which.index
        if isinstance(which, bool) or not isinstance(which, (int, str, bytes)):
            raise TypeError("an entry is an index, a name or an Entry, not %r" % (which,))
        if isinstance(which, int):
            if not 0 <= which < len(self._entries):
                raise ArgumentError("argument", None, "", "no entry %d: the archive has %d" % (which, len(self._entries)),
                                    self.name)
            return self._entries[which]
        index = self._by_name.get(which)
        if index is None:
            shown = which if isinstance(which, str) else _native.text(which)
            raise ArgumentError("argument", None, "", "no entry named '%s'" % shown, self.name)
        return self._entries[index]

    def read(self, which: Union[int, str, bytes, Entry], max_size: int = 0) -> bytes:
        """An entry's bytes (ferry_archive_read_entry): as stored, or a
        compressed PBO entry decoded and its checksum checked. At most
        ``max_size`` bytes (0: no limit). An entry whose bytes cannot be had
        raises :class:`ferry.Error` located in the archive, naming its
        record ("files[3]", "entries[3]")."""
        e = self.entry(which)
        data = POINTER(ctypes.c_uint8)()
        size = c_size_t()
        err = _native.Error()
        check(lib.ferry_archive_read_entry(self._h(), e.index, max_size, byref(data), byref(size), byref(err)), err,
              self.name)
        try:
            return ctypes.string_at(data, size.value) if size.value else b""
        finally:
            lib.ferry_file_free(data)

    def open(self, which: Union[int, str, bytes, Entry], format: Optional[str] = None, bytes_only: bool = False,
             memory_limit: int = 0, max_size: int = 0) -> Asset:
        """An entry as an asset (ferry_archive_open_entry): its bytes had once
        (a stored entry of the mapped archive is not copied), its format told
        by content (or ``format``), named by its label "ARCHIVE:NAME". The
        asset is closed with the archive at the latest."""
        e = self.entry(which)
        o, detected = _open_options(format, bytes_only, memory_limit, max_size)
        handle = c_void_p()
        err = _native.Error()
        label = "%s:%s" % (self.name, e.name)
        with self._lock:
            r = lib.ferry_archive_open_entry(self._h(), e.index, byref(o), byref(handle), byref(err))
            f = _BY_ID.get(detected.value)
            check(r, err, label, f.key if f else None)
            asset = Asset(_made(handle), self, label, None)  # keeps the archive alive
            asset._entry = (self, e)
            self._assets.add(asset)
        return asset

    def extract(self, dest: PathLike, patterns: Sequence[str] = (),
                progress: Optional[ProgressCallback] = None) -> ExtractReport:
        """Writes the entries under the folder ``dest`` (made if needed) at
        their names made paths, as ``ferry extract`` does
        (ferry_archive_extract), each file atomically: nothing is ever
        written outside ``dest``. Refused, each named in the report's
        messages, the others written: a name that could lead outside (a
        drive letter, an absolute path, '..'), two names equal but for case
        (both), a folder on the way that is a link, bytes that cannot be had.

        ``patterns``: only the entries whose name ('/' for '\\') matches one
        of these shell patterns, ignoring ASCII case. Raises
        :class:`ferry.Error` when nothing could be done (``dest`` is a file,
        cannot be made)."""
        pats = [os.fsencode(p) for p in ([patterns] if isinstance(patterns, str) else patterns)]
        array = strings(pats)
        messages = Collector()
        prog = Progress(progress)
        o = _native.ExtractOptions()
        o.patterns = array
        o.pattern_count = len(pats)
        o.write.protect_input = self._path
        o.write.no_sync = True  # as the tool: new files, a flush each would cost more than the copy
        o.message = messages.callback
        o.progress = prog.callback
        report = _native.ExtractReport()
        err = _native.Error()
        r = lib.ferry_archive_extract(self._h(), _fspath(dest), byref(o), byref(report), byref(err))
        raise_kept(messages, prog)
        if r != _native.OK:
            raise job_error(err, r, _shown(dest), messages.messages)
        return ExtractReport(int(report.selected), int(report.extracted), int(report.refused), messages.messages)


def pack(dest: PathLike, folder: Optional[PathLike] = None, files: Optional[Sequence[Tuple[PathLike, str]]] = None,
         format: Optional[str] = None, meg_format: int = 0, prefix: Optional[str] = None,
         progress: Optional[ProgressCallback] = None) -> PackReport:
    """A new archive ``dest`` of every file under ``folder`` (subfolders
    too; names starting with '.' and ``dest`` itself left out), as ``ferry
    pack`` writes it (ferry_archive_pack): the same bytes. Or of ``files``,
    (path, name) pairs, each packed under its name ('/' between folders).

    ``format``: "meg" or "pbo" (by default told by ``dest``'s extension);
    ``meg_format``: 1 (the default), 2 or 3; ``prefix``: a PBO's "prefix"
    property. Written a piece at a time, atomically. Files that cannot be
    packed are left out and named in the report's messages; a failure
    (bad arguments, a file changing while packed, the output not written)
    raises :class:`ferry.Error`, ``dest`` then as it was.
    """
    if (folder is None) == (files is None):
        raise ValueError("give one of folder and files")
    o = _native.PackOptions()
    if format is not None:
        if format not in ("meg", "pbo"):
            raise ValueError("format must be 'meg' or 'pbo', not %r" % (format,))
        o.format = _BY_KEY[format].id
    o.meg_format = meg_format
    o.prefix = os.fsencode(prefix) if prefix is not None else None
    keep: List[Any] = []
    if files is not None:
        pairs = [(_fspath(p), os.fsencode(n)) for p, n in files]
        array = (_native.PackFile * max(len(pairs), 1))(*[_native.PackFile(p, n) for p, n in pairs])
        keep.append((pairs, array))
        o.files = array
        o.file_count = len(pairs)
    o.write.no_sync = True  # as the tool: a new, reproducible output
    messages = Collector()
    prog = Progress(progress)
    o.message = messages.callback
    o.progress = prog.callback
    report = _native.PackReport()
    err = _native.Error()
    r = lib.ferry_archive_pack(_fspath(dest), _fspath(folder) if folder is not None else None, byref(o), byref(report),
                               byref(err))
    raise_kept(messages, prog)
    if r != _native.OK:
        e = job_error(err, r, _shown(dest), messages.messages)
        raise e
    f = _BY_ID.get(report.format)
    return PackReport(f.key if f else "unknown", int(report.meg_format), int(report.packed), int(report.bytes),
                      int(report.refused), messages.messages)
