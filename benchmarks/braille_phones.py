"""Phones acting while a deaf-blind player reads only a real BRLTTY display: what reaches the display.

    .venv/bin/python -m benchmarks.braille_phones [--json] [--widths 40 14] [--readers first full]
        [--typing display keyboard] [--stall SECONDS] [--kill SECONDS] [--away-at BURST] [--digest]
        [--read-s SECONDS]

A real BRLTTY draws a TTY braille display of 40 or 14 cells on a pseudo-terminal (as the tests do); the Textual app
runs headless with `--braille-display --no-speech`. She (Dee, the host) starts a four-player game on the display
(`win 3`); the other three play from phones. Four bursts of phone moves 0.4 s apart come through the app's own path
for a phone (`PhoneMoved`, as the sharing server posts them): a draw, a play, a Neigh, a resolve; a turn ended, a
draw, a discard, a turn ended; a draw, two discards, a turn ended (her turn: she types `draw` and `end turn`, each
once the answer to the one before is read); then Ana draws, plays Ginormous Unicorn and, resolved by Cy's phone,
wins. After the second move of each burst she types `tally` and Enter, and once more after the win. A first-window
reader reads the first window of whatever the display shows, its own answer first after a line it sent, and while
the last status cell counts moves unread it presses the next-unread key (BRLTTY's ATTRDN) for the next. A full
reader (`--readers full`) reads every window: it pans right through the held fact and the whole answer before it
goes on. With `--typing keyboard` her lines are typed on the computer's keyboard instead (the app's input line,
which the display follows). Each reader is run with each way of typing, at each width.

A reader takes `--read-s` seconds (0.1 by default) to read a window before she goes on. With `--digest` she asks
what other hands did (F8) the moment her turn comes (the third burst's last move), while moves of the burst may
still wait unread, and reads each part's first window, F8 again until the digest is all said (at 14 cells and a
second a window: 5 of 15 moves never readable and 1 of 3 turns' ends with the new turn first before a small
display kept the moves F8 told waiting; docs/braille.md). At 40 cells the moves a whole digest told no longer wait,
by design (its first window holds its newest decisive fact, the rest is read by panning): a first-window reader
there misses them, and the run says so.

With `--stall SECONDS` BRLTTY is stopped (SIGSTOP) for that long from the start of burst `--away-at` (counted from 0:
1, the second, by default; 3, the burst with the win): its moves come and she types `tally` while nothing reaches
the display; then it resumes (SIGCONT). With `--kill SECONDS` it is killed (SIGKILL) there instead and started
again on the same port that many seconds later.

Figures (goal 0 each, but the win: read in every run, and the turns' ends: all): phone moves never readable (no
window the reader read was the start of the move's first line); win readable (a window read began with the win);
phone turns' ends with the new turn first (a window read began with the move's point: who and the new turn, or the
new turn alone); her own answers not first (a line of hers answered while the display was there whose next frame's
first window was not the start of its answer or of its decisive fact); keys lost (characters typed that a BRLTTY or
the keyboard received, missing from the lines the session was given); unread text replaced (a row written whose
text differs from the one before, with no key pressed since that one was drawn). Keys typed on the display while no
BRLTTY ran are counted apart ("typed with no BRLTTY"): a display's keys reach a program only through the BRLTTY
that reads it (docs/braille.md, "Keys typed while BRLTTY goes and comes back"). BRLTTY started again is started on
a new line, as a real display's line holds nothing while no driver has it open.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks import logs

BURST_GAP = 0.4
#: The smoke run's gaps (between moves, after a burst, in her turn) against the whole run's: most of a game's time.
SMOKE_PACE = 0.25
NEW_GAME = "new game Ana Ben Cy Dee babies red pink narwhal yellow win 3"
#: Her own turn, after the third burst (Cy's turn ends: Dee's turn).
HER_TURN = ("draw", "end turn")
#: How the phone's winning move begins on the display (its point first).
WIN = "ana wins!"
#: How long a reader waits to feel the display change after a key before she goes on (types, or presses again).
FELT_WITHIN = 1.0
#: At most this many F8s in a row, each the next part of the digest (`--digest`).
F8_PARTS = 4
#: The seconds a reader takes to read a window before she goes on (`--read-s`).
READ_S = 0.1
#: A bound on waits for the app that only a hang reaches (never a measure).
HANG = 30.0


def _bursts():
    from assistant.core.language.device import DeviceMove

    return [
        [("Ana", DeviceMove("draw")), ("Ana", DeviceMove("play", card="rainbow-aura")),
         ("Ben", DeviceMove("neigh", on="rainbow-aura")), ("Cy", DeviceMove("resolve", on="rainbow-aura"))],
        [("Ana", DeviceMove("end")), ("Ben", DeviceMove("draw")), ("Ben", DeviceMove("discard")),
         ("Ben", DeviceMove("end"))],
        [("Cy", DeviceMove("draw")), ("Cy", DeviceMove("discard")), ("Ana", DeviceMove("discard")),
         ("Cy", DeviceMove("end"))],
        [("Ana", DeviceMove("draw")), ("Ana", DeviceMove("play", card="ginormous-unicorn")),
         ("Cy", DeviceMove("resolve", on="ginormous-unicorn"))],
    ]  # fmt: skip


def measure(
    full: bool = False,
    keyboard: bool = False,
    stall: float = 0.0,
    kill: float = 0.0,
    width: int = 40,
    away_at: int = 1,
    pace: float = 1.0,
    digest: bool = False,
    read_s: float = READ_S,
) -> dict[str, Any]:
    """The figures, with the count of moves and keys they are out of, for a first-window reader or a full one
    (`full`), typing on the display or on the computer's keyboard (`keyboard`), on a display `width` cells wide;
    `stall`: BRLTTY is stopped (SIGSTOP) that many seconds from the start of burst `away_at`, while its moves come
    and she types; `kill`: BRLTTY is killed (SIGKILL) there instead, and started again on the same port that many
    seconds later; `pace`: the gaps between moves, after a burst and in her turn times this (the smoke run's
    `SMOKE_PACE`); `digest`: F8 the moment her turn comes; `read_s`: the seconds she takes to read a window."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from braille_display import _start_brltty  # type: ignore[import-not-found]

    from assistant.braille.translate import Translator
    from assistant.cli import build_parser
    from assistant.commands.app import make_app
    from assistant.core.braille import celltable
    from assistant.core.game.about import Topic
    from assistant.core.words.pace import move_point

    translator = Translator()
    server = _start_brltty(width)
    app = make_app(build_parser().parse_args(["--no-camera", "--no-speech", "--braille-display"]))
    link = app.braille
    assert link is not None
    status = link.view.status_cells

    def text_of(cells: str) -> str:
        return (translator.from_cells(cells[status:].rstrip(celltable.BLANK)) or "").replace("\u2019", "'")

    given: list[str] = []
    keys = {"pressed": 0}
    recorder = _Recorder(link, text_of, given, keys)
    recorder.wire(app)
    firsts: list[tuple[str, ...]] = []
    turn_points: list[tuple[str, ...]] = []
    """The points of each phone move that began a turn (who and the new turn, the new turn alone)."""
    f8s = 0
    reader = _Reader(server, link, text_of, given, keys, full)
    reader.read_s = read_s
    reader.recorder = recorder
    crashes: list[str] = []
    servers = [server]

    async def until(pilot: Any, condition: Any) -> None:
        deadline = time.monotonic() + HANG
        while not condition() and time.monotonic() < deadline:
            await pilot.pause(0.02)

    async def run() -> None:
        nonlocal server, f8s
        async with app.run_test(size=(100, 40)) as pilot:
            reader.pilot = pilot if keyboard else None
            await reader.type_line(NEW_GAME)
            await until(pilot, lambda: app.session.game is not None and text_of(server.cells()).startswith("new"))
            recorder.counting = True
            done = asyncio.Event()
            reading = asyncio.ensure_future(reader.read(done))
            bursts = _bursts()
            for index, burst in enumerate(bursts):
                stopped = time.monotonic()
                if index == away_at and stall:
                    os.kill(server.process.pid, signal.SIGSTOP)
                    reader.away = True
                if index == away_at and kill:
                    os.kill(server.process.pid, signal.SIGKILL)
                    reader.dead = reader.away = True
                for number, (player, move) in enumerate(burst):
                    outcome = await app.share.link.submit(player, move)
                    reply = outcome.reply
                    first = reply.lines[0] if reply is not None else ""
                    points = move_point(player, reply.facts, reply.tells) if reply is not None else ()
                    firsts.append((first, *(f"{point} {first}" for point in points)))
                    if reply is not None and any(fact.topic is Topic.TURN for fact in reply.facts):
                        turn_points.append(points)
                    if number == 1:
                        await reader.type_line("tally")  # her own command, typed at once mid-burst
                    await pilot.pause(BURST_GAP * pace)
                for _part in range(F8_PARTS if index == 2 and digest else 0):  # her turn has come: what did
                    reader.own = len(given) + 1  # the others do? (each part, F8 again until it is all said)
                    keys["pressed"] += 1
                    await pilot.press("f8")
                    await until(pilot, lambda: not reader.own)
                    f8s += 1
                    if not app.session.news:
                        break
                if index == len(bursts) - 1:
                    await reader.type_line("tally")  # after the win, as she would
                if index == away_at and stall:
                    await pilot.pause(max(0.0, stall - (time.monotonic() - stopped)))
                    os.kill(server.process.pid, signal.SIGCONT)
                    reader.away = False
                if index == away_at and kill:
                    await pilot.pause(max(0.0, kill - (time.monotonic() - stopped)))
                    server = reader.server = await asyncio.to_thread(_restarted, server, crashes)
                    reader.dead = reader.away = False
                    servers.append(server)
                await pilot.pause(2.0 * pace)
                if index == 2:  # her turn: each line once the answer to the one before is there
                    for line in HER_TURN:
                        await reader.type_line(line)
                        await until(pilot, lambda: len(given) >= reader.own and not link.view.input.typing)
                        await pilot.pause(1.0 * pace)
            done.set()
            await reading

    try:
        asyncio.run(run())
    finally:
        for started in servers:
            started.stop()
    for _ in range(f8s):  # (F8: no line she typed)
        given.remove("missed")
    report = _report(firsts, reader.windows, given, reader.lines, len(recorder.replaced))
    report["turn_ends"] = len(turn_points)
    report["turn_ends_new_turn_first"] = sum(
        1 for points in turn_points if any(w.lower().startswith(p.lower()) for w in reader.windows for p in points)
    )
    kind = {"reader": "full" if full else "first window", "typing": "keyboard" if keyboard else "display"}
    setup = {"width": width, "stall_s": stall, "kill_s": kill, "away_at": away_at, "digest": digest, "read_s": read_s}
    return {**kind, **setup, **report, **recorder.figures(), "brltty_ended_at_start": crashes}


