"""What the braille display's app tests share (tests/ui/conftest.py makes them fixtures): the app opened with a real
BRLTTY's display (`--braille-display --no-speech`), the text its cells read as, and waits for a state, bounded."""

from __future__ import annotations

import sys
import threading
import time
import traceback
from typing import Any

from brltty_fixture import SLOW, states

from assistant.braille.translate import Translator
from assistant.core.braille import celltable

TRANSLATOR = Translator()
#: A bound only a hang reaches, on a machine loaded far past its cores too (30 s was reached once on a machine busy
#: with two test runs, then 60 s was the bound).
HANG = SLOW


def reading(cells: str, status_cells: int) -> str:
    """The text a display's cells read as, its status cells left out."""
    return (TRANSLATOR.from_cells(cells[status_cells:].rstrip(celltable.BLANK)) or "").replace("\u2019", "'")


async def until(pilot: Any, condition: Any, what: str) -> None:
    """Wait until `condition()` holds, the app running meanwhile; fails after `HANG` seconds naming `what`, with
    where the display's threads stand and how each BRLTTY does (a hang's evidence)."""
    deadline = time.monotonic() + HANG
    while not condition():
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}\n{threads('braille')}\n{states()}")
        await pilot.pause(0.02)


def threads(named: str) -> str:
    """Where each thread whose name begins with `named` stands: its last few calls."""
    frames = sys._current_frames()
    return "\n".join(
        f"thread {thread.name}:\n" + "".join(traceback.format_stack(frames[thread.ident])[-4:])
        for thread in threading.enumerate()
        if thread.name.startswith(named) and thread.ident in frames
    )


class BrailleApp:
    """The app with a braille display on a real BRLTTY (`server`): the app, its display link, what the display
    reads as now (`shown`), and the display's clock made the test's own on asking (`stand_still`)."""

    def __init__(self, app: Any, server: Any) -> None:
        self.app = app
        self.server = server
        link = app.braille
        assert link is not None
        self.link = link
        self.now = 1000.0

    def shown(self) -> str:
        """The text the display shows now (BRLTTY's own cells, read back)."""
        return reading(self.server.cells(), self.link.view.status_cells)

    def stand_still(self) -> None:
        """The display's clock is the test's from now on, standing still until `advance` (`KEPT_KEYS_PAUSE`)."""
        self.link.display.clock = lambda: self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
