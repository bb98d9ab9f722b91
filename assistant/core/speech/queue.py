"""What the speech service says next: priorities, stale replies, the history and mute, with no threads or audio.

The speech service (`assistant/speech/`) keeps one `SpeechQueue` behind a lock and asks it what to say; the rules
live here so they are tested as plain data. Order is never changed: what was given first is said first. The
priorities only decide what may be dropped or shortened:

- `IMPORTANT` (errors, turn changes, "your turn") and `MESSAGE` (answers, card texts) are said in order until the
  player's next key, which drops them, their decisive facts said after its reply;
- `ECHO` (navigation echo, a braille cell typed) keeps only the latest one waiting;
- `HINT` is dropped when anything is being said or waiting.

Every utterance carries what it is about as typed values (`About`: a turn of a seat, a count of seats, a win, a
question, a duty, a move of a seat with its kind and card), and every rule below compares those values: nothing
here reads the words back.

The player's own key (a line typed, a card scanned, a one-key answer; `new_input()`) is answered first: what is being
said is cut off at once and what still waits is dropped, so the new key's reply begins now. What must not be lost is
kept: a decisive fact cut before it was heard in full, or dropped before it began, and the moves other hands made, are
folded into the new reply as short clauses said first (`catch_up`): a win first, then whose turn it is, then the rest in
the order recorded, other hands' moves merged into one sentence a player and a turn ("Ben drew a card and played Rainbow
Aura."; `pace.merge_moves`). A fact the key's reply settles (a newer turn or count, a question it answers, an undo) is
not said at all; a state (a turn, a count, a win) is folded until heard or settled, in its short form ("Ben's turn.",
never the reminder after it again); any other fact at most `FOLDS_AT_MOST` times; a fact cut in its last words counts as
heard.

Replies from other hands (`arrive()`: moves from other players' devices) are said in turn, in the order recorded:
the player's own reply being said or waiting is never cut or dropped by them (only a win is said at its next
sentence), another hand's reply being said ends its sentence (at once when more than `LATE_S` of it is left, what
it told said again short), and an older reply still waiting shrinks to its decisive facts and its move, merged by
player into the newest (the newest too when its player's moves are the last waiting: one sentence a player), so
the player is never more than one reply behind. In one voice, moves that waited `WAIT_S` behind her keys go right
after the reply of the key just pressed (her own words first), and before her next key's reply when that key came
before they were said. Where other hands' moves are held to her pause (`at_pause`), nothing goes before her key's
reply but the last words (`LATE_S`) of a sentence being said: what concerns her goes right after her reply's facts,
which gives way to it. An earcon travels in its utterance (`Utterance.sound`), so it is heard with its words.

Stop (the player's own key) drops everything. Muted, nothing is queued, but what would have been said goes into
the history, so the player can unmute and step back through it.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Iterable
from dataclasses import replace

from assistant.core.game.about import About, MoveKind, Topic, without_questions
from assistant.core.game.segment import Part, Segment, Verbatim
from assistant.core.speech.utterance import Priority, Utterance, ends_sentence
from assistant.core.text import PLAIN, SentenceNames
from assistant.core.text import split_sentences as split_sentences
from assistant.core.words.audience import Audience
from assistant.core.words.pace import catch_up, merge_moves, stops_said
from assistant.core.words.worded import apart_words, segment_words

#: How many utterances the history keeps.
HISTORY_LIMIT = 200


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
#: Seconds another hand's move may wait behind her keys in one voice: at her first key after it has waited this long,
#: the sentence that says it (other hands' moves merged a player a sentence) goes right after that key's reply, which
#: gives way to it after its facts (her words first for the key just pressed); if her next key comes before it was
#: said, it goes before that key's reply, not folded after it once more. Her keys every 1.2 s would otherwise push it
#: on until she stops typing; with this, a move is heard about `WAIT_S` + two gaps between keys after its tap (goal:
#: 10 s).
WAIT_S = 3.0

#: Seconds with no key of hers that make a pause (one voice, moves held to her pause: `SpeechQueue.at_pause`): other
#: hands' moves held while she typed are said then, as one short digest. A player typing in bursts pauses 2 to 5 s
#: between them; her keys inside a burst come well under a second apart (issue 107).
PAUSE_S = 2.0

#: Seconds left of another hand's sentence in its own words above which a newer move cuts it at once (the table
#: voice), when that lets the newer move begin sooner than the sentence's end would (`SpeechQueue._cut_pays`): the
#: move it told is said again first in its short words ("Ben played Neigh."), so the newer one is heard within about
#: a second of its tap rather than after a long sentence's end.
LATE_S = 0.5

#: How many times a decisive fact that tells of no state (a chain's duty, "Chain resolved.") may be folded into a
#: reply while it goes unheard: once, and once more when that fold was cut before its last words; a fact heard is
#: never said again. A state (a turn, a count, a win) is folded until it is heard or a newer one settles it.
FOLDS_AT_MOST = 2


#: What a fact waiting is known by for its wait (`SpeechQueue._held`): its words may change while it waits (an Instant
#: said with what it stopped, `stops_said`), what it is about does not.
Held = tuple[Topic, tuple[int, ...], str, str, int]


def _held(fact: About) -> Held:
    """A fact waiting, known by what it is about (`Held`)."""
    return fact.topic, fact.seats, fact.card, fact.on, fact.at


def _wins(utterance: Utterance) -> bool:
    """It says a win (or a win taken back): said before anything folded."""
    return any(fact.topic is Topic.WIN for fact in utterance.facts)


def _spoken(utterance: Utterance) -> bool:
    """A reply or an announcement (not an echo, a hint or a review): what it tells is never lost."""
    return utterance.priority in (Priority.MESSAGE, Priority.IMPORTANT) and not utterance.review


class SaidHistory:
    """What was given to be said (also while muted, or dropped as stale), to say again and to step back and forward
    through: the speech keys' part of the queue, apart from what waits and what is being said."""

    def __init__(self, limit: int = HISTORY_LIMIT) -> None:
        self.utterances: deque[Utterance] = deque(maxlen=limit)
        """Oldest first, in full; navigation echo and hints that were never said are left out."""
        self._cursor: int | None = None
        """Where stepping through the history is: an index into `utterances`, None when at the newest."""

    def recent(self, count: int) -> list[Utterance]:
        """The last `count` utterances of the history, newest first."""
        return list(reversed(self.utterances))[:count]

    def repeat(self) -> Utterance | None:
        """The last thing said, to say again; None when nothing was said yet."""
        self._cursor = None
        return self._review(len(self.utterances) - 1)

    def back(self) -> Utterance | None:
        """One step back through the history (the first step gives the one before the last); None at the oldest."""
        position = (len(self.utterances) - 1 if self._cursor is None else self._cursor) - 1
        return self._step(position)

    def forward(self) -> Utterance | None:
        """One step forward through the history; None when already at the newest."""
        if self._cursor is None:
            return None
        return self._step(self._cursor + 1)

    def _step(self, position: int) -> Utterance | None:
        if not 0 <= position < len(self.utterances):
            return None
        self._cursor = None if position == len(self.utterances) - 1 else position
        return self._review(position)

    def _review(self, position: int) -> Utterance | None:
        if position < 0:
            return None
        said = self.utterances[position]
        return Utterance(said.text, Priority.MESSAGE, private=said.private, review=True, names=said.names)

    def remember(self, utterance: Utterance) -> None:
        """Keep an utterance in the history, to step back to (one said by another voice too)."""
        if utterance.review or utterance.priority is Priority.ECHO or not utterance.text.strip():
            return  # repeats are already there; single letters typed would bury the sentences
        self.utterances.append(utterance)
        self._cursor = None


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
        self.closes_at: int | None = None
        """The sentence of the current utterance where the table's question it says begins, once another move closed
        that question (`closed_by`): it ends before that sentence."""
        self.carry: list[About] = []
        """Facts cut or dropped at the player's last key, folded into the next reply (`add`)."""
        self.moves: list[About] = []
        """Other hands' moves cut or dropped at the player's last key, said after the next reply (`add`), with
        their facts about other seats than hers (`listener`)."""
        self.listener: int | None = None
        """Her seat (the speech service sets it from the seating): another hand's decisive fact about another seat
        (another's turn or count, a chain's duty or end) waits after her reply with the moves, so her key's own words
        come first; one about her seat, or a win, is folded before them. None: every decisive fact is folded."""
        self._folds: dict[About, int] = {}
        """How many times each fact still unheard was folded (`FOLDS_AT_MOST`)."""
        self._held: dict[Held, float] = {}
        """When each fact of another hand's reply still unheard was given (`arrive(now=...)`): one that waited
        `WAIT_S` goes right after her key's reply, and before the next key's (`new_input`)."""
        self._after: set[Held] = set()
        """Other hands' facts that had waited `WAIT_S` at her last key and were put after its reply: at her next key
        they go before its reply (`new_input`)."""
        self.said = SaidHistory(history_limit)
        """What was given to be said, to repeat and step through (F2, F3, F4)."""
        self.muted = False
        self.at_pause = False
        """One voice with other hands' words held to her pause (the setting `others_at_pause`, set by the speech
        service where there is no table voice): while she types, another hand's move that does not concern her
        (`concerns`) is held (`held`), known at once by its earcon (the service plays it), and its words are said at
        her first pause (`PAUSE_S` with no key: `pause`), so her own words always come first."""
        self.held: list[About] = []
        """Other hands' facts held to her pause (`at_pause`), oldest first: never dropped but by a newer fact that
        settles them, and said at her pause as one digest, other hands' moves merged a player a sentence."""
        self.last_key: float | None = None
        """When her last key came (`new_input(now=...)`), to tell her pause."""
        self._held_names: SentenceNames = PLAIN
        """The game's names, from the replies held, to split the digest's sentences."""
        self._urgent: set[About] = set()
        """The facts and moves of other hands' replies that concerned her when they arrived (`concerns`: the table's
        question was asked with them): never held to her pause, they go right after her reply's facts (it gives way
        to them: `_breaks_in_now`), never before a reply of hers (one that went before her reply once it had waited
        `WAIT_S` and outlasted the gap to her next key had that reply passed by, never heard: issue 107)."""

    @property
    def waiting(self) -> tuple[Utterance, ...]:
        """The utterances waiting, in the order they will be said."""
        return tuple(self._waiting)

    @property
    def busy(self) -> bool:
        """Something is being said or waiting (words held to her pause are not: `held`)."""
        return self.current is not None or bool(self._waiting)

    def holds(self, utterance: Utterance, now: float | None) -> bool:
        """Whether another hand's reply arriving now is held to her pause (`at_pause`): she is typing (a key less
        than `PAUSE_S` ago) and it does not concern her (`concerns`). Its facts and its move are then kept in `held`
        and it is remembered as given; the caller plays its earcon at once."""
        typing = now is not None and self.last_key is not None and now - self.last_key < PAUSE_S
        if not (self.at_pause and typing and utterance.other) or self.muted or concerns(utterance, self.listener):
            return False
        self.said.remember(utterance)
        self.held, self._held_names = _unique([*self.held, *utterance.kept()]), utterance.names
        return True

    def due_at(self) -> float | None:
        """When the words held to her pause are due (`PAUSE_S` after her last key); None when none are held."""
        if not self.held:
            return None
        return (self.last_key or 0.0) + PAUSE_S

    def pause(self, now: float) -> bool:
        """Her pause: when no key came for `PAUSE_S`, the words held (`held`) are queued as one short digest, a
        player a sentence of one turn (without the questions of others held: open only until the next move), the moves
        in the order played (`_by_place`, though one was cut and folded before), after anything being said or
        waiting; return whether they were."""
        due = self.due_at()
        if due is None or now < due:
            return False
        # (another's question held is answered, or asked again by the app, by now: never said late)
        held = _by_place(_unique(without_questions(self.held)))
        held, self.held = self._in_order(held, folded_first=False), []
        self._waiting.append(_catching_up(held, self._held_names))
        return True

    def add(self, utterance: Utterance) -> bool:
        """Queue an utterance at the end; return whether it will be said. A reply (a message or an important one)
        begins with the facts the last key cut (`carry`), those it does not settle."""
        if not utterance.text.strip() and not utterance.sound:
            return False
        if self.muted:
            self.said.remember(utterance)
            return False
        priority = utterance.priority
        if priority is Priority.HINT and self.busy:
            return False
        if priority is Priority.ECHO:  # latest wins: an older echo still waiting is out of date
            self._waiting = deque(u for u in self._waiting if u.priority is not Priority.ECHO)
        self.said.remember(utterance)
        if utterance.review:
            self.carry, self.moves = [], []  # the player is reading back: what was cut is in the history
            self._waiting.append(utterance)
            return True
        if _spoken(utterance):
            self.held = self._unsettled(self.held, utterance)  # (a turn, a count her reply says: heard)
        carry, self.carry = (self._unsettled(self.carry, utterance), []) if _spoken(utterance) else ([], self.carry)
        after, self.moves = self._unsettled(self.moves, utterance) if _spoken(utterance) else [], []
        if _wins(utterance):  # a win first: what it does not settle is said after it
            carry, after = [], [*carry, *after]
        self._waiting.append(_folded_into(utterance, carry))
        if after:  # other hands' moves (and facts of other seats) after her own reply, never before its words
            self._waiting.append(_catching_up(self._in_order(after), utterance.names))
        return True

    def new_input(self, again: bool = True, now: float | None = None) -> Cut:
        """The player's own key (a line typed, a card scanned, a one-key answer): its reply is due now, before
        anything else. What is being said is cut off (`Cut.NOW`, returned), what waits is dropped; the decisive
        facts among them not yet heard in full, and other hands' moves, are folded into the new reply (`add`): not
        a fact already folded too often (`FOLDS_AT_MOST`), nor any of the player's own when `again` is False (the
        key answers the question waiting, or takes back what was said: an undo). `now`: the moment, to tell a fact
        cut in its last words (heard) from one cut before them."""
        facts, others = list(self.carry), list[About]()  # the player's own replies' facts; other hands'
        cut = Cut.NONE
        current = self.current
        due: list[About] = []  # other hands' words that waited `WAIT_S`: after this key's reply, or before it
        kept_on = current is not None and _spoken(current) and self._due(current, now)
        if self.at_pause:  # her own words always first: only the last words of what is said go before them
            kept_on = kept_on and 0.0 < self._left(now) <= LATE_S
        if kept_on and current is not None and self.played >= current.own_from() and self._left(now) > LATE_S:
            cut = Cut.NOW  # a long sentence in its own words: what it told goes first again, short
            due += self._again(current.unheard(self._heard_sentences(now)))
        elif kept_on and current is not None and len(current.split()) > self.played + 1:
            cut = Cut.AFTER_SENTENCE  # its sentence ends; the rest waits after her reply, due at her next key
            others.extend(self._again(current.unheard(self.played + 1)))
        elif current is not None and not kept_on:
            cut = Cut.NOW
            if not current.review:
                (others if current.other else facts).extend(self._again(current.unheard(self._heard_sentences(now))))
        said = len(others)  # (what was being said is older than what waits)
        for utterance in self._waiting:
            if _spoken(utterance) and self._due(utterance, now):
                due += utterance.kept()
            elif _spoken(utterance):
                (others if utterance.other else facts).extend(utterance.kept())  # never begun: not said yet
        said = len(without_questions(others[:said]))
        due, others = without_questions(due), without_questions(others)  # answered by her key, or asked again
        if self.at_pause:  # what concerns her and waited goes after her reply too, which gives way to it
            others, due = [*others[:said], *due, *others[said:]], []
        names = next((u.names for u in (current, *self._waiting) if u is not None and u.other), PLAIN)
        # Her words first for the key just pressed: what waited `WAIT_S` goes right after its reply (`_after`); only
        # what was put after her last key's reply so goes before this one, one sentence (so that her reply begins
        # before her next key), the rest after it, in the order given
        waited = [part for fact in due for part in fact.flat()]
        due = [part for part in waited if _held(part) in self._after]
        waited = [part for part in waited if _held(part) not in self._after]
        if due:
            sentences = merge_moves(stops_said(self._in_order(_unique(due))))
            due, waited = (
                list(sentences[0].flat()),
                [*(part for fact in sentences[1:] for part in fact.flat()), *waited],
            )
        others = [*others[:said], *waited, *others[said:]]
        self._after = {
            _held(part) for part in others if now is not None and now - self._held.get(_held(part), now) >= WAIT_S
        }
        self._waiting = deque([_catching_up(self._in_order(_unique(due)), names)] if due else [])
        others = _unique([*self.moves, *others])
        first = [fact for fact in others if fact.topic is not Topic.MOVE and self._hers(fact)]
        self.moves = [fact for fact in others if fact not in first]  # every one: merged a player a sentence
        facts = [*(facts if again else ()), *first]
        self.carry = self._in_order(_unique(facts))
        self._folds = {fact: n for fact, n in self._folds.items() if fact in self.carry or fact in self.moves}
        saying = current.kept() if cut is Cut.AFTER_SENTENCE and current is not None else []  # (until it ends)
        kept = [*self.moves, *saying, *due]
        parts = {_held(part) for fact in kept for part in fact.flat()}
        self._held = {fact: at for fact, at in self._held.items() if fact in parts}
        self._after &= parts
        if self.at_pause:  # other hands' words wait for her pause, but what concerns her (after her reply)
            self.last_key = now if now is not None else self.last_key
            kept_in_turn = [u for u in self._waiting if not u.other or any(map(self._breaks_in, u.kept()))]
            others_waiting = [fact for u in self._waiting if u not in kept_in_turn for fact in u.kept()]
            self._waiting = deque(kept_in_turn)  # (what concerned her and has waited goes before her reply)
            others = [*self.moves, *others_waiting]
            self.moves = [f for f in others if _concerns(f, self.listener) or self._breaks_in(f)]
            self.held = _unique([*self.held, *(fact for fact in others if fact not in self.moves)])
            live = {
                part for u in (self.current, *self._waiting) if u is not None for f in u.kept() for part in f.flat()
            }
            self._urgent &= live | {part for fact in self.moves for part in fact.flat()}
        return cut

    def _forget_held(self, utterance: Utterance) -> None:
        """Forget when facts were given that can no longer be said again: none of the new utterance, of the one
        being said, of those waiting, nor cut or kept for later."""
        live = [*utterance.kept(), *self.carry, *self.moves]
        for said in (self.current, *self._waiting):
            if said is not None:
                live += said.kept()
        parts = {_held(part) for fact in live for part in fact.flat()}
        self._held = {fact: at for fact, at in self._held.items() if fact in parts}

    def _due(self, utterance: Utterance, now: float | None) -> bool:
        """Another hand's words (a reply, or moves merged after hers) that have waited `WAIT_S` since the oldest
        of their facts was given: her next key does not push them on again (`new_input`)."""
        if now is None or not utterance.other:
            return False
        if self.at_pause and not any(self._breaks_in(fact) for fact in utterance.kept()):
            return False  # (held to her pause instead)
        given = [self._held[key] for fact in utterance.kept() for key in map(_held, fact.flat()) if key in self._held]
        return bool(given) and now - min(given) >= WAIT_S

    def _breaks_in_now(self, utterance: Utterance) -> bool:
        """Another hand's words waiting that concern her, where moves are held to her pause (`at_pause`): her reply
        gives way to them once its facts are said, whatever their wait (`_give_way`), since they never go before a
        reply of hers."""
        return self.at_pause and utterance.other and any(map(self._breaks_in, utterance.kept()))

    def _breaks_in(self, fact: About) -> bool:
        """A fact of another hand's reply that concerned her when it arrived (`_urgent`)."""
        return any(part in self._urgent for part in fact.flat())

    def _hers(self, fact: About) -> bool:
        """Another hand's fact that is said before her reply's words: a win, one about her seat, any when her seat is
        not known."""
        return self.listener is None or fact.topic is Topic.WIN or self.listener in fact.seats

    def _again(self, facts: list[About]) -> list[About]:
        """Of facts not heard, those to say once more: a state (a turn, a count, a win) until it is heard or a newer
        one settles it, and a move of another hand until it is heard (never dropped); any other fact at most
        `FOLDS_AT_MOST` times."""
        kept_on = (Topic.MOVE, *(topic for topic in Topic if topic.is_state))
        return [fact for fact in facts if fact.topic in kept_on or self._folds.get(fact, 0) < FOLDS_AT_MOST]

    def _in_order(self, facts: list[About], folded_first: bool = True) -> list[About]:
        """The facts (in the order recorded) in the order a fold says them: a win, then whose turn it is
        (`About.rank`), with the turn's end that led to it just before it ("Cy ended the turn. Dee's turn."), and
        before that end what happened in the turns it closed, in the order recorded ("Dee ended the turn. Ben drew a
        card and ended the turn. Cy's turn.": never every turn's end gathered before the turn, which merged tells
        two turns as one); then the other facts and the moves together, each move before what it led to (the order
        recorded: a reply keeps its move before its facts); in each rank those already cut in a fold first, unless
        not `folded_first` (a digest at her pause: what happened in order)."""
        ranked = sorted(facts, key=lambda fact: (fact.rank, 0 if folded_first and self._folds.get(fact, 0) else 1))
        turn = next((n for n, fact in enumerate(ranked) if fact.topic is Topic.TURN), None)
        ends = [n for n, fact in enumerate(facts) if any(part.move is MoveKind.END for part in fact.flat())]
        if turn is None or not ends:
            return ranked
        closed = [fact for fact in facts[: ends[-1] + 1] if fact.rank > ranked[turn].rank]
        rest = [fact for fact in ranked if fact not in closed]
        return [*rest[:turn], *closed, *rest[turn:]]

    @staticmethod
    def _unsettled(facts: list[About], newer: Utterance) -> list[About]:
        """The facts a newer reply does not settle (it says them, or a newer state of theirs)."""
        return [fact for fact in facts if not _settled(fact, (*newer.facts, *newer.tells))]

    def arrive(self, utterance: Utterance, now: float | None = None) -> Cut:
        """A reply that did not come from the player's own key (a move from another player's device): said in
        turn, in the order recorded, with no backlog. The player's own reply being said goes on to its end (a win
        is said at its next sentence); another hand's ends with its sentence (`Cut.AFTER_SENTENCE`, returned), or
        at once when its facts and its move are said and the sentence only explains (`Cut.NOW`); a
        reply still waiting shrinks to its decisive facts and its move, merged into the new one, so the player is
        never more than one reply behind. `now`: the moment it was given, from which its wait is counted (one voice:
        `WAIT_S`)."""
        utterance = cause_first(replace(utterance, other=True))
        if self.at_pause and concerns(utterance, self.listener):
            self._urgent |= {part for fact in utterance.kept() for part in fact.flat()}
        if now is not None:
            for fact in utterance.kept():
                for part in fact.flat():
                    self._held.setdefault(_held(part), now)
            self._forget_held(utterance)
        if not self.busy or self.muted or not _spoken(utterance):
            self.add(utterance)
            return Cut.NONE
        facts: list[About] = []  # oldest first: what is being said, then what waits
        cut = Cut.NONE
        current = self.current
        wins = _wins(utterance)
        if current is not None:
            # the table's question it still has to say is no longer open once another move is recorded
            asks = current.asks_from() if _spoken(current) and (utterance.tells or utterance.facts) else None
            if not _spoken(current):
                cut = Cut.NOW
            elif asks is not None and self.played >= asks:  # (her own reply too: its question is closed)
                cut = Cut.NOW
                facts += self._again(current.unheard(self.played))
            elif current.other and self.played >= current.needed():  # what it says after its move only explains
                cut = Cut.NOW
            elif current.other and self.played >= current.own_from() and self._cut_pays(current, now):
                cut = Cut.NOW  # a long sentence in its own words: what it told is said first again, short
                facts += self._again(current.unheard(self._heard_sentences(now)))
            elif wins and not current.other and self._left(now) > LATE_S:  # (one voice: her reply being said)
                cut = Cut.NOW  # a win is heard at once, not after her long sentence; her facts not heard after it
                facts += self._again(current.unheard(self._heard_sentences(now)))
            elif (current.other or current.folded or wins or asks == self.played + 1) and len(
                current.split()
            ) > self.played + 1:
                cut = Cut.AFTER_SENTENCE  # (the sentence being said is heard: its fact is not said again)
                facts += self._again(current.unheard(self.played + 1))
            elif asks is not None:
                self.closes_at = asks  # her reply goes on, and ends before the question this move closed
        facts = [*(without_questions(facts) if utterance.tells or utterance.facts else facts), *self.carry, *self.moves]
        # Her own key's reply not begun yet keeps its place, whole: before the others' words if it was before them
        # (her words first for the key just pressed), after them if it was after (the rest of a reply that gave way).
        before: list[Utterance] = []
        after: list[Utterance] = []
        others_seen = False
        for waiting in self._waiting:
            if _spoken(waiting) and not (waiting.other or wins) and current is not None:
                (after if others_seen else before).append(waiting)
            elif _spoken(waiting):
                others_seen = others_seen or waiting.other
                facts += waiting.kept()
        self._waiting = _without_asking(before) if utterance.tells or utterance.facts else deque(before)
        if utterance.tells or utterance.facts:
            after = list(_without_asking(after))
        self.carry, self.moves = [], []
        folded = self._in_order(self._unsettled(_unique(facts), utterance))
        self._folds = {fact: n for fact, n in self._folds.items() if fact in folded}
        self.said.remember(utterance)
        if wins:  # a win first: what it does not settle is said after it
            self._waiting.extend([utterance, _catching_up(folded, utterance.names)] if folded else [utterance])
        elif _behind(utterance, folded):  # its player's moves wait: one sentence for them all, its own words short
            self._waiting.append(_shrunk(utterance, folded))
        else:
            self._waiting.append(_folded_into(utterance, folded))
        self._waiting.extend(after)
        return cut

    def closed_by(self, utterance: Utterance) -> Cut:
        """Another hand's reply said by the table's own voice (two voices), or held to her pause (one voice), never
        queued here: when it records a move (it tells one, or a decisive fact), the table's question her own replies
        still have to say is no longer open ("Any Neigh for Dee's Neigh?" once that Neigh resolved), known by the
        typed question each of their segments tells (`Utterance.asks_from`), never by its words. A reply waiting
        loses its question; the one being said ends before its question's sentence (`closes_at`), with the sentence
        being said when the question is next (`Cut.AFTER_SENTENCE`), or at once when it is saying it (`Cut.NOW`, its
        facts not yet heard said after her next key's reply, as any cut fact)."""
        if not (utterance.tells or utterance.facts):
            return Cut.NONE
        self._waiting = _without_asking(self._waiting)
        current = self.current
        asks = current.asks_from() if current is not None and _spoken(current) else None
        if current is None or asks is None:
            return Cut.NONE
        if self.played >= asks:
            self.carry += without_questions(self._again(current.unheard(self.played)))
            return Cut.NOW
        self.closes_at = asks
        return Cut.AFTER_SENTENCE if asks == self.played + 1 else Cut.NONE

    def handed_again(self, utterances: list[Utterance]) -> None:
        """Utterances handed to a screen reader that queues what it is given, silenced before it may have said them
        because a table's question before them was closed (`SpeechWorker.reader_closed_by`): queued first again, in
        order, each without the table's question (`_unasked`) and its earcon (heard when it was first handed); the
        one of them being handed is no longer current, so a newer move folds its facts once, as those waiting."""
        again = _without_asking(replace(utterance, sound="") for utterance in utterances)
        self._waiting.extendleft(reversed(again))
        if self.current is not None and any(self.current is handed for handed in utterances):
            self.current, self._began = None, None

    def stop(self) -> bool:
        """The player asked for silence: drop everything waiting, important included; return whether something is
        being said and should be cut off."""
        self._waiting.clear()
        self.carry, self.moves = [], []
        return self.current is not None

    def take(self) -> Utterance | None:
        """The next utterance to say, now current; None when nothing waits."""
        if not self._waiting:
            return None
        self.current = self._waiting.popleft()
        self.played = 0
        self._began = None
        self.closes_at = None
        if self.current.folded:  # its first sentence begins now; a later folded fact counts when it begins
            self._folded(self.current.folded[0])
        return self.current

    def _folded(self, fact: About) -> None:
        """A folded fact began to be said (each move of a merged sentence)."""
        for part in fact.flat():
            self._folds[part] = self._folds.get(part, 0) + 1

    def sentence_began(self, index: int, at: float, seconds: float) -> bool:
        """The current utterance's sentence of that index began to play at `at` and lasts `seconds`: a cut in its
        last words (`LAST_WORDS_S`) counts it as heard. A folded fact counts as folded once its sentence begins (one
        merged into reply after reply in a burst, never begun, was never said). Return whether the utterance ends
        with this sentence (`_give_way`)."""
        self._began = (index, at, seconds)
        current = self.current
        if current is not None and current.folded:
            for fact, (first, _) in zip(current.folded, current.folded_at()):  # (the first counted at `take`)
                if first == index and index > 0:
                    self._folded(fact)
        if self.closes_at is not None and index + 1 >= self.closes_at:
            return True  # the table's question after it was closed by another move: not said
        return self._give_way(index, at + seconds)

    def _give_way(self, index: int, end: float) -> bool:
        """Her own reply ends with its sentence of that index, which ends at `end`, when what is left of it only
        explains (its facts said) and other hands' words waiting behind it will have waited `WAIT_S` by then (one
        voice): a long reply (a Stable, a card's text) never keeps a move waiting more than that. The rest of it
        goes on after them (dropped at her next key, as any reply of hers). Where moves are held to her pause
        (`at_pause`), it gives way so when her pause will have come by then: the digest of what was held goes first,
        then the rest of her reply."""
        current = self.current
        if current is None or current.other or not _spoken(current) or current.review:
            return False
        sentences = current.split()
        if index + 1 < current.needed() or index + 1 >= len(sentences):
            return False
        if not (any(self._due(waiting, end) or self._breaks_in_now(waiting) for waiting in self._waiting)
                or self.pause(end)):  # fmt: skip
            return False
        rest = " ".join(sentences[index + 1 :])
        self._waiting.append(Utterance(rest, current.priority, current.private, names=current.names))
        return True

    def sentence_played(self, index: int) -> None:
        """The current utterance's sentence of that index (of `Utterance.split`) was played to its end: a decisive
        fact in it has been heard, and a cut after it need not say it again."""
        self.played = max(self.played, index + 1)

    def _left(self, now: float | None) -> float:
        """Seconds left of the current utterance's sentence being said `now` (0 when none is known)."""
        began = self._began
        if now is None or began is None or began[0] != self.played:
            return 0.0
        _, at, seconds = began
        return at + seconds - now

    def _cut_pays(self, current: Utterance, now: float | None) -> bool:
        """Whether another hand's sentence being said `now` is cut for a newer move (the table voice): more than
        `LATE_S` of it is left, and the newer move begins sooner so, at the pace of its own rendered sound: cut, what
        it told is said again first, short (`_again`); ended, what is left of it and what its later sentences tell
        are said first ("Dee played Goatsundheit." with 0.6 s left is not cut to be said whole again)."""
        left, began = self._left(now), self._began
        if left <= LATE_S or began is None:
            return False
        index, _, seconds = began
        sentences = current.split()
        words = len(sentences[index].split()) if index < len(sentences) else 0
        if not words:
            return True

        def said(facts: list[About]) -> float:  # seconds to say them again, short
            facts = self._again(facts)
            return seconds * len(catch_up(merge_moves(stops_said(facts)), "").split()) / words if facts else 0.0

        return said(current.unheard(self._heard_sentences(now))) < left + said(current.unheard(index + 1))

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


