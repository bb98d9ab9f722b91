"""A camera's recorded frames played behind OpenCV's capture interface (`sources.Capture`), of any kind a camera can
give (empty, 16-bit, floating point, one to four channels): the webcam is the one thing a test stands in for.

`RecordedCapture` reads its frames from a `.npz` file (numpy's own format keeps each frame's type and shape as the
camera gave it), so the app's scanner process can open it by itself (`recorded_opener`, sent to the child like a
real camera's opener). Each frame is given at the camera's pace, `period` seconds apart; after the last, the last
`hold` frames are given again and again (a card lying in view)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.scanner.sources import Webcam


def record(path: Path, frames: Sequence[Any]) -> Path:
    """Write `frames` (arrays of any type and shape) to `path`, in order."""
    np.savez(path, **{f"frame{i:05d}": np.asarray(frame) for i, frame in enumerate(frames)})
    return path


class RecordedCapture:
    """Plays the frames recorded at `path` as a webcam's capture; `before_each`, when given, is called before each
    frame is handed out (a test's lockstep with the live loop)."""

    def __init__(
        self, path: Path, period: float = 1 / 30, hold: int = 1, before_each: Callable[[], None] | None = None
    ):
        with np.load(path) as recorded:
            self.frames = [recorded[name] for name in sorted(recorded.files)]
        self.period, self.hold, self.before_each = period, hold, before_each
        self.position = 0
        self.released = False

    def isOpened(self) -> bool:  # OpenCV's spelling
        return not self.released

    def read(self) -> tuple[bool, Any]:
        if self.released:
            return False, None
        if self.before_each is not None:
            self.before_each()
        if self.period:
            time.sleep(self.period)  # the camera's frame interval (real time, as a camera's)
        if self.position >= len(self.frames):
            self.position = len(self.frames) - self.hold
        frame = self.frames[self.position]
        self.position += 1
        return True, frame

    def release(self) -> None:
        self.released = True

    def get(self, prop: int) -> float:
        return 0.0

    def set(self, prop: int, value: float) -> bool:
        return False


def _recorded_capture(path: Path, period: float, hold: int, index: int) -> RecordedCapture:
    return RecordedCapture(path, period, hold)


def recorded_opener(path: Path, period: float = 1 / 30, hold: int = 1) -> Callable[[], Webcam]:
    """A camera opener that can be sent to the app's scanner process: a `Webcam` on a `RecordedCapture` of `path`."""
    return functools.partial(
        Webcam, 0, functools.partial(_recorded_capture, Path(path), period, hold), exposure_settable=False
    )
