"""The terminal's encoding, whatever the locale: input never fails to decode, output never fails to encode.

Python reads stdin strictly in a UTF-8 desktop locale (`LANG=en_US.UTF-8`), so one byte that is not UTF-8 (what a
Latin-1 terminal or an 8-bit console sends for "é") would end the session; and it writes stdout strictly, so under
Latin-1 the first "…" would. `harden_streams` makes stdin keep such bytes as surrogate escapes (the session turns
them into U+FFFD) and makes stdout and stderr write what the terminal cannot show as its nearest ASCII
("…" as "...", "é" as "e", a braille cell as "?"). `lenient_decoder` does the same for the app's key reader.
"""

from __future__ import annotations

import codecs
import locale
import sys
import unicodedata
from typing import Any

#: The name the transliterating error handler is registered under.
TRANSLITERATE = "table-assistant-transliterate"

#: Characters the app itself writes, with their ASCII stand-ins (the rest: their letters without accents, or "?").
_STAND_INS = {
    "\u2026": "...",
    "\u2014": "-",
    "\u2013": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2022": "*",
    "\u2192": "->",
    "\u00a0": " ",
    "\u00d7": "x",
    "\ufffd": "?",
}


def transliterate(text: str) -> str:
    """`text` in ASCII: known punctuation as its stand-in, letters without their accents, anything else "?"
    (a byte kept as a surrogate escape included)."""
    out = []
    for char in text:
        if char.isascii():
            out.append(char)
        elif char in _STAND_INS:
            out.append(_STAND_INS[char])
        else:
            plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
            out.append(plain if plain.isprintable() and plain else "?")
    return "".join(out)


def _transliterate_error(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return transliterate(exc.object[exc.start : exc.end]), exc.end


codecs.register_error(TRANSLITERATE, _transliterate_error)


def harden_streams() -> None:
    """Make this process's stdin keep undecodable bytes (as surrogate escapes) and its stdout and stderr
    transliterate what their encoding cannot hold, instead of raising."""
    _reconfigure(sys.stdin, "surrogateescape")
    _reconfigure(sys.stdout, TRANSLITERATE)
    _reconfigure(sys.stderr, TRANSLITERATE)


def _reconfigure(stream: Any, errors: str) -> None:
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None:  # replaced by something that is not a text file (a test's capture): left alone
        return
    try:
        reconfigure(errors=errors)
    except (ValueError, OSError, AttributeError):
        pass


def lenient_decoder(_name: str = "utf-8") -> Any:
    """The incremental decoder class Textual's key reader asks for (by the name "utf-8"): the terminal's own
    encoding instead, and a byte it cannot decode read as U+FFFD, never an exception."""
    encoding = locale.getpreferredencoding(False) or "utf-8"
    try:
        decoder = codecs.getincrementaldecoder(encoding)
    except LookupError:
        decoder = codecs.getincrementaldecoder("utf-8")

    def make(errors: str = "replace") -> codecs.IncrementalDecoder:
        return decoder(errors="replace")

    return make
