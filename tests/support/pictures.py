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


def harbour_map(size: tuple[int, int] = (1200, 750)) -> bytes:
    """A small battle map drawn here (sea, quay, piers, warehouses, a square grid), so the
    screenshots show a scene a table would play on."""
    from PIL import ImageDraw

    w, h = size
    image = Image.new("RGB", size, "#2f6f8f")
    draw = ImageDraw.Draw(image)
    for i in range(0, w, 24):  # the sea's swell
        draw.line([(i, 0), (i - 60, h)], fill="#2b6784", width=6)
    draw.polygon([(int(w * .42), 0), (w, 0), (w, h), (int(w * .5), h), (int(w * .46), int(h * .5))], fill="#b9a77e")
    draw.rectangle([int(w * .55), 0, w, h], fill="#8a9a5b")
    draw.rectangle([int(w * .62), int(h * .1), int(w * .8), int(h * .35)], fill="#6b4f3a", outline="#3b2a1e", width=5)
    draw.rectangle([int(w * .66), int(h * .55), int(w * .92), int(h * .8)], fill="#7a5c44", outline="#3b2a1e", width=5)
    for y in (.2, .5, .78):  # piers
        draw.rectangle([int(w * .18), int(h * y), int(w * .46), int(h * y) + 26], fill="#8b6a45", outline="#5a4330", width=3)
    grid = Image.new("L", size, 0)
    lines = ImageDraw.Draw(grid)
    for x in range(0, w, 50):
        lines.line([(x, 0), (x, h)], fill=70, width=1)
    for y in range(0, h, 50):
        lines.line([(0, y), (w, y)], fill=70, width=1)
    image = Image.composite(Image.new("RGB", size, "#1c1c1c"), image, grid)  # a faint square grid
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
