"""A move made from a player's own device (a phone on the shared table): read from its structured request and made
into the `Command` a typed line would have become, with the actor always the device's player.

Nothing here parses text: the page sends a verb, a card id, a player's name and a number; `read_move` checks their
kinds and `command_for` builds the command (and the card it is about, handed to the conversation as the card just
read, so no name is looked up twice). What the table thinks of the move (a warning, a refusal) is the same
conversation's as for a typed line. `DeviceMoveError` carries the sentence to send back, and whether the page was
stale (it showed a card where the card no longer is).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from assistant.core.cards.card import Card, CardType, Tag
from assistant.core.game.events import Phase
from assistant.core.game.history import Game, Phone
from assistant.core.language.parser import Command
from assistant.core.language.verb_names import VerbName
from assistant.core.words.share import (
    ACTOR_NOT_YOURS,
    CARD_NEEDED,
    NO_NEIGH_CARD,
    STALE_PILE,
    UNKNOWN_CARD,
    UNKNOWN_VERB,
    bad_field,
    not_a_player,
    not_your_turn_to_end,
    stale_nowhere,
    stale_stable,
)


class Pick(enum.Enum):
    """How the page asks for what a phone verb acts on, once its button is tapped."""

    NOTHING = ""
    """Sent at once."""
    CARD = "card"
    """A card found by typing part of its name or braille label."""
    OTHERS = "others"
    """A card in another player's Stable."""
    OWN = "own"
    """A card in the player's own Stable."""
    ALL = "all"
    """A card in any Stable."""


@dataclass(frozen=True)
class PhoneVerb:
    """One verb a phone sends: everything the server's checks, the page's buttons and their labels, and the docs
    know of it (docs/share.md's table of the phone's verbs is checked against this one)."""

    name: str
    """What the page sends (`verb` of a move), and its button's key."""
    command: VerbName | None
    """The verb of the command it makes, as typed; None: nothing is recorded (reading a card)."""
    label: str
    """The key of its button's label in `PAGE_LABELS`; with `deck_word`, in the view's `game.words` instead."""
    pick: Pick = Pick.NOTHING
    needs_card: bool = False
    """A move without a card id is refused."""
    on_pile: bool = False
    """It answers (or resolves) the top of the pile: the page sends the card it saw there as `on`."""
    from_stable: bool = False
    """Its card is taken from a Stable: the page showed it there (else the page was stale)."""
    effect: Tag | None = None
    """A card's effect that asks its player for this move (a duty in the chain gives that player the button)."""
    deck_word: bool = False
    """The label is the deck's own word (Neigh is the deck's Neigh card's name)."""
    into: str = ""
    """When the page asks into whose Stable the card goes: "any" card, a card of this kind ("downgrade"), or never
    ("")."""
    only: str = ""
    """The kind of card its search offers ("instant"); "" for any."""
    aims: bool = False
    """Its card's target may be declared with it (`aim`, as `play CARD targeting NAME`): the page offers a choice of
    the player it targets, no one declared by default."""


# A table (fmt: skip): one verb a row, in the order the page offers them.
#: The verbs a device may send: the one table the server's checks, the page's buttons, their labels and
#: docs/share.md take them from.
PHONE_VERBS: tuple[PhoneVerb, ...] = (
    PhoneVerb("draw", "draw", "draw", effect=Tag.DRAW),
    PhoneVerb("resolve", "resolve", "resolve", on_pile=True),
    PhoneVerb("neigh", "neigh", "instant", on_pile=True, deck_word=True),
    PhoneVerb("super-neigh", "super-neigh", "super_neigh", on_pile=True),
    # an Instant played from hand answers the pile (or the effect being done), as typed
    PhoneVerb("instant", "play", "instant", Pick.CARD, needs_card=True, on_pile=True, only="instant"),
    PhoneVerb("play", "play", "play", Pick.CARD, needs_card=True, into="downgrade", aims=True),
    PhoneVerb("end", "end", "end"),
    PhoneVerb("destroy", "destroy", "destroy", Pick.OTHERS, needs_card=True, from_stable=True, effect=Tag.DESTROY),
    PhoneVerb("sacrifice", "sacrifice", "sacrifice", Pick.OWN, needs_card=True, from_stable=True,
              effect=Tag.SACRIFICE),
    PhoneVerb("steal", "steal", "steal", Pick.OTHERS, needs_card=True, from_stable=True, effect=Tag.STEAL),
    PhoneVerb("return", "return", "return", Pick.ALL, needs_card=True, from_stable=True,
              effect=Tag.RETURN_TO_HAND),
    PhoneVerb("discard", "discard", "discard", Pick.CARD, effect=Tag.DISCARD),
    PhoneVerb("bring", "bring", "bring", Pick.CARD, needs_card=True, into="any"),  # a Baby brought is `baby`
    PhoneVerb("undo", "undo", "undo"),
    PhoneVerb("read", None, "read", Pick.CARD, needs_card=True),  # a card's own page: nothing recorded or said
)  # fmt: skip
VERBS_BY_NAME = {verb.name: verb for verb in PHONE_VERBS}
DEVICE_VERBS = tuple(VERBS_BY_NAME)


