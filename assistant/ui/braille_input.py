"""An input line that also takes six-key braille entry (F D S J K L are dots 1 to 6).

`BrailleInput` is a Textual `Input`. With six-key entry off it is an ordinary input line (Unicode braille typed
through a braille keyboard layout or pasted arrives as ordinary characters). With it on, the dot keys make braille
cells, in chord mode or dots-then-Space mode (`assistant/core/braille/sixkey.py` holds the logic); every other key,
digits
included, works as usual. Ctrl+B turns six-key entry on in chord mode, then dots-then-Space mode, then off.
Every cell made or deleted and every change of mode is posted as an `Echoed` message
(`assistant.ui.messages`) to be spoken.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.timer import Timer
from textual.widgets import Input

from assistant.core.braille.sixkey import DEFAULT_WINDOW, EntryMode, KeyOutcome, SixKeyEntry
from assistant.core.words.entry import SIXKEY_CHORD_ON, SIXKEY_OFF, SIXKEY_SPACE_ON, sixkey_echo
from assistant.ui import messages

#: What Ctrl+B moves to from each state: off → chord → dots then Space → off.
_NEXT_MODE = {None: EntryMode.CHORD, EntryMode.CHORD: EntryMode.DOTS_THEN_SPACE, EntryMode.DOTS_THEN_SPACE: None}
_MODE_SENTENCES = {None: SIXKEY_OFF, EntryMode.CHORD: SIXKEY_CHORD_ON, EntryMode.DOTS_THEN_SPACE: SIXKEY_SPACE_ON}


#: The input's own editing actions (Textual's `Input` bindings), carried out in the order their keys come.
_EDITS = frozenset(
    {
        "cursor_left",
        "cursor_right",
        "cursor_left_word",
        "cursor_right_word",
        "home",
        "end",
        "delete_left",
        "delete_right",
        "delete_left_word",
        "delete_right_word",
        "delete_left_all",
        "delete_right_all",
    }
)


class BrailleInput(Input):
    """An `Input` with optional six-key braille entry."""

    BINDINGS = [Binding("ctrl+b", "next_six_key_mode", "Six-key braille", show=False)]

    Echoed = messages.Echoed
    """Something to say about the entry (`assistant.ui.messages.Echoed`)."""

    virtual_size = Reactive(Size(0, 0), layout=False)
    """As `Input`'s, but a key typed asks for no layout of the whole screen: the line is one row of fixed size, and
    `Input` sets its virtual size at every key to its width, which the screen's layout then sets back."""

    def __init__(
        self,
        *args: Any,
        six_key: EntryMode | None = None,
        window: float = DEFAULT_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        """`window`: the chord window in seconds; `clock`: seconds, when each key came (a test passes a clock of its
        own, so a chord is told from two cells by the keys' own times, never by how busy the machine is)."""
        super().__init__(*args, **kwargs)
        self.chord_window = window
        """Seconds within which keys pressed make one cell in chord mode."""
        self.clock = clock
        self._timer: Timer | None = None
        self._entry: SixKeyEntry | None = None
        self._shown = ""
        """The entry's text as last put into the input, to apply only what changed."""
        self.six_key = six_key
        self.shortcut: Callable[[str, str], bool] | None = None
        """Called with each printable key and the text typed so far; True: the key was a one-key answer, taken."""

    @property
    def six_key(self) -> EntryMode | None:
        """The six-key entry mode, or None when the keys type letters."""
        return self._entry.mode if self._entry else None

    @six_key.setter
    def six_key(self, mode: EntryMode | None) -> None:
        self._entry = SixKeyEntry(mode, self.chord_window) if mode is not None else None
        self._shown = ""

    def action_next_six_key_mode(self) -> None:
        """Ctrl+B: off → chord → dots then Space → off, saying the new mode."""
        if self._entry is not None:
            self._apply(self._entry.flush())
        self.six_key = _NEXT_MODE[self.six_key]
        self.post_message(self.Echoed(_MODE_SENTENCES[self.six_key]))

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            # Submitted here, in the order the keys came: left to the Enter binding, which runs once the key has
            # bubbled up to the app, a burst of keys ("yay", Enter, "tally", Enter) sent "yaytally" twice.
            event.stop()
            event.prevent_default()
            await self.action_submit()
            return
        if self.shortcut is not None and event.character and event.is_printable:
            if self.shortcut(event.character, self.value):
                event.stop()
                event.prevent_default()
                return
        if await self._edit_in_order(event):
            return
        entry = self._entry
        if entry is None:
            await super()._on_key(event)
            # The loop's other work between keys: keys that come at once (a braille keyboard's contracted word, a
            # fast typist) are otherwise taken back to back, a reply or the camera waiting the whole burst's work.
            await asyncio.sleep(0)
            return
        if event.key == "backspace" and not entry.cells and not entry.pending:
            return  # nothing of ours to delete: the input's own Backspace deletes what was typed otherwise
        outcome = entry.press(event.key, self.clock())
        if not outcome.handled:
            self._apply(outcome)
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        self._apply(outcome)
        self._wait_for_window()

    async def _edit_in_order(self, event: events.Key) -> bool:
        """An editing key of the input's own (Left, End, Backspace, Control+A …) carried out here, as it comes: left
        to the input's binding, it runs only once the key has gone up to the app and back, after the letters typed
        behind it in the same burst ("sper", Left ×3, "u", End, " neigh" read "sp neureigh"). A key whose cell six-key
        entry is making (dots then Space) is the entry's. Whether the key was one."""
        if self._entry is not None and (self._entry.cells or self._entry.pending):
            return False
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.action.partition("(")[0] in _EDITS:
                event.stop()
                event.prevent_default()
                await self.run_action(binding.action)
                return True
        return False

    def _wait_for_window(self) -> None:
        """Look again once the pending chord's window is over on `clock` (a timer, since a terminal reports no key
        releases)."""
        entry = self._entry
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if entry is not None and entry.deadline is not None:
            self._timer = self.set_timer(max(entry.deadline - self.clock(), 0.0) + 0.01, self._tick)

    def _tick(self) -> None:
        """The chord window may be over: a chord whose window has passed on `clock` becomes a cell; one whose window
        has not (a clock that went slower than the timer) is looked at again later."""
        if self._entry is not None:
            self._apply(self._entry.tick(self.clock()))
            self._wait_for_window()

    async def action_submit(self) -> None:
        """Enter: finish the pending cell, submit the line, empty the input line for the next one."""
        if self._entry is not None:
            self._apply(self._entry.flush())
            self._entry.clear()
            self._shown = ""
        await super().action_submit()
        # Emptied here, with the line already in the message: keys typed before the app handles that message
        # (a fast typist, a pasted script) go into the next line instead of being wiped with this one.
        self.value = ""

    def _apply(self, outcome: KeyOutcome) -> None:
        """Put the cells made or removed since last time into the input, and echo."""
        before, after = self._shown, outcome.text
        if after.startswith(before):
            if after != before:
                self.insert_text_at_cursor(after[len(before) :])
        else:
            for _ in range(len(before) - len(after)):
                self.action_delete_left()
        self._shown = after
        if outcome.echo:
            self.post_message(self.Echoed(sixkey_echo(outcome.echo)))
