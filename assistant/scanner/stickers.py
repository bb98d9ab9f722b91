"""Printable QR stickers, as `table-assistant labels DECK --out FILE.pdf|FILE.png [--unique]` writes them
(`assistant/commands/labels.py`, which passes in the deck and its braille abbreviations).

One sticker per physical copy of each card (one per card with `--unique`), nine to a page, each with the card's
name and braille abbreviation in print under the code, for the sighted helper who sticks them on.

**Payload and error correction.** The payload is `TA2:<DECK>:<CARD>` with five-character codes (see
`assistant.core.scanning.payloads`): 15 characters in the QR alphanumeric mode, which fit version 1 (21 modules) at
error
correction level Q. Level Q restores up to a quarter of the code: a thumb over a corner, a scuff or a glare spot
on a sleeved card. Every sticker of a sheet uses the same version, so all stickers are one size.

**Size.** The rule: at 40 cm from a webcam with a 70 degree *horizontal* field of view and 1280 pixels across,
every module of the code is at least 4 pixels, even with the card tilted 30 degrees (pinhole camera; the far
edge of the tilted code is the smallest). That asks for 2.17 mm modules: 26 dots at 300 dots an inch, 2.20 mm
(4.1 pixels at the far edge when tilted 30 degrees, 5.0 face-on). A version 1 code with a 3-module quiet zone is
27 modules, 59.4 mm: it takes the card's width (63 mm). `module_px` and `module_dots` do the sum; see
docs/scanner.md for the assumptions and the distance at which each webcam resolution still reads it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.core.cards.card import Card, Deck
from assistant.core.scanning.payloads import label_payload, long_label_payload, short_code
from assistant.core.words.scans import sticker_sheet_heading

if TYPE_CHECKING:
    from PIL.Image import Image
    from PIL.ImageDraw import ImageDraw
    from PIL.ImageFont import FreeTypeFont, ImageFont

DPI = 300
#: The camera the stickers are sized for: a 70 degree horizontal field of view over 1280 pixels.
CAMERA_FOV_HORIZONTAL_DEG = 70.0
CAMERA_FRAME = (1280, 720)
CAMERA_DISTANCE_MM = 400.0
#: The tilt (degrees, card against the camera's view) at which the rule must still hold.
CAMERA_TILT_DEG = 30.0
MIN_PIXELS_PER_MODULE = 4.0
#: Quiet zone around the code, in modules. The standard asks for 4; the sticker's white margin gives 3 and the
#: cut line around it is lighter than any module, which zxing-cpp and ZBar both read (tested on every sticker).
QUIET_MODULES = 3
#: The card the sticker goes on (poker size): the code with its quiet zone must fit its width.
CARD_MM = (63.0, 88.0)
#: Pages are A4, but everything is drawn inside the top 270 mm so a US Letter printer at 100 % loses nothing.
PAGE_MM = (210.0, 297.0)
USABLE_HEIGHT_MM = 270.0
MARGIN_MM = 12.0
COLUMNS, ROWS = 3, 3


def focal_px(fov_deg: float = CAMERA_FOV_HORIZONTAL_DEG, width_px: int = CAMERA_FRAME[0]) -> float:
    """The camera's focal length in pixels, from its horizontal field of view and width (pinhole camera)."""
    return width_px / 2 / math.tan(math.radians(fov_deg) / 2)


def module_px(
    module_mm: float,
    version: int = 1,
    distance: float = CAMERA_DISTANCE_MM,
    tilt_deg: float = 0.0,
    fov_deg: float = CAMERA_FOV_HORIZONTAL_DEG,
    width_px: int = CAMERA_FRAME[0],
) -> float:
    """The smallest size in pixels of one module of a code whose centre is `distance` away, tilted by `tilt_deg`
    about an axis through its centre: the module at the far edge, foreshortened (pinhole camera).

    A point `s` mm from the centre along the tilted direction lies at depth Z + s sin(t) and projects to
    f s cos(t) / (Z + s sin(t)); its derivative, f cos(t) Z / (Z + s sin(t))^2, is smallest at the far edge."""
    f = focal_px(fov_deg, width_px)
    t = math.radians(tilt_deg)
    far = (17 + 4 * version) * module_mm / 2 * math.sin(t)
    return module_mm * f * math.cos(t) * distance / (distance + far) ** 2


