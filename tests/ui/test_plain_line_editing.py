"""The plain mode at a terminal edits the line being typed and keeps this run's history (readline): Left moves
back in the line, Up recalls the last line; an arrow key is never sent as its escape sequence ("^[[A"). Run at a
real terminal (a pseudo-terminal), as a person runs it."""

from __future__ import annotations

import os
import termios
import time

from benchmarks.outage_rig import ROOT, PtyApp

UP, LEFT = "\x1b[A", "\x1b[D"


def reading(terminal: PtyApp, timeout: float = 120.0) -> None:
    """Wait until readline reads the terminal (its line discipline out of canonical mode), as a person sees the
    prompt and the program ready: a key typed before would be taken by the terminal itself, not by readline, however
    busy the machine (the timeout only bounds a failure)."""
    deadline = time.monotonic() + timeout
    while termios.tcgetattr(terminal.master)[3] & termios.ICANON:
        assert time.monotonic() < deadline, terminal.text()
        time.sleep(0.01)  # (the terminal's mode, polled: what the program prints is read by the terminal's thread)


def shows(terminal: PtyApp, text: str, count: int = 1, timeout: float = 120.0) -> None:
    """Wait until `text` is among what the terminal showed `count` times (the timeout only bounds a failure)."""
    assert terminal.wait_for(text, count=count, timeout=timeout) is not None, f"{text!r} never came: {terminal.text()}"


def test_at_a_terminal_a_line_is_edited_with_the_arrows_and_up_recalls_the_last(private_home):
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(private_home), "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    env.pop("TABLE_ASSISTANT_SCREEN_READER", None)
    terminal = PtyApp(["--plain", "--no-camera", "--no-speech"], env)
    tally = "Unicorns: Ana 0, Ben 0"
    try:
        shows(terminal, "> ")
        reading(terminal)
        terminal.type(f"new game Ana Bn{LEFT}e")  # back over the n, an e put before it: Ben
        shows(terminal, "New game: Ana and Ben", timeout=60)
        reading(terminal)
        terminal.type("tally")
        shows(terminal, tally)
        reading(terminal)
        terminal.type(UP)  # the last line again, from the history
        shows(terminal, tally, count=2)
    finally:
        ended = terminal.quit(timeout=60)  # also after a failure: the program ends, and the test with it
        terminal.close()  # (what it printed read to its end)
    printed = terminal.text()
    assert ended is not None and terminal.process.returncode == 0, printed
    assert "^[[" not in printed and "Traceback" not in printed, printed
