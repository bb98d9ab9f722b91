"""Learning a deck by scanning it: a QR code that holds a card's full text (as the official braille deck's codes
do, rulebook 004) naming no card in play becomes a card the owner can add to their deck.

Pure: the name, the text and the type are read from the payload's words, or the type from the braille prefix
the player types (rulebook 004: Baby cards start with `b`, Instants with `I`, Magical Animals with `m`, Magic
cards with `action`, Upgrades with `ug`, Downgrades with `dg`; a Basic card has no prefix). The card is then
imported by the same rules and limits as `deck import` (`assistant/core/cards/sheet.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from assistant.core.cards.card import Card, CardType, Deck, normalize
from assistant.core.cards.sheet import MAX_ROWS, SheetRow, match_sheet, matching_card, render_import
from assistant.core.text import clean_untrusted

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


#: A field of a card's text that only says its type ("Upgrade", "MAGIC CARD", "Magical Unicorn card", "Magic").
_TYPE_LINE = re.compile(
    r"(baby|basic|magical|magic|upgrade|downgrade|instant)(\s+(unicorn|llama|animal))?(\s+card)?", re.IGNORECASE
)
_TYPE_OF_WORD = {
    "baby": CardType.BABY,
    "basic": CardType.BASIC,
    "magical": CardType.MAGICAL,
    "magic": CardType.MAGIC,
    "upgrade": CardType.UPGRADE,
    "downgrade": CardType.DOWNGRADE,
    "instant": CardType.INSTANT,
}
#: A name with something in brackets after it: "Fuzzy Hat (Upgrade)".
_BRACKETED_TYPE = re.compile(r"(.+?)\s*\(([^()]+)\)")
#: Words that open with a sentence of their own, which may be a type line: "Magic card. Draw two cards."
_TYPE_SENTENCE = re.compile(r"([^.:!?]{1,40})[.:]\s+(?=\S)")
#: Where a one-line card text parts its fields, tried in this order, and how the fields after the name are joined
#: back into its text: " / " (a slash with a space on one side at least), a dash between spaces, a colon.
_SEPARATORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\s+/\s*|\s*/\s+"), " / "),
    (re.compile(r"\s+[-\u2013\u2014]+\s+"), " - "),
    (re.compile(r"\s*:\s*"), ": "),
)
#: The most words a name is taken to have: more is a sentence, not a card's name.
MAX_NAME_WORDS = 8


@dataclass(frozen=True)
class CardText:
    """What a scanned card text says, as a player means it: the name, the words after it, and the type it gives
    (a type line before or after the name, or a braille prefix on it), before any deck is asked."""

    name: str
    text: str
    type: CardType | None
    fields: int
    """How many parts the payload had (a name alone is 1)."""
    typed: bool
    """The type was given as a field of its own or as a braille prefix (not guessed from the words)."""


def type_line(field: str) -> CardType | None:
    """The type a field names when that is all it says ("Upgrade", "UPGRADE CARD", "Magic"), or None."""
    match = _TYPE_LINE.fullmatch(field.strip(" .:"))
    return _TYPE_OF_WORD[match.group(1).lower()] if match else None


def without_prefix(name: str) -> tuple[str, CardType | None]:
    """A name without the braille label's prefix in front of it ("action Wool Gathering" is Wool Gathering, a
    Magic card), and the prefix's type; the name as it is when it has none (or is nothing but one)."""
    words = name.split()
    if len(words) >= 2:
        for prefix, card_type in PREFIXES:
            if words[0].lower() == prefix:
                return " ".join(words[1:]), card_type
    return name, None


def card_text_parts(payload: str, is_card: Callable[[str], bool] | None = None) -> CardText | None:
    """A card's text as a player means it, in any of the ways a code may hold it: "Name: what it does", the name
    on its own first line, fields parted by " / " or a dash ("Wool Gathering - text"), a type line before or after
    the name ("Upgrade: Rainbow Aura", "MAGIC CARD / Wool Gathering / text", "Wool Gathering / Magic / text"), a
    braille prefix on the name ("action Wool Gathering: text"), or a name alone. `is_card`: whether a field is a
    card's own name (a card named "Baby Llama" is a name, not a type line). None when no name can be told."""
    lines = [" ".join(line.split()) for line in payload.strip().splitlines() if line.strip()]
    if not lines:
        return None
    joiner = " "
    fields = lines
    if len(lines) == 1:
        for separator, join in _SEPARATORS:
            parts = separator.split(lines[0])
            if len(parts) >= 2:
                fields, joiner = parts, join
                break
    fields = [field.strip(" :;-/\u2013\u2014") for field in fields]
    fields = [field for field in fields if field]
    count = len(fields)

    def type_of(field: str) -> CardType | None:
        return None if is_card is not None and is_card(field) else type_line(field)

    card_type, typed = None, False
    while len(fields) >= 2 and type_of(fields[0].rstrip(".")) is not None:  # a type line before the name
        card_type = card_type or type_of(fields[0])
        fields.pop(0)
    if not fields:
        return None
    name, prefixed = fields.pop(0), None
    if is_card is None or not is_card(name):
        name, prefixed = without_prefix(name)
    if fields and type_of(fields[0]) is not None:  # a type line after the name
        card_type = card_type or type_of(fields[0])
        fields.pop(0)
    name, bracketed = _without_bracketed_type(name, is_card)  # "Fuzzy Hat (Upgrade)"
    card_type = card_type or bracketed
    if fields:  # the text opening with its type as a sentence ("Magic card. Draw two cards...")
        fields[0], opening = _without_type_sentence(fields[0])
        card_type = card_type or opening
        fields = [field for field in fields if field]
    typed = card_type is not None or prefixed is not None
    card_type = card_type or prefixed
    name = name.strip(" .:-")
    if not name or len(name) > MAX_NAME or len(name.split()) > MAX_NAME_WORDS:
        return None  # a name with no letters is left to the import's rules, which say why it is refused
    if re.search(r"[.!?]\s+\S", name) and not (is_card is not None and is_card(name)):
        return None  # a sentence running on after the name ("Rainbow Aura. Your Unicorns - all of them - ..."): prose
    body = " ".join(joiner.join(fields).split())
    return CardText(name, body, card_type or type_from_words(name) or type_from_words(body), count, typed)