def concerns(utterance: Utterance, listener: int | None) -> bool:
    """Whether another hand's reply concerns the listener, and so breaks in at once in one voice held to her pause
    (`SpeechQueue.at_pause`): a win; her turn; a card of hers taken (a move whose owner is her seat); a question or a
    warning to her or about her; a duty of hers. Not the table's question to every player ("Any Neigh?"): its move's
    earcon (`pile`, `neigh`) tells her at once, and at a key every 1.2 s its words before her replies cost her own
    words' p90 835 ms and 2 of 98 replies in the benchmark (issue 107). True when her seat is not known."""
    if listener is None:
        return True
    facts = [*utterance.facts, *utterance.tells]
    facts += [fact for segment in utterance.segments for fact in segment.about if fact.topic is Topic.QUESTION]
    return any(_concerns(fact, listener) for fact in facts)


def _concerns(fact: About, listener: int | None) -> bool:
    """Whether one fact (any of the moves merged into it) concerns the listener (`concerns`)."""
    if listener is None:
        return True
    for part in fact.flat():
        if part.topic is Topic.WIN or (part.topic is Topic.MOVE and part.owner == listener):
            return True
        if part.topic in (Topic.TURN, Topic.DUTY) and part.seats[:1] == (listener,):
            return True
        if part.topic in (Topic.QUESTION, Topic.WARNING) and listener in part.seats:
            return True
    return False


