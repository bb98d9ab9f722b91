"""The app's camera: a thread that scans and only posts Textual messages, like toolong's file reader.

`CameraWorker` runs a `LiveScanner` on its own thread. Each event the scanner reports (`assistant.scanner.live`:
a code announced, an aiming cue, the camera lost or back, a one-time notice) is posted to the app as it is, in one
`ScannerEvent` message; the app's one handler turns it into a `Reply` through the session (`camera_reply`) and
shows it with `TableApp.show`, so the screen and the speech say the same thing. A camera that cannot be opened is
said once; the thread keeps retrying in the background, and the app works on typed input meanwhile.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from textual.message import Message

from assistant.core.cards.card import Deck
from assistant.core.language.reply import Reply
from assistant.core.words.scans import CAMERA_BACK, camera_failed
from assistant.scanner.live import CodeAnnounced, CueGiven, LiveEvent, SourceBack, SourceLost
from assistant.scanner.sources import FrameSource
from assistant.session import Session
from assistant.ui.messages import ScannerEvent

#: Seconds the camera handles no frame once the app makes a reply (its screen drawn, its speech begun: at most
#: about 50 ms on a quiet machine), so the reply does not share the interpreter with the frame path. On a
#: card-rich clip keys waited 36 ms more at p90 with the camera on and the event loop was held up to 120 ms (50 ms
#: with it off); with the quiet, 26 ms and 102 ms (docs/benchmarks.md). A card in view is read a quarter of a
#: second later at most, and only right after a reply.
REPLY_QUIET_S = 0.25


def camera_reply(session: Session, event: LiveEvent) -> tuple[Reply, bool]:
    """The reply to a scanner event, and whether it answers new input (a card read, a cue) rather than being a
    notice that arrives on its own (the camera lost or back, a decoder missing)."""
    if isinstance(event, CodeAnnounced):
        return session.scanned(event.payload), True  # the same reply as typing the card's name
    if isinstance(event, CueGiven):
        return session.aiming(event.cue), True
    if isinstance(event, SourceBack):
        return session.notice(CAMERA_BACK), False
    return session.notice(event.sentence), False  # SourceLost or ScannerNotice: said once, typing carries on


class CameraWorker:
    """Scans from a frame source on a daemon thread and posts what it finds to `post` (the app's post_message)."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        post: Callable[[Message], object],
        decks: Callable[[], Sequence[Deck]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        **scanner_options: Any,
    ) -> None:
        """`decks`: the decks in play, whose labels a code too hidden to decode is matched against; `clock`: the
        scanner's seconds, for each frame's time as it arrives (`LiveScanner`: a card lying in view is not repeated
        within the tracker's cooldown); a test's own clock is the frames' budget clock too."""
        from assistant.scanner.decoders import Cascade
        from assistant.scanner.known import KnownLabels
        from assistant.scanner.live import LiveScanner
        from assistant.scanner.stage_process import ProcessStage

        self.post = post
        known = KnownLabels(decks) if decks is not None else None
        # Every retry in a process of its own (the thread stage where none can start): the app's interpreter does
        # each frame's first pass and the sightings only, so the retries never take it from a key or a reply.
        scanner_options.setdefault("background", ProcessStage(known=known))
        # Each frame's budget runs on the thread's CPU time (`budget.budget_clock`), unless a test gives a clock
        # of its own: then on that one, which only the test moves, so every frame gets all the time it needs.
        scanner_options.setdefault("cascade", Cascade(clock=None if clock is time.monotonic else clock))
        self.scanner = LiveScanner(open_source, self._report, clock=clock, **scanner_options)
        self.thread = threading.Thread(target=self._run, name="camera-worker", daemon=True)

    def start(self) -> None:
        """Start scanning in the background."""
        self.thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop scanning and wait for the thread (briefly)."""
        self.scanner.stop()
        if self.thread.is_alive():
            self.thread.join(timeout)

    def quiet(self, seconds: float = REPLY_QUIET_S) -> None:
        """Handle no frame for `seconds`, from now (`LiveScanner.quiet`): the app makes a reply."""
        self.scanner.quiet(seconds)

    def _run(self) -> None:
        try:
            self.scanner.run()
        except Exception as exc:  # the camera must never take the app down with it
            self.post(ScannerEvent(SourceLost(camera_failed(exc.__class__.__name__))))

    def _report(self, event: LiveEvent) -> None:
        self.post(ScannerEvent(event))