def phone_verbs_json() -> list[dict[str, Any]]:
    """The phone verbs as the page is sent them (its buttons, in order, and how each asks and sends)."""
    return [
        {"verb": v.name, "label": v.label, "deck_word": v.deck_word, "pick": v.pick.value, "needs_card": v.needs_card,
         "on_pile": v.on_pile, "into": v.into, "only": v.only, "aims": v.aims}
        for v in PHONE_VERBS
    ]  # fmt: skip


#: The fields a move may have; any other (an actor, a player) is refused.
MOVE_FIELDS = {"key", "verb", "card", "target", "number", "on", "aim"}
#: The most cards one draw records from a device.
MOST_DRAWN = 10
__all__ = [
    "DEVICE_VERBS",
    "PHONE_VERBS",
    "VERBS_BY_NAME",
    "PhoneVerb",
    "Pick",
    "DeviceMove",
    "DeviceAnswer",
    "DeviceJoined",
    "DeviceMoveError",
    "DeviceOutcome",
    "HeldMovesDue",
    "DeviceRequest",
    "JoinDecision",
    "command_for",
    "may_do",
    "phone_verbs_json",
    "read_answer",
    "read_move",
]
_ID = re.compile(r"[A-Za-z0-9_.:-]{1,80}")


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
    phones: int = 1
    """How many phones the player has on the table (set by the server): with two, the laptop says which moved."""
    phoned: tuple[str, ...] = ()
    """The players with a phone let in (set by the server): a save is asked on its owner's phone, else on the
    laptop."""
    aim: str | None = None
    """play: the player's name the card's effect aims at, declared at the play (`play CARD targeting NAME`)."""


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
    target, aim = body.get("target"), body.get("aim")
    if target is not None and (not isinstance(target, str) or not 0 < len(target) <= 60):
        raise DeviceMoveError(bad_field("target"))
    if aim is not None and (not VERBS_BY_NAME[verb].aims or not isinstance(aim, str) or not 0 < len(aim) <= 60):
        raise DeviceMoveError(bad_field("aim"))
    number = body.get("number")
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MOST_DRAWN
    ):
        raise DeviceMoveError(bad_field("number"))
    if VERBS_BY_NAME[verb].needs_card and card is None:
        raise DeviceMoveError(CARD_NEEDED)
    return DeviceMove(verb, card, target, number, on, aim=aim)


def _id(body: dict[str, Any], field: str) -> str | None:
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or not _ID.fullmatch(value):  # (`$` would let a trailing newline through)
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
    for named in (target, move.aim):
        if named is not None and named not in names:
            raise DeviceMoveError(not_a_player(named, list(names)))
    kind = VERBS_BY_NAME[move.verb]
    if kind.on_pile and move.on is not None and all(c.card != move.on for c in state.pile):
        raise DeviceMoveError(STALE_PILE, stale=True)
    if kind.from_stable and card is not None:
        _check_in_stable(game, card, seat if move.verb == "sacrifice" else None, target)
    verb = kind.command
    if verb is None:  # reading a card is answered by the session, never made a command
        raise DeviceMoveError(UNKNOWN_VERB)
    if verb == "neigh" and table.neigh_card is None:  # (typed, the laptop lists the Instants by number)
        raise DeviceMoveError(NO_NEIGH_CARD)
    if verb == "end" and seat != state.current:  # a turn is its player's to end: no other phone may end it
        raise DeviceMoveError(not_your_turn_to_end(names[state.current]))
    if verb == "bring" and card is not None and card.type is CardType.BABY:
        verb, target = "baby", target or player
    elif verb == "bring":
        target = target or player
    aims = () if move.aim is None else (move.aim,)
    return Command(verb, actor=player, target=target, aims=aims, number=move.number), card


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
    """The phone verbs the player may use now, in the table's order: what the turn, the pile and the chain leave
    something to act on. A move the table may still make against a rule (a second draw) stays: the table warns about
    it, as for a typed line; a move with nothing to act on (resolve with nothing on the pile or in the chain, end
    another player's turn, destroy with every other Stable empty) is not offered.

    On their own turn, with the pile empty: draw, play, end (once the turn's draw is done), discard, bring, and the
    moves on a Stable with a card in it; an Instant only while there is something to answer. While the pile is open:
    the answers (Neigh, Super Neigh where the deck has them, an Instant) and resolve, for everyone. While the chain
    has a link: resolve, an Instant and a draw (a card's effect may let anyone draw, Goatsundheit); with the pile
    empty, the moves the link's cards ask of anyone (discard, sacrifice: "each player"). A link's effect gives its
    own player the move it asks for even while the pile is open (Surprise Emu Attack: its player destroys while the
    Animal it answered is still on the pile). Undo always (the server takes back only the player's own last move),
    and reading a card."""
    table, state = game.table, game.state
    if state.outcome is not None:
        return ["undo", "read"]
    seat = table.setup.players.index(player)
    link = state.chain[0] if state.chain else ()
    asked = {tag for trigger in link for tag in _tags(game, trigger.card)}
    own = {tag for trigger in link if trigger.owner == seat for tag in _tags(game, trigger.card)}
    free = seat == state.current and not state.pile  # the player's own turn, nothing waiting on the pile
    stables = [bool(p.stable) for p in state.players]
    something = {
        Pick.OWN: stables[seat],
        Pick.OTHERS: any(has for other, has in enumerate(stables) if other != seat),
        Pick.ALL: any(stables),
    }
    open_verbs = {
        "draw": free or bool(state.chain),
        "resolve": bool(state.pile or state.chain),
        "neigh": bool(state.pile) and table.neigh_card is not None,
        "super-neigh": bool(state.pile) and table.super_neigh_card is not None,
        "instant": bool(state.pile or state.chain),  # an Instant answers something: a card on the pile, an effect
        "play": free,
        "end": free and (state.drew or state.phase in (Phase.ACTION, Phase.END)),  # not before the turn's draw
        "undo": True,
        "read": True,
    }
    may = []
    for verb in PHONE_VERBS:
        duty = verb.effect in own or (not state.pile and verb.effect in asked)
        allowed = open_verbs.get(verb.name, free) or duty
        if allowed and something.get(verb.pick, True):
            may.append(verb.name)
    return may


