"""A game: its table and its history of events, checked, applied, undone and redone.

Like a chess board with its move stack: `Game.push(event)` applies an event and keeps the state before it, `pop()`
undoes it, `redo()` puts it back. A game is its `Setup` plus its list of events; a save is that list, and loading
replays it through `push`, the code that applied it live. `Table.check` says what looks against the rules
(the table decides whether to record it anyway); `Table.apply` trusts and never refuses a well-formed event.
Each step also returns `facts` — what happened beyond the event itself (a card Neighed, a link added, the tally
changed, a winner) — from which `assistant/core/words/` makes the sentences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from assistant.core.cards.card import CardSet
from assistant.core.game.checks import check
from assistant.core.game.events import Event, EventError, event_from_dict
from assistant.core.game.facts import (
    CardMustGo,
    CardTravelled,
    DeckRanOut,
    Fact,
    GameOver,
    InstantsBannedNow,
    LimitReached,
    TurnBegan,
    TurnEndsNow,
    TurnSkipped,
    WinBarred,
    WinWaits,
)
from assistant.core.game.moves import apply
from assistant.core.game.objections import Objection
from assistant.core.game.rules import Rules
from assistant.core.game.setup import Setup
from assistant.core.game.state import GameState
from assistant.core.game.table import Table


@dataclass(frozen=True)
class Step:
    """One event applied (or undone): the states on each side and what happened."""

    event: Event
    before: GameState
    after: GameState
    facts: tuple[Fact, ...] = ()

    @property
    def important(self) -> bool:
        """Turn changes, a win waiting, won or barred, the deck running out, a Stable's limit biting: speech never
        drops these."""
        kinds = (
            TurnBegan,
            GameOver,
            WinWaits,
            WinBarred,
            DeckRanOut,
            LimitReached,
            CardMustGo,
            TurnSkipped,
            CardTravelled,
            InstantsBannedNow,
            TurnEndsNow,
        )
        return any(isinstance(f, kinds) for f in self.facts)


@dataclass(frozen=True)
class Recorded:
    """What one reply recorded, undid or redid, as values: the steps, where they are in the log, and who made a
    phone's move; each front end words it for its audience itself (the phones: `words.recorded.recorded_lines`)."""

    steps: tuple[Step, ...]
    """The steps applied, undone or redone, in the order they were."""
    at: int = 0
    """The log's length after a step recorded (its move's place, `About.at`); 0 for an undo or a redo."""
    back: Literal["", "undo", "redo"] = ""
    """"undo" or "redo" for steps taken back or put back; "": a step recorded."""
    by: str = ""
    """The player a phone's move is attributed to at the start of its words on the other phones ("Ben: ...",
    `words.share.by_player`): its words do not name its player (a resolve, a turn ended); "": none."""
    ended_turn: bool = False
    """The phone's move attributed was the end of its player's turn ("Ben ended the turn. ...")."""


class NothingToUndoError(LookupError):
    """Undo with no event left, or redo with nothing undone."""


@dataclass(frozen=True)
class Phone:
    """The device an event was recorded from (a phone on the shared table): its player's seat, and which of that
    player's phones it was (1: the first to join)."""

    seat: int
    number: int = 1


