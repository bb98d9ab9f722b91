"""What keeps a card from an action: the one protection rule, written once and consulted by every check.

`protections` answers whether a card in a Stable may be destroyed, sacrificed, stolen, moved, swapped, returned or
otherwise taken by an effect, with each protection that forbids it as the objection that says so. The destroy,
sacrifice, steal, move, swap, return, discard-pile, Nursery and deck checks (`checks.py`) ask it with the effect
being done (the chain's first link); the check of a play asks it with the played card's own effect, for the target
its effect needs (`has_target`: the play is impossible without one, 000 "If you have a card in your hand that
requires you to perform an impossible action, you may not play it"), for each target declared at the play
(`target_fits`, 002 targeting "Option 1") and for the cards its costs act on (`cards_for`: Two-For-One's sacrifice
and destroy). So a protection is written here once (docs/game.md, "What the tracker checks per card").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from assistant.core.cards.card import Card, CardType, Tag
from assistant.core.cards.wording import Cost, Need, UnicornAction, needed_action, unicorn_actions
from assistant.core.game.acting import card_in, is_basic, stable_card_with
from assistant.core.game.chain import Link, Trigger, TriggerKind, enters_a_stable
from assistant.core.game.objections import (
    Guarded,
    Indestructible,
    MagicCannotAffect,
    MagicCannotDestroy,
    NotAUnicornHere,
    Objection,
    Protected,
    TriggerCannotDestroy,
)
from assistant.core.game.state import GameState
from assistant.core.game.table import Table

Stables = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Harm:
    """An action about to be done to a card in a Stable, and the effect doing it."""

    card: str
    """The card acted on."""
    owner: int
    """The player whose Stable holds it."""
    action: UnicornAction
    """What is done to it."""
    effect: Link = ()
    """The effect doing it: the chain's first link, or a played card's own effect; empty when none is being done."""


def protections(table: Table, stables: Stables, harm: Harm) -> tuple[Objection, ...]:
    """Every protection that keeps the harm from its card, as the objections that say so (empty when none does).

    A card in a Stable protects from that Stable (Rainbow Aura, Pandamonium, Dragon Slayer Unicorn, Dragon Protection,
    The Kids Are Alright), and an Upgrade from every Stable while its own holds Cupcakes For Everyone (`_guard`); a
    card that protects itself does so wherever it is (Puppicorn, Magical Kittencorn, The Tiniest Unicorn). Rulebook
    000: Upgrade and Downgrade cards act only from a Stable."""
    return tuple(found for rule in _RULES for found in rule(table, stables, harm))


def effect_of_play(card: Card, owner: int) -> Link:
    """The effect a card being played would do, as the link it would be: a Magic card's one-time effect, or what a
    card does as it enters its owner's Stable (Berserkercorn)."""
    kind = TriggerKind.ENTER if enters_a_stable(card) else TriggerKind.MAGIC
    return (Trigger(card.id, owner, kind),)


def has_target(table: Table, state: GameState, player: int, need: Need, effect: Link) -> bool:
    """True when what a card's effect needs to act on is there (`Need`): a Unicorn card in another player's Stable
    that no protection keeps from the effect (`protections`), an Upgrade or Downgrade, a Unicorn card in the discard
    pile (or a card not named). `effect` is the played card's own (`effect_of_play`)."""
    match need:
        case Need.OTHERS_UNICORN | Need.OTHERS_UNICORN_TO_TAKE | Need.OTHERS_BASIC | Need.OTHERS_BABY:
            seats = range(len(state.stables))
            return any(_unicorn_target(table, state.stables, seat, need, effect) for seat in seats if seat != player)
        case Need.UPGRADE_THERE_OR_DOWNGRADE_HERE | Need.ANY_UPGRADE_OR_DOWNGRADE:
            return any(target_fits(table, state, player, need, seat, effect) for seat in range(len(state.stables)))
    return None in state.discard or any(
        (card := table.cards.get(c)) is not None and card.type.is_creature for c in state.discard if c
    )


def target_fits(table: Table, state: GameState, player: int, need: Need, target: int, effect: Link) -> bool:
    """True when the player a card's effect was declared to aim at (`target`) has what it needs (`has_target`, for
    that player alone): another player's Stable with a Unicorn card no protection keeps from the effect, an Upgrade
    there (or a Downgrade in one's own), any Upgrade or Downgrade; a need of the discard pile names no player."""
    stable = state.stables[target]
    kinds = [card.type for card_id in stable if (card := table.cards.get(card_id)) is not None]
    match need:
        case Need.OTHERS_UNICORN | Need.OTHERS_UNICORN_TO_TAKE | Need.OTHERS_BASIC | Need.OTHERS_BABY:
            return target != player and _unicorn_target(table, state.stables, target, need, effect)
        case Need.UPGRADE_THERE_OR_DOWNGRADE_HERE:
            return CardType.DOWNGRADE in kinds if target == player else CardType.UPGRADE in kinds
        case Need.ANY_UPGRADE_OR_DOWNGRADE:
            return CardType.UPGRADE in kinds or CardType.DOWNGRADE in kinds
    return True


