"""Uploaded pictures (a scene's map, a character's portrait): read with Pillow, checked, and
re-encoded before anything is stored.

Re-encoding is the point: what is stored and later served is pixels Pillow decoded and wrote
again, so a file that only pretends to be an image (a script or a page with a PNG header) is
never stored, and a phone photo's metadata (where it was taken) never reaches the table.
Only a still picture is kept: an animated GIF or WebP keeps its first frame.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import IO

from django.conf import settings
from PIL import Image, ImageOps, UnidentifiedImageError

from tabletop.services.base import ServiceError

# Pillow's format name -> what the table stores and serves it as.
FORMATS = {"PNG": "png", "JPEG": "jpeg", "WEBP": "webp", "GIF": "gif"}
CONTENT_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif"}
NOT_AN_IMAGE = "That file is not an image this table can show: upload a PNG, JPEG, WebP or GIF picture."


@dataclass(frozen=True)
class Picture:
    data: bytes
    kind: str  # a key of CONTENT_TYPES
    width: int
    height: int


def _megabytes(size: int) -> str:
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def read_picture(upload: IO[bytes] | None, *, field: str = "image") -> Picture:
    """The upload as a checked, re-encoded picture, or a refusal at ``field`` saying why."""
    if upload is None:
        raise ServiceError("Choose a picture to upload.", field=field)
    size = getattr(upload, "size", None)
    limit = settings.TABLETOP_MAX_IMAGE_BYTES
    if size is not None and size > limit:
        raise ServiceError(f"That file is {_megabytes(size)}; a picture may be at most {_megabytes(limit)}.",
                           field=field)
    raw = upload.read(limit + 1)
    if len(raw) > limit:
        raise ServiceError(f"A picture may be at most {_megabytes(limit)}.", field=field)
    if not raw:
        raise ServiceError("That file is empty: choose a picture to upload.", field=field)
    try:
        # Pillow warns, or refuses, when a header claims more pixels than it will decode (a
        # "decompression bomb"); with warnings made errors (the tests) the warning comes here too
        with Image.open(io.BytesIO(raw), formats=list(FORMATS)) as probe:
            kind = FORMATS.get(probe.format or "")
            _check_size(probe.size, field)
            probe.verify()
        with Image.open(io.BytesIO(raw), formats=list(FORMATS)) as image:
            image.load()
            return _encode(image, kind or "png")
    except ServiceError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ServiceError(f"That picture has far too many pixels: {_limits()}.", field=field) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError):
        raise ServiceError(NOT_AN_IMAGE, field=field) from None


def _limits() -> str:
    side, pixels = settings.TABLETOP_MAX_IMAGE_SIDE, settings.TABLETOP_MAX_IMAGE_PIXELS
    return f"a picture may be at most {side} pixels on a side and {pixels // 1_000_000} megapixels in all"


def _check_size(size: tuple[int, int], field: str) -> None:
    width, height = size
    side, pixels = settings.TABLETOP_MAX_IMAGE_SIDE, settings.TABLETOP_MAX_IMAGE_PIXELS
    if width < 1 or height < 1:
        raise ServiceError(NOT_AN_IMAGE, field=field)
    if width > side or height > side or width * height > pixels:
        raise ServiceError(f"That picture is {width} × {height} pixels; {_limits()}.", field=field)


def _encode(image: Image.Image, kind: str) -> Picture:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an odd EXIF block is no reason to refuse the pixels
        image = ImageOps.exif_transpose(image)  # a phone photo stands as it was taken
    out = io.BytesIO()
    if kind == "jpeg":
        image.convert("RGB").save(out, "JPEG", quality=88)
    elif kind == "webp":
        image.convert("RGBA" if _has_alpha(image) else "RGB").save(out, "WEBP", quality=88)
    elif kind == "gif":
        image.save(out, "GIF")
    else:
        keep = image if image.mode in ("1", "L", "LA", "P", "RGB", "RGBA") else image.convert("RGBA")
        keep.save(out, "PNG")
    return Picture(data=out.getvalue(), kind=kind, width=image.width, height=image.height)


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
