"""Phones acting while a deaf-blind player reads only a real BRLTTY display: what reaches the display.

    .venv/bin/python -m benchmarks.braille_phones [--json] [--readers first full] [--typing display keyboard]
        [--stall SECONDS] [--kill SECONDS]

A real BRLTTY draws a 40-cell TTY braille display on a pseudo-terminal (as the tests do); the Textual app runs
headless with `--braille-display --no-speech`, a three-player game started on the display. Three bursts of four
phone moves 0.4 s apart come through the app's own path for a phone (`PhoneMoved`, as the sharing server posts
them), while a first-window reader reads the display: it reads the first window of whatever the display shows,
and while the last status cell counts moves unread it presses the next-unread key (BRLTTY's ATTRDN) for the next;
after the second move of each burst it types its own command (`tally`) on the display and presses Enter. A full
reader (`--readers full`) reads every window: it pans right through the held fact and the whole answer before it
goes on. With `--typing keyboard` the command is typed on the computer's keyboard instead (the app's input line,
which the display follows). Each reader is run with each way of typing.

With `--stall SECONDS` BRLTTY is stopped (SIGSTOP) for that long from the start of the second burst: its four moves
come and she types `tally` while nothing reaches the display; then it resumes (SIGCONT). With `--kill SECONDS` it
is killed (SIGKILL) there instead and started again on the same port that many seconds later (keys typed on a
display whose BRLTTY is dead go nowhere: type on the keyboard to measure the rest).

Figures (goal 0 each): phone moves never readable (no window the reader read was the start of the move's first
line); keys lost (characters typed on the display missing from the lines the session was given); unread text
replaced (a row written whose text differs from the one before, with no key pressed since that one was drawn).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

BURST_GAP = 0.4
NEW_GAME = "new game Ana Ben Cy babies red pink narwhal win 3"


def _bursts():
    from assistant.core.language.device import DeviceMove

    return [
        [("Ana", DeviceMove("draw")), ("Ana", DeviceMove("play", card="rainbow-aura")),
         ("Ben", DeviceMove("neigh", on="rainbow-aura")), ("Cy", DeviceMove("resolve", on="rainbow-aura"))],
        [("Ana", DeviceMove("end")), ("Ben", DeviceMove("draw")), ("Ben", DeviceMove("discard")),
         ("Ben", DeviceMove("end"))],
        [("Cy", DeviceMove("draw")), ("Cy", DeviceMove("discard")), ("Ana", DeviceMove("discard")),
         ("Cy", DeviceMove("end"))],
    ]  # fmt: skip


def measure(full: bool = False, keyboard: bool = False, stall: float = 0.0, kill: float = 0.0) -> dict[str, Any]:
    """The three figures, with the count of moves and keys they are out of, for a first-window reader or a full
    one (`full`), typing on the display or on the computer's keyboard (`keyboard`); `stall`: BRLTTY is stopped
    (SIGSTOP) that many seconds from the start of the second burst, while its moves come and she types; `kill`:
    BRLTTY is killed (SIGKILL) there instead, and started again on the same port that many seconds later."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from braille_display import _start_brltty  # type: ignore[import-not-found]

    from assistant.braille.translate import Translator
    from assistant.cli import build_parser
    from assistant.commands.app import make_app
    from assistant.core.braille import celltable
    from assistant.core.words.entry import move_point

    translator = Translator()
    server = _start_brltty(40)
    app = make_app(build_parser().parse_args(["--no-camera", "--no-speech", "--braille-display"]))
    link = app.braille
    assert link is not None
    status = link.view.status_cells

    def text_of(cells: str) -> str:
        return (translator.from_cells(cells[status:].rstrip(celltable.BLANK)) or "").replace("\u2019", "'")

    given: list[str] = []
    handle = app.session.handle

    def kept(line: str):
        given.append(line)
        return handle(line)

    app.session.handle = kept
    keys = {"pressed": 0, "typed": ""}
    rows = {"last": "", "keys_then": 0, "replaced": 0, "counting": False, "typing": False}
    write = link.display.write

    def recording(cells: str, cursor: int | None = None, frame: int = 0) -> None:
        """A row written: text shown (not the line being typed) replaced with no key pressed since it was drawn?"""
        text = text_of(cells)
        if text != rows["last"]:
            if rows["counting"] and not rows["typing"] and keys["pressed"] == rows["keys_then"]:
                rows["replaced"] += 1
            rows["last"], rows["keys_then"], rows["typing"] = text, keys["pressed"], link.view.typing
        write(cells, cursor, frame)

    link.display.write = recording
    firsts: list[tuple[str, ...]] = []

    reader = _Reader(server, link, text_of, given, keys, full)

    servers = [server]

    async def run() -> None:
        nonlocal server
        async with app.run_test(size=(100, 40)) as pilot:
            reader.pilot = pilot if keyboard else None
            await reader.type_line(NEW_GAME)
            while app.session.game is None or not text_of(server.cells()).startswith("new game:"):
                await pilot.pause(0.02)
            rows["counting"] = True
            done = asyncio.Event()
            reading = asyncio.ensure_future(reader.read(done))
            for index, burst in enumerate(_bursts()):
                stopped = time.monotonic()
                if index == 1 and stall:
                    os.kill(server.process.pid, signal.SIGSTOP)
                if index == 1 and kill:
                    os.kill(server.process.pid, signal.SIGKILL)
                for number, (player, move) in enumerate(burst):
                    outcome = await app.share.link.submit(player, move)
                    reply = outcome.reply
                    first = reply.lines[0] if reply is not None else ""
                    points = move_point(player, reply.facts, reply.tells) if reply is not None else ()
                    firsts.append((first, *(f"{point} {first}" for point in points)))
                    if number == 1:
                        await reader.type_line("tally")  # her own command, typed at once mid-burst
                    await pilot.pause(BURST_GAP)
                if index == 1 and stall:
                    await pilot.pause(max(0.0, stall - (time.monotonic() - stopped)))
                    os.kill(server.process.pid, signal.SIGCONT)
                if index == 1 and kill:
                    await pilot.pause(max(0.0, kill - (time.monotonic() - stopped)))
                    server = reader.server = _restarted(server)
                    servers.append(server)
                await pilot.pause(2.0)
            done.set()
            await reading

    try:
        asyncio.run(run())
    finally:
        for started in servers:
            started.stop()
    report = _report(firsts, reader.windows, given, len(keys["typed"]), rows["replaced"])
    kind = {"reader": "full" if full else "first window", "typing": "keyboard" if keyboard else "display"}
    return {**kind, "stall_s": stall, "kill_s": kill, **report}


