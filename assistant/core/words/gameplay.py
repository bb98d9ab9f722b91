"""Sentences about a game in progress (assistant/core/game/history.py, chain.py, tally.py, table.py, checks.py).

Made from events, facts and state, in the rule profile's words (Stable or Field, Unicorn or Animal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from assistant.core.cards.card import CardType, Tag
from assistant.core.cards.wording import save_of, table_rule, taken_variation
from assistant.core.game.about import SaveInstead
from assistant.core.game.chain import Link, PileCard, Trigger, TriggerKind
from assistant.core.game.events import (
    Discard,
    Phase,
    Save,
    Source,
)
from assistant.core.game.facts import (
    AnimalAnswered,
    BabyToNursery,
    BackInDeck,
    BeginningSkipped,
    CardMustGo,
    CardTravelled,
    DeckRanOut,
    Fact,
    GameOver,
    GoesBackNow,
    HerdBonusIgnored,
    InstantResolved,
    InstantsBannedNow,
    LimitReached,
    LinkAdded,
    LinkResolved,
    MandatoryRemain,
    MayDraw,
    NeighHadNoEffect,
    OverHandLimit,
    PhaseBegan,
    PhaseSkipped,
    PileOpenAgain,
    PileStopped,
    PlayResolved,
    Reshuffled,
    SavedToHand,
    StartSkipped,
    TableKeeps,
    TallyChanged,
    TriggersLost,
    TurnBegan,
    TurnEndsNow,
    TurnSkipped,
    WinBarred,
    WinWaits,
)
from assistant.core.game.state import GameState
from assistant.core.game.table import Table
from assistant.core.game.tally import Ending, Outcome, name_letters
from assistant.core.text import cards_count, name_list
from assistant.core.words.cardtext import type_name

__all__ = [
    "targeting",
    "discarded",
    "NO_GAME",
    "save_offered",
    "save_instead",
    "cost_said",
    "save_question",
    "counted",
    "END_TAKEN_BACK",
    "NOTHING_TO_CONFIRM",
    "NOT_RECORDED",
    "NOTHING_TO_UNDO",
    "NOTHING_TO_REDO",
    "NO_SAVED_GAME",
    "RESUME_DECLINED",
    "resume_offer",
    "GAME_OVER",
    "DECK_EMPTY",
    "turn_began",
    "turn_and_phase",
    "chain_link_added",
    "herd_bonus_name",
    "player_name",
    "game_card_name",
    "short_card_name",
    "area_of",
    "end_with",
    "creatures",
    "PHASE_NAMES",
    "SOURCE_NAMES",
    "describe_trigger",
    "describe_link",
    "link_names",
    "describe_fact",
    "describe_outcome",
    "namers",
    "save_cost",
    "neighed",
    "pile_card_name",
    "with_article",
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


GAME_OVER = "The game is over."
DECK_EMPTY = "The deck is empty."


def turn_began(turn: int, player: str, brief: bool = False, duties: str = "") -> str:
    """A new turn: "Turn 5: Ben's turn.", or brief "Ben's turn." (under a second of speech: the decisive fact said
    again when the next key cut it, which must end before the key after; the number is on the status line). With
    its beginning-of-turn `duties` (`begin_duties`, unnamed), one sentence: "Turn 5, Ben's turn: must do Sadistic
    Ritual.", brief "Ben's turn: must do Sadistic Ritual."."""
    if duties:
        said = f"{player}'s turn: {duties}"
        return said if brief else f"Turn {turn}, {said}"
    return f"{player}'s turn." if brief else f"Turn {turn}: {player}'s turn."


def chain_link_added(position: int, link: str) -> str:
    """A link joined the effect chain, said in words made by the caller (its effects, or what they do)."""
    if position == 1:
        return f"Effect chain: {link}."
    return f"Added to the chain, in place {position}: {link}."


