"""Sentences about a game in progress (assistant/core/game/history.py, chain.py, tally.py, table.py, checks.py).

Made from events, facts and state, in the rule profile's words (Stable or Field, Unicorn or Animal).
"""

from __future__ import annotations

from collections.abc import Iterable

from assistant.core.cards.card import CardType
from assistant.core.game.chain import Link, PileCard, Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    DeckEmpty,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Event,
    Move,
    NextPhase,
    Phase,
    Play,
    Reshuffle,
    Resolve,
    Respond,
    ReturnToHand,
    Sacrifice,
    SetDeck,
    SetGoal,
    SetHand,
    Source,
    Steal,
    Swap,
    SwapHands,
    Take,
    ToNursery,
)
from assistant.core.game.facts import (
    BabyToNursery,
    BeginningSkipped,
    CardMustGo,
    DeckRanOut,
    Fact,
    GameOver,
    InstantResolved,
    LimitReached,
    LinkAdded,
    LinkResolved,
    MandatoryRemain,
    NeighHadNoEffect,
    OverHandLimit,
    PhaseBegan,
    PileOpenAgain,
    PileStopped,
    PlayResolved,
    Reshuffled,
    TallyChanged,
    TriggersLost,
    TurnBegan,
    WinBarred,
    WinWaits,
)
from assistant.core.game.objections import (
    ActionOver,
    ActionUsed,
    BabyNotInHand,
    CannotBeAnswered,
    CannotBeNeighed,
    CannotDestroy,
    CannotEnter,
    CannotNeigh,
    CannotPlay,
    CannotSteal,
    ChainOpen,
    DeckTooSmall,
    DestroyOwn,
    EmptyHand,
    GameIsOver,
    Guarded,
    HandOverLimit,
    Indestructible,
    InstantNotPlayed,
    MagicCannotAffect,
    MagicCannotDestroy,
    NeedsBasic,
    NoCopiesLeft,
    NoReshuffle,
    NotABaby,
    NotDrawn,
    NotForStable,
    NothingToAnswer,
    NothingToResolve,
    NotInDiscard,
    NotInNursery,
    NotInStable,
    NotInstant,
    NotYourTurn,
    Objection,
    OthersCannotPlay,
    OwnCard,
    Protected,
    RemovedCard,
    StealOwn,
    TriggerCannotDestroy,
    VariationKeptOut,
)
from assistant.core.game.state import GameState
from assistant.core.game.table import Table
from assistant.core.game.tally import Ending, Outcome, name_letters
from assistant.core.text import cards_count, name_list
from assistant.core.words.cardtext import type_name
from assistant.core.words.errors import NOTHING_WAITING

__all__ = [
    "NO_GAME",
    "NOTHING_TO_CONFIRM",
    "NOT_RECORDED",
    "NOTHING_TO_UNDO",
    "NOTHING_TO_REDO",
    "NO_SAVED_GAME",
    "RESUME_DECLINED",
    "resume_offer",
    "CONFIRM_QUESTION",
    "player_name",
    "game_card_name",
    "area_of",
    "creatures",
    "PHASE_NAMES",
    "SOURCE_NAMES",
    "describe_event",
    "describe_trigger",
    "describe_link",
    "link_names",
    "describe_fact",
    "describe_outcome",
    "describe_objection",
    "nothing_to_answer",
    "confirm_question",
]

NO_GAME = (
    "No game is being tracked. Start one with: new game, then the players' names, for example new game Ana Ben Cy."
)
NOTHING_TO_CONFIRM = "There is nothing to confirm."
NOT_RECORDED = "Not recorded."
NOTHING_TO_UNDO = "There is nothing to undo."
NOTHING_TO_REDO = "There is nothing to redo."
NO_SAVED_GAME = "There is no saved game to continue."
RESUME_DECLINED = "The saved game stays saved: say resume to continue it later."


def resume_offer(players: list[str]) -> str:
    """Asked at start when a saved game can be continued."""
    return f"The game of {name_list(players)} is saved. Say yes to continue it, or start with any command."


CONFIRM_QUESTION = "Record it anyway? Say yes or no."


def player_name(table: Table, seat: int) -> str:
    """A player's name."""
    return table.setup.players[seat]


def game_card_name(table: Table, card_id: str | None) -> str:
    """A card's printed name, or "a card" when the table did not name it."""
    if card_id is None:
        return "a card"
    card = table.cards.get(card_id)
    return card.name if card is not None else card_id


def area_of(table: Table, seat: int) -> str:
    """ "Ana's Stable" or "Ana's Field"."""
    return f"{player_name(table, seat)}'s {table.profile.vocabulary.area}"


