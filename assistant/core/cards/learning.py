"""Learning a deck by scanning it: a QR code that holds a card's full text (as the official braille deck's codes
do, rulebook 004) naming no card in play becomes a card the owner can add to their deck.

Pure: the name, the text and the type are read from the payload's words, or the type from the braille prefix
the player types (rulebook 004: Baby cards start with `b`, Instants with `I`, Magical Animals with `m`, Magic
cards with `action`, Upgrades with `ug`, Downgrades with `dg`; a Basic card has no prefix). The card is then
imported by the same rules and limits as `deck import` (`assistant/core/cards/sheet.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.core.cards.card import Card, CardType, Deck, normalize
from assistant.core.cards.sheet import MAX_ROWS, SheetRow, match_sheet, matching_card, render_import
from assistant.core.words.scans import CARD_REFUSED, import_full

#: The longest name taken from a scanned text.
MAX_NAME = 60

#: Braille label prefixes of the official braille deck (rulebook 004), longest first.
PREFIXES: tuple[tuple[str, CardType], ...] = (
    ("action", CardType.MAGIC),
    ("ug", CardType.UPGRADE),
    ("dg", CardType.DOWNGRADE),
    ("b", CardType.BABY),
    ("i", CardType.INSTANT),
    ("m", CardType.MAGICAL),
)

#: Words in a card's text that give its type, checked in this order.
_TYPE_WORDS: tuple[tuple[str, CardType], ...] = (
    (r"\bbaby\b", CardType.BABY),
    (r"\binstant\b", CardType.INSTANT),
    (r"\bmagical\b", CardType.MAGICAL),
    (r"\bmagic card\b", CardType.MAGIC),
    (r"\bupgrade\b", CardType.UPGRADE),
    (r"\bdowngrade\b", CardType.DOWNGRADE),
    (r"\bbasic\b", CardType.BASIC),
)


@dataclass(frozen=True)
class NewCard:
    """A card read from a scanned text, not yet in any deck."""

    name: str
    text: str
    type: CardType | None
    """None when neither the words nor a prefix tell the type: the player is asked."""


def read_card_text(payload: str) -> NewCard | None:
    """The card a scanned full text describes: "Name: what it does", or a first line that is the name and the
    lines after it. None when no name can be told from the text."""
    text = payload.strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 2 and len(lines[0]) <= MAX_NAME:
        name, body = lines[0], " ".join(lines[1:])
    else:
        name, _, body = text.partition(":")
        if not body.strip() or len(name) > MAX_NAME:
            return None
    name, body = name.strip(" .:-"), " ".join(body.split())
    if not name or not body:
        return None
    return NewCard(name, body, type_from_words(name) or type_from_words(body))


def type_from_words(text: str) -> CardType | None:
    """The card type some words name ("Baby Llama", "... Magic card ..."), or None. The offer says the type it
    guessed, and the player can give another, so a text that names another card's type costs one correction."""
    lower = text.lower()
    return next((card_type for pattern, card_type in _TYPE_WORDS if re.search(pattern, lower)), None)


def type_from_prefix(typed: str) -> CardType | None:
    """The card type from the braille label's prefix the player typed ("ug", "action"), or None."""
    word = typed.strip().lower().split()[0] if typed.strip() else ""
    if word in ("basic", "none"):
        return CardType.BASIC
    for prefix, card_type in PREFIXES:
        if word == prefix:
            return card_type
    return next((t for t in CardType if word == t.value), None)


def learned_deck_text(new: NewCard, card_type: CardType, base: Deck, existing: Deck | None, deck_id: str) -> str:
    """The owner's import deck with one scanned card added, as a deck file: the same matching, checks and limits
    as a reference sheet (`deck import`), the cards already imported kept. A name that is a typo of a card of the
    base deck gives that card the scanned text (as a sheet's line would; `sheet.matching_card` tells it before).
    Raises ValueError with the reason, in words, when the card cannot be added: the import already holds the most
    cards a sheet may give, or the sheet's rules refuse the line (a name with no letters or digits)."""
    if existing is not None and len(existing.cards) >= MAX_ROWS:
        raise ValueError(import_full(MAX_ROWS))
    same = matching_card(new.name, base)  # a typo of a deck card's name is that card, as on a sheet
    replaced = {normalize(new.name), normalize(same.name) if same is not None else ""}
    kept = [card for card in existing.cards if normalize(card.name) not in replaced] if existing else []
    rows = _rows(kept)  # a card scanned again replaces its earlier words (the player said yes to that)
    line = len(rows) + 1
    rows.append(SheetRow(line, new.name, new.text, card_type.value))
    result = match_sheet(rows, base, deck_id)
    if line not in result.imported:
        reasons = [problem.message for problem in result.problems if problem.line == line]
        raise ValueError(reasons[-1] if reasons else CARD_REFUSED)  # match_sheet names each line it leaves out
    return render_import(result, base, deck_id, "cards scanned at the table")


def _rows(cards: list[Card]) -> list[SheetRow]:
    """Cards already learnt, as the sheet lines that made them."""
    return [
        SheetRow(line, card.name, card.text, card.type.value, str(card.copies), card.abbreviation or "")
        for line, card in enumerate(cards, start=1)
    ]


def forgotten_deck_text(existing: Deck, base: Deck, name: str) -> tuple[Card | None, str]:
    """The learnt overlay without the card called `name`: (that card, the deck file's text), or (None, "") when
    the overlay has no such card; the text is "" when no card is left (the file is then removed)."""
    gone = next((card for card in existing.cards if normalize(card.name) == normalize(name)), None)
    if gone is None:
        return None, ""
    rows = _rows([card for card in existing.cards if card is not gone])
    if not rows:
        return gone, ""
    return gone, render_import(match_sheet(rows, base, existing.id), base, existing.id, "cards scanned at the table")
