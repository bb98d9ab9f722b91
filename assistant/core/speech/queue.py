"""What the speech service says next: priorities, stale replies, the history and mute, with no threads or audio.

The speech service (`assistant/speech/`) keeps one `SpeechQueue` behind a lock and asks it what to say; the rules
live here so they are tested as plain data. Order is never changed: what was given first is said first. The
priorities only decide what may be dropped or shortened:

- `IMPORTANT` (errors, turn changes, "your turn") and `MESSAGE` (answers, card texts) are said in order until the
  player's next key, which drops them, their decisive facts folded into its reply;
- `ECHO` (navigation echo, a braille cell typed) keeps only the latest one waiting;
- `HINT` is dropped when anything is being said or waiting.

The player's own key (a line typed, a card scanned, a one-key answer; `new_input()`) is answered first: what is
being said is cut off at once and what still waits is dropped, so the new key's reply begins now and the player
never hears the answer to the key before last. What must not be lost is kept another way: a decisive fact (a turn,
a count, a warning, a win) cut before it was heard in full, or dropped before it began, is folded into the new
reply as a short clause said first ("Ben's turn. Ben drew a card."), never said again once heard; a fact cut in
its fold leads the next fold; a state (a turn, a count, a win) is folded until heard or settled, so a fold holds at
most one fact a state, and any other fact cut in its fold is folded once more, then dropped; a fact cut in its last
words counts as heard; a fact the new reply settles (a newer turn or count, a question it answers, an undo) is not
said at all. Replies from other hands
(`arrive()`: moves from other players' devices) are said in turn, in the order recorded: what is being said ends
its sentence, and an older reply still waiting shrinks to its decisive fact, folded into the newest, so the player
is never more than one reply behind. An earcon travels in its utterance (`Utterance.sound`), so it is heard with
its words, in order.

Stop (the player's own key) drops everything. Muted, nothing is queued, but what would have been said goes into
the history, so the player can unmute and step back through it.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass, replace

from assistant.core.text import protect_names as protect_names
from assistant.core.text import split_sentences as split_sentences
from assistant.core.words.pace import fact_topics, fold, settled_by

#: How many utterances the history keeps.
HISTORY_LIMIT = 200


class Priority(enum.Enum):
    """How an utterance competes with the others (never its place in the order)."""

    IMPORTANT = "important"
    """Errors, warnings, turn changes: said in order; the player's next key drops it, its decisive fact folded."""
    MESSAGE = "message"
    """Answers and announcements: said in order; the player's next key drops it, its decisive fact folded."""
    ECHO = "echo"
    """Navigation echo (a braille cell typed): only the latest waiting one is said."""
    HINT = "hint"
    """Nice to know ("code seen"): dropped when anything else is being said or waiting."""


class Cut(enum.Enum):
    """What happens to the utterance being said when the queue changes."""

    NONE = "none"
    """It goes on."""
    NOW = "now"
    """It is cut off at once (the player's next key)."""
    AFTER_SENTENCE = "after-sentence"
    """It ends with the sentence being said (a reply from another hand arrived: said next, in order)."""


#: Seconds left of a sentence under which a cut counts it as heard: a fact cut in its last words is not said again.
LAST_WORDS_S = 0.35
#: How many times a decisive fact that tells of no state (a chain's duty, "Chain resolved.") may be folded into a
#: reply while it goes unheard: once, and once more when that fold was cut before its last words; a fact heard is
#: never said again. A state (a turn, a count, a win) is folded until it is heard or a newer one settles it.
FOLDS_AT_MOST = 2


@dataclass(frozen=True)
class Utterance:
    """One thing to say."""

    text: str
    """The words, already cleaned (they come from `assistant.core.words`), the folded facts first."""
    priority: Priority = Priority.MESSAGE
    private: bool = False
    """Hidden information (your own hand): only for the headphones device, never the table's speakers."""
    review: bool = False
    """A repeat or a step through the history: not put into the history again."""
    sound: str = ""
    """An earcon heard just before the words ("error", "your-turn"), or alone when there are no words."""
    decisive: str = ""
    """The decisive fact it carries (a win, a turn that begins, a count an effect changed, a question waiting;
    `Reply.decisive`): never lost. Cut off before it was heard, or dropped, it is folded into the next reply, once;
    "": none."""
    folded: tuple[str, ...] = ()
    """The decisive facts of earlier replies, cut or dropped, that its text begins with (each said once)."""

    def unheard(self, played: int) -> list[str]:
        """The sentences of its own decisive fact not heard in full when it stops with its first `played` sentences
        played to their end (a fact's sentence is heard within a longer one, "Ben's turn." within "Turn 2: Ben's
        turn.", or in other words of the same state, "Ana: 2 Unicorns." as "Ana has 2 Unicorns.")."""
        said = " ".join(split_sentences(self.text)[:played])
        return [fact for fact in split_sentences(self.decisive) if not settled_by(fact, said)]

    def folded_unheard(self, heard: int) -> list[str]:
        """The facts folded into it not heard in full when it stops with its first `heard` sentences heard."""
        said = " ".join(split_sentences(self.text)[:heard])
        return [fact for fact in self.folded if not all(part in said for part in split_sentences(fact))]


