"""The braille display's keys as the app's messages (`assistant.ui.messages`): its reader thread only posts them (the
UI talks in messages)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

from assistant.ui.messages import DisplayAnswered, DisplayBack, DisplayLost, DisplayPressed

if TYPE_CHECKING:
    from assistant.ui.braille_display import DisplayLink


def listen_in(app: App[Any], link: DisplayLink) -> None:
    """Send the display's keys to the app as `DisplayPressed` messages (its loss as `DisplayLost`, its return as
    `DisplayBack`, each frame it has shown as `DisplayAnswered`)."""
    link.display.listen(
        lambda press: app.post_message(DisplayPressed(press)),
        lambda: app.post_message(DisplayLost()),
        lambda: app.post_message(DisplayBack()),
        on_answered=lambda frame: app.post_message(DisplayAnswered(frame)),
    )
