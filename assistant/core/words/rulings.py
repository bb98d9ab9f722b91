"""Sentences for what looks against the rules: each objection (`assistant/core/game/objections.py`) in one
sentence, and the question a warning asks. The table decides; a warned event can still be recorded."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from assistant.core.cards.card import CardType, Tag
from assistant.core.cards.wording import Cost, Need, UnicornAction
from assistant.core.game.about import About, RecordAnyway, Topic
from assistant.core.game.events import Phase
from assistant.core.game.objections import (
    ActionImpossible,
    ActionOver,
    ActionUsed,
    BabyNotInHand,
    CannotBeAnswered,
    CannotBeNeighed,
    CannotDestroy,
    CannotEnter,
    CannotNeigh,
    CannotPlay,
    CannotSave,
    CannotSteal,
    ChainOpen,
    DeckTooSmall,
    DestroyOwn,
    EffectForbidden,
    EmptyHand,
    ExtraIsAPlay,
    FirstNotDone,
    GameIsOver,
    Guarded,
    HandOverLimit,
    HandTooShort,
    HeldIn,
    Impossible,
    Indestructible,
    InstantNotPlayed,
    InstantsBanned,
    MagicCannotAffect,
    MagicCannotDestroy,
    MandatoryFirst,
    MandatoryNotDone,
    NameBanned,
    NeedsAllVariations,
    NeedsBasic,
    NeedsVariation,
    NoCopiesLeft,
    NoReshuffle,
    NotABaby,
    NotAnAnimal,
    NotAUnicornHere,
    NotDrawn,
    NotForStable,
    NotGivenBack,
    NothingToAnswer,
    NothingToResolve,
    NothingToUse,
    NotInDiscard,
    NotInNursery,
    NotInStable,
    NotInstant,
    NotYourTurn,
    Objection,
    OthersCannotPlay,
    OwnCard,
    PhaseIsSkipped,
    Protected,
    RemovedCard,
    SelectedTwice,
    StealOwn,
    TargetUnfit,
    TriggerCannotDestroy,
    VariationKeptOut,
)
from assistant.core.game.segment import Part, Segment, Verbatim
from assistant.core.game.table import Table
from assistant.core.text import cards_count
from assistant.core.words.cardtext import type_name
from assistant.core.words.errors import NOTHING_WAITING
from assistant.core.words.gameplay import (
    DECK_EMPTY,
    GAME_OVER,
    PHASE_NAMES,
    area_of,
    namers,
    neighed,
    with_article,
)

__all__ = [
    "confirm_segments",
    "CONFIRM_QUESTION",
    "WARNING_START",
    "describe_objection",
    "nothing_to_answer",
    "confirm_question",
    "phone_warning",
    "objection_reasons",
    "ASK_ANYWAY",
    "ASK_NARROW",
    "short_objection",
    "warning_asked",
]

#: How a warning begins: the question first and short (a second of speech), so a key pressed a second later has
#: still heard what is asked; the reasons that follow say it is against the rules.
WARNING_START = "Record it anyway?"
CONFIRM_QUESTION = "Say yes or no."
#: An effect in the chain still to resolve, the reason a move waits (the laptop adds how to say resolve).
CHAIN_OPEN = "Effects in the chain must resolve first."
#: The question of a warning after its short reason, in one breath: "Ana can't Neigh: Ginormous Unicorn. Record
#: anyway?" (about a second of speech, so it is heard before the answer comes at table pace).
ASK_ANYWAY = "Record anyway?"
#: `ASK_ANYWAY` first in a warning on a braille display of 20 cells or fewer ("Record? Cy has not drawn."): its
#: first window (11 cells of text at 12) holds the question and who it is about.
ASK_NARROW = "Record?"

#: What a Magic card's effect needs to act on (`Impossible`), as said.
_NEEDS = {
    Need.OTHERS_UNICORN: "a Unicorn card it can destroy in another player's Stable",
    Need.OTHERS_UNICORN_TO_TAKE: "a Unicorn card in another player's Stable",
    Need.OTHERS_BASIC: "a Basic Unicorn card in another player's Stable",
    Need.OTHERS_BABY: "a Baby Unicorn card in another player's Stable",
    Need.UPGRADE_THERE_OR_DOWNGRADE_HERE: "an Upgrade card in another player's Stable or a Downgrade card in yours",
    Need.ANY_UPGRADE_OR_DOWNGRADE: "an Upgrade or Downgrade card in a Stable",
    Need.UNICORN_IN_DISCARD: "a Unicorn card in the discard pile",
}


#: A defined action done, said after "nothing was".
_PAST = {
    "draw": "drawn",
    "discard": "discarded",
    "sacrifice": "sacrificed",
    "destroy": "destroyed",
    "steal": "stolen",
    "to_deck": "put back into the deck",
    "return_to_hand": "returned to a hand",
}


#: An action a card's effect must do (`EffectForbidden`), said after "must".
_ACTION_VERBS = {
    UnicornAction.DESTROY: "destroy a card",
    UnicornAction.STEAL: "steal a card",
    UnicornAction.MOVE: "move a card",
    UnicornAction.SACRIFICE: "sacrifice a card",
    UnicornAction.RETURN: "return a card to a hand",
    UnicornAction.NURSERY: "send a Baby to the Nursery",
    UnicornAction.DECK: "shuffle a card into the deck",
    UnicornAction.SWAP: "swap a card",
    UnicornAction.TO_DISCARD: "put a card in the discard pile",
}


#: What an effect on Unicorn cards would do to a card, said after "cannot".
_DONE_TO_A_UNICORN = {
    UnicornAction.DESTROY: "destroy it",
    UnicornAction.STEAL: "steal it",
    UnicornAction.MOVE: "move it",
    UnicornAction.SACRIFICE: "make its owner sacrifice it",
    UnicornAction.RETURN: "return it to a hand",
    UnicornAction.NURSERY: "send it to the Nursery",
    UnicornAction.DECK: "shuffle it into the deck",
    UnicornAction.SWAP: "swap it",
    UnicornAction.TO_DISCARD: "put it in the discard pile",
}


def describe_objection(table: Table, objection: Objection, phone: bool = False) -> str:
    """Why an event looks against the rules, in one sentence (one family of objections a function, one short case a
    kind). `phone`: as the phones' page shows it, without how to say the next move (its buttons say how)."""
    if phone and isinstance(objection, ChainOpen):
        return CHAIN_OPEN
    for family in _OBJECTION_FAMILIES:
        said = family(table, objection)
        if said is not None:
            return said
    raise AssertionError(f"no sentence for {objection!r}")  # every kind is below; a test checks each