class _Recorder:
    """What the app does, recorded: the lines the session is given (hers), each row written to the display, and
    for each line of hers answered while the display was there, whether the next row written begins its answer."""

    def __init__(self, link: Any, text_of: Any, given: list[str], keys: dict[str, int]):
        self.link, self.text_of, self.given, self.keys = link, text_of, given, keys
        self.counting = False
        """Rows replaced are counted (from the game's start on)."""
        self.replaced: list[str] = []
        """The text of each row replaced unread: written over with no key pressed since it was drawn."""
        self.last, self.keys_then, self.typing = "", 0, False
        self.pending: Any = None
        """Her answered line's reply, until the next row is written."""
        self.first = 0
        self.not_first: list[str] = []
        self.away = 0
        self.returning = False
        """The display is being drawn anew as BRLTTY answers again (`DisplayLink.back`, and the notice it returns):
        by design its newest decisive fact first, over a row written to a stopped BRLTTY or shown before it was
        killed (not counted)."""
        self.notice: Any = None
        self.typed_away = 0
        """Lines she typed while BRLTTY was stopped or gone that will still reach the session (the reader counts
        them; each, given in order, is answered with the display away or just back)."""

    def wire(self, app: Any) -> None:
        handle, write, back, show = app.session.handle, self.link.display.write, self.link.back, self.link.render

        def kept(line: str) -> Any:
            self.given.append(line)
            reply = handle(line)
            shown = reply is not None and reply.lines and not reply.hint
            typed_away, self.typed_away = self.typed_away > 0, max(0, self.typed_away - 1)
            if shown and self.link.missed is None and not self.link.display.lost and not typed_away:
                self.pending = reply
            elif shown:  # typed or answered while nothing reached the display: its return shows the newest
                self.away += 1  # decisive fact first (a line typed on a stopped BRLTTY arrives when it resumes)
            return reply

        def recording(cells: str, cursor: int | None = None, frame: int = 0) -> None:
            self.row(self.text_of(cells))
            write(cells, cursor, frame)

        def returning() -> Any:
            self.returning = True
            try:
                self.notice = back()
                return self.notice
            finally:
                self.returning = False

        def showing(reply: Any) -> None:
            self.returning = reply is self.notice  # the notice that it is back: part of its return
            try:
                show(reply)
            finally:
                self.returning = False

        app.session.handle, self.link.display.write = kept, recording
        self.link.back, self.link.render = returning, showing

    def row(self, text: str) -> None:
        """A row written: the first after a line of hers was answered, does it begin her answer? Text shown (not
        the line being typed) replaced with no key pressed since it was drawn (and not by the line she types)?"""
        from assistant.core.words.audience import Audience
        from assistant.core.words.worded import words_for

        reply, self.pending = self.pending, None
        if reply is not None:
            starts = [reply.lines[0], *(words_for(fact, Audience.BRIEF) for fact in reply.facts)]
            if text and any(start.lower().startswith(text.lower()) for start in starts):
                self.first += 1
            else:
                self.not_first.append(text)
        if text != self.last:
            unread = self.keys["pressed"] == self.keys_then and not self.typing and not self.link.view.input.typing
            if self.counting and unread and not self.returning:
                self.replaced.append(f"{self.last} -> {text}")
            self.last, self.keys_then, self.typing = text, self.keys["pressed"], self.link.view.input.typing

    def figures(self) -> dict[str, Any]:
        return {
            "own_answers": self.first + len(self.not_first),
            "own_not_first": len(self.not_first),
            "own_answered_away": self.away,
            "own_not_first_shown": self.not_first,
            "replaced_texts": self.replaced,
        }


