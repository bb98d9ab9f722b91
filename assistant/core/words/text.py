"""Shared pieces of every sentence: cleaning untrusted text, lists and counts said aloud."""

from __future__ import annotations

import re
import unicodedata

#: The longest untrusted text (a QR payload, a typed line) shown or spoken, in characters.
MAX_UNTRUSTED = 300

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]")
#: Unicode categories never shown or spoken: controls (C0, C1), format characters (U+FEFF, zero-width spaces and
#: joiners, bidi embeddings, overrides and isolates, tag characters), lone surrogates (bytes that were not UTF-8),
#: and the line and paragraph separators.
_HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def _visible(char: str) -> str:
    return " " if unicodedata.category(char) in _HIDDEN else char


def clean_untrusted(text: str, limit: int = MAX_UNTRUSTED) -> str:
    """Make untrusted text safe to show and speak: no terminal escapes, no control, format or bidi characters, no
    lone surrogates, white space folded to single spaces, capped length. Every string that did not come from
    this program's own sentences (typed, scanned, read from any file, our saves included) goes through here
    before it is shown, spoken or echoed.

    Markup is not touched here: the UI shows every text literally (markup off), so "[b]" stays "[b]".
    """
    text = text[: limit * 8 + 64]  # a huge input is cut before the work: what is kept is at most `limit` anyway
    text = _ESCAPES.sub("", text)
    if not text.isprintable():  # the common case, plain printable text, skips the look-up of every character
        text = "".join(map(_visible, text))
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
