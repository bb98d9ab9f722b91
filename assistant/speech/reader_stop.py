"""Her screen reader told to stop talking, for the plain mode beside it (`ui.plain`): a reply of hers that asks the
table's question was printed, her reader began reading it, and another hand's move closed the question before her
next key; left alone, her reader would say the question after its answer (issue 107: "Any Instant for Cy's Basic
Goat?" read 2.4 s after Cy's resolve won the game).

On Linux the screen readers (Orca, Speakup, Fenrir) speak through speech-dispatcher: its CANCEL for every client
(SSIP's `all` scope, as `spd-say --cancel` sends it) stops what the reader is saying and drops what it queued. On
Windows and macOS, accessible_output2's running reader is silenced (`ScreenReaderBackend.cancel`, NVDA's
cancelSpeech). A daemon or a reader that does not answer never holds the plain mode: the stop is sent from a thread
of its own, waited for `STOP_WAIT_S` at most.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

from assistant.speech.dispatcher import socket_answers, speechd_socket_path

#: The longest the plain mode waits for the stop to be sent before it goes on (and prints the next line: her reader
#: takes it as new words to say, which a stop arriving after them would cut too).
STOP_WAIT_S = 0.25


class ReaderStop:
    """Tells the running screen reader to stop talking (`__call__`); `silence` stands for the platform's way (tests)."""

    def __init__(
        self,
        platform: str = sys.platform,
        environ: Mapping[str, str] = os.environ,
        silence: Callable[[], None] | None = None,
    ) -> None:
        self.platform = platform
        self.environ = environ
        self.silence = silence or (self._reader_silence if platform in ("win32", "darwin") else self._cancel_all)
        """Stops the reader; raises when it cannot (the connection is made anew next time)."""
        self._client: Any = None
        self._reader: Any = None
        self._busy = threading.Lock()

    def __call__(self) -> bool:
        """Stop the screen reader, waiting `STOP_WAIT_S` at most: whether the stop was sent by then (False too while
        an earlier stop still waits for an answer, or when no reader can be reached)."""
        if not self._busy.acquire(blocking=False):
            return False
        sent = threading.Event()

        def stop() -> None:
            try:
                self.silence()
                sent.set()
            except Exception:  # no daemon, no reader, a connection lost: dropped, made anew next time
                self._client = self._reader = None
            finally:
                self._busy.release()

        threading.Thread(target=stop, name="reader-stop", daemon=True).start()
        return sent.wait(STOP_WAIT_S)

    def _cancel_all(self) -> None:
        """speech-dispatcher's CANCEL for every client (the reader's messages, said and queued)."""
        import speechd

        if self._client is None:
            path = speechd_socket_path(self.environ)
            if not socket_answers(path):
                raise ConnectionError("speech-dispatcher does not answer")
            self._client = speechd.SSIPClient("table-assistant", "reader-stop", socket_path=str(path), autospawn=False)
        self._client.cancel(speechd.Scope.ALL)

    def _reader_silence(self) -> None:
        """accessible_output2's running screen reader silenced."""
        from assistant.speech.readers import ScreenReaderBackend

        if self._reader is None:
            reader = ScreenReaderBackend()
            reader.open()
            self._reader = reader
        self._reader.cancel()

    def close(self) -> None:
        """The connection to speech-dispatcher closed (nothing to close elsewhere)."""
        client, self._client = self._client, None
        if client is not None:
            try:
                client.close()
            except Exception:  # already gone
                pass