def _settled(fact: About, newer: tuple[About, ...] | list[About]) -> bool:
    """Whether newer facts make this one needless to say (`About.settled_by`), except that a turn's end is said
    however fast the next turn came ("Cy ended the turn.": the next turn does not say who ended it, nor that it
    was ended rather than skipped); it is settled only by being said itself."""
    if any(part.topic is Topic.MOVE and part.move is MoveKind.END for part in fact.flat()):
        return all(part in newer for part in fact.flat())
    return fact.settled_by(newer)


def _behind(utterance: Utterance, folded: list[About]) -> bool:
    """Another hand's reply whose player's moves are the last moves still waiting to be said (`folded`): its move
    is merged into their sentence, one sentence for the player's moves in a row. Not when another player moved
    since (Ben, Cy, Ben): moved before Cy's, Ben's later move could be heard before its cause."""
    moves = [fact for fact in utterance.tells if fact.topic is Topic.MOVE]
    waiting = [fact for fact in merge_moves(folded) if fact.topic is Topic.MOVE]
    if not moves or not waiting:
        return False
    return len(merge_moves([waiting[-1], *moves])) == 1


def _shrunk(utterance: Utterance, folded: list[About]) -> Utterance:
    """Another hand's reply said as what it tells, short, merged with what waits: its move in its player's sentence
    with their waiting moves ("Ben drew a card and played Rainbow Aura."), its decisive facts after, in their short
    words, then the table's question it asks, which is open now (the newest state rather than every step)."""
    facts = merge_moves(stops_said(_unique([*folded, *utterance.tells, *utterance.facts])))
    open_ = {fact for segment in utterance.segments for fact in segment.about if fact.topic is Topic.QUESTION}
    open_ -= set(utterance.facts)
    asked = tuple(segment for segment in utterance.segments if segment.channel.spoken and open_ & set(segment.about))
    return replace(utterance, priority=Priority.IMPORTANT, facts=(), tells=(), folded=tuple(facts), segments=asked)


