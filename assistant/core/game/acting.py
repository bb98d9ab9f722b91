"""What is in a Stable and which card acts there: the first card carrying a tag that acts from a Stable, the cards
silenced there, the Basic Unicorns, the cards whose text sends them away or limits a Stable, and the saves
"instead" a Stable offers.

Rulebook 000: "Upgrade cards ... have no effect while they are in your hand ... only active when they are in your
Stable"; a card that silences others (Dragon's Blessing, Blinding Light) takes their effects there. Functions take
the game's cards first, then plain values (a Stable is a tuple of card ids), like those of `tally.py`.
"""

from __future__ import annotations

from assistant.core.cards.card import Card, CardSet, CardType, Tag
from assistant.core.cards.wording import save_of
from assistant.core.game.events import EventError
from assistant.core.game.state import GameState
from assistant.core.game.tally import acting_with, downgrades_silenced


def stable_card_with(cards: CardSet, stables: tuple[tuple[str, ...], ...], player: int, tag: Tag) -> str | None:
    """The first card in a player's Stable that carries the tag and acts there, or None.

    Only a card in a Stable acts from it (an Instant never does), and a Downgrade does not act while the
    same Stable holds a card that silences Downgrades (Dragon's Blessing: "the Downgrade cards in your
    Stable have no effect").
    """
    return card_in(cards, stables[player], tag)


def card_in(cards: CardSet, stable: tuple[str, ...], tag: Tag) -> str | None:
    """The first card in this Stable that carries the tag and acts there (see `stable_card_with`), or None."""
    for card_id in stable:
        card = cards.get(card_id)
        if card is not None and card.has(tag) and card.type is not CardType.INSTANT:
            if not silenced(cards, stable, card_id):
                return card_id
    return None


def silenced(cards: CardSet, stable: tuple[str, ...], card_id: str) -> bool:
    """True when a card in this Stable has no effect: a Downgrade beside a card that silences Downgrades, or a
    Unicorn card beside one that takes every effect of the Unicorns there (Blinding Light: Ginormous Unicorn no
    longer stops its owner's Neighs)."""
    card = cards.get(card_id)
    if card is None:
        return False
    if card.type.is_creature:
        return acting_with(stable, cards, Tag.UNICORNS_EFFECTLESS)
    return card.type is CardType.DOWNGRADE and downgrades_silenced(stable, cards)


def is_basic(cards: CardSet, stable: tuple[str, ...], card_id: str) -> bool:
    """True when a card in this Stable is a Basic Unicorn: printed so, or a Unicorn card there counting as one
    (Blinding Light, 2nd Edition)."""
    card = cards.get(card_id)
    if card is None or not card.type.is_creature:
        return False
    return card.type is CardType.BASIC or acting_with(stable, cards, Tag.MAKES_BASIC)


def triggers_silenced(cards: CardSet, stable: tuple[str, ...], card_id: str) -> bool:
    """True when a card's triggered effects do not happen in this Stable: a Unicorn card beside a card that
    silences them (Blinding Light, Medieval Sanitation), or a Downgrade silenced there."""
    card = cards.get(card_id)
    if card is None:
        return False
    if card.type.is_creature:
        for other in stable:
            silencer = cards.get(other)
            if silencer is not None and silencer.has(Tag.SILENCES_UNICORNS) and not silenced(cards, stable, other):
                return True
    return silenced(cards, stable, card_id)


def beginning_skipped(cards: CardSet, stable: tuple[str, ...]) -> str | None:
    """The card that makes a player skip the Beginning of Turn phase (Broken Sundial), or None."""
    return card_in(cards, stable, Tag.SKIPS_BEGINNING)


def stable_limit(cards: CardSet, stables: tuple[tuple[str, ...], ...], player: int) -> tuple[str, int] | None:
    """A card in the player's Stable that limits their Unicorns (Tiny Stable: more than 5, sacrifice one),
    with the limit; None when there is none."""
    card_id = stable_card_with(cards, stables, player, Tag.AT_MOST_FIVE)
    return (card_id, 5) if card_id is not None else None


def must_go(
    cards: CardSet, stables: tuple[tuple[str, ...], ...], hands: tuple[int | None, ...], player: int
) -> str | None:
    """A card in a player's Stable whose text sends it away now: Unicorn Flatulence with no Unicorn card beside
    it, Hex or Extremely Small Backpack (to move) or Scratchy Wool Blanket (to sacrifice) with the owner's (known)
    hand empty; None when there is none."""
    card_id = stable_card_with(cards, stables, player, Tag.GONE_WITHOUT_UNICORNS)
    if card_id and not any((c := cards.get(i)) is not None and c.type.is_creature for i in stables[player]):
        return card_id
    if hands[player] != 0:
        return None
    return stable_card_with(cards, stables, player, Tag.MOVES_ON_EMPTY_HAND) or stable_card_with(
        cards, stables, player, Tag.GONE_ON_EMPTY_HAND
    )


def saves(cards: CardSet, state: GameState, saver: str, card_id: str, owner: int, sacrificed: bool = False) -> bool:
    """True when a card in the owner's Stable may save one of their cards about to be destroyed (or, with
    `sacrificed`, sacrificed) "instead": its text saves that card from that (Black Knight Unicorn: a Unicorn,
    when destroyed; Unicorn Phoenix: itself), it acts there, and a known hand holds the cards it costs."""
    stable = state.players[owner].stable
    card = cards.get(saver)
    save = save_of(card.text) if card is not None else None
    if save is None or saver not in stable or card_id not in stable or silenced(cards, stable, saver):
        return False
    if save.itself != (saver == card_id) or (sacrificed and not save.from_sacrifice):
        return False
    if save.unicorns_only and not _card_of(cards, card_id).type.is_creature:
        return False
    hand = state.players[owner].hand
    return hand is None or hand >= save.discards


def save_for(cards: CardSet, state: GameState, card_id: str, owner: int, sacrificed: bool) -> str | None:
    """The first card in the owner's Stable that may save this card "instead" (`saves`), or None."""
    stable = state.players[owner].stable
    return next((c for c in stable if saves(cards, state, c, card_id, owner, sacrificed)), None)


def _card_of(cards: CardSet, card_id: str) -> Card:
    """The card of an id; `EventError` when it is no card of this game (as `Table.card_of`)."""
    card = cards.get(card_id)
    if card is None:
        raise EventError(f"{card_id!r} is not a card of this game")
    return card