def herd_bonus_name(variation: str) -> str:
    """ "the Blue Herd Bonus"."""
    return f"the {variation.capitalize()} Herd Bonus"


def player_name(table: Table, seat: int) -> str:
    """A player's name."""
    return table.setup.players[seat]


def game_card_name(table: Table, card_id: str | None) -> str:
    """A card's printed name, or "a card" when the table did not name it."""
    if card_id is None:
        return "a card"
    card = table.cards.get(card_id)
    return card.name if card is not None else card_id


def short_card_name(name: str, others: Iterable[str] = ()) -> str:
    """A card's name without its colour or print in brackets, for brief speech ("Basic Unicorn (Blue)" → "Basic
    Unicorn"), unless that tells it apart from one of `others` (the names of the cards in play): "Basic Unicorn
    (Indigo)" where the deck holds Basic Unicorns of other colours, so the player knows which card it was."""
    short = name.split(" (")[0] if name.endswith(")") and " (" in name else name
    if short != name and any(other != name and other.split(" (")[0] == short for other in others):
        return name
    return short


def end_with(text: str, mark: str = ".") -> str:
    """The sentence with its end mark, never doubled after a name's own ("Ben played Hell Neigh!", not "Hell
    Neigh!."): a question's "?" takes the place of a name's "!" ("Any Neigh for Ana's Neigh, Mate?")."""
    if text.endswith(("!", "?", ".")):
        return text[:-1] + "?" if mark == "?" and text.endswith("!") else text
    return text + mark


def area_of(table: Table, seat: int) -> str:
    """ "Ana's Stable" or "Ana's Field"."""
    return f"{player_name(table, seat)}'s {table.profile.vocabulary.area}"


def creatures(table: Table, count: int) -> str:
    """ "1 Unicorn", "3 Unicorns", "2 Animals"."""
    return counted(table.profile.vocabulary.creature, count)


