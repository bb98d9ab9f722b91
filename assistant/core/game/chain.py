"""The Instant pile and the effect chain, as rulebook 000 describes them ("Resolving Instant Cards", "Order of
Resolution: The Effect Chain").

The pile: a played card at the bottom, answers on top; only the top can be answered; resolution starts at the
top, and each time a card resolves the new top can be answered again. The chain: triggered effects become links
in order; effects that trigger at the same moment are one link; the first link resolves first; nobody wins
until the chain is empty. These are plain values; `assistant/core/game/history.py` moves cards as they resolve.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from assistant.core.cards.card import Card, CardSet, CardType, Tag, normalize
from assistant.core.cards.wording import leaves_however, taken_variation


@dataclass(frozen=True)
class PileCard:
    """A card on the Instant pile and who played it."""

    player: int
    card: str
    into: int | None = None
    """For the played card at the bottom: the Stable it goes into when it resolves."""
    targets: tuple[int, ...] = ()
    """For the played card at the bottom: the players its effect aims at, when its player declared them."""


class TriggerKind(enum.Enum):
    """Why an effect is in the chain."""

    BEGIN = "begin"
    """A mandatory beginning-of-turn effect."""
    BEGIN_OPTIONAL = "begin-optional"
    """An optional beginning-of-turn effect, lost once the Draw phase begins."""
    HERD = "herd"
    """A Llamas Unleashed Herd Bonus (its `card` is the variation)."""
    ENTER = "enter"
    """A card's effect when it enters a Stable."""
    LEAVE = "leave"
    """A card's effect when it leaves a Stable."""
    MAGIC = "magic"
    """A Magic card that resolved: its one-time effect."""
    INSTANT = "instant"
    """An Instant card other than a Neigh that resolved."""
    DUTY = "duty"
    """A card's duty each time something happens (Barbed Wire), `assistant/core/game/duties.py`."""

    @property
    def is_beginning(self) -> bool:
        """True for beginning-of-turn effects, Herd Bonuses included."""
        return self in (TriggerKind.BEGIN, TriggerKind.BEGIN_OPTIONAL, TriggerKind.HERD)

    @property
    def is_optional_at_beginning(self) -> bool:
        """True for effects that are lost when the Draw phase begins."""
        return self in (TriggerKind.BEGIN_OPTIONAL, TriggerKind.HERD)


@dataclass(frozen=True)
class Trigger:
    """One effect waiting in the chain."""

    card: str
    """The card whose effect it is (for a Herd Bonus: the variation)."""
    owner: int
    """The player whose Stable holds the card, who resolves the effect."""
    kind: TriggerKind


Link = tuple[Trigger, ...]
"""Effects that triggered at the same moment: one link of the chain."""


def in_play(card: Card | None) -> bool:
    """True for a Magic card that stays in play while its effect is done and goes to the discard pile after (000:
    "immediately takes effect and is then discarded"); False for any other card, and for one whose effect puts
    itself back into the deck with the discard pile (Shake Up), which goes to the discard pile at once."""
    return card is not None and card.type is CardType.MAGIC and not card.has(Tag.SHUFFLES_ITSELF)


def begin_turn_link(stable: tuple[str, ...], owner: int, cards: CardSet, herd: dict[str, int], herd_size: int) -> Link:
    """The beginning-of-turn effects of a Stable as one link: mandatory first, then optional, then Herd Bonuses.

    `herd` counts the owner's Animals by variation; a variation with `herd_size` or more gives a Herd Bonus.
    """
    mandatory, optional = [], []
    for card_id in stable:  # every copy triggers, so two Claw Machines are two effects
        card = cards.get(card_id)
        if card is not None and card.has(Tag.BEGIN_TURN_TRIGGER):
            mandatory.append(Trigger(card_id, owner, TriggerKind.BEGIN))
        elif card is not None and card.has(Tag.BEGIN_TURN_OPTIONAL):
            optional.append(Trigger(card_id, owner, TriggerKind.BEGIN_OPTIONAL))
    bonuses = [Trigger(v, owner, TriggerKind.HERD) for v, n in sorted(herd.items()) if herd_size and n >= herd_size]
    return tuple(mandatory + optional + bonuses)


def movement_link(
    entered: list[tuple[str, int]],
    left: list[tuple[str, int]],
    cards: CardSet,
    gone: list[tuple[str, int]] | None = None,
) -> Link:
    """The enter and leave effects of cards that moved in one event, as one link (leaving first). A card that left
    otherwise than sacrificed or destroyed (not in `gone`: stolen, moved, swapped, returned to a hand or the deck)
    sets off only a leave effect its text says of any leaving (`leaves_however`)."""
    link = []
    for card_id, owner in left:
        card = cards.get(card_id)
        lost = gone is None or (card_id, owner) in gone
        if card is not None and lost and card.has(Tag.BACK_TO_HAND):
            continue  # its leave effect is its own way back to the hand, done as it left (`moves._gone`)
        if card is not None and card.has(Tag.LEAVE_TRIGGER) and (lost or leaves_however(card.text)):
            link.append(Trigger(card_id, owner, TriggerKind.LEAVE))
    for card_id, owner in entered:
        card = cards.get(card_id)
        if card is not None and card.has(Tag.ENTER_TRIGGER):
            link.append(Trigger(card_id, owner, TriggerKind.ENTER))
    return tuple(link)


