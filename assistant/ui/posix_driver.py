"""Textual's POSIX terminal driver with the app's key parser (`keyparser.EscapeAloneParser`).

Imported only where Textual chose its POSIX driver (`TableApp.get_driver_class`): it needs `termios`, which Windows
lacks.
"""

from __future__ import annotations

from textual.drivers import linux_driver
from textual.drivers.linux_driver import LinuxDriver

from assistant.ui.keyparser import SHOW_CURSOR, EscapeAloneParser
from assistant.ui.terminal import lenient_decoder


class EscapeAloneDriver(LinuxDriver):
    """The POSIX terminal driver reading keys with `EscapeAloneParser`, the terminal cursor shown."""

    def start_application_mode(self) -> None:
        """Textual's application mode, with the terminal cursor shown (steady, not blinking) where the terminal
        allows: a braille display and a screen reader follow it."""
        super().start_application_mode()  # type: ignore[no-untyped-call]  # Textual leaves it unannotated
        self.write(SHOW_CURSOR)
        self.flush()

    def run_input_thread(self) -> None:
        # The driver builds its parser by this module-level name; this app is the only Textual app in its process.
        linux_driver.XTermParser = EscapeAloneParser  # type: ignore[attr-defined]
        # and its decoder by this one: a byte the terminal's encoding cannot read is U+FFFD, never a traceback
        linux_driver.getincrementaldecoder = lenient_decoder  # type: ignore[assignment, attr-defined]
        super().run_input_thread()
