"""Shared pieces of every sentence: cleaning untrusted text, lists and counts said aloud, and where a sentence ends
(one rule for speech, the pace of the table and the braille display: card names holding a sentence's end kept
whole)."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_UNTRUSTED",
    "readable",
    "clean_untrusted",
    "cards_count",
    "name_list",
    "terminal_json",
    "SentenceNames",
    "PLAIN",
    "sentences",
    "split_sentences",
]

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


# A sentence ends at . ! ? or ; followed by a space and a word that does not begin in lower case ("Don't Kid
# Yourself! entered" is one sentence). Not at a colon: "Turn 5: Ben's turn." is one sentence, and splitting there
# made the speech choppy.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[^\sa-z])")
_LOWER_START = re.compile(r"(?<=[.!?;])\s+(?=[a-z])")
_HOLDS_END = re.compile(r"[.!?;]\s")


@dataclass(frozen=True)
class SentenceNames:
    """The names a text may hold that change where its sentences end, given by whoever splits it (the game's cards
    and players): the same text with the same names always splits the same way."""

    cards: frozenset[str] = frozenset()
    """Card names that hold a sentence's end ("Don't Kid Yourself!", "The G.O.A.T."): kept whole."""
    players: frozenset[str] = frozenset()
    """Players' names as typed, in lower case: a sentence may begin with one ("ana wins! ana's Stable")."""

    @classmethod
    def of(cls, cards: Iterable[str] = (), players: Iterable[str] = ()) -> SentenceNames:
        """The names of these cards and players that matter: card names holding ".", "!", "?" or ";" before a space
        or at their end, players' names beginning in lower case."""
        return cls(
            frozenset(name for name in cards if _HOLDS_END.search(f"{name} ")),
            frozenset(name for name in players if name[:1].islower()),
        )


#: No names: a text split by its punctuation alone.
PLAIN = SentenceNames()


def _starts_name(text: str, at: int, players: frozenset[str]) -> bool:
    """A player's name in lower case begins the text at `at` (the whole name: "ana's", "ana ", not "anatomy")."""
    return any(
        text.startswith(name, at) and not text[at + len(name) : at + len(name) + 1].isalnum() for name in players
    )


def sentences(text: str, names: SentenceNames = PLAIN) -> list[str]:
    """The sentences of a text, each stripped, none empty: split where a sentence ends (at ". ", "! ", "? " or "; "
    before a word that does not begin in lower case, or a player's name typed in lower case: `names.players`), never
    inside a card name holding a sentence's end ("Neigh, Mate!", "Fuck. Marry. Kill": `names.cards`), nor at a colon
    ("Turn 5: Ben's turn." is one sentence)."""
    text = text.strip()
    inside: set[int] = set()  # where a card name ends: not a sentence's end, unless its own end is one ("Fleeced!.")
    for name in names.cards:
        for match in re.finditer(re.escape(name), text):
            inside.update(range(match.start(), match.end() + 1))
    ends = list(_SENTENCE_END.finditer(text))
    if names.players:
        ends += [m for m in _LOWER_START.finditer(text) if _starts_name(text, m.end(), names.players)]
        ends.sort(key=lambda match: match.start())
    found, start = [], 0
    for match in ends:
        if match.start() in inside:
            continue
        found.append(text[start : match.start()])
        start = match.end()
    found.append(text[start:])
    return [sentence.strip() for sentence in found if sentence.strip()]


def split_sentences(text: str, longest: int = 240, names: SentenceNames = PLAIN) -> list[str]:
    """The text's `sentences` (with these `names`), so the first can be played while the rest is rendered; a piece
    longer than `longest` characters is split again at a comma or a space."""
    pieces: list[str] = []
    for sentence in sentences(text, names):
        while len(sentence) > longest:
            cut = sentence.rfind(", ", 0, longest)
            cut = cut + 1 if cut > 0 else sentence.rfind(" ", 0, longest)
            if cut <= 0:
                cut = longest
            pieces.append(sentence[:cut].strip())
            sentence = sentence[cut:].strip()
        if sentence:
            pieces.append(sentence)
    return pieces
