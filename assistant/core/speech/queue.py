"""What the speech service says next: priorities, stale replies, the history and mute, with no threads or audio.

The speech service (`assistant/speech/`) keeps one `SpeechQueue` behind a lock and asks it what to say; the rules
live here so they are tested as plain data. Order is never changed: what was given first is said first. The
priorities only decide what may be dropped or shortened:

- `IMPORTANT` (errors, turn changes, "your turn") is never dropped while waiting; once stale it is shortened to its
  brief form;
- `MESSAGE` (answers, card texts) is said in order; once stale it is shortened to its brief form, and dropped when
  stale twice;
- `ECHO` (navigation echo, a braille cell typed) keeps only the latest one waiting;
- `HINT` is dropped when anything is being said or waiting.

A reply goes stale when the player has moved on: a new line was typed or a card scanned (`new_input()`) before it
was said. The player is at a table and has already asked the next thing, so nothing is played late in full and
the new key is answered at once: the utterance being said is cut off now (even an important one), a waiting
reply is shortened to its facts (`Utterance.brief`, else its first sentence) and said in its place, and a reply
superseded a second time before it began is dropped. What must not be lost is kept another way: a decisive fact
cut off before it was played to its end is said again once, alone, and that repeat (one short sentence) ends with
its sentence when the next key comes. An earcon travels in its utterance (`Utterance.sound`), so it is heard with
its words, in order.

Stop (the player's own key) drops everything. Muted, nothing is queued, but what would have been said goes into
the history, so the player can unmute and step back through it.
"""

from __future__ import annotations

import enum
import re
from collections import deque
from dataclasses import dataclass, replace

#: How many utterances the history keeps.
HISTORY_LIMIT = 200


class Priority(enum.Enum):
    """How an utterance competes with the others (never its place in the order)."""

    IMPORTANT = "important"
    """Errors, warnings, turn changes: never dropped while waiting; shortened to the brief form once stale."""
    MESSAGE = "message"
    """Answers and announcements: said in order; shortened to the brief form once stale, dropped when stale
    twice."""
    ECHO = "echo"
    """Navigation echo (a braille cell typed): only the latest waiting one is said."""
    HINT = "hint"
    """Nice to know ("code seen"): dropped when anything else is being said or waiting."""


class Cut(enum.Enum):
    """What happens to the utterance being said when the queue changes."""

    NONE = "none"
    """It goes on."""
    NOW = "now"
    """It is cut off at once."""
    AFTER_SENTENCE = "after-sentence"
    """It ends with the sentence being said (a decisive fact said again: its one chance to be heard)."""


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
    brief: str = ""
    """The facts only ("Ana: 2 Unicorns."), said instead of the text once the
    utterance is stale; empty means its first sentence."""
    sound: str = ""
    """An earcon heard just before the words ("error", "your-turn"), or alone when there are no words."""
    stale: bool = False
    """The player moved on before it was said: it is its brief form now."""
    decisive: str = ""
    """The decisive fact it carries (a win, a turn that begins, a question waiting; `Reply.decisive`): never lost.
    Cut off or dropped, it is said again once, alone (`again()`); "": none."""
    said_again: bool = False
    """It is a decisive fact said again (`again()`): the next key lets it end its sentence rather than cut it."""

    def shortened(self) -> Utterance:
        """The stale form: the brief text, or the first sentence, with the same earcon; its decisive fact instead
        when that form leaves it out."""
        if self.stale:
            return self
        short = self.brief.strip() or (split_sentences(self.text) or [self.text])[0]
        if self.decisive and self.decisive not in short:
            short = self.decisive  # what must be heard, rather than the facts around it
        return replace(self, text=short, stale=True)

    def again(self) -> Utterance | None:
        """Its decisive fact said again on its own, important and already stale, carrying no decisive fact itself
        (so it is said again once, not for every key); None when it carries none."""
        if not self.decisive.strip():
            return None
        return Utterance(self.decisive, Priority.IMPORTANT, self.private, stale=True, said_again=True)

    def heard_by(self, cut: Cut, played: int = 0) -> bool:
        """Whether its decisive fact is heard in full when `cut` befalls it while it is being said, its first
        `played` sentences played to their end: only when the decisive fact is one sentence, within one of those
        or the one being said, let end ("Ben's turn." within "Turn 2: Ben's turn.")."""
        if not self.decisive:
            return True
        decisive = split_sentences(self.decisive)
        sentences = split_sentences(self.text)
        saying = sentences[played : played + 1] if cut is Cut.AFTER_SENTENCE else []
        return len(decisive) == 1 and any(decisive[0] in sentence for sentence in sentences[:played] + saying)