def _restarted(server: Any) -> Any:
    """A BRLTTY started again on the port of one killed, with a display of the same width."""
    import tempfile

    from brltty_fixture import Brltty  # type: ignore[import-not-found]

    server.process.wait()
    return Brltty(Path(tempfile.mkdtemp(prefix="braille-bench-")) / "brltty", width=server.width, offset=server.offset)


class _Reader:
    """A reader at the display: reads the first window of each new thing shown (a full reader: every window of the
    held fact and the answer, panning right), its own answer first after a line it sent, and goes on to the next
    unread move (the next-unread key) while the count shows any."""

    def __init__(self, server: Any, link: Any, text_of: Any, given: list[str], keys: dict[str, Any], full: bool):
        self.server, self.link, self.text_of, self.given, self.keys = server, link, text_of, given, keys
        self.full = full
        self.pilot: Any = None
        """Textual's pilot when the reader types on the computer's keyboard; None: on the display."""
        self.windows: list[str] = []
        self.own = 0
        """The count of lines given by which its own line will have arrived (0: no answer of its own awaited)."""

    def press(self, key: str) -> None:
        self.keys["pressed"] += 1
        self.server.press(key)

    async def type_line(self, line: str) -> None:
        self.keys["typed"] += line
        self.own = len(self.given) + 1
        if self.pilot is not None:  # the computer's keyboard: the app's input line, which the display follows
            self.keys["pressed"] += len(line) + 1
            await self.pilot.press(*line, "enter")
            return
        for character in line:
            self.keys["pressed"] += 1
            self.server.type(character)
        self.press("enter")

    def more_to_read(self) -> bool:
        """The full reader has not yet read to the end of the held fact and the answer."""
        from assistant.core.braille.display import Region

        view = self.link.view
        answer = view.regions[Region.ANSWER]
        if view.held:
            return True
        if view.line >= len(answer):
            return False
        return view.line < len(answer) - 1 or view.window < len(view.windows(answer[view.line])) - 1

    async def read(self, done: asyncio.Event) -> None:
        from assistant.core.braille import celltable

        status = self.link.view.status_cells
        seen = ""
        quiet_since = time.monotonic()
        while True:
            cells = self.server.cells()
            text = self.text_of(cells)
            if text and text != seen:
                seen, quiet_since = text, time.monotonic()
                self.windows.append(text)
                if len(self.given) >= self.own and not self.link.view.typing:
                    self.own = 0  # its own answer read
            elif self.full and not self.own and self.more_to_read() and time.monotonic() - quiet_since > 0.1:
                self.press("pan right")  # read on: the next window
                quiet_since = time.monotonic()
            elif not self.own and cells[status - 1] != celltable.BLANK and time.monotonic() - quiet_since > 0.1:
                self.press("next unread")  # read: on to the next move waiting
                quiet_since = time.monotonic()
            elif done.is_set() and time.monotonic() - quiet_since > 2.0:
                return
            await asyncio.sleep(0.02)


