"""The speech's sentences for the player (`Notices`: the engine chosen, a sound that failed, a channel lost or back)
and its transcript of every utterance and notice.

A notice is kept, delivered once to the callback given to `attach()` (which must only post a message or store the
text) or taken with `take()`, and written to the transcript, when there is one. The notices of the start are held
back from the transcript until its first utterance (the welcome), then written after it. This part has a lock of its
own: it shares no state with the speech queue, so the worker's lock (`speech/worker.py`) is never held for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from assistant.core.speech.utterance import Utterance
from assistant.speech.transcript import Transcript


def _transcribe(transcript: Transcript, held: list[str] | None) -> None:
    """The notices held back from the transcript until its first utterance (`Notices.write`)."""
    for sentence in held or ():
        transcript.write("notice", sentence)


class Notices:
    """Every sentence the speech has for the player, in order, each delivered once; and the transcript."""

    def __init__(self, on_notice: Callable[[str], None] | None, transcript: Transcript | None) -> None:
        self._lock = threading.Lock()
        self.sentences: list[str] = []
        """Every sentence for the player, in order (the first one reports the backend)."""
        self.on_notice = on_notice
        self.transcript = transcript
        self._naming: int | None = None
        """Where in `sentences` the sentence naming the engine is, when the engine speaks: never shown unasked
        (`take`)."""
        self._untranscribed: list[str] | None = []
        """Notices held back from the transcript until its first utterance (the welcome), then written after it;
        None once it was written."""
        self._delivered = 0
        """How many of `sentences` were handed to `on_notice` or taken with `take()`."""
        self._failures: list[str] = []

    def attach(self, on_notice: Callable[[str], None]) -> None:
        """Send notices to `on_notice` from now on, starting with any not yet delivered."""
        with self._lock:
            self.on_notice = on_notice
            pending = self.sentences[self._delivered :]
            self._delivered = len(self.sentences)
        for sentence in pending:
            self._deliver(on_notice, sentence)

    def take(self, *, naming: bool = True) -> list[str]:
        """The notices not yet delivered; without the sentence naming the engine chosen when not `naming`."""
        with self._lock:
            pending = list(enumerate(self.sentences))[self._delivered :]
            self._delivered = len(self.sentences)
        return [sentence for index, sentence in pending if naming or index != self._naming]

    @property
    def failure(self) -> str:
        """The first sentence saying that sound failed after the backend was chosen, or ""."""
        return self._failures[0] if self._failures else ""

    def failed(self, sentence: str) -> None:
        """A sound failure (from a backend or the worker): a notice, remembered as a failure."""
        with self._lock:
            if sentence not in self._failures:
                self._failures.append(sentence)
        self.add(sentence)

    def named(self, sentence: str, *, speaks: bool) -> None:
        """The sentence naming the engine chosen: when it `speaks`, kept but never shown unasked nor transcribed (an
        engine is named only on request); silence is said and transcribed."""
        self.add(sentence, transcribed=not speaks)
        if speaks:
            with self._lock:
                self._naming = self.sentences.index(sentence)

    def add(self, sentence: str, *, again: bool = False, transcribed: bool = True) -> None:
        """Keep a notice, deliver it and write it to the transcript; one already kept is not told again unless
        `again` (a channel lost a second time)."""
        with self._lock:
            if sentence in self.sentences and not again:
                return  # an engine failing on every utterance is reported once, not every time
            self.sentences.append(sentence)
            callback = self.on_notice
            if callback is not None:
                self._delivered = len(self.sentences)
            held = self._untranscribed
            if held is not None and transcribed:
                held.append(sentence)  # written after the first utterance: the transcript starts with the welcome
        if self.transcript is not None and transcribed and held is None:
            self.transcript.write("notice", sentence)
        if callback is not None:
            self._deliver(callback, sentence)

    def write(self, utterance: Utterance, *, muted: bool, silent: bool) -> None:
        """Write an utterance to the transcript, with its marks (`muted`: speech is muted; `silent`: no engine
        speaks), then the notices held back until then."""
        transcript = self.transcript
        if transcript is None or (not utterance.text.strip() and not utterance.sound):
            return
        marks = []
        if muted:
            marks.append("muted")
        if silent:
            marks.append("silent")
        if utterance.private:
            marks.append("private")
        if utterance.review:
            marks.append("repeat")
        if utterance.sound:
            marks.append(f"sound:{utterance.sound}")
        transcript.write(utterance.priority.value, utterance.text, tuple(marks))
        with self._lock:
            held, self._untranscribed = self._untranscribed, None
        _transcribe(transcript, held)
        if transcript.failure:
            self.transcript = None
            self.add(transcript.failure)

    def close(self) -> None:
        """Write the notices still held (nothing was said: they are written all the same) and close the
        transcript."""
        if self.transcript is None:
            return
        with self._lock:
            held, self._untranscribed = self._untranscribed, None
        _transcribe(self.transcript, held)
        self.transcript.close()

    @staticmethod
    def _deliver(callback: Callable[[str], None], sentence: str) -> None:
        try:
            callback(sentence)
        except Exception:
            pass  # the app is closing: the notice is still in `sentences`