def module_dots(dpi: int = DPI, version: int = 1) -> int:
    """Printer dots per QR module: the fewest that meet the rule (`MIN_PIXELS_PER_MODULE` at 40 cm, tilted 30
    degrees). Should a sheet need a larger version (two cards of a deck sharing a short code, so one carries the
    longer `TA1` label), the modules shrink to keep the code and its quiet zone within the card's width."""
    dots = 1
    while module_px(dots * 25.4 / dpi, version, tilt_deg=CAMERA_TILT_DEG) < MIN_PIXELS_PER_MODULE:
        dots += 1
    fits = math.floor(CARD_MM[0] / 25.4 * dpi / (17 + 4 * version + 2 * QUIET_MODULES))
    return min(dots, fits)


def _dots(mm: float, dpi: int = DPI) -> int:
    return round(mm / 25.4 * dpi)


def qr_matrix(payload: str, version: int | None = None) -> list[list[bool]]:
    """The QR modules of a payload (True is dark), without quiet zone, at level Q; the smallest version that
    holds it unless `version` is given."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_Q

    code = qrcode.QRCode(version=version, error_correction=ERROR_CORRECT_Q, border=0)
    code.add_data(payload)
    code.make(fit=version is None)
    return code.get_matrix()


def qr_version(payload: str) -> int:
    """The smallest QR version holding the payload at level Q."""
    return (len(qr_matrix(payload)) - 17) // 4


@dataclass(frozen=True)
class Sticker:
    """One sticker to print."""

    card: Card
    abbreviation: str
    payload: str


def deck_stickers(deck: Deck, abbreviations: Mapping[str, str], unique: bool = False) -> list[Sticker]:
    """The deck's stickers in deck order: one per copy of each card, or one per card when `unique`;
    `abbreviations` is card id → the braille abbreviation printed under the code."""
    stickers = []
    for card, payload in zip(deck.cards, deck_payloads(deck), strict=True):
        sticker = Sticker(card, abbreviations[card.id], payload)
        stickers.extend([sticker] * (1 if unique else card.copies))
    return stickers


def deck_payloads(deck: Deck) -> list[str]:
    """Each card's label payload, in deck order: the short label, or the long one for both of two cards of the
    deck that share a short code."""
    codes: dict[str, int] = {}
    for card in deck.cards:
        codes[short_code(card.id)] = codes.get(short_code(card.id), 0) + 1
    return [
        (long_label_payload if codes[short_code(card.id)] > 1 else label_payload)(deck.id, card.id)
        for card in deck.cards
    ]


def printed_codes(deck: Deck) -> list[tuple[str, list[list[bool]]]]:
    """Each card's payload and QR modules exactly as the deck's sticker sheet prints them (one version for the
    whole sheet)."""
    payloads = deck_payloads(deck)
    fitted = {p: qr_matrix(p) for p in payloads}
    size = max((len(m) for m in fitted.values()), default=21)
    return [(p, fitted[p] if len(fitted[p]) == size else qr_matrix(p, (size - 17) // 4)) for p in payloads]


def sticker_size_mm(version: int, dpi: int = DPI) -> tuple[float, float]:
    """A sticker's width and height in millimetres for a QR version."""
    width, height = _sticker_dots(version, dpi)
    return width * 25.4 / dpi, height * 25.4 / dpi


def _sticker_dots(version: int, dpi: int) -> tuple[int, int]:
    side = (17 + 4 * version + 2 * QUIET_MODULES) * module_dots(dpi, version)
    return side, side + _dots(11, dpi)  # two lines of print under the code


def _font(size: int) -> ImageFont | FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _fit_text(draw: ImageDraw, text: str, width: int, size: int) -> ImageFont | FreeTypeFont:
    """The largest font, at most `size`, that fits `text` into `width` dots."""
    while size > 12:
        font = _font(size)
        if draw.textlength(text, font=font) <= width:
            return font
        size -= 2
    return _font(size)


