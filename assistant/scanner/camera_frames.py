"""Every frame a camera can give, made one the scanner takes, or skipped: checked at the source.

A camera (or its driver, or OpenCV's backend with its conversion turned off) can hand over more than 8-bit BGR
pictures: an empty array (0 by 0, or 0 rows of a width) when a USB transfer is cut short, 16-bit or floating point
pictures, one, two (YUYV's luma and chroma) or four (BGRA) channels, a strip of a few rows. Before, any of them ended
scanning: `cv2.resize` of an empty plane, `cv2.absdiff` of a float picture and the 8-bit copy of the one before (and
of the next good one, the float copy being kept), a missing green plane, the thread stage's thread killed by a strip
halved to nothing. `FrameCheck.usable` makes each frame a contiguous 8-bit picture of one or three channels:

- **8-bit BGR or grey**: as it is (no copy, no count): the camera's usual frame costs one look at its shape;
- **16-bit and other integers**: scaled from their type's range to 0..255 (65535 is 255), negatives as 0;
- **floating point**: 0..1 when no value is above 1 (the usual convention for floating point pictures; judged on a
  sample, `UNIT_SAMPLE`), else 0..255; not-a-number and infinities as 0; float32 and float64 (and 16-bit) scaled by
  OpenCV in one pass, negatives coming out as their magnitude;
- **one channel** (H by W by 1) as grey; **two** (YUYV as the driver gives it) as their first, the luma;
  **four** (BGRA) as their first three; a boolean picture as black and white;
- **skipped**: an empty picture, one with a side under `MIN_SIDE` pixels (no sticker fits in it), more than four
  channels or more than three dimensions, and anything that is not a numeric array.

Each converted frame is counted (`converted`), each skipped one too (`skipped`): the webcam's reader counts what the
camera gave (`sources.Webcam`), the live scanner what it was handed directly (`live.LiveScanner.handle`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cv2.typing import MatLike

#: Frames with a side shorter than this (pixels) are skipped: the smallest sticker, 21 modules and its quiet zone,
#: needs more, and the scanner's halvings and coarse copies need a few pixels each way (a 1-row strip, halved to
#: none, ended the thread stage's thread).
MIN_SIDE = 32
#: The most channels a frame may have (BGRA); more are no camera picture the scanner knows.
MOST_CHANNELS = 4
#: A floating point frame's range (0..1 or 0..255) is judged on every this-many-th pixel of every this-many-th row.
#: Judged on every pixel, with numpy's widening, clipping and narrowing, a float32 frame's conversion cost 9 ms at
#: 720p and 23 ms at 1080p (0.28 and 0.68 of a core at 30 frames a second, `benchmarks.scanner_frames`).
UNIT_SAMPLE = 8


@dataclass
class FrameCheck:
    """The check every frame passes before the scanner takes it, with its counts."""

    converted: int = 0
    """Frames made 8-bit BGR or grey from another kind."""
    skipped: int = 0
    """Frames that cannot be made a picture the scanner takes."""

    def usable(self, image: Any) -> MatLike | None:
        """`image` as a contiguous 8-bit picture of one or three channels, or None to skip it (counted either way
        when it was not one already)."""
        if _ready(image):
            return image  # type: ignore[no-any-return]
        made = _converted(image)
        if made is None:
            self.skipped += 1
        else:
            self.converted += 1
        return made


def _ready(image: Any) -> bool:
    """True for the frame the scanner takes as it is: 8-bit, grey or BGR, contiguous, each side `MIN_SIDE` or more.
    Asked of every frame, those left alone at rest too (`rest`): the type is told by its character code ("B",
    numpy's unsigned byte), where a comparison with the name "uint8" made numpy parse the name into a type on every
    frame, 20 of the 60 microseconds the check cost with the caches cold (720p, 30 frames a second)."""
    try:
        dtype, shape = image.dtype, image.shape
    except AttributeError:
        return False
    return (
        getattr(dtype, "char", None) == "B"
        and (len(shape) == 2 or (len(shape) == 3 and shape[2] == 3))
        and min(shape[0], shape[1]) >= MIN_SIDE
        and bool(image.flags.c_contiguous)
    )


def _converted(image: Any) -> MatLike | None:
    """A frame that is not one the scanner takes as it is, converted (or None: skipped)."""
    import numpy as np

    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or min(image.shape[:2]) < MIN_SIDE:
        return None
    if image.ndim == 3:
        channels = image.shape[2]
        if channels == 0 or channels > MOST_CHANNELS:
            return None
        image = image[..., :3] if channels >= 3 else image[..., 0]
    eight = _eight_bit(image)
    return None if eight is None else np.ascontiguousarray(eight)


def _eight_bit(image: Any) -> Any:
    """The picture's values as 8-bit ones (see the module docstring), or None for a kind that has none."""
    import cv2
    import numpy as np

    kind = image.dtype.kind
    if image.dtype == np.uint8:
        return image
    if kind == "b":
        return image.astype(np.uint8) * 255
    if image.dtype == np.uint16 or (kind == "f" and image.dtype.itemsize in (4, 8)):
        # OpenCV's scaling to 8 bits in one pass: a fifth of numpy's widening, clipping and
        # narrowing, and negatives come out as their magnitude (a dark level a little under 0 stays dark).
        image = np.ascontiguousarray(image)
        if kind == "u":
            return cv2.convertScaleAbs(image, alpha=255.0 / 65535.0)
        return cv2.convertScaleAbs(image, alpha=255.0 if _unit_range(image) else 1.0)
    if kind in "iu":
        top = float(np.iinfo(image.dtype).max)
        scaled = image.astype(np.float32) * (255.0 / top)
        return np.clip(scaled, 0, 255).astype(np.uint8)
    if kind == "f":  # float16 and wider: numpy's way
        values = np.nan_to_num(image.astype(np.float32), nan=0.0, posinf=0.0, neginf=0.0)
        if values.size and float(values.max()) <= 1.0:
            values = values * 255.0
        return np.clip(values, 0, 255).astype(np.uint8)
    return None


def _unit_range(image: Any) -> bool:
    """True when a floating point frame's values lie in 0..1 (none above 1; not-a-number and infinities left out),
    judged on every eighth pixel of every eighth row: a frame in 0..255 with no sample above 1 is black but for a
    few pixels, and nothing is read in it either way."""
    import numpy as np

    sample = image[::UNIT_SAMPLE, ::UNIT_SAMPLE]
    finite = sample[np.isfinite(sample)]
    return not finite.size or float(finite.max()) <= 1.0
