"""Files to upload as pictures, made here: real ones of each format, and ones that only
pretend (a page named .png, a PNG header claiming more pixels than any table should decode)."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def picture(fmt: str = "PNG", size: tuple[int, int] = (320, 200), colour: str = "#336699") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, fmt)
    return out.getvalue()


def noisy_png(size: tuple[int, int] = (200, 200)) -> bytes:
    """A PNG that compresses badly: a file of some size from few pixels."""
    import random

    rnd = random.Random(3)
    image = Image.frombytes("RGB", size, bytes(rnd.randrange(256) for _ in range(size[0] * size[1] * 3)))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def huge_png_header(width: int = 30000, height: int = 30000) -> bytes:
    """A PNG whose header claims ``width`` × ``height`` pixels, with one row of data: Pillow
    reads the size from the header without decoding anything."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00" * 10))
            + chunk(b"IEND", b""))


NOT_AN_IMAGE = b"<!doctype html><script>alert('not a picture')</script>\n"
