"""A running session: the cards in play and the reply to each line the player types.

The Textual app and the plain line mode both feed lines to `Session.handle` and show and speak the `Reply` it
returns, so the two modes cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.core import words
from assistant.core.cards import Card, CardSet
from assistant.core.lookup import Resolution, resolve_name


@dataclass(frozen=True)
class Reply:
    """What the app shows and says in answer to one line."""

    lines: tuple[str, ...]
    """Screen lines, one fact each."""
    speech: str
    """The sentence spoken."""
    important: bool = False
    """Errors and turn changes: never dropped by the speech queue."""
    card: Card | None = None
    """The card the reply is about, if any."""


@dataclass
class Session:
    """The cards in play and what is pending (candidates waiting for a digit)."""

    cards: CardSet
    resolver: object = None
    """Something with `resolve(query) -> Resolution`; the standard-library name resolver when None."""
    pending: tuple[Card, ...] = field(default=())

    def resolve(self, query: str) -> Resolution:
        """Resolve a query with the best resolver available."""
        if self.resolver is not None:
            return self.resolver.resolve(query)
        return resolve_name(self.cards, query)

    def handle(self, line: str) -> Reply:
        """Answer one typed line."""
        text = line.strip()
        if text.isdigit() and len(text) < 4:
            return self._choose(int(text))
        if text.lower() in ("help", "?"):
            return _reply(words.HELP_LINES, words.HELP_SPOKEN)
        return self.look_up(text)

    def look_up(self, query: str) -> Reply:
        """Resolve a card query and describe the outcome."""
        resolution = self.resolve(query)
        vocabulary = self.cards.vocabulary
        if resolution.match is not None:
            self.pending = ()
            card = resolution.match
            return Reply(tuple(words.card_lines(card, vocabulary)), words.describe_card(card, vocabulary), card=card)
        self.pending = tuple(c.card for c in resolution.candidates)
        sentence = words.describe_resolution(resolution, vocabulary)
        return Reply((sentence,), sentence, important=True)

    def _choose(self, number: int) -> Reply:
        if not self.pending:
            sentence = words.NO_CHOICE_PENDING
            return Reply((sentence,), sentence, important=True)
        if not 1 <= number <= len(self.pending):
            sentence = words.choice_out_of_range(number, len(self.pending))
            return Reply((sentence,), sentence, important=True)
        card = self.pending[number - 1]
        self.pending = ()
        vocabulary = self.cards.vocabulary
        return Reply(tuple(words.card_lines(card, vocabulary)), words.describe_card(card, vocabulary), card=card)


def _reply(lines, speech: str) -> Reply:
    return Reply(tuple(lines), speech)