def _turn_objection(table: Table, objection: Objection) -> str | None:
    """The turn, the phase, the deck and the hand: what may be done now."""
    name, card = namers(table)
    match objection:
        case GameIsOver():
            return GAME_OVER
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
        case EmptyHand(player):
            return f"{name(player)} has no cards in hand."
        case HandTooShort(player, asked, held):
            return f"{name(player)} holds only {cards_count(held)}: there are not {asked} to discard."
        case DeckTooSmall(left):
            return f"The deck has only {cards_count(left)}." if left else DECK_EMPTY
        case HandOverLimit(player, hand, limit):
            return (
                f"{name(player)} holds {cards_count(hand)}, over the hand limit of {limit}: "
                f"discard {hand - limit} first."
            )
        case NoReshuffle():
            return "These rules do not shuffle the discard pile into a new deck."
        case NothingToResolve():
            return NOTHING_WAITING
        case InstantsBanned(_, _, ban):
            why = f"{card(ban)} says so" if ban else "the table said so"
            return f"No one may play an Instant card until this turn is over: {why}."
        case _:
            return None


def _card_objection(table: Table, objection: Objection) -> str | None:
    """Where a card is, and what kind it is."""
    name, card = namers(table)
    area = table.profile.vocabulary.area
    match objection:
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
        case NotInStable(named, owner):
            return f"{card(named)} is not in {area_of(table, owner)}."
        case StealOwn():
            return f"Stealing takes a card from another player's {area}."
        case DestroyOwn():
            return f"Destroying is for another player's {area}; from your own it is a sacrifice."
        case NotInDiscard(named):
            return f"{card(named)} is not in the discard pile."
        case NotInNursery(named):
            return f"{card(named)} is not in the Nursery."
        case _:
            return None


def _answer_objection(table: Table, objection: Objection) -> str | None:
    """Answering the card on the pile."""
    name, card = namers(table)
    match objection:
        case NothingToAnswer():
            return nothing_to_answer(table)
        case NotInstant(_, named):
            return f"{card(named)} is not an Instant card."
        case NotAnAnimal(_, named, top):
            creature = table.profile.vocabulary.creature
            return f"{card(named)} answers {with_article(creature)} card being played, and {card(top)} is not one."
        case CannotBeAnswered(_, top):
            return f"{card(top)} cannot be answered."
        case OwnCard(player, top):
            return f"The top card, {card(top)}, is {name(player)}'s own: Instants answer another player."
        case CannotNeigh(player, _, blocker):
            return f"{name(player)} cannot play Neigh cards while {card(blocker)} is in {area_of(table, player)}."
        case CannotBeNeighed(player, _, shield):
            return (
                f"{name(player)}'s cards cannot be {neighed(table)} while {card(shield)} is in "
                f"{area_of(table, player)}."
            )
        case _:
            return None