def counted(noun: str, count: int) -> str:
    """A count of the game's creature `noun` (singular): "1 Unicorn", "3 Unicorns"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


#: A win taken back by an undo, a decisive fact.
END_TAKEN_BACK = "Win taken back."


#: The chain's end, a decisive fact: short, to be heard between two keys.
CHAIN_RESOLVED = "Chain resolved."

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


def turn_and_phase(table: Table, state: GameState) -> str:
    """ "Turn 5, Ben's Action phase."."""
    return f"Turn {state.turn}, {player_name(table, state.current)}'s {PHASE_NAMES[state.phase]}."


def save_cost(table: Table, saver: str) -> str:
    """What a save "instead" costs its owner: "sacrificing Black Knight Unicorn", "discarding 1 card"."""
    return cost_said(game_card_name(table, saver), _save_discards(table, saver))


def _save_discards(table: Table, saver: str) -> int:
    """The cards the save of card `saver` discards instead (0: it sacrifices that card)."""
    card = table.cards.get(saver)
    save = save_of(card.text) if card is not None else None
    return save.discards if save is not None and save.discards else 0


def cost_said(saver: str, discards: int) -> str:
    """What a save "instead" costs, from its values: "discarding 1 card" (`discards`), else "sacrificing" the card
    named `saver`."""
    return f"discarding {cards_count(discards)}" if discards else f"sacrificing {saver}"


def save_offered(table: Table, save: Save, destroyed: bool, buttons: bool = False) -> str:
    """The question when a card about to be destroyed (or sacrificed) may be saved "instead" (Black Knight
    Unicorn): yes records the save, no what was said. With `buttons` (a phone's page, whose buttons answer) it
    says no "Say yes or no"."""
    return save_question(save_instead(table, save, destroyed), buttons)


def save_question(asked: SaveInstead, buttons: bool = False) -> str:
    """`save_offered` from what it asks, as values: "Ana may save Yay by discarding 1 card instead. Save it? Say yes,
    or no to let it be destroyed."."""
    fate = "destroyed" if asked.destroyed else "sacrificed"
    answer = "" if buttons else f" Say yes, or no to let it be {fate}."
    return f"{asked.player} may save {asked.card} by {cost_said(asked.saver, asked.discards)} instead. Save it?{answer}"


def save_instead(table: Table, save: Save, destroyed: bool) -> SaveInstead:
    """What `save_offered` asks, as values (`About.asked`): its owner's name, the card's, the saving card's and what
    it discards instead; a narrow braille display words it who first (`words.worded.words_for`)."""
    saver = game_card_name(table, save.other_card)
    discards = _save_discards(table, save.other_card)
    return SaveInstead(player_name(table, save.player), game_card_name(table, save.card), saver, discards, destroyed)


def namers(table: Table) -> tuple[Callable[[int], str], Callable[[str | None], str]]:
    """A seat's player's name and a card's name, in this game."""
    return partial(player_name, table), partial(game_card_name, table)


def discarded(table: Table, event: Discard, seat: int | None = None) -> str:
    """What a discard put on the discard pile: its card ("Basic Unicorn (Red)", "a card" when unnamed), "3 cards",
    or the whole hand ("every card in hand"; `seat`, the player who hears it: "every card in your hand")."""
    if event.whole:
        return "every card in your hand" if event.player == seat else "every card in hand"
    return cards_count(event.count) if event.count != 1 else game_card_name(table, event.card)


def targeting(table: Table, targets: tuple[int, ...], seat: int | None = None) -> str:
    """ ", targeting Ben", ", targeting Ben and Cy": the players a played card's effect was declared to aim at, said
    after the play ("" when none was); `seat`, the player who hears it, said as "you"."""
    if not targets:
        return ""
    return ", targeting " + name_list(["you" if aimed == seat else player_name(table, aimed) for aimed in targets])


def describe_trigger(table: Table, trigger: Trigger) -> str:
    """One effect in the chain: "Claw Machine, may do", "Rainbow Unicorn entering Ana's Stable"."""
    card = game_card_name(table, trigger.card)
    if trigger.kind is TriggerKind.BEGIN:
        return f"{card}, must do"
    if trigger.kind is TriggerKind.BEGIN_OPTIONAL:
        return f"{card}, may do"
    if trigger.kind is TriggerKind.HERD:
        return f"{herd_bonus_name(trigger.card)}, may do"
    if trigger.kind is TriggerKind.ENTER:
        return f"{card} entering {area_of(table, trigger.owner)}"
    if trigger.kind is TriggerKind.LEAVE:
        return f"{card} leaving {area_of(table, trigger.owner)}"
    if trigger.kind is TriggerKind.DUTY:
        return f"{card} in {area_of(table, trigger.owner)}"
    return f"the effect of {card}, played by {player_name(table, trigger.owner)}"


def describe_link(table: Table, link: Link) -> str:
    """A link of the chain: its effects, joined."""
    return name_list([describe_trigger(table, t) for t in link])


def link_names(table: Table, link: Link) -> str:
    """A link by its cards' names alone: "Sadistic Ritual and Claw Machine"."""
    names = [herd_bonus_name(t.card) if t.kind is TriggerKind.HERD else game_card_name(table, t.card) for t in link]
    return name_list(list(dict.fromkeys(names)))


def neighed(table: Table) -> str:
    """ "Neighed" in a game with a card named Neigh; "stopped" in one without (Llamas Unleashed)."""
    return "Neighed" if table.neigh_card else "stopped"


def with_article(word: str) -> str:
    """The word with its article: "an Animal", "a Unicorn" (said "yoo", so no "an")."""
    return f"an {word}" if word[:1] in "AEIO" else f"a {word}"


def pile_card_name(table: Table, card: PileCard) -> str:
    """A card on the pile, by whose it is: "Ana's Rainbow Aura"."""
    return f"{player_name(table, card.player)}'s {game_card_name(table, card.card)}"


def describe_fact(table: Table, fact: Fact, state: GameState, coached: bool = True) -> str:
    """One sentence for one fact, or "" when the event's own sentence already says it (one family of facts a
    function, one short branch a kind); how to say the next move only where `coached` (its audience's
    `words.audience.is_coached`: never on a phone's page, nor in the laptop's words of a phone's move)."""
    for family in _FACT_FAMILIES:
        said = family(table, fact, state, coached)
        if said is not None:
            return said
    return ""


def _pile_fact(table: Table, fact: Fact, state: GameState, coached: bool) -> str | None:
    """What the pile and its Instants did."""
    if isinstance(fact, PileStopped):
        stopper = pile_card_name(table, fact.stopper)
        stopped = pile_card_name(table, fact.stopped)
        if fact.taken:
            counter = table.cards.get(fact.stopper.card)
            taken = (taken_variation(counter.text) or counter.variation) if counter is not None else None
            kind = taken.capitalize() if taken else "card"
            taker = player_name(table, fact.stopper.player)
            return (
                f"{stopper} resolves and stops {stopped}. It is {with_article(kind)}, so {taker} takes it into "
                f"their hand; {game_card_name(table, fact.stopper.card)} goes to the discard pile."
            )
        if fact.played:
            stopped_word = neighed(table)
            return f"{stopper} resolves: {stopped} is {stopped_word} and goes to the discard pile."
        return f"{stopper} resolves and stops {stopped}. Both go to the discard pile."
    if isinstance(fact, MayDraw):
        names = [player_name(table, seat) for seat in fact.players]
        by = game_card_name(table, fact.counter.card)
        if len(names) > 1:
            return f"{by} lets {name_list(names)} each draw a card."
        return f"{by} stopped an Instant, so {names[0]} may draw, as the card says."
    if isinstance(fact, AnimalAnswered):
        creature = table.profile.vocabulary.creature
        return (
            f"{pile_card_name(table, fact.instant)} resolves: {player_name(table, fact.instant.player)} destroys "
            f"{with_article(creature)} card in {area_of(table, fact.played.player)}"
            f"{'; say destroy and the card.' if coached else '.'} "
            f"{pile_card_name(table, fact.played)} still resolves."
        )
    if isinstance(fact, NeighHadNoEffect):
        neigh, target = pile_card_name(table, fact.neigh), pile_card_name(table, fact.target)
        if fact.shield == fact.target.card:
            why = f"{game_card_name(table, fact.shield)} cannot be {neighed(table)}"
        else:
            why = f"{game_card_name(table, fact.shield)} in {area_of(table, fact.target.player)} stops Neighs"
        return f"{neigh} has no effect: {why}. It goes to the discard pile, and {target} still stands."
    if isinstance(fact, PileOpenAgain):
        return f"The pile is open again: {pile_card_name(table, fact.top)} is on top."
    if isinstance(fact, InstantResolved):
        return f"{pile_card_name(table, fact.card)} resolves."
    if isinstance(fact, PlayResolved):
        played = fact.card
        card = table.cards.get(played.card)
        name = game_card_name(table, played.card)
        if played.into is not None:
            return f"{name} is played: it enters {area_of(table, played.into)}."
        if card is not None and card.type is CardType.MAGIC:
            return f"{name} is played: it takes effect, then goes to the discard pile."
        return f"{name} is played and goes to the discard pile."
    if isinstance(fact, SavedToHand) and fact.saver == fact.card:  # its own way back (a Flying Unicorn)
        name, owner = game_card_name(table, fact.card), player_name(table, fact.player)
        return f"{name} goes back to {owner}'s hand, not the discard pile."
    if isinstance(fact, SavedToHand):
        return (
            f"{game_card_name(table, fact.saver)}: {game_card_name(table, fact.card)} goes to "
            f"{player_name(table, fact.player)}'s hand, not the discard pile."
        )
    return None


def _chain_fact(table: Table, fact: Fact, state: GameState, coached: bool) -> str | None:
    """The chain of effects, and the duties a card lays."""
    if isinstance(fact, LinkAdded):
        return chain_link_added(fact.position, describe_link(table, fact.link))
    if isinstance(fact, LinkResolved):
        return CHAIN_RESOLVED if fact.next is None else ""
    if isinstance(fact, TriggersLost):
        lost = name_list([game_card_name(table, t.card) if t.kind is not TriggerKind.HERD
                          else herd_bonus_name(t.card) for t in fact.triggers])  # fmt: skip
        return f"Optional effects not used are lost for this turn: {lost}."
    if isinstance(fact, MandatoryRemain):
        must = name_list([game_card_name(table, t.card) for t in fact.triggers])
        return f"Mandatory, so still to do: {must}."
    if isinstance(fact, LimitReached):
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)} with "
            f"{game_card_name(table, fact.card)}, more than {fact.limit}: sacrifice "
            f"{with_article(table.profile.vocabulary.creature)} card."
        )
    if isinstance(fact, CardMustGo):
        who, going = player_name(table, fact.player), game_card_name(table, fact.card)
        if fact.empty_hand and table.card_of(fact.card).has(Tag.GONE_ON_EMPTY_HAND):
            return f"{who}'s hand is empty: sacrifice {going}."
        if fact.empty_hand:
            return f"{who}'s hand is empty: {going} must move into another player's {table.profile.vocabulary.area}."
        creature = table.profile.vocabulary.creature
        return f"{who} has no {creature} card in {area_of(table, fact.player)}: sacrifice {going}."
    if isinstance(fact, CardTravelled):
        return (
            f"{player_name(table, fact.owner)}'s turn is over: {game_card_name(table, fact.card)} passes into "
            f"{area_of(table, fact.into)}."
        )
    if isinstance(fact, GoesBackNow):
        return (
            f"{player_name(table, fact.owner)}'s turn is over: {game_card_name(table, fact.unicorn)}, which "
            f"{game_card_name(table, fact.card)} took, goes back to {area_of(table, fact.home)} now"
            f"{'; say move.' if coached else '.'}"
        )
    if isinstance(fact, BabyToNursery):
        return f"{game_card_name(table, fact.card)} goes back to the Nursery, as Babies always do."
    if isinstance(fact, TableKeeps):
        rule = table_rule(table.card_of(fact.card).text) or ""
        return f"{game_card_name(table, fact.card)} in {area_of(table, fact.owner)}, kept by the table: {rule}"
    if isinstance(fact, HerdBonusIgnored):
        return (
            f"{game_card_name(table, fact.card)}: {herd_bonus_name(fact.variation)} does not affect "
            f"{player_name(table, fact.player)}."
        )
    return None


