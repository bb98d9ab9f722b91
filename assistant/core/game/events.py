"""Game events: everything that can happen at the table, as frozen values, and their form in a save.

An event says what the table did, never whether it was allowed: `game.check` finds what looks against the rules
and `game.apply` trusts. Players are seat numbers (0 is the first name given), cards are card ids. A save holds
`to_dict()` of each event; `event_from_dict` reads it back and rejects anything malformed, with the same
`EventError` whether the event comes from a file or from a live command.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Container
from dataclasses import dataclass
from typing import Any, ClassVar

#: The most cards one event may draw, set, or count: far beyond any real deck, so a damaged save is caught.
MAX_COUNT = 500


class Phase(enum.Enum):
    """The four phases of a turn, in order."""

    BEGINNING = "beginning"
    DRAW = "draw"
    ACTION = "action"
    END = "end"

    @property
    def next(self) -> Phase | None:
        """The phase after this one, or None after the End of turn phase."""
        index = _PHASE_ORDER[self]
        return _PHASES[index + 1] if index + 1 < len(_PHASES) else None

    @property
    def after(self) -> Phase:
        """The phase after this one within a turn (the End of turn phase is the last)."""
        return self.next or self

    def __lt__(self, other: Phase) -> bool:
        return _PHASE_ORDER[self] < _PHASE_ORDER[other]


_PHASES = tuple(Phase)
_PHASE_ORDER = {phase: index for index, phase in enumerate(_PHASES)}


class Source(enum.Enum):
    """Where a card comes from when it is brought or taken."""

    HAND = "hand"
    DECK = "deck"
    DISCARD = "discard"
    NURSERY = "nursery"


class EventError(ValueError):
    """An event that cannot be applied at all: a seat, card or count that does not exist, or a damaged record."""


@dataclass(frozen=True)
class Event:
    """Base of every event; `KIND` names it in a save."""

    KIND: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The event as a plain dictionary for the save file."""
        out: dict[str, Any] = {"e": self.KIND}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else value
        return out


@dataclass(frozen=True)
class Play(Event):
    """A player plays a card from their hand (or, when a card's effect says so, from the deck or the discard pile):
    it goes on the Instant pile until it resolves."""

    KIND: ClassVar[str] = "play"
    player: int
    card: str
    into: int | None = None
    """The Stable a Unicorn, Upgrade or Downgrade goes into; None for Magic and Instant cards."""
    source: Source = Source.HAND
    """Where the card is played from: the hand, or the deck or the discard pile (Dragon Kiss)."""
    targets: tuple[int, ...] = ()
    """The players the card's effect aims at, as its player declared them at the play (002, targeting "Option 1:
    declare which player(s) you are targeting": `play unicorn poison targeting Ben`, `play prismatic bray targeting
    Ben and Cy`); empty when none was declared."""

    def to_dict(self) -> dict[str, Any]:
        """As every event's, its targets saved as `target`: none declared, no `target` (a save written before
        targets existed reads the same); one, its seat (as every save with a target was written); several, a list."""
        out = super().to_dict()
        targets = out.pop("targets")
        if targets:
            out["target"] = targets[0] if len(targets) == 1 else list(targets)
        return out


@dataclass(frozen=True)
class Respond(Event):
    """A player answers the top card of the Instant pile with an Instant card (a Neigh)."""

    KIND: ClassVar[str] = "respond"
    player: int
    card: str


@dataclass(frozen=True)
class Resolve(Event):
    """The table goes on: the top card of the Instant pile resolves, or else the first link of the chain."""

    KIND: ClassVar[str] = "resolve"


@dataclass(frozen=True)
class Bring(Event):
    """A card is brought directly into a Stable (not played, so it cannot be Neighed)."""

    KIND: ClassVar[str] = "bring"
    player: int
    card: str
    into: int
    source: Source = Source.HAND


@dataclass(frozen=True)
class Steal(Event):
    """A player moves a card from another player's Stable into their own."""

    KIND: ClassVar[str] = "steal"
    player: int
    card: str
    owner: int


@dataclass(frozen=True)
class Destroy(Event):
    """A player sends a card from another player's Stable to the discard pile."""

    KIND: ClassVar[str] = "destroy"
    player: int
    card: str
    owner: int


@dataclass(frozen=True)
class Sacrifice(Event):
    """A player sends a card from their own Stable to the discard pile."""

    KIND: ClassVar[str] = "sacrifice"
    player: int
    card: str


@dataclass(frozen=True)
class Save(Event):
    """A card about to be destroyed or sacrificed stays in its owner's Stable: its owner uses a card that saves it
    "instead" (`other_card`: Black Knight Unicorn is sacrificed; Unicorn Phoenix's owner discards a card), in place of
    the destroy or sacrifice."""

    KIND: ClassVar[str] = "save"
    player: int
    card: str
    other_card: str


