"""speech-dispatcher as a backend (`SpeechdBackend`, the interface of `backends.Backend`): where its socket is,
whether it answers, and speaking through its Python client (Debian's python3-speechd), imported inside `open()`.

speech-dispatcher can be lost mid-game (killed, restarted with the screen reader, stopped). The client then waits
for a reply with no timeout, so every command is made on a thread of its own and waited for `COMMAND_TIMEOUT` at
most; a connection whose reading thread ended, or a command that did not return in time, is the reader lost: said
once in plain words (`words.outage.reader_lost`, never the client's own error text), the connection dropped, and
the socket tried again every `RECONNECT_S` in the background; once it answers, a new connection is made and the
return said once.
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.core.speech.queue import scale
from assistant.core.speech.utterance import Utterance, reader_seconds
from assistant.core.words.outage import Piece, missing_fix, reader_back, reader_lost
from assistant.core.words.voice import SPEECHD_MISSING, SPEECHD_NO_SOCKET, engine_unavailable
from assistant.speech.backends import Backend, BackendUnavailable, SpeechError, always, ignore_began, ignore_finished
from assistant.speech.player import system_of
from assistant.speech.speechd_ends import MessageEnds, message_id

#: Seconds a command to speech-dispatcher may take before the daemon counts as lost (it answers in milliseconds).
COMMAND_TIMEOUT = 1.0
#: Seconds past a sentence's length (`reader_seconds`) before the daemon is asked whether it still answers.
END_GRACE = 5.0
#: Seconds between tries to reach a lost speech-dispatcher again.
RECONNECT_S = 0.5
#: The name said when speech-dispatcher is lost or back.
READER_NAME = "speech-dispatcher"


class ReaderLost(Exception):
    """The connection to speech-dispatcher is gone, or a command to it did not return in time."""


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

    def __init__(
        self, *, rate: int = 50, voice: str = "", volume: int = 100, pitch: int = 50, environ=os.environ, own=True
    ) -> None:
        self.rate, self.voice, self.volume, self.pitch = rate, voice, volume, pitch
        self.own = own
        """The app's own voice through speech-dispatcher: our rate, volume and pitch are set. False: the screen
        reader's, whose voice, rate, volume and pitch are the player's own and never changed here."""
        self._retuned: dict[str, int] = {}
        """Dials turned since the last sentence was sent, set on the connection before the next."""
        self.environ = environ
        self._client: Any = None  # a speechd.SSIPClient, once opened
        self._ends = MessageEnds()
        # One command at a time, for milliseconds: a CANCEL sent while a SPEAK waits for its reply blocks both.
        self._commands = threading.Lock()
        self._state = threading.Lock()
        """Held for microseconds while the connection is swapped (lost, or made anew)."""
        self.timeout = COMMAND_TIMEOUT
        self.reconnect_every = RECONNECT_S
        self.end_grace = END_GRACE
        """Seconds past a sentence's length its end may take before the daemon is asked whether it still answers."""
        self.lost = False
        """speech-dispatcher was lost and has not answered again yet."""
        self._closed = threading.Event()

    def open(self) -> None:
        """Connect if the socket answers and the client module is installed; never start a daemon."""
        if not socket_answers(speechd_socket_path(self.environ)):
            raise BackendUnavailable(engine_unavailable("speech-dispatcher", SPEECHD_NO_SOCKET))
        try:
            import speechd
        except ImportError:
            fix = missing_fix(Piece.SPEECHD, system_of())
            reason = f"{engine_unavailable('speech-dispatcher', SPEECHD_MISSING)} {fix}"
            raise BackendUnavailable(reason) from None
        self._module = speechd
        try:
            self._client = self._connect()
        except Exception as exc:  # the client raises its own errors (SSIPCommunicationError and others)
            raise BackendUnavailable(engine_unavailable("speech-dispatcher", _plain(exc))) from None

    def _connect(self) -> Any:
        """A new connection with our settings, its ends listened to; the client's own error when it cannot."""
        speechd = self._module
        socket_path = str(speechd_socket_path(self.environ))
        client = speechd.SSIPClient("table-assistant", socket_path=socket_path, autospawn=False)
        try:
            if self.rate != 50:
                self._bounded(lambda: client.set_rate(int(scale(self.rate, -100, 0, 100))))
            if self.pitch != 50:
                self._bounded(lambda: client.set_pitch(int(scale(self.pitch, -100, 0, 100))))
            if self.voice:
                self._bounded(lambda: client.set_synthesis_voice(self.voice))
            self._bounded(lambda: client.set_volume(int(scale(self.volume, -100, 0, 100))))
            self._bounded(lambda: client.set_priority(speechd.Priority.TEXT))  # our own queue orders and interrupts
        except BaseException:
            _drop(client)
            raise
        self._ends.listen(client, (speechd.CallbackType.END, speechd.CallbackType.CANCEL))
        return client

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
        in its last words counts it as heard and a decisive fact in it is not folded into reply after reply. While
        speech-dispatcher is lost nothing is sent (the words are on screen; the loss was said)."""
        events = (self._module.CallbackType.END, self._module.CallbackType.CANCEL)
        for index, piece in enumerate(utterance.split()):
            if not wanted() or (index > 0 and not more()) or self.lost:
                return
            ended, serial = self._ends.expect()
            try:
                with self._commands:
                    client = self._client
                    if not wanted() or client is None:
                        return  # cancelled while waiting for the lock
                    self._set_dials(client)
                    result = self._bounded(
                        functools.partial(client.speak, piece, callback=ended, event_types=events), client
                    )
            except ReaderLost:
                self._lose(client)
                return
            except Exception as exc:
                raise SpeechError(engine_unavailable("speech-dispatcher", _plain(exc))) from None
            began(index, reader_seconds(piece))  # (it tells a message's end, not its length: a cut in its last words)
            if not self._wait_end(message_id(result), wanted, client, serial, reader_seconds(piece)):
                self._lose(client)  # the daemon went away, or stopped, mid-sentence: its END will never come
                return
            if not wanted():  # cut: the daemon is told here, by the thread that owns the connection
                self._cancel_message()
                return
            finished(index)

    def retune(self, dial: str, value: int) -> bool:
        """The app's own voice: set on the connection before the next sentence (by the worker, which owns it); the
        screen reader's voice is the player's own, and keeps its rate, volume and pitch."""
        if not self.own:
            return False
        setattr(self, dial, value)
        self._retuned[dial] = value
        return True

    def _set_dials(self, client: Any) -> None:
        """The dials turned since the last sentence, set on the connection (under `_commands`)."""
        while self._retuned:
            dial, value = self._retuned.popitem()
            setter = getattr(client, f"set_{dial}")  # set_rate, set_volume, set_pitch
            self._bounded(functools.partial(setter, int(scale(value, -100, 0, 100))), client)

    def _wait_end(
        self, message: int | None, wanted: Callable[[], bool], client: Any, serial: int, seconds: float
    ) -> bool:
        """Wait for the message's end (or a cut); False when the daemon is gone: its connection closed, or, the end
        not come `end_grace` seconds after the sentence's length, a question put to it not answered in time."""
        while True:
            deadline = time.monotonic() + seconds + self.end_grace
            waiting = functools.partial(_still, wanted, client, deadline)
            if self._ends.wait(message, waiting, serial) or not wanted():
                return _alive(client)
            if not _alive(client):
                return False
            try:
                self._bounded(client.list_output_modules, client)  # late: does it still answer?
            except ReaderLost:
                return False
            except Exception:  # a refusal is an answer
                pass

    def cancel(self) -> None:
        """Cut off the message being spoken: the worker, waiting for its end, wakes and sends speech-dispatcher's
        cancel itself. The caller (the app's thread) never waits for the daemon: a SPEAK the daemon was slow to
        answer held the connection, and a cancel sent from the app's thread waited behind it (3 s were measured)."""
        self._ends.done()

    def _cancel_message(self) -> None:
        with self._commands:
            client = self._client
            if client is None:
                return
            try:
                self._bounded(client.cancel, client)
            except ReaderLost:
                self._lose(client)
            except Exception:  # a refusal of the daemon's: nothing was being said
                pass

    def _bounded(self, call: Callable[[], Any], client: Any = None) -> Any:
        """Make a client call on a thread of its own and wait for it `timeout` at most: ReaderLost when it did not
        return, or failed because the connection is gone."""
        answer: list[Any] = []
        failure: list[BaseException] = []
        done = threading.Event()

        def run() -> None:
            try:
                answer.append(call())
            except BaseException as exc:  # handed back to the caller
                failure.append(exc)
            finally:
                done.set()

        threading.Thread(target=run, name="speechd-command", daemon=True).start()
        if not done.wait(self.timeout):
            raise ReaderLost("no answer")
        if failure:
            error = failure[0]
            if (client is not None and not _alive(client)) or error.__class__.__name__ == "SSIPCommunicationError":
                raise ReaderLost(error.__class__.__name__)
            raise error
        return answer[0] if answer else None

    def _lose(self, client: Any) -> None:
        """The connection is gone: dropped without waiting, said once, and the daemon looked for again."""
        with self._state:
            if self.lost or self._closed.is_set() or client is not self._client:
                return
            self.lost, self._client = True, None
        threading.Thread(target=_drop, args=(client,), name="speechd-drop", daemon=True).start()
        self.on_outage(reader_lost(READER_NAME), False)
        threading.Thread(target=self._reconnect, name="speechd-reconnect", daemon=True).start()

    def _reconnect(self) -> None:
        """Until speech-dispatcher answers again (or the backend is closed): try its socket every
        `reconnect_every` seconds, then connect anew and say so once."""
        path = speechd_socket_path(self.environ)
        while not self._closed.wait(self.reconnect_every):
            if not socket_answers(path):
                continue
            try:
                client = self._connect()
            except Exception:  # it answers but is not ready yet: tried again
                continue
            with self._state:
                if self._closed.is_set():
                    threading.Thread(target=_drop, args=(client,), daemon=True).start()
                    return
                self._client, self.lost = client, False
            self.on_outage(reader_back(READER_NAME), True)
            return

    def close(self) -> None:
        """Close the connection (never waiting on a daemon that does not answer)."""
        self._closed.set()
        self._ends.done()
        acquired = self._commands.acquire(timeout=self.timeout)
        client, self._client = self._client, None
        if acquired:
            self._commands.release()
        if client is not None:
            closer = threading.Thread(target=_drop, args=(client,), name="speechd-close", daemon=True)
            closer.start()
            closer.join(self.timeout)


def _still(wanted: Callable[[], bool], client: Any, deadline: float) -> bool:
    """Whether to keep waiting for a message's end: still wanted, the connection still there, not yet late."""
    return wanted() and _alive(client) and time.monotonic() < deadline


def _alive(client: Any) -> bool:
    """Whether the client's connection still reads from the daemon (its reading thread ends when the socket
    closes); True where the client has no such thread to look at."""
    thread = getattr(getattr(client, "_conn", None), "_communication_thread", None)
    return thread is None or thread.is_alive()


def _drop(client: Any) -> None:
    """Close a client's connection, waking any call of ours still waiting on a reply (each then fails)."""
    connection = getattr(client, "_conn", None)
    sock = getattr(connection, "_socket", None)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            sock.close()
    replies = getattr(connection, "_ssip_reply_semaphore", None)
    if replies is not None:
        for _ in range(8):
            replies.release()
    thread = getattr(connection, "_communication_thread", None)
    if thread is not None:
        thread.join(1.0)


def _plain(error: BaseException) -> str:
    """A client error in plain words: its first line, without the "Original error: None" the client adds."""
    text = str(error).split("\n")[0].split(" Original error:")[0].split(" Additional error:")[0].strip()
    return text or "its connection failed"
