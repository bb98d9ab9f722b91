"""A move made from a player's own device (a phone on the shared table): read from its structured request and made
into the `Command` a typed line would have become, with the actor always the device's player.

Nothing here parses text: the page sends a verb, a card id, a player's name and a number; `read_move` checks their
kinds and `command_for` builds the command (and the card it is about, handed to the conversation as the card just
read, so no name is looked up twice). What the table thinks of the move (a warning, a refusal) is the same
conversation's as for a typed line. `DeviceMoveError` carries the sentence to send back, and whether the page was
stale (it showed a card where the card no longer is).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from assistant.core.cards.card import Card, CardType
from assistant.core.game.history import Game, Phone
from assistant.core.language.parser import Command
from assistant.core.language.verb_names import VerbName
from assistant.core.words.share import (
    ACTOR_NOT_YOURS,
    CARD_NEEDED,
    STALE_PILE,
    UNKNOWN_CARD,
    UNKNOWN_VERB,
    bad_field,
    not_a_player,
    not_your_turn_to_end,
    stale_nowhere,
    stale_stable,
)

#: The verbs a device may send, in the order the page offers them, each with the verb of the command it makes.
_COMMAND_VERBS: dict[str, VerbName] = {
    "draw": "draw",
    "play": "play",
    "neigh": "neigh",
    "super-neigh": "super-neigh",
    "instant": "play",  # an Instant played from hand answers the pile (or the effect being done), as typed
    "resolve": "resolve",
    "end": "end",
    "destroy": "destroy",
    "sacrifice": "sacrifice",
    "steal": "steal",
    "return": "return",
    "discard": "discard",
    "bring": "bring",  # a Baby brought is `baby`
    "undo": "undo",
}
DEVICE_VERBS = tuple(_COMMAND_VERBS)
#: Verbs that need a card.
_CARD_VERBS = {"play", "instant", "destroy", "sacrifice", "steal", "return", "bring"}
#: Verbs that answer the top of the pile (or resolve it): the page says which card it saw there (`on`).
_PILE_VERBS = {"neigh", "super-neigh", "instant", "resolve"}
#: Verbs whose card is taken from a Stable: the page showed it there.
_STABLE_VERBS = {"destroy", "steal", "return", "sacrifice"}
#: The fields a move may have; any other (an actor, a player) is refused.
MOVE_FIELDS = {"key", "verb", "card", "target", "number", "on"}
#: The most cards one draw records from a device.
MOST_DRAWN = 10
__all__ = [
    "DEVICE_VERBS",
    "DeviceMove",
    "DeviceAnswer",
    "DeviceJoined",
    "DeviceMoveError",
    "DeviceOutcome",
    "DeviceRequest",
    "JoinDecision",
    "command_for",
    "may_do",
    "read_answer",
    "read_move",
]
_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")


class DeviceMoveError(ValueError):
    """A move that cannot be made: the message is the sentence for the phone; `stale` when the page showed the
    table as it no longer is."""

    def __init__(self, sentence: str, stale: bool = False) -> None:
        super().__init__(sentence)
        self.stale = stale


@dataclass(frozen=True)
class DeviceMove:
    """One move as a device sent it: no actor (that is the device's player)."""

    verb: str
    card: str | None = None
    """A card id of the game's decks."""
    target: str | None = None
    """A player's name: whose Stable, or the Stable a card goes into."""
    number: int | None = None
    """How many cards to draw."""
    on: str | None = None
    """The card id the page showed on top of the pile (neigh, instant, resolve): when it is no longer anywhere on
    the pile (resolved, or the pile emptied), the page was stale. An answer put on top of it since is not staleness:
    two Neighs tapped at once on the same card are both recorded, the second on what is then on top."""
    device: int = 1
    """Which of the player's phones sent it (1: the first to join): set by the server, never read from the body."""


def read_move(body: Any) -> DeviceMove:
    """A `DeviceMove` from a request's JSON body; `DeviceMoveError` naming what could not be read. A body naming any
    other field (an actor) is refused: a device acts for its own player only."""
    if not isinstance(body, dict):
        raise DeviceMoveError(bad_field("body"))
    if set(body) - MOVE_FIELDS:
        raise DeviceMoveError(ACTOR_NOT_YOURS)
    verb = body.get("verb")
    if verb not in DEVICE_VERBS:
        raise DeviceMoveError(UNKNOWN_VERB)
    card, on = _id(body, "card"), _id(body, "on")
    target = body.get("target")
    if target is not None and (not isinstance(target, str) or not 0 < len(target) <= 60):
        raise DeviceMoveError(bad_field("target"))
    number = body.get("number")
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MOST_DRAWN
    ):
        raise DeviceMoveError(bad_field("number"))
    if verb in _CARD_VERBS and card is None:
        raise DeviceMoveError(CARD_NEEDED)
    return DeviceMove(verb, card, target, number, on)


def _id(body: dict[str, Any], field: str) -> str | None:
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or not _ID.match(value):
        raise DeviceMoveError(bad_field(field))
    return value


