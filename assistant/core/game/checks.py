"""What about an event looks against the rules, in a state: `check(table, state, event)`.

The physical table is the authority: an objection is announced as a warning and the event can still be recorded
(`assistant/core/game/history.py`). Each objection is a small typed record (`assistant/core/game/objections.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from assistant.core.cards.card import VARIATIONS, Card, CardType, Tag
from assistant.core.cards.wording import (
    UnicornAction,
    costs,
    duty_is_mandatory,
    needed_target,
    needed_variation,
    then_join,
    turn_costs,
)
from assistant.core.game import events
from assistant.core.game.acting import is_basic, saves, stable_card_with, triggers_silenced
from assistant.core.game.chain import Link, Trigger, TriggerKind, answers_animal, enters_a_stable, is_neigh
from assistant.core.game.declared import using
from assistant.core.game.events import Event, Gathered, Phase, Source
from assistant.core.game.moves import ACTION_OF, acted_on, prepare, still_borrowed
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
    HandOverLimit,
    HandTooShort,
    HeldIn,
    Impossible,
    InstantNotPlayed,
    InstantsBanned,
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
    RemovedCard,
    SelectedTwice,
    StealOwn,
    TargetUnfit,
    VariationKeptOut,
)
from assistant.core.game.protection import (
    Harm,
    cards_for,
    effect_of_play,
    has_target,
    open_to,
    protections,
    target_fits,
)
from assistant.core.game.rules import DeckOut
from assistant.core.game.state import GameState, skipped_by
from assistant.core.game.table import Table


def check(table: Table, state: GameState, event: Event) -> tuple[Objection, ...]:
    """What about the event looks against the rules, in this state; empty when nothing does."""
    s = prepare(table, state, event)
    out: list[Objection] = []
    if s.outcome is not None and not isinstance(
        event, (events.SetHand, events.SetDeck, events.SetGoal, events.CannotWin)
    ):
        out.append(GameIsOver())
    checker = _CHECKS.get(type(event))
    if checker is not None:
        checker(table, s, event, out)
    _check_then(table, s, event, out)
    _check_selected(s, event, out)
    _check_mandatory_first(table, s, event, out)
    return tuple(out)


def _check_selected(s: GameState, event: Event, out: list[Objection]) -> None:
    """A card the link being done (the chain's first) already took into a Stable, chosen again by an event of the
    same link (000, "Order of Resolution": "If multiple triggered effects require a target, the same card may not be
    selected twice in the same link"). Copies of one card are told apart only by count: while the Stable holds more
    copies than the link took into it, the one chosen may be another."""
    if not s.chain:
        return
    for card, owner in acted_on(event):
        taken = s.selected.count((card, owner))
        if taken and taken >= s.players[owner].stable.count(card):
            out.append(SelectedTwice(card, owner, s.chain[0][0].card))


def _check_mandatory_first(table: Table, s: GameState, event: Event, out: list[Objection]) -> None:
    """A card of a Stable taken, while a link of several effects is done, by an action that is not what a mandatory
    effect of the link not done yet asks, when that effect needs it (`_needed_by`): 000, "Order of Resolution":
    targets for mandatory effects are chosen first."""
    link = s.chain[0] if s.chain else ()
    taken = acted_on(event)
    if len(link) < 2 or not taken:
        return
    action = ACTION_OF.get(type(event), "")  # ("": an action no effect is done by, a move)
    for trigger in _undone_mandatory(table, s):
        needed = _needed_by(table, s, trigger, action)
        out += [MandatoryFirst(card, seat, trigger.card) for card, seat in taken if (card, seat) in needed]


def _needed_by(table: Table, s: GameState, trigger: Trigger, action: str) -> set[tuple[str, int]]:
    """The cards of a Stable, each with its seat, that a mandatory effect could not be done without: those its
    sacrifice or destroy may be paid with, where they are no more than it needs; none for an action of its own kind
    (that does it) or a discard (it takes no card of a Stable)."""
    needed: set[tuple[str, int]] = set()
    for cost in turn_costs(table.card_of(trigger.card).text):
        if cost.action in (action, "discard"):
            continue
        own = cost.action == "sacrifice"
        for seat in (t for t in range(len(s.stables)) if (t == trigger.owner) == own):
            cards = open_to(table, s.stables, seat, cost, (trigger,))
            if len(cards) <= cost.count:
                needed |= {(card, seat) for card in cards}
    return needed


def _check_then(table: Table, s: GameState, event: Event, out: list[Objection]) -> None:
    """The second of two actions a card in the effect being done (the chain's first link) joins with "then",
    recorded while its first was not (rulebook 002): Two-For-One's destroy before its sacrifice. Not while only
    optional beginning-of-turn effects wait (a draw then is the Draw phase's; `use` one to do it)."""
    action = ACTION_OF.get(type(event))
    link = s.chain[0] if s.chain else ()
    if action is None or all(t.kind.is_optional_at_beginning for t in link):
        return
    for trigger in link:
        card = table.cards.get(trigger.card) if trigger.kind is not TriggerKind.HERD else None
        joined = then_join(card.text) if card is not None else None
        if joined is not None and joined[1] == action and joined[0] not in s.done:
            out.append(FirstNotDone(getattr(event, "player", trigger.owner), trigger.card, *joined))
            return


def _check_hand(table: Table, s: GameState, player: int, out: list[Objection]) -> None:
    if s.players[player].hand == 0:
        out.append(EmptyHand(player))


def _check_copies(table: Table, s: GameState, card_id: str, out: list[Objection]) -> None:
    card = table.card_of(card_id)
    if not table.cards.copies_known(card):  # a placeholder count is no reason to doubt the table
        return
    if table.copies_seen(s, card_id) >= card.copies:
        out.append(NoCopiesLeft(card_id, card.copies))


def _check_in_stable(table: Table, s: GameState, card_id: str, owner: int, out: list[Objection]) -> None:
    if card_id not in s.players[owner].stable:
        out.append(NotInStable(card_id, owner))


def _check_play(table: Table, s: GameState, e: events.Play, out: list[Objection]) -> None:
    card = table.card_of(e.card)
    if card.type is CardType.INSTANT:
        out.append(InstantNotPlayed(e.player, e.card))
    if card.type is CardType.BABY:
        out.append(BabyNotInHand(e.player, e.card))
    if e.card in table.removed:
        out.append(RemovedCard(e.card))
    by_effect = table.playing_effect(s.chain)
    if e.player != s.current and not by_effect:
        out.append(NotYourTurn(e.player, s.current))
    elif card.type is not CardType.INSTANT and not by_effect:
        _check_action(table, s, e.player, out)
    stopper = _PLAY_STOPPERS.get(card.type)
    blocker = stable_card_with(table.cards, s.stables, e.player, stopper) if stopper else None
    if blocker:
        out.append(CannotPlay(e.player, e.card, blocker))
    for owner in range(len(s.players)) if card.type is CardType.BASIC else ():
        queen = stable_card_with(table.cards, s.stables, owner, Tag.STOPS_OTHERS_BASICS) if owner != e.player else None
        if queen:
            out.append(OthersCannotPlay(e.player, e.card, queen, owner))
            break
    variation = needed_variation(card.text) if card.has(Tag.NEEDS_VARIATION) else None
    if variation and not table.herd(s, e.player).get(variation):
        out.append(NeedsVariation(e.player, e.card, variation))
    _check_name_ban(table, s, e.player, e.card, out)
    into = s.players[e.player if e.into is None else e.into].stable
    silenced = enters_a_stable(card) and triggers_silenced(
        table.cards, into, e.card
    )  # (Blinding Light: no effect to do)
    if not silenced:
        _check_target(table, s, e, out)
        _check_forbidden(table, s, e, out)
    if enters_a_stable(card):
        _check_entry(table, s, e.card, e.player if e.into is None else e.into, out)
    if card.type is not CardType.BABY:
        _check_source(table, s, e.player, e.card, e.source, out)
    elif e.source is Source.HAND:
        _check_hand(table, s, e.player, out)


def _check_target(table: Table, s: GameState, e: events.Play, out: list[Objection]) -> None:
    """A card whose effect needs something to act on (`needed_target`), played when nothing it needs is there, or
    every such card is protected from it (`protection.has_target`: 000, "If you have a card in your hand that
    requires you to perform an impossible action, you may not play it"); else each of its declared targets that has
    nothing it may act on, by the same rule (`protection.target_fits`; 002, targeting "Option 1: declare which
    player(s) you are targeting"). A card that enters a Stable does its effect for that Stable's owner."""
    card = table.card_of(e.card)
    need = needed_target(card.text)
    owner = e.player if e.into is None or not enters_a_stable(card) else e.into
    effect = effect_of_play(card, owner)
    if need is None:
        _check_costs(table, s, e, owner, effect, out)
        return
    if not has_target(table, s, e.player, need, effect):
        out.append(Impossible(e.player, e.card, need))
    else:
        unfit = (aimed for aimed in e.targets if not target_fits(table, s, owner, need, aimed, effect))
        out.extend(TargetUnfit(owner, e.card, aimed, need) for aimed in unfit)


def _check_costs(table: Table, s: GameState, e: events.Play, owner: int, effect: Link, out: list[Objection]) -> None:
    """Each action a card's effect requires of its player as it is played (`costs`: a sacrifice, a discard, a
    destroy) with fewer cards there for it than it acts on (`protection.cards_for`, by the same protection rule as
    the sacrifice or destroy that follows; a hand not counted is never too small): 000, "If you have a card in your
    hand that requires you to perform an impossible action, you may not play it". A card that names what it needs to
    act on is checked by that need instead (`needed_target`)."""
    card = table.card_of(e.card)
    for cost in costs(card.text, card.type):
        found = cards_for(table, s, owner, cost, effect)
        if cost.action == "discard" and e.source is Source.HAND and owner == e.player and found:
            found -= 1  # the card played leaves the hand before its effect is done
        if found is not None and found < cost.count:
            out.append(ActionImpossible(owner, e.card, cost, found))


#: Each action a card's effect may require (its tag), the tag of a card in a player's Stable that forbids it them,
#: and the action as the warning says it.
_FORBIDDERS = (
    (Tag.MUST_DESTROY, Tag.STOPS_DESTROYING, UnicornAction.DESTROY),
    (Tag.MUST_STEAL, Tag.STOPS_STEALING, UnicornAction.STEAL),
)


def _check_forbidden(table: Table, s: GameState, e: events.Play, out: list[Objection]) -> None:
    """A card whose effect requires an action, the first or a later one (tags `must_destroy`, `must_steal`: Unicorn
    Poison's destroy, Two-For-One's destroy after its sacrifice, Unicorn Swap's steal after its move), played by a
    player whose own Stable forbids them that action (Divine Peace, Paladin Unicorn): warned at the play, with the
    card that forbids it (000: a card that "requires you to perform an impossible action" may not be played). A card
    that enters a Stable does its effect for that Stable's owner."""
    card = table.card_of(e.card)
    owner = e.player if e.into is None or not enters_a_stable(card) else e.into
    for required, forbidder, action in _FORBIDDERS:
        blocker = stable_card_with(table.cards, s.stables, owner, forbidder) if card.has(required) else None
        if blocker is not None:
            out.append(EffectForbidden(owner, e.card, blocker, action))


def _check_action(table: Table, s: GameState, player: int, out: list[Objection]) -> None:
    """The current player's play as the Action phase's action: in that phase, after the draw (unless a card's
    effect skipped the Draw phase), with nothing waiting and a play left; never in a turn whose Action phase a
    card's effect skipped (Special Delivery: "skip your Action phase"), which is said alone."""
    skipper = skipped_by(s.skipped, Phase.ACTION)
    if skipper is not None:
        out.append(PhaseIsSkipped(player, skipper, Phase.ACTION))
    elif s.phase is Phase.END:
        out.append(ActionOver(player))
    elif s.phase < Phase.ACTION and not s.drew and skipped_by(s.skipped, Phase.DRAW) is None:
        out.append(NotDrawn(player))
    if table.effects_waiting(s):
        out.append(ChainOpen())
    elif s.actions >= table.allowed_actions(s) and skipper is None:
        out.append(ActionUsed(player, s.actions))


#: The tag of a card in a player's Stable that forbids them to play cards of a type.
_PLAY_STOPPERS = {
    CardType.UPGRADE: Tag.STOPS_UPGRADES,
    CardType.MAGIC: Tag.STOPS_MAGIC,
    CardType.BASIC: Tag.STOPS_BASICS,
    CardType.INSTANT: Tag.STOPS_INSTANTS,
}

#: The tag of a card in a Field that keeps Animals of a variation out of that Field.
_KEPT_OUT = {
    "llama": Tag.NO_LLAMAS_HERE,
    "alpaca": Tag.NO_ALPACAS_HERE,
    "goat": Tag.NO_GOATS_HERE,
    "ram": Tag.NO_RAMS_HERE,
}

_LLAMA_WORD = re.compile(r"\bllamas?\b", re.IGNORECASE)


def _check_name_ban(table: Table, s: GameState, player: int, card_id: str, out: list[Objection]) -> None:
    """A card with the word Llama in its name, played by a player whose Field holds a card that forbids it
    (Llamaphobia: "a card with the word Llama in its name"; a pun such as Llamacorn is no such word)."""
    if _LLAMA_WORD.search(table.card_of(card_id).name):
        blocker = stable_card_with(table.cards, s.stables, player, Tag.STOPS_LLAMA_NAMES)
        if blocker:
            out.append(NameBanned(player, card_id, blocker))


def _check_instant_ban(table: Table, s: GameState, player: int, card_id: str, out: list[Objection]) -> None:
    """An Instant played while a turn-long ban holds (Unstoppable Ram: "until that turn is over")."""
    if s.instant_ban is not None and table.card_of(card_id).type is CardType.INSTANT:
        out.append(InstantsBanned(player, card_id, s.instant_ban))


def _check_held(table: Table, s: GameState, card_id: str, owner: int, into: int, out: list[Objection]) -> None:
    """An Animal leaving its owner's Field for another player's while a card there holds its variation in (Velcro
    Barrier: "Those already in it cannot be moved into another player's Field")."""
    card = table.card_of(card_id)
    if into == owner or not card.type.is_creature or not card.variation:
        return
    for variation in card.variation.split("+"):
        tag = _KEPT_OUT.get(variation)
        blocker = stable_card_with(table.cards, s.stables, owner, tag) if tag else None
        if blocker:
            out.append(HeldIn(card_id, owner, blocker, variation))
            return


def _check_entry(table: Table, s: GameState, card_id: str, into: int, out: list[Objection]) -> None:
    """A card about to enter a Stable that a card in some Stable forbids (each such card acts from its Stable),
    or that its own text keeps out of a Stable with no Basic Unicorn card (The Bitchiest Unicorn)."""
    card = table.card_of(card_id)
    stable = s.players[into].stable
    if card.has(Tag.NEEDS_BASIC) and not any(is_basic(table.cards, stable, c) for c in stable):
        out.append(NeedsBasic(card_id, into))
    if card.has(Tag.NEEDS_ALL_VARIATIONS):
        herd = table.herd(s, into)
        missing = tuple(v for v in VARIATIONS if not herd.get(v))
        if missing:
            out.append(NeedsAllVariations(card_id, into, missing))
    if card.type is CardType.BABY:
        blocker = stable_card_with(table.cards, s.stables, into, Tag.NO_BABIES_HERE)
        if blocker:
            out.append(CannotEnter(card_id, into, blocker, into))
    for variation in card.variation.split("+") if card.type.is_creature and card.variation else ():
        tag = _KEPT_OUT.get(variation)
        blocker = stable_card_with(table.cards, s.stables, into, tag) if tag else None
        if blocker:
            out.append(VariationKeptOut(card_id, into, blocker, variation))
            break
    for owner in range(len(s.players)):
        blocker = None
        if card.type is CardType.BASIC and owner != into:
            blocker = stable_card_with(table.cards, s.stables, owner, Tag.BASICS_ONLY_HERE)
        elif card.type is CardType.BASIC:
            blocker = stable_card_with(table.cards, s.stables, owner, Tag.NO_BASICS_HERE)
        if card.type is CardType.BABY:
            blocker = blocker or stable_card_with(table.cards, s.stables, owner, Tag.NO_BABIES)
        if blocker:
            out.append(CannotEnter(card_id, into, blocker, owner))
            return


def _check_respond(table: Table, s: GameState, e: events.Respond, out: list[Objection]) -> None:
    card = table.card_of(e.card)
    if not s.pile:
        # an Instant other than a Neigh may answer an effect being done or the start of a turn (Unicorn Net,
        # Flare Gun); with neither, or a Neigh, there is nothing to answer
        if is_neigh(card) or card.type is not CardType.INSTANT or not (s.chain or s.phase is Phase.BEGINNING):
            out.append(NothingToAnswer(e.player, e.card))
            return
        instants_stopped = stable_card_with(table.cards, s.stables, e.player, Tag.STOPS_INSTANTS)
        if instants_stopped:
            out.append(CannotPlay(e.player, e.card, instants_stopped))
        _check_instant_ban(table, s, e.player, e.card, out)
        _check_name_ban(table, s, e.player, e.card, out)
        _check_hand(table, s, e.player, out)
        _check_copies(table, s, e.card, out)
        return
    top = s.pile[-1]
    if card.type is not CardType.INSTANT:
        out.append(NotInstant(e.player, e.card))
    shield = table.neigh_shield(s.stables, top)
    if shield == top.card:
        out.append(CannotBeAnswered(top.player, top.card))
    if top.player == e.player:
        out.append(OwnCard(e.player, top.card))
    instants_stopped = stable_card_with(table.cards, s.stables, e.player, Tag.STOPS_INSTANTS)
    if instants_stopped and card.type is CardType.INSTANT:
        out.append(CannotPlay(e.player, e.card, instants_stopped))
    elif is_neigh(card):
        blocker = stable_card_with(table.cards, s.stables, e.player, Tag.STOPS_NEIGHS)
        if blocker:
            out.append(CannotNeigh(e.player, e.card, blocker))
    if is_neigh(card):
        if shield and shield != top.card:
            out.append(CannotBeNeighed(top.player, top.card, shield))
    _check_instant_ban(table, s, e.player, e.card, out)
    _check_name_ban(table, s, e.player, e.card, out)
    if answers_animal(card) and (len(s.pile) > 1 or not table.card_of(top.card).type.is_creature):
        out.append(NotAnAnimal(e.player, e.card, top.card))
    if e.card in table.removed:
        out.append(RemovedCard(e.card))
    _check_hand(table, s, e.player, out)
    _check_copies(table, s, e.card, out)


def _check_resolve(table: Table, s: GameState, e: events.Resolve, out: list[Objection]) -> None:
    if not s.pile and not s.chain:
        out.append(NothingToResolve())
    elif not s.pile:
        out.extend(undone_mandatory(table, s))


def mandatory_actions(card: Card) -> tuple[str, ...]:
    """The actions a card's effect names, as its tags say them, in `ACTION_OF`'s terms (Sadistic Ritual: sacrifice,
    draw): the events that count as doing it."""
    return tuple(action for action in dict.fromkeys(ACTION_OF.values()) if card.has(Tag(action)))


def undone_mandatory(table: Table, s: GameState) -> tuple[MandatoryNotDone, ...]:
    """The mandatory effects of the chain's first link of which nothing was done: none of the actions their card
    names (`mandatory_actions`) was recorded while the link was first (`GameState.done`). Mandatory: a beginning-of-turn
    effect so tagged (Sadistic Ritual), a duty each time something happens whose text says "must" (Barbed Wire,
    `duty_is_mandatory`). Rulebook 002: "If the effect is mandatory, you must still do it". An effect that names no
    such action (Unstoppable Ram, Hex) is done by the tracker itself."""
    return tuple(
        MandatoryNotDone(trigger.owner, trigger.card, mandatory_actions(table.card_of(trigger.card)))
        for trigger in _undone_mandatory(table, s)
    )


def _undone_mandatory(table: Table, s: GameState) -> list[Trigger]:
    """The triggers of the chain's first link whose effect is mandatory, names actions, none of them done yet, and
    can still be done (`undone_mandatory`)."""
    out = []
    for trigger in s.chain[0] if s.chain else ():
        card = table.cards.get(trigger.card) if trigger.kind in (TriggerKind.BEGIN, TriggerKind.DUTY) else None
        if card is not None and trigger.kind is TriggerKind.DUTY and not duty_is_mandatory(card.text):
            continue
        asked = mandatory_actions(card) if card is not None else ()
        if asked and not set(asked) & set(s.done) and not _nothing_to_do(table, s, trigger):
            out.append(trigger)
    return out


def _nothing_to_do(table: Table, s: GameState, trigger: Trigger) -> bool:
    """True when a beginning-of-turn effect's cost cannot be paid: fewer cards there than it acts on, counted by the
    protection rule (`protection.cards_for`; Sadistic Ritual with no Unicorn card to sacrifice: "you do not draw").
    A hand the table has not counted is never too small."""
    if trigger.kind is not TriggerKind.BEGIN:
        return False
    for cost in turn_costs(table.card_of(trigger.card).text):
        found = cards_for(table, s, trigger.owner, cost, (trigger,))
        if found is not None and found < cost.count:
            return True
    return False


def _check_bring(table: Table, s: GameState, e: events.Bring, out: list[Objection]) -> None:
    card = table.card_of(e.card)
    if not (enters_a_stable(card)):
        out.append(NotForStable(e.player, e.card))
    if e.source is Source.NURSERY:
        if card.type is not CardType.BABY:
            out.append(NotABaby(e.card))
        elif e.card not in s.nursery:
            out.append(NotInNursery(e.card))
        _check_entry(table, s, e.card, e.into, out)
        return
    if card.type is CardType.BABY:
        out.append(BabyNotInHand(e.player, e.card))
    _check_source(table, s, e.player, e.card, e.source, out)
    if enters_a_stable(card):
        _check_entry(table, s, e.card, e.into, out)


def _check_source(table: Table, s: GameState, player: int, card_id: str, source: Source, out: list[Objection]) -> None:
    if source is Source.HAND:
        _check_hand(table, s, player, out)
        _check_copies(table, s, card_id, out)
    elif source is Source.DECK:
        if s.deck == 0:
            out.append(DeckTooSmall(0))
        _check_copies(table, s, card_id, out)
    elif source is Source.DISCARD and card_id not in s.discard and None not in s.discard:
        out.append(NotInDiscard(card_id))


def _check_steal(table: Table, s: GameState, e: events.Steal, out: list[Objection]) -> None:
    if e.owner == e.player:
        out.append(StealOwn(e.player, e.card))
    _check_in_stable(table, s, e.card, e.owner, out)
    blocker = stable_card_with(table.cards, s.stables, e.player, Tag.STOPS_STEALING)
    if blocker:
        out.append(CannotSteal(e.player, blocker))
    _check_carried(table, s, e.card, e.owner, e.player, UnicornAction.STEAL, out)


def _check_carried(
    table: Table, s: GameState, card_id: str, owner: int, into: int, action: UnicornAction, out: list[Objection]
) -> None:
    """A card in `owner`'s Stable taken into `into`'s (stolen, moved): what protects it (`_check_protected`), a
    variation held in its Field (`_check_held`), and what keeps it out of `into`'s (`_check_entry`)."""
    _check_protected(table, s, card_id, owner, action, out)
    _check_held(table, s, card_id, owner, into, out)
    _check_entry(table, s, card_id, into, out)


def _check_protected(
    table: Table, s: GameState, card_id: str, owner: int, action: UnicornAction, out: list[Objection]
) -> None:
    """Every protection that keeps the action, by the effect being done (the chain's first link), from a card in
    `owner`'s Stable: the one rule (`protection.protections`), the same the play's target check asks."""
    effect: Link = s.chain[0] if s.chain else ()
    out.extend(protections(table, s.stables, Harm(card_id, owner, action, effect)))


def _check_destroy(table: Table, s: GameState, e: events.Destroy, out: list[Objection]) -> None:
    if e.owner == e.player:
        out.append(DestroyOwn(e.player, e.card))
    _check_in_stable(table, s, e.card, e.owner, out)
    peace = stable_card_with(table.cards, s.stables, e.player, Tag.STOPS_DESTROYING)
    if peace:
        out.append(CannotDestroy(e.player, peace))
    _check_protected(table, s, e.card, e.owner, UnicornAction.DESTROY, out)


def _check_sacrifice(table: Table, s: GameState, e: events.Sacrifice, out: list[Objection]) -> None:
    _check_in_stable(table, s, e.card, e.player, out)
    _check_protected(table, s, e.card, e.player, UnicornAction.SACRIFICE, out)


def _check_save(table: Table, s: GameState, e: events.Save, out: list[Objection]) -> None:
    if not saves(table.cards, s, e.other_card, e.card, e.player):
        out.append(CannotSave(e.player, e.card, e.other_card))


def _check_discard(table: Table, s: GameState, e: events.Discard, out: list[Objection]) -> None:
    held = s.players[e.player].hand
    if e.count > 1 and held:  # an empty hand is said as such; an unknown one is the table's to count
        if held < e.count:
            out.append(HandTooShort(e.player, e.count, held))
        return
    _check_from_hand(table, s, e.player, e.card, out)


def _check_from_hand(table: Table, s: GameState, player: int, card: str | None, out: list[Objection]) -> None:
    """A card leaving a player's hand (a discard, a card given): the hand holds one, a Baby is never in a hand, and
    the card still has a copy not seen elsewhere."""
    _check_hand(table, s, player, out)
    if card is not None:
        if table.card_of(card).type is CardType.BABY:
            out.append(BabyNotInHand(player, card))
        else:
            _check_copies(table, s, card, out)


def _check_return(table: Table, s: GameState, e: events.ReturnToHand, out: list[Objection]) -> None:
    _check_in_stable(table, s, e.card, e.owner, out)
    _check_protected(table, s, e.card, e.owner, UnicornAction.RETURN, out)


def _check_to_discard(table: Table, s: GameState, e: events.ToDiscard, out: list[Objection]) -> None:
    _check_in_stable(table, s, e.card, e.owner, out)
    _check_protected(table, s, e.card, e.owner, UnicornAction.TO_DISCARD, out)


def _check_draw(table: Table, s: GameState, e: events.Draw, out: list[Objection]) -> None:
    if s.deck is not None and s.deck < e.count:  # a count not known is never "empty" from a guess
        out.append(DeckTooSmall(s.deck))
    if e.player != s.current and not s.chain:  # only an effect (a link in the chain) lets another player draw
        out.append(NotYourTurn(e.player, s.current))
    # In the Action phase the current player's own draw is the phase's one action: "Play a card ... OR DRAW a
    # card" (000); a draw an effect asks for (a link waiting in the chain) is not.
    skipper = skipped_by(s.skipped, Phase.DRAW)
    if e.player == s.current and s.phase < Phase.ACTION and skipper is not None and not s.chain:
        out.append(PhaseIsSkipped(e.player, skipper, Phase.DRAW))
    action_draw = e.player == s.current and s.phase is Phase.ACTION and not s.chain
    if action_draw and s.actions >= table.allowed_actions(s):
        out.append(ActionUsed(e.player, s.actions))
    elif action_draw and s.actions:  # Double Dutch: "you may play 2 cards": the extra action is a play, not a draw
        out.append(ExtraIsAPlay(e.player, table.extra_play_card(s)))


def _check_take(table: Table, s: GameState, e: events.Take, out: list[Objection]) -> None:
    if table.card_of(e.card).type is CardType.BABY:
        out.append(BabyNotInHand(e.player, e.card))
    _check_source(table, s, e.player, e.card, e.source, out)


def _check_swap(table: Table, s: GameState, e: events.Swap, out: list[Objection]) -> None:
    _check_in_stable(table, s, e.card, e.owner, out)
    _check_in_stable(table, s, e.other_card, e.other_owner, out)
    _check_protected(table, s, e.card, e.owner, UnicornAction.SWAP, out)
    _check_protected(table, s, e.other_card, e.other_owner, UnicornAction.SWAP, out)
    _check_held(table, s, e.card, e.owner, e.other_owner, out)
    _check_held(table, s, e.other_card, e.other_owner, e.owner, out)
    _check_entry(table, s, e.card, e.other_owner, out)
    _check_entry(table, s, e.other_card, e.owner, out)


def _check_move(table: Table, s: GameState, e: events.Move, out: list[Objection]) -> None:
    _check_in_stable(table, s, e.card, e.owner, out)
    _check_carried(table, s, e.card, e.owner, e.into, UnicornAction.MOVE, out)


def _check_nursery(table: Table, s: GameState, e: events.ToNursery, out: list[Objection]) -> None:
    if table.card_of(e.card).type is not CardType.BABY:
        out.append(NotABaby(e.card))
    _check_in_stable(table, s, e.card, e.owner, out)
    _check_protected(table, s, e.card, e.owner, UnicornAction.NURSERY, out)


def _check_next(table: Table, s: GameState, e: events.NextPhase, out: list[Objection]) -> None:
    if table.effects_waiting(s):
        out.append(ChainOpen())
    if s.phase is Phase.DRAW and not s.drew and not e.skip:
        out.append(NotDrawn(s.current))
    if s.phase is Phase.END:
        _check_hand_limit(table, s, out)
        _check_given_back(table, s, out)


def _check_end_turn(table: Table, s: GameState, e: events.EndTurn, out: list[Objection]) -> None:
    if table.effects_waiting(s):
        out.append(ChainOpen())
    # "Draw a card from the Deck" (000's Draw phase) is owed before the turn ends, in every edition: unless a
    # card's effect skipped the Draw phase or ended the turn at once (Rhinocorn)
    undrawn = s.phase < Phase.ACTION and not s.drew and skipped_by(s.skipped, Phase.DRAW) is None
    if undrawn and s.turn_ends is None:
        out.append(NotDrawn(s.current))
    _check_hand_limit(table, s, out)
    _check_given_back(table, s, out)


def _check_given_back(table: Table, s: GameState, out: list[Objection]) -> None:
    """What the turn took that goes back when it ends, still where it was taken (`moves.still_borrowed`)."""
    out += [NotGivenBack(b.owner, b.card, b.unicorn, b.home, b.holder) for b in still_borrowed(table, s, s.current)]


def _check_hand_limit(table: Table, s: GameState, out: list[Objection]) -> None:
    hand = s.players[s.current].hand
    limit = table.hand_limit(s, s.current).limit
    if hand is not None and hand > limit:
        out.append(HandOverLimit(s.current, hand, limit))


def _check_reshuffle(table: Table, s: GameState, e: events.Reshuffle, out: list[Objection]) -> None:
    # A card's own text is never against the rules: while the effect being done (the chain's first link) is a
    # card's that shuffles the discard pile into the deck (Reset Button, Mystical Vortex), the reshuffle is its.
    link = s.chain[0] if s.chain else ()
    if any(table.card_of(t.card).has(Tag.RESHUFFLES) for t in link if t.kind is not TriggerKind.HERD):
        return
    if DeckOut.RESHUFFLE not in table.profile.deck_out:
        out.append(NoReshuffle())


def _check_to_deck(table: Table, s: GameState, e: events.ToDeck, out: list[Objection]) -> None:
    # Like every removal (`destroy`, `sacrifice`, `return ... to the discard pile`, `discard`), cards put back into the
    # deck are not warned for want of an effect being done: the table is the authority on what a card asked for, and
    # a move recorded late is a correction (docs/commands.md, "Removals"). What makes it impossible is warned.
    if e.card is not None and e.owner is not None:
        _check_in_stable(table, s, e.card, e.owner, out)
        _check_protected(table, s, e.card, e.owner, UnicornAction.DECK, out)
    elif e.what is Gathered.CARD:
        _check_hand(table, s, e.player, out)


def _check_use(table: Table, s: GameState, e: events.UseEffect, out: list[Objection]) -> None:
    if using(s.chain, e.player, e.card) is None:
        out.append(NothingToUse(e.player, e.card))


def _check_give(table: Table, s: GameState, e: events.GiveCard, out: list[Objection]) -> None:
    _check_from_hand(table, s, e.player, e.card, out)


_CHECKS: dict[type[Event], Callable[[Table, GameState, Any, list[Objection]], None]] = {
    events.GiveCard: _check_give,
    events.Play: _check_play,
    events.Respond: _check_respond,
    events.Resolve: _check_resolve,
    events.Bring: _check_bring,
    events.Steal: _check_steal,
    events.Destroy: _check_destroy,
    events.Sacrifice: _check_sacrifice,
    events.Save: _check_save,
    events.Discard: _check_discard,
    events.ReturnToHand: _check_return,
    events.Draw: _check_draw,
    events.Take: _check_take,
    events.Swap: _check_swap,
    events.Move: _check_move,
    events.ToNursery: _check_nursery,
    events.NextPhase: _check_next,
    events.EndTurn: _check_end_turn,
    events.Reshuffle: _check_reshuffle,
    events.ToDeck: _check_to_deck,
    events.UseEffect: _check_use,
    events.ToDiscard: _check_to_discard,
}