def first_with(cards: CardSet, link: Link, tag: Tag) -> Trigger | None:
    """The first effect of a link whose card carries the tag (a Herd Bonus has no card), or None."""
    for trigger in link:
        card = cards.get(trigger.card) if trigger.kind is not TriggerKind.HERD else None
        if card is not None and card.has(tag):
            return trigger
    return None


def is_neigh(card: Card | None) -> bool:
    """True for an Instant that stops the card below it."""
    return card is not None and (card.has(Tag.NEIGH) or card.has(Tag.SUPER_NEIGH))


def variations_of(card: Card | None) -> frozenset[str]:
    """The variations a card is of: a hybrid ("llama+alpaca") is of each; a card with none is of none."""
    return frozenset(card.variation.split("+")) if card is not None and card.variation else frozenset()


def takes_stopped(counter: Card | None, stopped: Card | None) -> bool:
    """True when a stopping counter sends the card it stopped to its own player's hand rather than the discard
    pile: a counter tagged `takes_stopped` (Spit Happens) stopping a card of the variation its text takes ("If it
    is a Llama card, it goes into your hand"; a card with no such words: its own `variation`)."""
    if counter is None or not counter.has(Tag.TAKES_STOPPED):
        return False
    taken = taken_variation(counter.text)  # an Instant is of no variation: its text says which it takes
    return bool((frozenset((taken,)) if taken else variations_of(counter)) & variations_of(stopped))


def counter_drawers(counter: Card | None, stopper: PileCard, stopped: PileCard, cards: CardSet) -> tuple[int, ...]:
    """The players a stopping counter lets draw once it has stopped a card, in the order its text names them.

    `both_draw` (Goatsundheit, Neigh, Thank You): the counter's player and the stopped card's player.
    `draws_if_instant` (Llama Stop You Right There): the counter's own player, only when the stopped card was an
    Instant. Nobody otherwise (a counter's other draws are in its text, read when it is played).
    """
    if counter is None or not is_neigh(counter):
        return ()
    if counter.has(Tag.BOTH_DRAW):
        return tuple(dict.fromkeys((stopper.player, stopped.player)))
    stopped_card = cards.get(stopped.card)
    if counter.has(Tag.DRAWS_IF_INSTANT) and stopped_card is not None and stopped_card.type is CardType.INSTANT:
        return (stopper.player,)
    return ()


def answers_animal(card: Card | None) -> bool:
    """True for an Instant played on another player's Animal card being played, that does not stop it (Surprise Emu
    Attack: its effect destroys an Animal in that player's Field, and the played card still resolves)."""
    return card is not None and card.has(Tag.ANSWERS_ANIMAL) and not is_neigh(card)


def is_plain_neigh(card: Card | None) -> bool:
    """True for a stopping Instant named Neigh that is no Super Neigh: the card `neigh Ben` records. The Llamas
    counters (Spit Happens, Goatsundheit) stop a card too, but naming one of them for `neigh` would be a guess."""
    return (
        card is not None and card.has(Tag.NEIGH) and not card.has(Tag.SUPER_NEIGH) and "neigh" in normalize(card.name)
    )


def enters_a_stable(card: Card | None) -> bool:
    """True for cards that go into a Stable when they resolve: Unicorns, Upgrades and Downgrades."""
    return card is not None and (card.type.is_creature or card.type in (CardType.UPGRADE, CardType.DOWNGRADE))


@dataclass(frozen=True)
class PileStep:
    """What one resolution of the pile's top did."""

    pile: tuple[PileCard, ...]
    """The pile afterwards."""
    resolved: PileCard | None = None
    """The played card, when it resolved and takes effect."""
    stopped: PileCard | None = None
    """The card a Neigh stopped."""
    stopper: PileCard | None = None
    """The Neigh that stopped it."""
    instant: PileCard | None = None
    """An Instant other than a Neigh that resolved (its effect becomes a link)."""
    shield: str | None = None
    """With `stopper` and no `stopped`: the card that made the card below impossible to Neigh, so the Neigh went
    to the discard pile with no effect."""


def resolve_top(
    pile: tuple[PileCard, ...], cards: CardSet, shield: Callable[[PileCard], str | None] = lambda _: None
) -> PileStep:
    """Resolve the top card of the pile: "always start at the top of the pile" (rulebook 000).

    A Neigh on top stops the card under it, and both go to the discard pile — unless `shield` names a card that
    makes the one under it impossible to Neigh (a Super Neigh; Yay in its player's Stable): then the Neigh alone
    goes to the discard pile, with no effect. Another Instant resolves alone; the played card at the bottom
    resolves when nothing is left above it.
    """
    if not pile:
        return PileStep(())
    top = pile[-1]
    if len(pile) == 1:
        return PileStep((), resolved=top)
    if is_neigh(cards.get(top.card)):
        below = pile[-2]
        protected_by = shield(below)
        if protected_by is not None:
            return PileStep(pile[:-1], stopper=top, shield=protected_by)
        return PileStep(pile[:-2], stopped=below, stopper=top)
    return PileStep(pile[:-1], instant=top)
