"""The plain line mode: one command per line on stdin, the answer's lines on stdout.

No Textual and no screen drawing, so Speakup, BRLTTY and scripts can follow it line by line. The same loop
replays a whole game from a file (`table-assistant --script FILE`), echoing each command before its answer.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TextIO

from assistant.core import words
from assistant.session import Reply, Session

GREETING = "Table assistant, plain mode. Type help for the commands, quit to leave."


def _tolerant(stream: TextIO) -> TextIO:
    """The stream, set to read bytes that are not UTF-8 as U+FFFD rather than end the session (and to write a
    character the terminal cannot take as a replacement)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")
        except (ValueError, OSError):
            pass
    return stream


def run_plain(
    session: Session,
    stdin: Iterable[str] | None = None,
    stdout: TextIO | None = None,
    speak=None,
    *,
    echo: bool = False,
    first: Reply | None = None,
) -> int:
    """Read lines until end of input or `quit`; print (and speak, if `speak` is given) each reply.

    `echo` prints each line read, after "> ", before its answer (for scripts); `first` is a reply to show before
    the first line (a resumed game).
    """
    stdin = _tolerant(sys.stdin) if stdin is None else stdin
    stdout = _tolerant(sys.stdout) if stdout is None else stdout
    print(GREETING, words.deck_chosen(session.cards), sep="\n", file=stdout, flush=True)
    if first is not None:
        _show(first, stdout, speak)
    for raw in stdin:
        # Bytes that were not UTF-8 (surrogate escapes, from a caller's own stream) become U+FFFD, so nothing
        # downstream (the save, the terminal) meets a lone surrogate.
        line = raw.encode("utf-8", "replace").decode("utf-8")
        if line.strip().lower() in ("quit", "exit"):
            break
        if not line.strip():
            continue
        if echo:  # the echo is cleaned (no terminal escapes); the line itself goes to the session as typed
            print(f"> {words.clean_untrusted(line)}", file=stdout)
        _show(session.handle(line), stdout, speak)
    return 0


def _show(reply: Reply, stdout: TextIO, speak) -> None:
    for text in reply.lines:
        print(text, file=stdout)
    stdout.flush()
    if speak is not None:
        speak(reply)
