"""The duties a card in a Stable lays on its owner each time something happens: "each time", "whenever", "every
time" (Barbed Wire: a Unicorn card comes into your Stable or goes out of it, discard a card).

Each duty that comes due becomes an effect in the chain (`TriggerKind.DUTY`), joining the link of the moment it
happened, so the table hears it and nobody wins before it is done. Which moment a card waits for is its tag
(`Tag.EACH_*`; tests/core/test_card_kinds.py checks that every card whose text says so carries one); a card
whose triggered effects are silenced in its Stable (a Downgrade beside Dragon's Blessing) lays none.
"""

from __future__ import annotations

from collections.abc import Iterable

from assistant.core.cards.card import CardType, Tag
from assistant.core.game.acting import triggers_silenced
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.table import Table


def _holders(table: Table, stables: tuple[tuple[str, ...], ...], seat: int, tag: Tag) -> list[Trigger]:
    """A duty for every copy of a card with the tag in a seat's Stable that acts there."""
    stable = stables[seat]
    out = []
    for card_id in stable:
        card = table.cards.get(card_id)
        if card is None or not card.has(tag) or card.type is CardType.INSTANT:
            continue
        if not triggers_silenced(table.cards, stable, card_id):
            out.append(Trigger(card_id, seat, TriggerKind.DUTY))
    return out


def _is_unicorn(table: Table, card_id: str | None) -> bool:
    card = table.cards.get(card_id) if card_id else None
    return card is not None and card.type.is_creature


def movement_duties(
    table: Table,
    stables: tuple[tuple[str, ...], ...],
    entered: Iterable[tuple[str, int]],
    left: Iterable[tuple[str, int]],
) -> list[Trigger]:
    """Duties of cards moving in and out of Stables: a Unicorn card entering or leaving (Barbed Wire), any other
    card entering (Scratchy Wool Blanket); one duty each time, so two Unicorns arriving are two."""
    out: list[Trigger] = []
    for card_id, seat in [*left, *entered]:
        if _is_unicorn(table, card_id):
            out += _holders(table, stables, seat, Tag.EACH_UNICORN_MOVES)
    for card_id, seat in entered:
        out += [t for t in _holders(table, stables, seat, Tag.EACH_CARD_ENTERS) if t.card != card_id]
    return out


def loss_duties(
    table: Table, stables: tuple[tuple[str, ...], ...], card_id: str, owner: int, destroyer: int | None
) -> list[Trigger]:
    """Duties when a card leaves its owner's Stable for the discard pile: sacrificed (`destroyer` None) or
    destroyed by `destroyer`."""
    out: list[Trigger] = []
    unicorn = _is_unicorn(table, card_id)
    if unicorn:
        out += _holders(table, stables, owner, Tag.EACH_UNICORN_LOST)
    if destroyer is not None:
        out += _holders(table, stables, owner, Tag.EACH_CARD_DESTROYED)
        if unicorn and destroyer != owner:
            out += _holders(table, stables, owner, Tag.EACH_UNICORN_DESTROYED)
        if unicorn:
            out += _holders(table, stables, destroyer, Tag.EACH_DESTROY)
    return out


def aimed_duties(
    table: Table, stables: tuple[tuple[str, ...], ...], card_id: str, owner: int, aimer: int
) -> list[Trigger]:
    """The duty of a card another player's effect aims at (Static-Charged Alpaca: stolen, destroyed, moved, returned
    or swapped by another player, that player must discard a card), with the Stables before it moved."""
    card = table.cards.get(card_id)
    if card is None or not card.has(Tag.EACH_AIMED_AT) or aimer == owner or card_id not in stables[owner]:
        return []
    return (
        [] if triggers_silenced(table.cards, stables[owner], card_id) else [Trigger(card_id, owner, TriggerKind.DUTY)]
    )


def draw_duties(table: Table, stables: tuple[tuple[str, ...], ...], player: int) -> list[Trigger]:
    """Duties when a player draws, however many cards (Extremely Small Backpack)."""
    return _holders(table, stables, player, Tag.EACH_DRAW)


def play_duties(table: Table, stables: tuple[tuple[str, ...], ...], player: int, card_id: str) -> list[Trigger]:
    """Duties when a player plays a card: a Llama card, for every Stable's Llamaste; a Magic card, for the
    player's own Critical Hit."""
    card = table.cards.get(card_id)
    if card is None:
        return []
    out: list[Trigger] = []
    if card.type.is_creature and "llama" in (card.variation or "").split("+"):
        for seat in range(len(stables)):
            out += _holders(table, stables, seat, Tag.EACH_LLAMA_PLAYED)
    if card.type is CardType.MAGIC:
        out += _holders(table, stables, player, Tag.EACH_MAGIC_PLAYED)
    return out
