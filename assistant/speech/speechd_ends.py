"""Waiting for the end of a message spoken by speech-dispatcher, without losing an end that comes early.

The python3-speechd client adds a message's callback only once the server has answered SPEAK (its own source: "we
risk, that the callback arrives earlier"). A short sentence on a fast device, or a worker thread held up on a busy
machine, can end before that: its END event is dropped, and a backend waiting for it waits for ever. `MessageEnds`
wraps the connection's event hook so every END or CANCEL is noted by message id, whether or not its callback was
added yet; where the client has no such hook, the callbacks alone end the wait, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def message_id(result: Any) -> int | None:
    """The id of the message an SSIP SPEAK answer names (its data's first line), or None."""
    try:
        return int(result[2][0])
    except (TypeError, ValueError, IndexError):
        return None


class MessageEnds:
    """The ends of messages, noted as they come; `wait` returns once the message asked about has ended."""

    def __init__(self) -> None:
        self._ended: set[int | None] = set()
        """Messages whose END or CANCEL came, until `wait` has seen it."""
        self._done = False
        """Speech was cancelled (`done`)."""
        self._serial = 0
        self._called: set[int] = set()
        """The messages (by `expect`'s number) whose own callback came."""
        self._changed = threading.Condition()

    def listen(self, client: Any, ends: tuple[Any, ...]) -> None:
        """Note every event of type `ends` the client's connection receives, then hand it on to the client."""
        hook = getattr(getattr(client, "_conn", None), "set_callback", None)
        library = getattr(client, "_callback_handler", None)
        if library is None or not callable(hook):
            return

        def event(msg_id, client_id, type, **kwargs):  # `type`: the client's own keyword
            if type in ends:
                with self._changed:
                    self._ended.add(msg_id)
                    self._changed.notify_all()
            library(msg_id, client_id, type, **kwargs)

        hook(event)

    def expect(self) -> tuple[Callable[..., None], int]:
        """Before a new message is sent: its own callback (an END or CANCEL of that message ends its wait; one of an
        earlier message, cancelled and answering late, no longer does), and its number for `wait`."""
        with self._changed:
            self._done = False
            self._ended.clear()  # (ids of messages cut before they were waited for: none is waited for again)
            self._serial += 1
            serial = self._serial

        def ended(*_: Any, **__: Any) -> None:
            with self._changed:
                self._called.add(serial)
                self._changed.notify_all()

        return ended, serial

    def done(self, *_: Any, **__: Any) -> None:
        """Speech was cancelled: the wait ends."""
        with self._changed:
            self._done = True
            self._changed.notify_all()

    def wait(self, message: int | None, wanted: Callable[[], bool], serial: int = 0) -> bool:
        """Until the message ended (its own callback, `serial` from `expect`, or its id's event), speech was
        cancelled, or `wanted()` is False (asked outside the lock: it is the speech service's, which a cancel holds);
        the timeout only re-checks `wanted`. Whether it ended or was cancelled (False: `wanted()` said to stop)."""
        ended = False
        while wanted():
            with self._changed:
                if self._done or serial in self._called or (message is not None and message in self._ended):
                    ended = True
                    break
                self._changed.wait(0.25)
        with self._changed:
            self._ended.discard(message)
            self._called.discard(serial)
        return ended