def render_sticker(sticker: Sticker, version: int, dpi: int = DPI) -> Image:
    """One sticker as a greyscale Pillow image: the code, then the card's name and its abbreviation."""
    from PIL import Image, ImageDraw

    module = module_dots(dpi, version)
    width, height = _sticker_dots(version, dpi)
    image = Image.new("L", (width, height), 255)
    matrix = qr_matrix(sticker.payload, version)
    code = Image.new("L", (len(matrix), len(matrix)), 255)
    code.putdata([0 if dark else 255 for line in matrix for dark in line])
    quiet = QUIET_MODULES * module
    image.paste(code.resize((len(matrix) * module,) * 2, Image.Resampling.NEAREST), (quiet, quiet))
    draw = ImageDraw.Draw(image)
    text_top = width - quiet // 2
    inner = width - 2 * _dots(2, dpi)
    name_font = _fit_text(draw, sticker.card.name, inner, _dots(4, dpi))
    draw.text((width // 2, text_top), sticker.card.name, fill=0, font=name_font, anchor="mt")
    abbreviation = f"braille: {sticker.abbreviation}"
    small = _fit_text(draw, abbreviation, inner, _dots(3.2, dpi))
    draw.text((width // 2, text_top + _dots(5, dpi)), abbreviation, fill=0, font=small, anchor="mt")
    return image


def slot_boxes(version: int, dpi: int = DPI) -> list[tuple[int, int, int, int]]:
    """Where the stickers go on a page, in filling order: (x, y, width, height) in dots."""
    sticker_w, sticker_h = _sticker_dots(version, dpi)
    page_w = _dots(PAGE_MM[0], dpi)
    margin = _dots(MARGIN_MM, dpi)
    heading_h = _dots(14, dpi)
    gap_x = (page_w - 2 * margin - COLUMNS * sticker_w) // max(COLUMNS - 1, 1)
    gap_y = (_dots(USABLE_HEIGHT_MM, dpi) - margin - heading_h - ROWS * sticker_h) // max(ROWS - 1, 1)
    if gap_x < 0 or gap_y < 0:
        raise ValueError(f"QR version {version} stickers do not fit {COLUMNS} by {ROWS} on a page")
    return [
        (margin + col * (sticker_w + gap_x), margin + heading_h + row * (sticker_h + gap_y), sticker_w, sticker_h)
        for row in range(ROWS)
        for col in range(COLUMNS)
    ]


def sheet_version(stickers: list[Sticker]) -> int:
    """The one QR version every sticker of a sheet uses: the smallest that holds the longest payload."""
    return max((qr_version(p) for p in {s.payload for s in stickers}), default=1)


def sheet_pages(
    deck: Deck, abbreviations: Mapping[str, str], unique: bool = False, dpi: int = DPI
) -> tuple[list[Image], list[Sticker]]:
    """The sheet as Pillow images, one per page, and the stickers in the order they were placed."""
    from PIL import Image, ImageDraw

    stickers = deck_stickers(deck, abbreviations, unique)
    version = sheet_version(stickers)
    boxes = slot_boxes(version, dpi)
    page_w, page_h = _dots(PAGE_MM[0], dpi), _dots(PAGE_MM[1], dpi)
    margin = _dots(MARGIN_MM, dpi)
    per_page = len(boxes)
    count = max(1, math.ceil(len(stickers) / per_page))
    size_w, size_h = sticker_size_mm(version, dpi)
    pages, drawn = [], {}
    for number in range(count):
        page = Image.new("L", (page_w, page_h), 255)
        draw = ImageDraw.Draw(page)
        heading = sticker_sheet_heading(deck.info.title, number + 1, count, size_w, size_h)
        draw.text(
            (margin, margin), heading, fill=0, font=_fit_text(draw, heading, page_w - 2 * margin, _dots(3.5, dpi))
        )
        for (x, y, w, h), sticker in zip(boxes, stickers[number * per_page : (number + 1) * per_page]):
            if sticker not in drawn:  # copies of a card share one drawing
                drawn[sticker] = render_sticker(sticker, version, dpi)
            page.paste(drawn[sticker], (x, y))
            # A light cut line: lighter than any module, so a reader never mistakes it for part of the code.
            draw.rectangle((x - 1, y - 1, x + w, y + h), outline=200, width=2)
        pages.append(page)
    return pages, stickers


def page_paths(path: Path, count: int) -> list[Path]:
    """Where the pages of a PNG sheet go: FILE.png, then FILE-2.png, FILE-3.png and so on."""
    return [path] + [path.with_name(f"{path.stem}-{n}{path.suffix}") for n in range(2, count + 1)]