def _win_fact(table: Table, fact: Fact, state: GameState, coached: bool) -> str | None:
    """Counts and wins: the tally, a win barred or waiting, the game's end."""
    if isinstance(fact, WinBarred) and fact.card == "":
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)} but cannot win: the table said so."
        )
    if (
        isinstance(fact, WinBarred)
        and (barring := table.cards.get(fact.card))
        and not barring.has(Tag.NO_WIN_WITH_BASICS)
    ):
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)} but cannot win while "
            f"{game_card_name(table, fact.card)} is in {area_of(table, fact.player)}."
        )
    if isinstance(fact, WinBarred):
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)} but cannot win while "
            f"{game_card_name(table, fact.card)} is in {area_of(table, fact.player)} with a "
            f"{type_name(CardType.BASIC, table.profile.vocabulary)} there."
        )
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
    return None


def _turn_fact(table: Table, fact: Fact, state: GameState, coached: bool) -> str | None:
    """The turn, its phases, the hand limit and the deck."""
    if isinstance(fact, TurnBegan):
        return turn_began(fact.turn, player_name(table, fact.player))
    if isinstance(fact, PhaseBegan):
        return f"{PHASE_NAMES[fact.phase]}."
    if isinstance(fact, TurnSkipped):
        return f"{player_name(table, fact.player)} misses this turn."
    if isinstance(fact, InstantsBannedNow):
        by = f"{game_card_name(table, fact.card)}: n" if fact.card else "N"
        return f"{by}o one may play an Instant card until this turn is over."
    if isinstance(fact, BeginningSkipped):
        return (
            f"{player_name(table, fact.player)} skips the Beginning of Turn phase while "
            f"{game_card_name(table, fact.card)} is in {area_of(table, fact.player)}."
        )
    if isinstance(fact, StartSkipped):
        return (
            f"{game_card_name(table, fact.card)}: {player_name(table, fact.player)} skips the Beginning of Turn "
            "phase and the Draw phase, and the Action phase begins."
        )
    if isinstance(fact, PhaseSkipped):
        by = f"{game_card_name(table, fact.card)}: " if fact.card else ""
        return f"{by}{player_name(table, fact.player)} skips the {PHASE_NAMES[fact.phase]}."
    if isinstance(fact, TurnEndsNow):
        return (
            f"{game_card_name(table, fact.card)}: once its effect is used, {player_name(table, fact.player)}'s turn "
            "ends at once."
        )
    if isinstance(fact, OverHandLimit):
        excess = fact.hand - fact.limit
        return (
            f"{player_name(table, fact.player)} holds {cards_count(fact.hand)}, over the hand limit of {fact.limit}: "
            f"discard {excess}."
        )
    if isinstance(fact, DeckRanOut):
        return DECK_EMPTY
    if isinstance(fact, BackInDeck):
        if fact.count is None or fact.deck is None:
            return (
                "The deck's size is not known now: say deck and the number of cards in it."
                if coached
                else "The deck's size is not known now."
            )
        return f"{cards_count(fact.count)} went back into the deck, which now has {fact.deck}."
    if isinstance(fact, Reshuffled) and fact.deck is not None:
        return f"The deck now holds {cards_count(fact.deck)}, the discard pile's {fact.count} among them."
    if isinstance(fact, Reshuffled):
        return f"Shuffle the discard pile to make a new deck: {cards_count(fact.count)}."
    return None


