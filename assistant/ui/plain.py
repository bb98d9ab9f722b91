"""The plain line mode: one command per line on stdin, the answer's lines on stdout.

No Textual and no screen drawing, so Speakup, BRLTTY and scripts can follow it line by line. The same loop
replays a whole game from a file (`table-assistant --script FILE`), echoing each command before its answer.
`stop`, `repeat` and `history` work as in the app: the session answers them, and this loop stops the speech or
says an answer again.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TextIO

from assistant.core.text import clean_untrusted
from assistant.core.words.cardtext import deck_chosen
from assistant.core.words.screen import PLAIN_GREETING
from assistant.session import Control, Reply, Session

#: Printed before each line is read at a terminal, so a screen reader knows the app waits for a command.
PROMPT = "> "


def run_plain(
    session: Session,
    stdin: Iterable[str] = sys.stdin,
    stdout: TextIO = sys.stdout,
    speak=None,
    *,
    echo: bool = False,
    first: Reply | None = None,
    prompt: str = "",
) -> int:
    """Read lines until end of input or `quit`; print (and speak, if `speak` is given) each reply.

    `echo` prints each line read, after "> ", before its answer (for scripts); `first` is a reply to show before
    the first line (a resumed game); `prompt` is printed before each line is read (at a terminal).
    """
    _show(Reply.of(PLAIN_GREETING, deck_chosen(session.cards)), stdout, speak)
    if first is not None:
        _show(first, stdout, speak)
    lines = iter(stdin)
    while True:
        if prompt:
            print(prompt, end="", file=stdout, flush=True)
        line = next(lines, None)
        if line is None or line.strip().lower() in ("quit", "exit"):
            break
        if not line.strip():
            continue
        if echo:  # the echo is cleaned (no terminal escapes); the line itself goes to the session as typed
            print(f"> {clean_untrusted(line)}", file=stdout)
        _show(session.handle(line), stdout, speak)
    return 0


def _show(reply: Reply, stdout: TextIO, speak) -> None:
    if reply.control is Control.STOP:
        if speak is not None:
            speak.control("stop")
        return
    for text in reply.lines:
        print(text, file=stdout)
    stdout.flush()
    if speak is not None:
        speak(reply)
