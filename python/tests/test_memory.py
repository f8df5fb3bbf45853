"""10,000 open/close cycles with flat resident memory (assets, archives;
3,000 conversions).

Resident memory is read from /proc/self/statm before and after the cycles,
after a warm-up of the same cycles (the allocator's arenas, Python's free
lists and the library's first-use state grow to their working size there,
then stay). The slack allowed afterwards is 2 MiB: what the C allocator may
keep in its free lists and what page granularity rounds to, a constant that
does not grow with the number of cycles. A leak does: one asset (the
sample's arena, about 30 KB) or even one info buffer (about 500 bytes) lost
per cycle is 5 MB or more over 10,000 cycles, well past the slack."""

import gc
import os

import pytest

import ferry
from conftest import S, skip

CYCLES = 10000
SLACK = 2 << 20
WALKER = S / "alamo/walker.alo"


def resident() -> int:
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except OSError:
        skip("no /proc/self/statm on this system")
    return pages * os.sysconf("SC_PAGE_SIZE")


def cycle_path(i: int) -> None:
    with ferry.open(WALKER) as a:
        a.info()
        if i % 10 == 0:
            a.validate(textures=False)
            a.write()


def cycle_bytes(data: bytes) -> None:
    # no close: the garbage collector's finalizer frees it
    a = ferry.open(data)
    a.info()


def cycle_error(data: bytes) -> None:
    try:
        ferry.open(data[:200])
    except ferry.Error:
        pass


def cycle_archive(path) -> None:
    # an archive, an entry read and one opened as an asset (freed with it)
    with ferry.Archive(path) as a:
        a.read(1)
        a.open(0).info()


def cycle_convert(out) -> None:
    # the library's export: its report, messages and places freed
    ferry.convert(WALKER, out, no_textures=True)


@pytest.mark.parametrize("kind", ["path", "bytes", "error", "archive", "convert"])
def test_open_close_cycles_flat_rss(kind, made, tmp_path):
    data = WALKER.read_bytes()
    run = {"path": cycle_path, "bytes": lambda i: cycle_bytes(data), "error": lambda i: cycle_error(data),
           "archive": lambda i: cycle_archive(made["meg"]),
           "convert": lambda i: cycle_convert(tmp_path / "w.glb")}[kind]
    # A convert writes and flushes a file, as the tool does: 3,000 cycles
    # (a leak of 1 KB each, a report's strings or messages, is 3 MB).
    cycles = 3000 if kind == "convert" else CYCLES
    for i in range(cycles // 10):  # warm-up
        run(i)
    gc.collect()
    before = resident()
    for i in range(cycles):
        run(i)
    gc.collect()
    after = resident()
    assert after - before <= SLACK, "%s: resident memory grew by %d bytes over %d cycles" % (kind, after - before,
                                                                                            cycles)


def test_leak_would_be_seen():
    """The measure sees a leak of the size the slack is chosen against: the
    same cycles keeping every asset alive grow past it (so the test above
    can fail)."""
    kept = []
    before = resident()
    for _ in range(CYCLES // 4):
        kept.append(ferry.open(WALKER.read_bytes()))
    after = resident()
    for a in kept:
        a.close()
    assert after - before > SLACK
