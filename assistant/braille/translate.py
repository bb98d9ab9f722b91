"""Translation between text and Unicode braille: liblouis when it is there, the built-in grade-1 table otherwise.

liblouis is not thread-safe, so every call goes through one lock. Its log is switched off: it would otherwise
print to the terminal under the app's screen. Results are kept in memory, since the same card names are
translated again and again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from assistant.core.braille import celltable

#: Unified English Braille, uncontracted and contracted, written as Unicode cells.
TABLES = {1: ("unicode.dis", "en-ueb-g1.ctb"), 2: ("unicode.dis", "en-ueb-g2.ctb")}
#: North American ASCII braille, the character set of braille-ready files (.brf).
BRF_TABLE = "en-us-brf.dis"

_LOCK = threading.Lock()


class Grade(IntEnum):
    """Uncontracted (grade 1) or contracted (grade 2) braille."""

    UNCONTRACTED = 1
    CONTRACTED = 2


def load_liblouis() -> Any:
    """The liblouis module with its English tables working, or None when it is missing or broken."""
    try:
        import louis
    except (ImportError, OSError):
        return None
    try:
        with _LOCK:
            louis.setLogLevel(louis.LOG_OFF)
            for tables in TABLES.values():
                louis.translateString(list(tables), "a")
            louis.dotsToChar([BRF_TABLE], celltable.cell([1]))
    except (RuntimeError, OSError, AttributeError):
        return None
    return louis


class Translator:
    """Translates to and from braille with liblouis, or with the built-in grade-1 table when liblouis is missing."""

    def __init__(self, use_liblouis: bool = True):
        self._louis = load_liblouis() if use_liblouis else None
        self._forward: dict[tuple[str, int], str | None] = {}
        self._backward: dict[tuple[str, int], str | None] = {}

    @property
    def has_liblouis(self) -> bool:
        """True when liblouis is there, so contracted braille works."""
        return self._louis is not None

    def to_cells(self, text: str, grade: Grade = Grade.UNCONTRACTED) -> str | None:
        """The braille of `text` (lower-cased), or None for contracted braille without liblouis."""
        key = (text, int(grade))
        if key not in self._forward:
            self._forward[key] = self._translate(text.casefold(), grade)
        return self._forward[key]

    def from_cells(self, cells: str, grade: Grade = Grade.UNCONTRACTED) -> str | None:
        """What cells read as, or None for contracted braille without liblouis."""
        key = (cells, int(grade))
        if key not in self._backward:
            self._backward[key] = self._back_translate(cells, grade)
        return self._backward[key]

    def to_brf(self, cells: str) -> str:
        """Cells as North American ASCII braille, the characters of a .brf file (built in when liblouis is missing)."""
        if self._louis is not None:
            try:
                with _LOCK:
                    return str(self._louis.dotsToChar([BRF_TABLE], cells))
            except RuntimeError:
                pass  # fall through to our own table, which gives the same characters
        return "".join(_BRF.get(ch, " ") for ch in cells)

    def _translate(self, text: str, grade: Grade) -> str | None:
        return self._louis_or_table("translateString", celltable.to_cells, text, grade)

    def _back_translate(self, cells: str, grade: Grade) -> str | None:
        return self._louis_or_table("backTranslateString", celltable.from_cells, cells, grade)

    def _louis_or_table(self, way: str, table: Callable[[str], str], text: str, grade: Grade) -> str | None:
        """liblouis's `way` (its function's name) with `grade`'s tables; without liblouis, or when it fails, the
        built-in grade-1 `table` for uncontracted braille, and None for contracted."""
        if self._louis is not None:
            try:
                with _LOCK:
                    return str(getattr(self._louis, way)(list(TABLES[int(grade)]), text))
            except RuntimeError:
                pass  # the built-in table, as without liblouis
        return table(text) if grade is Grade.UNCONTRACTED else None


# North American ASCII braille: the character for each six-dot cell, indexed by the cell's dot bits.
_NABCC = " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)="
_BRF = {chr(0x2800 + bits): _NABCC[bits] for bits in range(64)}
