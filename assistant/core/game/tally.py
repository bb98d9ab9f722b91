"""Counting Unicorns (or Animals): the tally, the hand limit, the Herd Bonus and who wins when the deck runs out.

Rulebook 000, "HOW TO WIN": "Each Unicorn card counts for 1 Unicorn (unless otherwise stated)"; a card tagged
`counts_as_two` counts 2 (Ginormous Unicorn); a Masquerade card tagged `not_a_unicorn_effect` in a Stable makes
that Stable's Unicorns stop counting (Pandamonium: "all of that player's Unicorns are Pandas", rulebook 001); a card
tagged `makes_basic` makes them Basic Unicorns, 1 each (Blinding Light, 2nd Edition: Ginormous Unicorn counts 1).
Functions take plain values (a Stable is a tuple of card ids) so they are easy to test on their own.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from assistant.core.cards.card import VARIATIONS, CardSet, CardType, Tag
from assistant.core.game.rules import Rules


def downgrades_silenced(stable: tuple[str, ...], cards: CardSet) -> bool:
    """True when the Downgrade cards in this Stable have no effect (Dragon's Blessing)."""
    return any((card := cards.get(card_id)) is not None and card.has(Tag.SILENCES_DOWNGRADES) for card_id in stable)


def acting_with(stable: tuple[str, ...], cards: CardSet, tag: Tag) -> bool:
    """True when a card in this Stable carries the tag and acts there (not a Downgrade beside Dragon's Blessing)."""
    quiet = downgrades_silenced(stable, cards)
    found = (cards.get(card_id) for card_id in stable)
    return any(c is not None and c.has(tag) and not (quiet and c.type is CardType.DOWNGRADE) for c in found)


def unicorn_count(stable: tuple[str, ...], cards: CardSet) -> int:
    """How many Unicorns a Stable counts toward winning: none under a card that makes them no Unicorns
    (Pandamonium), 1 each under one that makes them Basic (Blinding Light), else 1 each or 2 (Ginormous Unicorn)."""
    if acting_with(stable, cards, Tag.NOT_A_UNICORN_EFFECT):
        return 0
    basic = acting_with(stable, cards, Tag.MAKES_BASIC)
    found = [card for card_id in stable if (card := cards.get(card_id)) is not None and card.type.is_creature]
    return sum(2 if card.has(Tag.COUNTS_AS_TWO) and not basic else 1 for card in found)


def tally(stables: tuple[tuple[str, ...], ...], cards: CardSet) -> tuple[int, ...]:
    """Each player's Unicorn count, by seat."""
    return tuple(unicorn_count(stable, cards) for stable in stables)


def name_letters(stable: tuple[str, ...], cards: CardSet) -> int:
    """The letters in the names of the Unicorn cards that count in a Stable (the deck-out tie-break).

    Only letters count ("Baby Unicorn (Red)" has 14); a Stable whose Unicorns do not count has none.
    """
    if unicorn_count(stable, cards) == 0:
        return 0
    total = 0
    for card_id in stable:
        card = cards.get(card_id)
        if card is not None and card.type.is_creature:
            total += sum(1 for ch in card.name if ch.isalpha())
    return total


def herd(stable: tuple[str, ...], cards: CardSet, rules: Rules) -> dict[str, int]:
    """Animals per variation in a Field (Llamas Unleashed); a hybrid counts for each of its variations.

    A card listed in the rules' `variation_overrides` (Legal Ramifications) makes every Animal in its Field that
    variation.
    """
    override = next((rules.variation_overrides[c] for c in stable if c in rules.variation_overrides), None)
    counts = {variation: 0 for variation in VARIATIONS}
    for card_id in stable:
        card = cards.get(card_id)
        if card is None or not card.type.is_creature:
            continue
        if override:
            counts[override] += 1
        elif card.variation:
            for variation in card.variation.split("+"):
                if variation in counts:
                    counts[variation] += 1
    return {variation: n for variation, n in counts.items() if n}


@dataclass(frozen=True)
class HandLimit:
    """A player's hand limit, and the cards changing it that the rules data has no number for."""

    limit: int
    unknown: tuple[str, ...] = ()


def hand_limit(player: int, stables: tuple[tuple[str, ...], ...], cards: CardSet, rules: Rules, base: int) -> HandLimit:
    """The hand limit of one player: the profile's number as changed by cards in Stables (rules' `hand_limits`)."""
    sets: list[int] = []
    add = 0
    unknown: list[str] = []
    for seat, stable in enumerate(stables):
        quiet = downgrades_silenced(stable, cards)
        for card_id in stable:
            card = cards.get(card_id)
            if quiet and card is not None and card.type is CardType.DOWNGRADE:
                continue  # Dragon's Blessing: the Downgrade cards in this Stable have no effect
            rule = rules.hand_limits.get(card_id)
            if rule is None:
                if seat == player and card is not None and card.has(Tag.HAND_LIMIT_CHANGE) and card_id not in unknown:
                    unknown.append(card_id)
                continue
            if seat != player and not rule.everyone:
                continue
            if rule.set is not None:
                sets.append(rule.set)
            add += rule.add
    limit = (min(sets) if sets else base) + add
    return HandLimit(max(0, limit), tuple(unknown))


class Ending(enum.Enum):
    """How a game ended."""

    GOAL = "goal"
    """A player reached the number of Unicorns to win."""
    MOST = "most"
    """The deck ran out and one player had the most Unicorns."""
    LETTERS = "letters"
    """The deck ran out, the most Unicorns were tied, and one tied player had the most letters."""
    EVERYONE_LOSES = "everyone-loses"
    """The deck ran out with a tie in Unicorns and in letters."""
    NO_WINNER = "no-winner"
    """The deck ran out and the rules give no winner."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game."""

    ending: Ending
    winner: int | None = None
    tied: tuple[int, ...] = ()
    """Players tied for the most Unicorns, when the deck ran out."""

    def to_dict(self) -> dict[str, Any]:
        """A plain dictionary for saves and JSON output."""
        return {"ending": self.ending.value, "winner": self.winner, "tied": list(self.tied)}


def most_unicorns(
    stables: tuple[tuple[str, ...], ...], cards: CardSet, barred: frozenset[int] = frozenset()
) -> Outcome:
    """Rulebook 000: "the player with the most Unicorns wins"; tied, "The player with the most letters wins";
    still tied, "everyone loses". A `barred` player cannot win (The Black Spot), so is left out."""
    if len(barred) >= len(stables):
        return Outcome(Ending.NO_WINNER)
    counts = tuple(-1 if seat in barred else n for seat, n in enumerate(tally(stables, cards)))
    best = max(counts)
    leaders = tuple(seat for seat, n in enumerate(counts) if n == best)
    if len(leaders) == 1:
        return Outcome(Ending.MOST, leaders[0])
    letters = {seat: name_letters(stables[seat], cards) for seat in leaders}
    most = max(letters.values())
    top = [seat for seat in leaders if letters[seat] == most]
    if len(top) == 1:
        return Outcome(Ending.LETTERS, top[0], leaders)
    return Outcome(Ending.EVERYONE_LOSES, None, leaders)


def first_to_goal(counts: tuple[int, ...], goal: int | tuple[int, ...], current: int) -> int | None:
    """The player who has reached the goal (one for all, or each player's own); when several have at once, the
    current player first, then clockwise."""
    players = len(counts)
    goals = goal if isinstance(goal, tuple) else (goal,) * players
    for step in range(players):
        seat = (current + step) % players
        if counts[seat] >= goals[seat]:
            return seat
    return None
