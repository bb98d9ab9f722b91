"""The plain line mode: one command per line on stdin, the answer's lines on stdout.

No Textual and no screen drawing, so Speakup, BRLTTY and scripts can follow it line by line.
"""

from __future__ import annotations

import sys
from typing import TextIO

from assistant.session import Session


def run_plain(session: Session, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, speak=None) -> int:
    """Read lines until end of input or `quit`; print (and speak, if `speak` is given) each reply."""
    print("Table assistant, plain mode. Type help for the commands, quit to leave.", file=stdout, flush=True)
    for line in stdin:
        if line.strip().lower() in ("quit", "exit"):
            break
        if not line.strip():
            continue
        reply = session.handle(line)
        for text in reply.lines:
            print(text, file=stdout)
        stdout.flush()
        if speak is not None:
            speak(reply)
    return 0