def _restarted(server: Any, crashes: list[str]) -> Any:
    """A BRLTTY started again on the port of one killed, with a display of the same width (a new line: a line no
    driver holds open keeps none of the keys typed on it). One that ends while it starts (BRLTTY 6.5 has been seen
    to, "malloc(): invalid size") is started again, at most twice, its end kept in `crashes`."""
    import tempfile

    from brltty_fixture import Brltty  # type: ignore[import-not-found]

    server.process.wait()
    for attempt in range(3):
        folder = Path(tempfile.mkdtemp(prefix="braille-bench-")) / "brltty"
        try:
            return Brltty(folder, width=server.width, offset=server.offset)
        except RuntimeError as exc:
            if attempt == 2:
                raise
            crashes.append(str(exc))
    raise AssertionError("unreachable")


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
        self.dead = False
        """BRLTTY has been killed and not started again: keys typed on the display reach no program."""
        self.away = False
        """BRLTTY has been stopped or killed and not resumed or started again."""
        self.recorder: Any = None
        self.lines: list[tuple[str, bool]] = []
        """Every line typed, and whether a program could receive it (False: typed on a display with no BRLTTY)."""
        self.pressed_at: float | None = None
        """When it pressed a key whose effect it has not felt yet (None: it has felt the display change since)."""
        self.read_s = READ_S
        """The seconds it takes to read a window before it goes on."""

    def press(self, key: str) -> None:
        self.keys["pressed"] += 1
        self.pressed_at = time.monotonic()
        self.server.press(key)

    async def type_line(self, line: str) -> None:
        """Type a line: she reads and types with the same hands, so a key she pressed is felt first (the display
        changes), or given up after the second she waits for it (a display that does not move: BRLTTY stopped or
        gone); she never types over a window she has not felt yet."""
        while self.pressed_at is not None and time.monotonic() - self.pressed_at < FELT_WITHIN:
            await asyncio.sleep(0.02)
        reachable = self.pilot is not None or not self.dead
        self.lines.append((line, reachable))
        if self.away and reachable and self.recorder is not None:
            self.recorder.typed_away += 1
        self.own = len(self.given) + 1
        if self.pilot is not None:  # the computer's keyboard: the app's input line, which the display follows
            self.keys["pressed"] += len(line) + 1
            await self.pilot.press(*line, "enter")
            return
        for character in line:
            self.keys["pressed"] += 1
            self.server.type(character)
        self.press("enter")
        if self.dead:
            self.own = 0  # no answer can come: nothing received it

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
        unfelt = 0
        """Keys pressed since the display last changed: a reader waits to feel the pins move (up to a second),
        presses once more, and then waits for the display to change (it is stuck: BRLTTY stopped or gone)."""
        while True:
            cells = self.server.cells()
            text = self.text_of(cells)
            now = time.monotonic()
            ready = now - quiet_since > (self.read_s if not unfelt else FELT_WITHIN) and unfelt < 2
            if text and text != seen:
                seen, quiet_since, unfelt = text, now, 0
                self.pressed_at = None
                self.windows.append(text)
                if len(self.given) >= self.own and not self.link.view.input.typing:
                    self.own = 0  # its own answer read
            elif self.full and not self.own and self.more_to_read() and ready:
                self.press("pan right")  # read on: the next window
                quiet_since, unfelt = now, unfelt + 1
            elif not self.own and cells[status - 1] != celltable.BLANK and ready:
                self.press("next unread")  # read: on to the next move waiting
                quiet_since, unfelt = now, unfelt + 1
            elif done.is_set() and now - quiet_since > 2.0:
                return
            await asyncio.sleep(0.02)


