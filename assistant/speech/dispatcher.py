"""speech-dispatcher as a backend (`SpeechdBackend`, the interface of `backends.Backend`): where its socket is,
whether it answers, and speaking through its Python client (Debian's python3-speechd), imported inside `open()`."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.core.speech.queue import Utterance, reader_seconds, scale
from assistant.core.words.voice import SPEECHD_MISSING, SPEECHD_NO_SOCKET, engine_unavailable
from assistant.speech.backends import Backend, BackendUnavailable, SpeechError, always, ignore_began, ignore_finished
from assistant.speech.speechd_ends import MessageEnds, message_id


def speechd_socket_path(environ=os.environ) -> Path | None:
    """Where speech-dispatcher listens: `SPEECHD_ADDRESS` (unix_socket:PATH) or the runtime directory's
    speech-dispatcher/speechd.sock."""
    address = environ.get("SPEECHD_ADDRESS", "")
    if address.startswith("unix_socket:"):
        return Path(address.split(":", 1)[1])
    if address:
        return None  # an inet address: not probed, speech-dispatcher is used only on this machine's socket
    runtime = environ.get("XDG_RUNTIME_DIR")
    return Path(runtime) / "speech-dispatcher" / "speechd.sock" if runtime else None


def socket_answers(path: Path | None, timeout: float = 0.2) -> bool:
    """Whether something accepts connections on the Unix socket at `path`."""
    if path is None or not path.exists():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(timeout)
            probe.connect(str(path))
        return True
    except OSError:
        return False


class SpeechdBackend(Backend):
    """speech-dispatcher through its Python client (Debian's python3-speechd). Rate and voice are left as the
    player set them for their screen reader unless changed in our settings; it cannot reach a second device, so
    private reading uses a WAV backend beside it."""

    name = "speechd"

    def __init__(self, *, rate: int = 50, voice: str = "", volume: int = 100, environ=os.environ) -> None:
        self.rate, self.voice, self.volume = rate, voice, volume
        self.environ = environ
        self._client: Any = None  # a speechd.SSIPClient, once opened
        self._ends = MessageEnds()
        # One command at a time, for milliseconds: a CANCEL sent while a SPEAK waits for its reply blocks both.
        self._commands = threading.Lock()

    def open(self) -> None:
        """Connect if the socket answers and the client module is installed; never start a daemon."""
        if not socket_answers(speechd_socket_path(self.environ)):
            raise BackendUnavailable(engine_unavailable("speech-dispatcher", SPEECHD_NO_SOCKET))
        try:
            import speechd
        except ImportError:
            reason = engine_unavailable("speech-dispatcher", SPEECHD_MISSING)
            raise BackendUnavailable(reason) from None
        try:
            socket_path = str(speechd_socket_path(self.environ))
            client = speechd.SSIPClient("table-assistant", socket_path=socket_path, autospawn=False)
            if self.rate != 50:
                client.set_rate(int(scale(self.rate, -100, 0, 100)))
            if self.voice:
                client.set_synthesis_voice(self.voice)
            client.set_volume(int(scale(self.volume, -100, 0, 100)))
            client.set_priority(speechd.Priority.TEXT)  # our own queue orders and interrupts
        except Exception as exc:  # the client raises its own errors (SSIPCommunicationError and others)
            raise BackendUnavailable(engine_unavailable("speech-dispatcher", str(exc))) from None
        self._module = speechd
        self._client = client
        self._ends.listen(client, (speechd.CallbackType.END, speechd.CallbackType.CANCEL))

    def speak(
        self,
        utterance: Utterance,
        wanted: Callable[[], bool],
        more: Callable[[], bool] = always,
        finished: Callable[[int], None] = ignore_finished,
        began: Callable[[int, float], None] = ignore_began,
    ) -> None:
        """Send the text sentence by sentence, waiting for each one's end (or cancel) event; each sentence told as
        begun when it is sent, as long as a screen reader takes to say it (`reader_seconds`), so a key that cuts it
        in its last words counts it as heard and a decisive fact in it is not folded into reply after reply."""
        events = (self._module.CallbackType.END, self._module.CallbackType.CANCEL)
        for index, piece in enumerate(utterance.split()):
            if not wanted() or (index > 0 and not more()):
                return
            ended, serial = self._ends.expect()
            try:
                with self._commands:
                    if not wanted():
                        return  # cancelled while waiting for the lock
                    result = self._client.speak(piece, callback=ended, event_types=events)
            except Exception as exc:
                raise SpeechError(engine_unavailable("speech-dispatcher", str(exc))) from None
            began(index, reader_seconds(piece))  # (it tells a message's end, not its length: a cut in its last words)
            self._ends.wait(message_id(result), wanted, serial)  # its callback, a cancel, or an END that came early
            if not wanted():  # cut: the daemon is told here, by the thread that owns the connection
                self._cancel_message()
                return
            finished(index)

    def cancel(self) -> None:
        """Cut off the message being spoken: the worker, waiting for its end, wakes and sends speech-dispatcher's
        cancel itself. The caller (the app's thread) never waits for the daemon: a SPEAK the daemon was slow to
        answer held the connection, and a cancel sent from the app's thread waited behind it (3 s were measured)."""
        self._ends.done()

    def _cancel_message(self) -> None:
        with self._commands:
            if self._client is not None:
                with contextlib.suppress(Exception):
                    self._client.cancel()

    def close(self) -> None:
        """Close the connection."""
        with self._commands:
            if self._client is not None:
                with contextlib.suppress(Exception):
                    self._client.close()
                self._client = None