def creatures(table: Table, count: int) -> str:
    """ "1 Unicorn", "3 Unicorns", "2 Animals"."""
    word = table.profile.vocabulary.creature
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


PHASE_NAMES = {
    Phase.BEGINNING: "Beginning of turn phase",
    Phase.DRAW: "Draw phase",
    Phase.ACTION: "Action phase",
    Phase.END: "End of turn phase",
}
SOURCE_NAMES = {
    Source.HAND: "hand",
    Source.DECK: "the deck",
    Source.DISCARD: "the discard pile",
    Source.NURSERY: "the Nursery",
}


def describe_event(table: Table, event: Event, before: GameState) -> str:
    """What an event did, in the past tense, without a full stop: "Ana played Rainbow Aura"."""

    def name(seat: int) -> str:
        return player_name(table, seat)

    def card(card_id: str | None) -> str:
        return game_card_name(table, card_id)

    if isinstance(event, Play):
        into = "" if event.into in (None, event.player) else f" into {area_of(table, event.into)}"
        return f"{name(event.player)} played {card(event.card)}{into}"
    if isinstance(event, Respond):
        return f"{name(event.player)} played {card(event.card)}"
    if isinstance(event, Resolve):
        if before.pile:
            top = before.pile[-1]
            return f"{card(top.card)} by {name(top.player)} resolved"
        if before.chain:
            return f"{link_names(table, before.chain[0])} resolved"
        return "Nothing resolved"
    if isinstance(event, Bring):
        source = "" if event.source is Source.HAND else f" from {SOURCE_NAMES[event.source]}"
        return f"{name(event.player)} brought {card(event.card)} into {area_of(table, event.into)}{source}"
    if isinstance(event, Steal):
        return f"{name(event.player)} stole {card(event.card)} from {area_of(table, event.owner)}"
    if isinstance(event, Destroy):
        return f"{name(event.player)} destroyed {card(event.card)} in {area_of(table, event.owner)}"
    if isinstance(event, Sacrifice):
        return f"{name(event.player)} sacrificed {card(event.card)}"
    if isinstance(event, Discard):
        return f"{name(event.player)} discarded {card(event.card)}"
    if isinstance(event, ReturnToHand):
        return f"{card(event.card)} went from {area_of(table, event.owner)} back to {name(event.owner)}'s hand"
    if isinstance(event, Draw):
        return f"{name(event.player)} drew {'a card' if event.count == 1 else cards_count(event.count)}"
    if isinstance(event, Take):
        return f"{name(event.player)} took {card(event.card)} from {SOURCE_NAMES[event.source]} and showed it"
    if isinstance(event, Swap):
        return (
            f"{card(event.card)} in {area_of(table, event.owner)} and {card(event.other_card)} in "
            f"{area_of(table, event.other_owner)} changed places"
        )
    if isinstance(event, SwapHands):
        return f"{name(event.player)} and {name(event.other)} swapped hands"
    if isinstance(event, Move):
        return f"{card(event.card)} moved from {area_of(table, event.owner)} to {area_of(table, event.into)}"
    if isinstance(event, ToNursery):
        return f"{card(event.card)} went from {area_of(table, event.owner)} back to the Nursery"
    if isinstance(event, NextPhase):
        skipped = "skipped" if event.skip else "ended"
        return f"{name(before.current)}'s {PHASE_NAMES[before.phase]} {skipped}"
    if isinstance(event, EndTurn):
        to = "" if event.to is None else f", and {name(event.to)} takes the next turn"
        return f"{name(before.current)}'s turn ended{to}"
    if isinstance(event, SetHand):
        return f"{name(event.player)} holds {cards_count(event.count)}"
    if isinstance(event, SetDeck):
        return f"The deck holds {cards_count(event.count)}"
    if isinstance(event, DeckEmpty):
        return "The deck ran out"
    if isinstance(event, Reshuffle):
        return "The discard pile was shuffled into a new deck"
    if isinstance(event, SetGoal):
        return f"{creatures(table, event.count)} now win"
    return type(event).__name__  # pragma: no cover - every event kind is described above


def describe_trigger(table: Table, trigger: Trigger) -> str:
    """One effect in the chain: "Claw Machine, may do", "Rainbow Unicorn entering Ana's Stable"."""
    card = game_card_name(table, trigger.card)
    if trigger.kind is TriggerKind.BEGIN:
        return f"{card}, must do"
    if trigger.kind is TriggerKind.BEGIN_OPTIONAL:
        return f"{card}, may do"
    if trigger.kind is TriggerKind.HERD:
        return f"the {trigger.card.capitalize()} Herd Bonus, may do"
    if trigger.kind is TriggerKind.ENTER:
        return f"{card} entering {area_of(table, trigger.owner)}"
    if trigger.kind is TriggerKind.LEAVE:
        return f"{card} leaving {area_of(table, trigger.owner)}"
    return f"the effect of {card}, played by {player_name(table, trigger.owner)}"


