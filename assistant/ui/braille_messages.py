"""The braille display's keys as the app's messages: its reader thread only posts them (the UI talks in messages)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App
from textual.message import Message

from assistant.core.braille.display import Press

if TYPE_CHECKING:
    from assistant.ui.braille_display import DisplayLink


class DisplayPressed(Message):
    """A key of the braille display (posted from its reader thread)."""

    def __init__(self, press: Press) -> None:
        super().__init__()
        self.press = press


class DisplayLost(Message):
    """The braille display stopped answering (posted from its reader thread)."""


class DisplayBack(Message):
    """The braille display answers again (posted from its reader thread)."""


def listen_in(app: App, link: DisplayLink) -> None:
    """Send the display's keys to the app as `DisplayPressed` messages (its loss as `DisplayLost`, its return as
    `DisplayBack`)."""
    link.display.listen(
        lambda press: app.post_message(DisplayPressed(press)),
        lambda: app.post_message(DisplayLost()),
        lambda: app.post_message(DisplayBack()),
    )
