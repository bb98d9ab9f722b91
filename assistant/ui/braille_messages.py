"""The braille display's keys as the app's messages (`assistant.ui.messages`): its reader thread only posts them (the
UI talks in messages)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App

from assistant.ui.messages import DisplayAnswered, DisplayBack, DisplayLost, DisplayPressed

if TYPE_CHECKING:
    from assistant.session import Reply
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


class DisplayKeys(App[None]):
    """The app's answers to the braille display's messages: its keys, its loss and its return, and the frames it
    has shown. The app (`assistant.ui.app.TableApp`) is one; it gives the display (`braille`), the clock the
    display's keys are timed by (`clock`) and the one place a reply is shown (`show`)."""

    braille: DisplayLink | None
    clock: Callable[[], float]

    def show(self, reply: Reply) -> None:
        """Show a reply on every front end (the app's own)."""
        raise NotImplementedError

    def on_display_pressed(self, message: DisplayPressed) -> None:
        """A key of the braille display: a line typed on it, a card's text or whose turn is answered like a line
        typed here; panning and the line keys only move the display."""
        if self.braille is None or not self.query("#answer"):
            return
        reply = self.braille.press(message.press, self.clock())
        if self.braille.quitting:  # `quit` typed on the display, as on the keyboard
            self.exit()
        elif reply is not None:
            self.show(reply)

    def on_display_lost(self, message: DisplayLost) -> None:
        """BRLTTY stopped answering: said once; the app goes on, and the display is taken back when it answers."""
        if self.braille is not None and self.query("#answer"):
            self.show(self.braille.lost())

    def on_display_back(self, message: DisplayBack) -> None:
        """BRLTTY answers again: the display shows the game as it stands, and what came while it was gone is said."""
        if self.braille is not None and self.query("#answer"):
            self.show(self.braille.back())  # (the display's own news, shown at once: `Source.DISPLAY_BACK`)

    def on_display_answered(self, message: DisplayAnswered) -> None:
        """BRLTTY has shown a frame written to it: a fact held in it has been read."""
        if self.braille is not None:
            self.braille.answered(message.frame)