def _unicorn_target(table: Table, stables: Stables, seat: int, need: Need, effect: Link) -> bool:
    """True when a player's Stable holds a Unicorn card of the kind the effect needs (a Baby, a Basic) that no
    protection keeps from what the effect does to it."""
    stable = stables[seat]
    action = _needed_action(table, need, effect)
    for card_id in stable:
        card = table.cards.get(card_id)
        if card is None or not card.type.is_creature:
            continue
        if need is Need.OTHERS_BABY and card.type is not CardType.BABY:
            continue
        if need is Need.OTHERS_BASIC and not is_basic(table.cards, stable, card_id):
            continue
        if not protections(table, stables, Harm(card_id, seat, action, effect)):
            return True
    return False


def cards_for(table: Table, state: GameState, player: int, cost: Cost, effect: Link) -> int | None:
    """How many cards there are that a cost of a card's effect (`Cost`) may act on, for the player who pays it: cards
    of its kind in their own Stable that no protection keeps from being sacrificed, cards in their hand (None when
    the hand is not counted), or cards of its kind in
    other players' Stables (in one of them, for a `one_player` destroy) that no protection keeps from the effect."""
    if cost.action == "discard":
        return state.players[player].hand
    if cost.action == "sacrifice":
        return len(open_to(table, state.stables, player, cost, effect))
    counts = [len(open_to(table, state.stables, seat, cost, effect)) for seat in range(len(state.stables))]
    others = [n for seat, n in enumerate(counts) if seat != player]
    return max(others, default=0) if cost.one_player else sum(others)


def open_to(table: Table, stables: Stables, seat: int, cost: Cost, effect: Link) -> list[str]:
    """The cards of a cost's kind in a player's Stable that no protection keeps from its action by the effect (a
    sacrifice or a destroy: what it may be paid with)."""
    stable = stables[seat]
    action = UnicornAction(cost.action)
    return [
        card_id
        for card_id in stable
        if _of_kind(table, stable, card_id, cost.kind)
        and not protections(table, stables, Harm(card_id, seat, action, effect))
    ]


def _of_kind(table: Table, stable: tuple[str, ...], card_id: str, kind: str) -> bool:
    """True when a card in a Stable is of a cost's kind ("" any card; a Unicorn, a Baby or a Basic one; a
    variation, a hybrid counting as each of its own)."""
    card = table.cards.get(card_id)
    if card is None or not kind:
        return card is not None
    match kind:
        case "unicorn":
            return card.type.is_creature
        case "baby":
            return card.type is CardType.BABY
        case "basic":
            return is_basic(table.cards, stable, card_id)
    return card.type.is_creature and kind in (card.variation or "").split("+")


def _needed_action(table: Table, need: Need, effect: Link) -> UnicornAction:
    """What the effect must do to the Unicorn card it needs: read from its card's wording (Naked Narwhal steals, its
    other print moves), else destroy for a card that needs one to destroy and steal for one that needs one to take."""
    card = table.cards.get(effect[0].card) if effect else None
    action = needed_action(card.text) if card is not None else None
    if action is not None:
        return action
    return UnicornAction.DESTROY if need is Need.OTHERS_UNICORN else UnicornAction.STEAL


#: What takes a card without destroying or sacrificing it: what Magical Kittencorn's first print ("nor affect it in
#: any other way") and the guards of a Stable's Unicorns (Dragon Protection, Dragon Slayer Unicorn) keep off too.
_TAKEN = frozenset(
    {UnicornAction.STEAL, UnicornAction.MOVE, UnicornAction.SWAP, UnicornAction.RETURN, UnicornAction.TO_DISCARD}
)

#: What The Kids Are Alright keeps from the Babies in its Field: "cannot be sacrificed, destroyed or stolen".
_BABY_HARMS = frozenset({UnicornAction.SACRIFICE, UnicornAction.DESTROY, UnicornAction.STEAL})

#: Effects that are triggered (on entering, leaving, at the beginning of a turn, a duty), not a played card's.
_TRIGGERED = frozenset(
    {TriggerKind.ENTER, TriggerKind.LEAVE, TriggerKind.BEGIN, TriggerKind.BEGIN_OPTIONAL, TriggerKind.DUTY}
)

_DRAGON = re.compile(r"\bdragon", re.IGNORECASE)


def _guard(table: Table, stables: Stables, owner: int, tag: Tag) -> str | None:
    """The card that protects a player's Stable with this tag: one in that Stable (`acting.stable_card_with`), else an
    Upgrade in another Stable that holds a card spreading its Upgrades to every player's (Cupcakes For Everyone:
    "your Upgrade cards affect every player's Stable"); None when none does."""
    own = stable_card_with(table.cards, stables, owner, tag)
    if own is not None:
        return own
    for seat in range(len(stables)):
        if seat == owner or stable_card_with(table.cards, stables, seat, Tag.UPGRADES_EVERYWHERE) is None:
            continue
        upgrades = tuple(c for c in stables[seat] if table.card_of(c).type is CardType.UPGRADE)
        found = card_in(table.cards, upgrades, tag)
        if found is not None:
            return found
    return None