class SpeechQueue:
    """The waiting utterances, the one being said, and the history of what was given to be said."""

    def __init__(self, history_limit: int = HISTORY_LIMIT) -> None:
        self._waiting: deque[Utterance] = deque()
        self.current: Utterance | None = None
        """The utterance being said, between `take()` and `done()`."""
        self.played = 0
        """How many of its sentences, from the first, were played to their end (`sentence_played`)."""
        self._began: tuple[int, float, float] | None = None
        """The sentence of the current utterance playing: its index, when it began and how long it is."""
        self.carry: list[str] = []
        """Decisive facts cut or dropped at the player's last key, folded into the next reply (`add`)."""
        self._folds: dict[str, int] = {}
        """How many times each fact still unheard was folded (`FOLDS_AT_MOST`)."""
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
        """Queue an utterance at the end; return whether it will be said. A reply (a message or an important one)
        begins with the decisive facts the last key cut (`carry`), those it does not settle."""
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
        self._remember(utterance)
        if utterance.review:
            self.carry = []  # the player is reading back: what was cut is in the history
        elif priority in (Priority.MESSAGE, Priority.IMPORTANT):
            utterance, self.carry = _with_folded(utterance, self.carry), []
        self._waiting.append(utterance)
        return True

    def new_input(self, again: bool = True, now: float | None = None) -> Cut:
        """The player's own key (a line typed, a card scanned, a one-key answer): its reply is due now, before
        anything else. What is being said is cut off (`Cut.NOW`, returned), what waits is dropped; the decisive
        facts among them not yet heard in full are folded into the new reply (`add`), once: not those of a fact
        already folded (said once), nor any when `again` is False (the key answers the question waiting, or takes
        back what was said: an undo). `now`: the moment, to tell a fact cut in its last words (heard) from one cut
        before them."""
        facts = list(self.carry)
        cut = Cut.NONE
        if self.current is not None:
            cut = Cut.NOW
            if not self.current.review:
                heard = self._heard_sentences(now)
                facts += self._again(self.current.folded_unheard(heard)) + self.current.unheard(heard)
        for utterance in self._waiting:
            if utterance.priority in (Priority.MESSAGE, Priority.IMPORTANT) and not utterance.review:
                facts += [*utterance.folded, *split_sentences(utterance.decisive)]  # never begun: not said yet
        self._waiting.clear()
        self.carry = self._cut_first(_unique(facts)) if again else []
        self._folds = {fact: n for fact, n in self._folds.items() if fact in self.carry}
        return cut

    def _again(self, facts: list[str]) -> list[str]:
        """Of folded facts not heard, those to fold once more: a state (a turn, a count, a win: `fact_topics`) until
        it is heard or a newer one settles it, so the fold holds at most one fact a state (one turn, one count a
        player, one win); any other fact at most `FOLDS_AT_MOST` times."""
        return [fact for fact in facts if fact_topics(fact) or self._folds.get(fact, 0) < FOLDS_AT_MOST]

    def _cut_first(self, facts: list[str]) -> list[str]:
        """The facts in the order a fold says them: whose turn it is and a win first (what the player acts on), then
        those already cut in a fold (each then comes early, heard unless the very next key comes within its
        second), then the others; each group in the order recorded."""
        return sorted(facts, key=self._fold_rank)

    def _fold_rank(self, fact: str) -> int:
        if fact_topics(fact) & {"turn", "win"}:
            return 0
        return 1 if self._folds.get(fact, 0) else 2

    def arrive(self, utterance: Utterance) -> Cut:
        """A reply that did not come from the player's own key (a move from another player's device): said in
        turn, in the order recorded, with no backlog. What is being said ends with its sentence (`Cut.AFTER_SENTENCE`,
        returned) and the new reply follows; a reply still waiting shrinks to its decisive fact, folded into the
        new one (a reply with none is left to the screen and the history), so the player is never more than one
        reply behind."""
        if not self.busy or self.muted or utterance.priority not in (Priority.MESSAGE, Priority.IMPORTANT):
            self.add(utterance)
            return Cut.NONE
        facts: list[str] = []  # oldest first: what is being said, then what waits
        cut = Cut.NONE
        current = self.current
        if current is not None:
            if current.review or current.priority not in (Priority.MESSAGE, Priority.IMPORTANT):
                cut = Cut.NOW
            elif len(split_sentences(current.text)) > self.played + 1:
                cut = Cut.AFTER_SENTENCE  # (the sentence being said is heard: its fact is not said again)
                facts += self._again(current.folded_unheard(self.played + 1)) + current.unheard(self.played + 1)
        facts += self.carry
        for waiting in self._waiting:
            if waiting.priority in (Priority.MESSAGE, Priority.IMPORTANT) and not waiting.review:
                facts += [*waiting.folded, *split_sentences(waiting.decisive)]
        self._waiting.clear()
        self.carry = self._cut_first(_unique(facts))
        self._folds = {fact: n for fact, n in self._folds.items() if fact in self.carry}
        self.add(utterance)
        return cut

    def interrupt(self, utterance: Utterance | None = None) -> Cut:
        """Stop, here is the next thing: `new_input()`, then queue `utterance`; return what happens to the one
        being said."""
        cut = self.new_input()
        if utterance is not None:
            self.add(interrupting(utterance))
        return cut

    def stop(self) -> bool:
        """The player asked for silence: drop everything waiting, important included; return whether something is
        being said and should be cut off."""
        self._waiting.clear()
        self.carry = []
        return self.current is not None

    def take(self) -> Utterance | None:
        """The next utterance to say, now current; None when nothing waits."""
        if not self._waiting:
            return None
        self.current = self._waiting.popleft()
        self.played = 0
        self._began = None
        if self.current.folded:  # its first sentence begins now; a later folded fact counts when it begins
            first = self.current.folded[0]
            self._folds[first] = self._folds.get(first, 0) + 1
        return self.current

    def sentence_began(self, index: int, at: float, seconds: float) -> None:
        """The current utterance's sentence of that index began to play at `at` and lasts `seconds`: a cut in its
        last words (`LAST_WORDS_S`) counts it as heard. A folded fact counts as folded once its sentence begins (one
        merged into reply after reply in a burst, never begun, was never said)."""
        self._began = (index, at, seconds)
        current = self.current
        if current is not None and current.folded:
            first = 0
            for fact in current.folded:  # (the folded facts begin the text, in order; the first counted at `take`)
                if first == index and index > 0:
                    self._folds[fact] = self._folds.get(fact, 0) + 1
                first += len(split_sentences(fact))

    def sentence_played(self, index: int) -> None:
        """The current utterance's sentence of that index (of `split_sentences`) was played to its end: a decisive
        fact in it has been heard, and a cut after it need not say it again."""
        self.played = max(self.played, index + 1)

    def _heard_sentences(self, now: float | None) -> int:
        """How many sentences of the current utterance were heard when it is cut `now`."""
        began = self._began
        if now is not None and began is not None and began[0] == self.played:
            index, at, seconds = began
            if now >= at + seconds - LAST_WORDS_S:
                return index + 1
        return self.played

    def done(self) -> None:
        """The current utterance was said, or cut off."""
        self.current = None
        self._began = None

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