def _tags(game: Game, card_id: str) -> frozenset[Tag]:
    """A chain link's card's tags (a Herd Bonus's variation is no card: none)."""
    card = game.table.cards.get(card_id)
    return card.tags if card is not None else frozenset()


#: What became of a move from a device (`DeviceOutcome.status`), as the phone's page reads it.
OutcomeStatus = Literal[
    "recorded", "warning", "asked", "withdrawn", "refused", "stale", "text", "joined", "waiting", "said"
]


@dataclass(frozen=True)
class DeviceOutcome:
    """What became of a move from a device: its `status` for the phone, the `lines` it shows, the id of its open
    `question` (a warning), and the `reply` the laptop shows and says (None: nothing to say there)."""

    status: OutcomeStatus
    """One of: "recorded"; "warning": recorded once the player says yes (`question`); "asked": another player is
    asked first (a save of their card); "withdrawn": a move that waited on another's answer taken back by its
    player's undo, nothing recorded; "refused"; "stale": made on a state the game has left; "text": a card's text,
    read on the phone alone; for a phone joining, "joined" or "waiting" (for the host to let it in); "said": the
    words of a player's phones' moves that waited, said as one line (`HeldMovesDue`, never a phone's request)."""
    lines: tuple[str, ...]
    reply: Any = None
    """A `Reply` for the laptop, or None."""
    question: str | None = None
    phone: Phone | None = None
    """Recorded: the phone it is saved as made on."""
    named: bool = False
    """Recorded from one of two phones or more of its player: the laptop says which."""
    labels: dict[str, str] | None = None
    """A question's own heading and buttons, where they are not a warning's (a save offered)."""


@dataclass(frozen=True)
class DeviceAnswer:
    """A device's answer to its own open question (a warned move): yes records it."""

    question: str
    yes: bool
    device: int = 1
    """Which of the player's phones answered (as `DeviceMove.device`)."""
    phones: int = 1
    """How many phones the player has (as `DeviceMove.phones`)."""
    phoned: tuple[str, ...] = ()
    """The players with a phone let in (as `DeviceMove.phoned`)."""


class JoinDecision(Protocol):
    """A phone that waits to be let in (the server keeps it): whether it still waits, and the answer."""

    def waits(self) -> bool:
        """The phone still waits (nobody has answered, and it was not taken off)."""

    def decide(self, allow: bool) -> bool:
        """Let it in, or keep it out (which renews the join code); False when it no longer waits."""

    def code(self) -> str:
        """The join code now (a new one once a phone is kept out)."""


@dataclass(frozen=True)
class DeviceJoined:
    """A phone asks to join the table for its player: with `waiting`, it waits until the host answers (the laptop
    asks, one question at a time; no phone ever answers for another). Without, it is only said to have joined."""

    device: int = 1
    """Which of the player's phones it is (1: the first to join)."""
    waiting: JoinDecision | None = field(default=None, compare=False)
    tag: str = ""
    """The short name its screen shows ("blue 7"), said in the host's question ("": none)."""


@dataclass(frozen=True)
class HeldMovesDue:
    """The words of moves a player's phones made within `phone_desk.SPOKEN_EVERY` of the last line said for them
    waited, merged; they are due now (`PhoneDesk.say_held`). Handed to the session's owner on a timer by the front
    ends' share (`ui.share_link.TableShare`), the path a phone's move takes: never sent by a phone."""


DeviceRequest = DeviceMove | DeviceAnswer | DeviceJoined | HeldMovesDue
"""What the server hands the session's owner for a device (or, for its held words, the front ends' share)."""


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
