"""Reading the shipped braille maps (`braille_map/<deck>.toml`) and giving every card of a card set its abbreviation.

A deck with no map file (an owner's imported sheet, a deck newer than its map) gets abbreviations from the rule
itself. A damaged map is reported once and replaced by the rule, so a broken file never stops a look-up.
The folder of the maps is always given by the caller (`assistant/commands/` asks storage where it is): this
adapter reads files it is pointed at and never imports another adapter.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from assistant.core.braille.abbreviations import Abbreviation, AbbreviationClash, assign, keys_in_use, short_form
from assistant.core.braille.mapfile import BrailleMap, BrailleMapError, parse_braille_map
from assistant.core.cards.card import CardSet, Deck
from assistant.core.cards.cardfile import Problem
from assistant.core.words.entry import braille_map_damaged
from assistant.core.words.errors import cannot_be_read


def map_path(deck_id: str, folder: Path) -> Path:
    """Where a deck's map file lives in the maps' folder."""
    return folder / f"{deck_id}.toml"


def load_braille_map(deck: Deck, folder: Path) -> BrailleMap | None:
    """The deck's map file, validated against the deck; None when there is none; `BrailleMapError` when damaged."""
    path = map_path(deck.id, folder)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise BrailleMapError([Problem(str(path), 1, "-", "file", cannot_be_read(str(exc)))]) from None
    return parse_braille_map(text, deck, str(path))


@dataclass(frozen=True)
class CardSetAbbreviations:
    """Every card's abbreviation in a card set, and what to tell the player about how they were found."""

    by_card: dict[str, Abbreviation]
    notices: tuple[str, ...] = ()


def abbreviations_for(cards: CardSet, folder: Path) -> CardSetAbbreviations:
    """The abbreviation of every card in the set: from each deck's map, or from the rule where there is none."""
    by_card: dict[str, Abbreviation] = {}
    notices: list[str] = []
    for deck in cards.decks:
        if deck.info.kind == "import":
            by_card.update(_sheet_abbreviations(deck, by_card))
            continue
        try:
            braille_map = load_braille_map(deck, folder)
        except BrailleMapError:
            notices.append(braille_map_damaged(deck.info.title))
            braille_map = None
        if braille_map is not None:
            by_card.update(braille_map.abbreviations)
        else:
            by_card.update(rule_abbreviations(deck, taken=keys_in_use(by_card.values())))
    return CardSetAbbreviations(by_card, tuple(notices))


def _sheet_abbreviations(deck: Deck, known: dict[str, Abbreviation]) -> dict[str, Abbreviation]:
    """An imported sheet's labels: the one the owner typed wins (the shipped label stays an alias), a card the
    sheet only retells keeps its shipped label, and a new card without a label gets the rule's."""
    out: dict[str, Abbreviation] = {}
    new = [card for card in deck.cards if card.id not in known and not card.abbreviation]
    if new:
        out.update(rule_abbreviations(Deck(deck.info, tuple(new), deck.path), taken=keys_in_use(known.values())))
    for card in deck.cards:
        shipped = known.get(card.id)
        if card.abbreviation:
            aliases = (shipped.text, *shipped.aliases) if shipped and shipped.text != card.abbreviation else ()
            out[card.id] = Abbreviation(card.id, card.abbreviation, aliases)
    return out


def deck_abbreviations(deck: Deck, folder: Path) -> dict[str, Abbreviation]:
    """One deck's abbreviations: its map's, or the rule's when it has none; `BrailleMapError` when it is damaged."""
    braille_map = load_braille_map(deck, folder)
    return braille_map.abbreviations if braille_map is not None else rule_abbreviations(deck)


def rule_abbreviations(deck: Deck, taken: dict[str, str] | None = None) -> dict[str, Abbreviation]:
    """The rule's abbreviations for a deck with no map; where the rule cannot make them unique, the short forms.

    Look-up still works then: a label two cards share is answered with both cards to choose from.
    """
    vocabulary = deck.info.vocabulary
    try:
        return assign(deck.cards, vocabulary, taken=taken)
    except AbbreviationClash:
        return {card.id: Abbreviation(card.id, short_form(card, vocabulary)) for card in deck.cards}
