"""Resolving what a player typed to a card: the result type, and the standard-library resolver.

The braille adapter (`assistant/braille/resolver.py`) builds a richer resolver on the same result type; this one
needs nothing outside the standard library and is what the core and its tests use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.core.cards.card import Card, CardSet


@dataclass(frozen=True)
class Candidate:
    """A card that may be what the player meant, with how sure we are (0 to 100)."""

    card: Card
    score: float


@dataclass(frozen=True)
class Resolution:
    """The outcome of resolving a query: one card, or candidates to choose from, or nothing."""

    query: str
    match: Card | None
    candidates: tuple[Candidate, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of `table-assistant card --json`."""
        return {
            "query": self.query,
            "match": self.match.to_dict() if self.match else None,
            "candidates": [
                {"id": c.card.id, "name": c.card.name, "type": c.card.type.value, "score": round(c.score, 1)}
                for c in self.candidates
            ],
        }


def resolve_name(cards: CardSet, query: str, limit: int = 5) -> Resolution:
    """Resolve an id or a name (case, spaces and punctuation ignored); offer the closest names otherwise."""
    card = cards.find_exact(query)
    if card is not None:
        return Resolution(query, card, (Candidate(card, 100.0),))
    close = cards.closest(query, limit)
    return Resolution(query, None, tuple(Candidate(c, 50.0) for c in close))
