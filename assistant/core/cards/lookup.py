"""Resolving what a player typed to a card: the result type, and the standard-library resolver.

The braille adapter (`assistant/braille/resolver.py`) builds a richer resolver on the same result type; this one
(`resolve_name`, and `NameResolver`, the session's resolver when it is given none) needs nothing outside the
standard library and is what the core and its tests use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

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


class CardResolver(Protocol):
    """What a session resolves queries with: `assistant.braille.resolver.BrailleResolver` in the app and the plain
    mode, `NameResolver` (the standard library's) when it is given none."""

    def resolve(self, query: str) -> Resolution:
        """The card meant by the query, or candidates, or nothing."""

    def take_notice(self) -> str:
        """A one-time message for the player (such as "contracted braille needs liblouis"), or ""."""

    def read_contracted(self, cells: str) -> str | None:
        """What a line of braille cells reads as in contracted braille ("⠢⠙⠀⠞⠥⠗⠝" is "end turn"), or None when
        this resolver cannot read it (not only cells, or no liblouis)."""

    def prepare(self) -> None:
        """Build now what the first look-up (and the first braille one) would build, with no notice said."""


def resolve_name(cards: CardSet, query: str, limit: int = 5) -> Resolution:
    """Resolve an id or a name (case, spaces and punctuation ignored); offer the closest names otherwise."""
    card = cards.find_exact(query)
    if card is not None:
        return Resolution(query, card, (Candidate(card, 100.0),))
    close = cards.closest(query, limit)
    return Resolution(query, None, tuple(Candidate(c, 50.0) for c in close))


@dataclass(frozen=True)
class NameResolver:
    """The standard-library resolver of a session (`CardResolver`): ids and names by
    `resolve_name`; it has no notices and cannot read contracted braille (that needs liblouis, in the braille
    adapter)."""

    cards: CardSet

    def resolve(self, query: str) -> Resolution:
        """The card with this id or name, or the closest names."""
        return resolve_name(self.cards, query)

    def take_notice(self) -> str:
        """Nothing to tell the player."""
        return ""

    def read_contracted(self, cells: str) -> str | None:
        """None: contracted braille cannot be read without liblouis."""
        return None

    def prepare(self) -> None:
        """Nothing is built at a first look-up."""