def _by_place(facts: list[About]) -> list[About]:
    """The facts with the moves among them in the order recorded, by their place in the log (`About.at`; a move cut
    and held again comes back after newer ones), each other fact (a count, a turn, a move of no known place) where it
    was."""
    slots = [n for n, fact in enumerate(facts) if fact.topic is Topic.MOVE and fact.at]
    moves = sorted((facts[n] for n in slots), key=lambda fact: fact.at)
    out = list(facts)
    for n, fact in zip(slots, moves, strict=True):
        out[n] = fact
    return out


def _unique(facts: list[About]) -> list[About]:
    """The facts in order (merged moves taken apart again), each once, a later one settling an earlier one
    (`_settled`: as `about.unique`, a turn's end kept; what an Instant stopped kept though it has no words of its
    own: `stops_said` gives it words when it is folded)."""
    flat = [part for fact in facts for part in fact.flat() if part.worded or part.topic is Topic.STOPPED]
    kept: list[About] = []
    for n, fact in enumerate(flat):
        if fact not in kept and not _settled(fact, flat[n + 1 :]):
            kept.append(fact)
    return kept


def cause_first(utterance: Utterance) -> Utterance:
    """Another hand's reply with its move said before what it led to: the decisive facts its words lead with
    (`Part.FACT`: a count, a duty, a turn, the chain's end; never a win) moved after the segment that tells its move
    (or its first words, a resolve: "Ben, from a phone: Surprise Emu Attack, played by Dee, resolves. Dee 0
    Animals."); and a chain's duty of another player than the one whose device sent it said with that player's name
    ("Dee: Destroy one Animal.", `duty_named`), never heard as the sender's; a chain's link that repeats a duty the
    reply says in its own words said without it (`words.worded.apart_words`: "Added to the chain, in place 2:
    Mother Goat entering Cy's Field.", not its card's text before the duty again), so its decisive facts come
    sooner. Its words are made again from the segments in their new order (`Utterance`); unchanged when facts were
    folded into it."""
    segments = list(utterance.segments)
    if not segments or utterance.folded:
        return utterance
    movers = [fact.seats[0] for fact in utterance.tells if fact.topic is Topic.MOVE and fact.seats]
    sender = utterance.hand if utterance.hand is not None else (movers[0] if movers else None)
    facts = list(utterance.facts)
    apart = {fact for segment in segments if segment.channel.spoken and not segment.repeats for fact in segment.about}
    for n, segment in enumerate(segments):
        if segment.repeats and segment.link is not None and set(segment.repeats) <= apart & set(facts):
            segments[n] = replace(
                segment, says=Verbatim(apart_words(segment)), repeats=(), link=None
            )  # (its duty said apart)
    for n, segment in enumerate(segments):
        duty = segment.about[0] if segment.part is Part.FACT and len(segment.about) == 1 else None
        if duty is None or duty.topic is not Topic.DUTY or sender in duty.seats or not duty.player:
            continue  # (a segment of one duty, `Part.FACT`, is that duty in its own words)
        named = replace(duty, named=True)
        segments[n] = replace(segment, says=named, about=(named,))  # (in its own words, named: `duty_named`)
        facts = [named if fact == duty else fact for fact in facts]
    spoken = [n for n, s in enumerate(segments) if s.channel.spoken and segment_words(s, Audience.TABLE)]
    lead = [n for n in spoken if _leads(segments[n])]
    moves = {fact for fact in utterance.tells if fact.topic is Topic.MOVE}
    told = [n for n in spoken if moves & set(segments[n].about) and n not in lead]
    cause = told[0] if told else next((n for n in spoken if lead and n > lead[0] and n not in lead), None)
    moved = [n for n in lead if cause is not None and n < cause]
    if cause is None or not moved:
        return replace(utterance, facts=tuple(facts), segments=tuple(segments))
    after = cause
    while (
        after + 1 < len(segments)
        and not ends_sentence(segment_words(segments[after], Audience.TABLE))
        and after + 1 not in moved
    ):
        after += 1  # (words that end no sentence go on into the next segment)
    order = [n for n in range(len(segments)) if n not in moved]
    at = order.index(after) + 1
    order[at:at] = moved
    kept = tuple(segments[n] for n in order)
    return replace(utterance, facts=tuple(facts), segments=kept)


