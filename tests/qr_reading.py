"""A QR code drawn in text (half blocks, as `assistant.ui.share_link.qr_text` draws it) read back with the project's
own decoder (`assistant.scanner.decoders.Cascade`), as a phone's camera would read it off the screen."""

from __future__ import annotations

#: The characters a QR code is drawn with: each is two modules, its drawn halves light (as on a dark terminal).
QR_GLYPHS = frozenset("█▄▀ ")


def read_qr(lines: list[str]) -> list[str]:
    """The payloads of the codes in the text `lines` (padded to one width: a terminal drops trailing blanks)."""
    import numpy as np

    from assistant.scanner.decoders import Cascade

    width = max(map(len, lines))
    rows: list[list[bool]] = []
    for line in lines:
        line = line.ljust(width)
        rows += [[ch in "█▀" for ch in line], [ch in "█▄" for ch in line]]
    image = np.kron(np.where(np.array(rows), 255, 0).astype(np.uint8), np.ones((8, 8), dtype=np.uint8))
    cascade = Cascade(budget_ms=None, wall_ms=None)  # no frame budget: the machine's load never decides
    return [found.payload for found in cascade.decode(np.pad(image, 32, constant_values=255))]


def qr_lines(screen: str) -> list[str]:
    """The lines of a screen's text that draw a QR code: every character a QR glyph, at least one a block."""
    return [line for line in screen.splitlines() if line.strip() and set(line) <= QR_GLYPHS and "█" in line]
