"""A refreshable braille display through BrlAPI, BRLTTY's client library (Debian `python3-brlapi`).

`open_display` connects where `BRLAPI_HOST` and `BRLAPI_AUTH` say (BrlAPI's own defaults when they are unset) and
takes the display in "TTY mode" for this program; `BrailleDisplay.write` puts a line of Unicode braille cells on
it; `BrailleDisplay.listen` starts a thread that reads its keys and hands each one, as the core's `Press`, to a
function (the app posts it as a message). What the cells and keys mean is `assistant/core/braille/display.py`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from assistant.core.braille.display import Key, Press


class DisplayUnavailable(Exception):
    """No BRLTTY answered, or BrlAPI is not installed (`missing`): `args[0]` says where it was looked for."""

    def __init__(self, where: str, missing: bool = False):
        super().__init__(where)
        self.missing = missing


def brlapi_address() -> str:
    """Where BrlAPI is asked for a display: `BRLAPI_HOST`, else BrlAPI's default (the local server)."""
    return os.environ.get("BRLAPI_HOST") or "localhost:0"


def open_display(connect: Callable[[], Any] | None = None) -> BrailleDisplay:
    """Connect to BRLTTY and take its display; raise `DisplayUnavailable` when none answers."""
    try:
        import brlapi
    except ImportError as exc:
        raise DisplayUnavailable(brlapi_address(), missing=True) from exc
    host = os.environ.get("BRLAPI_HOST")
    auth = os.environ.get("BRLAPI_AUTH")
    try:
        if connect is not None:
            connection = connect()
        elif host is not None or auth is not None:
            connection = brlapi.Connection(host.encode() if host else None, auth.encode() if auth else None)
        else:
            connection = brlapi.Connection()
        connection.enterTtyModeWithPath()
        for _ in range(40):  # a server whose display is still starting says 0 cells: a moment later it knows
            if connection.displaySize[0]:
                break
            time.sleep(0.05)
    except (brlapi.ConnectionError, brlapi.OperationError, OSError) as exc:
        raise DisplayUnavailable(brlapi_address()) from exc
    if not connection.displaySize[0]:
        connection.closeConnection()
        raise DisplayUnavailable(brlapi_address())
    return BrailleDisplay(connection, brlapi)


class BrailleDisplay:
    """An open braille display: its size, a line written, its keys read on a thread of their own."""

    def __init__(self, connection: Any, module: Any):
        self._connection = connection
        self._brlapi = module
        self._lock = threading.Lock()  # writing and closing from the app's thread, reading keys from another
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self.width = int(connection.displaySize[0])
        """The display's cells (its first row)."""

    def write(self, cells: str) -> None:
        """Show a line of Unicode braille cells (cut or padded to the display's width)."""
        with self._lock:
            if self._stopped.is_set():
                return
            try:
                self._connection.writeText(cells[: self.width].ljust(self.width, "\u2800"), self._brlapi.CURSOR_OFF)
            except (self._brlapi.OperationError, self._brlapi.ConnectionError, OSError):
                pass  # the server went away: the reader notices and stops; nothing to show it to

    def listen(self, on_press: Callable[[Press], object], on_lost: Callable[[], object] | None = None) -> None:
        """Read the display's keys on a thread of its own; each key the model knows goes to `on_press`, and
        `on_lost` is called once if the server goes away."""

        def run() -> None:
            while not self._stopped.is_set():
                try:
                    code = self._connection.readKeyWithTimeout(200)
                except (self._brlapi.OperationError, self._brlapi.ConnectionError, OSError):
                    if not self._stopped.is_set() and on_lost is not None:
                        on_lost()
                    return
                if code is None or self._stopped.is_set():
                    continue
                press = press_of(int(code), self._brlapi)
                if press is not None:
                    on_press(press)

        self._thread = threading.Thread(target=run, name="braille-display", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop reading keys and give the display back to BRLTTY."""
        self._stopped.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        with self._lock:
            try:
                self._connection.leaveTtyMode()
                self._connection.closeConnection()
            except (self._brlapi.OperationError, self._brlapi.ConnectionError, OSError):
                pass


def press_of(code: int, brlapi: Any) -> Press | None:
    """A BrlAPI key code as the model's key, or None for a key the app does not use.

    Commands (`KEY_TYPE_CMD`): panning, the line keys, top and bottom, the previous and next region (BRLTTY's
    "different line" keys), routing keys, dots typed, INFO (whose turn), HELP (the display's keys); symbols
    (`KEY_TYPE_SYM`): a character typed on the display's keyboard, Backspace, Enter."""
    kind = code & brlapi.KEY_TYPE_MASK
    if kind == brlapi.KEY_TYPE_CMD:
        block = code & brlapi.KEY_CMD_BLK_MASK
        argument = code & brlapi.KEY_CMD_ARG_MASK
        if block == brlapi.KEY_CMD_ROUTE:
            return Press(Key.ROUTE, argument)
        if block == brlapi.KEY_CMD_PASSDOTS:
            return Press(Key.DOTS, argument & 0xFF)
        if block:
            return None
        commands = {
            brlapi.KEY_CMD_FWINLT: Key.PAN_LEFT,
            brlapi.KEY_CMD_FWINRT: Key.PAN_RIGHT,
            brlapi.KEY_CMD_LNUP: Key.LINE_UP,
            brlapi.KEY_CMD_LNDN: Key.LINE_DOWN,
            brlapi.KEY_CMD_TOP: Key.TOP,
            brlapi.KEY_CMD_TOP_LEFT: Key.TOP,
            brlapi.KEY_CMD_BOT: Key.BOTTOM,
            brlapi.KEY_CMD_BOT_LEFT: Key.BOTTOM,
            brlapi.KEY_CMD_PRDIFLN: Key.REGION_PREVIOUS,
            brlapi.KEY_CMD_NXDIFLN: Key.REGION_NEXT,
            brlapi.KEY_CMD_PRPGRPH: Key.REGION_PREVIOUS,
            brlapi.KEY_CMD_NXPGRPH: Key.REGION_NEXT,
            brlapi.KEY_CMD_PRPROMPT: Key.REGION_PREVIOUS,
            brlapi.KEY_CMD_NXPROMPT: Key.REGION_NEXT,
            brlapi.KEY_CMD_INFO: Key.WHERE,
            brlapi.KEY_CMD_HOME: Key.WHERE,
            brlapi.KEY_CMD_HELP: Key.HELP,
        }
        key = commands.get(argument)
        return Press(key) if key is not None else None
    if kind == brlapi.KEY_TYPE_SYM:
        symbol = code & brlapi.KEY_CODE_MASK
        if symbol == brlapi.KEY_SYM_BACKSPACE or symbol in (0x08, 0x7F):
            return Press(Key.BACKSPACE)
        if symbol in (brlapi.KEY_SYM_LINEFEED, 0x0D, 0x0A):
            return Press(Key.ENTER)
        if symbol < 0x100:
            character = chr(symbol)
            return Press(Key.CHARACTER, character) if character.isprintable() else None
        if symbol & 0xFF000000 == brlapi.KEY_SYM_UNICODE:
            character = chr(symbol & 0xFFFFFF)
            return Press(Key.CHARACTER, character) if character.isprintable() else None
    return None