def _report(
    firsts: list[tuple[str, ...]], read: list[str], given: list[str], typed: int, replaced: int
) -> dict[str, Any]:
    """The figures: a move is readable when a window read was the start of its first line as the display shows it
    (its point first, `words.entry.move_point`, whichever of its forms fitted); a key is lost when the lines the
    session was given miss it (a line given that was never typed counts as one)."""
    never = [
        forms[0]
        for forms in firsts
        if not any(window and form.lower().startswith(window) for window in read for form in forms)
    ]
    typed_lines = [NEW_GAME, "tally", "tally", "tally"]
    arrived = sum(len(line) for line in given if line in typed_lines)
    return {
        "moves": len(firsts),
        "never_readable": len(never),
        "keys_typed": typed,
        "keys_lost": max(0, typed - arrived) + sum(1 for line in given if line not in typed_lines),
        "unread_replaced": replaced,
        "windows_read": len(read),
        "never": never,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--readers", nargs="+", default=["first", "full"], choices=["first", "full"])
    parser.add_argument("--typing", nargs="+", default=["display", "keyboard"], choices=["display", "keyboard"])
    parser.add_argument("--stall", type=float, default=0.0, help="stop BRLTTY this many seconds mid-game")
    parser.add_argument("--kill", type=float, default=0.0, help="kill BRLTTY mid-game, start it again this later")
    args = parser.parse_args(argv)
    reports = [
        measure(reader == "full", typing == "keyboard", args.stall, args.kill)
        for reader in args.readers
        for typing in args.typing
    ]
    if args.json:
        print(json.dumps(reports, indent=2))
    for report in [] if args.json else reports:
        stalled = f", BRLTTY stopped {report['stall_s']:g} s" if report["stall_s"] else ""
        stalled += f", BRLTTY killed for {report['kill_s']:g} s" if report["kill_s"] else ""
        print(f"{report['reader']} reader, typing on the {report['typing']}{stalled}:")
        print(f"  phone moves never readable  {report['never_readable']} of {report['moves']}  (goal 0)")
        print(f"  keys lost                   {report['keys_lost']} of {report['keys_typed']}  (goal 0)")
        print(f"  unread text replaced        {report['unread_replaced']}  (goal 0)")
        print(f"  windows read                {report['windows_read']}")
    failed = any(r["never_readable"] or r["keys_lost"] or r["unread_replaced"] for r in reports)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
