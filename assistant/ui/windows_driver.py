"""Textual's Windows driver with the app's key parser (`keyparser.EscapeAloneParser`), the terminal cursor shown.

Imported only where Textual chose its Windows driver (`TableApp.get_driver_class`): Textual's Windows modules need
`msvcrt` and the Windows DLLs, which exist nowhere else. The Windows console sends keys as the same terminal
sequences as a POSIX terminal (virtual terminal input), so Escape then a key read as Alt+key here too.
"""

from __future__ import annotations

from textual.drivers import win32
from textual.drivers.windows_driver import WindowsDriver

from assistant.ui.keyparser import SHOW_CURSOR, EscapeAloneParser


class EscapeAloneWindowsDriver(WindowsDriver):
    """The Windows driver reading keys with `EscapeAloneParser`, the terminal cursor shown."""

    def start_application_mode(self) -> None:
        """Textual's application mode, its key reader on the app's parser, the cursor shown (steady) where the
        console allows: a braille display and a screen reader follow it."""
        # Textual's key-reading thread builds its parser by this module-level name; this app is the only Textual
        # app in its process.
        win32.XTermParser = EscapeAloneParser  # type: ignore[attr-defined]
        super().start_application_mode()
        self.write(SHOW_CURSOR)
        self.flush()
