"""What a sentence is about, as a typed value: a turn of a seat, a count of seats, a win, a question, a warning, a
duty, a move of a seat with its kind and card; and the values its words are made of (`About.source`: the counts and
the game's creature noun, the turn's number and duties, the game's own fact, what the table waits for, what a
question offers), never the words themselves: each audience's words are made from these by
`assistant.core.words.worded.words_for`.

A reply carries these beside its words (`Reply.facts`, `Reply.tells`), taken from the step's own typed facts when
the words are made (`assistant.core.words.announce.facts_of_step` and `tells_of_step`). The speech queue, the
status line and the digest of what was missed decide what a newer reply supersedes, what is folded, merged or
kept, by comparing these values, never by reading the English back: a name in lower case, of three words or with
accents changes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from assistant.core.cards.card import Card, Vocabulary
from assistant.core.cards.lookup import Resolution
from assistant.core.game.chain import Link
from assistant.core.game.events import Event
from assistant.core.game.facts import Fact
from assistant.core.game.objections import Objection
from assistant.core.game.state import GameState
from assistant.core.game.table import Prompt, Table


class Topic(enum.Enum):
    """What kind of thing a fact tells."""

    WIN = "win"
    """Who won, or that a win was taken back: a state (a newer one supersedes it); outranks every other fact."""
    TURN = "turn"
    """Whose turn it is: a state."""
    COUNT = "count"
    """The counts of some seats: a state per seat."""
    QUESTION = "question"
    """A question waiting for an answer (numbered cards, which Instant): never dropped while it waits."""
    WARNING = "warning"
    """A warning's reason and its question: never dropped while it waits."""
    DUTY = "duty"
    """What a player must do now (a chain's duty, a hand over its limit): done or past once the chain resolves."""
    CHAIN_DONE = "chain-done"
    """The effect chain resolved: it settles every duty before it."""
    MOVE = "move"
    """A move a seat made (its kind and card): an event of its own, superseded by nothing."""
    STOPPED = "stopped"
    """An Instant (a Neigh) resolved and stopped the card under it: `card` the Instant, `owner` and `whose` its
    player, `on` the card stopped with whose it was, `at` the resolve's place in the log. No words of its own (its
    reply says them): a digest says it with the Instant's move (`words.pace.missed`)."""
    UNDO = "undo"
    """An undo took back the event at place `at` of the game's log (`move` "undo"), or a redo put it back ("redo"):
    what that event told is no longer so (`words.pace.missed` leaves it out). No words of its own: its reply says
    them."""

    @property
    def is_state(self) -> bool:
        """A state of the game (a win, a turn, a count): a newer fact of the same state supersedes it."""
        return self in (Topic.WIN, Topic.TURN, Topic.COUNT)


class MoveKind(enum.Enum):
    """The kind of a move (`About.move`): what a seat did, one per kind of event, an Instant told apart as a Neigh or
    another Instant, and the kinds that are no event of their own (an Instant that stopped a card, an undo or a redo,
    several moves said as one). Everything a kind decides (the events it records, whether it is decisive, its
    words, its earcon ...) is its one row of `words.kinds.KINDS`, which a test holds to name every kind."""

    PLAY = "play"
    INSTANT = "instant"
    """An Instant other than a Neigh, played in answer to the card on the pile."""
    NEIGH = "neigh"
    """A Neigh or a Super Neigh."""
    RESOLVE = "resolve"
    BRING = "bring"
    STEAL = "steal"
    DESTROY = "destroy"
    SACRIFICE = "sacrifice"
    SAVE = "save"
    DISCARD = "discard"
    RETURN = "return"
    TO_DISCARD = "to-discard"
    DRAW = "draw"
    TAKE = "take"
    SWAP = "swap"
    """A swap of cards or of whole hands."""
    MOVE = "move"
    NURSERY = "nursery"
    NEXT = "next"
    END = "end"
    """A turn's end."""
    HAND = "hand"
    DECK = "deck"
    DECK_EMPTY = "deck-empty"
    RESHUFFLE = "reshuffle"
    TO_DECK = "to-deck"
    GOAL = "goal"
    CANNOT_WIN = "cannot-win"
    SKIP_TURN = "skip-turn"
    SKIP_PHASE = "skip-phase"
    GIVE = "give"
    BAN = "ban"
    USE = "use"
    STOP = "stop"
    """An Instant that resolved and stopped the card under it (`Topic.STOPPED`; in a digest, said with its move)."""
    UNDO = "undo"
    """An undo of the event at `About.at` (`Topic.UNDO`)."""
    REDO = "redo"
    """A redo of the event at `About.at` (`Topic.UNDO`)."""
    MOVES = "moves"
    """Several moves of one player said as one sentence (`About.parts`)."""


