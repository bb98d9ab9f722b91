"""The app's camera: a thread that scans and only posts Textual messages, like toolong's file reader.

`CameraWorker` runs a `LiveScanner` on its own thread. Everything it learns becomes a message posted to the app
(`CardScanned`, `AimingCue`, `CameraLost`, `CameraBack`, `ScannerNoticed`); the app's handlers turn each into a
`Reply` through the session and show it with `TableApp.show`, so the screen and the speech say the same thing.
A camera that cannot be opened is said once; the thread keeps retrying in the background, and the app works on
typed input meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from textual.message import Message

from assistant.core.aiming import Cue


class CardScanned(Message):
    """A code was read steadily enough to announce (the payload is untrusted)."""

    def __init__(self, payload: str) -> None:
        super().__init__()
        self.payload = payload


class AimingCue(Message):
    """An aiming cue to show on the camera line and say."""

    def __init__(self, cue: Cue) -> None:
        super().__init__()
        self.cue = cue

    def can_replace(self, message: Message) -> bool:
        """A newer cue makes an older one waiting in the queue pointless."""
        return isinstance(message, AimingCue)


class CameraLost(Message):
    """The camera is missing or stopped working; `sentence` says so."""

    def __init__(self, sentence: str) -> None:
        super().__init__()
        self.sentence = sentence


class CameraBack(Message):
    """The camera works again after being lost."""


class ScannerNoticed(Message):
    """A one-time notice from the scanner (a decoder library missing)."""

    def __init__(self, sentence: str) -> None:
        super().__init__()
        self.sentence = sentence


class CameraWorker:
    """Scans from a frame source on a daemon thread and posts what it finds to `post` (the app's post_message)."""

    def __init__(self, open_source: Callable[[], object], post: Callable[[Message], object], **scanner_options):
        from assistant.scanner.background import BackgroundStage
        from assistant.scanner.live import LiveScanner

        self.post = post
        scanner_options.setdefault("background", BackgroundStage())
        self.scanner = LiveScanner(open_source, self._report, **scanner_options)
        self.thread = threading.Thread(target=self._run, name="camera-worker", daemon=True)

    def start(self) -> None:
        """Start scanning in the background."""
        self.thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop scanning and wait for the thread (briefly)."""
        self.scanner.stop()
        if self.thread.is_alive():
            self.thread.join(timeout)

    def _run(self) -> None:
        try:
            self.scanner.run()
        except Exception as exc:  # noqa: BLE001 - the camera must never take the app down with it
            from assistant.core import words

            self.post(CameraLost(words.camera_failed(exc.__class__.__name__)))

    def _report(self, event) -> None:
        from assistant.scanner.live import CodeAnnounced, CueGiven, ScannerNotice, SourceBack, SourceLost

        if isinstance(event, CodeAnnounced):
            self.post(CardScanned(event.payload))
        elif isinstance(event, CueGiven):
            self.post(AimingCue(event.cue))
        elif isinstance(event, SourceLost):
            self.post(CameraLost(event.sentence))
        elif isinstance(event, SourceBack):
            self.post(CameraBack())
        elif isinstance(event, ScannerNotice):
            self.post(ScannerNoticed(event.sentence))
