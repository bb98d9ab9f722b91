"""The app's regions as a reader moves through them: the terminal cursor on a region's first line, where a braille
display and a screen reader follow it (`RegionCursor`), and the history of answers at the foot of the screen
(`HistoryRegion`). The app (`assistant/ui/app.py`) places the regions and hands these the moves.
"""

from __future__ import annotations

from typing import Protocol

from textual.app import App
from textual.geometry import Offset, Region
from textual.widget import Widget
from textual.widgets import Input, Static

from assistant.core.words.screen import HISTORY_HEADING

__all__ = ["HISTORY_SHOWN", "REGION_IDS", "HistoryRegion", "RegionCursor"]

#: The regions the cursor moves through with Up and Down, top to bottom (the camera line and the shared table's
#: region are left out: they hold no answer to read).
REGION_IDS = ("status", "prompt", "answer", "table", "stables", "history-text")
#: How many earlier answers (and speech keys' feedback) the history region keeps.
HISTORY_SHOWN = 20


class QrShown(Protocol):
    """Whether the QR code is shown alone (`SharePanel.qr_shown`): the input line is then the one text left."""

    @property
    def qr_shown(self) -> bool: ...


class RegionCursor:
    """The terminal cursor on one of the app's regions (`REGION_IDS`): set in the handler that changes what is shown,
    so the frame being drawn already has it, and moved with its region when a new layout moves the region."""

    def __init__(self, app: App[None], share: QrShown) -> None:
        self.app = app
        self.share = share
        self.region = REGION_IDS.index("answer")
        """The region the cursor is on."""

    def widget(self, index: int) -> Widget:
        """The widget of a region (`REGION_IDS`)."""
        return self.app.query_one(f"#{REGION_IDS[index]}")

    def place(self, index: int | None = None, redraw: bool = True) -> None:
        """Put the terminal cursor at the start of a region (the answer unless told), where a braille display
        follows it; set here, in the handler, so the frame being drawn already has it (`redraw`: and draw one)."""
        if index is not None:
            self.region = index
        widget = self.widget(self.region)
        if not widget.region and self.share.qr_shown:  # the QR code alone (F10): the input line is the one text left
            widget = self.app.query_one("#prompt", Input)
        region = widget.content_region if widget.region else None
        if region is None:
            return
        if widget.id == "prompt":
            self.app.cursor_position = self.app.query_one("#prompt", Input).cursor_screen_offset
        else:
            self.app.cursor_position = Offset(region.x, region.y)
        if redraw:
            self.move(widget)

    @staticmethod
    def move(widget: Widget) -> None:
        """Draw a frame that moves the terminal's cursor: the frame written carries the cursor's place, and one
        cell of the region redrawn is enough for a frame (a whole screen redrawn only for a cursor cost the loop a
        full frame's rendering at every reply)."""
        widget.refresh(Region(0, 0, 1, 1))

    def follow_layout(self, _screen: object) -> None:
        """The regions were laid out anew: the cursor moved with its region when the region moved."""
        before = self.app.cursor_position
        self.place(redraw=False)
        if self.app.cursor_position != before:
            self.move(self.widget(self.region))

    def on_answer(self) -> None:
        """After a reply: the cursor on the answer, now and again once the new texts are laid out."""
        self.place(REGION_IDS.index("answer"))
        self.app.call_after_refresh(self.place)


class HistoryRegion:
    """The history region: earlier answers and the speech keys' feedback, newest first, no more lines than the
    terminal has rows."""

    def __init__(self, app: App[None]) -> None:
        self.app = app
        self.entries: list[list[str]] = []
        """Its entries, newest first, each the lines of an answer or a feedback."""
        self.read: list[list[str]] = []
        """Its entries as a screen reader is given them (`Reply.reader_lines`: a new join code in other words), line
        for line beside `entries`."""

    def add(self, extra: list[str], read: list[str] | None = None) -> None:
        """Put lines at the top of the history (newest first), keeping the last `HISTORY_SHOWN` entries; `read`:
        the same lines as a screen reader is given them (None: as shown, a feedback's)."""
        self.entries = [extra, *self.entries][:HISTORY_SHOWN]
        self.read = [extra if read is None else read, *self.read][:HISTORY_SHOWN]
        self.draw()

    def draw(self, rows: int | None = None) -> None:
        """The region's text: no more lines than the terminal has rows (`rows`, its height unless told). Lines
        below those could never be seen (the region is at the foot of the screen and does not scroll), and every
        line in it is wrapped and drawn again at each reply."""
        lines = self._cut(self.entries, rows)
        self.app.query_one("#history-text", Static).update("\n".join([HISTORY_HEADING, *lines]))

    def reader_lines(self, rows: int | None = None) -> list[str]:
        """The region's lines as a screen reader is given them (the cursor moved onto it): its heading, then the
        lines `draw` shows, each as read (`read`)."""
        return [HISTORY_HEADING, *self._cut(self.read, rows)]

    def _cut(self, entries: list[list[str]], rows: int | None) -> list[str]:
        """The entries' lines, no more than the terminal has rows (`rows`, its height unless told)."""
        height = self.app.size.height if rows is None else rows
        return [line for entry in entries for line in entry][:height]