@dataclass(frozen=True)
class RecordAnyway:
    """A warning: an event looks against the rules; record it anyway?"""

    objection: Objection
    """Why, typed (the first of the event's objections, `Game.check`): worded in a few words alike for every
    audience, with the names of the game the fact is of (`About.table`): "Cy has not drawn."
    (`words.rulings.short_objection`)."""


@dataclass(frozen=True)
class SaveInstead:
    """A card about to be destroyed or sacrificed that its owner may save "instead" (Black Knight Unicorn)."""

    player: str
    """The owner asked, by name."""
    card: str
    """The card that may be saved, its name as said."""
    saver: str
    """The card whose save it is, its name as said (sacrificed to save, where `discards` is 0)."""
    discards: int
    """The cards the save discards instead (0: it sacrifices `saver`)."""
    destroyed: bool
    """The card is about to be destroyed (False: sacrificed)."""


@dataclass(frozen=True)
class WhichInstant:
    """Which Instant a player plays, in a deck with no card named Neigh."""

    player: str
    """The player asked, by name."""
    offered: tuple[tuple[int, str], ...]
    """The Instants offered, each its number for the whole game and its name."""


@dataclass(frozen=True)
class WhichCard:
    """Which of several cards a phrase of a command means."""

    player: str
    """The player asked, by name (the one the command names first, else whose turn it is)."""
    query: str
    """The phrase said for the card, as typed."""
    offered: tuple[str, ...]
    """The cards offered, numbered from 1, each named as offered (by what tells two of one name apart)."""


@dataclass(frozen=True)
class NewPhone:
    """A phone asks to join the table as a player."""

    player: str
    """The player it asks to record for, by name."""
    tag: str = ""
    """The phone's short name, as it gave it ("" for none)."""
    rivals: tuple[str, ...] = ()
    """The short names of the other phones that wait to join as that player."""


#: What a question or a warning asks, typed (`About.asked`): each worded for an audience by `words.worded.words_for`
#: (a narrow braille display leads with who is asked, or with the question).
Asked = RecordAnyway | SaveInstead | WhichInstant | WhichCard | NewPhone


@dataclass(frozen=True)
class CardsFound:
    """The cards a search found, offered by number (a digit reads one)."""

    query: str
    """The words searched for, as typed."""
    found: tuple[Card, ...]
    """Every card found, in the order offered."""


@dataclass(frozen=True)
class CardMeant:
    """Which of the cards close to a looked-up phrase is meant."""

    resolution: Resolution
    """The look-up's outcome: the phrase and the cards close to it."""
    vocabulary: Vocabulary
    """The game's words for its kinds of card."""
    titles: tuple[tuple[str, str], ...] = ()
    """Each deck's title by its id (cards of one name are told apart by their deck)."""


@dataclass(frozen=True)
class KeepWords:
    """Keep a code's words for a card learnt by its name alone?"""

    name: str
    """The card's name."""
    text: str
    """The code's words for it."""


@dataclass(frozen=True)
class ReplaceWords:
    """A code gives a deck's card other words: its deck's words, and the deliberate answer that takes the code's."""

    name: str
    """The card's name."""
    deck_text: str
    """The deck's words for it."""