def interrupting(utterance: Utterance) -> Utterance:
    """An utterance said in place of what is being said: a hint that interrupts is meant to be heard, so it is a
    message."""
    return replace(utterance, priority=Priority.MESSAGE) if utterance.priority is Priority.HINT else utterance


def _with_folded(utterance: Utterance, facts: list[str]) -> Utterance:
    """The reply with the facts it does not settle said first, each once (`assistant.core.words.pace`)."""
    facts = [fact for fact in facts if not settled_by(fact, utterance.text)]
    if not facts:
        return utterance
    priority = Priority.IMPORTANT if facts else utterance.priority
    return replace(utterance, text=fold(facts, utterance.text), priority=priority, folded=tuple(facts))


def _unique(facts: list[str]) -> list[str]:
    """The facts in order, each once, a later one settling an earlier one of the same state (a newer turn)."""
    kept: list[str] = []
    for n, fact in enumerate(facts):
        fact = fact.strip()
        later = " ".join(facts[n + 1 :])
        if fact and fact not in kept and not (later and settled_by(fact, later)):
            kept.append(fact)
    return kept


def scale(value: int, low: float, middle: float, high: float) -> float:
    """Map a 0–100 setting onto an engine's range: 0 → low, 50 → middle (the engine's default), 100 → high."""
    value = min(max(value, 0), 100)
    if value <= 50:
        return low + (middle - low) * value / 50
    return middle + (high - middle) * (value - 50) / 50
