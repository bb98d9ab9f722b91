"""A speech backend for the tests: it records what it is asked to say instead of making sound, behind the same
interface as the real engines (`assistant/speech/backends.py`), so the speech service and the app are tested with
no sound card and no timing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from assistant.core.speech.utterance import Priority, Utterance
from assistant.speech.backends import Backend, always, ignore_began, ignore_finished


@dataclass(frozen=True)
class Recorded:
    """One thing a `RecordingBackend` was asked to do."""

    kind: str
    """"said" (completely), "cut" (cut off while being said) or "cancel" (a cancel call)."""
    text: str = ""
    priority: Priority | None = None
    private: bool = False
    sound: str = ""
    """The earcon played with it."""


class RecordingBackend(Backend):
    """Records what it is asked to say instead of making sound: the text, the priority, and interruptions.

    With `hold=True` each utterance stays "being said" until `release()` lets it finish or a cancel cuts it off,
    so a test can queue more while it is busy, without timing anything.
    """

    name = "recording"
    plays_sounds = True

    def __init__(self, hold: bool = False, private: bool = True) -> None:
        self.hold = hold
        self.private = private
        self.records: list[Recorded] = []
        self.started: list[str] = []
        """The texts that started being said, in order."""
        self._changed = threading.Condition()
        self._permits = threading.Semaphore(0)

    def can_speak_privately(self) -> bool:
        """Private utterances are recorded with their flag."""
        return self.private

    @property
    def said(self) -> list[str]:
        """The texts said to the end or cut off, in order."""
        return [r.text for r in self.records if r.kind in ("said", "cut")]

    def speak(
        self,
        utterance: Utterance,
        wanted: Callable[[], bool],
        more: Callable[[], bool] = always,
        finished: Callable[[int], None] = ignore_finished,
        began: Callable[[int, float], None] = ignore_began,
    ) -> None:
        """Record the utterance (holding it, if asked, until released or cut off); it is one sentence."""
        with self._changed:
            self.started.append(utterance.text)
            self._changed.notify_all()
        if self.hold:
            while wanted() and not self._permits.acquire(timeout=0.05):
                pass  # the timeout only re-checks `wanted`: a cancel makes it False
        kind = "said" if wanted() else "cut"
        with self._changed:
            self.records.append(Recorded(kind, utterance.text, utterance.priority, utterance.private, utterance.sound))
            self._changed.notify_all()

    def release(self, count: int = 1) -> None:
        """Let `count` held utterances (the current one and the next ones) finish."""
        for _ in range(count):
            self._permits.release()

    def hold_again(self) -> None:
        """Hold each utterance from now on, forgetting releases left unused."""
        self.hold = True
        self._permits = threading.Semaphore(0)

    def wait_started(self, count: int, timeout: float = 5.0) -> bool:
        """Wait until `count` utterances have started being said."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self.started) >= count, timeout)

    def cancel(self) -> None:
        """Record the cancel."""
        with self._changed:
            self.records.append(Recorded("cancel"))
            self._changed.notify_all()