def _blocked_objection(table: Table, objection: Objection) -> str | None:
    """A card in a Stable that stops a player's move."""
    name, card = namers(table)
    match objection:
        case CannotPlay(player, played, blocker):
            kind = type_name(table.card_of(played).type, table.profile.vocabulary)
            return _cannot_play(name(player), kind, card(blocker), area_of(table, player))
        case CannotSteal(player, blocker):
            return f"{name(player)} cannot steal cards while {card(blocker)} is in {area_of(table, player)}."
        case Indestructible(target):
            return f"{card(target)} cannot be destroyed or sacrificed: its own text says so."
        case MagicCannotDestroy(target, magic):
            return f"{card(target)} cannot be destroyed by a Magic card, and {card(magic)} is one."
        case OthersCannotPlay(player, played, blocker, owner):
            kind = type_name(table.card_of(played).type, table.profile.vocabulary)
            return _cannot_play(name(player), kind, card(blocker), area_of(table, owner))
        case MagicCannotAffect(target, magic):
            return f"Magic cards cannot affect {card(target)}, and {card(magic)} is one."
        case CannotDestroy(player, blocker):
            where = area_of(table, player)
            return f"{name(player)}'s cards cannot destroy any card while {card(blocker)} is in {where}."
        case TriggerCannotDestroy(target, source):
            return f"{card(target)} cannot be destroyed by a triggered effect, and the effect of {card(source)} is one."
        case NameBanned(player, played, blocker):
            return (
                f"{name(player)} cannot play a card with Llama in its name while {card(blocker)} is in "
                f"{area_of(table, player)}."
            )
        case Guarded(target, owner, guard, source):
            where = area_of(table, owner)
            return f"{card(guard)} in {where} keeps the effect of {card(source)} away from {card(target)}."
        case Protected(_, guard, owner):
            return f"{area_of(table, owner)} holds {card(guard)}, which protects cards there."
        case _:
            return None


