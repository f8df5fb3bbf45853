"""What the library's jobs say as they go (ferry_message, ferry_progress_fn),
as Python values: shared by archives, convert and authoring."""

import ctypes
import threading
from dataclasses import dataclass
from typing import Any, Callable, List, Optional

from . import _native
from ._errors import Error, from_native

_KINDS = {0: "error", 1: "warning", 2: "note"}

#: ``progress(done, total, item)``: first (0, total, None), then after each item.
ProgressCallback = Callable[[int, int, Optional[str]], None]


@dataclass(frozen=True)
class Message:
    """One thing a job said (ferry_message): ``kind`` "error" (something was
    not done: an entry not extracted, a file not packed, a model not
    converted), "warning" or "note"; ``file`` how the file it is about is
    named (None: the job itself); ``text`` one sentence (a validation
    finding's ends with its rule in brackets); ``rule`` a short stable
    identifier ("entry-name", "texture-missing", "not-converted", ...) or
    None; ``error`` the located :class:`ferry.Error` when the message is a
    read or write that failed."""

    kind: str
    file: Optional[str]
    text: str
    rule: Optional[str] = None
    error: Optional[Error] = None

    def __str__(self) -> str:
        return "%s%s: %s" % (self.file + ": " if self.file else "", self.kind, self.text)


def message_of(m: _native.Message) -> Message:
    file = _native.text(m.file) if m.file else None
    error = from_native(m.error.contents, file) if m.error else None
    return Message(_KINDS.get(m.kind, "note"), file, _native.text(m.text), _native.text(m.rule) if m.rule else None,
                   error)


class Collector:
    """A ferry_message_fn keeping every message in order (jobs may call it
    from their worker threads: ctypes takes the interpreter's lock)."""

    def __init__(self) -> None:
        self.messages: List[Message] = []
        self.failures: List[BaseException] = []
        self._lock = threading.Lock()
        self.callback = _native.MessageFn(self._on)

    def _on(self, _user: Any, m: Any) -> None:
        try:
            message = message_of(m.contents)
            with self._lock:
                self.messages.append(message)
        except BaseException as exc:  # never unwind through C
            self.failures.append(exc)


class Progress:
    """A ferry_progress_fn calling a Python callable; what it raises is
    kept and raised once the job is over (never through C)."""

    def __init__(self, fn: Optional[ProgressCallback]):
        self.fn = fn
        self.failures: List[BaseException] = []
        self.callback = _native.ProgressFn(self._on) if fn is not None else _native.ProgressFn(0)

    def _on(self, _user: Any, done: int, total: int, item: Optional[bytes]) -> None:
        if self.failures or self.fn is None:
            return
        try:
            self.fn(int(done), int(total), _native.text(item) if item is not None else None)
        except BaseException as exc:
            self.failures.append(exc)


def raise_kept(*holders: Any) -> None:
    """Raises the first exception a callback kept."""
    for h in holders:
        if h.failures:
            raise h.failures[0]


def job_error(err: _native.Error, result: int, file: Optional[str], messages: List[Message]) -> Error:
    """The exception for a job that failed, carrying what it said."""
    if err.code == _native.OK:
        err.code = result
        err.offset = _native.NO_OFFSET
        err.message = b"the library failed (" + (_native.lib.ferry_result_name(result) or b"?") + b")"
    e = from_native(err, file)
    e.messages = list(messages)
    return e


def strings(values: List[bytes]) -> Any:
    """A C array of strings (kept alive by the caller with the list)."""
    return (ctypes.c_char_p * max(len(values), 1))(*values)