@dataclass(frozen=True)
class Discard(Event):
    """A player discards from their hand; `card` is None when the table did not name it."""

    KIND: ClassVar[str] = "discard"
    player: int
    card: str | None = None
    count: int = 1
    """How many cards, unnamed (`discard 3`: Unicorn of Pestilence); a named card is one."""
    whole: bool = False
    """The whole hand, however many cards it holds (`discard hand`: Hoofin' It, Woolly Rammoth)."""

    def to_dict(self) -> dict[str, Any]:
        """As every event's, without `count` and `whole` when the discard is one card (so a one-card discard is
        saved as it always was)."""
        out = super().to_dict()
        if out["count"] == 1:
            del out["count"]
        if not out["whole"]:
            del out["whole"]
        return out


@dataclass(frozen=True)
class ReturnToHand(Event):
    """A card goes from a Stable back to its owner's hand."""

    KIND: ClassVar[str] = "return"
    player: int
    card: str
    owner: int


@dataclass(frozen=True)
class ToDiscard(Event):
    """A card goes from a Stable straight to the discard pile by a card's effect that neither destroys nor
    sacrifices it (Unicorn Shrinkray: "goes to the discard pile"); a Baby goes back to the Nursery."""

    KIND: ClassVar[str] = "to-discard"
    player: int
    card: str
    owner: int


@dataclass(frozen=True)
class Draw(Event):
    """A player draws cards from the deck."""

    KIND: ClassVar[str] = "draw"
    player: int
    count: int = 1


@dataclass(frozen=True)
class Take(Event):
    """A player searches the deck or the discard pile and takes a card into their hand."""

    KIND: ClassVar[str] = "take"
    player: int
    card: str
    source: Source = Source.DECK


@dataclass(frozen=True)
class Swap(Event):
    """Two cards in two Stables change places."""

    KIND: ClassVar[str] = "swap"
    player: int
    card: str
    owner: int
    other_card: str
    other_owner: int


@dataclass(frozen=True)
class SwapHands(Event):
    """Two players exchange their hands."""

    KIND: ClassVar[str] = "swap-hands"
    player: int
    other: int


@dataclass(frozen=True)
class Move(Event):
    """A card moves from one Stable to another (an Upgrade or Downgrade moved by a card's effect)."""

    KIND: ClassVar[str] = "move"
    player: int
    card: str
    owner: int
    into: int


@dataclass(frozen=True)
class ToNursery(Event):
    """A Baby goes from a Stable back to the Nursery."""

    KIND: ClassVar[str] = "nursery"
    player: int
    card: str
    owner: int


@dataclass(frozen=True)
class NextPhase(Event):
    """The current phase ends and the next begins; `skip` when a card's effect skipped the phase."""

    KIND: ClassVar[str] = "next"
    skip: bool = False


@dataclass(frozen=True)
class EndTurn(Event):
    """The current turn ends, whatever its phase, and the next player's turn begins (or `to`'s, when a card
    gives a player another turn)."""

    KIND: ClassVar[str] = "end-turn"
    to: int | None = None


@dataclass(frozen=True)
class SetHand(Event):
    """The table reports how many cards a player holds."""

    KIND: ClassVar[str] = "hand"
    player: int
    count: int


@dataclass(frozen=True)
class SetDeck(Event):
    """The table reports how many cards are left in the deck."""

    KIND: ClassVar[str] = "deck"
    count: int


@dataclass(frozen=True)
class DeckEmpty(Event):
    """The table says the deck has run out."""

    KIND: ClassVar[str] = "deck-empty"


@dataclass(frozen=True)
class Reshuffle(Event):
    """The discard pile is shuffled to make a new deck."""

    KIND: ClassVar[str] = "reshuffle"


class Gathered(enum.Enum):
    """What goes back into the deck in one `ToDeck`."""

    HAND = "hand"
    """A player's whole hand (Shake Up)."""
    STABLE = "stable"
    """A player's whole Stable; its Babies go back to the Nursery."""
    CARD = "card"
    """One card from a Stable (Dragon Skies), or from the hand when no Stable is named (Dragon's Misfortune)."""


@dataclass(frozen=True)
class ToDeck(Event):
    """Cards go back into the deck, which is shuffled: a hand, a Stable or one card (`Gathered`)."""

    KIND: ClassVar[str] = "to-deck"
    player: int
    """Whose hand or Stable it is; for one card, who puts it back."""
    what: Gathered = Gathered.HAND
    card: str | None = None
    """The one card (`Gathered.CARD`)."""
    owner: int | None = None
    """The Stable the one card leaves; None when it leaves `player`'s hand."""


@dataclass(frozen=True)
class SetGoal(Event):
    """The table changes how many Unicorns win: for everyone, or for one player (`player`), whose own number it
    becomes until changed again for them."""

    KIND: ClassVar[str] = "goal"
    count: int
    player: int | None = None


@dataclass(frozen=True)
class CannotWin(Event):
    """The table says a player cannot win (a card's text: `barred`), or can again (`barred` False)."""

    KIND: ClassVar[str] = "cannot-win"
    player: int
    barred: bool = True


@dataclass(frozen=True)
class SkipTurn(Event):
    """A player misses their next turn (a card's effect): when it comes, the turn passes them by."""

    KIND: ClassVar[str] = "skip-turn"
    player: int