def describe_link(table: Table, link: Link) -> str:
    """A link of the chain: its effects, joined."""
    return name_list([describe_trigger(table, t) for t in link])


def link_names(table: Table, link: Link) -> str:
    """A link by its cards' names alone: "Sadistic Ritual and Claw Machine"."""
    names = [
        f"the {t.card.capitalize()} Herd Bonus" if t.kind is TriggerKind.HERD else game_card_name(table, t.card)
        for t in link
    ]
    return name_list(list(dict.fromkeys(names)))


def _pile_card(table: Table, card: PileCard) -> str:
    return f"{player_name(table, card.player)}'s {game_card_name(table, card.card)}"


def describe_fact(table: Table, fact: Fact, state: GameState) -> str:
    """One sentence for one fact, or "" when the event's own sentence already says it."""
    if isinstance(fact, PileStopped):
        stopper = _pile_card(table, fact.stopper)
        stopped = _pile_card(table, fact.stopped)
        if fact.played:
            return f"{stopper} resolves: {stopped} is Neighed and goes to the discard pile."
        return f"{stopper} resolves and stops {stopped}. Both go to the discard pile."
    if isinstance(fact, NeighHadNoEffect):
        neigh, target = _pile_card(table, fact.neigh), _pile_card(table, fact.target)
        if fact.shield == fact.target.card:
            why = f"{game_card_name(table, fact.shield)} cannot be Neighed"
        else:
            why = f"{game_card_name(table, fact.shield)} in {area_of(table, fact.target.player)} stops Neighs"
        return f"{neigh} has no effect: {why}. It goes to the discard pile, and {target} still stands."
    if isinstance(fact, LimitReached):
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)} with "
            f"{game_card_name(table, fact.card)}, more than {fact.limit}: sacrifice a "
            f"{table.profile.vocabulary.creature} card."
        )
    if isinstance(fact, CardMustGo):
        who, going = player_name(table, fact.player), game_card_name(table, fact.card)
        if fact.empty_hand:
            return f"{who}'s hand is empty: {going} must move into another player's {table.profile.vocabulary.area}."
        creature = table.profile.vocabulary.creature
        return f"{who} has no {creature} card in {area_of(table, fact.player)}: sacrifice {going}."
    if isinstance(fact, WinBarred):
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)} but cannot win while "
            f"{game_card_name(table, fact.card)} is in {area_of(table, fact.player)} with a "
            f"{type_name(CardType.BASIC, table.profile.vocabulary)} there."
        )
    if isinstance(fact, BeginningSkipped):
        return (
            f"{player_name(table, fact.player)} skips the Beginning of Turn phase while "
            f"{game_card_name(table, fact.card)} is in {area_of(table, fact.player)}."
        )
    if isinstance(fact, PileOpenAgain):
        return f"The pile is open again: {_pile_card(table, fact.top)} is on top."
    if isinstance(fact, InstantResolved):
        return f"{_pile_card(table, fact.card)} resolves."
    if isinstance(fact, PlayResolved):
        played = fact.card
        card = table.cards.get(played.card)
        name = game_card_name(table, played.card)
        if played.into is not None:
            return f"{name} is played: it enters {area_of(table, played.into)}."
        if card is not None and card.type is CardType.MAGIC:
            return f"{name} is played: it takes effect, then goes to the discard pile."
        return f"{name} is played and goes to the discard pile."
    if isinstance(fact, BabyToNursery):
        return f"{game_card_name(table, fact.card)} goes back to the Nursery, as Babies always do."
    if isinstance(fact, LinkAdded):
        if fact.position == 1:
            return f"Effect chain: {describe_link(table, fact.link)}."
        return f"Added to the chain, in place {fact.position}: {describe_link(table, fact.link)}."
    if isinstance(fact, LinkResolved):
        return "The chain is resolved." if fact.next is None else ""
    if isinstance(fact, TriggersLost):
        lost = name_list(
            [
                game_card_name(table, t.card)
                if t.kind is not TriggerKind.HERD
                else f"the {t.card.capitalize()} Herd Bonus"
                for t in fact.triggers
            ]
        )
        return f"Optional effects not used are lost for this turn: {lost}."
    if isinstance(fact, MandatoryRemain):
        must = name_list([game_card_name(table, t.card) for t in fact.triggers])
        return f"Mandatory, so still to do: {must}."
    if isinstance(fact, TurnBegan):
        return f"Turn {fact.turn}: {player_name(table, fact.player)}'s turn."
    if isinstance(fact, PhaseBegan):
        return f"{PHASE_NAMES[fact.phase]}."
    if isinstance(fact, OverHandLimit):
        excess = fact.hand - fact.limit
        return (
            f"{player_name(table, fact.player)} holds {cards_count(fact.hand)}, over the hand limit of {fact.limit}: "
            f"discard {excess}."
        )
    if isinstance(fact, DeckRanOut):
        return "The deck is empty."
    if isinstance(fact, Reshuffled):
        return f"Shuffle the discard pile to make a new deck: {cards_count(fact.count)}."
    if isinstance(fact, TallyChanged):
        changed = [seat for seat, (a, b) in enumerate(zip(fact.before, fact.after)) if a != b]
        return " ".join(f"{player_name(table, seat)} has {creatures(table, fact.after[seat])}." for seat in changed)
    if isinstance(fact, WinWaits):
        waiting = "pile and chain are" if state.pile and state.chain else "pile is" if state.pile else "chain is"
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)}, enough to win once the "
            f"{waiting} resolved."
        )
    if isinstance(fact, GameOver):
        return describe_outcome(table, fact.outcome, state)
    return ""


