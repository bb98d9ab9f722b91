"""What the speech service says next: priorities, interruptions, the history and mute, with no threads or audio.

The speech service (`assistant/speech/`) keeps one `SpeechQueue` behind a lock and asks it what to say; the rules
live here so they are tested as plain data. The priorities follow speech-dispatcher's:

- `IMPORTANT` (errors, "your turn") is never dropped, and goes ahead of queued messages;
- `MESSAGE` is queued in order;
- `ECHO` (navigation echo, a braille cell typed) keeps only the latest one waiting;
- `HINT` is dropped when anything is being said or waiting.

An interruption ("stop, here is the next card") drops every waiting utterance but the important ones and cuts the
one being said unless it is important. Stop (the player's own key) drops everything. Muted, nothing is queued,
but what would have been said goes into the history, so the player can unmute and step back through it.
"""

from __future__ import annotations

import enum
import re
from collections import deque
from dataclasses import dataclass, replace

#: How many utterances the history keeps.
HISTORY_LIMIT = 200


class Priority(enum.Enum):
    """How an utterance competes with the others."""

    IMPORTANT = "important"
    """Errors, warnings, "your turn": never dropped, said before queued messages."""
    MESSAGE = "message"
    """Answers and announcements: said in order."""
    ECHO = "echo"
    """Navigation echo (a braille cell typed): only the latest waiting one is said."""
    HINT = "hint"
    """Nice to know ("code seen"): dropped when anything else is being said or waiting."""


@dataclass(frozen=True)
class Utterance:
    """One thing to say."""

    text: str
    """The words, already cleaned (they come from `assistant.core.words`)."""
    priority: Priority = Priority.MESSAGE
    private: bool = False
    """Hidden information (your own hand): only for the headphones device, never the table's speakers."""
    review: bool = False
    """A repeat or a step through the history: not put into the history again."""


class SpeechQueue:
    """The waiting utterances, the one being said, and the history of what was said."""

    def __init__(self, history_limit: int = HISTORY_LIMIT) -> None:
        self._waiting: deque[Utterance] = deque()
        self.current: Utterance | None = None
        """The utterance being said, between `take()` and `done()`."""
        self.history: deque[Utterance] = deque(maxlen=history_limit)
        """What was said (or would have been, while muted), oldest first; navigation echo is left out."""
        self._cursor: int | None = None
        """Where stepping through the history is: an index into `history`, None when at the newest."""
        self.muted = False

    @property
    def waiting(self) -> tuple[Utterance, ...]:
        """The utterances waiting, in the order they will be said."""
        return tuple(self._waiting)

    @property
    def busy(self) -> bool:
        """Something is being said or waiting."""
        return self.current is not None or bool(self._waiting)

    def add(self, utterance: Utterance) -> bool:
        """Queue an utterance by its priority; return whether it will be said."""
        if not utterance.text.strip():
            return False
        if self.muted:
            self._remember(utterance)
            return False
        priority = utterance.priority
        if priority is Priority.HINT and self.busy:
            return False
        if priority is Priority.ECHO:  # latest wins: an older echo still waiting is out of date
            self._waiting = deque(u for u in self._waiting if u.priority is not Priority.ECHO)
        if priority is Priority.IMPORTANT:
            ahead = sum(1 for u in self._waiting if u.priority is Priority.IMPORTANT)
            self._waiting.insert(ahead, utterance)
        else:
            self._waiting.append(utterance)
        return True

    def interrupt(self, utterance: Utterance | None = None) -> bool:
        """Drop what is waiting except important utterances, then queue `utterance`; return whether the one being
        said should be cut off (it is, unless it is important)."""
        self._waiting = deque(u for u in self._waiting if u.priority is Priority.IMPORTANT)
        cut = self.current is not None and self.current.priority is not Priority.IMPORTANT
        if utterance is not None:
            if utterance.priority is Priority.HINT:  # a hint that interrupts is meant to be heard
                utterance = replace(utterance, priority=Priority.MESSAGE)
            self.add(utterance)
        return cut

    def stop(self) -> bool:
        """The player asked for silence: drop everything waiting, important included; return whether something is
        being said and should be cut off."""
        self._waiting.clear()
        return self.current is not None

    def take(self) -> Utterance | None:
        """The next utterance to say, now current; None when nothing waits."""
        if not self._waiting:
            return None
        self.current = self._waiting.popleft()
        self._remember(self.current)
        return self.current

    def done(self) -> None:
        """The current utterance was said, or cut off."""
        self.current = None

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute; muting drops everything waiting."""
        self.muted = muted
        if muted:
            self._waiting.clear()

    def repeat(self) -> Utterance | None:
        """The last thing said, to say again; None when nothing was said yet."""
        self._cursor = None
        return self._review(len(self.history) - 1)

    def back(self) -> Utterance | None:
        """One step back through the history (the first step gives the one before the last); None at the oldest."""
        position = (len(self.history) - 1 if self._cursor is None else self._cursor) - 1
        return self._step(position)

    def forward(self) -> Utterance | None:
        """One step forward through the history; None when already at the newest."""
        if self._cursor is None:
            return None
        return self._step(self._cursor + 1)

    def _step(self, position: int) -> Utterance | None:
        if not 0 <= position < len(self.history):
            return None
        self._cursor = None if position == len(self.history) - 1 else position
        return self._review(position)

    def _review(self, position: int) -> Utterance | None:
        if position < 0:
            return None
        said = self.history[position]
        return Utterance(said.text, Priority.MESSAGE, private=said.private, review=True)

    def _remember(self, utterance: Utterance) -> None:
        if utterance.review or utterance.priority is Priority.ECHO:
            return  # repeats are already there; single letters typed would bury the sentences
        self.history.append(utterance)
        self._cursor = None


_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=\S)")


def split_sentences(text: str, longest: int = 240) -> list[str]:
    """Split text at sentence ends, so the first sentence can be played while the rest is rendered.

    A piece longer than `longest` characters is split again at a comma or a space; empty pieces are dropped.
    """
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        while len(sentence) > longest:
            cut = sentence.rfind(", ", 0, longest)
            cut = cut + 1 if cut > 0 else sentence.rfind(" ", 0, longest)
            if cut <= 0:
                cut = longest
            pieces.append(sentence[:cut].strip())
            sentence = sentence[cut:].strip()
        if sentence.strip():
            pieces.append(sentence.strip())
    return pieces


def scale(value: int, low: float, middle: float, high: float) -> float:
    """Map a 0–100 setting onto an engine's range: 0 → low, 50 → middle (the engine's default), 100 → high."""
    value = min(max(value, 0), 100)
    if value <= 50:
        return low + (middle - low) * value / 50
    return middle + (high - middle) * (value - 50) / 50
