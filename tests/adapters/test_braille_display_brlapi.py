"""The BrlAPI adapter with a real BRLTTY (its TTY braille driver on a pseudo-terminal): cells written appear on the
display, the display's keys come back as the model's keys, and no server is a clear `DisplayUnavailable`."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import threading
import time
from pathlib import Path

import pytest
from brltty_fixture import BRLTTY, SLOW, Brltty, free_offset

from assistant.core.braille import celltable
from assistant.core.braille.display import Key, Press

brlapi = pytest.importorskip("brlapi")
pytestmark = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")


@pytest.fixture
def brltty(tmp_path, monkeypatch):
    server = Brltty(tmp_path / "brltty", width=40)
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)
    yield server
    server.stop()


class StallWhenStopped:
    """The display's stall timer for a test (in the app, `STALL_AFTER` seconds of the wall clock without an answer):
    it fires once the test's BRLTTY is stopped and the stop has landed (`stop`), never because a busy machine made a
    running BRLTTY slow to answer; the answer cancels it, as it does the app's. Before, a round trip BRLTTY was slow
    to answer (its first one makes a connection) was taken as a stop at load 25 to 35, and the test, which waited
    for the frame told shown, was told the display was away instead."""

    def __init__(self):
        self.stopped = False
        self.changed = threading.Condition()

    def __call__(self, interval, function, args=()):
        """A timer as `threading.Timer(interval, function, args)` makes one (`interval` is the app's, unused)."""
        return _Stall(self, function, args)

    def stop(self, brltty):
        """Stop BRLTTY (SIGSTOP) and wait until every thread of it is stopped; then the round trips waiting stall."""
        os.kill(brltty.process.pid, signal.SIGSTOP)
        tasks = Path(f"/proc/{brltty.process.pid}/task")
        give_up = time.monotonic() + 60.0  # only a failure's bound
        while not all(_state(task) in "Tt" for task in tasks.iterdir()) and time.monotonic() < give_up:
            time.sleep(0.01)  # (the stop landing in every thread, polled)
        with self.changed:
            self.stopped = True
            self.changed.notify_all()

    def resume(self, brltty):
        """Let BRLTTY go on (SIGCONT): round trips from now on are answered, and no timer fires."""
        with self.changed:
            self.stopped = False
        os.kill(brltty.process.pid, signal.SIGCONT)


def _state(task: Path) -> str:
    """A thread's state letter from its `stat` (after the command's parentheses); "T" for one gone meanwhile."""
    try:
        return (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "T"


class _Stall:
    def __init__(self, stall, function, args):
        self.stall, self.function, self.args = stall, function, args
        self.daemon = True
        self.cancelled = False

    def start(self):
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        with self.stall.changed:
            self.stall.changed.wait_for(lambda: self.cancelled or self.stall.stopped)
            if self.cancelled:
                return
        self.function(*self.args)

    def cancel(self):
        with self.stall.changed:
            self.cancelled = True
            self.stall.changed.notify_all()


class _Threading:
    """The display module's `threading`, with the test's stall timer for its `Timer`."""

    def __init__(self, timer):
        self.Timer = timer

    def __getattr__(self, name):
        return getattr(threading, name)


@pytest.fixture
def stall(monkeypatch):
    """The display's stall timer fires when the test's BRLTTY is stopped (`StallWhenStopped`)."""
    from assistant.braille import display

    timer = StallWhenStopped()
    monkeypatch.setattr(display, "threading", _Threading(timer))
    return timer


def test_cells_written_are_shown_and_keys_come_back(brltty):
    from assistant.braille.display import open_display

    display = open_display()
    try:
        assert display.width == 40
        cells = celltable.to_cells("ben wins with 3 unicorns!")
        display.write(cells)
        assert brltty.wait_for(lambda shown: shown.startswith(cells)) == cells.ljust(40, celltable.BLANK)
        keys: queue.Queue[Press] = queue.Queue()
        display.listen(keys.put)
        for key in ("pan left", "pan right", "line up", "line down", "where", "help", "region previous",
                    "region next", "top", "bottom", "enter", "backspace"):  # fmt: skip
            brltty.press(key)
        brltty.type("d ")
        got = [keys.get(timeout=SLOW).key for _ in range(14)]
        assert got == [
            Key.PAN_LEFT, Key.PAN_RIGHT, Key.LINE_UP, Key.LINE_DOWN, Key.WHERE, Key.HELP, Key.REGION_PREVIOUS,
            Key.REGION_NEXT, Key.TOP, Key.BOTTOM, Key.ENTER, Key.BACKSPACE, Key.CHARACTER, Key.CHARACTER,
        ]  # fmt: skip
    finally:
        display.close()


def test_routing_keys_and_dot_keys_decode():
    """A real display's routing keys and dot keys (the TTY driver has neither), as BrlAPI's codes."""
    from assistant.braille.display import press_of

    route = brlapi.KEY_TYPE_CMD | brlapi.KEY_CMD_ROUTE | 7
    assert press_of(route, brlapi) == Press(Key.ROUTE, 7)
    dots = brlapi.KEY_TYPE_CMD | brlapi.KEY_CMD_PASSDOTS | brlapi.DOT1 | brlapi.DOT4 | brlapi.DOT5
    assert press_of(dots, brlapi) == Press(Key.DOTS, 0b11001)
    space = brlapi.KEY_TYPE_CMD | brlapi.KEY_CMD_PASSDOTS | brlapi.DOTC
    assert press_of(space, brlapi) == Press(Key.DOTS, 0)
    assert press_of(brlapi.KEY_TYPE_CMD | brlapi.KEY_CMD_FREEZE, brlapi) is None


def test_no_server_is_said_not_raised(monkeypatch):
    from assistant.braille.display import DisplayUnavailable, open_display

    monkeypatch.setenv("BRLAPI_HOST", f"127.0.0.1:{free_offset()}")
    monkeypatch.setenv("BRLAPI_AUTH", "none")
    with pytest.raises(DisplayUnavailable) as caught:
        open_display()
    assert caught.value.args[0].startswith("127.0.0.1:")


def test_a_stopped_brltty_is_away_until_it_answers_and_frames_are_told_once_shown(brltty, stall):
    """A write to a BRLTTY stopped with SIGSTOP raises nothing: the round trip after it, unanswered, says it is
    away (and nothing is written then); when it resumes it is back, and the frame is told shown. The app can close
    the display while BRLTTY is stopped (leaving its TTY mode would wait for an answer that never comes). The stall
    comes when the stop has landed (`StallWhenStopped`), whatever the load."""
    from assistant.braille.display import open_display

    display = open_display()
    events: queue.Queue[object] = queue.Queue()
    display.listen(lambda press: None, lambda: events.put("lost"), lambda: events.put("back"), on_answered=events.put)
    display.write(celltable.to_cells("ana"), frame=1)
    assert events.get(timeout=SLOW) == 1  # shown: BRLTTY answered after it
    stall.stop(brltty)
    try:
        display.write(celltable.to_cells("ben wins!"), frame=2)
        assert events.get(timeout=SLOW) == "lost" and display.lost
        display.write(celltable.to_cells("tally"), frame=3)  # away: never written
    finally:
        stall.resume(brltty)
    assert events.get(timeout=SLOW) == "back" and not display.lost
    assert events.get(timeout=SLOW) == 2  # the frame written before the stop, shown once it resumed
    stall.stop(brltty)
    try:
        display.write(celltable.to_cells("cy"), frame=4)
        assert events.get(timeout=SLOW) == "lost"
        closing = threading.Thread(target=display.close, daemon=True)
        closing.start()
        closing.join(timeout=SLOW)
        assert not closing.is_alive()  # closed, never hung on a stopped BRLTTY
    finally:
        stall.resume(brltty)


def test_a_display_away_is_looked_for_every_tenth_of_a_second():
    """Keys typed on a BRLTTY that is back are BRLTTY's own until the app takes its display again: it is looked for
    often (every wait between two looks is recorded; none is taken)."""

    from assistant.braille.display import BrailleDisplay, DisplayUnavailable

    waits: list[float | None] = []

    class Recorded(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waits.append(timeout)
            if len(waits) >= 3:
                self.set()
            return self.is_set()

    def not_there() -> object:
        raise DisplayUnavailable("localhost:0")

    display = BrailleDisplay(None, brlapi, reopen=not_there)
    display._stopped = Recorded()
    display.listen(lambda press: None)
    assert display._thread is not None
    display._thread.join(timeout=SLOW)
    assert waits and max(wait or 0.0 for wait in waits) <= 0.1


@contextlib.contextmanager
def stopped(brltty, stall, display, events):
    """BRLTTY stopped (SIGSTOP) for the block, once a write it cannot answer has made the display take it as away
    ("lost" among `events`); resumed (SIGCONT) after it."""
    stall.stop(brltty)
    try:
        display.write(celltable.to_cells("ana"), frame=1)
        assert events.get(timeout=SLOW) == "lost"
        yield
    finally:
        stall.resume(brltty)


def test_keys_typed_on_a_stopped_brltty_and_at_once_when_it_resumes_are_all_the_apps(brltty, stall):
    """BRLTTY stopped (SIGSTOP) and taken as away: keys typed on the display meanwhile wait in the line, and those
    typed the moment it resumes follow them: BRLTTY hands every one to the app (its connection, in TTY mode, was
    never given up), in order; and the display is not said to have lost keys (it was not started anew)."""
    from assistant.braille.display import open_display

    display = open_display()
    keys: queue.Queue[Press] = queue.Queue()
    events: queue.Queue[object] = queue.Queue()
    try:
        display.listen(keys.put, lambda: events.put("lost"), lambda: events.put("back"), on_answered=lambda _: None)
        with stopped(brltty, stall, display, events):
            brltty.type("stopped")
        brltty.type("resumed")  # at once
        got = "".join(str(keys.get(timeout=SLOW).value) for _ in range(len("stoppedresumed")))
        assert got == "stoppedresumed"
        assert events.get(timeout=SLOW) == "back" and not display.taken_back_anew()
    finally:
        display.close()


def test_keys_that_move_the_display_pressed_while_brltty_is_stopped_are_not_passed_on(brltty, stall):
    """A pan and the next-unread key pressed on a stopped BRLTTY reach the app when it resumes, before she could feel
    what it shows then (the notice that it is back): they are not passed on; a key typed with them is. Once
    `KEPT_KEYS_PAUSE` has passed (a clock of the test's), a pan is passed on again."""
    from assistant.braille.display import KEPT_KEYS_PAUSE, open_display

    display = open_display()
    now = [100.0]
    display.clock = lambda: now[0]
    keys: queue.Queue[Press] = queue.Queue()
    events: queue.Queue[object] = queue.Queue()
    try:
        display.listen(keys.put, lambda: events.put("lost"), lambda: events.put("back"), on_answered=lambda _: None)
        with stopped(brltty, stall, display, events):
            brltty.press("pan right")
            brltty.press("next unread")
            brltty.type("x")
        assert events.get(timeout=SLOW) == "back"
        assert keys.get(timeout=SLOW) == Press(Key.CHARACTER, "x")  # BRLTTY hands keys on in order: the two went first
        now[0] += KEPT_KEYS_PAUSE
        brltty.press("pan left")
        assert keys.get(timeout=SLOW) == Press(Key.PAN_LEFT)
    finally:
        display.close()
