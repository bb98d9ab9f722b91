"""The Textual app's part for sharing the table with phones: its screen region, its messages and its link to the
sharing server (`assistant/ui/share_link.py`), so that the app itself only places it and hands it each reply.

The region shows the address and the join code, and a key (F10, or the line `share qr`) shows the QR code in the
region alone with the input line, which fits an 80 x 24 terminal; a terminal too small for it is said, never cut
off. A new join code is shown there and said; a phone's move comes as a `PhoneMoved` message and is answered by the
app's `show`, as a typed line is.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from textual.geometry import Size
from textual.widgets import Static

from assistant.core.language.device import DeviceOutcome, DeviceRequest
from assistant.core.language.reply import AT_ONCE, NOTICE, PHONES, Control, Reply
from assistant.core.words.share import QR_BACK, QR_KEY, QR_PUT_AWAY, QR_SHOWN, qr_too_small
from assistant.session import Session
from assistant.ui.messages import PhoneMoved
from assistant.ui.share_link import TableShare, apply_device, qr_text, says_where

__all__ = ["QR_ONLY", "Phones", "SharePanel", "Show"]


class Show(Protocol):
    """The app's `show`: a reply, rendered on every front end as its origin asks (`Reply.origin`)."""

    def __call__(self, reply: Reply) -> None:
        """Show, say and braille the reply, and tell the phones."""


class Phones:
    """The phones as a front end (`FrontEnd`): after each reply they see the table as now (and a phone its
    question). A Textual widget has a `render` of its own, so the panel is not the front end itself."""

    def __init__(self, panel: SharePanel) -> None:
        self.panel = panel

    def render(self, reply: Reply) -> None:
        """Tell the phones (`SharePanel.after`); run a `share` line (`Control.SHARE`, on the app's loop: its answer is
        shown then). An aiming cue (`Reply.hint`) is the camera's, and another control the speech's: nothing for
        them."""
        if reply.control is Control.SHARE:
            self.panel.control(reply.argument)
        elif not reply.hint and not reply.control.runs:
            self.panel.after(reply)


#: The screen's class while the QR code is shown: every region hidden but the input line, the camera line and this.
QR_ONLY = "qr-only"


class SharePanel(Static):
    """The shared table's region and its server; `control` runs the `share` commands, `after` tells the phones."""

    DEFAULT_CSS = "SharePanel { height: auto; }"

    def __init__(self, session: Session, show: Show) -> None:
        """`show`: the app's `show`, which shows, says and brailles every reply (a phone's move included)."""
        super().__init__("", id="share", markup=False)
        self.show_reply = show
        self._drawn = ""
        """The join address drawn (with its code): a new code is drawn at once."""
        self.link = TableShare(
            session, self._submit, on_code=lambda code: self.redraw(), tell=lambda reply: show(reply.coming(PHONES))
        )
        self.phones = Phones(self)
        """The phones as a front end of the app's."""
        self._says_where = False
        """The newest answer is a `share` line's that says the address and the join code itself, so the region does
        not say them a second time on the screen (only how to show the QR code); set once it is shown, so any reply
        with lines after it is a newer answer."""

    def on_mount(self) -> None:
        self.display = False  # no blank line until the table is shared

    async def on_unmount(self) -> None:
        await self.link.stop()  # the phones' streams end; nothing is listening after the app

    @property
    def qr_shown(self) -> bool:
        """The QR code is on the screen alone (F10)."""
        return self.screen.has_class(QR_ONLY)

    def control(self, argument: str) -> None:
        """`share ARGUMENT` (or `--share`, F9, F10): carried out on the app's loop, its answer shown and said."""
        self.run_worker(self._control(argument), exclusive=False)

    async def _control(self, argument: str) -> None:
        if argument.strip().lower() == "qr":
            reply = self.toggle_qr()
        else:
            reply = await self.link.control(argument)
        self._says_where = False
        self.show_reply(reply.coming(AT_ONCE))  # her own key's answer: on the display at once
        self._says_where = says_where(argument)
        self.redraw()

    def after(self, reply: Reply) -> None:
        """After a reply is shown: the phones see the table as now (and a phone its question); the player's own new
        input (a line typed, a card scanned) takes the screen back from the QR code."""
        if reply.origin.new_input and self.qr_shown:
            self.hide_qr()
        if reply.lines and self._says_where:
            self._says_where = False  # another answer now: the region says the address again
            self.redraw()
        self.link.after(reply, force=not reply.origin.own_key)
        if self.link.join_url() != self._drawn:  # a new code (a phone kept out with the keyboard's no): shown at once
            self.redraw()

    def toggle_qr(self) -> Reply:
        """F10: the QR code alone on the screen, or the table back; said either way, and said when the terminal is
        too small to draw it whole."""
        if self.qr_shown:
            self.hide_qr()
            return Reply.of(QR_PUT_AWAY)
        if not self.link.join_url():
            return self.link.said()  # (not shared)
        too_small = self.too_small(self.app.size)
        if too_small is not None:
            return too_small
        self.screen.add_class(QR_ONLY)
        return Reply.of(QR_SHOWN, important=True)

    def too_small(self, size: Size) -> Reply | None:
        """Why the QR code cannot be drawn whole in a terminal of `size`, with the input line above it and the way
        back below it; None when it can."""
        lines = qr_text(self.link.join_url()).splitlines()
        columns, rows = len(lines[0]), len(lines) + 2
        width, height = size
        return Reply.error(qr_too_small(columns, rows, width, height)) if columns > width or rows > height else None

    def hide_qr(self) -> None:
        """The table's regions back, the QR code gone."""
        self.screen.remove_class(QR_ONLY)
        self.redraw()

    def redraw(self) -> None:
        """The address and the join code, and how to show the QR code (or the QR code itself, while it is shown)."""
        url = self._drawn = self.link.join_url()
        self.display = bool(url)
        if not url:
            self.screen.remove_class(QR_ONLY)
            return
        said = self.link.said().lines if not self._says_where else ()  # (the newest answer says them: not twice)
        shown = [qr_text(url), QR_BACK] if self.qr_shown else [*said, QR_KEY]
        self.update("\n".join(shown))

    def fit(self, size: Size) -> None:
        """The terminal was resized to `size`: when the QR code shown no longer fits, the table comes back, and why
        is said."""
        too_small = self.too_small(size) if self.qr_shown else None
        if too_small is not None:
            self.hide_qr()
            self.show_reply(too_small.coming(NOTICE))

    async def _submit(self, player: str, request: DeviceRequest) -> DeviceOutcome:
        """The server's submit: the move is posted as a message to this loop and answered in the order it came."""
        answer: asyncio.Future[DeviceOutcome] = asyncio.get_running_loop().create_future()
        self.post_message(PhoneMoved(player, request, answer))
        return await answer

    def on_phone_moved(self, message: PhoneMoved) -> None:
        """A phone's move: carried out by the session as a typed line is, then shown, saved, said and brailled by the
        app's `show` (it was saved before it is said), and its outcome returned to the phone."""
        message.stop()
        try:
            outcome = apply_device(self.link.session, message.player, message.request)
        except Exception as exc:  # the phone gets a sentence; the app carries on
            if not message.answer.done():
                message.answer.set_exception(exc)
            return
        if outcome.reply is not None:  # another hand's: said in turn, in the order the moves came; phones told
            self.show_reply(outcome.reply)  # (`Source.OTHER_HAND`, with its player: `PhoneDesk`)
        else:
            self.link.after(None, force=True)
        if not message.answer.done():
            message.answer.set_result(outcome)