def _magic(effect: Link) -> str | None:
    """The Magic card whose effect this is, or None."""
    return next((t.card for t in effect if t.kind is TriggerKind.MAGIC), None)


def _stable_guards(table: Table, stables: Stables, harm: Harm) -> Iterator[Objection]:
    """A card in the owner's Stable that keeps their Unicorns from being destroyed (Rainbow Aura, Unicorn Chastity
    Belt), or their Babies from being sacrificed, destroyed or stolen (The Kids Are Alright)."""
    card = table.card_of(harm.card)
    guard = None
    if card.type.is_creature and harm.action is UnicornAction.DESTROY:
        guard = _guard(table, stables, harm.owner, Tag.PROTECTS_UNICORNS)
    if guard:
        yield Protected(harm.card, guard, harm.owner)
    guard = None
    if card.type is CardType.BABY and harm.action in _BABY_HARMS:
        guard = _guard(table, stables, harm.owner, Tag.PROTECTS_BABIES)
    if guard:
        yield Protected(harm.card, guard, harm.owner)


def _own_text(table: Table, stables: Stables, harm: Harm) -> Iterator[Objection]:
    """A card whose own text protects it: from being destroyed or sacrificed (Puppicorn), from Magic cards'
    destroying (Magical Kittencorn) or affecting it in any other way (its 1st Edition first print), from triggered
    effects' destroying (The Tiniest Unicorn)."""
    card = table.card_of(harm.card)
    destroyed = harm.action is UnicornAction.DESTROY
    if card.has(Tag.INDESTRUCTIBLE) and harm.action in (UnicornAction.DESTROY, UnicornAction.SACRIFICE):
        yield Indestructible(harm.card, sacrificed=harm.action is UnicornAction.SACRIFICE)
    magic = _magic(harm.effect)
    if magic and destroyed and card.has(Tag.MAGIC_PROOF):
        yield MagicCannotDestroy(harm.card, magic)
    if magic and harm.action in _TAKEN and card.has(Tag.MAGIC_UNTOUCHABLE):
        yield MagicCannotAffect(harm.card, magic)
    if destroyed and card.has(Tag.TRIGGER_PROOF) and harm.effect and all(t.kind in _TRIGGERED for t in harm.effect):
        yield TriggerCannotDestroy(harm.card, harm.effect[0].card)


def _pandas(table: Table, stables: Stables, harm: Harm) -> Iterator[Objection]:
    """A Unicorn card that the effect acts on as a Unicorn card, by its wording ("destroy a Unicorn card", "steal one
    of their Unicorn cards": `unicorn_actions`), in a Stable whose card makes its Unicorns no Unicorns (Pandamonium:
    "Cards that affect Unicorn cards have no effect on your Pandas")."""
    if not table.card_of(harm.card).type.is_creature:
        return
    effects = (
        t.card
        for t in harm.effect
        if (c := table.cards.get(t.card)) and harm.action in unicorn_actions(c.text, t.kind is TriggerKind.LEAVE)
    )
    effect = next(effects, None)
    mask = _guard(table, stables, harm.owner, Tag.NOT_A_UNICORN_EFFECT) if effect else None
    if effect and mask:
        yield NotAUnicornHere(harm.card, harm.owner, mask, effect, harm.action)


def _effect_guards(table: Table, stables: Stables, harm: Harm) -> Iterator[Objection]:
    """A Unicorn card in a Stable whose card keeps this effect away from it (destroyed or taken): Dragon Protection
    (other players' triggered effects; in its older print, other players' Unicorn cards' effects), Dragon Slayer
    Unicorn (cards with the word Dragon in their name)."""
    link = harm.effect
    taken = harm.action is UnicornAction.DESTROY or harm.action in _TAKEN
    if not link or not taken or not table.card_of(harm.card).type.is_creature:
        return
    sources = [table.cards.get(t.card) for t in link]
    others = all(t.owner != harm.owner for t in link)
    kept_off = (
        (Tag.UNICORN_EFFECT_PROOF, others and all(c is not None and c.type.is_creature for c in sources)),
        (Tag.OTHERS_TRIGGER_PROOF, others and all(t.kind in _TRIGGERED for t in link)),
        (Tag.DRAGON_PROOF, all(c is not None and _DRAGON.search(c.name) for c in sources)),
    )
    for tag, applies in kept_off:
        guard = _guard(table, stables, harm.owner, tag) if applies else None
        if guard:
            yield Guarded(harm.card, harm.owner, guard, link[0].card)
            return


#: Each protection, in the order its objections are said.
_RULES: tuple[Callable[[Table, Stables, Harm], Iterator[Objection]], ...] = (
    _stable_guards,
    _own_text,
    _pandas,
    _effect_guards,
)
