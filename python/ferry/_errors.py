"""ferry.Error: a failure of the library, located as the library located it."""

import ctypes
from typing import Any, Dict, List, Optional, Tuple, Type

from . import _native
from ._native import lib

#: The library's result codes (ferry_result) by value, as ferry_result_name names them.
CODES = {1: "truncated", 2: "malformed", 3: "unsupported", 4: "limit", 5: "nomem", 6: "io", 7: "argument"}


class Error(Exception):
    """A failure the library reported: what went wrong and where.

    Attributes:
        code: the result's short name ("truncated", "malformed", "unsupported",
            "limit", "nomem", "io", "argument"), as ``ferry_result_name`` gives it.
        offset: the byte offset into the input where it went wrong, or None when
            no position in the input applies.
        path: the place inside the file: a chunk path ("0x400/0x10000"), a
            record path ("lods[3]/faces"), or "" when none applies.
        message: the library's sentence saying what was expected.
        file: how the input was named (its path, or the ``name`` given to
            :func:`ferry.open`), or None.
        format: the format the content was taken for (its key, e.g. "alo"),
            when the failure was a reader refusing it; else None.
        messages: what a job said before it failed (:class:`ferry.Message`:
            the validation errors a convert refused a model for, the
            problems an authored model had); empty for other calls.
    """

    code: str
    offset: Optional[int]
    path: str
    message: str
    file: Optional[str]
    format: Optional[str]
    messages: List[Any]

    def __init__(self, code: str, offset: Optional[int], path: str, message: str, file: Optional[str] = None,
                 format: Optional[str] = None, line: Optional[str] = None):
        self.code = code
        self.offset = offset
        self.path = path
        self.message = message
        self.file = file
        self.format = format
        self._line = line if line is not None else message
        self.messages = []
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return "%s: %s" % (self.file, self._line) if self.file else self._line

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:  # errors cross processes (multiprocessing) whole
        return (_rebuild, (type(self), self.code, self.offset, self.path, self.message, self.file, self.format,
                           self._line))


def _rebuild(cls: Type["Error"], code: str, offset: Optional[int], path: str, message: str, file: Optional[str],
             format: Optional[str], line: str) -> "Error":
    return cls(code, offset, path, message, file, format, line)


class TruncatedError(Error):
    """The data ends before something it announces."""


class MalformedError(Error):
    """The bytes break a rule of the format."""


class UnsupportedError(Error):
    """A variant this version cannot handle, content of no known format, or a
    verb the format does not have (validating a glTF, sampling a model)."""


class LimitError(Error):
    """A limit was reached (memory, depth, size)."""


class OutOfMemoryError(Error, MemoryError):
    """The system allocator failed."""


class FileError(Error, OSError):
    """A file could not be read or written."""

    def __str__(self) -> str:  # OSError's own __str__ would show its arguments
        return Error.__str__(self)


class ArgumentError(Error, ValueError):
    """The call passed something unusable (a negative time, a mipmap the
    texture does not have, a model that is not one)."""


_CLASSES: Dict[str, Type[Error]] = {
    "truncated": TruncatedError, "malformed": MalformedError, "unsupported": UnsupportedError,
    "limit": LimitError, "nomem": OutOfMemoryError, "io": FileError, "argument": ArgumentError,
}


def from_native(err: _native.Error, file: Optional[str] = None, format: Optional[str] = None) -> Error:
    """The exception for a filled ferry_error."""
    code = CODES.get(err.code, "code %d" % err.code)
    line = ctypes.create_string_buffer(512)
    lib.ferry_error_format(ctypes.byref(err), line, len(line))
    offset = None if err.offset == _native.NO_OFFSET else int(err.offset)
    return _CLASSES.get(code, Error)(code, offset, _native.text(err.path), _native.text(err.message), file, format,
                                     _native.text(line.value))


def check(result: int, err: _native.Error, file: Optional[str] = None, format: Optional[str] = None) -> None:
    """Raises the error a call failed with; nothing when it succeeded."""
    if result != _native.OK:
        if err.code == _native.OK:  # a failure the callee did not describe: never leave it silent
            err.code = result
            err.offset = _native.NO_OFFSET
            err.message = b"the library failed (" + (lib.ferry_result_name(result) or b"?") + b")"
        raise from_native(err, file, format)
