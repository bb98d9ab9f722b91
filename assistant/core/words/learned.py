"""Sentences about cards learnt from scanned codes: a code whose words differ from its card's, a question that
still waits while a code is read, and the owner's learnt texts listed and removed."""

from __future__ import annotations

from assistant.core.text import clean_untrusted

__all__ = [
    "QUESTION_STILL_WAITS",
    "code_differs",
    "offer_replacing_words",
    "NOTHING_LEARNED",
    "learned_heading",
    "learned_card",
    "card_forgotten",
    "not_learned",
]

#: `deck learned` when no card was learnt from a scan.
NOTHING_LEARNED = "No card was learnt from a scanned code: every card has its deck's words."

#: Said after a code read while a yes-or-no question waits: the code is only read out, the question still waits.
QUESTION_STILL_WAITS = (
    "A question still waits: say yes or no to it first. The code was only read out; show it again afterwards to add it."
)


def code_differs(name: str, text: str) -> str:
    """A code that starts with a card's name but whose words are not the deck's: said, never taken as the card's."""
    return (
        f"This code names {clean_untrusted(name, 60)}, but its words differ from the deck's. The code says: "
        f"{clean_untrusted(text)}"
    )


def offer_replacing_words(name: str, deck_text: str, code_text: str) -> str:
    """A scanned text for a card the deck has (or a typo of its name): the card, its deck words and the code's,
    and the question whether to replace them."""
    return (
        f"This reads as {clean_untrusted(name, 60)}, a card of this deck, in other words. The deck says: "
        f"{clean_untrusted(deck_text)} The code says: {clean_untrusted(_text_or_none(code_text))} Replace "
        f"{clean_untrusted(name, 60)}'s words with the code's? Say yes or no."
    )


def _text_or_none(text: str) -> str:
    """A text, or a dash for none (so a sentence never ends on an empty quote)."""
    return text if text.strip() else "-"


def learned_heading(count: int, deck_title: str, path: str) -> str:
    """`deck learned`: one overlay's heading."""
    cards = "1 card" if count == 1 else f"{count} cards"
    return f"{cards} learnt from scanned codes for {clean_untrusted(deck_title, 80)}, in {clean_untrusted(path, 200)}:"


def learned_card(name: str, text: str) -> str:
    """`deck learned`: one learnt card and its words."""
    return f"{clean_untrusted(name, 60)}: {clean_untrusted(text)}"


def card_forgotten(name: str, path: str) -> str:
    """`deck forget NAME`: the learnt words are gone; the deck's own apply again."""
    said = f"{clean_untrusted(name, 60)} is no longer learnt: the deck's own words apply again."
    return f"{said} Removed from {clean_untrusted(path, 200)}."


def not_learned(name: str) -> str:
    """`deck forget NAME` for a card no scan taught."""
    return f"No card called {clean_untrusted(name, 60)} was learnt from a scanned code. Say deck learned to list them."
