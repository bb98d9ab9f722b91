"""Card search: which cards' names, texts or tags mention some words ("destroy", "hand limit", "neigh").

A player asks "which cards can destroy?" and hears the cards ranked: a word in the name counts most, then a word in
the tags, then in the text, and the words side by side in the text ("hand limit") count extra. Every word of the
query must be found somewhere in a card (small words such as "which", "cards", "can" are left out), and a word
matches its other forms: "destroy" finds "destroyed" and "destroys".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.core.cards.card import Card, CardSet

#: Words of a question that say nothing about the cards.
STOP_WORDS = frozenset(
    "a an the of to in on at by for with and or is are be can could which what who cards card that this these "
    "those do does me my i let lets show list find any all some".split()
)

#: Endings taken off before comparing, longest first, so "destroys", "destroyed", "destroying" meet at "destroy"
#: and "sacrifice", "sacrificed", "sacrifices" at "sacrific".
_ENDINGS = ("ing", "ed", "es", "s", "e", "d")
_WORD = re.compile(r"[a-z0-9]+")

NAME_WEIGHT, TAG_WEIGHT, TEXT_WEIGHT, PHRASE_BONUS = 3.0, 2.0, 1.0, 3.0


@dataclass(frozen=True)
class Found:
    """A card the search found, with its score (higher is better)."""

    card: Card
    score: float


def search_words(query: str) -> list[str]:
    """The words of a query that are searched for, in order."""
    return [word for word in _WORD.findall(query.casefold().replace("'", "")) if word not in STOP_WORDS]


def stem(word: str) -> str:
    """A word without its common English ending: "destroyed" → "destroy", "neighs" → "neigh"."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word


def _stems(text: str) -> list[str]:
    return [stem(word) for word in _WORD.findall(text.casefold().replace("'", ""))]


def search_cards(cards: CardSet, query: str) -> list[Found]:
    """Every card that mentions every word of the query, best first (ties by name)."""
    wanted = [stem(word) for word in search_words(query)]
    if not wanted:
        return []
    found = []
    for card in cards:
        score = _score(card, wanted)
        if score:
            found.append(Found(card, score))
    found.sort(key=lambda f: (-f.score, f.card.name))
    return found


def _score(card: Card, wanted: list[str]) -> float:
    name, text = _stems(card.name), _stems(card.text)
    tags = {part for tag in card.tags for part in _stems(tag.replace("_", " "))}
    score = 0.0
    for word in wanted:
        hit = NAME_WEIGHT * (word in name) + TAG_WEIGHT * (word in tags) + TEXT_WEIGHT * (word in text)
        if not hit:
            return 0.0
        score += hit
    if len(wanted) > 1 and _contains_run(text, wanted):
        score += PHRASE_BONUS
    return score


def _contains_run(words: list[str], run: list[str]) -> bool:
    size = len(run)
    return any(words[start : start + size] == run for start in range(len(words) - size + 1))
