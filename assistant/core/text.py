"""Shared pieces of every sentence: cleaning untrusted text, lists and counts said aloud."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

__all__ = ["MAX_UNTRUSTED", "readable", "clean_untrusted", "cards_count", "name_list", "terminal_json"]

#: The longest untrusted text (a QR payload, a typed line) shown or spoken, in characters.
MAX_UNTRUSTED = 300

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]")
#: Unicode categories never shown or spoken: controls, format characters (bidi overrides, zero-width marks, U+FEFF,
#: tags), line and paragraph separators. Each becomes a space.
_SURROGATES = re.compile("[\ud800-\udfff]")
_UNSHOWN = frozenset({"Cc", "Cf", "Zl", "Zp"})


def readable(text: str) -> str:
    """Text as the player's keyboard or a file really gave it: bytes that were not UTF-8 (carried as surrogate
    escapes) and lone surrogates become U+FFFD, so nothing downstream fails to encode it."""
    if text.isascii():
        return text
    return _SURROGATES.sub("\ufffd", text)


def clean_untrusted(text: str, limit: int = MAX_UNTRUSTED) -> str:
    """Make untrusted text safe to show and speak: no terminal escapes, control, format or bidi characters, no
    undecodable bytes, capped length.

    Markup is not touched here: the UI shows every text literally (markup off), so "[b]" stays "[b]".
    """
    text = readable(text[: limit * 8])  # never more work than could be shown
    text = _ESCAPES.sub("", text.replace("\r\n", "\n"))
    if not text.isascii() or any(c < " " or c == "\x7f" for c in text):
        text = "".join(" " if unicodedata.category(c) in _UNSHOWN else c for c in text)
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


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # JSON escapes are UTF-16: a pair of surrogates
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def terminal_json(data: Any) -> str:
    """JSON for the terminal (`--json` output): readable UTF-8, with every character `clean_untrusted` would drop
    (C1 controls, bidi and other format characters, separators) written as a \\u escape, so the data stays exact
    and a typed query or a file's text can still put nothing on the screen that acts on it."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if all(char.isprintable() or char == "\n" for char in text):  # the common case: nothing to escape
        return text
    return re.sub(r"[^\n]", lambda m: _json_escape(m) if _unshown(m.group()) else m.group(), text)


def _unshown(char: str) -> bool:
    return not char.isprintable() and unicodedata.category(char) in {"Cc", "Cf", "Cs", "Zl", "Zp"}