@dataclass(frozen=True)
class YesNotEnough:
    """A yes to `ReplaceWords`: nothing is replaced; the deliberate answer still waits."""

    name: str
    """The card's name."""


@dataclass(frozen=True)
class CardTypeAsked:
    """Which type a scanned card new to the deck is."""


@dataclass(frozen=True)
class NewCardOffered:
    """A scanned card the deck does not have: add it?"""

    name: str
    """The card's name, as scanned."""
    kind: str
    """Its type's name in the game's words ("" when its words name none)."""
    text: str
    """Its words, as scanned ("" for a code that holds its name alone)."""


@dataclass(frozen=True)
class ResumeOffered:
    """At start: continue the saved game?"""

    players: tuple[str, ...]
    """Its players, by name."""


@dataclass(frozen=True)
class NewGameAsked:
    """A new game asked for while one is in progress: start it (the other stays saved)?"""


#: What a question of the app's own asks (a look-up, a scan, a saved game), typed (`About.source`): worded alike for
#: every audience by `words.worded.words_for`.
Offered = (
    CardsFound
    | CardMeant
    | KeepWords
    | ReplaceWords
    | YesNotEnough
    | CardTypeAsked
    | NewCardOffered
    | ResumeOffered
    | NewGameAsked
)


@dataclass(frozen=True)
class Counted:
    """Counts of seats, as values: each seat's player by name and count, in the order of `About.seats`, and the
    game's creature noun; said short, one seat ("Ana 2 Unicorns."), or with `has`, all in one sentence, as an undo
    or a redo changed them ("Ana has 2 Unicorns and Ben has 1 Unicorn.")."""

    names: tuple[str, ...]
    counts: tuple[int, ...]
    noun: str
    """The game's creature noun, singular ("Unicorn", "Animal")."""
    has: bool = False


@dataclass(frozen=True)
class TurnOf:
    """A turn that began: its number and the chain's links of its beginning-of-turn duties (its brief words: "Ben's
    turn: may use the Blue Herd Bonus.")."""

    turn: int
    duties: tuple[Link, ...] = ()


@dataclass(frozen=True)
class DutyOf:
    """A link of the effect chain, whose deed its player must do now ("Destroy a Unicorn.")."""

    link: Link


@dataclass(frozen=True)
class WinTakenBack:
    """An undo took the game's end back."""


@dataclass(frozen=True)
class StopAlone:
    """What an Instant stopped, said on its own (its move not among the facts said with it): "Cy's Neigh stopped
    Ben's Basic Unicorn (Blue).". A fact of `Topic.STOPPED` without it has no words of its own."""


@dataclass(frozen=True)
class Merged:
    """Several moves of one player said as one sentence (`About.parts`); `answered`: each Instant with the card it
    answered (in a digest, where the move it answered may be far before); `it`: the card its first move stopped is
    the one the sentence just before played last, so it is said "it" ("Ben played Basic Llama. Cy stopped it with
    Spit Happens.": the digest names no card twice in a row, `words.pace.missed`)."""

    answered: bool = False
    it: bool = False


class PromptForm(enum.Enum):
    """How what the table waits for is asked (`Waiting`)."""

    PHRASED = "phrased"
    """In full at its level (`words.announce.phrase_prompt`)."""
    THEN_RESOLVE = "then-resolve"
    """A link of the chain just read: how to go on alone."""
    WHEN_DONE = "when-done"
    """A link read before: when to say resolve."""
    ANSWER = "answer"
    """The card on the pile just named: the short question ("Neigh?")."""


@dataclass(frozen=True)
class Waiting:
    """What the table waits for now, as asked: the prompt, how it is asked and at which level (`brief`, the facts
    alone; `coached`, with how to say it; neither: normal)."""

    prompt: Prompt
    form: PromptForm = PromptForm.PHRASED
    brief: bool = False
    coached: bool = True


