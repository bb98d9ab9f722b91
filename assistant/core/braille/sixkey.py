"""Six-key braille entry on a computer keyboard, as a pure state machine fed key names and times.

F D S J K L are dots 1 to 6 (A and ; add dots 7 and 8). Terminals report key presses but never releases, so a
true "all keys up" chord cannot be seen. Two modes make up for it:

- **chord**: keys pressed within a short window (`window` seconds after the first) make one cell; the cell is
  finished when the window has passed (the caller calls `tick` at `deadline`), when a key already in the chord
  comes again, or when Space, Backspace or Enter arrives;
- **dots then Space**: dot keys gather one cell, Space finishes it (good one-handed); Space with no dots is a space.

Backspace drops the dots being gathered, or else the last cell. Every change returns a `KeyOutcome` with the
text entered so far and what to echo aloud, as typed values (`Echo`): the words for them are
`assistant.core.words.entry.sixkey_echo`, so braille needs no words module.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from assistant.core.braille import celltable

#: Key name (as Textual and most toolkits name them) → braille dot.
DOT_KEYS = {"f": 1, "d": 2, "s": 3, "j": 4, "k": 5, "l": 6, "a": 7, "semicolon": 8, ";": 8}
#: The default chord window in seconds: long enough for a typist's "together", short enough not to merge cells.
DEFAULT_WINDOW = 0.15


class EntryMode(enum.Enum):
    """How dots are gathered into a cell."""

    CHORD = "chord"
    DOTS_THEN_SPACE = "space"


class Heard(enum.Enum):
    """What a key did that is echoed aloud."""

    CELL = "cell"
    """A cell was finished (`Echo.cell`)."""
    DELETED = "deleted"
    """Backspace removed a cell (`Echo.cell`)."""
    SPACE = "space"
    DOTS_CLEARED = "dots cleared"
    """Backspace dropped the dots being gathered."""
    NOTHING_TO_DELETE = "nothing to delete"


@dataclass(frozen=True)
class Echo:
    """One thing to echo: what happened, and the cell it happened to ("" for none)."""

    heard: Heard
    cell: str = ""


@dataclass(frozen=True)
class KeyOutcome:
    """What one key (or the passing of time) did."""

    text: str
    """Everything entered so far: cells, and spaces between words."""
    echo: tuple[Echo, ...] = ()
    """What to say now, in order; empty when there is nothing to say."""
    handled: bool = True
    """False when the key is not one of ours, so the caller can give it to the ordinary input."""


class SixKeyEntry:
    """The cells typed so far and the dots being gathered into the next one."""

    def __init__(self, mode: EntryMode = EntryMode.CHORD, window: float = DEFAULT_WINDOW):
        if window <= 0:
            raise ValueError(f"the chord window must be positive, not {window}")
        self.mode = mode
        self.window = window
        self.cells: list[str] = []
        self.pending: set[int] = set()
        self.started: float | None = None
        """When the first key of the pending chord came."""

    @property
    def text(self) -> str:
        """The cells entered so far, with ordinary spaces between words."""
        return "".join(self.cells)

    @property
    def deadline(self) -> float | None:
        """In chord mode, when the pending chord closes on its own (call `tick` then); otherwise None."""
        if self.mode is EntryMode.CHORD and self.started is not None:
            return self.started + self.window
        return None

    def press(self, key: str, at: float) -> KeyOutcome:
        """Feed one key press (`key` as a toolkit names it: "f", "space", "backspace") made at time `at`."""
        name = key.lower()
        if self.mode is EntryMode.CHORD:
            echo = self._close_if_expired(at)
        else:
            echo = ()
        if name in DOT_KEYS:
            dot = DOT_KEYS[name]
            if self.mode is EntryMode.CHORD and dot in self.pending:
                echo = (*echo, *self._close())  # the same key again is a new cell, not a longer chord
            if not self.pending:
                self.started = at
            self.pending.add(dot)
            return KeyOutcome(self.text, echo)
        if name == "space":
            if self.pending:
                echo = (*echo, *self._close())
                return KeyOutcome(self.text, echo)
            self.cells.append(" ")
            return KeyOutcome(self.text, (*echo, Echo(Heard.SPACE)))
        if name == "backspace":
            if self.pending and self.mode is EntryMode.DOTS_THEN_SPACE:
                self._reset_pending()
                return KeyOutcome(self.text, (*echo, Echo(Heard.DOTS_CLEARED)))
            self._reset_pending()
            if not self.cells:
                return KeyOutcome(self.text, (*echo, Echo(Heard.NOTHING_TO_DELETE)))
            removed = self.cells.pop()
            return KeyOutcome(self.text, (*echo, Echo(Heard.DELETED, removed)))
        if name == "enter":
            echo = (*echo, *self._close())
            return KeyOutcome(self.text, echo, handled=False)
        return KeyOutcome(self.text, echo, handled=False)

    def tick(self, now: float) -> KeyOutcome:
        """Let time pass: in chord mode, a chord whose window is over becomes a cell."""
        echo = self._close_if_expired(now)
        return KeyOutcome(self.text, echo)

    def flush(self) -> KeyOutcome:
        """Finish the pending cell now (before the text is submitted)."""
        echo = self._close()
        return KeyOutcome(self.text, echo)

    def clear(self) -> None:
        """Forget everything entered (after the text was submitted)."""
        self.cells.clear()
        self._reset_pending()

    def _close_if_expired(self, now: float) -> tuple[Echo, ...]:
        deadline = self.deadline
        if deadline is not None and now >= deadline:
            return self._close()
        return ()

    def _close(self) -> tuple[Echo, ...]:
        if not self.pending:
            return ()
        new_cell = celltable.cell(self.pending)
        self.cells.append(new_cell)
        self._reset_pending()
        return (Echo(Heard.CELL, new_cell),)

    def _reset_pending(self) -> None:
        self.pending = set()
        self.started = None