def describe_outcome(table: Table, outcome: Outcome, state: GameState) -> str:
    """The end of the game."""
    counts = table.tally(state)
    winner = outcome.winner if outcome.winner is not None else -1
    if outcome.ending is Ending.GOAL:
        return f"{player_name(table, winner)} wins with {creatures(table, counts[winner])}! The game is over."
    if outcome.ending is Ending.NO_WINNER:
        return "The deck ran out and by these rules nobody wins. The game is over."
    tied = name_list([player_name(table, seat) for seat in outcome.tied])
    most = creatures(table, max(counts))
    if outcome.ending is Ending.MOST:
        return f"The deck ran out. {player_name(table, winner)} wins with the most, {most}. The game is over."
    letters = {seat: name_letters(state.stables[seat], table.cards) for seat in outcome.tied}
    if outcome.ending is Ending.LETTERS:
        spread = ", ".join(f"{player_name(table, s)} {letters[s]}" for s in outcome.tied)
        return (
            f"The deck ran out. {tied} tie with {most}. Letters in the names of their "
            f"{table.profile.vocabulary.creature} cards: {spread}. {player_name(table, winner)} wins. "
            "The game is over."
        )
    return (
        f"The deck ran out. {tied} tie with {most} and with {letters[outcome.tied[0]]} letters in their names: "
        "everyone loses. The game is over."
    )


