"""The plain mode at a terminal edits the line being typed and keeps this run's history (readline): Left moves
back in the line, Up recalls the last line; an arrow key is never sent as its escape sequence ("^[[A"). Run at a
real terminal (a pseudo-terminal), as a person runs it."""

from __future__ import annotations

import os
import select
import termios
import time

from tests.ui.test_plain_screen_reader import ROOT, Terminal

UP, LEFT = "\x1b[A", "\x1b[D"


def reading(terminal: Terminal, timeout: float = 120.0) -> None:
    """Wait until readline reads the terminal (its line discipline out of canonical mode), as a person sees the
    prompt and the program ready: a key typed before would be taken by the terminal itself, not by readline, however
    busy the machine (the timeout only bounds a failure)."""
    deadline = time.monotonic() + timeout
    while termios.tcgetattr(terminal.master)[3] & termios.ICANON:
        assert time.monotonic() < deadline, terminal.output.decode(errors="replace")
        if select.select([terminal.master], [], [], 0.01)[0]:
            terminal.output += os.read(terminal.master, 65536)


def test_at_a_terminal_a_line_is_edited_with_the_arrows_and_up_recalls_the_last(private_home):
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(private_home), "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    env.pop("TABLE_ASSISTANT_SCREEN_READER", None)
    terminal = Terminal(["--plain", "--no-camera", "--no-speech"], env)
    tally = "Unicorns: Ana 0, Ben 0"
    try:
        terminal.read_until("> ")
        reading(terminal)
        terminal.type(f"new game Ana Bn{LEFT}e")  # back over the n, an e put before it: Ben
        terminal.read_until("New game: Ana and Ben", timeout=60)
        reading(terminal)
        terminal.type("tally")
        terminal.read_until(tally)
        reading(terminal)
        terminal.type(UP)  # the last line again, from the history
        terminal.read_until(tally, count=2)
    finally:
        terminal.type("quit")  # also after a failure: the program ends, and the test with it
        status = terminal.close()
    printed = terminal.output.decode(errors="replace")
    assert status == 0, printed
    assert "^[[" not in printed and "Traceback" not in printed, printed