#: The values a fact's words are made of beside its seats, player, kind, card and event (`About.source`).
Source = Fact | Counted | TurnOf | DutyOf | WinTakenBack | StopAlone | Merged | Waiting | Offered


#: A state a fact tells: (WIN, None), (TURN, None) or (COUNT, seat).
State = tuple[Topic, int | None]

#: The order a fold says its facts in (lower first): a win, then whose turn it is, then the other facts the player
#: acts on and other hands' moves together (2: each move before what it led to); each group in the order recorded.
RANKS: dict[Topic, int] = {Topic.WIN: 0, Topic.TURN: 1}


@dataclass(frozen=True)
class About:
    """One fact: what it is about and the values its words are made of (worded for each audience by
    `words.worded.words_for`; for the table short, about a second: "Ben's turn.", "Ana 2 Unicorns.", "Ana wins!"; a
    move's never say how to say the next move: they are said again folded, in a digest and on the phones, where that
    is no help, and the laptop's line of the move says it, `words.announce.announce_said`)."""

    topic: Topic
    seats: tuple[int, ...] = ()
    """The seats it is about: the player whose turn, whose counts, who won, who moved."""
    player: str = ""
    """The name of the (first) seat, as said: a merged sentence names the player."""
    move: MoveKind | None = None
    """For a move, its kind (`MoveKind`); for an Instant that stopped a card, `MoveKind.STOP`; for an undo, `UNDO` or
    `REDO`; None for no move."""
    card: str = ""
    """For a move, the card's name as said ("" for none)."""
    owner: int | None = None
    """For a move that takes a card from a Stable (destroy, steal, sacrifice, return), whose card it was."""
    whose: str = ""
    """The name of that owner, as said ("" for none)."""
    on: str = ""
    """For an Instant (a Neigh), the card it answered with whose it is, as said: "Ben's Basic Unicorn (Blue)"."""
    at: int = 0
    """For a move, its place in the game's log (1 for the first event): two moves alike are two moves. For an undo,
    the place it took back or put back; for a fact a move led to, that move's place where it was kept with it
    (`words.pace.placed`); 0: none known."""
    turn: int = field(default=0, compare=False)
    """For a move, the number of the turn it was made in (`GameState.turn` before it; a turn's end is of the turn it
    ends): moves of two turns are never said as one sentence (`words.pace.merge_moves`); 0: not known. Left out of a
    comparison: its place `at` tells a move apart."""
    parts: tuple[About, ...] = ()
    """For several moves of one player in one turn said as one sentence (`words.pace.merge_moves`), those moves."""
    event: Event | None = field(default=None, compare=False)
    """For a move, the event it recorded, as recorded: what its player's own phone words it from ("You drew a card.",
    `words.worded.words_for`); None for no move, or a move said as several. Left out of a comparison: the move's
    other values (its kind, card, owner and place) tell it apart."""
    stopped: tuple[int, str] | None = None
    """For an Instant that stopped a card (`Topic.STOPPED`, or its move made `MoveKind.STOP`), the card it stopped:
    its player's seat and its name as said; None otherwise. A digest of a busy round says the stop, not the play."""
    asked: Asked | None = None
    """For a question or a warning, what it asks, typed (`Asked`): a narrow braille display leads with who is asked,
    or with the question ("Ben: new phone. Let it in?", "Record? Cy has not drawn.", `words.worded.words_for`);
    None: no question of its own there."""
    source: Source | None = None
    """The values its words are made of beside the fields above (`Source`): the game's own fact (a win, a count that
    waits, a duty a card lays, the chain's end), the counts, the turn, a chain's duty, what the table waits for, what
    a question of the app's own offers; None where the fields above say it all (a move, its event)."""
    named: bool = False
    """A duty said with the name of the player whose card it is ("Dee: Destroy one Animal."), in another player's
    reply."""
    table: Table | None = field(default=None, compare=False, repr=False)
    """The game it is of, whose names and terms its words are made with (None: a fact of no game's). Left out of a
    comparison, as `state`: the values above tell two facts apart."""
    state: GameState | None = field(default=None, compare=False, repr=False)
    """The state its words name the cards in: before a move; after the step, for the game's own fact."""

    @property
    def worded(self) -> bool:
        """It has words of its own: not an undo, nor what an Instant stopped unless said on its own (`StopAlone`)."""
        if self.topic is Topic.STOPPED:
            return isinstance(self.source, StopAlone)
        return self.topic is not Topic.UNDO

    def flat(self) -> tuple[About, ...]:
        """The facts it stands for: the moves merged into it, or itself."""
        return self.parts or (self,)

    @property
    def states(self) -> frozenset[State]:
        """The states it tells: (WIN, None), (TURN, None), (COUNT, seat) for each seat; empty for an event."""
        if self.topic is Topic.COUNT:
            return frozenset((Topic.COUNT, seat) for seat in self.seats)
        if self.topic in (Topic.WIN, Topic.TURN):
            return frozenset({(self.topic, None)})
        return frozenset()

    @property
    def rank(self) -> int:
        """Where a fold says it (`RANKS`): a win first, then a turn, then the other facts and the moves together."""
        return RANKS.get(self.topic, 2)

    def settled_by(self, newer: Iterable[About]) -> bool:
        """Whether newer facts make this one needless to say: the same fact; a newer one of every state it tells (a
        newer turn, a newer count of the same seats, a win; a turn is moot once someone won, and said by its own
        player's draw); a turn's end once a newer turn began; a duty (a reminder: "May sacrifice this card.") once
        the chain resolved, or once its player made a move (`done_by`): never said after what it reminds of."""
        newer = tuple(newer)
        if self.parts:
            return all(part.settled_by(newer) for part in self.parts)
        if self in newer:
            return True
        states = self.states
        if states:
            told = frozenset().union(*(fact.states for fact in newer))
            if states <= told:
                return True
            if self.topic is not Topic.TURN:
                return False
            # a turn is moot once someone won; and said when its own player's draw is ("Ben drew a card.")
            return any(
                (fact.topic is Topic.WIN and fact.seats) or (fact.move is MoveKind.DRAW and fact.seats == self.seats)
                for fact in newer
            )
        if self.topic is Topic.MOVE and self.move is MoveKind.END:  # a newer turn says the turn ended
            return any(fact.topic is Topic.TURN for fact in newer)
        return self.topic is Topic.DUTY and any(fact.topic is Topic.CHAIN_DONE or self.done_by(fact) for fact in newer)

    def done_by(self, fact: About) -> bool:
        """Whether a duty is done or passed by a newer fact: a move of its player (the first of its seats; every
        merged move counted) recorded after it (not the move it came with, when its place is known); False for any
        fact but a duty. The speech queue drops a reminder waiting so (`settled_by`), and `missed` leaves it out of
        a digest (`words.pace`)."""
        if self.topic is not Topic.DUTY or not self.seats:
            return False
        return any(
            part.topic is Topic.MOVE and part.seats[:1] == self.seats[:1] and not (self.at and part.at <= self.at)
            for part in fact.flat()
        )


def without_questions(facts: Iterable[About]) -> list[About]:
    """The facts without the questions of other hands (a phone's join question, "Any Neigh for Ben's Neigh?"): such a
    question is open only until the next move is recorded or her next key, which answers it (a question still open
    the app asks again itself, after her key's reply), so it is never said again after either."""
    return [fact for fact in facts if fact.topic is not Topic.QUESTION]


def unique(facts: Iterable[About]) -> list[About]:
    """The facts in order (moves merged into one sentence taken apart again), each once, a later one settling an
    earlier one of the same state (a newer turn)."""
    facts = [part for fact in facts for part in fact.flat() if part.worded]
    kept: list[About] = []
    for n, fact in enumerate(facts):
        if fact not in kept and not fact.settled_by(facts[n + 1 :]):
            kept.append(fact)
    return kept