def describe_objection(table: Table, objection: Objection) -> str:
    """Why an event looks against the rules, in one sentence."""

    def name(seat: int) -> str:
        return player_name(table, seat)

    def card(card_id: str) -> str:
        return game_card_name(table, card_id)

    area = table.profile.vocabulary.area
    match objection:
        case GameIsOver():
            return "The game is over."
        case NotYourTurn(player, current):
            return f"It is {name(current)}'s turn, not {name(player)}'s."
        case NotDrawn(player):
            return f"{name(player)} has not drawn in the Draw phase yet."
        case ActionUsed(player):
            return f"{name(player)} has already played a card or drawn in this Action phase."
        case ActionOver(player):
            return f"{name(player)}'s Action phase is over."
        case ChainOpen():
            return "Effects in the chain must resolve first: say resolve when each is done."
        case InstantNotPlayed(_, played):
            return f"{card(played)} is an Instant card: it answers another player's card."
        case BabyNotInHand(_, baby):
            return (
                f"{card(baby)} is a Baby: Babies only enter a {area} from the Nursery and are never "
                "in a hand, the deck or the discard pile."
            )
        case NotABaby(named):
            return f"{card(named)} is not a Baby."
        case NotForStable(_, named):
            return f"{card(named)} does not go into a {area}."
        case RemovedCard(named):
            return f"{card(named)} was taken out of the deck for the 2-player game."
        case NoCopiesLeft(named, copies):
            have = "only 1 copy" if copies == 1 else f"{copies} copies"
            return f"The deck has {have} of {card(named)}, and the tracker already sees them all."
        case EmptyHand(player):
            return f"{name(player)} has no cards in hand."
        case NothingToAnswer():
            return nothing_to_answer(table)
        case NotInstant(_, named):
            return f"{card(named)} is not an Instant card."
        case CannotBeAnswered(_, top):
            return f"{card(top)} cannot be answered."
        case OwnCard(player, top):
            return f"The top card, {card(top)}, is {name(player)}'s own: Instants answer another player."
        case CannotNeigh(player, _, blocker):
            return f"{name(player)} cannot play Neigh cards while {card(blocker)} is in {area_of(table, player)}."
        case CannotBeNeighed(player, _, shield):
            return f"{name(player)}'s cards cannot be Neighed while {card(shield)} is in {area_of(table, player)}."
        case NotInStable(named, owner):
            return f"{card(named)} is not in {area_of(table, owner)}."
        case StealOwn():
            return f"Stealing takes a card from another player's {area}."
        case DestroyOwn():
            return f"Destroying is for another player's {area}; from your own it is a sacrifice."
        case Protected(_, guard, owner):
            return f"{area_of(table, owner)} holds {card(guard)}, which protects cards there."
        case NotInDiscard(named):
            return f"{card(named)} is not in the discard pile."
        case NotInNursery(named):
            return f"{card(named)} is not in the Nursery."
        case DeckTooSmall(left):
            return f"The deck has only {cards_count(left)}." if left else "The deck is empty."
        case HandOverLimit(player, hand, limit):
            return (
                f"{name(player)} holds {cards_count(hand)}, over the hand limit of {limit}: "
                f"discard {hand - limit} first."
            )
        case NoReshuffle():
            return "These rules do not shuffle the discard pile into a new deck."
        case NothingToResolve():
            return NOTHING_WAITING
        case CannotPlay(player, played, blocker):
            kind = type_name(table.card_of(played).type, table.profile.vocabulary)
            return f"{name(player)} cannot play {kind}s while {card(blocker)} is in {area_of(table, player)}."
        case CannotEnter(entering, into, blocker, owner):
            kind = type_name(table.card_of(entering).type, table.profile.vocabulary)
            where = f"{area_of(table, owner)} holds {card(blocker)}"
            return f"{card(entering)} cannot enter {area_of(table, into)}: {where}, and {kind}s cannot go there."
        case CannotSteal(player, blocker):
            return f"{name(player)} cannot steal cards while {card(blocker)} is in {area_of(table, player)}."
        case Indestructible(target):
            return f"{card(target)} cannot be destroyed or sacrificed: its own text says so."
        case MagicCannotDestroy(target, magic):
            return f"{card(target)} cannot be destroyed by a Magic card, and {card(magic)} is one."
        case OthersCannotPlay(player, played, blocker, owner):
            kind = type_name(table.card_of(played).type, table.profile.vocabulary)
            return f"{name(player)} cannot play {kind}s while {card(blocker)} is in {area_of(table, owner)}."
        case MagicCannotAffect(target, magic):
            return f"Magic cards cannot affect {card(target)}, and {card(magic)} is one."
        case NeedsBasic(entering, into):
            basic = type_name(CardType.BASIC, table.profile.vocabulary)
            where = area_of(table, into)
            return f"{card(entering)} can only enter a {area} that holds a {basic}, and {where} holds none."
        case VariationKeptOut(entering, into, blocker, variation):
            kind = f"{variation.capitalize()} {table.profile.vocabulary.creature} cards"
            where = area_of(table, into)
            return f"{card(entering)} cannot enter {where}: it holds {card(blocker)}, which keeps {kind} out."
        case CannotDestroy(player, blocker):
            where = area_of(table, player)
            return f"{name(player)}'s cards cannot destroy any card while {card(blocker)} is in {where}."
        case TriggerCannotDestroy(target, source):
            return f"{card(target)} cannot be destroyed by a triggered effect, and the effect of {card(source)} is one."
        case Guarded(target, owner, guard, source):
            where = area_of(table, owner)
            return f"{card(guard)} in {where} keeps the effect of {card(source)} away from {card(target)}."
    raise AssertionError(f"no sentence for {objection!r}")  # every kind is above; a test checks each


def nothing_to_answer(table: Table) -> str:
    """Said of an Instant played while nothing waits on the pile, in the game's own words."""
    return (
        "No card is being played, so there is nothing to answer. "
        f"A card brought directly into a {table.profile.vocabulary.area} cannot be Neighed."
    )


def confirm_question(table: Table, objections: Iterable[Objection]) -> str:
    """Asked before recording an event that looks against the rules."""
    reasons = " ".join(describe_objection(table, o) for o in objections)
    return f"That looks against the rules. {reasons} {CONFIRM_QUESTION}"