def _entry_objection(table: Table, objection: Objection) -> str | None:
    """A card that cannot enter, or leave, a Stable."""
    name, card = namers(table)
    area = table.profile.vocabulary.area
    match objection:
        case CannotEnter(entering, into, blocker, owner):
            kind = type_name(table.card_of(entering).type, table.profile.vocabulary)
            where = f"{area_of(table, owner)} holds {card(blocker)}"
            if owner != into and table.card_of(blocker).has(Tag.BASICS_ONLY_HERE):  # Queen Bee: only its Stable
                return (
                    f"{card(entering)} cannot enter {area_of(table, into)}: while {card(blocker)} is in "
                    f"{area_of(table, owner)}, {kind}s may enter no {table.profile.vocabulary.area} but that one."
                )
            return f"{card(entering)} cannot enter {area_of(table, into)}: {where}, and {kind}s cannot go there."
        case NeedsBasic(entering, into):
            basic = type_name(CardType.BASIC, table.profile.vocabulary)
            where = area_of(table, into)
            return f"{card(entering)} can only enter a {area} that holds a {basic}, and {where} holds none."
        case VariationKeptOut(entering, into, blocker, variation):
            kind = f"{variation.capitalize()} {table.profile.vocabulary.creature} cards"
            where = area_of(table, into)
            return f"{card(entering)} cannot enter {where}: it holds {card(blocker)}, which keeps {kind} out."
        case NeedsAllVariations(entering, into, missing):
            variations = [v.capitalize() for v in missing]
            lacking = variations[0] if len(variations) == 1 else f"{', '.join(variations[:-1])} or {variations[-1]}"
            return (
                f"{card(entering)} can only enter a {area} that holds an {table.profile.vocabulary.creature} of "
                f"each variation, and {area_of(table, into)} has no {lacking}."
            )
        case NotAUnicornHere(target, owner, mask, effect, action):
            return (
                f"{card(target)} is no Unicorn while {card(mask)} is in {area_of(table, owner)}, so "
                f"{card(effect)} cannot {_DONE_TO_A_UNICORN[action]}."
            )
        case CannotSave(player, saved, saver):
            return f"{card(saver)} in {area_of(table, player)} cannot save {card(saved)} now, as its text says."
        case PhaseIsSkipped(player, skipper, phase):
            by = f"{card(skipper)}'s effect skipped" if skipper else "The table skipped"
            what = "Draw phase draw" if phase is Phase.DRAW else "play or draw in the Action phase"
            return f"{by} {name(player)}'s {PHASE_NAMES[phase]}, so there is no {what}."
        case ExtraIsAPlay(player, giver):
            return f"{name(player)} already played; {card(giver)} gives one more card to play, not a draw."
        case FirstNotDone(_, joined, first, second):
            return (
                f"{card(joined)} lets its player {second} only once they {first}: its text joins the two with then, "
                f"and nothing was {_PAST[first]} yet."
            )
        case NothingToUse(player, used):
            return f"{card(used)} has no optional effect of {name(player)}'s waiting to be used now."
        case EffectForbidden(player, played, blocker, action):
            verb = _ACTION_VERBS[action]
            return (
                f"{card(played)} must {verb}, and {card(blocker)} in {area_of(table, player)} forbids "
                f"{name(player)} to {verb}: a card that asks for the impossible may not be played."
            )
        case TargetUnfit(player, played, target, need):
            aim = f"{name(player)}'s own Stable" if target == player else f"{area_of(table, target)}, which holds none"
            return (
                f"{card(played)} needs {_NEEDS[need]}, and {name(player)} aims it at {aim}: the target "
                "declared cannot be the one it acts on."
            )
        case Impossible(_, played, need):
            return (
                f"{card(played)} needs {_NEEDS[need]}, and there is none: a card that asks for the impossible may "
                "not be played."
            )
        case SelectedTwice(chosen, _, source):
            return (
                f"{card(chosen)} was already chosen by this link of the chain, {card(source)}'s: the same card may "
                "not be chosen twice in one link."
            )
        case ActionImpossible(player, played, cost, found):
            there = "there is none" if not found else f"there {'is' if found == 1 else 'are'} only {found}"
            return (
                f"{card(played)} must {cost.action} {_cost_cards(table, cost, player)}, and {there} it can: a card "
                "that asks for the impossible may not be played."
            )
        case NeedsVariation(player, played, variation):
            return (
                f"{name(player)} can play {card(played)} only while {area_of(table, player)} holds a "
                f"{variation.capitalize()} card."
            )
        case HeldIn(held, owner, blocker, variation):
            kind = f"{variation.capitalize()} {table.profile.vocabulary.creature} cards"
            return (
                f"{card(held)} cannot leave {area_of(table, owner)} for another player's: {card(blocker)} there "
                f"holds {kind} in."
            )
        case _:
            return None


def _cost_cards(table: Table, cost: Cost, player: int) -> str:
    """The cards a cost acts on and where they are: "a card in Ana's Stable", "2 cards from Ana's hand", "a Llama
    card in Ana's Field", "2 cards in one other player's Field"."""
    name, _ = namers(table)
    words = table.profile.vocabulary
    kinds = {"unicorn": words.creature, "baby": f"Baby {words.creature}", "basic": f"Basic {words.creature}"}
    noun = f"{kinds.get(cost.kind, cost.kind.capitalize())} card".lstrip()
    what = f"a {noun}" if cost.count == 1 else f"{cost.count} {noun}s"
    if cost.action == "discard":
        return f"{what} from {name(player)}'s hand"
    if cost.action == "sacrifice":
        return f"{what} in {area_of(table, player)}"
    if cost.one_player:
        return f"{what} in one other player's {words.area}"
    return f"{what} in other players' {words.area}s"


def _duty_objection(table: Table, objection: Objection) -> str | None:
    """A mandatory duty left undone: an effect resolved with nothing done, a Unicorn not given back."""
    name, card = namers(table)
    match objection:
        case MandatoryNotDone(_, duty, actions):
            undone = " or ".join(_PAST[action] for action in actions)
            return (
                f"{card(duty)}'s effect is mandatory, and nothing was {undone} yet: it stays in the chain until it "
                "is done."
            )
        case NotGivenBack(player, giver, unicorn, home, holder):
            return (
                f"{card(unicorn)}, which {card(giver)} took, is still in {area_of(table, holder)}: it goes back to "
                f"{area_of(table, home)} before {name(player)}'s turn ends; say move."
            )
        case MandatoryFirst(taken, owner, mandatory):
            return (
                f"{card(mandatory)}'s effect is mandatory and needs {card(taken)} in {area_of(table, owner)}: in one "
                "link, the targets of mandatory effects are chosen before those of optional ones."
            )
        case _:
            return None


