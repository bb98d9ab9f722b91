"""Sentences about cards learnt from scanned codes: a code whose words differ from its card's, a question that
still waits while a code is read, and the owner's learnt texts listed and removed."""

from __future__ import annotations

from assistant.core.text import clean_untrusted

__all__ = [
    "code_differs",
    "offer_replacing_words",
    "REPLACE_WORDS",
    "still_waits",
    "yes_is_not_enough",
    "words_kept",
    "name_only_close",
    "NOTHING_LEARNED",
    "learned_heading",
    "learned_card",
    "card_forgotten",
    "not_learned",
]

#: `deck learned` when no card was learnt from a scan.
NOTHING_LEARNED = "No card was learnt from a scanned code: every card has its deck's words."


def code_differs(name: str, text: str) -> str:
    """A code that starts with a card's name but whose words are not the deck's: said, never taken as the card's."""
    return (
        f"This code names {clean_untrusted(name, 60)}, but its words differ from the deck's. The code says: "
        f"{clean_untrusted(text)}"
    )


#: The answer that gives a card the words of a code naming it: a phrase, never a single key typed by accident.
REPLACE_WORDS = "replace words"


def still_waits(numbered: bool, learnable: bool) -> str:
    """Said after a code read while a question waits (numbered cards or yes or no): the question is kept as it
    was; the code was only read out."""
    answer = "type a number to choose" if numbered else "say yes or no to it"
    later = " The code was only read out; show it again afterwards to add it." if learnable else ""
    return f"A question still waits: {answer} first.{later}" if learnable else f"A question still waits: {answer}."


def offer_replacing_words(name: str, deck_text: str) -> str:
    """After `code_differs`, when the code's words could be learnt: the deck's words, and the deliberate answer
    that takes the code's instead (`REPLACE_WORDS`; yes alone does not)."""
    return (
        f"The deck says: {clean_untrusted(_text_or_none(deck_text))} To give {clean_untrusted(name, 60)} the "
        f"code's words instead, type {REPLACE_WORDS}. Anything else keeps the deck's."
    )


def yes_is_not_enough(name: str) -> str:
    """A yes (or a stray y) to the offer of `offer_replacing_words`: nothing is replaced."""
    return (
        f"Nothing replaced: yes alone does not change {clean_untrusted(name, 60)}'s words. Type {REPLACE_WORDS} "
        "to do it, or go on with any command."
    )


def words_kept(name: str) -> str:
    """No to the offer of `offer_replacing_words`."""
    return f"{clean_untrusted(name, 60)} keeps its words."


def name_only_close(code_name: str, name: str, code_text: str) -> str:
    """A code whose name is close to a card's but not the same (a typo): read out, never taken as that card's
    words nor added as a card of its own."""
    return (
        f"This code's name, {clean_untrusted(code_name, 60)}, is close to {clean_untrusted(name, 60)} but not the "
        f"same, so nothing was learnt from it. The code says: {clean_untrusted(_text_or_none(code_text))}"
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
