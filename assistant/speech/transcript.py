"""The transcript: every utterance the speech service is given, one line each, appended to a text file.

For a player who wants to read back what was said, a sighted helper, and tests (`read_transcript` in
`benchmarks/speech.py` reads it back). A line is the local time (ISO 8601, milliseconds), a tab, the priority and
its marks, a tab, and the text (cleaned: one line, no control characters):

    2026-05-09T14:03:12.481+02:00	important sound:your-turn	Turn 5: Ben's turn.

Marks: `muted` (given while speech was muted), `silent` (no speech engine works, or speech is off), `private`
(headphones only), `repeat` (a repeat or a step through the history), `sound:NAME` (its earcon). Notices about
speech itself (the engine chosen, a sound failure) are lines of priority `notice`. The file is opened for
appending, so a second game adds to it; a write that fails is reported once and the transcript stops.
"""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path
from typing import TextIO

from assistant.core.text import clean_untrusted
from assistant.core.words.voice import transcript_failed


class Transcript:
    """Appends lines to a file; `write` may be called from any thread and never raises."""

    def __init__(self, path: Path | str) -> None:
        """Open the file for appending; OSError when it cannot be opened (a missing folder is not created: a
        mistyped path should be said, not silently made)."""
        self.path = Path(path).expanduser()
        self._file: TextIO | None = open(self.path, "a", encoding="utf-8")  # kept open for the whole game
        self._lock = threading.Lock()
        self.failure = ""
        """The sentence saying why writing stopped, or empty."""

    def write(self, kind: str, text: str, marks: tuple[str, ...] = ()) -> None:
        """Append one line: the time, the kind (a priority or "notice") with its marks, the cleaned text."""
        stamp = datetime.now().astimezone().isoformat(timespec="milliseconds")
        label = " ".join((kind, *marks))
        line = f"{stamp}\t{label}\t{clean_untrusted(text, 5000)}\n"
        with self._lock:
            if self._file is None:
                return
            try:
                self._file.write(line)
                self._file.flush()  # a reader (a helper, a test) sees each line as it is said
            except (OSError, ValueError) as exc:
                self.failure = transcript_failed(str(self.path), getattr(exc, "strerror", None) or str(exc))
                self._close()

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
            self._file = None
