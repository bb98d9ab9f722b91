"""Shared pieces of every sentence: cleaning untrusted text, lists and counts said aloud."""

from __future__ import annotations

import re

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


def cards_count(count: int) -> str:
    """ "1 card", "3 cards"."""
    return "1 card" if count == 1 else f"{count} cards"


def name_list(items: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]
