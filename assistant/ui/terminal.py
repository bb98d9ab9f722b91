"""The terminal's encoding, whatever the locale: input never fails to decode, output never fails to encode.

Python reads stdin strictly in a UTF-8 desktop locale (`LANG=en_US.UTF-8`), so one byte that is not UTF-8 (what a
Latin-1 terminal or an 8-bit console sends for "é") would end the session; and it writes stdout strictly, so under
Latin-1 the first "…" would. `harden_streams` makes stdin keep such bytes as surrogate escapes (the session turns
them into U+FFFD) and makes stdout and stderr write what the terminal cannot show as its nearest ASCII
("…" as "...", "é" as "e", a braille cell as "?"). `lenient_decoder` does the same for the app's key reader.
"""

from __future__ import annotations

import codecs
import contextlib
import locale
import os
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

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


#: The native-output log is started afresh at the next run once it is larger than this (bytes).
NATIVE_LOG_LIMIT = 256_000


@contextlib.contextmanager
def native_output_to_log(log: Path) -> Iterator[None]:
    """While the app runs, what native libraries write on the process's stderr (file descriptor 2) goes to `log`
    (the null device when it cannot be opened), never to the terminal the app draws on: PortAudio's "Expression
    'res' failed in ...pa_linux_alsa.c" when a device fails mid-game, alsa-lib's and JACK's complaints, at any
    moment and from any thread. Python's own `sys.stderr` (the plain mode's notices, Textual's screen, which Textual
    draws on `sys.__stderr__`) is moved to a copy of the terminal's descriptor first, so what the app writes
    itself still reaches the terminal. Everything is put back as it was on leaving."""
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing can reach a terminal
        yield
        return
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        if log.exists() and log.stat().st_size > NATIVE_LOG_LIMIT:
            log.unlink()
        target = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    except OSError:
        target = os.open(os.devnull, os.O_WRONLY)
    before, before_dunder = sys.stderr, sys.__stderr__
    ours: TextIO | None = None
    if _on_descriptor_2(before):
        ours = open(  # closed on leaving
            os.dup(saved), "w", encoding=before.encoding, errors=before.errors, buffering=1, closefd=True
        )
        sys.stderr = ours
        if before_dunder is before or _on_descriptor_2(before_dunder):
            sys.__stderr__ = ours  # type: ignore[misc]  # (Textual draws on it)
    os.dup2(target, 2)
    os.close(target)
    try:
        yield
    finally:
        if ours is not None:
            with contextlib.suppress(Exception):
                ours.flush()
        os.dup2(saved, 2)
        os.close(saved)
        sys.stderr = before
        sys.__stderr__ = before_dunder  # type: ignore[misc]
        if ours is not None:
            with contextlib.suppress(Exception):
                ours.close()


def _on_descriptor_2(stream: Any) -> bool:
    """Whether a text stream writes to file descriptor 2 (not a test's capture, which has no descriptor)."""
    try:
        return bool(stream is not None and stream.fileno() == 2)
    except (AttributeError, OSError, ValueError):
        return False