_FACT_FAMILIES = (_pile_fact, _chain_fact, _win_fact, _turn_fact)


def describe_outcome(table: Table, outcome: Outcome, state: GameState, over_first: bool = False) -> str:
    """The end of the game, then "The game is over." (first instead, with `over_first`)."""
    ending = _ending(table, outcome, state)
    return f"{GAME_OVER} {ending}" if over_first else f"{ending} {GAME_OVER}"


def _ending(table: Table, outcome: Outcome, state: GameState) -> str:
    counts = table.tally(state)
    winner = outcome.winner if outcome.winner is not None else -1
    if outcome.ending is Ending.GOAL:
        return f"{player_name(table, winner)} wins with {creatures(table, counts[winner])}!"
    if outcome.ending is Ending.NO_WINNER:
        return "The deck ran out and by these rules nobody wins."
    tied = name_list([player_name(table, seat) for seat in outcome.tied])
    most = creatures(table, max(counts))
    if outcome.ending is Ending.MOST:
        return f"The deck ran out. {player_name(table, winner)} wins with the most, {most}."
    letters = {seat: name_letters(state.stables[seat], table.cards) for seat in outcome.tied}
    if outcome.ending is Ending.LETTERS:
        spread = ", ".join(f"{player_name(table, s)} {letters[s]}" for s in outcome.tied)
        return (
            f"The deck ran out. {tied} tie with {most}. Letters in the names of their "
            f"{table.profile.vocabulary.creature} cards: {spread}. {player_name(table, winner)} wins."
        )
    return (
        f"The deck ran out. {tied} tie with {most} and with {letters[outcome.tied[0]]} letters in their names: "
        "everyone loses."
    )
