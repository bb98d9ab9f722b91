"""Escape on the Windows console: Escape then a key is two keys, never Alt+key, as on a POSIX terminal.

Textual's Windows driver cannot be imported here (its `win32` module needs `msvcrt` and the Windows DLLs), so that
one module is stood in for: its console reader builds its key parser by the module-level name `XTermParser`, as
Textual's own does, and is fed what the Windows console sends for Escape then 1. Textual's real Windows driver runs
on it, under the app's driver.
"""

from __future__ import annotations

import asyncio
import io
import sys
import types

import pytest
from textual import events

#: The stand-in for textual.drivers.win32: what the driver calls, and a console reader that reads keys with the
#: parser named `XTermParser` in this module when it starts, as Textual's EventMonitor does.
WIN32 = """
from textual._xterm_parser import XTermParser

TYPED = "\\x1b1"  # Escape, then 1, in one read of the console


def enable_application_mode():
    return lambda: None


class EventMonitor:
    def __init__(self, loop, app, exit_event, process_message):
        self.process_message = process_message

    def start(self):
        parser = XTermParser()
        for event in parser.feed(TYPED):
            self.process_message(event)
        for event in parser.feed(""):
            self.process_message(event)

    def join(self, timeout=None):
        pass
"""


@pytest.fixture
def windows(monkeypatch):
    """Textual's Windows driver importable, on the stand-in console module."""
    win32 = types.ModuleType("textual.drivers.win32")
    exec(WIN32, win32.__dict__)
    monkeypatch.setitem(sys.modules, "textual.drivers.win32", win32)
    for name in ("textual.drivers.windows_driver", "assistant.ui.windows_driver"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return win32


def test_on_the_windows_console_escape_then_a_key_is_escape_then_that_key(windows):
    from assistant.ui.windows_driver import EscapeAloneWindowsDriver

    keys: list[events.Key] = []

    class Recording(EscapeAloneWindowsDriver):
        def process_message(self, message) -> None:
            if isinstance(message, events.Key):
                keys.append(message)

    async def main() -> str:
        driver = Recording(None)  # type: ignore[arg-type]
        screen = driver._file = io.StringIO()
        driver.start_application_mode()
        driver._writer_thread.stop()
        return screen.getvalue()

    written = asyncio.run(main())
    assert [key.key for key in keys] == ["escape", "1"]  # never Alt+1 ("¡")
    assert written.endswith("\x1b[?25h\x1b[2 q")  # the cursor shown, for a braille display


def test_the_app_chooses_that_driver_where_textual_chooses_its_windows_driver(windows, monkeypatch, make_app):
    from textual.app import App
    from textual.drivers.windows_driver import WindowsDriver

    from assistant.ui.windows_driver import EscapeAloneWindowsDriver

    monkeypatch.setattr(App, "get_driver_class", lambda self: WindowsDriver)
    assert make_app(None).get_driver_class() is EscapeAloneWindowsDriver
