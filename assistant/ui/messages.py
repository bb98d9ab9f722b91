"""Every message of the app, in one place: threads and servers only post these, and the app's one handler for each
(`on_<name>` in `assistant/ui/app.py`) applies it, shows it and says it (the UI talks in messages).

Each carries typed values: a scanner event, a braille display's key, a notice's text, a phone's request.
"""

from __future__ import annotations

import asyncio

from textual.message import Message

from assistant.core.braille.display import Press
from assistant.core.language.device import DeviceOutcome, DeviceRequest
from assistant.scanner.live import CueGiven, LiveEvent


class ScannerEvent(Message):
    """One event of the live scanner, carried to the app unchanged (its payload, if any, is untrusted); posted by
    the camera thread."""

    def __init__(self, event: LiveEvent) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        """A newer aiming cue makes an older one waiting in the queue pointless."""
        return (
            isinstance(self.event, CueGiven)
            and isinstance(message, ScannerEvent)
            and isinstance(message.event, CueGiven)
        )


class DisplayPressed(Message):
    """A key of the braille display (posted from its reader thread)."""

    def __init__(self, press: Press) -> None:
        super().__init__()
        self.press = press


class DisplayLost(Message):
    """The braille display stopped answering (posted from its reader thread)."""


class DisplayBack(Message):
    """The braille display answers again (posted from its reader thread)."""


class DisplayAnswered(Message):
    """BRLTTY answered after a frame was written: it has shown it (posted from the display's round-trip thread)."""

    def __init__(self, frame: int) -> None:
        super().__init__()
        self.frame = frame


class SpeechNoticed(Message):
    """The speech service has something to tell the player (posted from its worker thread)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class PhoneMoved(Message):
    """A move (or an answer, or its joining) from a phone on the shared table, posted by the server's handler on
    this loop; answered by `on_phone_moved`, which sets `answer` to what became of it."""

    def __init__(self, player: str, request: DeviceRequest, answer: asyncio.Future[DeviceOutcome]) -> None:
        super().__init__()
        self.player, self.request, self.answer = player, request, answer


class Echoed(Message, namespace="braille_input"):
    """Something to say about six-key entry: a cell's letter, a deletion, a change of mode (posted by the
    `BrailleInput`; its handler is `on_braille_input_echoed`)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