class SpeechQueue:
    """The waiting utterances, the one being said, and the history of what was given to be said."""

    def __init__(self, history_limit: int = HISTORY_LIMIT) -> None:
        self._waiting: deque[Utterance] = deque()
        self.current: Utterance | None = None
        """The utterance being said, between `take()` and `done()`."""
        self.played = 0
        """How many of its sentences, from the first, were played to their end (`sentence_played`)."""
        self.history: deque[Utterance] = deque(maxlen=history_limit)
        """What was given to be said (also while muted, or dropped as stale), oldest first, in full; navigation
        echo and hints that were never said are left out."""
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
        """Queue an utterance at the end; return whether it will be said."""
        if not utterance.text.strip() and not utterance.sound:
            return False
        if self.muted:
            self._remember(utterance)
            return False
        priority = utterance.priority
        if priority is Priority.HINT and self.busy:
            return False
        if priority is Priority.ECHO:  # latest wins: an older echo still waiting is out of date
            self._waiting = deque(u for u in self._waiting if u.priority is not Priority.ECHO)
        self._waiting.append(utterance)
        self._remember(utterance)
        return True

    def new_input(self, again: bool = True) -> Cut:
        """A new line was typed or a card scanned: what waits is stale, and the new reply is due now. A waiting
        message not yet stale is shortened to its brief form and kept in its place; one already stale (the player
        moved on twice before it began), a review and an echo are dropped; an important one is kept, shortened.
        The one being said is cut off now (`Cut.NOW`), save a decisive fact said again, which ends with its
        sentence; return that decision.

        A decisive fact never goes unheard: the one being said that the cut stops, and one in a message dropped,
        is said again once, alone, ahead of the new reply (`again`=False when the new input settles it: the
        answer to a question waiting)."""
        waiting: deque[Utterance] = deque()
        for utterance in self._waiting:
            fresh = utterance.priority is Priority.MESSAGE and not (utterance.stale or utterance.review)
            if utterance.priority is Priority.IMPORTANT or fresh:
                waiting.append(utterance.shortened())
            elif again and (said := utterance.again()) is not None:
                waiting.append(said)
        cut = Cut.NONE
        if self.current is not None:
            cut = Cut.AFTER_SENTENCE if self.current.said_again else Cut.NOW
            said = self.current.again() if again and not self.current.heard_by(cut, self.played) else None
            if said is not None:  # (not put into the history again: the reply it came from is there)
                waiting.appendleft(said)
        self._waiting = waiting
        return cut

    def interrupt(self, utterance: Utterance | None = None) -> Cut:
        """Stop, here is the next thing: `new_input()`, then queue `utterance`; return what happens to the one
        being said."""
        cut = self.new_input()
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
        self.played = 0
        return self.current

    def sentence_played(self, index: int) -> None:
        """The current utterance's sentence of that index (of `split_sentences`) was played to its end: a decisive
        fact in it has been heard, and a cut after it need not say it again."""
        self.played = max(self.played, index + 1)

    def done(self) -> None:
        """The current utterance was said, or cut off."""
        self.current = None

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute; muting drops everything waiting."""
        self.muted = muted
        if muted:
            self._waiting.clear()

    def recent(self, count: int) -> list[Utterance]:
        """The last `count` utterances of the history, newest first."""
        return list(reversed(self.history))[:count]

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
        if utterance.review or utterance.priority is Priority.ECHO or not utterance.text.strip():
            return  # repeats are already there; single letters typed would bury the sentences
        self.history.append(utterance)
        self._cursor = None


# A sentence ends at . ! ? or ; followed by a space. Not at a colon: "Turn 5: Ben's turn." is one sentence, and
# splitting there made the speech choppy.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=\S)")


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