_OBJECTION_FAMILIES = (
    _turn_objection,
    _card_objection,
    _answer_objection,
    _blocked_objection,
    _entry_objection,
    _duty_objection,
)


def _cannot_play(player: str, kind: str, blocker: str, where: str) -> str:
    return f"{player} cannot play {kind}s while {blocker} is in {where}."


def nothing_to_answer(table: Table) -> str:
    """Said of an Instant played while nothing waits on the pile, in the game's own words."""
    return (
        "No card is being played, so there is nothing to answer. "
        f"A card brought directly into a {table.profile.vocabulary.area} cannot be {neighed(table)}."
    )


def objection_reasons(table: Table, objections: Iterable[Objection], phone: bool = False) -> str:
    """Why an event looks against the rules, a sentence for each objection (`phone`: in the phones' words)."""
    return " ".join(describe_objection(table, o, phone) for o in objections)


def short_objection(table: Table, objection: Objection) -> str:
    """Why an event looks against the rules in a few words, said with the question in one breath ("Ana can't
    Neigh: Ginormous Unicorn."); the full sentence (`describe_objection`) where there is no shorter one."""
    name, card = namers(table)
    match objection:
        case NotYourTurn(player, current):
            return f"{name(current)}'s turn, not {name(player)}'s."
        case NotDrawn(player):
            return f"{name(player)} has not drawn."
        case ActionUsed(player):
            return f"{name(player)} already played or drew."
        case ActionOver(player):
            return f"{name(player)}'s Action phase is over."
        case ChainOpen():
            return "The chain must resolve first."
        case CannotNeigh(player, _, blocker):
            return f"{name(player)} can't Neigh: {card(blocker)}."
        case CannotBeNeighed(player, _, shield):
            return f"{name(player)} can't be {neighed(table)}: {card(shield)}."
        case CannotPlay(player, _, blocker) | OthersCannotPlay(player, _, blocker, _):
            return f"{name(player)} can't play that: {card(blocker)}."
        case CannotSteal(player, blocker):
            return f"{name(player)} can't steal: {card(blocker)}."
        case CannotDestroy(player, blocker):
            return f"{name(player)} can't destroy: {card(blocker)}."
        case Protected(_, guard, _):
            return f"Protected: {card(guard)}."
        case EmptyHand(player):
            return f"{name(player)} has no cards in hand."
        case Indestructible(target, sacrificed):
            return f"{card(target)} can't be {'sacrificed' if sacrificed else 'destroyed'}."
    return describe_objection(table, objection)


def warning_asked(short: str) -> str:
    """A warning's decisive fact: its short reason and the question, in one breath."""
    return f"{short} {ASK_ANYWAY}"


def phone_warning(reasons: str, short: str = "") -> str:
    """A warning as a phone's page shows it: the short reason and the question, then the reasons in full; its
    buttons answer, so no "Say yes or no."."""
    if not short:
        return f"{WARNING_START} {reasons}"
    return " ".join(part for part in (warning_asked(short), reasons.strip()) if part)


def confirm_question(reasons: str, short: str = "") -> str:
    """Asked before recording an event that looks against the rules: the short reason and the question in one
    breath ("Ana can't Neigh: Ginormous Unicorn. Record anyway?"), then the `reasons` in full, then how to answer;
    without `short`, the question first, then the reasons."""
    if not short:
        return f"{WARNING_START} {reasons} {CONFIRM_QUESTION}"
    return " ".join(part for part in (warning_asked(short), reasons.strip(), CONFIRM_QUESTION) if part)


def confirm_segments(table: Table, objections: Sequence[Objection]) -> tuple[Segment, ...]:
    """`confirm_question` as a reply's segments, on one line: its decisive fact first (the first objection's short
    reason and the question, `warning_asked`, typed as a warning: `RecordAnyway`, worded by `words_for`), then the
    reasons in full where they say more (`objection_reasons`) and how to answer. Raises IndexError for no
    objection."""
    fact = About(Topic.WARNING, asked=RecordAnyway(objections[0]), table=table)  # (narrow: the question first)
    reasons = objection_reasons(table, objections)
    full = "" if reasons == short_objection(table, objections[0]) else reasons.strip()
    rest = (Segment(Verbatim(part), joined=True) for part in (full, CONFIRM_QUESTION) if part)
    return (Segment(fact, (fact,), part=Part.FACT), *rest)