def _report(
    firsts: list[tuple[str, ...]], read: list[str], given: list[str], lines: list[tuple[str, bool]], replaced: int
) -> dict[str, Any]:
    """The figures: a move is readable when a window read was the start of its first line as the display shows it
    (its point first, `words.pace.move_point`, whichever of its forms fitted); a key is lost when the lines the
    session was given miss it (a line given that was never typed counts as one); keys typed on a display with no
    BRLTTY that never arrived are counted apart."""
    never = [
        forms[0]
        for forms in firsts
        if not any(window and form.lower().startswith(window.lower()) for window in read for form in forms)
    ]
    waiting = list(given)
    lost = unreachable = 0
    for line, reachable in sorted(lines, key=lambda typed: not typed[1]):  # (those a program could receive first)
        if line in waiting:
            waiting.remove(line)
        elif reachable:
            lost += len(line)
        else:
            unreachable += len(line)
    return {
        "moves": len(firsts),
        "never_readable": len(never),
        "win_readable": any(window.lower().startswith(WIN) for window in read),
        "keys_typed": sum(len(line) for line, _reachable in lines),
        "keys_lost": lost + len(waiting),
        "keys_typed_with_no_brltty": unreachable,
        "unread_replaced": replaced,
        "windows_read": len(read),
        "never": never,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--widths", nargs="+", type=int, default=[40, 14])
    parser.add_argument("--readers", nargs="+", default=["first", "full"], choices=["first", "full"])
    parser.add_argument("--typing", nargs="+", default=["display", "keyboard"], choices=["display", "keyboard"])
    parser.add_argument("--stall", type=float, default=0.0, help="stop BRLTTY this many seconds mid-game")
    parser.add_argument("--kill", type=float, default=0.0, help="kill BRLTTY mid-game, start it again this later")
    parser.add_argument("--away-at", type=int, default=1, choices=range(4), help="the burst it goes at (3: the win)")
    parser.add_argument("--digest", action="store_true", help="F8 the moment her turn comes (moves may still wait)")
    parser.add_argument("--read-s", type=float, default=READ_S, help="the seconds she takes to read a window")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: one game at 40 cells, the first-window reader typing on the display, "
        "its moves four times as close; exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    pace = 1.0
    if args.smoke:
        args.widths, args.readers, args.typing, pace = [40], ["first"], ["display"], SMOKE_PACE
    reports = [
        measure(
            reader == "full",
            typing == "keyboard",
            args.stall,
            args.kill,
            width,
            args.away_at,
            pace,
            args.digest,
            args.read_s,
        )
        for width in args.widths
        for reader in args.readers
        for typing in args.typing
    ]
    if args.json:
        print(logs.dumps(reports, indent=2))
    for report in [] if args.json else reports:
        away = f", BRLTTY stopped {report['stall_s']:g} s" if report["stall_s"] else ""
        away += f", BRLTTY killed for {report['kill_s']:g} s" if report["kill_s"] else ""
        away += f" from burst {report['away_at']}" if away else ""
        away += ", F8 as her turn comes" if report["digest"] else ""
        away += f", {report['read_s']:g} s a window" if report["read_s"] != READ_S else ""
        print(f"{report['width']} cells, {report['reader']} reader, typing on the {report['typing']}{away}:")
        print(f"  phone moves never readable  {report['never_readable']} of {report['moves']}  (goal 0)")
        print(f"  win readable                {'yes' if report['win_readable'] else 'NO'}  (goal yes)")
        print(
            f"  turn ends, new turn first   {report['turn_ends_new_turn_first']} of {report['turn_ends']}  (goal all)"
        )
        print(f"  own answers not first       {report['own_not_first']} of {report['own_answers']}  (goal 0)")
        print(f"  keys lost                   {report['keys_lost']} of {report['keys_typed']}  (goal 0)")
        print(f"  keys typed with no BRLTTY   {report['keys_typed_with_no_brltty']}")
        print(f"  unread text replaced        {report['unread_replaced']}  (goal 0)")
        print(f"  windows read                {report['windows_read']}")
    failed = any(
        r["never_readable"]
        or r["keys_lost"]
        or r["unread_replaced"]
        or r["own_not_first"]
        or not r["win_readable"]
        or r["turn_ends_new_turn_first"] < r["turn_ends"]
        for r in reports
    )
    return 1 if failed and not args.smoke else 0


if __name__ == "__main__":
    raise SystemExit(main())