def command_for(move: DeviceMove, player: str, game: Game) -> tuple[Command, Card | None]:
    """The command a typed line would have been for this move by `player`, and the card it is about (the card just
    read, for the conversation). `DeviceMoveError` for an unknown card or player, or a stale page. Not for undo,
    which the session answers itself."""
    table, state = game.table, game.state
    names = table.setup.players
    seat = names.index(player)
    card = None
    if move.card is not None:
        card = table.cards.get(move.card)
        if card is None:
            raise DeviceMoveError(UNKNOWN_CARD)
    target = move.target
    if target is not None and target not in names:
        raise DeviceMoveError(not_a_player(target, list(names)))
    if move.verb in _PILE_VERBS and move.on is not None and all(c.card != move.on for c in state.pile):
        raise DeviceMoveError(STALE_PILE, stale=True)
    if move.verb in _STABLE_VERBS and card is not None:
        _check_in_stable(game, card, seat if move.verb == "sacrifice" else None, target)
    verb = _COMMAND_VERBS[move.verb]
    if verb == "end" and seat != state.current:  # a turn is its player's to end: no other phone may end it
        raise DeviceMoveError(not_your_turn_to_end(names[state.current]))
    if verb == "bring" and card is not None and card.type is CardType.BABY:
        verb, target = "baby", target or player
    elif verb == "bring":
        target = target or player
    return Command(verb, actor=player, target=target, number=move.number), card


def _check_in_stable(game: Game, card: Card, own: int | None, target: str | None) -> None:
    """The card is where the page showed it: in the player's own Stable (sacrifice), in the Stable named, or in some
    Stable; else the page was stale."""
    table, state = game.table, game.state
    names = table.setup.players
    seat = own if own is not None else (names.index(target) if target is not None else None)
    if seat is not None:
        if card.id not in state.players[seat].stable:
            raise DeviceMoveError(stale_stable(card.name, names[seat], table.profile.vocabulary.area), stale=True)
        return
    if not any(card.id in p.stable for p in state.players):
        raise DeviceMoveError(stale_nowhere(card.name, table.profile.vocabulary.area), stale=True)


def may_do(game: Game, player: str) -> list[str]:
    """The verbs the player may use now, for the page's buttons: everything on their own turn; otherwise answering
    the pile, an Instant, and what a card's effect may ask of anyone (discard, sacrifice, return, bring; while the
    chain has a link, draw and resolve too). The table still warns about a move against the rules, as for a typed
    line."""
    table, state = game.table, game.state
    if state.outcome is not None:
        return ["undo"]
    seat = table.setup.players.index(player)
    has_neigh = table.neigh_card is not None
    answer = ["neigh"] * has_neigh + ["super-neigh"] * (table.super_neigh_card is not None) + ["instant", "resolve"]
    if state.pile:
        return [*answer, "undo"]
    if seat == state.current:
        return [v for v in DEVICE_VERBS if v not in ("neigh", "super-neigh")]
    effect = ["draw", "resolve"] if state.chain else []  # a card's effect may let anyone draw (Goatsundheit)
    return [*effect, "instant", "discard", "sacrifice", "return", "bring", "undo"]


@dataclass(frozen=True)
class DeviceOutcome:
    """What became of a move from a device: `status` for the phone ("recorded", "warning", "refused", "stale"; for
    a phone joining, "joined" or "waiting"), the `lines` it shows, the id of its open `question` (a warning), and
    the `reply` the laptop shows and says (None: nothing to say there)."""

    status: str
    lines: tuple[str, ...]
    reply: Any = None
    """A `Reply` for the laptop, or None."""
    question: str | None = None
    phone: Phone | None = None
    """Recorded: the phone it is saved as made on."""


@dataclass(frozen=True)
class DeviceAnswer:
    """A device's answer to its own open question (a warned move): yes records it."""

    question: str
    yes: bool
    device: int = 1
    """Which of the player's phones answered (as `DeviceMove.device`)."""


class JoinDecision(Protocol):
    """A phone that waits to be let in (the server keeps it): whether it still waits, and the answer."""

    def waits(self) -> bool:
        """The phone still waits (nobody has answered, and it was not taken off)."""

    def decide(self, allow: bool) -> bool:
        """Let it in, or keep it out; False when it no longer waits."""


@dataclass(frozen=True)
class DeviceJoined:
    """A phone joined the table for its player: said on the laptop. With `waiting`, the player already has a phone:
    this one waits until the host, or one of the player's own phones, answers."""

    device: int = 1
    """Which of the player's phones it is (1: the first to join)."""
    waiting: JoinDecision | None = field(default=None, compare=False)


DeviceRequest = DeviceMove | DeviceAnswer | DeviceJoined
"""What the server hands the session's owner for a device."""


def read_answer(body: Any) -> DeviceAnswer:
    """A `DeviceAnswer` from a request's JSON body (`question`, `answer`: "yes" or "no"); `DeviceMoveError` when it
    cannot be read."""
    if not isinstance(body, dict) or set(body) - {"key", "question", "answer"}:
        raise DeviceMoveError(bad_field("body"))
    question, answer = body.get("question"), body.get("answer")
    if not isinstance(question, str) or not 0 < len(question) <= 80:
        raise DeviceMoveError(bad_field("question"))
    if answer not in ("yes", "no"):
        raise DeviceMoveError(bad_field("answer"))
    return DeviceAnswer(question, answer == "yes")
