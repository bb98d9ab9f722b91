"""The app's camera: a thread that only posts Textual messages, like toolong's file reader.

`CameraWorker` runs a `LiveScanner` in a process of its own (`live_process`) and relays its events on a thread
(or runs it on that thread, for a test's clock or stand-in camera). Each event the scanner reports
(`assistant.scanner.live`: a code announced, an aiming cue, the camera lost or back, a one-time notice) is posted
to the app as it is, in one `ScannerEvent` message; the app's one handler turns it into a `Reply` through the
session (`camera_reply`) and shows it with `TableApp.show`, so the screen and the speech say the same thing. A
camera that cannot be opened is said once; the scanner keeps retrying in the background, and the app works on
typed input meanwhile.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.message import Message

from assistant.core.cards.card import Deck
from assistant.core.language.reply import NOTICE, Reply
from assistant.core.words.scans import CAMERA_BACK, camera_failed
from assistant.scanner.live import CodeAnnounced, CueGiven, LiveEvent, SourceBack, SourceLost
from assistant.scanner.sources import FrameSource
from assistant.session import Session
from assistant.ui.messages import ScannerEvent

if TYPE_CHECKING:
    from assistant.scanner.live import LiveScanner

#: Seconds the camera handles no frame once the app makes a reply (its screen drawn, its speech begun: at most
#: about 50 ms on a quiet machine), so the reply has the cores to itself. A card in view is read a quarter of a
#: second later at most, and only right after a reply. Figures: docs/benchmarks.md.
REPLY_QUIET_S = 0.25


def camera_reply(session: Session, event: LiveEvent) -> Reply:
    """The reply to a scanner event: new input (a card read, a cue: her own key's, `Source.OWN_KEY`), or a notice
    that arrives on its own (the camera lost or back, a decoder missing: `Source.NOTICE`)."""
    if isinstance(event, CodeAnnounced):
        return session.card_desk.scanned(event.payload)  # the same reply as typing the card's name
    if isinstance(event, CueGiven):
        return session.card_desk.aiming(event.cue)
    if isinstance(event, SourceBack):
        return session.notice(CAMERA_BACK).coming(NOTICE)
    return session.notice(event.sentence).coming(NOTICE)  # SourceLost or ScannerNotice: said once, typing goes on


class CameraWorker:
    """Scans from a frame source and posts what it finds to `post` (the app's post_message), from a daemon thread.

    With a real clock and a camera that can be sent to another process, the whole scanner runs in a child
    (`live_process.LiveProcess`) and the thread only relays its events, so the camera never takes the app's
    interpreter; otherwise (a test's clock or stand-in camera, or no process can start) the thread runs the
    scanner itself (`scanner`)."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        post: Callable[[Message], object],
        decks: Callable[[], Sequence[Deck]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        repeat: float = 0,
    ) -> None:
        """`decks`: the decks in play, whose labels a code too hidden to decode is matched against; `clock`: the
        scanner's seconds, for each frame's time as it arrives (`LiveScanner`: a card lying in view is not repeated
        within the tracker's cooldown); a test's own clock is the frames' budget clock too; `repeat`: seconds after
        which a card lying still is said again (the settings' `scan_repeat`; 0: once)."""
        from assistant.scanner.live_process import LiveProcess, sendable

        self.post = post
        self.open_source, self.decks, self.clock, self.repeat = open_source, decks, clock, repeat
        self.process: LiveProcess | None = None
        if clock is time.monotonic and sendable(open_source):
            self.process = LiveProcess(open_source, self._report, decks, repeat=repeat)
        self.scanner: LiveScanner | None = None if self.process is not None else self._scanner()
        self.thread = threading.Thread(target=self._run, name="camera-worker", daemon=True)

    def _scanner(self) -> LiveScanner:
        """The scanner on this thread (a test's clock or stand-in camera, or no process could start), its retries
        in the background stage (in a process of its own where one starts, on a thread of its own otherwise)."""
        from assistant.scanner.decoders import Cascade
        from assistant.scanner.known import KnownLabels
        from assistant.scanner.live import LiveScanner
        from assistant.scanner.stage_process import ProcessStage

        known = KnownLabels(self.decks) if self.decks is not None else None
        # Each frame's budget runs on the thread's CPU time (`budget.budget_clock`), unless a test gives a clock
        # of its own: then on that one, which only the test moves, so every frame gets all the time it needs.
        cascade = Cascade(clock=None if self.clock is time.monotonic else self.clock)
        return LiveScanner(
            self.open_source,
            self._report,
            clock=self.clock,
            background=ProcessStage(known=known),
            cascade=cascade,
            repeat=self.repeat,
        )

    def start(self) -> None:
        """Start scanning in the background."""
        if self.process is not None and not self.process.start():
            self.process, self.scanner = None, self._scanner()  # no process could start: scanned here
        self.thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop scanning and wait for the thread (briefly)."""
        if self.process is not None:
            self.process.stop()
        if self.scanner is not None:
            self.scanner.stop()
        if self.thread.is_alive():
            self.thread.join(timeout)

    def quiet(self, seconds: float = REPLY_QUIET_S) -> None:
        """Handle no frame for `seconds`, from now (`LiveScanner.quiet`): the app makes a reply."""
        if self.process is not None:
            self.process.quiet(seconds)
        elif self.scanner is not None:
            self.scanner.quiet(seconds)

    def _run(self) -> None:
        try:
            if self.process is not None:
                self.process.run()
            elif self.scanner is not None:
                self.scanner.run()
        except Exception as exc:  # the camera must never take the app down with it
            self.post(ScannerEvent(SourceLost(camera_failed(exc.__class__.__name__))))

    def _report(self, event: LiveEvent) -> None:
        self.post(ScannerEvent(event))