@dataclass(frozen=True)
class SkipPhase(Event):
    """The current player skips their Draw or their Action phase this turn, as a card's effect says (`skip draw`,
    `skip action`: the phase Sticky Situation's owner gives up, "whichever you choose")."""

    KIND: ClassVar[str] = "skip-phase"
    phase: Phase


#: The phases a card's effect may make a player skip (`SkipPhase`).
SKIPPABLE = (Phase.DRAW, Phase.ACTION)


@dataclass(frozen=True)
class GiveCard(Event):
    """A card passes from one player's hand to another's (a card's effect): one less in `player`'s hand, one more
    in `to`'s; `card` when the table names it."""

    KIND: ClassVar[str] = "give"
    player: int
    to: int
    card: str | None = None


@dataclass(frozen=True)
class BanInstants(Event):
    """Nobody may play an Instant until the end of this turn (a card's effect the table says)."""

    KIND: ClassVar[str] = "ban"


@dataclass(frozen=True)
class UseEffect(Event):
    """A player uses an optional beginning-of-turn effect of a card in their Stable (Unicorn Speed: "you may draw
    an extra card"): it is being done now, so what the table says next (the extra card drawn, a card brought or
    played) is that effect's, never the Draw phase's; `resolve` when it is done."""

    KIND: ClassVar[str] = "use"
    player: int
    card: str


# Packed (fmt: skip): the event classes read better as a block than one name a line.
EVENT_TYPES: dict[str, type[Event]] = {
    cls.KIND: cls
    for cls in (
        Play, Respond, Resolve, Bring, Steal, Destroy, Sacrifice, Discard, ReturnToHand, Draw, Take, Swap,
        SwapHands, Move, ToNursery, NextPhase, EndTurn, SetHand, SetDeck, DeckEmpty, Reshuffle, SetGoal, ToDeck,
        CannotWin, SkipTurn, SkipPhase, GiveCard, BanInstants, Save, UseEffect, ToDiscard,
    )
}  # fmt: skip

_PLAYER_FIELDS = {"player", "owner", "other_owner", "other", "into", "to"}
_CARD_FIELDS = {"card", "other_card"}


def event_from_dict(data: object, players: int, card_ids: Container[str]) -> Event:
    """Read an event back from its save form; `EventError` says what is wrong with it.

    `players` is the number of seats and `card_ids` a container of the card ids in play, so a save that names a
    seat or a card that is not in the game is refused here, exactly as a live command naming one would be.
    """
    if not isinstance(data, dict):
        raise EventError(f"an event must be a table, not {type(data).__name__}")
    kind = data.get("e")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event kind {kind!r}")
    if cls is Play and "target" in data:  # the save form of `targets` (`Play.to_dict`)
        said = data["target"]
        data = {**data, "targets": [] if said is None else said if isinstance(said, list) else [said]}
        del data["target"]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = set(data) - set(fields) - {"e"}
    if extra:
        raise EventError(f"{kind}: unknown field {sorted(extra)[0]!r}")
    values = {}
    for name, f in fields.items():
        if name not in data:
            if f.default is dataclasses.MISSING:
                raise EventError(f"{kind}: missing field {name!r}")
            continue
        values[name] = _check_value(str(kind), name, data[name], players, card_ids)
    return cls(**values)


def _check_value(kind: str, name: str, value: object, players: int, card_ids: Container[str]) -> object:
    if name in _PLAYER_FIELDS:
        if value is None and (name, kind) in (
            ("into", "play"),
            ("to", "end-turn"),
            ("owner", "to-deck"),
            ("player", "goal"),
        ):
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
            raise EventError(f"{kind}: {name}: {value!r} is not a seat of this game")
        return value
    if name == "targets":
        seats = value if isinstance(value, list) else [None]
        return tuple(_check_value(kind, "target", seat, players, card_ids) for seat in seats)
    if name == "target":  # one of a play's targets
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
            raise EventError(f"{kind}: target: {value!r} is not a seat of this game")
        return value
    if name in _CARD_FIELDS:
        if value is None and kind in ("discard", "to-deck", "give"):
            return None
        if not isinstance(value, str) or value not in card_ids:
            raise EventError(f"{kind}: {name}: {value!r} is not a card of this game")
        return value
    if name == "count":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
            raise EventError(f"{kind}: count: {value!r} is not a number of cards")
        return value
    if name == "source":
        try:
            return Source(value)
        except ValueError:
            raise EventError(f"{kind}: source: {value!r} is not hand, deck, discard or nursery") from None
    if name == "what":
        try:
            return Gathered(value)
        except ValueError:
            raise EventError(f"{kind}: what: {value!r} is not hand, stable or card") from None
    if name == "phase":
        if value not in [phase.value for phase in SKIPPABLE]:
            raise EventError(f"{kind}: phase: {value!r} is not draw or action")
        return Phase(value)
    if name in ("skip", "barred", "whole"):
        if not isinstance(value, bool):
            raise EventError(f"{kind}: {name}: must be true or false")
        return value
    raise EventError(f"{kind}: {name}: cannot be read")  # pragma: no cover - every field is listed above
