"""Every kind of move, in one table (`KINDS`, one `Kind` a `MoveKind`): the events it records, whether another hand's
move of that kind is decisive, whether an effect moved a card by it (a decisive fact, said before the counts), its
words for each audience (`Kind.said`: the table's, another phone's, its own player's phone's "You drew a card."),
the words of its undo (`Kind.undone`: "Basic Unicorn (Red) is back in Ana's Stable"), the earcon another hand's
move of that kind sounds, how a merged sentence says it ("Ben drew a card and played Yay."), whether it is said with
whose card it took, whether it took a card from its owner's Stable (a digest says those first), whether it answers
the pile, and whether a braille display shows the card it took first.

A new kind of event is one row here: every trait of `Kind` that decides something is a field without a default, so
a row that forgets one fails when the module is imported, and `tests/core/test_move_kinds.py` fails until every
event class is recorded by exactly one row and every `MoveKind` has its row. The event classes are imported here
as a module (`events.Play`), never as a block of names: the words of every event are written here, one function a
kind, each audience a branch of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from assistant.core.game import events
from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.events import Event, Gathered, Source
from assistant.core.game.history import Step
from assistant.core.game.segment import UndoRedo
from assistant.core.game.state import GameState
from assistant.core.game.table import Table
from assistant.core.text import cards_count
from assistant.core.words.audience import Audience, for_hand, is_coached
from assistant.core.words.gameplay import (
    PHASE_NAMES,
    SOURCE_NAMES,
    area_of,
    creatures,
    discarded,
    game_card_name,
    link_names,
    pile_card_name,
    player_name,
    save_cost,
    targeting,
)
from assistant.core.words.share import PAGE_LABELS

__all__ = [
    "Kind",
    "KINDS",
    "Said",
    "EVENT_MOVES",
    "kind_says",
    "kind_of",
    "is_decisive",
    "describe_event",
    "own_move",
    "taken_back",
]

#: The earcons a move may sound ("": none), by their names in the sound adapter (`assistant.speech.earcons`).
Earcon = Literal["", "lost-card", "neigh", "pile"]


@dataclass(frozen=True)
class Said:
    """What an event's words are made with: the game, the position before the event (None where only its own
    player's phone words it, which needs none), and who they are for (`seat`: the player whose phone it is, for
    `Audience.OWN_PHONE`)."""

    table: Table
    before: GameState | None
    audience: Audience = Audience.TABLE
    seat: int | None = None

    @property
    def own(self) -> bool:
        """The words are for the phone of the player who made the move: the second person."""
        return self.audience is Audience.OWN_PHONE

    @property
    def coached(self) -> bool:
        """The words may say how to say the next move on her keyboard (`is_coached`)."""
        return is_coached(self.audience)

    @property
    def hearer(self) -> int | None:
        """The seat said as "you" (its own phone's), or None."""
        return self.seat if self.own else None

    @property
    def state(self) -> GameState:
        """The position before the event (every audience but a player's own phone gives it)."""
        if self.before is None:  # pragma: no cover - a caller's mistake, never a player's
            raise ValueError("the table's words of an event need the position before it")
        return self.before

    def name(self, seat: int) -> str:
        """A player's name."""
        return player_name(self.table, seat)

    def subject(self, seat: int) -> str:
        """Who made the move, first in its sentence: "You" on their own phone, else their name."""
        return "You" if self.own and seat == self.seat else self.name(seat)

    def their(self, seat: int) -> str:
        """ "your" on the mover's own phone, else "their"."""
        return "your" if self.own and seat == self.seat else "their"

    def card(self, card_id: str | None) -> str:
        """A card's name, "a card" when unnamed."""
        return game_card_name(self.table, card_id)

    def area(self, owner: int) -> str:
        """A Stable: "your Stable" on its owner's own phone, else "Ana's Stable"."""
        if self.own and owner == self.seat:
            return f"your {self.table.profile.vocabulary.area}"
        return area_of(self.table, owner)

    def hand(self, owner: int) -> str:
        """A hand: "your hand" on its owner's own phone, else "Ana's hand"."""
        return "your hand" if self.own and owner == self.seat else f"{self.name(owner)}'s hand"


#: An event's words for an audience, without a full stop ("" for none).
Phrase = Callable[[Said, Event], str]
#: The words of an event undone, where it leaves its card, without a full stop: (the game, the event, the position
#: the undo gives back).
Undone = Callable[[Table, Event, GameState], str]


@dataclass(frozen=True)
class Kind:
    """Everything one kind of move decides. The traits without a default must be given in its row (`decisive` and
    `effect` by name)."""

    events: tuple[type[Event], ...]
    """The event classes recorded as this kind (`EVENT_MOVES`); () for a kind no event records (a Neigh is told
    apart from another Instant by its card; a stop, an undo, a redo, merged moves)."""
    said: Phrase | None
    """Its event's words for an audience (`describe_event`, `own_move`); None for a kind with no event of its own."""
    undone: Undone | None
    """Where its event undone leaves its card (`taken_back`); None for a kind with no event of its own."""
    decisive: bool = field(kw_only=True)
    """Another hand's move of this kind is decisive: the player may answer it, or it takes her cards (a merged
    sentence is decisive when one of its moves is: `is_decisive`)."""
    effect: bool = field(kw_only=True)
    """An effect moved a card into or out of a Stable (or a hand) by it: said before the counts it changed, and a
    decisive fact where no count changed (`words.announce.facts_of_step`)."""
    earcon: Earcon = ""
    """The earcon of another hand's move of this kind ("": none); "lost-card" only where the card was the listener's
    (`speech.placement.move_earcon` leaves it out where it was someone else's)."""
    did: str = ""
    """What the move's player did, said after their name in a merged sentence ("{card}": the card's name, whose it
    was where the move took it from a Stable: "destroyed Ana's Rainbow Aura"; "{on}": the card an Instant stopped);
    "": a kind with no short form, said in its own words and never merged (`words.pace.merge_moves`)."""
    own: bool = True
    """Whether a move of this kind is a player's own, said by that player's phone in the second person ("You drew a
    card.", `own_move`); False: no one's move (a resolve, the deck set) or no event of its own (an undo, merged
    moves), and every phone shows the table's words of it."""
    whose: bool = False
    """It takes a card from its owner's Stable and a merged sentence says whose it was ("destroyed Ana's Rainbow
    Aura", "their own" for the mover's, "your own" on the mover's phone)."""
    takes_away: bool = False
    """It takes a card out of its owner's Stable (`About.owner`): a digest of what was missed says first those that
    took hers (`words.pace.missed`)."""
    answers: bool = False
    """An Instant, a Neigh or another: said with the card it answered, and told apart from the card it stopped."""
    point: bool = False
    """Its point is the card it takes from a Stable: a braille display shows that first in the move's window ("Ana
    stole Ben's Narwhal.", `words.pace.move_point`)."""


# The words of each kind of event, one function a kind, each audience a branch where its words differ.


def _source(of: Source) -> str:
    return "" if of is Source.HAND else f" from {SOURCE_NAMES[of]}"


def _play(w: Said, event: Event) -> str:
    match event:
        case events.Play(player=p, card=c, into=into, source=where, targets=aimed):
            elsewhere = "" if into in (None, p) else f" into {w.area(into)}"
            return f"{w.subject(p)} played {w.card(c)}{_source(where)}{elsewhere}{targeting(w.table, aimed, w.hearer)}"
        case events.Respond(player=p, card=c):
            return f"{w.subject(p)} played {w.card(c)}"
    return ""


def _resolve(w: Said, event: Event) -> str:
    before = w.state
    if before.pile:
        top = before.pile[-1]
        return f"{w.card(top.card)} by {w.name(top.player)} resolved"
    if before.chain:
        names = link_names(w.table, before.chain[0])
        return f"{names[:1].upper()}{names[1:]} resolved"  # "The Alpaca Herd Bonus resolved", a capital first
    return "Nothing resolved"


def _bring(w: Said, event: Event) -> str:
    match event:
        case events.Bring(player=p, card=c, into=into, source=where):
            return f"{w.subject(p)} brought {w.card(c)} into {w.area(into)}{_source(where)}"
    return ""


def _steal(w: Said, event: Event) -> str:
    match event:
        case events.Steal(player=p, card=c, owner=owner):
            return f"{w.subject(p)} stole {w.card(c)} from {w.area(owner)}"
    return ""


def _destroy(w: Said, event: Event) -> str:
    match event:
        case events.Destroy(player=p, card=c, owner=owner):
            return f"{w.subject(p)} destroyed {w.card(c)} in {w.area(owner)}"
    return ""


def _sacrifice(w: Said, event: Event) -> str:
    match event:
        case events.Sacrifice(player=p, card=c):
            return f"{w.subject(p)} sacrificed {w.card(c)}"
    return ""


def _save(w: Said, event: Event) -> str:
    match event:
        case events.Save(player=p, card=c, other_card=saver):
            return f"{w.subject(p)} saved {w.card(c)} by {save_cost(w.table, saver)} instead"
    return ""


def _discard(w: Said, event: Event) -> str:
    match event:
        case events.Discard(player=p):
            return f"{w.subject(p)} discarded {discarded(w.table, event, w.hearer)}"
    return ""


def _return(w: Said, event: Event) -> str:
    match event:
        case events.ReturnToHand(card=c, owner=owner) if w.own:
            return f"You returned {w.card(c)} from {w.area(owner)} to {w.hand(owner)}"
        case events.ReturnToHand(card=c, owner=owner):
            return f"{w.card(c)} went from {w.area(owner)} back to {w.name(owner)}'s hand"
    return ""


def _to_discard(w: Said, event: Event) -> str:
    match event:
        case events.ToDiscard(card=c, owner=owner) if w.own:
            return f"You put {w.card(c)} from {w.area(owner)} on the discard pile"
        case events.ToDiscard(card=c, owner=owner):
            return f"{w.card(c)} went from {w.area(owner)} to the discard pile"
    return ""


def _draw(w: Said, event: Event) -> str:
    match event:
        case events.Draw(player=p, count=count):
            return f"{w.subject(p)} drew {'a card' if count == 1 else cards_count(count)}"
    return ""


def _take(w: Said, event: Event) -> str:
    match event:
        case events.Take(player=p, card=c, source=where):
            return f"{w.subject(p)} took {w.card(c)} from {SOURCE_NAMES[where]} and showed it"
    return ""


def _swap(w: Said, event: Event) -> str:
    match event:
        case events.Swap(card=one, owner=owner, other_card=other, other_owner=other_owner) if w.own:
            return f"You swapped {w.card(one)} in {w.area(owner)} with {w.card(other)} in {w.area(other_owner)}"
        case events.Swap(card=one, owner=owner, other_card=other, other_owner=other_owner):
            return f"{w.card(one)} in {w.area(owner)} and {w.card(other)} in {w.area(other_owner)} changed places"
        case events.SwapHands(other=other) if w.own:
            return f"You swapped hands with {w.name(other)}"
        case events.SwapHands(player=p, other=other):
            return f"{w.name(p)} and {w.name(other)} swapped hands"
    return ""


def _move(w: Said, event: Event) -> str:
    match event:
        case events.Move(card=c, owner=owner, into=into) if w.own:
            return f"You moved {w.card(c)} from {w.area(owner)} to {w.area(into)}"
        case events.Move(card=c, owner=owner, into=into):
            return f"{w.card(c)} moved from {w.area(owner)} to {w.area(into)}"
    return ""


def _nursery(w: Said, event: Event) -> str:
    match event:
        case events.ToNursery(card=c, owner=owner) if w.own:
            return f"You sent {w.card(c)} from {w.area(owner)} back to the Nursery"
        case events.ToNursery(card=c, owner=owner):
            return f"{w.card(c)} went from {w.area(owner)} back to the Nursery"
    return ""


def _give(w: Said, event: Event) -> str:
    match event:
        case events.GiveCard(player=p, to=to, card=c):
            given = w.card(c) if c else "a card"
            return f"{w.subject(p)} gave {given} from {w.their(p)} hand to {w.name(to)}"
    return ""


def _next(w: Said, event: Event) -> str:
    match event:
        case events.NextPhase(skip=skip):
            before = w.state
            return f"{w.name(before.current)}'s {PHASE_NAMES[before.phase]} {'skipped' if skip else 'ended'}"
    return ""


def _end(w: Said, event: Event) -> str:
    match event:
        case events.EndTurn(to=to):
            then = "" if to is None else f", and {w.name(to)} takes the next turn"
            if w.own:
                return f"You ended your turn{then}"
            return f"{w.name(w.state.current)}'s turn ended{then}"
    return ""


def _hand(w: Said, event: Event) -> str:
    match event:
        case events.SetHand(player=p, count=count):
            return f"You hold {cards_count(count)}" if w.own else f"{w.name(p)} holds {cards_count(count)}"
    return ""


def _deck(w: Said, event: Event) -> str:
    match event:
        case events.SetDeck(count=count):
            return f"The deck holds {cards_count(count)}"
    return ""


def _deck_empty(w: Said, event: Event) -> str:
    return "The deck ran out"


def _reshuffle(w: Said, event: Event) -> str:
    return "The discard pile was shuffled into a new deck"


def _to_deck(w: Said, event: Event) -> str:
    if not isinstance(event, events.ToDeck):
        return ""
    p = event.player
    if event.what is Gathered.HAND:
        return "Your hand went back into the deck" if w.own else f"{w.name(p)}'s hand went back into the deck"
    if event.what is Gathered.STABLE:
        area = f"Your {w.table.profile.vocabulary.area}" if w.own else area_of(w.table, p)
        return f"{area} went back into the deck"
    if event.owner is None:
        hand = "your hand" if w.own else "hand"
        return f"{w.subject(p)} put a card from {hand} back into the deck"
    if w.own:
        return f"You put {w.card(event.card)} from {w.area(event.owner)} back into the deck"
    return f"{w.card(event.card)} went from {w.area(event.owner)} back into the deck"


def _goal(w: Said, event: Event) -> str:
    match event:
        case events.SetGoal(count=count, player=None):
            return f"{creatures(w.table, count)} now win"
        case events.SetGoal(count=count) if w.own:
            return f"You now need {creatures(w.table, count)} to win"
        case events.SetGoal(count=count, player=int(p)):
            return f"{w.name(p)} now needs {creatures(w.table, count)} to win"
    return ""


def _cannot_win(w: Said, event: Event) -> str:
    match event:
        case events.CannotWin(player=p, barred=barred):
            return f"{w.subject(p)} {'cannot win for now' if barred else 'can win again'}"
    return ""


def _skip_turn(w: Said, event: Event) -> str:
    match event:
        case events.SkipTurn(player=p):
            return f"{w.subject(p)} will miss {w.their(p)} next turn"
    return ""


def _skip_phase(w: Said, event: Event) -> str:
    match event:
        case events.SkipPhase(phase=phase):
            return f"{w.name(w.state.current)} skips this turn's {PHASE_NAMES[phase]}"
    return ""


def _ban(w: Said, event: Event) -> str:
    return "No one may play an Instant card until this turn is over"


def _use(w: Said, event: Event) -> str:
    match event:
        case events.UseEffect(card=c) if w.own:
            return f"You use the effect of {w.card(c)}: tap {PAGE_LABELS['resolve']} when it is done"
        case events.UseEffect(player=p, card=c):
            said = f"{w.name(p)} uses the effect of {w.card(c)}"
            return f"{said}: say resolve when it is done" if w.coached else said
    return ""


# Where each kind of event undone leaves its card, one function a kind; `_as_taken_back` where no card moved.


def _as_taken_back(table: Table, event: Event, now: GameState) -> str:
    """The event itself, taken back."""
    return f"{describe_event(table, event, now)}, taken back"


def _resolve_undone(table: Table, event: Event, now: GameState) -> str:
    if now.pile:
        return f"{pile_card_name(table, now.pile[-1])} is back on the pile"
    if now.chain:
        return f"{link_names(table, now.chain[0])} waits in the chain again"
    return _as_taken_back(table, event, now)


def _play_undone(table: Table, event: Event, now: GameState) -> str:
    if isinstance(event, (events.Play, events.Respond)):
        return f"{player_name(table, event.player)}'s {game_card_name(table, event.card)} is back in their hand"
    return _as_taken_back(table, event, now)


def _draw_undone(table: Table, event: Event, now: GameState) -> str:
    if isinstance(event, events.Draw):
        drawn, are = ("card", "is") if event.count == 1 else (cards_count(event.count), "are")
        return f"the {drawn} {player_name(table, event.player)} drew {are} back on the deck"
    return _as_taken_back(table, event, now)


def _bring_undone(table: Table, event: Event, now: GameState) -> str:
    if isinstance(event, events.Bring):
        hand = event.source is Source.HAND
        where = f"{player_name(table, event.player)}'s hand" if hand else SOURCE_NAMES[event.source]
        return f"{game_card_name(table, event.card)} is back in {where}"
    return _as_taken_back(table, event, now)


def _back_in_owners(table: Table, event: Event, now: GameState) -> str:
    """A card taken from its owner's Stable (`owner`) is back there."""
    if isinstance(
        event, (events.Steal, events.Destroy, events.ReturnToHand, events.ToDiscard, events.Move, events.ToNursery)
    ):
        return f"{game_card_name(table, event.card)} is back in {area_of(table, event.owner)}"
    return _as_taken_back(table, event, now)


def _sacrifice_undone(table: Table, event: Event, now: GameState) -> str:
    if isinstance(event, events.Sacrifice):
        return f"{game_card_name(table, event.card)} is back in {area_of(table, event.player)}"
    return _as_taken_back(table, event, now)


def _discard_undone(table: Table, event: Event, now: GameState) -> str:
    if not isinstance(event, events.Discard):
        return _as_taken_back(table, event, now)
    who = player_name(table, event.player)
    if event.whole:
        return f"the hand {who} discarded is back"
    what, are = (discarded(table, event), "is") if event.count == 1 else (cards_count(event.count), "are")
    return f"{what} {are} back in {who}'s hand"


def _phase_undone(table: Table, event: Event, now: GameState) -> str:
    return f"back to {player_name(table, now.current)}'s {PHASE_NAMES[now.phase]}"


def _no_event(w: Said, event: Event) -> str:
    return ""


#: Everything each kind of move decides, one row a kind.
KINDS: dict[MoveKind, Kind] = {
    MoveKind.PLAY: Kind(
        (events.Play,), _play, _play_undone, decisive=True, effect=False, earcon="pile", did="played {card}"),
    MoveKind.INSTANT: Kind(
        (events.Respond,), _play, _play_undone, decisive=True, effect=False, earcon="neigh", did="played {card}",
        answers=True),
    # (a Neigh is recorded as a response, told apart by its card: `words.announce.move_of_step`)
    MoveKind.NEIGH: Kind(
        (), _play, _play_undone, decisive=True, effect=False, earcon="neigh", did="played {card}", answers=True),
    MoveKind.RESOLVE: Kind((events.Resolve,), _resolve, _resolve_undone, decisive=False, effect=False, own=False),
    MoveKind.BRING: Kind(
        (events.Bring,), _bring, _bring_undone, decisive=False, effect=True, did="brought {card} into a Stable"),
    MoveKind.STEAL: Kind(
        (events.Steal,), _steal, _back_in_owners, decisive=True, effect=True, earcon="lost-card", did="stole {card}",
        whose=True, takes_away=True, point=True),
    MoveKind.DESTROY: Kind(
        (events.Destroy,), _destroy, _back_in_owners, decisive=True, effect=True, earcon="lost-card",
        did="destroyed {card}", whose=True, takes_away=True, point=True),
    MoveKind.SACRIFICE: Kind(
        (events.Sacrifice,), _sacrifice, _sacrifice_undone, decisive=True, effect=True, earcon="lost-card",
        did="sacrificed {card}", point=True),
    MoveKind.SAVE: Kind((events.Save,), _save, _as_taken_back, decisive=False, effect=False),
    MoveKind.DISCARD: Kind(
        (events.Discard,), _discard, _discard_undone, decisive=False, effect=False, did="discarded {card}"),
    MoveKind.RETURN: Kind(
        (events.ReturnToHand,), _return, _back_in_owners, decisive=True, effect=True, did="returned {card} to a hand",
        whose=True, takes_away=True, point=True),
    # (an effect, and undone as the return to the hand is: before, its undo was "... went from Ana's Stable to the
    # discard pile, taken back.", where a return to the hand's is "... is back in Ana's Stable.")
    MoveKind.TO_DISCARD: Kind((events.ToDiscard,), _to_discard, _back_in_owners, decisive=False, effect=True),
    MoveKind.DRAW: Kind((events.Draw,), _draw, _draw_undone, decisive=False, effect=False, did="drew a card"),
    MoveKind.TAKE: Kind((events.Take,), _take, _as_taken_back, decisive=False, effect=False, did="took {card}"),
    MoveKind.SWAP: Kind(
        (events.Swap, events.SwapHands), _swap, _as_taken_back, decisive=True, effect=True, takes_away=True,
        point=True),
    MoveKind.MOVE: Kind(
        (events.Move,), _move, _back_in_owners, decisive=True, effect=True, takes_away=True, point=True),
    MoveKind.NURSERY: Kind(
        (events.ToNursery,), _nursery, _back_in_owners, decisive=False, effect=True, takes_away=True),
    MoveKind.NEXT: Kind((events.NextPhase,), _next, _phase_undone, decisive=False, effect=False, own=False),
    MoveKind.END: Kind((events.EndTurn,), _end, _phase_undone, decisive=False, effect=False, did="ended the turn"),
    MoveKind.HAND: Kind((events.SetHand,), _hand, _as_taken_back, decisive=False, effect=False),
    MoveKind.DECK: Kind((events.SetDeck,), _deck, _as_taken_back, decisive=False, effect=False, own=False),
    MoveKind.DECK_EMPTY: Kind(
        (events.DeckEmpty,), _deck_empty, _as_taken_back, decisive=False, effect=False, own=False),
    MoveKind.RESHUFFLE: Kind((events.Reshuffle,), _reshuffle, _as_taken_back, decisive=False, effect=False, own=False),
    MoveKind.TO_DECK: Kind((events.ToDeck,), _to_deck, _as_taken_back, decisive=False, effect=False),
    MoveKind.GOAL: Kind((events.SetGoal,), _goal, _as_taken_back, decisive=False, effect=False),
    MoveKind.CANNOT_WIN: Kind((events.CannotWin,), _cannot_win, _as_taken_back, decisive=False, effect=False),
    MoveKind.SKIP_TURN: Kind((events.SkipTurn,), _skip_turn, _as_taken_back, decisive=False, effect=False),
    MoveKind.SKIP_PHASE: Kind(
        (events.SkipPhase,), _skip_phase, _as_taken_back, decisive=False, effect=False, own=False),
    MoveKind.GIVE: Kind((events.GiveCard,), _give, _as_taken_back, decisive=False, effect=False),
    MoveKind.BAN: Kind((events.BanInstants,), _ban, _as_taken_back, decisive=False, effect=False, own=False),
    MoveKind.USE: Kind((events.UseEffect,), _use, _as_taken_back, decisive=False, effect=False),
    # (an Instant that resolved, in a digest: `on` the card it stopped)
    MoveKind.STOP: Kind((), None, None, decisive=False, effect=False, did="stopped {on} with {card}", own=False),
    MoveKind.UNDO: Kind((), None, None, decisive=False, effect=False, own=False),
    MoveKind.REDO: Kind((), None, None, decisive=False, effect=False, own=False),
    MoveKind.MOVES: Kind((), None, None, decisive=False, effect=False, own=False),
}  # fmt: skip

#: The kind of move each kind of event records, by its `Event.KIND` (the rows' `events`; a response is told apart
#: by its card where it is recorded: `MoveKind.NEIGH` or `MoveKind.INSTANT`).
EVENT_MOVES: dict[str, MoveKind] = {cls.KIND: kind for kind, row in KINDS.items() for cls in row.events}

#: What a fact that tells no move decides: nothing.
_NO_MOVE = Kind((), None, None, decisive=False, effect=False, own=False)


def kind_says(kind: MoveKind | None) -> Kind:
    """What a kind of move decides (`KINDS`); for no move (a fact that tells none), nothing."""
    return _NO_MOVE if kind is None else KINDS[kind]


def kind_of(event: Event) -> Kind:
    """The row of the kind of move an event records."""
    return KINDS[EVENT_MOVES[event.KIND]]


def is_decisive(fact: About) -> bool:
    """Never dropped: every fact but a move, and a move the player may answer or that takes a card (`Kind.decisive`;
    a merged sentence when one of its moves is)."""
    if fact.parts:
        return any(is_decisive(part) for part in fact.parts)
    return fact.topic is not Topic.MOVE or kind_says(fact.move).decisive


def _words(said: Said, event: Event) -> str:
    phrase = kind_of(event).said
    return phrase(said, event) if phrase is not None else ""


def describe_event(table: Table, event: Event, before: GameState, audience: Audience = Audience.TABLE) -> str:
    """What an event did, in the past tense, without a full stop: "Ana played Rainbow Aura" (its kind's words,
    `Kind.said`). `Audience.OTHER_PHONE`: as the phones' page shows it, without how to say the next move (its
    buttons say how); a player's own phone's words, which need whose phone it is, are `own_move`'s."""
    return _words(Said(table, before, audience), event)


def own_move(table: Table, event: Event, seat: int | None = None) -> str:
    """A move in the words of the phone of the player who made it (`seat`, who ended the turn for a turn ended; else
    the event's player): "You drew a card.", "You played Yay into Ben's Stable.", "You ended your turn."; every kind
    of move a player makes has its own, never "say ..." (the phone's buttons say how). "" for an event that is no
    player's move (a resolve, the deck set; its kind's `Kind.own`): every phone shows the table's words of it."""
    seat = getattr(event, "player", None) if seat is None else seat
    if not isinstance(seat, int) or not kind_of(event).own:
        return ""
    said = _words(Said(table, None, Audience.OWN_PHONE, seat), event)
    return f"{said}." if said else ""


def taken_back(table: Table, step: Step) -> str:
    """Where an undone event leaves its card, without a full stop: "Dee's Basic Unicorn (Purple) is back on the
    pile" (its kind's `Kind.undone`); the event itself, taken back, where no card moved."""
    undone = kind_of(step.event).undone or _as_taken_back
    return undone(table, step.event, step.after)  # (an undone step: `after` is the position given back)


def undone_words(undone: UndoRedo, audience: Audience) -> str:
    """What an undo or a redo gave back (`UndoRedo`) in an audience's words, one sentence: "Undone: Dee's Basic
    Unicorn (Purple) is back on the pile.", "Redone 2 events: ..."; on the laptop, one asked from a phone in
    `PHONE_MOVE`'s words (`audience.for_hand`)."""
    table, steps, redo = undone.table, undone.steps, undone.redo
    audience = for_hand(audience, undone.phone)
    verb = "Redone" if redo else "Undone"
    said = [describe_event(table, s.event, s.before if redo else s.after, audience) for s in steps]
    if len(steps) == 1:
        return f"{verb}: {said[0] if redo else taken_back(table, steps[0])}."
    if len(said) <= 5:
        return f"{verb} {len(steps)} events: {'; '.join(said)}."
    return f"{verb} {len(steps)} events, {'up to' if redo else 'back to before'}: {said[-1]}."
