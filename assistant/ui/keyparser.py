"""The app's key parser: Textual's, except that Escape followed by a key is read as two keys, never as Alt+key.

This module imports on every platform. The drivers that use it live in `posix_driver.py` and `windows_driver.py`,
each imported only once Textual has chosen that platform's driver (`TableApp.get_driver_class`): the first needs
`termios`, which Windows does not have, the second `msvcrt`, which only Windows has. The parser subclasses
Textual's terminal parser (the private `textual._xterm_parser`), so `pyproject.toml` bounds Textual to the
releases this was tested with, and `tests/ui/test_app_screen.py` checks the parser.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual import events
from textual._xterm_parser import XTermParser

#: Show the terminal cursor, as a steady block (Textual hides it): both drivers write it (posix and Windows).
SHOW_CURSOR = "\x1b[?25h\x1b[2 q"

#: The characters after Escape that start a terminal's escape sequence (keys, mouse, reports), not a key of their own.
_SEQUENCE_STARTS = "[O]P\x1b"


class EscapeAloneParser(XTermParser):
    """Textual's terminal parser, except that Escape followed quickly by a key is Escape, then that key.

    Terminals send Alt+key as Escape and the key, so Textual reads a key pressed within its escape delay after
    Escape as Alt+key, or as a Mac Option character: Escape then 1 typed "\u00a1". This app binds no Alt keys, and
    Escape (stop speech) is pressed just before typing, so the pair is always read as two keys.

    A line feed is Enter: keys typed while the app starts reach it through the terminal's line discipline, which
    turns Enter into a line feed until the app takes the terminal (Textual would read it as Ctrl+J, and the lines
    typed would run together, their Enters lost); Ctrl+J is a line feed too, and the app binds it to nothing."""

    def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Iterable[events.Key]:
        if sequence == "\n":  # Enter typed before the app took the terminal (its line discipline made it a line feed)
            yield events.Key("enter", "\r")
            return
        if len(sequence) == 2 and sequence[0] == "\x1b" and sequence[1] not in _SEQUENCE_STARTS:
            yield events.Key("escape", "\x1b")
            yield from super()._sequence_to_key_events(sequence[1])
            return
        yield from super()._sequence_to_key_events(sequence, alt)
