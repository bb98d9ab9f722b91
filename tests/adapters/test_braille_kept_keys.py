"""The keys a stopped BRLTTY kept, handed on when it resumes, one after another 20 to 90 ms apart (a 17-key line took
about a second): none of them acknowledges a fact held on the display, however long they take, until a pause in
them (`KEPT_KEYS_PAUSE`). A fixed half second from its return was too short: the line's Enter came after it and
marked the held win as read before she had seen it (5 of 5 with a 17-key line).

BRLTTY cannot be made to hand its kept keys on at a chosen pace, so a connection behind BrlAPI's own interface stands
for it here (the real key codes, read by the adapter's own thread); the display's clock is the test's, moved on by
each key handed on."""

from __future__ import annotations

import threading
import time

import pytest

from assistant.braille.display import KEPT_KEYS_PAUSE, BrailleDisplay
from assistant.core.braille.display import Key

brlapi = pytest.importorskip("brlapi")

#: Seconds between two kept keys: BRLTTY's pace when it resumes.
KEY_GAP = 0.06


class ResumedBrltty:
    """A BrlAPI connection of a BRLTTY that has just resumed: it hands on the keys it kept, each `KEY_GAP` of the
    test's clock after the one before, then has none."""

    displaySize = (40, 1)

    def __init__(self, line: str, now: list[float]) -> None:
        self.codes = [brlapi.KEY_TYPE_SYM | ord(ch) for ch in line] + [brlapi.KEY_TYPE_SYM | brlapi.KEY_SYM_LINEFEED]
        self.now = now

    def readKeyWithTimeout(self, milliseconds: int) -> int | None:
        if self.codes:
            self.now[0] += KEY_GAP
            return self.codes.pop(0)
        time.sleep(milliseconds / 1000)  # (no key: BrlAPI waits that long)
        return None

    def writeText(self, *args: object, **kwargs: object) -> None:
        pass

    def leaveTtyMode(self) -> None:
        pass

    def closeConnection(self) -> None:
        pass


def test_the_keys_a_stopped_brltty_kept_acknowledge_nothing_until_a_pause_in_them():
    now = [1000.0]
    line = "tally tally tally"  # 17 keys, then Enter: about a second at BRLTTY's pace
    resumed = ResumedBrltty(line, now)
    display = BrailleDisplay(None, brlapi, reopen=lambda: resumed)  # away: taken back when it answers
    display.clock = lambda: now[0]
    pressed: list[tuple[Key, bool]] = []
    done = threading.Event()

    def on_press(press) -> None:
        pressed.append((press.key, display.settling()))  # as `DisplayLink.press` asks, with each key
        if press.key is Key.ENTER:
            done.set()

    display.listen(on_press, every=0.01)
    try:
        assert done.wait(300), pressed  # (a bound for a failure only)
        assert len(pressed) == len(line) + 1
        assert [settling for _, settling in pressed] == [True] * len(pressed), pressed  # the Enter too
        assert display.settling()  # no pause yet
        now[0] += KEPT_KEYS_PAUSE  # she reads the window: a pause in the keys
        assert not display.settling()
        now[0] -= KEPT_KEYS_PAUSE  # (over until the next outage: her own keys from here on, however fast)
        assert not display.settling()
    finally:
        display.close()
