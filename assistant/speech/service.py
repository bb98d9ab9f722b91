"""The speech service: the app hands it text and never waits; one worker thread owns the engine and speaks.

`say()` and the other calls from the app only change the queue (`assistant/core/speechqueue.py`) under a lock and
wake the worker, or kill a player process: a few microseconds. The worker opens the first backend that works
here (reported once, in a sentence), then takes utterances one at a time and speaks them. Sentences for the
player (the backend chosen, a player that failed) go to `on_notice`, which must only post a message or store the
text; the app shows them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from assistant.core import words
from assistant.core.speechqueue import Priority, SpeechQueue, Utterance
from assistant.speech.backends import Backend, BackendUnavailable, SilentBackend, SpeechError
from assistant.speech.earcons import EARCONS, EarconChannel

#: Earcons spoken in words when sounds are off: the sentence and its priority.
EARCON_PRIORITY = {
    "code-seen": Priority.HINT,
    "card-read": Priority.HINT,
    "error": Priority.IMPORTANT,
    "your-turn": Priority.IMPORTANT,
}


class SpeechService:
    """Prioritised, interruptible speech with a history; every public method returns at once."""

    def __init__(
        self,
        backends: Backend | Sequence[Backend],
        *,
        private_backend: Backend | None = None,
        earcons: EarconChannel | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> None:
        """Start the worker; it opens the first of `backends` that works (silent when none does)."""
        self._candidates = [backends] if isinstance(backends, Backend) else list(backends)
        self._private_candidate = private_backend
        self.private_backend: Backend | None = None
        """Where private utterances go when the main backend cannot reach a headphones device."""
        self.earcons = earcons
        self.on_notice = on_notice
        self.notices: list[str] = []
        """Every sentence sent to the player, in order (the first one reports the backend)."""
        self._queue = SpeechQueue()
        self._cond = threading.Condition()
        self._cut = 0
        """Counts the cut-offs: an utterance is wanted while this is what it was when the worker took it."""
        self._jobs: list[Callable[[], None]] = []
        self._closing = False
        self.backend: Backend = SilentBackend()
        self.ready = threading.Event()
        """Set once the worker has chosen its backend."""
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()

    # The calls the app makes: each only takes the lock briefly.

    def say(self, text: str, priority: Priority = Priority.MESSAGE, *, private: bool = False) -> bool:
        """Queue text by its priority; return whether it will be said (a hint may be dropped, mute drops all)."""
        with self._cond:
            accepted = self._queue.add(Utterance(text, priority, private))
            self._cond.notify_all()
        return accepted

    def interrupt(self, text: str = "", priority: Priority = Priority.MESSAGE, *, private: bool = False) -> None:
        """Stop, here is the next card: drop what waits (important utterances stay), cut off what is being said
        (unless it is important), then say `text`."""
        with self._cond:
            cut = self._queue.interrupt(Utterance(text, priority, private) if text else None)
            if cut:
                self._cut += 1
            self._cond.notify_all()
        if cut:
            self._cancel_backends()

    def stop(self) -> None:
        """Silence now: drop everything waiting, important included, and cut off what is being said."""
        with self._cond:
            cut = self._queue.stop()
            if cut:
                self._cut += 1
        if cut:
            self._cancel_backends()
        if self.earcons is not None:
            self.earcons.stop()

    def repeat(self) -> str:
        """Say the last utterance again and return it; "" when nothing was said yet."""
        return self._review(self._queue.repeat)

    def back(self) -> str:
        """Say the utterance before the one last reviewed and return it; "" at the oldest."""
        return self._review(self._queue.back)

    def forward(self) -> str:
        """Say the utterance after the one last reviewed and return it; "" at the newest."""
        return self._review(self._queue.forward)

    def _review(self, step: Callable[[], Utterance | None]) -> str:
        with self._cond:
            utterance = step()
            if utterance is None:
                return ""
            cut = self._queue.interrupt(utterance)
            if cut:
                self._cut += 1
            self._cond.notify_all()
        if cut:
            self._cancel_backends()
        return utterance.text

    @property
    def muted(self) -> bool:
        """Whether speech is muted (what would be said still goes into the history)."""
        return self._queue.muted

    @muted.setter
    def muted(self, value: bool) -> None:
        if value:
            self.stop()
        with self._cond:
            self._queue.set_muted(value)

    @property
    def history(self) -> list[str]:
        """What was said, oldest first."""
        with self._cond:
            return [u.text for u in self._queue.history]

    @property
    def busy(self) -> bool:
        """Something is being said or waiting."""
        with self._cond:
            return self._queue.busy

    @property
    def sounds_on(self) -> bool:
        """Whether earcons play as sounds (else they are spoken)."""
        return self.earcons is not None

    def earcon(self, name: str, *, private: bool = False) -> None:
        """Play an earcon ("code-seen", "card-read", "error", "your-turn") on its own channel, or say its words
        when sounds are off."""
        if name not in EARCONS:
            raise ValueError(f"unknown earcon {name}")
        if self.earcons is not None and not self.muted:
            self.earcons.play(name, private)
        else:
            self.say(words.EARCON_WORDS[name], EARCON_PRIORITY[name], private=private)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until nothing is being said or waiting (for the `say` command and tests, never the app)."""
        self.ready.wait(timeout)
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue.busy and not self._jobs, timeout)

    def render_to(self, text: str, path: Path, timeout: float = 30.0) -> None:
        """Write `text` as a WAV file with the engine the worker owns; SpeechError when it cannot."""
        finished = threading.Event()
        failure: list[str] = []

        def job() -> None:
            try:
                if not self.backend.can_render:
                    raise SpeechError(words.speech_cannot_render(self.backend.name))
                self.backend.render(text, Path(path))
            except SpeechError as exc:
                failure.append(str(exc))
            except Exception as exc:  # a library's own error: still said as a sentence
                failure.append(words.engine_unavailable(self.backend.name, f"{exc.__class__.__name__}: {exc}"))
            finally:
                finished.set()

        with self._cond:
            self._jobs.append(job)
            self._cond.notify_all()
        if not finished.wait(timeout):
            raise SpeechError(words.engine_unavailable(self.backend.name, "it took too long"))
        if failure:
            raise SpeechError(failure[0])

    def close(self) -> None:
        """Stop speaking, end the worker and free the engine and its files."""
        with self._cond:
            self._closing = True
            cut = self._queue.stop()
            self._cut += 1
            self._cond.notify_all()
        if cut:
            self._cancel_backends()
        self._thread.join(timeout=2.0)
        if self.earcons is not None:
            self.earcons.close()

    # The worker.

    def _cancel_backends(self) -> None:
        self.backend.cancel()
        if self.private_backend is not None and self.private_backend is not self.backend:
            self.private_backend.cancel()

    def _notice(self, sentence: str) -> None:
        if sentence in self.notices:
            return  # an engine failing on every utterance is reported once, not every time
        self.notices.append(sentence)
        if self.on_notice is not None:
            try:
                self.on_notice(sentence)
            except Exception:
                pass  # the app is closing: the notice is still in `notices`

    def _open(self, candidate: Backend) -> bool:
        candidate.on_notice = self._notice
        try:
            candidate.open()
            return True
        except BackendUnavailable as exc:
            self._reasons.append(str(exc))
        except Exception as exc:  # a library failing in a way it does not document: try the next one
            self._reasons.append(words.engine_unavailable(candidate.name, f"{exc.__class__.__name__}: {exc}"))
        candidate.close()
        return False

    def _choose_backend(self) -> None:
        self._reasons: list[str] = []
        chosen = next((c for c in self._candidates if self._open(c)), None)
        if chosen is None:
            chosen = SilentBackend(" ".join(self._reasons))
        self.backend = chosen
        if chosen.can_speak_privately():
            self.private_backend = chosen
        elif self._private_candidate is not None and self._open(self._private_candidate):
            self.private_backend = self._private_candidate
        self._notice(chosen.describe())
        self.ready.set()

    def _run(self) -> None:
        try:
            self._choose_backend()
        finally:
            self.ready.set()
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closing or self._jobs or self._queue.waiting)
                if self._closing:
                    break
                if self._jobs:
                    job, utterance = self._jobs.pop(0), None
                else:
                    job, utterance = None, self._queue.take()
                    generation = self._cut
            if job is not None:
                job()
                with self._cond:
                    self._cond.notify_all()
                continue
            self._speak(utterance, lambda generation=generation: self._cut == generation)
            with self._cond:
                self._queue.done()
                self._cond.notify_all()
        for backend in {id(b): b for b in (self.backend, self.private_backend) if b is not None}.values():
            backend.close()

    def _speak(self, utterance: Utterance, wanted: Callable[[], bool]) -> None:
        backend = self.backend
        if utterance.private and not backend.can_speak_privately():
            backend = self.private_backend
            if backend is None:
                return  # hidden information with no headphones device: shown on screen, never said aloud
        try:
            backend.speak(utterance, wanted)
        except SpeechError as exc:
            self._notice(str(exc))
        except Exception as exc:  # the worker must survive anything an engine does
            self._notice(words.engine_unavailable(backend.name, f"{exc.__class__.__name__}: {exc}"))