def _without_bracketed_type(name: str, is_card: Callable[[str], bool] | None) -> tuple[str, CardType | None]:
    """A name without the type a code puts in brackets after it ("Fuzzy Hat (Upgrade)" is Fuzzy Hat, an
    Upgrade), and that type; the name as it is when the brackets hold no type ("Basic Unicorn (Red)") or the
    whole is a card's own name."""
    match = _BRACKETED_TYPE.fullmatch(name)
    if match is None or (is_card is not None and is_card(name)):
        return name, None
    card_type = type_line(match.group(2))
    return (match.group(1).strip(), card_type) if card_type is not None else (name, None)


def _without_type_sentence(text: str) -> tuple[str, CardType | None]:
    """A card's words without the type line they open with as a sentence of its own ("Magic card. Draw two
    cards." is "Draw two cards.", a Magic card); the words as they are when they open otherwise."""
    match = _TYPE_SENTENCE.match(text)
    if match is None:
        return text, None
    card_type = type_line(match.group(1))
    return (text[match.end() :].strip(), card_type) if card_type is not None else (text, None)


def read_card_text(payload: str) -> NewCard | None:
    """The card a scanned full text describes (`card_text_parts`: "Name: what it does", the name on its own line,
    a type line or braille prefix around the name, dashes or slashes between the parts). None when no name and
    text can be told from it (a name alone is the payload resolver's to judge: `payloads.resolve_payload`)."""
    parts = card_text_parts(payload)
    if parts is None or parts.fields < 2 or not parts.text:
        return None
    return NewCard(parts.name, parts.text, parts.type)


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


class CardNotLearned(ValueError):
    """A scanned card the owner's import cannot take: `limit`, the most cards a sheet may give, when the import
    holds that many already; else the sheet's `reason` for leaving its line out ("" when it gave none). The words
    for it are the caller's (`assistant.core.words.scans`)."""

    def __init__(self, limit: int | None = None, reason: str = "") -> None:
        super().__init__(reason)
        self.limit = limit
        self.reason = reason


def learned_deck_text(
    new: NewCard, card_type: CardType, base: Deck, existing: Deck | None, deck_id: str, unscanned: str
) -> str:
    """The owner's import deck with one scanned card added, as a deck file: the same matching, checks and limits
    as a reference sheet (`deck import`), the cards already imported kept. A name that is a typo of a card of the
    base deck gives that card the scanned text (as a sheet's line would; `sheet.matching_card` tells it before).
    A card learnt by its name alone gets the text `unscanned` (a deck's card has words). Raises `CardNotLearned`
    when the card cannot be added: the import already holds the most cards a sheet may give, or the sheet's rules
    refuse the line (a name with no letters or digits)."""
    if existing is not None and len(existing.cards) >= MAX_ROWS:
        raise CardNotLearned(limit=MAX_ROWS)
    same = matching_card(new.name, base)  # a typo of a deck card's name is that card, as on a sheet
    replaced = {normalize(clean_untrusted(new.name, 100)), normalize(same.name) if same is not None else ""}
    kept = [card for card in existing.cards if normalize(card.name) not in replaced] if existing else []
    rows = _rows(kept)  # a card scanned again replaces its earlier words (the player said yes to that)
    line = len(rows) + 1
    name = clean_untrusted(new.name, 100)  # the id is made from the name as it is said, never from an escape
    rows.append(SheetRow(line, name, new.text or unscanned, card_type.value))
    result = match_sheet(rows, base, deck_id)
    if line not in result.imported:
        reasons = [problem.message for problem in result.problems if problem.line == line]
        raise CardNotLearned(reason=reasons[-1] if reasons else "")  # match_sheet names each line it leaves out
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
