"""A PNG decoder for the tests, apart from libpng: Python's zlib and the
PNG specification's five row filters. 8-bit RGB and RGBA only (what ferry
and Blender write). Shared by the Python package's tests and the Blender
driver."""

import struct
import zlib
from typing import List, Tuple


def decode_png(data: bytes) -> Tuple[int, int, int, List[bytes]]:
    """(width, height, channels, rows): each row its pixels' bytes."""
    width, height, channels, rows, _ = _decode(data)
    return width, height, channels, rows


def row_filters(data: bytes) -> List[int]:
    """The filter type of each row (0 none, 1 sub, 2 up, 3 average, 4 Paeth)."""
    return _decode(data)[4]


def zlib_stream(data: bytes) -> bytes:
    """The PNG's zlib stream: its IDAT chunks' data joined."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        size, kind = struct.unpack_from(">I4s", data, pos)
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + size]
        pos += 12 + size
    return idat


def _decode(data: bytes) -> Tuple[int, int, int, List[bytes], List[int]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height, depth, colour = struct.unpack_from(">IIBB", data, 16)
    assert depth == 8 and colour in (2, 6), (depth, colour)
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(zlib_stream(data))
    stride = width * channels
    rows, prev, filters = [], bytearray(stride), []
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        filters.append(kind)
        row = bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            a = row[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1:
                row[x] = (row[x] + a) & 255
            elif kind == 2:
                row[x] = (row[x] + b) & 255
            elif kind == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            else:
                assert kind == 0, "row filter %d" % kind
        rows.append(bytes(row))
        prev = row
    return width, height, channels, rows, filters
