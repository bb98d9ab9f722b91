"""Every sentence the app says or prints, made from cards, events and state.

Pure functions only, so the plain mode, the Textual screen and the speech say the same words, and the wording
is tested as data. Sentences are short and free of symbols a speech engine would mangle.
"""

from __future__ import annotations

import re

from assistant.core.cards import Card, CardType, Deck, Vocabulary
from assistant.core.lookup import Resolution

#: The longest untrusted text (a QR payload, a typed line) shown or spoken, in characters.
MAX_UNTRUSTED = 300

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def clean_untrusted(text: str, limit: int = MAX_UNTRUSTED) -> str:
    """Make untrusted text safe to show and speak: no terminal escapes or control characters, capped length.

    Markup is not touched here: the UI shows every text literally (markup off), so "[b]" stays "[b]".
    """
    text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub(" ", text.replace("\r\n", "\n"))
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"  # an ellipsis is spoken as a pause, not read out
    return text


def type_name(card_type: CardType, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """The spoken name of a card type: "Baby Unicorn", "Magical Animal", "Magic card", "Instant card"."""
    creature = vocabulary.creature
    return {
        CardType.BABY: f"Baby {creature}",
        CardType.BASIC: f"Basic {creature}",
        CardType.MAGICAL: f"Magical {creature}",
        CardType.UPGRADE: "Upgrade card",
        CardType.DOWNGRADE: "Downgrade card",
        CardType.MAGIC: "Magic card",
        CardType.INSTANT: "Instant card",
    }[card_type]


def card_title(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """ "Rainbow Aura, Upgrade card." """
    return f"{card.name}, {type_name(card.type, vocabulary)}."


def describe_card(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """The full spoken description of a card: name, type, then its text."""
    return f"{card_title(card, vocabulary)} {card.text}"


def card_lines(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> list[str]:
    """A card as screen lines, one fact per line (for braille displays)."""
    lines = [card.name, f"Type: {type_name(card.type, vocabulary)}", f"Copies in the deck: {card.copies}"]
    if card.variation:
        lines.append(f"Variation: {card.variation.replace('+', ' and ')}")
    lines.append(card.text)
    return lines


def numbered_choices(cards: list[Card]) -> str:
    """ "2 matches: 1 Rainbow Aura, 2 Rainbow Unicorn." """
    count = len(cards)
    items = ", ".join(f"{n} {card.name}" for n, card in enumerate(cards, start=1))
    return f"{count} {'match' if count == 1 else 'matches'}: {items}."


def describe_resolution(resolution: Resolution, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """What to say after a lookup: the card, the choices, or that nothing matched."""
    if resolution.match is not None:
        return describe_card(resolution.match, vocabulary)
    query = clean_untrusted(resolution.query, 60)
    if not query:
        return "Nothing typed. Type a card name or its braille abbreviation."
    if resolution.candidates:
        choices = numbered_choices([c.card for c in resolution.candidates])
        return f"No card called {query}. {choices} Type a number to choose."
    return f"No card called {query}, and nothing close. Check the spelling or try the abbreviation."


def describe_deck(deck: Deck) -> str:
    """One line about a deck: title, size and completeness."""
    info = deck.info
    unique = len(deck.cards)
    sentence = f"{info.title}: {unique} cards, {deck.total_copies} copies."
    if not info.complete:
        sentence += " This card list is incomplete."
    return sentence


def deck_incomplete_warning(deck: Deck) -> str:
    """Said when an incomplete deck is chosen: what is missing and how to fill it in."""
    return (
        f"{deck.info.title} is incomplete: only {len(deck.cards)} cards are known. "
        "Import the reference sheet that came with your deck with: table-assistant deck import FILE."
    )


NO_CHOICE_PENDING = "There is no list to choose from. Type a card name first."


def choice_out_of_range(number: int, count: int) -> str:
    """Said when a digit does not pick one of the candidates read out."""
    return f"There is no choice {number}. Choose 1 to {count}."


HELP_LINES = (
    "Type a card name, part of a name, or its braille abbreviation, then Enter: its full text is shown and spoken.",
    "When several cards match, they are read with numbers: type the number to choose.",
    "Type help to hear this again.",
)
HELP_SPOKEN = " ".join(HELP_LINES)

NO_TERMINAL = (
    "The app needs a terminal. To use it line by line, from a script or a screen reader, run: "
    "table-assistant --plain"
)