def _leads(segment: Segment) -> bool:
    """A decisive fact in its own words that a reply leads with, which its move caused (not a win: a game's end
    keeps its own order)."""
    return segment.part is Part.FACT and not any(fact.topic is Topic.WIN for fact in segment.about)


def interrupting(utterance: Utterance) -> Utterance:
    """An utterance said in place of what is being said: a hint that interrupts is meant to be heard, so it is a
    message."""
    return replace(utterance, priority=Priority.MESSAGE) if utterance.priority is Priority.HINT else utterance


def _catching_up(facts: list[About], names: SentenceNames) -> Utterance:
    """Facts said after a reply that comes first (the player's own, a win): other hands' moves merged by player."""
    merged = merge_moves(stops_said(facts))
    return Utterance(priority=Priority.IMPORTANT, folded=tuple(merged), other=True, names=names)


def _without_asking(waiting: Iterable[Utterance]) -> deque[Utterance]:
    """Replies waiting, each without the table's question it says (`_unasked`); one left with nothing to say goes."""
    kept = [_unasked(utterance) for utterance in waiting]
    return deque(utterance for utterance in kept if utterance.text.strip() or utterance.sound)


def _unasked(utterance: Utterance) -> Utterance:
    """A reply without the table's question it says (its segments that tell a `Topic.QUESTION` not among its own
    decisive facts), its words made again from its other segments after the facts folded into it; unchanged when it
    says none."""
    asked = [
        segment
        for segment in utterance.segments
        if any(fact.topic is Topic.QUESTION and fact not in utterance.facts for fact in segment.about)
    ]
    if not asked:
        return utterance
    return replace(utterance, segments=tuple(segment for segment in utterance.segments if segment not in asked))


def _folded_into(utterance: Utterance, facts: list[About]) -> Utterance:
    """A reply with the facts cut before it said first, each once, in its short form, other hands' moves merged by
    player (`assistant.core.words.pace`)."""
    if not facts:
        return utterance
    facts = merge_moves(stops_said(facts))
    return replace(utterance, priority=Priority.IMPORTANT, folded=(*facts, *utterance.folded))


def scale(value: int, low: float, middle: float, high: float) -> float:
    """Map a 0–100 setting onto an engine's range: 0 → low, 50 → middle (the engine's default), 100 → high."""
    value = min(max(value, 0), 100)
    if value <= 50:
        return low + (middle - low) * value / 50
    return middle + (high - middle) * (value - 50) / 50