class Game:
    """A table and its history: the states after each event, the log, and what undo has set aside for redo.

    The core's main entry, used as a chess board is (the decks are read by the storage adapter, as in the app; this
    example is run by tests/core/test_core_api.py):

    >>> from assistant.core.game.events import Draw, Play, Resolve
    >>> from assistant.core.game.setup import Setup
    >>> from assistant.storage.decks import load_card_set
    >>> babies = ("baby-unicorn-red", "baby-unicorn-pink")
    >>> game = Game.new(Setup(("Ana", "Ben"), "uu-current", babies=babies), load_card_set("uu-2nd"))
    >>> game.state.turn, game.state.current, game.state.phase.value
    (1, 0, 'beginning')
    >>> game.push(Draw(0)).facts  # Ana draws: her Draw phase passes and her Action phase begins
    (PhaseBegan(player=0, phase=<Phase.DRAW: 'draw'>), PhaseBegan(player=0, phase=<Phase.ACTION: 'action'>))
    >>> game.check(Play(1, "rainbow-aura"))  # Ben would play on Ana's turn: an objection, never a refusal
    (NotYourTurn(player=1, current=0),)
    >>> game.push(Play(0, "basic-unicorn-red")).facts  # the card waits on the pile for an Instant
    (PileOpened(top=PileCard(player=0, card='basic-unicorn-red', into=0, targets=())),)
    >>> game.push(Resolve()).facts[-1]  # no Neigh: it enters Ana's Stable and the count changes
    TallyChanged(before=(1, 1), after=(2, 1))
    >>> game.pop().event, game.state.players[0].stable  # undo
    (Resolve(), ('baby-unicorn-red',))
    >>> game.redo().event, game.state.players[0].stable
    (Resolve(), ('baby-unicorn-red', 'basic-unicorn-red'))
    """

    def __init__(self, table: Table):
        self.table = table
        self._states: list[GameState] = [table.initial_state()]
        self.log: list[Event] = []
        """The events in effect, oldest first."""
        self.undone: list[Event] = []
        """Events undone, the most recently undone last; redo takes from the end."""
        self._phones: dict[int, tuple[Event, Phone]] = {}
        """The phone each event recorded from one was made on, by the event's identity (the event is held, so its
        identity is never another's; an event undone and redone is the same object)."""

    @classmethod
    def new(cls, setup: Setup, cards: CardSet, rules: Rules | None = None) -> Game:
        """A game at its first turn; `SetupError` when the setup cannot start one."""
        return cls(Table.create(setup, cards, rules))

    @property
    def state(self) -> GameState:
        """The current position."""
        return self._states[-1]

    @property
    def setup(self) -> Setup:
        """The game's setup."""
        return self.table.setup

    def state_before(self, index: int) -> GameState:
        """The state event number `index` (from 0) of the log was applied to."""
        return self._states[index]

    def check(self, event: Event) -> tuple[Objection, ...]:
        """What about the event looks against the rules now."""
        return check(self.table, self.state, event)

    def push(self, event: Event, phone: Phone | None = None) -> Step:
        """Apply an event (trusted: call `check` first) and forget anything undone; `phone`: the device it was
        recorded from (None: the laptop)."""
        step = self._apply(event)
        self.undone.clear()
        if phone is not None:
            self._phones[id(event)] = (event, phone)
        return step

    def phone_of(self, event: Event) -> Phone | None:
        """The phone an event of this game was recorded from, or None (the laptop)."""
        found = self._phones.get(id(event))
        return found[1] if found is not None and found[0] is event else None

    def _apply(self, event: Event) -> Step:
        before = self.state
        after, facts = apply(self.table, before, event)
        self._states.append(after)
        self.log.append(event)
        return Step(event, before, after, facts)

    def pop(self) -> Step:
        """Undo the last event; `NothingToUndoError` when there is none."""
        if not self.log:
            raise NothingToUndoError("nothing to undo")
        event = self.log.pop()
        before = self._states.pop()
        self.undone.append(event)
        return Step(event, before, self.state)

    def redo(self) -> Step:
        """Apply again the event undone last; `NothingToUndoError` when nothing was undone."""
        if not self.undone:
            raise NothingToUndoError("nothing to redo")
        return self._apply(self.undone.pop())

    def undo(self, count: int) -> list[Step]:
        """Undo the last `count` events, all or none: `NothingToUndoError` when there are fewer."""
        if count > len(self.log):
            raise NothingToUndoError(f"only {len(self.log)} events to undo")
        return [self.pop() for _ in range(count)]

    def redo_many(self, count: int) -> list[Step]:
        """Redo the last `count` undone events, all or none: `NothingToUndoError` when there are fewer."""
        if count > len(self.undone):
            raise NothingToUndoError(f"only {len(self.undone)} events to redo")
        return [self.redo() for _ in range(count)]

    def to_dict(self) -> dict[str, Any]:
        """The whole game as plain values for `state --json`."""
        table = self.table
        state = self.state
        return {
            "setup": self.setup.to_dict(),
            "rules": {"id": table.profile.id, "title": table.profile.title, "rulebook": table.profile.rulebook},
            "state": state.to_dict(),
            "tally": list(table.tally(state)),
            "events": [event.to_dict() for event in self.log],
            "undone": [event.to_dict() for event in self.undone],
        }


#: The most events one undo or redo record takes back.
MAX_UNDO = 10_000
#: The highest number a player's phone is saved with (far above the devices a table takes at once).
MAX_PHONES = 1_000


@dataclass(frozen=True)
class Record:
    """One line of a save after the setup: an event, or an undo or redo of `count` events, written as one line
    so that a process killed in the middle of "undo all" resumes before or after it, never between."""

    kind: str
    """"event", "undo" or "redo"."""
    event: Event | None = None
    count: int = 1
    """Undo and redo: how many events."""
    phone: Phone | None = None
    """An event recorded from a phone: which (saved as the event's `phone` field; a save without it is the
    laptop's)."""


def read_record(data: object, table: Table) -> Record:
    """A save line's content as a record; `EventError` when it is malformed or names what is not in the game."""
    if isinstance(data, dict) and data.get("e") in ("undo", "redo") and set(data) <= {"e", "n"}:
        count = data.get("n", 1)
        # any count the writer may write (`undo all` of 20,000 events is one record); more than the game holds
        # is refused by `replay`, on its line
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise EventError(f"{count!r} is not a number of events")
        return Record(str(data["e"]), count=count)
    players = len(table.setup.players)
    phone = None
    if isinstance(data, dict) and "phone" in data:
        data = dict(data)
        phone = _read_phone(data.pop("phone"), players)
    return Record("event", event_from_dict(data, players, table.cards.by_id), phone=phone)


def _read_phone(data: object, players: int) -> Phone:
    """A saved event's `phone` field; `EventError` when it is not a seat of the game and a phone's number."""
    if isinstance(data, dict) and set(data) == {"seat", "n"}:
        seat, number = data["seat"], data["n"]
        if _whole(seat) and _whole(number) and 0 <= seat < players and 1 <= number <= MAX_PHONES:
            return Phone(seat, number)
    raise EventError(f"phone: {data!r} is not a seat of this game and a phone's number")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def record_to_dict(record: Record) -> dict[str, Any]:
    """A record in its save form."""
    if record.event is not None:
        saved = record.event.to_dict()
        if record.phone is not None:
            saved["phone"] = {"seat": record.phone.seat, "n": record.phone.number}
        return saved
    return {"e": record.kind} if record.count == 1 else {"e": record.kind, "n": record.count}


def replay(game: Game, record: Record) -> list[Step]:
    """Apply one saved record to a game, through the same `push`, `pop` and `redo` a live game uses; an undo or
    redo of more events than there are changes nothing and raises `NothingToUndoError`."""
    if record.kind in ("undo", "redo"):
        return game.undo(record.count) if record.kind == "undo" else game.redo_many(record.count)
    if record.event is None:  # a record made by hand, neither an undo, a redo nor an event
        raise EventError(f"a {record.kind!r} record with no event")
    return [game.push(record.event, record.phone)]
